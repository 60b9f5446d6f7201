import Foundation

/// Makes the values a decoded document is built of: `ValueBuilder` makes `Value`s; the
/// public API makes the `Any`s users read, straight from the bytes.
package protocol FieldBuilder {
  associatedtype Element
  func null() -> Element
  func boolean(_ value: Bool) -> Element
  func integer(_ value: Int64) -> Element
  func double(_ value: Double) -> Element
  func timestamp(_ value: Timestamp) -> Element
  func string(_ value: String) -> Element
  func bytes(_ value: Data) -> Element
  func reference(_ key: DocumentKey) -> Element
  func geoPoint(_ value: GeoPoint) -> Element
  func array(_ elements: [Element]) -> Element
  func map(_ fields: [String: Element]) -> Element
}
