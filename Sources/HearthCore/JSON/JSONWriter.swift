/// Writes `JSONValue`s as text: compact for machines, or pretty (2-space indent) for
/// people, optionally coloured with ANSI escapes for a terminal.
///
/// Doubles are written so that they read back as the same double, bit for bit: Swift's
/// shortest round-trip form, with `.0` added to a whole number (`2.0`, not `2`) so that
/// it reads back as a double and not an integer. NaN and infinities have no JSON form
/// and are written as `null` (as JavaScript does); extended JSON tags them instead.
///
/// For example:
///
/// ```swift
/// let value = JSONValue.object([("name", .string("Alice")), ("score", .double(2))])
/// JSONWriter().string(from: value)                  // {"name":"Alice","score":2.0}
/// JSONWriter(style: .pretty).string(from: value)
/// // {
/// //   "name": "Alice",
/// //   "score": 2.0
/// // }
/// ```
package struct JSONWriter: Sendable {
  package enum Style: Sendable {
    /// No whitespace at all: one line, the form for pipes, files and JSON Lines.
    case compact
    /// Two-space indentation, one member per line; a short container of plain values
    /// (`[1, 2]`, `{"$timestamp": "…"}`) stays on one line.
    case pretty
  }

  /// Escape sequences put around each kind of token.
  package struct Palette: Sendable {
    package var key: String
    package var string: String
    package var number: String
    /// `true`, `false` and `null`.
    package var literal: String
    package var reset: String

    package init(key: String, string: String, number: String, literal: String, reset: String) {
      self.key = key
      self.string = string
      self.number = number
      self.literal = literal
      self.reset = reset
    }

    /// Bold blue keys, green strings, cyan numbers, magenta literals: readable on light
    /// and dark terminals alike.
    package static let ansi = Palette(
      key: "\u{1B}[1;34m", string: "\u{1B}[32m", number: "\u{1B}[36m", literal: "\u{1B}[35m",
      reset: "\u{1B}[0m")
  }

  package var style: Style
  /// Colours, or `nil` for plain text.
  package var palette: Palette?

  /// The widest container (in characters, without colours) that pretty output keeps on
  /// one line.
  static let inlineWidth = 64

  package init(style: Style = .compact, palette: Palette? = nil) {
    self.style = style
    self.palette = palette
  }

  /// The text of `value`, without a trailing newline.
  package func string(from value: JSONValue) -> String {
    var output = ""
    write(value, indent: 0, into: &output)
    return output
  }

  // MARK: - Writing

  private func write(_ value: JSONValue, indent: Int, into output: inout String) {
    switch value {
    case .null: colored("null", palette?.literal, into: &output)
    case .bool(let b): colored(b ? "true" : "false", palette?.literal, into: &output)
    case .integer(let i): colored(String(i), palette?.number, into: &output)
    case .double(let d):
      if let text = JSONWriter.format(d) {
        colored(text, palette?.number, into: &output)
      } else {
        colored("null", palette?.literal, into: &output)
      }
    case .string(let s): colored(JSONWriter.quoted(s), palette?.string, into: &output)
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
      } else if style == .compact || fitsOnOneLine(value) {
        output += "["
        for (position, element) in elements.enumerated() {
          if position > 0 { output += style == .compact ? "," : ", " }
          write(element, indent: indent, into: &output)
        }
        output += "]"
      } else {
        output += "[\n"
        for (position, element) in elements.enumerated() {
          output += String(repeating: "  ", count: indent + 1)
          write(element, indent: indent + 1, into: &output)
          output += position == elements.count - 1 ? "\n" : ",\n"
        }
        output += String(repeating: "  ", count: indent) + "]"
      }
    case .object(let members):
      if members.isEmpty {
        output += "{}"
      } else if style == .compact || fitsOnOneLine(value) {
        output += "{"
        for (position, member) in members.enumerated() {
          if position > 0 { output += style == .compact ? "," : ", " }
          colored(JSONWriter.quoted(member.key), palette?.key, into: &output)
          output += style == .compact ? ":" : ": "
          write(member.value, indent: indent, into: &output)
        }
        output += "}"
      } else {
        output += "{\n"
        for (position, member) in members.enumerated() {
          output += String(repeating: "  ", count: indent + 1)
          colored(JSONWriter.quoted(member.key), palette?.key, into: &output)
          output += ": "
          write(member.value, indent: indent + 1, into: &output)
          output += position == members.count - 1 ? "\n" : ",\n"
        }
        output += String(repeating: "  ", count: indent) + "}"
      }
    }
  }

  private func colored(_ text: String, _ color: String?, into output: inout String) {
    if let color, let reset = palette?.reset {
      output += color + text + reset
    } else {
      output += text
    }
  }

  /// Whether pretty output keeps `value` on one line: an array of plain values, or an
  /// object with one member whose value is plain or such an array (how extended JSON's
  /// tags look), short enough to read at a glance.
  private func fitsOnOneLine(_ value: JSONValue) -> Bool {
    func isPlain(_ value: JSONValue) -> Bool {
      switch value {
      case .array, .object: false
      default: true
      }
    }
    switch value {
    case .array(let elements):
      guard elements.allSatisfy(isPlain) else { return false }
    case .object(let members):
      guard members.count == 1 else { return false }
      switch members[0].value {
      case .array(let elements): guard elements.allSatisfy(isPlain) else { return false }
      case .object: return false
      default: break
      }
    default: return true
    }
    let plain = JSONWriter(style: .pretty, palette: nil)
    var text = ""
    // Measuring the one-line form; its nested containers are plain, so this terminates.
    plain.writeInline(value, into: &text)
    return text.unicodeScalars.count <= JSONWriter.inlineWidth
  }

  /// The one-line pretty form (`", "` and `": "` separators), without colours.
  private func writeInline(_ value: JSONValue, into output: inout String) {
    switch value {
    case .array(let elements):
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += ", " }
        writeInline(element, into: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (position, member) in members.enumerated() {
        if position > 0 { output += ", " }
        output += JSONWriter.quoted(member.key) + ": "
        writeInline(member.value, into: &output)
      }
      output += "}"
    default:
      write(value, indent: 0, into: &output)
    }
  }

  // MARK: - Tokens

  /// The JSON number for a finite double, reading back as the same double and as a
  /// double (`2.0`, `1e+16`, `-0.0`, `5e-324`); `nil` for NaN and infinities.
  package static func format(_ double: Double) -> String? {
    guard double.isFinite else { return nil }
    // `description` is the shortest text that reads back as the same bits.
    let text = double.description
    if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
      return text
    }
    return text + ".0"
  }

  /// `text` as a JSON string literal: `"` and `\` escaped, control characters as
  /// `\n`-style or `\u00XX` escapes (so no terminal escape sequence ever passes through),
  /// U+2028 and U+2029 escaped for JavaScript's sake; everything else as is.
  package static func quoted(_ text: String) -> String {
    // Most strings need no escape: copy them whole. (0xE2 leads U+2028 and U+2029, and
    // other characters too, which the slow path copies as they are.)
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
      return "\"" + text + "\""
    }
    var output = "\""
    output.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{2028}": output += "\\u2028"
      case "\u{2029}": output += "\\u2029"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let digits = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
    return output
  }
}

extension JSONValue {
  /// This value as JSON text: compact, or pretty with optional ANSI colours.
  package func serialized(pretty: Bool = false, colored: Bool = false) -> String {
    JSONWriter(style: pretty ? .pretty : .compact, palette: colored ? .ansi : nil).string(from: self)
  }
}
