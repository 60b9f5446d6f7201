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
/// For example:
///
/// ```swift
/// try Tokenizer.split(#"set users/a {"name": "A B"} --merge"#)
/// // ["set", "users/a", "{\"name\": \"A B\"}", "--merge"]
/// ```
package enum Tokenizer {
  /// - Throws: `TokenizerError` for a quote or bracket left open.
  package static func split(_ line: String) throws(TokenizerError) -> [String] {
    let characters = scalars(of: line)
    var words: [String] = []
    var word = ""
    var inWord = false  // `''` is an empty word, so emptiness alone cannot tell
    var index = 0

    func finishWord() {
      if inWord { words.append(word) }
      word = ""
      inWord = false
    }

    while index < characters.count {
      let character = characters[index]
      switch character {
      case " ", "\t", "\n", "\r":
        finishWord()
        index += 1
      case "'":
        inWord = true
        let open = index
        index += 1
        while index < characters.count, characters[index] != "'" {
          word.append(characters[index])
          index += 1
        }
        guard index < characters.count else { throw TokenizerError(kind: .singleQuote, column: open + 1) }
        index += 1
      case "\"":
        inWord = true
        let open = index
        index += 1
        while index < characters.count, characters[index] != "\"" {
          if characters[index] == "\\", index + 1 < characters.count,
            characters[index + 1] == "\"" || characters[index + 1] == "\\"
          {
            index += 1
          }
          word.append(characters[index])
          index += 1
        }
        guard index < characters.count else { throw TokenizerError(kind: .doubleQuote, column: open + 1) }
        index += 1
      case "\\":
        guard index + 1 < characters.count else { throw TokenizerError(kind: .escape, column: index + 1) }
        inWord = true
        word.append(characters[index + 1])
        index += 2
      case "{" where !inWord, "[" where !inWord:
        inWord = true
        let end = try endOfJSON(characters, from: index)
        word.append(contentsOf: characters[index..<end])
        index = end
      default:
        inWord = true
        word.append(character)
        index += 1
      }
    }
    finishWord()
    return words
  }

  /// The index just past the bracket that closes the one at `start`; strings inside are
  /// skipped with their escapes. Mismatched closing brackets are left for the JSON
  /// parser to report with a position.
  private static func endOfJSON(_ characters: [Character], from start: Int) throws(TokenizerError) -> Int {
    var depth = 0
    var index = start
    var stack: [Int] = []  // where each open bracket is, for the error
    while index < characters.count {
      switch characters[index] {
      case "{", "[":
        depth += 1
        stack.append(index)
      case "}", "]":
        depth -= 1
        stack.removeLast()
        if depth == 0 { return index + 1 }
      case "\"":
        let open = index
        index += 1
        while index < characters.count, characters[index] != "\"" {
          if characters[index] == "\\" { index += 1 }
          index += 1
        }
        guard index < characters.count else { throw TokenizerError(kind: .doubleQuote, column: open + 1) }
      default:
        break
      }
      index += 1
    }
    let open = stack.last ?? start
    throw TokenizerError(kind: .bracket(characters[open]), column: open + 1)
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

  /// The line's Unicode scalars, each as a `Character`, for the tokenizers to walk.
  ///
  /// Not the line's own characters: a grapheme cluster can join a quote, a backslash or
  /// a space to the combining marks after it (`'` followed by U+0301 is one
  /// `Character`), which would then be neither a quote nor a separator, so that `'\u{301}'`
  /// would not be a quoted word. Every character the tokenizers look for is one scalar;
  /// words built from these characters join back into the same text.
  static func scalars(of line: String) -> [Character] {
    line.unicodeScalars.map(Character.init)
  }
}
