/// A quote or bracket left open at the end of a command line. The interactive shell
/// reads another line when it sees one, so JSON can be pasted across lines.
package struct TokenizerError: Error, Equatable, CustomStringConvertible {
  enum Kind: Equatable {
    case singleQuote, doubleQuote
    /// A JSON object or array (`{` or `[`) not closed.
    case bracket(Character)
    /// A backslash as the last character.
    case escape
  }

  let kind: Kind
  /// Where the open quote or bracket is, counted in Unicode scalars from 1 (as JSON
  /// parse errors count columns).
  package let column: Int

  package var description: String {
    switch kind {
    case .singleQuote: "unterminated single quote (opened at column \(column))"
    case .doubleQuote: "unterminated double quote (opened at column \(column))"
    case .bracket(let bracket):
      "unbalanced '\(bracket)': JSON opened at column \(column) is not closed"
    case .escape: "a backslash at the end of the line escapes nothing"
    }
  }
}

/// Splits a command line into words, as a Unix shell would, plus one rule for JSON:
///
/// - Words are separated by spaces and tabs (and line breaks, for multi-line input).
/// - `'…'` is literal; `"…"` allows `\"` and `\\`; outside quotes `\` escapes the next
///   character. Quotes can join parts of one word: `a"b c"` is `ab c`.
/// - A word that starts with `{` or `[` is JSON: it runs, verbatim, to the matching
///   bracket, with JSON strings (and their escapes) inside taken as they are, so that
///   `set users/a {"name": "A B"}` needs no quoting around the object.
///
/// The characters are read by `CommandLexer`, whose rules for quotes, escapes and
/// brackets are those of the query parser too.
///
/// For example:
///
/// ```swift
/// try Tokenizer.split(#"set users/a {"name": "A B"} --merge"#)
/// // ["set", "users/a", "{\"name\": \"A B\"}", "--merge"]
/// ```
package enum Tokenizer {
  /// - Throws: `TokenizerError` for a quote or bracket left open.
  package static func split(_ line: String) throws(TokenizerError) -> [String] {
    var lexer = CommandLexer(line, words: .shell)
    var words: [String] = []
    var word = ""
    var inWord = false  // `''` is an empty word, so emptiness alone cannot tell

    func finishWord() {
      if inWord { words.append(word) }
      word = ""
      inWord = false
    }

    while let character = lexer.current {
      switch character {
      case _ where CommandLexer.isSeparator(character):
        finishWord()
        lexer.index += 1
      case "'", "\"":
        inWord = true
        do {
          try lexer.readQuoted(character == "'" ? .none : .shell, into: &word)
        } catch {
          throw unclosed(error, in: lexer)
        }
      case "\\":
        guard lexer.index + 1 < lexer.characters.count else {
          throw TokenizerError(kind: .escape, column: lexer.column(at: lexer.index))
        }
        inWord = true
        word.append(lexer.characters[lexer.index + 1])
        lexer.index += 2
      case "{" where !inWord, "[" where !inWord:
        inWord = true
        do {
          word.append(contentsOf: try lexer.readJSON())
        } catch {
          throw unclosed(error, in: lexer)
        }
      default:
        inWord = true
        let end = lexer.endOfWord(from: lexer.index)
        word.append(contentsOf: lexer.characters[lexer.index..<end])
        lexer.index = end
      }
    }
    finishWord()
    return words
  }

  /// The error for the quote or bracket `failure` found left open.
  static func unclosed(_ failure: CommandLexer.Failure, in lexer: CommandLexer) -> TokenizerError {
    let open = lexer.characters[failure.position]
    let kind: TokenizerError.Kind =
      switch open {
      case "'": .singleQuote
      case "\"": .doubleQuote
      default: .bracket(open)
      }
    return TokenizerError(kind: kind, column: lexer.column(at: failure.position))
  }
}

extension Tokenizer {
  /// `word` as it must be typed to come back as one word: as is when plain, else in
  /// single quotes (for hints that show a command to run next).
  package static func quotedIfNeeded(_ word: String) -> String {
    let special = " \t\n\r'\"\\{}[]#$`|&;<>()*?".unicodeScalars
    guard word.isEmpty || word.unicodeScalars.contains(where: { special.contains($0) }) else { return word }
    var quoted = "'"
    for scalar in word.unicodeScalars { quoted += scalar == "'" ? #"'"'"'"# : String(scalar) }
    return quoted + "'"
  }
}
