/// A query the shell could not read, at a column of its text: printed as
/// `query syntax error at column 27: expected a value after '>='`, then the text and a
/// caret under that column.
package struct QueryTextError: Error, Equatable {
  enum Kind: Equatable {
    /// The text does not follow the grammar.
    case syntax
    /// A value is well-formed but wrong (a bad time in `ts(…)`, an out-of-range number).
    case value
  }

  let kind: Kind
  package let message: String
  /// Counted in Unicode scalars from 1 (see `ClauseParser`); one past the end for
  /// "expected … at the end".
  package let column: Int
  package let text: String

  /// Exit status 65 (bad input data), with the text and the caret as detail lines.
  var failure: CommandFailure {
    let what = kind == .syntax ? "query syntax error" : "invalid value in query"
    return CommandFailure(
      message: "\(what) at column \(column): \(message)", code: "invalidArgument", status: .dataError,
      detail: ["  " + text, "  " + String(repeating: " ", count: caretOffset) + "^"])
  }

  /// The characters before `column`, where the caret goes under the text as displayed
  /// (combining marks share their base's place).
  private var caretOffset: Int {
    String(String.UnicodeScalarView(text.unicodeScalars.prefix(max(0, column - 1)))).count
  }
}
