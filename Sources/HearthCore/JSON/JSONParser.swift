/// Why a JSON text could not be parsed, and where.
///
/// The position is where the problem was seen: `line` and `column` (both from 1; columns
/// count Unicode scalars, as an editor does) for people, `offset` (UTF-8 bytes from 0) for
/// tools. `description` reads `line 1, column 17: expected ',' or '}', found 'x'`.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String
  package let line: Int
  package let column: Int
  package let offset: Int

  package init(message: String, line: Int, column: Int, offset: Int) {
    self.message = message
    self.line = line
    self.column = column
    self.offset = offset
  }

  package var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict JSON parser (RFC 8259) that keeps integers apart from doubles and objects in
/// order. `JSONSerialization` cannot do either, and it accepts things we must refuse.
///
/// Strict means: no comments, no trailing commas, no single quotes, no `NaN`/`Infinity`,
/// no leading zeros (`01`), no bare `1.`, no duplicate keys in one object, no unescaped
/// control characters, no lone surrogates in `\u` escapes. An integer that does not fit
/// in `Int64` and a double that overflows to infinity are errors, not silent roundings:
/// the value would not be what the user wrote. Nesting is limited (`maxDepth`) so that
/// hostile input cannot exhaust the stack; the parser never traps on any input.
///
/// For example:
///
/// ```swift
/// try JSONParser.parse(#"{"a": 1, "b": [true, null, 2.5]}"#)
/// try JSONParser.parse("{\"a\": 1 \"b\": 2}")
/// // throws JSONParseError: line 1, column 10: expected ',' or '}', found '"'
/// ```
package enum JSONParser {
  /// Arrays and objects nest at most this deep by default: far beyond Firestore's 20
  /// levels (plus extended JSON's wrappers), far below what would strain the stack.
  package static let defaultMaxDepth = 64

  /// Parses one JSON value; surrounding whitespace (and a leading byte-order mark) is
  /// allowed, anything else after the value is an error.
  ///
  /// - Throws: `JSONParseError` with the position of the first problem.
  package static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
    var scanner = Scanner(bytes: Array(text.utf8), maxDepth: maxDepth)
    return try scanner.parseDocument()
  }

  /// Parses UTF-8 bytes (a file's contents). Invalid UTF-8 is an error at its position.
  package static func parse(utf8 bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
    var scanner = Scanner(bytes: bytes, maxDepth: maxDepth)
    if let bad = firstInvalidUTF8Offset(bytes) {
      throw scanner.error("invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16, uppercase: true))", at: bad)
    }
    return try scanner.parseDocument()
  }

  /// The number `text` spells, read as `parse` reads one in a document: without fraction
  /// or exponent an `Int64`, else a double. For readers of text that is JSON only in part
  /// (the doc shell's query values), which find where a number ends themselves and leave
  /// its grammar and its range to the one JSON parser.
  ///
  /// - Returns: `nil` when `text` is not exactly one JSON number.
  /// - Throws: `JSONParseError` for a number that does not fit: an integer beyond 64 bits,
  ///   a double that would be infinite.
  package static func number(_ text: String) throws(JSONParseError) -> JSONValue? {
    var scanner = Scanner(bytes: Array(text.utf8), maxDepth: 0)
    guard let isDouble = try? scanner.scanNumber(), scanner.index == scanner.bytes.count else { return nil }
    return try scanner.convertNumber(from: 0, isDouble: isDouble)
  }

  /// The offset of the first byte that does not start a valid UTF-8 sequence, or `nil`.
  static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}

// MARK: - Scanner

/// The parser's state: the input and a byte index into it.
private struct Scanner {
  let bytes: [UInt8]
  let maxDepth: Int
  var index = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    skipWhitespace()
    guard index < bytes.count else {
      throw error(bytes.isEmpty ? "empty input: expected a JSON value" : "expected a JSON value, found end of input")
    }
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard index == bytes.count else {
      throw error("unexpected \(found()) after the JSON value")
    }
    return value
  }

  // MARK: Values

  mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("expected a JSON value, found end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try parseLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    case UInt8(ascii: "'"): throw error("expected a JSON value, found \"'\": JSON strings use double quotes")
    default: throw error("expected a JSON value, found \(found())")
    }
  }

  mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    try checkDepth(depth)
    index += 1  // {
    var members: [(key: String, value: JSONValue)] = []
    var keys = Set<String>()
    skipWhitespace()
    if peek(UInt8(ascii: "}")) {
      index += 1
      return .object(members)
    }
    while true {
      guard peek(UInt8(ascii: "\"")) else {
        if !members.isEmpty && peek(UInt8(ascii: "}")) {
          throw error("trailing comma: expected another member after ',', found '}'")
        }
        let hint = peek(UInt8(ascii: "'")) ? ": JSON strings use double quotes" : ""
        throw error("expected a key in double quotes, found \(found())\(hint)")
      }
      let keyOffset = index
      let key = try parseString()
      if !keys.insert(key).inserted {
        throw error("duplicate key \(JSONWriter.quoted(key)) in one object", at: keyOffset)
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key, found \(found())") }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth)))
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        skipWhitespace()
        continue
      }
      if peek(UInt8(ascii: "}")) {
        index += 1
        return .object(members)
      }
      throw error("expected ',' or '}', found \(found())")
    }
  }

  mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    try checkDepth(depth)
    index += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek(UInt8(ascii: "]")) {
      index += 1
      return .array(elements)
    }
    while true {
      if !elements.isEmpty && peek(UInt8(ascii: "]")) {
        throw error("trailing comma: expected another value after ',', found ']'")
      }
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        skipWhitespace()
        continue
      }
      if peek(UInt8(ascii: "]")) {
        index += 1
        return .array(elements)
      }
      throw error("expected ',' or ']', found \(found())")
    }
  }

  func checkDepth(_ depth: Int) throws(JSONParseError) {
    if depth > maxDepth {
      throw error("arrays and objects are nested more than \(maxDepth) levels deep")
    }
  }

  mutating func parseLiteral(_ word: StaticString) throws(JSONParseError) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - index >= expected.count,
      bytes[index..<index + expected.count].elementsEqual(expected),
      index + expected.count == bytes.count || !isWordByte(bytes[index + expected.count])
    else {
      throw error("expected a JSON value, found \(found())")
    }
    index += expected.count
  }

  // MARK: Numbers

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; without fraction and
  /// exponent it is an integer.
  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    let isDouble = try scanNumber()
    return try convertNumber(from: start, isDouble: isDouble)
  }

  /// Moves past a number's text, checking its grammar; whether it is a double.
  mutating func scanNumber() throws(JSONParseError) -> Bool {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else {
      throw error("expected a digit after '-', found \(found())")
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        throw error("leading zeros are not allowed in numbers", at: start)
      }
    } else {
      skipDigits()
    }
    var isDouble = false
    if peek(UInt8(ascii: ".")) {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("expected a digit after the decimal point, found \(found())")
      }
      skipDigits()
      isDouble = true
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      skipDigits()
      isDouble = true
    }
    return isDouble
  }

  /// The number scanned from `start` to the cursor: an exact `Int64`, or a finite double.
  func convertNumber(from start: Int, isDouble: Bool) throws(JSONParseError) -> JSONValue {
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if !isDouble {
      guard let integer = Int64(text) else {
        throw error(
          "integer \(abbreviated(text)) does not fit in 64 bits (integers lie between "
            + "-9223372036854775808 and 9223372036854775807); write it with a fraction or an "
            + "exponent to store a double", at: start)
      }
      return .integer(integer)
    }
    guard let double = Double(text), double.isFinite else {
      throw error("number \(abbreviated(text)) is too large for a double", at: start)
    }
    return .double(double)
  }

  mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  // MARK: Strings

  /// A string starting at the current `"`, with every escape decoded.
  mutating func parseString() throws(JSONParseError) -> String {
    let start = index
    index += 1  // "
    var utf8: [UInt8] = []
    while true {
      // Copy the run of plain bytes in one go.
      let runStart = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        index += 1
      }
      utf8.append(contentsOf: bytes[runStart..<index])
      guard index < bytes.count else {
        let (line, column) = position(of: start)
        throw error("unterminated string (it starts at line \(line), column \(column))")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        // Input bytes were validated as UTF-8, and escapes only add whole scalars.
        return String(decoding: utf8, as: UTF8.self)
      }
      if byte < 0x20 {
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
          let (line, column) = position(of: start)
          throw error(
            "line break inside a string (write it as \\n; or is the closing '\"' of the string "
              + "at line \(line), column \(column) missing?)")
        }
        throw error(
          "control character \(scalarName(UInt32(byte))) inside a string must be escaped (\\u00\(hex2(byte)))")
      }
      try parseEscape(into: &utf8)
    }
  }

  /// Decodes the escape at the current `\` and appends its UTF-8.
  mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
    let escapeStart = index
    index += 1  // backslash
    guard index < bytes.count else { throw error("unterminated string: escape at end of input") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHex4(escapeStart: escapeStart)
      var scalarValue = UInt32(unit)
      if (0xD800...0xDBFF).contains(unit) {
        // A high surrogate must be followed by an escaped low surrogate: together they
        // are one scalar beyond the Basic Multilingual Plane.
        let lowStart = index
        guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
          throw error(
            "lone high surrogate \\u\(hex4(unit)): it must be followed by a low surrogate \\uDC00–\\uDFFF",
            at: escapeStart)
        }
        index += 2
        let low = try parseHex4(escapeStart: lowStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error(
            "lone high surrogate \\u\(hex4(unit)): it is followed by \\u\(hex4(low)), not a low surrogate "
              + "\\uDC00–\\uDFFF", at: escapeStart)
        }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw error(
          "lone low surrogate \\u\(hex4(unit)): it must follow a high surrogate \\uD800–\\uDBFF", at: escapeStart)
      }
      // Not a surrogate, or a valid pair: always a scalar.
      guard let scalar = Unicode.Scalar(scalarValue) else {
        throw error("invalid escape \\u\(hex4(unit))", at: escapeStart)
      }
      utf8.append(contentsOf: UTF8.encode(scalar)!)
    default:
      index -= 1
      throw error(
        "invalid escape '\\\(found(quoted: false))' in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
        at: escapeStart)
    }
  }

  mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexValue(bytes[index]) else {
        throw error("expected 4 hex digits after \\u, found \(found())")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  // MARK: Bytes

  func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
      default: return
      }
    }
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
  }

  func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  // MARK: Errors

  /// What is at the current position, for messages: `'x'`, `'NaN'` for a word,
  /// `U+0007` for a control character, or `end of input`.
  func found(quoted: Bool = true) -> String {
    guard index < bytes.count else { return "end of input" }
    let byte = bytes[index]
    if isWordByte(byte) {
      var end = index
      while end < bytes.count, end - index < 20, isWordByte(bytes[end]) { end += 1 }
      let word = String(decoding: bytes[index..<end], as: UTF8.self)
      return quoted ? "'\(word)'" : word
    }
    if byte < 0x20 || byte == 0x7F { return scalarName(UInt32(byte)) }
    // One whole scalar (the input is valid UTF-8).
    var end = index + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    let character = String(decoding: bytes[index..<end], as: UTF8.self)
    return quoted ? "'\(character)'" : character
  }

  func error(_ message: String) -> JSONParseError { error(message, at: index) }

  func error(_ message: String, at offset: Int) -> JSONParseError {
    let (line, column) = position(of: offset)
    return JSONParseError(message: message, line: line, column: column, offset: offset)
  }

  /// Line and column (from 1) of a byte offset; columns count scalars, not bytes.
  func position(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes[0..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  func abbreviated(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(24)) + "…" + String(text.suffix(8)) : text
  }

  func hex4(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  func hex2(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  func scalarName(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
