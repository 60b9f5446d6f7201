import Foundation

/// Firestore values as JSON, in the doc shell's extended JSON (docs/file-formats.md, "Extended JSON").
///
/// Plain JSON maps onto Firestore's types directly: string, boolean, null, array, object;
/// a number without fraction or exponent is an integer, any other number a double. The
/// types JSON lacks are one-key objects whose key is a tag:
///
/// | value | extended JSON |
/// |---|---|
/// | timestamp | `{"$timestamp": "2026-11-29T10:00:00.123456Z"}` |
/// | reference | `{"$ref": "users/alice"}` |
/// | geopoint | `{"$geo": [40.4, -3.7]}` |
/// | bytes | `{"$bytes": "AAEC"}` (standard base64) |
/// | NaN, ±infinity | `{"$double": "NaN"}`, `"Infinity"`, `"-Infinity"` |
/// | a whole double, on input | `{"$double": 2}` (`2.0` works too) |
/// | a map `{"$x": …}` | `{"$literal": {"$x": …}}` |
///
/// Output uses the same forms, so what `json(from:)` writes, `value(from:)` reads back as
/// the identical value: finite doubles are written as JSON numbers that read back as the
/// same bits (`2.0`, `-0.0`, `5e-324`), integers as integers, map keys in UTF-8 byte
/// order. Only a one-key object whose key starts with `$` is a tag; objects with more
/// keys are plain maps whatever their keys. An unknown tag or a malformed tag value is an
/// `invalidArgument` error naming the field and the problem.
///
/// For example:
///
/// ```swift
/// let fields = try ExtendedJSONCodec.fields(fromText: #"{"when": {"$timestamp": "2026-11-29T10:00:00Z"}}"#)
/// // ["when": .timestamp(…)]
/// ExtendedJSONCodec.json(fields: fields).serialized()
/// // {"when":{"$timestamp":"2026-11-29T10:00:00Z"}}
/// ```
package enum ExtendedJSONCodec {
  /// The tags, in the order help texts list them.
  package static let tags = ["$timestamp", "$ref", "$geo", "$bytes", "$double", "$literal"]

  // MARK: - Reading

  /// Parses `text` as a JSON object of document fields.
  ///
  /// - Throws: `invalidArgument`: `Invalid JSON at line 1, column 17: expected ',' or '}',
  ///   found 'x'` for bad syntax, or a tag problem naming the field.
  package static func fields(fromText text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws -> [String:
    Value]
  {
    try fields(from: parse(text, maxDepth: maxDepth))
  }

  /// Parses `text` as one extended-JSON value.
  package static func value(fromText text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws -> Value {
    try value(from: parse(text, maxDepth: maxDepth))
  }

  /// The fields of a document: `json` must be an object (a `$literal` one included).
  ///
  /// - Throws: `invalidArgument` when `json` is not an object or holds a bad tag.
  package static func fields(from json: JSONValue) throws -> [String: Value] {
    let value = try value(from: json)
    guard case .map(let fields) = value else {
      throw HearthError.invalidArgument(
        "Invalid document data: expected a JSON object of fields, found \(describe(json, decoded: value))")
    }
    return fields
  }

  /// One value.
  ///
  /// - Throws: `invalidArgument` for an unknown tag or a malformed tag value.
  package static func value(from json: JSONValue) throws -> Value {
    try decode(json, at: Location())
  }

  /// The JSON parser's error as a `HearthError`, the form every caller reports.
  package static func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws -> JSONValue {
    do {
      return try JSONParser.parse(text, maxDepth: maxDepth)
    } catch {
      throw HearthError.invalidArgument("Invalid JSON at line \(error.line), column \(error.column): \(error.message)")
    }
  }

  private static func decode(_ json: JSONValue, at location: Location) throws -> Value {
    switch json {
    case .null: return .null
    case .bool(let b): return .boolean(b)
    case .integer(let i): return .integer(i)
    case .double(let d): return .double(d)
    case .string(let s): return .string(s)
    case .array(let elements):
      var values: [Value] = []
      values.reserveCapacity(elements.count)
      for (position, element) in elements.enumerated() {
        values.append(try decode(element, at: location.appending(index: position)))
      }
      return .array(values)
    case .object(let members):
      if members.count == 1, members[0].key.hasPrefix("$") {
        return try decodeTag(members[0].key, members[0].value, at: location)
      }
      return .map(try decodeMembers(members, at: location))
    }
  }

  private static func decodeMembers(_ members: [(key: String, value: JSONValue)], at location: Location) throws
    -> [String: Value]
  {
    var fields = [String: Value](minimumCapacity: members.count)
    for member in members {
      fields[member.key] = try decode(member.value, at: location.appending(key: member.key))
    }
    return fields
  }

  private static func decodeTag(_ tag: String, _ json: JSONValue, at location: Location) throws -> Value {
    func fail(_ problem: String) -> HearthError {
      HearthError.invalidArgument("Invalid \(tag)\(location.suffix): \(problem)")
    }
    switch tag {
    case "$timestamp":
      guard case .string(let text) = json else {
        throw fail(
          "expected an RFC 3339 time in a string, such as \"2026-11-29T10:00:00.123456Z\", found \(json.typeName)")
      }
      guard let timestamp = RFC3339.parse(text) else {
        throw fail(
          "\(JSONWriter.quoted(text)) is not an RFC 3339 time; write it as \"2026-11-29T10:00:00Z\" "
            + "(fraction and offset optional: \"2026-11-29T11:00:00.123456+01:00\")")
      }
      // The offset can carry a time in year 0001 or 9999 out of the range, where it has no
      // RFC 3339 form to be written back in (it would be year 0000 or 10000): refused, as
      // a write would refuse it, so that what reads always writes back.
      guard timestamp.isInFirestoreRange else {
        throw fail("\(JSONWriter.quoted(text)) is outside the years 0001 to 9999 in UTC")
      }
      return .timestamp(timestamp)
    case "$ref":
      guard case .string(let text) = json else {
        throw fail("expected a document path in a string, such as \"users/alice\", found \(json.typeName)")
      }
      do {
        return .reference(try DocumentKey(parsing: text))
      } catch let error as HearthError {
        throw fail(error.message)
      }
    case "$geo":
      guard case .array(let elements) = json, elements.count == 2,
        let latitude = number(elements[0]), let longitude = number(elements[1])
      else {
        throw fail("expected [latitude, longitude], two numbers such as [40.4, -3.7], found \(describe(json))")
      }
      let point = GeoPoint(latitude: latitude, longitude: longitude)
      if let problem = point.rangeProblem { throw fail(problem) }
      return .geoPoint(point)
    case "$bytes":
      guard case .string(let text) = json else {
        throw fail("expected base64 text in a string, found \(json.typeName)")
      }
      guard let data = Data(base64Encoded: text) else {
        throw fail("\(JSONWriter.quoted(abbreviated(text))) is not standard base64 (A–Z a–z 0–9 + /, padded with =)")
      }
      return .bytes(data)
    case "$double":
      switch json {
      case .integer(let i): return .double(Double(i))
      case .double(let d): return .double(d)
      case .string(let text):
        guard let special = specialDoubles.first(where: { $0.text == text }) else {
          throw fail(
            "expected a number or one of \(specialDoubles.map { "\"\($0.text)\"" }.joined(separator: ", ")), "
              + "found \(JSONWriter.quoted(abbreviated(text)))")
        }
        return .double(special.value)
      default:
        throw fail("expected a number or \"NaN\", \"Infinity\", \"-Infinity\", found \(json.typeName)")
      }
    case "$literal":
      guard case .object(let members) = json else {
        throw fail("expected an object (the map to store as written), found \(json.typeName)")
      }
      return .map(try decodeMembers(members, at: location))
    default:
      throw HearthError.invalidArgument(
        "Unknown tag \(JSONWriter.quoted(tag))\(location.suffix): a one-key object whose key starts with '$' "
          + "is a typed value (\(tags.dropLast().joined(separator: ", "))); to store a map whose only key is "
          + "\(JSONWriter.quoted(tag)), write {\"$literal\": {\(JSONWriter.quoted(tag)): …}}")
    }
  }

  /// The texts `$double` accepts besides numbers, and what they mean.
  private static let specialDoubles: [(text: String, value: Double)] = [
    ("NaN", .nan), ("Infinity", .infinity), ("-Infinity", -.infinity), ("-0.0", -0.0),
  ]

  private static func number(_ json: JSONValue) -> Double? {
    switch json {
    case .integer(let i): Double(i)
    case .double(let d): d
    default: nil
    }
  }

  // MARK: - Writing

  /// The fields of a document as a JSON object, keys in UTF-8 byte order.
  package static func json(fields: [String: Value]) -> JSONValue {
    .object(Value.sortedKeys(fields).map { ($0, json(from: fields[$0]!)) })
  }

  /// One value, in the form `value(from:)` reads back identically.
  package static func json(from value: Value) -> JSONValue {
    switch value {
    case .null: return .null
    case .boolean(let b): return .bool(b)
    case .integer(let i): return .integer(i)
    case .double(let d):
      if d.isNaN { return tagged("$double", .string("NaN")) }
      if d.isInfinite { return tagged("$double", .string(d < 0 ? "-Infinity" : "Infinity")) }
      return .double(d)
    case .timestamp(let t): return tagged("$timestamp", .string(RFC3339.format(t)))
    case .string(let s): return .string(s)
    case .bytes(let data): return tagged("$bytes", .string(data.base64EncodedString()))
    case .reference(let key): return tagged("$ref", .string(key.description))
    case .geoPoint(let point): return tagged("$geo", .array([.double(point.latitude), .double(point.longitude)]))
    case .array(let elements): return .array(elements.map(json(from:)))
    case .map(let fields):
      let object = json(fields: fields)
      if fields.count == 1, let key = fields.keys.first, key.hasPrefix("$") {
        return tagged("$literal", object)
      }
      return object
    }
  }

  private static func tagged(_ tag: String, _ value: JSONValue) -> JSONValue { .object([(tag, value)]) }

  // MARK: - Messages

  /// Where in the JSON a value is, as a field path with array indexes: `address.city`,
  /// ``tags[2]``, `` `a.b`.c ``.
  private struct Location {
    var text = ""

    func appending(key: String) -> Location {
      let segment = FieldPath.isPlainIdentifier(key) ? key : FieldPath([key]).canonical
      return Location(text: text.isEmpty ? segment : text + "." + segment)
    }

    func appending(index: Int) -> Location { Location(text: text + "[\(index)]") }

    /// ` in field x` for messages, or nothing at the top level.
    var suffix: String { text.isEmpty ? "" : " in field \(text)" }
  }

  private static func describe(_ json: JSONValue, decoded: Value? = nil) -> String {
    if let decoded, case .object = json { return "a \(decoded.typeName) value" }
    let text = json.serialized()
    return text.count <= 40 ? text : json.typeName
  }

  private static func abbreviated(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(28)) + "…" + String(text.suffix(8)) : text
  }
}
