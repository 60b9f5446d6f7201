import Foundation

/// Builds `Value`s.
package struct ValueBuilder: FieldBuilder {
  package init() {}
  package func null() -> Value { .null }
  package func boolean(_ value: Bool) -> Value { .boolean(value) }
  package func integer(_ value: Int64) -> Value { .integer(value) }
  package func double(_ value: Double) -> Value { .double(value) }
  package func timestamp(_ value: Timestamp) -> Value { .timestamp(value) }
  package func string(_ value: String) -> Value { .string(value) }
  package func bytes(_ value: Data) -> Value { .bytes(value) }
  package func reference(_ key: DocumentKey) -> Value { .reference(key) }
  package func geoPoint(_ value: GeoPoint) -> Value { .geoPoint(value) }
  package func array(_ elements: [Value]) -> Value { .array(elements) }
  package func map(_ fields: [String: Value]) -> Value { .map(fields) }
}
