import Foundation
import HearthCore

/// Documents as JSON text, in the doc shell's extended JSON: plain JSON for the types JSON
/// has, one-key tag objects for the rest (`{"$timestamp": "2026-11-29T10:00:00Z"}`,
/// `{"$ref": "users/alice"}`, `{"$geo": [40.4, -3.7]}`, `{"$bytes": "base64"}`,
/// `{"$double": "NaN"}`, `{"$literal": {"$x": 1}}`). A number without fraction or
/// exponent is an integer, any other number a double.
///
/// What `string(from:)` writes, `fields(from:database:)` reads back as the same data, so
/// the output of one program (or of `hearth get`) can be fed to another unchanged.
///
/// For example:
///
/// ```swift
/// let data = try ExtendedJSON.fields(
///   from: #"{"name": "Alice", "joined": {"$timestamp": "2026-11-29T10:00:00Z"}}"#, database: db)
/// try db.document("users/alice").setData(data)
/// print(ExtendedJSON.string(from: try db.document("users/alice").getDocument().data() ?? [:]))
/// // {"joined":{"$timestamp":"2026-11-29T10:00:00Z"},"name":"Alice"}
/// ```
public enum ExtendedJSON {
  /// Parses a JSON object into document data, as `getDocument().data()` would return it:
  /// `NSNumber` (integers and doubles), `String`, `Bool`, `NSNull`, `Timestamp`, `Data`,
  /// `GeoPoint`, `DocumentReference` (of `database`), `[Any]` and `[String: Any]`. The result can be
  /// passed to `setData`, or to `updateData`, whose keys are field paths.
  ///
  /// - Throws: `invalidArgument` with the position for bad JSON (`Invalid JSON at line 1,
  ///   column 17: expected ',' or '}', found 'x'`), naming the field for a bad tag, or
  ///   when the text is not an object.
  public static func fields(from text: String, database: Database) throws -> [String: Any] {
    UserDataWriter(database: database).fields(try ExtendedJSONCodec.fields(fromText: text))
  }

  /// Checks that `text` would parse with `fields(from:database:)`, without a database:
  /// so that a tool can refuse bad input before it opens (or creates) anything.
  ///
  /// - Throws: the error `fields(from:database:)` would throw.
  public static func validateFields(_ text: String) throws {
    _ = try ExtendedJSONCodec.fields(fromText: text)
  }

  /// Parses one JSON value (of any type) into the Swift value Hearth would read back.
  ///
  /// - Throws: `invalidArgument`, as `fields(from:database:)`.
  public static func value(from text: String, database: Database) throws -> Any {
    UserDataWriter(database: database).value(try ExtendedJSONCodec.value(fromText: text))
  }

  /// One extended JSON value already read (the doc shell reads its query values itself)
  /// into the Swift value Hearth would read back.
  ///
  /// - Throws: `invalidArgument` for a bad tag, as `fields(from:database:)`.
  package static func value(fromJSON json: JSONValue, database: Database) throws -> Any {
    UserDataWriter(database: database).value(try ExtendedJSONCodec.value(from: json))
  }

  /// `value` as extended JSON: compact (one line, no spaces), or `pretty` (2-space
  /// indentation), `colored` with ANSI escapes for a terminal.
  ///
  /// `value` is document data (`[String: Any]`, whose keys are written in UTF-8 byte
  /// order), or any value it may hold, an array, or `KeyValuePairs<String, Any>` (or
  /// `[(String, Any)]`) for an object whose members keep their order (an envelope such
  /// as `["path": …, "fields": data]`). Every Swift integer type, `Float`, `Date` and
  /// `Optional`s of these are written as `setData` would store them; a value of any other
  /// type is written as a string of its description (this function is for output and
  /// does not fail).
  public static func string(from value: Any, pretty: Bool = false, colored: Bool = false) -> String {
    json(from: value).serialized(pretty: pretty, colored: colored)
  }

  // MARK: - Swift values to JSON

  private static func json(from raw: Any) -> JSONValue {
    if let pairs = raw as? KeyValuePairs<String, Any> {
      return .object(pairs.map { ($0.key, json(from: $0.value)) })
    }
    // Compared by type, not cast: an empty `[Any]` would cast to an array of pairs.
    if ObjectIdentifier(type(of: raw)) == ObjectIdentifier([(String, Any)].self), let pairs = raw as? [(String, Any)] {
      return .object(pairs.map { ($0.0, json(from: $0.1)) })
    }
    if let map = raw as? [String: Any] {
      // A map of Swift values may hold envelopes (KeyValuePairs) or `Any` containers, so
      // it is converted member by member; `$literal` wrapping follows the codec's rule.
      let keys = map.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      let object = JSONValue.object(keys.map { ($0, json(from: map[$0]!)) })
      if keys.count == 1, keys[0].hasPrefix("$") { return .object([("$literal", object)]) }
      return object
    }
    if !(raw is String), !(raw is Data), let array = raw as? [Any] {
      return .array(array.map(json(from:)))
    }
    return ExtendedJSONCodec.json(from: scalar(raw))
  }

  /// A value that is not a container, as stored; what cannot be stored is still written
  /// (an oversized unsigned integer as a double, anything else as its description).
  private static func scalar(_ raw: Any) -> Value {
    if let reference = raw as? DocumentReference {
      return (try? reference.validKey()).map(Value.reference) ?? .string(reference.path)
    }
    switch ScalarValue(raw) {
    case .value(let value): return value
    case .tooLarge(let value): return .double(Double(value))
    case .unsupported: return .string(String(describing: raw))
    }
  }
}
