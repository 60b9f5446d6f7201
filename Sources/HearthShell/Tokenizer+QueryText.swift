extension Tokenizer {
  /// The first word of `line` when it is plain (no quotes or escapes), as a command name
  /// is; `nil` otherwise.
  static func firstWord(of line: String) -> String? {
    var lexer = CommandLexer(line, words: .shell)
    while lexer.current == " " || lexer.current == "\t" { lexer.index += 1 }
    let start = lexer.index
    while let character = lexer.current, !character.isWhitespace { lexer.index += 1 }
    let word = lexer.characters[start..<lexer.index]
    guard !word.isEmpty, !word.contains(where: { "'\"\\`{[".contains($0) }) else { return nil }
    return String(word)
  }

  /// Splits a command line whose arguments are query text (`query`, `explain`) in the
  /// interactive shell. Words end at spaces outside quotes, as with `split`, but quotes
  /// and backslashes stay in the words for the query language to read: `"A B"` stays a
  /// quoted string, `'it\'s'` one string, `` `first name` `` one field name.
  ///
  /// For example:
  ///
  /// ```swift
  /// try Tokenizer.splitKeepingQuotes(#"query users where name == "A B""#)
  /// // ["query", "users", "where", "name", "==", "\"A B\""]
  /// ```
  ///
  /// - Throws: `TokenizerError` for a quote or JSON bracket left open (backticks are left
  ///   to the query parser), so that the interactive shell reads another line.
  package static func splitKeepingQuotes(_ line: String) throws(TokenizerError) -> [String] {
    var lexer = CommandLexer(line, words: .query)
    var words: [String] = []
    var word = ""
    var brackets: [Int] = []  // where each open `[` or `{` is
    while let character = lexer.current {
      switch character {
      case _ where CommandLexer.isSeparator(character):
        if !word.isEmpty { words.append(word) }
        word = ""
        lexer.index += 1
      case "'", "\"", "`":
        word.append(character)
        do {
          try lexer.readQuoted(.kept, into: &word)
          word.append(character)
        } catch {
          // A backtick left open is the query parser's to report; the rest of the line,
          // as typed, is in the word.
          guard character == "`" else { throw unclosed(error, in: lexer) }
        }
      case "\\":
        guard lexer.index + 1 < lexer.characters.count else {
          throw TokenizerError(kind: .escape, column: lexer.column(at: lexer.index))
        }
        word.append(character)
        word.append(lexer.characters[lexer.index + 1])
        lexer.index += 2
      case "[", "{":
        brackets.append(lexer.index)
        word.append(character)
        lexer.index += 1
      case "]", "}":
        if !brackets.isEmpty { brackets.removeLast() }
        word.append(character)
        lexer.index += 1
      default:
        word.append(character)
        lexer.index += 1
      }
    }
    if !word.isEmpty { words.append(word) }
    if let open = brackets.last {
      throw TokenizerError(kind: .bracket(lexer.characters[open]), column: lexer.column(at: open))
    }
    return words
  }
}
