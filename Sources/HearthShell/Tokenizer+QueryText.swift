extension Tokenizer {
  /// The first word of `line` when it is plain (no quotes or escapes), as a command name
  /// is; `nil` otherwise.
  static func firstWord(of line: String) -> String? {
    let word = line.drop { $0 == " " || $0 == "\t" }.prefix { !$0.isWhitespace }
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
    let characters = scalars(of: line)
    var words: [String] = []
    var word = ""
    var brackets: [Int] = []  // where each open `[` or `{` is
    var index = 0
    while index < characters.count {
      let character = characters[index]
      switch character {
      case " ", "\t", "\n", "\r":
        if !word.isEmpty { words.append(word) }
        word = ""
        index += 1
      case "'", "\"", "`":
        let open = index
        word.append(character)
        index += 1
        while index < characters.count, characters[index] != character {
          if characters[index] == "\\", index + 1 < characters.count {
            word.append(characters[index])
            index += 1
          }
          word.append(characters[index])
          index += 1
        }
        guard index < characters.count else {
          if character == "`" { break }
          throw TokenizerError(kind: character == "'" ? .singleQuote : .doubleQuote, column: open + 1)
        }
        word.append(character)
        index += 1
      case "\\":
        guard index + 1 < characters.count else { throw TokenizerError(kind: .escape, column: index + 1) }
        word.append(character)
        word.append(characters[index + 1])
        index += 2
      case "[", "{":
        brackets.append(index)
        word.append(character)
        index += 1
      case "]", "}":
        if !brackets.isEmpty { brackets.removeLast() }
        word.append(character)
        index += 1
      default:
        word.append(character)
        index += 1
      }
    }
    if !word.isEmpty { words.append(word) }
    if let open = brackets.last { throw TokenizerError(kind: .bracket(characters[open]), column: open + 1) }
    return words
  }
}
