import Foundation
import HearthCore

/// Turns stored values into the Swift values users read: `NSNumber` for integers and
/// doubles, `Bool`, `String`, `NSNull`, `Timestamp`, `Data`, `GeoPoint`,
/// `DocumentReference`, `VectorValue`, `[Any]` and `[String: Any]` — as Firebase's API
/// returns them. As a
/// `FieldBuilder` (`AnyBuilder`) they are built straight from a document's bytes.
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
///
/// The values themselves are built by HearthCore's `AnyBuilder`, from stored `Value`s here
/// and straight from a document's bytes in `DocumentSnapshot.data()`.
struct UserDataWriter {
  let database: Database

  private var builder: AnyBuilder {
    AnyBuilder(reference: { [database] in DocumentReference(database: database, key: $0) }, vector: VectorValue.init)
  }

  func fields(_ fields: [String: Value]) -> [String: Any] { builder.fields(fields) }

  func value(_ value: Value) -> Any { builder.value(value) }
}
