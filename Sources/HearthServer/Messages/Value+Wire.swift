import Foundation
import HearthCore

/// `google.firestore.v1.Value`, with `ArrayValue` and `MapValue`, straight into
/// HearthCore's `Value`:
///
/// - `integer_value` is `.integer`, `double_value` `.double` (NaN, ±infinity and -0.0
///   keep their bits); `null_value` is `.null` whatever its enum number.
/// - `timestamp_value` keeps its nanoseconds (a write's are cut to microseconds when it
///   is checked, `FirestoreService.checked`).
/// - `reference_value` must name a document of the request's database: `.reference`
///   holds only the key. A reference into another project or database is refused
///   (INVALID_ARGUMENT), although Google's emulator stores one verbatim: HearthCore's
///   `Value` cannot hold it.
/// - Map keys are Swift strings: two keys equal only under Unicode canonical equivalence
///   (`"\u{E9}"` and `"e\u{301}"`) cannot both be kept and are refused; a key repeated
///   byte for byte keeps its last value, as protobuf maps do.
/// - A Value with no `value_type` is refused, as are the pipeline-only kinds
///   (`field_reference_value`, `function_value`, `pipeline_value`,
///   `variable_reference_value`), which no document holds.
///
/// Encoding writes map entries in a fixed order, so that equal values give equal bytes:
/// the order of the deterministic serialization of upb, the protobuf runtime of Google's
/// Python client (`MapOrder`).
extension Value: WireMessage {
  package static let protobufName = "google.firestore.v1.Value"
  static let arrayName = "google.firestore.v1.ArrayValue"
  static let mapName = "google.firestore.v1.MapValue"
  static let mapEntryName = "google.firestore.v1.MapValue.FieldsEntry"

  package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
    var value: Value?
    while let key = try reader.next() {
      switch key.number {
      case 11:
        _ = try reader.int32(key, "null_value")
        value = .null
      case 1: value = .boolean(try reader.bool(key, "boolean_value"))
      case 2: value = .integer(try reader.int64(key, "integer_value"))
      case 3: value = .double(try reader.double(key, "double_value"))
      case 10: value = .timestamp(try reader.message(key, "timestamp_value", as: Timestamp.self, database: database))
      case 17: value = .string(try reader.string(key, "string_value"))
      case 18: value = .bytes(try reader.bytes(key, "bytes_value"))
      case 5:
        let name = try reader.string(key, "reference_value")
        value = .reference(try reader.check(key, "reference_value") { try database.documentKey(name) })
      case 8: value = .geoPoint(try reader.message(key, "geo_point_value", as: GeoPoint.self, database: database))
      case 9:
        value = .array(
          try reader.message(key, "array_value", Value.arrayName) { try Value.decodeArray(&$0, database: database) })
      case 6:
        value = .map(
          try reader.message(key, "map_value", Value.mapName) { try Value.decodeMap(&$0, field: 1, database: database) }
        )
      case 19, 20, 21, 22:
        throw reader.error("field \(key.number)", "pipeline expressions are not values a document can hold")
      default: try reader.skip(key)
      }
    }
    guard let value else { throw reader.error("value_type", "a value must have one of its kinds set") }
    self = value
  }

  package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
    switch self {
    case .null: writer.int32(11, 0)
    case .boolean(let b): writer.bool(1, b)
    case .integer(let i): writer.int64(2, i)
    case .double(let d): writer.double(3, d)
    case .timestamp(let t): writer.message(10, t, database: database)
    case .string(let s): writer.string(17, s)
    case .bytes(let b): writer.bytes(18, b)
    case .reference(let key): writer.string(5, database.name(of: key))
    case .geoPoint(let g): writer.message(8, g, database: database)
    case .array(let values): writer.message(9) { Value.encodeArray(values, field: 1, to: &$0, database: database) }
    case .map(let fields): writer.message(6) { Value.encodeMap(fields, field: 1, to: &$0, database: database) }
    }
  }

  /// The values of an `ArrayValue` (field 1).
  static func decodeArray(_ reader: inout ProtobufReader, database: DatabaseName) throws -> [Value] {
    var values: [Value] = []
    while let key = try reader.next() {
      if key.number == 1 {
        values.append(try reader.message(key, "values", as: Value.self, database: database))
      } else {
        try reader.skip(key)
      }
    }
    return values
  }

  static func encodeArray(_ values: [Value], field: Int, to writer: inout ProtobufWriter, database: DatabaseName) {
    for value in values { writer.message(field, value, database: database) }
  }

  /// The `map<string, Value>` field `field` of the message being read (a `MapValue`'s,
  /// a `Document`'s fields): every other field is skipped.
  static func decodeMap(_ reader: inout ProtobufReader, field: Int, database: DatabaseName) throws -> [String: Value] {
    var fields: [String: Value] = [:]
    while let key = try reader.next() {
      guard key.number == field else {
        try reader.skip(key)
        continue
      }
      let (name, value) = try reader.message(key, "fields", mapEntryName) { entry in
        try decodeMapEntry(&entry, database: database)
      }
      try insert(name, value, into: &fields, reader: reader, key: key)
    }
    return fields
  }

  /// Adds a map entry; a later entry with the same bytes replaces the earlier one, one
  /// that Swift's `String` equates with a different spelling is refused.
  static func insert(
    _ name: String, _ value: Value, into fields: inout [String: Value], reader: ProtobufReader, key: FieldKey
  ) throws {
    if let index = fields.index(forKey: name), Value.compareUTF8(fields[index].key, name) != 0 {
      throw reader.error(
        "fields (\(key.number))",
        "the keys \(fields[index].key.debugDescription) and \(name.debugDescription) differ only by Unicode "
          + "normalization; Hearth cannot hold both in one map")
    }
    fields[name] = value
  }

  /// One `FieldsEntry`: key 1, value 2. A missing value is an unset Value, refused.
  static func decodeMapEntry(_ entry: inout ProtobufReader, database: DatabaseName) throws -> (String, Value) {
    var name = ""
    var value: Value?
    while let key = try entry.next() {
      switch key.number {
      case 1: name = try entry.string(key, "key")
      case 2: value = try entry.message(key, "value", as: Value.self, database: database)
      default: try entry.skip(key)
      }
    }
    guard let value else { throw entry.error("value (2)", "the map entry \(name.debugDescription) has no value") }
    return (name, value)
  }

  /// Map entries in `MapOrder`; key and value are always written, as protobuf writes
  /// map entries.
  static func encodeMap(
    _ fields: [String: Value], field: Int, to writer: inout ProtobufWriter, database: DatabaseName
  ) {
    for name in MapOrder.sorted(fields.keys) {
      writer.message(field) { entry in
        entry.string(1, name)
        entry.message(2, fields[name]!, database: database)
      }
    }
  }
}

/// `google.protobuf.Timestamp`: seconds and nanos. Nanos outside 0...999,999,999 are
/// refused (HearthCore's `Timestamp` would carry them into the seconds, changing the
/// value); the seconds' range is checked where the time is used (a stored value must lie
/// in years 1 to 9999).
extension Timestamp: WireMessage {
  package static let protobufName = "google.protobuf.Timestamp"

  package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
    var seconds: Int64 = 0
    var nanos: Int32 = 0
    while let key = try reader.next() {
      switch key.number {
      case 1: seconds = try reader.int64(key, "seconds")
      case 2: nanos = try reader.int32(key, "nanos")
      default: try reader.skip(key)
      }
    }
    guard (0...999_999_999).contains(nanos) else {
      throw reader.error("nanos (2)", "\(nanos) is outside 0...999999999")
    }
    self.init(seconds: seconds, nanoseconds: nanos)
  }

  package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
    if seconds != 0 { writer.int64(1, seconds) }
    if nanoseconds != 0 { writer.int32(2, nanoseconds) }
  }

  /// Decodes a timestamp that needs no database (a read time, a commit time).
  static func decode(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String) throws -> Timestamp {
    try reader.message(key, name, as: Timestamp.self, database: .none)
  }
}

/// `google.type.LatLng`. Ranges are checked where the point is stored.
extension GeoPoint: WireMessage {
  package static let protobufName = "google.type.LatLng"

  package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
    var latitude = 0.0
    var longitude = 0.0
    while let key = try reader.next() {
      switch key.number {
      case 1: latitude = try reader.double(key, "latitude")
      case 2: longitude = try reader.double(key, "longitude")
      default: try reader.skip(key)
      }
    }
    self.init(latitude: latitude, longitude: longitude)
  }

  /// Zeros are left out, as proto3 writes them (the sign of -0.0 is kept).
  package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
    if latitude.bitPattern != 0 { writer.double(1, latitude) }
    if longitude.bitPattern != 0 { writer.double(2, longitude) }
  }
}

extension DatabaseName {
  /// A placeholder for messages that hold no names or values (a timestamp, a wrapper).
  static let none = DatabaseName(projectID: "", databaseID: "")
}

/// The wrappers of `google/protobuf/wrappers.proto` that Firestore uses (`limit` is an
/// `Int32Value`, `up_to` an `Int64Value`): a message whose field 1 holds the value, so
/// that zero and absent differ.
enum Wrapper {
  static func int64(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String) throws -> Int64 {
    try reader.message(key, name, "google.protobuf.Int64Value") { inner in
      var value: Int64 = 0
      while let key = try inner.next() {
        if key.number == 1 { value = try inner.int64(key, "value") } else { try inner.skip(key) }
      }
      return value
    }
  }

  static func int32(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String) throws -> Int32 {
    try reader.message(key, name, "google.protobuf.Int32Value") { inner in
      var value: Int32 = 0
      while let key = try inner.next() {
        if key.number == 1 { value = try inner.int32(key, "value") } else { try inner.skip(key) }
      }
      return value
    }
  }

  static func double(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String) throws -> Double {
    try reader.message(key, name, "google.protobuf.DoubleValue") { inner in
      var value = 0.0
      while let key = try inner.next() {
        if key.number == 1 { value = try inner.double(key, "value") } else { try inner.skip(key) }
      }
      return value
    }
  }

  static func write(_ number: Int, int64 value: Int64, to writer: inout ProtobufWriter) {
    writer.message(number) { if value != 0 { $0.int64(1, value) } }
  }

  static func write(_ number: Int, int32 value: Int32, to writer: inout ProtobufWriter) {
    writer.message(number) { if value != 0 { $0.int32(1, value) } }
  }

  static func write(_ number: Int, double value: Double, to writer: inout ProtobufWriter) {
    writer.message(number) { if value.bitPattern != 0 { $0.double(1, value) } }
  }
}

/// The order map entries are written in: the UTF-8 bytes of their keys, except that a key
/// comes after every key it is a prefix of (`aa`, `a.b`, then `a`; the empty key last).
///
/// This is what upb's deterministic serialization writes (it sorts the entries backwards
/// and serializes from the end, with the length as the tie-break), and so what Google's
/// Python client sends; C++'s protobuf would put prefixes first. Readers accept any
/// order; matching the client's lets the tests compare bytes.
enum MapOrder {
  static func sorted(_ keys: some Sequence<String>) -> [String] {
    keys.sorted { precedes($0, $1) }
  }

  static func precedes(_ a: String, _ b: String) -> Bool {
    var x = a.utf8.makeIterator()
    var y = b.utf8.makeIterator()
    while true {
      switch (x.next(), y.next()) {
      case (let p?, let q?): if p != q { return p < q }
      case (nil, nil): return false
      // A key that ends first is a prefix of the other, and comes after it.
      case (nil, _?): return false
      case (_?, nil): return true
      }
    }
  }
}
