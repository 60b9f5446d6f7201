import Foundation

/// Builds the values Firebase's API hands out, straight from a document's bytes:
/// `NSNumber` for integers and doubles, `Bool`, `String`, `NSNull`, `Timestamp`, `Data`,
/// `GeoPoint`, `[Any]`, `[String: Any]`, for a reference whatever `reference` makes (the
/// API's `DocumentReference`) and for a vector (`Value.vectorElements`) whatever `vector`
/// makes of its numbers (the API's `VectorValue`). Hearth's `UserDataWriter` explains the
/// choices.
///
/// It lives here, beside the decoder, rather than in the API module: the decoder is
/// generic over its builder, and a generic function called from another module ran
/// unspecialized (through witness tables, with a metadata lookup per call), ~30,000
/// instructions for one post's `data()`. Here, `EncodedDocument.anyFields` is compiled
/// for this builder.
package struct AnyBuilder: FieldBuilder {
  /// One `NSNull` for every null read: on Linux each `NSNull()` is an allocation.
  private static let nullValue = NSNull()

  package let makeReference: (DocumentKey) -> Any
  package let makeVector: ([Double]) -> Any

  package init(reference: @escaping (DocumentKey) -> Any, vector: @escaping ([Double]) -> Any) {
    makeReference = reference
    makeVector = vector
  }

  package func null() -> Any { Self.nullValue }
  package func boolean(_ value: Bool) -> Any { value }
  /// The `NSNumber`s of 0 to 1,023, made once and shared: integers that small (counts,
  /// ratings, quantities) are most of those documents hold, and making an `NSNumber` on
  /// Linux is an allocation and ~660 instructions, a free later, where Apple's are tagged
  /// pointers that cost nothing. Each is `NSNumber(value:)` of its `Int64`, as any other
  /// integer's, so it casts the same.
  private static let smallIntegers = (0..<1024).map { NSNumber(value: Int64($0)) }

  package func integer(_ value: Int64) -> Any {
    value >= 0 && value < Self.smallIntegers.count ? Self.smallIntegers[Int(value)] : NSNumber(value: value)
  }
  package func double(_ value: Double) -> Any { NSNumber(value: value) }
  package func timestamp(_ value: Timestamp) -> Any { value }
  package func string(_ value: String) -> Any { value }
  package func bytes(_ value: Data) -> Any { value }
  package func reference(_ key: DocumentKey) -> Any { makeReference(key) }
  package func geoPoint(_ value: GeoPoint) -> Any { value }
  package func array(_ elements: [Any]) -> Any { elements }
  /// A map, or the vector it stands for: `{"__type__": "__vector__", "value": [numbers]}`.
  package func map(_ fields: [String: Any]) -> Any {
    guard fields.count == 2, fields["__type__"] as? String == "__vector__", let elements = fields["value"] as? [Any]
    else { return fields }
    var numbers: [Double] = []
    numbers.reserveCapacity(elements.count)
    for element in elements {
      // Booleans are Swift `Bool`s (which a cast would take for `NSNumber`s on Linux).
      guard Swift.type(of: element) != Bool.self, let number = element as? NSNumber else { return fields }
      numbers.append(number.doubleValue)
    }
    return makeVector(numbers)
  }

  /// A stored value as the API hands it out.
  package func value(_ value: Value) -> Any {
    switch value {
    case .null: null()
    case .boolean(let b): boolean(b)
    case .integer(let i): integer(i)
    case .double(let d): double(d)
    case .timestamp(let t): timestamp(t)
    case .string(let s): string(s)
    case .bytes(let d): bytes(d)
    case .reference(let key): reference(key)
    case .geoPoint(let g): geoPoint(g)
    case .array(let elements): array(elements.map(self.value))
    case .map(let map): Value.vectorNumbers(map).map(makeVector) ?? fields(map)
    }
  }

  /// `mapValues` keeps the dictionary's hash table, so no key is hashed again.
  package func fields(_ fields: [String: Value]) -> [String: Any] { fields.mapValues(value) }
}

extension EncodedDocument {
  /// The document's fields as the API hands them out (see `AnyBuilder`).
  package func anyFields(reference: @escaping (DocumentKey) -> Any, vector: @escaping ([Double]) -> Any)
    -> [String: Any]
  {
    decode(using: AnyBuilder(reference: reference, vector: vector)).fields
  }
}
