import Foundation

/// A Firestore value: what a document field holds.
///
/// Equality and order are Firestore's (see `ValueOrder.swift`): across types
/// null < booleans < numbers < timestamps < strings < bytes < references < geopoints <
/// arrays < maps, and within numbers integers and doubles compare exactly by value, so
/// `.integer(1) == .double(1.0)`, NaN equals NaN and sorts first, and `-0.0 == 0.0`.
/// `isIdentical(to:)` is the stricter test (same type, same bits) that decides whether a
/// stored value changed.
package enum Value: Sendable {
  case null
  case boolean(Bool)
  case integer(Int64)
  case double(Double)
  /// Stored with microsecond precision.
  case timestamp(Timestamp)
  case string(String)
  case bytes(Data)
  /// A document in the same database.
  case reference(DocumentKey)
  case geoPoint(GeoPoint)
  /// May not directly contain another array.
  case array([Value])
  /// Field names are Swift strings, so two names that differ only by Unicode
  /// normalization (`"\u{E9}"` and `"e\u{301}"`) cannot both be keys of one map; Firestore
  /// would keep them apart. Every other comparison of names and strings is by UTF-8 bytes.
  case map([String: Value])

  /// The rank of the value's type in Firestore's cross-type order.
  package var typeOrder: TypeOrder {
    switch self {
    case .null: .null
    case .boolean: .boolean
    case .integer, .double: .number
    case .timestamp: .timestamp
    case .string: .string
    case .bytes: .bytes
    case .reference: .reference
    case .geoPoint: .geoPoint
    case .array: .array
    case .map(let fields): Value.vectorElements(fields) != nil ? .vector : .map
    }
  }

  /// The numbers of Firestore's vector value, a map `{"__type__": "__vector__", "value":
  /// [numbers]}` (what the clients' `Vector` writes), or `nil` for any other map.
  package static func vectorElements(_ fields: [String: Value]) -> [Value]? {
    guard fields.count == 2, case .string("__vector__")? = fields["__type__"],
      case .array(let values)? = fields["value"], values.allSatisfy(\.isNumber)
    else { return nil }
    return values
  }

  /// The numbers of a vector value (`vectorElements`) as doubles, or `nil` for any other
  /// map.
  package static func vectorNumbers(_ fields: [String: Value]) -> [Double]? {
    vectorElements(fields)?.map(FieldOperations.asDouble)
  }

  /// Type ranks, in order.
  package enum TypeOrder: Int, Sendable, Comparable {
    /// `vector` is Firestore's vector value, a map of a special shape (`vectorElements`),
    /// which sorts as its own type, between arrays and maps.
    case null, boolean, number, timestamp, string, bytes, reference, geoPoint, array, vector, map

    package static func < (a: TypeOrder, b: TypeOrder) -> Bool { a.rawValue < b.rawValue }
  }

  /// The name of the type, for error messages ("expected a number but found a string").
  package var typeName: String {
    switch self {
    case .null: "null"
    case .boolean: "boolean"
    case .integer: "integer"
    case .double: "double"
    case .timestamp: "timestamp"
    case .string: "string"
    case .bytes: "bytes"
    case .reference: "reference"
    case .geoPoint: "geopoint"
    case .array: "array"
    case .map(let fields): Value.vectorElements(fields) != nil ? "vector" : "map"
    }
  }

  package var isNaN: Bool {
    if case .double(let d) = self { return d.isNaN }
    return false
  }

  package var isNumber: Bool { typeOrder == .number }
}
