import Foundation
import HearthCore

/// Turns stored values into the Swift values users read: `NSNumber` for integers and
/// doubles, `Bool`, `String`, `NSNull`, `Timestamp`, `Data`, `GeoPoint`,
/// `DocumentReference`, `[Any]` and `[String: Any]` — as Firebase's API returns them. As a
/// `FieldBuilder` it builds them straight from a document's bytes.
///
/// Numbers are `NSNumber`s, as Firebase hands them back on Apple platforms, so that the
/// casts tutorial code relies on work on Linux too: `data()["likes"] as? Int`, `as? Int64`,
/// `as? Double`, `as? NSNumber`. Foundation's casts out of an `NSNumber` are exact on both
/// platforms: `Int64.max` stays exact as `Int64` and is `nil` as `Double`, `2.5` is `nil`
/// as `Int`, a whole double (`2.0`) casts to `2`, NaN and the infinities only to `Double`
/// and `Float`. An integer 0 or 1 (and a double 0.0 or 1.0) also casts to `Bool`, as
/// Firebase's do.
///
/// Booleans are Swift `Bool`s, not `NSNumber`s: `as? Bool` and `as? NSNumber` work, but
/// `true as? Int` is `nil`, so a boolean never passes for the number 1. (Firebase's
/// booleans are Foundation's `kCFBooleanTrue`, which on Apple platforms does cast to `1`.)
/// `NSNumber(value:)` keeps the stored kind, which Hearth reads back when such a value is
/// written again: an integer stays an integer and a double a double, `-0.0` keeps its sign.
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
    case .integer(let i): NSNumber(value: i)
    case .double(let d): NSNumber(value: d)
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
  func integer(_ value: Int64) -> Any { NSNumber(value: value) }
  func double(_ value: Double) -> Any { NSNumber(value: value) }
  func timestamp(_ value: Timestamp) -> Any { value }
  func string(_ value: String) -> Any { value }
  func bytes(_ value: Data) -> Any { value }
  func reference(_ key: DocumentKey) -> Any { DocumentReference(database: database, key: key) }
  func geoPoint(_ value: GeoPoint) -> Any { value }
  func array(_ elements: [Any]) -> Any { elements }
  func map(_ fields: [String: Any]) -> Any { fields }
}
