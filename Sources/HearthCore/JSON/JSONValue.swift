/// A JSON document as Hearth reads and writes it.
///
/// Unlike `JSONSerialization`, this keeps what Firestore's value model needs to round-trip
/// exactly: an integer (a number without fraction or exponent) stays distinct from a double
/// (`2` is not `2.0`), integers are exact 64-bit values (`2^53 + 1` is not rounded), and an
/// object keeps its members in the order they were written.
///
/// For example:
///
/// ```swift
/// let value = try JSONParser.parse(#"{"name": "Alice", "age": 30, "score": 2.0}"#)
/// value["age"]    // .integer(30)
/// value["score"]  // .double(2.0)
/// JSONWriter().string(from: value)  // {"name":"Alice","age":30,"score":2.0}
/// ```
package enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// A number written without fraction or exponent, which fits in 64 bits.
  case integer(Int64)
  /// A number written with a fraction or an exponent. Never NaN or infinite when parsed.
  case double(Double)
  case string(String)
  case array([JSONValue])
  /// Members in the order written; keys are unique when parsed.
  case object([(key: String, value: JSONValue)])

  /// The value of the member `key` of an object (the first, if a built object repeats a
  /// key); `nil` for a missing key or a value that is not an object.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The name of the JSON type, for messages ("expected a string, found a number").
  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue: Equatable {
  /// Structural equality of the JSON text's meaning: same types, same member order, and
  /// doubles with the same bits (so `-0.0` differs from `0.0`, and a NaN built in code
  /// equals any NaN). `.integer(2)` and `.double(2)` differ, as they do when stored.
  package static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && zip(x, y).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
    default: return false
    }
  }
}
