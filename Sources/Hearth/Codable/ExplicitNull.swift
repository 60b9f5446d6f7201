import Foundation

/// Marks an optional property whose `nil` is written as null, where a plain optional's
/// `nil` leaves the field out — for fields that queries filter with `== NSNull()`, or
/// that a merge must clear.
///
/// For example:
///
/// ```swift
/// struct Profile: Codable {
///   @ExplicitNull var bio: String?
/// }
/// try Firestore.Encoder().encode(Profile())   // ["bio": NSNull()]
/// ```
///
/// Null and a missing field both read as `nil`. Firebase throws `keyNotFound` for a
/// missing field, so adding the property breaks reading older documents; the
/// `KeyedDecodingContainer.decode(_:forKey:)` overload below fixes that for every decoder.
@propertyWrapper
public struct ExplicitNull<Value> {
  /// The value, or `nil` to have null written.
  public var wrappedValue: Value?

  /// A property holding `value` (`nil`: null, when written).
  public init(wrappedValue value: Value?) {
    self.wrappedValue = value
  }
}

extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}
extension ExplicitNull: Sendable where Value: Sendable {}

extension ExplicitNull: NilWhenMissing {
  static var missing: ExplicitNull { ExplicitNull(wrappedValue: nil) }
}

extension ExplicitNull: Encodable where Value: Encodable {
  /// Writes the value, or null for `nil`.
  ///
  /// - Throws: what the value's own `encode(to:)` (or the encoder) throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension ExplicitNull: Decodable where Value: Decodable {
  /// Reads null as `nil`, anything else as `Value`.
  ///
  /// - Throws: what decoding `Value` throws (`DecodingError.typeMismatch` when the field
  ///   holds another type).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }
}

extension KeyedDecodingContainer {
  /// Reads a missing `@ExplicitNull` field as `nil` instead of throwing `keyNotFound`.
  ///
  /// - Throws: what `ExplicitNull.init(from:)` throws for a field that is there.
  public func decode<Value: Decodable>(
    _ type: ExplicitNull<Value>.Type, forKey key: Key
  ) throws -> ExplicitNull<Value> {
    try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
  }
}
