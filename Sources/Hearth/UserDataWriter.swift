import Foundation
import HearthCore

/// Turns stored values into the Swift values users read: `Int64`, `Double`, `String`,
/// `Bool`, `NSNull`, `Timestamp`, `Data`, `GeoPoint`, `DocumentReference`, `[Any]` and
/// `[String: Any]` — as Firebase's API returns them.
struct UserDataWriter {
  let database: Database

  func fields(_ fields: [String: Value]) -> [String: Any] {
    var result = [String: Any](minimumCapacity: fields.count)
    for (name, value) in fields { result[name] = self.value(value) }
    return result
  }

  func value(_ value: Value) -> Any {
    switch value {
    case .null: NSNull()
    case .boolean(let b): b
    case .integer(let i): i
    case .double(let d): d
    case .timestamp(let t): t
    case .string(let s): s
    case .bytes(let d): d
    case .reference(let key): DocumentReference(database: database, key: key)
    case .geoPoint(let g): g
    case .array(let elements): elements.map(self.value)
    case .map(let map): fields(map)
    }
  }
}
