import Foundation

/// A type that `@ServerTimestamp` can hold: `Date` or `Timestamp`.
public protocol ServerTimestampWrappable {
  /// The value for a stored timestamp.
  static func wrap(_ timestamp: Timestamp) throws -> Self
  /// The timestamp to store for a value.
  static func unwrap(_ value: Self) throws -> Timestamp
}

extension Date: ServerTimestampWrappable {
  public static func wrap(_ timestamp: Timestamp) throws -> Date { timestamp.dateValue() }
  public static func unwrap(_ value: Date) throws -> Timestamp { Timestamp(date: value) }
}

extension Timestamp: ServerTimestampWrappable {
  public static func wrap(_ timestamp: Timestamp) throws -> Timestamp { timestamp }
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
  public var wrappedValue: Value?

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
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      wrappedValue = nil
    } else {
      wrappedValue = try Value.wrap(container.decode(Timestamp.self))
    }
  }

  /// `nil` writes `FieldValue.serverTimestamp()`, which only Hearth's encoder can write.
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
  public func decode<Value>(_ type: ServerTimestamp<Value>.Type, forKey key: Key) throws -> ServerTimestamp<Value> {
    try decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
  }
}

/// Property wrappers whose value is `nil` when their key is missing.
protocol NilWhenMissing {
  static var missing: Self { get }
}
