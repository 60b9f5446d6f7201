/// Bytes that must be UTF-8 text: command-line arguments, JSON from standard input, the
/// lines of a script. Swift's `String(decoding:)`, `readLine()` and `CommandLine` repair
/// invalid UTF-8 into U+FFFD, which would store data the user never wrote; here invalid
/// UTF-8 is an error (`invalidArgument`, exit 65) naming where the first bad byte is.
enum UTF8Input {
  /// The bytes as text.
  ///
  /// - Throws: `CommandFailure` naming `source`, the line and the byte offsets, such as
  ///   `standard input:2: the line is not valid UTF-8: byte 0xE9 at offset 10 of the
  ///   line (offset 12 from the start)`.
  static func text(_ bytes: [UInt8], source: String) throws(CommandFailure) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    let offset = firstInvalidByte(in: bytes[...]) ?? 0
    let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    let line = bytes[..<offset].count { $0 == 0x0A } + 1
    throw invalidLine(source: source, line: line, byte: bytes[offset], offset: offset - lineStart, start: offset)
  }

  /// One line as text; `number` counts from 1, `start` is the line's offset in its input.
  static func line(_ bytes: ArraySlice<UInt8>, source: String?, number: Int, start: Int) throws(CommandFailure)
    -> String
  {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    let offset = firstInvalidByte(in: bytes) ?? 0
    throw invalidLine(
      source: source, line: number, byte: bytes[bytes.startIndex + offset], offset: offset, start: start + offset)
  }

  /// A command-line argument as text; `position` counts the arguments after `hearth`
  /// from 1.
  static func argument(_ bytes: [UInt8], position: Int) throws(CommandFailure) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    let offset = firstInvalidByte(in: bytes[...]) ?? 0
    throw CommandFailure(
      message: "argument \(position) is not valid UTF-8: byte \(hex(bytes[offset])) at offset \(offset) "
        + "(\(shown(bytes)))", code: "invalidArgument", status: .dataError)
  }

  private static func invalidLine(source: String?, line: Int, byte: UInt8, offset: Int, start: Int)
    -> CommandFailure
  {
    CommandFailure(
      message: (source.map { "\($0):\(line): " } ?? "") + "the line is not valid UTF-8: byte \(hex(byte)) "
        + "at offset \(offset) of the line (offset \(start) from the start)",
      code: "invalidArgument", status: .dataError)
  }

  /// The offset of the first byte that does not begin a well-formed UTF-8 sequence
  /// (relative to the start of `bytes`), or `nil`.
  static func firstInvalidByte(in bytes: ArraySlice<UInt8>) -> Int? {
    var position = bytes.startIndex
    while position < bytes.endIndex {
      guard let width = scalarWidth(bytes[position...]) else { return position - bytes.startIndex }
      position += width
    }
    return nil
  }

  /// The bytes for a message: text as it is, each byte that is not UTF-8 as `\xE9`.
  static func shown(_ bytes: [UInt8]) -> String {
    var text = ""
    var position = 0
    while position < bytes.count {
      if let width = scalarWidth(bytes[position...]) {
        text += String(decoding: bytes[position..<position + width], as: UTF8.self)
        position += width
      } else {
        text += "\\x" + hex(bytes[position]).dropFirst(2)
        position += 1
      }
    }
    return text
  }

  /// The length of the well-formed UTF-8 sequence `bytes` begins with, or `nil`.
  private static func scalarWidth(_ bytes: ArraySlice<UInt8>) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
    return UTF8.width(scalar)
  }

  /// `0xE9`.
  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
  }
}
