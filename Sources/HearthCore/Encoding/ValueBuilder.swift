import Foundation

/// Builds `Value`s.
public struct ValueBuilder: FieldBuilder {
  public init() {}
  public func null() -> Value { .null }
  public func boolean(_ value: Bool) -> Value { .boolean(value) }
  public func integer(_ value: Int64) -> Value { .integer(value) }
  public func double(_ value: Double) -> Value { .double(value) }
  public func timestamp(_ value: Timestamp) -> Value { .timestamp(value) }
  public func string(_ value: String) -> Value { .string(value) }
  public func bytes(_ value: Data) -> Value { .bytes(value) }
  public func reference(_ key: DocumentKey) -> Value { .reference(key) }
  public func geoPoint(_ value: GeoPoint) -> Value { .geoPoint(value) }
  public func array(_ elements: [Value]) -> Value { .array(elements) }
  public func map(_ fields: [String: Value]) -> Value { .map(fields) }
}
