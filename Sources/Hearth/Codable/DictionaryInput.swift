import Foundation
import HearthCore

/// Turns the `[String: Any]` that `Database.Decoder.decode(_:from:in:)` takes into the
/// `Value`s that the decoder reads, so that one decoder serves both that entry point and
/// `DocumentSnapshot.data(as:)`, which hands it the stored values directly.
///
/// A dictionary may hold what no stored document does: any Swift number type,
/// `NSNumber`, `Float`, `Date`, `Substring`, optionals, typed collections. Those convert
/// as the decoder always read them (`CodingNumber`'s rules, the same casts; a `Substring`
/// becomes a string, which a `URL` property now takes too, where it used to refuse one
/// as "a string"). A few values have no `Value` that decodes exactly as they did, and
/// are kept as they came instead:
///
/// - `DocumentReference`s, so that the decoded reference is the very object, with its
///   own database (a dictionary can mix databases, and a `Value` reference has none) and
///   even an invalid path;
/// - `Decimal`s, which a `Decimal` property receives exactly (every other number type
///   gets their `Double` value, as before);
/// - unsigned integers above `Int64.max`, which a `UInt64` property still takes;
/// - anything else (a `nil` optional, a `FieldValue` sentinel, an unknown type), which
///   an unused field may hold and a used one reports by its Swift type.
///
/// A kept value stands in the data as `.reference(KeptValues.key(index))`: a key no
/// document can have (its first segment is empty), which the decoder recognises wherever
/// it reads a reference, a number, or names what it found (`DecodingContext.kept(_:)`).
/// Values read from a snapshot never hold one, and the check is skipped when nothing was
/// kept.
struct DictionaryInput {
  /// The values kept as they came, by the index in their stand-in key.
  private(set) var kept: [Any] = []

  /// A map's fields, in the dictionary's own order (`mapValues` keeps the hash table),
  /// so that decoding meets them in the order it did.
  mutating func fields(_ map: [String: Any]) -> [String: Value] {
    map.mapValues { value($0) }
  }

  mutating func value(_ raw: Any) -> Value {
    // By exact type first: what Hearth's own data and encoder produce, and what
    // dictionaries written by hand mostly hold, without the runtime casts below (each a
    // few hundred instructions).
    let type = Swift.type(of: raw)
    if type == String.self { return .string(raw as! String) }
    if type == Int64.self { return .integer(raw as! Int64) }
    if type == Int.self { return .integer(Int64(raw as! Int)) }
    if type == Double.self { return .double(raw as! Double) }
    if type == Bool.self { return .boolean(raw as! Bool) }
    if type == [String: Any].self { return .map(fields(raw as! [String: Any])) }
    if type == [Any].self { return .array((raw as! [Any]).map { value($0) }) }
    if type == NSNull.self { return .null }
    if type == Timestamp.self { return .timestamp(raw as! Timestamp) }
    if type == Date.self { return .timestamp(Timestamp(date: raw as! Date)) }
    if type == Data.self { return .bytes(raw as! Data) }
    if type == GeoPoint.self { return .geoPoint(raw as! GeoPoint) }
    if type == DocumentReference.self || type == Decimal.self || type is NSDecimalNumber.Type { return keep(raw) }
    // Numbers read back from Hearth (`snapshot.data()`) are `NSNumber`s.
    if type is NSNumber.Type, let number = CodingNumber(raw) { return value(number, raw) }
    // Typed collections, as Swift infers nested literals (`["a", "b"]` is a `[String]`,
    // `["x": 1]` a `[String: Int]`): by exact type too, because casting them to `[Any]`
    // or `[String: Any]` builds a new collection and boxes every element, several
    // thousand instructions for three strings.
    if type == [String].self { return .array((raw as! [String]).map(Value.string)) }
    if type == [Int].self { return .array((raw as! [Int]).map { .integer(Int64($0)) }) }
    if type == [Double].self { return .array((raw as! [Double]).map(Value.double)) }
    if type == [String: String].self { return .map((raw as! [String: String]).mapValues(Value.string)) }
    if type == [String: Int].self { return .map((raw as! [String: Int]).mapValues { .integer(Int64($0)) }) }
    if type == [String: Double].self { return .map((raw as! [String: Double]).mapValues(Value.double)) }
    // Then the casts, cheapest and likeliest first: other collections, optionals (a
    // protocol check, which costs most when it fails), the remaining number types.
    if let map = raw as? [String: Any] { return .map(fields(map)) }
    if let array = raw as? [Any] { return .array(array.map { value($0) }) }
    if let optional = raw as? AnyOptional {
      guard let wrapped = optional.wrappedAny else { return keep(raw) }
      return value(wrapped)
    }
    if let number = CodingNumber(raw) { return value(number, raw) }
    switch raw {
    case let bool as Bool: return .boolean(bool)
    case let string as String: return .string(string)
    case let substring as Substring: return .string(String(substring))
    case let timestamp as Timestamp: return .timestamp(timestamp)
    case let date as Date: return .timestamp(Timestamp(date: date))
    case let data as Data: return .bytes(data)
    case let point as GeoPoint: return .geoPoint(point)
    default: return keep(raw)
    }
  }

  /// A number `CodingNumber` read from `raw`.
  private mutating func value(_ number: CodingNumber, _ raw: Any) -> Value {
    switch number {
    case .integer(let i): .integer(i)
    case .double(let d): .double(d)
    case .bool(let b): .boolean(b)
    case .unsigned: keep(raw)
    }
  }

  private mutating func keep(_ raw: Any) -> Value {
    kept.append(raw)
    return .reference(KeptValues.key(kept.count - 1))
  }
}

/// The stand-in keys of `DictionaryInput`'s kept values.
enum KeptValues {
  /// `/<index>`: an empty first segment, which no document key has (paths are parsed
  /// and stored documents checked to have none).
  static func key(_ index: Int) -> DocumentKey { DocumentKey(ResourcePath(["", String(index)])) }

  /// The index that `key` stands for, or `nil` for a real document's key.
  static func index(of key: DocumentKey) -> Int? {
    let segments = key.path.segments
    guard segments.count == 2, segments[0].isEmpty else { return nil }
    return Int(segments[1])
  }
}
