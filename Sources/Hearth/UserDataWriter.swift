import Foundation
import HearthCore

/// Turns stored values into the Swift values users read: `Int64`, `Double`, `String`,
/// `Bool`, `NSNull`, `Timestamp`, `Data`, `GeoPoint`, `DocumentReference`, `[Any]` and
/// `[String: Any]` — as Firebase's API returns them. As a `FieldBuilder` it builds them
/// straight from a document's bytes.
struct UserDataWriter: FieldBuilder {
  /// One `NSNull` for every null read: on Linux each `NSNull()` is an allocation.
  private static let null = NSNull()

  let database: Database

  /// `mapValues` keeps the dictionary's hash table, so no key is hashed again.
  func fields(_ fields: [String: Value]) -> [String: Any] {
    fields.mapValues(value)
  }

  func value(_ value: Value) -> Any {
    switch value {
    case .null: Self.null
    case .boolean(let b): b
    case .integer(let i): i
    case .double(let d): d
    case .timestamp(let t): t
    case .string(let s): s
    case .bytes(let d): d
    case .reference(let key): reference(key)
    case .geoPoint(let g): g
    case .array(let elements): elements.map(self.value)
    case .map(let map): fields(map)
    }
  }

  func null() -> Any { Self.null }
  func boolean(_ value: Bool) -> Any { value }
  func integer(_ value: Int64) -> Any { value }
  func double(_ value: Double) -> Any { value }
  func timestamp(_ value: Timestamp) -> Any { value }
  func string(_ value: String) -> Any { value }
  func bytes(_ value: Data) -> Any { value }
  func reference(_ key: DocumentKey) -> Any { DocumentReference(database: database, key: key) }
  func geoPoint(_ value: GeoPoint) -> Any { value }
  func array(_ elements: [Any]) -> Any { elements }
  func map(_ fields: [String: Any]) -> Any { fields }
}
