import Foundation

/// A value of a one-line JSON summary.
enum JSONField {
  case int(Int)
  case double(Double)
  case bool(Bool)
  case string(String)
  case ints([Int])

  var text: String {
    switch self {
    case .int(let value): "\(value)"
    case .double(let value): String(format: "%.3f", value)
    case .bool(let value): value ? "true" : "false"
    case .ints(let values): "[" + values.map(String.init).joined(separator: ",") + "]"
    case .string(let value):
      "\""
        + value.unicodeScalars.map { scalar -> String in
          switch scalar {
          case "\"": "\\\""
          case "\\": "\\\\"
          case "\n": "\\n"
          case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
          default: String(scalar)
          }
        }.joined() + "\""
    }
  }
}

/// Prints one JSON object on one line of standard output, fields in the given order.
func printJSON(_ fields: [(String, JSONField)]) {
  printLine("{" + fields.map { "\"\($0.0)\":\($0.1.text)" }.joined(separator: ",") + "}")
}

/// Writes a line to standard output at once (unbuffered: the harness waits for it).
func printLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a message to standard error.
func report(_ message: String) {
  FileHandle.standardError.write(Data(("hearth-torture: " + message + "\n").utf8))
}
