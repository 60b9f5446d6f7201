import Hearth

/// Reads a dotted field path as the shell takes it, in query text and in index specs
/// alike: plain names (the lexer's words), or names in backticks with `\` escaping
/// (`` `first name`.city ``).
enum FieldPathText {
  /// Why no field path could be read, and at which character.
  struct Failure: Error {
    let message: String
    let position: Int
  }

  /// The path at the cursor of `lexer` (which moves past it); `context` is what came
  /// before, for the message when no name follows.
  static func read(from lexer: inout CommandLexer, after context: String) throws(Failure) -> FieldPath {
    var segments: [String] = []
    while true {
      if lexer.current == "`" {
        let open = lexer.index
        var segment = ""
        do {
          try lexer.readQuoted(.verbatim, into: &segment)
        } catch {
          throw Failure(message: "the backtick at column \(lexer.column(at: open)) is not closed", position: open)
        }
        guard !segment.isEmpty else {
          throw Failure(message: "a field name in backticks cannot be empty", position: open)
        }
        segments.append(segment)
      } else {
        let start = lexer.index
        guard let name = lexer.wordHere() else {
          var message = "expected a field name after '\(segments.isEmpty ? context : ".")'\(lexer.found(at: start))"
          if segments.isEmpty, lexer.current == "'" || lexer.current == "\"" {
            message += "; field names with special characters go in backticks: `first name`"
          }
          throw Failure(message: message, position: start)
        }
        lexer.takeWord(name)
        segments.append(name)
      }
      guard lexer.current == "." else { break }
      lexer.index += 1
    }
    return FieldPath(segments)
  }
}
