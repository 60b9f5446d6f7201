import Foundation
import Hearth
import HearthCore

/// JSON and extended JSON. The input is parsed as UTF-8 bytes and as text:
///
/// - `JSONParser` returns a value or throws `JSONParseError` at a position inside the
///   input; the bytes and the same text as a `String` parse alike.
/// - What parses, `JSONWriter` writes (compact and pretty) as text that parses back to the
///   equal value.
/// - `ExtendedJSONCodec` turns a parsed value into a `Value` or throws `invalidArgument`;
///   what it reads, it writes as text that reads back as the identical value and that
///   writes again as the same text (docs/file-formats.md's promise: output can be fed back in).
/// - `Hearth.ExtendedJSON`, through the API's Swift values (`Any`) of a database, writes
///   the same text as the codec, and `validateFields` refuses exactly what
///   `ExtendedJSONCodec.fields` refuses.
enum ExtendedJSONTarget {
  static func run(_ input: UnsafeRawBufferPointer) throws {
    let bytes = Array(input)
    let json: JSONValue
    do {
      json = try JSONParser.parse(utf8: bytes)
    } catch {
      try require(
        error.offset >= 0 && error.offset <= bytes.count && error.line >= 1 && error.column >= 1,
        "parse error at an impossible position: \(error) (offset \(error.offset) of \(bytes.count))")
      if let text = String(validating: bytes, as: UTF8.self) {
        do {
          _ = try JSONParser.parse(text)
          throw PropertyViolation("the bytes fail to parse (\(error)) but the same text parses")
        } catch let textError as JSONParseError {
          try require(textError == error, "bytes and text fail differently: \(error) and \(textError)")
        }
        try requireRefused(text)
      }
      return
    }
    let text = String(decoding: bytes, as: UTF8.self)
    do {
      try require(try JSONParser.parse(text) == json, "the bytes and the text parse differently: \(text)")
    } catch let error as JSONParseError {
      throw PropertyViolation("the bytes parse but the text does not: \(error)")
    }
    for pretty in [false, true] {
      let written = json.serialized(pretty: pretty)
      do {
        try require(try JSONParser.parse(written) == json, "written JSON reads back differently: \(written)")
      } catch let error as JSONParseError {
        throw PropertyViolation("written JSON does not parse: \(error): \(written)")
      }
    }
    _ = json.serialized(pretty: true, colored: true)
    try extended(json, text: text)
  }

  /// Text that is not JSON is refused by every extended-JSON reader with `invalidArgument`.
  static func requireRefused(_ text: String) throws {
    do {
      _ = try ExtendedJSONCodec.value(fromText: text)
      throw PropertyViolation("ExtendedJSONCodec read text that JSONParser refuses: \(text.debugDescription)")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      try requireHearthError(error, .invalidArgument, from: "ExtendedJSONCodec.value(fromText:)")
    }
  }

  static func extended(_ json: JSONValue, text: String) throws {
    let value: Value
    do {
      value = try ExtendedJSONCodec.value(from: json)
    } catch {
      try requireHearthError(error, .invalidArgument, from: "ExtendedJSONCodec.value(from:)")
      try requireFieldsAgree(text)
      return
    }
    let written = ExtendedJSONCodec.json(from: value).serialized()
    let back: Value
    do {
      back = try ExtendedJSONCodec.value(fromText: written)
    } catch {
      throw PropertyViolation("extended JSON written for \(value) does not read back: \(error): \(written)")
    }
    try require(back.isIdentical(to: value), "extended JSON reads back as \(back), not \(value): \(written)")
    try require(
      ExtendedJSONCodec.json(from: back).serialized() == written, "extended JSON is not stable: \(written)")
    try requireFieldsAgree(text)

    // Through the API's Swift values.
    let database = FuzzDatabase.shared()
    let swiftValue: Any
    do {
      swiftValue = try ExtendedJSON.value(from: text, database: database)
    } catch {
      throw PropertyViolation("ExtendedJSON.value refused what ExtendedJSONCodec read: \(error)")
    }
    // The API writes Swift values as `setData` would store them: timestamps to the
    // microsecond.
    let stored = truncatedToMicroseconds(value)
    let storedWritten = ExtendedJSONCodec.json(from: stored).serialized()
    let apiWritten = ExtendedJSON.string(from: swiftValue)
    try require(apiWritten == storedWritten, "ExtendedJSON.string wrote \(apiWritten), the codec \(storedWritten)")
    let pretty = ExtendedJSON.string(from: swiftValue, pretty: true)
    do {
      try require(
        try ExtendedJSONCodec.value(fromText: pretty).isIdentical(to: stored), "pretty output reads back differently")
    } catch let error as HearthError {
      throw PropertyViolation("pretty output does not read back: \(error): \(pretty)")
    }
  }

  /// `value` with every timestamp cut to whole microseconds.
  static func truncatedToMicroseconds(_ value: Value) -> Value {
    switch value {
    case .timestamp(let timestamp): .timestamp(timestamp.truncatedToMicroseconds)
    case .array(let elements): .array(elements.map(truncatedToMicroseconds))
    case .map(let fields): .map(fields.mapValues(truncatedToMicroseconds))
    default: value
    }
  }

  /// `ExtendedJSON.validateFields` and `ExtendedJSONCodec.fields` accept the same texts.
  static func requireFieldsAgree(_ text: String) throws {
    var codecAccepts = true
    do {
      _ = try ExtendedJSONCodec.fields(fromText: text)
    } catch {
      try requireHearthError(error, .invalidArgument, from: "ExtendedJSONCodec.fields(fromText:)")
      codecAccepts = false
    }
    var validated = true
    do { try ExtendedJSON.validateFields(text) } catch { validated = false }
    try require(codecAccepts == validated, "validateFields and ExtendedJSONCodec.fields disagree")
  }
}

/// One empty database for the whole run, in a temporary directory removed at exit, for
/// the targets that need one (references are made in a database; queries run on one).
enum FuzzDatabase {
  private static let database: Database? = {
    guard let database = try? Database.temporary() else { return nil }
    atexit { FuzzDatabase.database?.close() }
    return database
  }()

  static func shared() -> Database {
    // Not a property of the input: without a database the harness itself cannot run.
    guard let database else { fatalError("cannot open a temporary database for fuzzing") }
    return database
  }
}
