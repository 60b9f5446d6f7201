import Foundation

/// A type that `@ServerTimestamp` can hold: `Date` or `Timestamp`.
public protocol ServerTimestampWrappable {
  /// The value for a stored timestamp.
  ///
  /// - Throws: whatever a conforming type cannot make of the timestamp; `Date` and
  ///   `Timestamp` never throw.
  static func wrap(_ timestamp: Timestamp) throws -> Self
  /// The timestamp to store for a value.
  ///
  /// - Throws: whatever a conforming type cannot store; `Date` and `Timestamp` never
  ///   throw.
  static func unwrap(_ value: Self) throws -> Timestamp
}

extension Date: ServerTimestampWrappable {
  /// The timestamp's date.
  ///
  /// - Throws: never.
  public static func wrap(_ timestamp: Timestamp) throws -> Date { timestamp.dateValue() }
  /// The date's timestamp, its fraction cut to nanoseconds as Firebase's
  /// `Timestamp(date:)` does.
  ///
  /// - Throws: never.
  public static func unwrap(_ value: Date) throws -> Timestamp { Timestamp(date: value) }
}

extension Timestamp: ServerTimestampWrappable {
  /// The timestamp itself.
  ///
  /// - Throws: never.
  public static func wrap(_ timestamp: Timestamp) throws -> Timestamp { timestamp }
  /// The timestamp itself.
  ///
  /// - Throws: never.
  public static func unwrap(_ value: Timestamp) throws -> Timestamp { value }
}

/// Marks a timestamp property that the database fills in: `nil` is written as
/// `FieldValue.serverTimestamp()`, so the stored value is the commit's time (the
/// document's `updateTime`); a value is written as it is.
///
/// For example:
///
/// ```swift
/// struct Message: Codable {
///   var text: String
///   @ServerTimestamp var sentAt: Date?
/// }
/// try room.collection("messages").addDocument(from: Message(text: "hi"))
/// ```
///
/// A missing field reads as `nil`. Firebase throws `keyNotFound` there (its issue
/// #14883), which breaks reading documents written before the property was added; the
/// `KeyedDecodingContainer.decode(_:forKey:)` overload below fixes that for every
/// decoder, since synthesized `init(from:)` calls it.
@propertyWrapper
public struct ServerTimestamp<Value: ServerTimestampWrappable> {
  /// The stored time, or `nil` to have the commit's time written.
  public var wrappedValue: Value?

  /// A property holding `value` (`nil`: the commit's time, when written).
  public init(wrappedValue value: Value?) {
    self.wrappedValue = value
  }
}

extension ServerTimestamp: Equatable where Value: Equatable {}
extension ServerTimestamp: Hashable where Value: Hashable {}
extension ServerTimestamp: Sendable where Value: Sendable {}

extension ServerTimestamp: NilWhenMissing {
  static var missing: ServerTimestamp { ServerTimestamp(wrappedValue: nil) }
}

extension ServerTimestamp: Codable {
  /// Null reads as `nil`; otherwise a timestamp (Hearth's decoder also takes a `Date`).
  ///
  /// - Throws: `DecodingError` for a value that is not a timestamp; what `Value.wrap(_:)`
  ///   throws.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      wrappedValue = nil
    } else {
      wrappedValue = try Value.wrap(container.decode(Timestamp.self))
    }
  }

  /// `nil` writes `FieldValue.serverTimestamp()`, which only Hearth's encoder can write.
  ///
  /// - Throws: `EncodingError.invalidValue` for a `nil` value with another encoder;
  ///   what `Value.unwrap(_:)` or the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(Value.unwrap(wrappedValue))
    } else {
      try container.encode(FieldValue.serverTimestamp())
    }
  }
}

extension KeyedDecodingContainer {
  /// Reads a missing `@ServerTimestamp` field as `nil` instead of throwing `keyNotFound`.
  ///
  /// - Throws: what `ServerTimestamp.init(from:)` throws for a field that is there.
  public func decode<Value>(_ type: ServerTimestamp<Value>.Type, forKey key: Key) throws -> ServerTimestamp<Value> {
    try decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
  }
}

/// Property wrappers whose value is `nil` when their key is missing.
protocol NilWhenMissing {
  static var missing: Self { get }
}
