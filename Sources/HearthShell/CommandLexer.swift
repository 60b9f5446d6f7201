/// The reader of the shell's command text, and the one place its lexical rules live:
/// which characters separate words, what quotes, backslashes and brackets do, and which
/// characters make up a word. `Tokenizer` splits command lines into words with it,
/// `ClauseParser` reads query clauses with it, `SpecParser` index specs, and
/// `FieldPathText` the field paths of both; so a quote or a backslash reads the same
/// wherever it is typed, and each of them only says what its grammar does with the
/// tokens.
///
/// The text is walked as its Unicode scalars, each one a `Character` (`scalars(of:)`);
/// the cursor, `index`, counts them. Columns count them from 1, as JSON parse errors
/// do; a string of query text read again as clauses (`replace`) keeps the columns it
/// came from.
struct CommandLexer {
  /// What a word is made of in the text being read.
  enum Words {
    /// A Unix shell's: anything but a separator, a quote or a backslash.
    case shell
    /// Query clauses': keywords, operators spelled as words (`not-in`), plain field names
    /// and numbers run up to a space or a character of the grammar.
    case query
    /// An index spec's: plain field names and the words asc, desc and contains.
    case indexSpec
  }

  /// What a backslash does between quotes.
  enum Escapes {
    /// Nothing: in a Unix shell's `'…'` a backslash is itself.
    case none
    /// A Unix shell's `"…"`: `\"` is a quote and `\\` a backslash; any other backslash
    /// is itself.
    case shell
    /// It keeps the next character from closing the quote, and both stay as typed (query
    /// text split into words, for the parser to read later).
    case kept
    /// It stands for the next character as it is (a field name in backticks).
    case verbatim
    /// JSON's escapes, plus `\'` and `` \` `` (a string in query text).
    case query
  }

  /// Why a quoted run or a bracket could not be read, at which character; each reader
  /// words it in its own terms.
  struct Failure: Error, Equatable {
    enum Kind: Equatable {
      /// Nothing closes the quote or bracket at `position`.
      case unclosed
      /// A backslash (at `position`) before a character that escapes nothing.
      case unknownEscape(Character)
      /// `\u` (its backslash at `position`) without four hex digits.
      case shortUnicodeEscape
      /// `\u` (its backslash at `position`) for half a surrogate pair.
      case loneSurrogate
    }

    let kind: Kind
    let position: Int
  }

  let words: Words
  /// The text, one Unicode scalar per `Character`.
  private(set) var characters: [Character]
  /// The column of each character once `replace` has moved some; empty while each is at
  /// its own position (plus one).
  private var columns: [Int] = []
  /// The column one past the end of the text as typed.
  private let endColumn: Int
  /// The cursor: the position of the next character to read.
  var index = 0

  init(_ text: String, words: Words) {
    characters = Self.scalars(of: text)
    self.words = words
    endColumn = characters.count + 1
  }

  /// The text's Unicode scalars, each as a `Character`.
  ///
  /// Not the text's own characters: a grapheme cluster can join a quote, a backslash or
  /// a space to the combining marks after it (`'` followed by U+0301 is one
  /// `Character`), which would then be neither a quote nor a separator, so that `'\u{301}'`
  /// would not be a quoted word. Every character the rules look for is one scalar; words
  /// built from these characters join back into the same text.
  static func scalars(of text: String) -> [Character] {
    text.unicodeScalars.map(Character.init)
  }

  // MARK: Characters

  var current: Character? { index < characters.count ? characters[index] : nil }

  /// The column of the character at `position`; one past the end of the text as typed
  /// for a position at or after the end.
  func column(at position: Int) -> Int {
    if columns.isEmpty { return position < characters.count ? position + 1 : endColumn }
    return position < columns.count ? columns[position] : endColumn
  }

  /// Separators between the words of a command line: spaces, tabs and line breaks.
  static func isSeparator(_ character: Character) -> Bool {
    character == " " || character == "\t" || character == "\n" || character == "\r"
  }

  func isWordCharacter(_ character: Character) -> Bool {
    // A character of one ASCII scalar equals no other: a table made by the rule answers
    // for it, where the rule itself compares characters (a run of string comparisons).
    if let ascii = character.asciiValue {
      switch words {
      case .shell: return Self.shellASCII[Int(ascii)]
      case .query: return Self.queryASCII[Int(ascii)]
      case .indexSpec: return Self.indexSpecASCII[Int(ascii)]
      }
    }
    return Self.isWordCharacter(character, in: words)
  }

  /// The rule of `isWordCharacter`.
  private static func isWordCharacter(_ character: Character, in words: Words) -> Bool {
    switch words {
    case .shell: !isSeparator(character) && character != "'" && character != "\"" && character != "\\"
    case .query: !character.isWhitespace && !"`=!<>(),[]{}'\":.".contains(character)
    case .indexSpec: !character.isWhitespace && !"`,.:()[]{}'\"=<>!/".contains(character)
    }
  }

  private static let shellASCII = asciiTable(.shell)
  private static let queryASCII = asciiTable(.query)
  private static let indexSpecASCII = asciiTable(.indexSpec)

  private static func asciiTable(_ words: Words) -> [Bool] {
    (0..<128).map { isWordCharacter(Character(Unicode.Scalar(UInt8($0))), in: words) }
  }

  /// Moves past whitespace, which separates the tokens of query text and index specs:
  /// any Unicode space or line break.
  mutating func skipSpaces() {
    while let character = current, character.isWhitespace { index += 1 }
  }

  /// Moves past ASCII digits; whether there was one.
  mutating func skipDigits() -> Bool {
    let start = index
    while let character = current, character.isASCII, character.isNumber { index += 1 }
    return index > start
  }

  /// Whether `symbol` comes next.
  func hasPrefix(_ symbol: String) -> Bool {
    var position = index
    for character in symbol {
      guard position < characters.count, characters[position] == character else { return false }
      position += 1
    }
    return true
  }

  /// Takes `symbol` when it comes next, after spaces.
  mutating func takeSymbol(_ symbol: Character) -> Bool {
    skipSpaces()
    guard current == symbol else { return false }
    index += 1
    return true
  }

  // MARK: Words

  /// Where the word at `position` ends (`position` itself when none is there).
  func endOfWord(from position: Int) -> Int {
    var end = position
    while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
    return end
  }

  /// The word at the cursor, without taking it.
  func wordHere() -> String? {
    let end = endOfWord(from: index)
    return end > index ? String(characters[index..<end]) : nil
  }

  /// The word at the cursor, after spaces, without taking it.
  mutating func peekWord() -> String? {
    skipSpaces()
    return wordHere()
  }

  /// Takes `word`, which `peekWord` or `wordHere` has just given.
  mutating func takeWord(_ word: String) {
    index += word.unicodeScalars.count
  }

  /// Takes `keyword` (any case) when it is the next word.
  mutating func take(_ keyword: String) -> Bool {
    guard let word = peekWord(), word.lowercased() == keyword else { return false }
    takeWord(word)
    return true
  }

  /// `, found 'x'` for the word (or else the character) at `position`, for messages;
  /// nothing at the end.
  func found(at position: Int) -> String {
    guard position < characters.count else { return "" }
    var end = endOfWord(from: position)
    if end == position { end += 1 }
    return ", found '\(String(characters[position..<end]))'"
  }

  // MARK: Quotes and brackets

  /// Reads the quoted run whose opening quote is at the cursor, up to the same quote
  /// closing it, moves past it, and appends to `text` the characters between the quotes
  /// as `escapes` reads them (with `.kept`, as typed, so that a run left open has put the
  /// rest of the text there).
  ///
  /// - Throws: `Failure`: `.unclosed` at the opening quote when nothing closes it; with
  ///   `.query`, a bad escape at its backslash.
  mutating func readQuoted(_ escapes: Escapes, into text: inout String) throws(Failure) {
    try scanQuoted(escapes) { character, _ in text.append(character) }
  }

  /// `readQuoted(_:into:)`, with the column each character came from (an escape's is its
  /// backslash's): a string of query text read again as clauses keeps them.
  mutating func readQuotedWithColumns(_ escapes: Escapes) throws(Failure) -> (characters: [Character], columns: [Int]) {
    var text: [Character] = []
    var positions: [Int] = []
    try scanQuoted(escapes) { character, position in
      text.append(character)
      positions.append(position)
    }
    return (text, positions.map(column(at:)))
  }

  /// Moves past the JSON at the cursor (a `{` or `[`) to the bracket that closes it, and
  /// returns it as typed. Only `"` quotes inside JSON, with backslash escapes;
  /// mismatched closing brackets are left for the JSON parser to report with a
  /// position.
  ///
  /// - Throws: `Failure` (`.unclosed`) at a string's opening quote, or at the innermost
  ///   bracket left open.
  mutating func readJSON() throws(Failure) -> ArraySlice<Character> {
    let start = index
    var open: [Int] = []  // where each open bracket is, for the error
    while let character = current {
      switch character {
      case "{", "[":
        open.append(index)
      case "}", "]":
        open.removeLast()
        if open.isEmpty {
          index += 1
          return characters[start..<index]
        }
      case "\"":
        try scanQuoted(.kept) { _, _ in }
        continue
      default:
        break
      }
      index += 1
    }
    throw Failure(kind: .unclosed, position: open.last ?? start)
  }

  /// Replaces the characters in `range` by `replacement`, whose characters came from the
  /// columns `replacementColumns`: a string of query text read again as clauses.
  mutating func replace(_ range: Range<Int>, with replacement: [Character], columns replacementColumns: [Int]) {
    if columns.isEmpty { columns = characters.indices.map { $0 + 1 } }
    characters.replaceSubrange(range, with: replacement)
    columns.replaceSubrange(range, with: replacementColumns)
  }

  /// The quoted run at the cursor, each character it stands for given to `read` with the
  /// position it came from (see `readQuoted`).
  @inline(__always)
  private mutating func scanQuoted(_ escapes: Escapes, _ read: (Character, Int) -> Void) throws(Failure) {
    let quote = characters[index]
    let open = index
    index += 1
    while let character = current, character != quote {
      let position = index
      index += 1
      guard character == "\\", let next = current else {
        read(character, position)
        continue
      }
      switch escapes {
      case .none:
        read(character, position)
      case .shell:
        let escaped = next == "\"" || next == "\\"
        if escaped { index += 1 }
        read(escaped ? next : character, position)
      case .kept:
        index += 1
        read(character, position)
        read(next, position + 1)
      case .verbatim:
        index += 1
        read(next, position)
      case .query:
        index += 1
        read(try unescaped(next, at: position), position)
      }
    }
    guard current != nil else { throw Failure(kind: .unclosed, position: open) }
    index += 1
  }

  /// What `\` then `escaped` stands for in a string of query text; the cursor is after
  /// `escaped`, and `position` is the backslash's.
  private mutating func unescaped(_ escaped: Character, at position: Int) throws(Failure) -> Character {
    switch escaped {
    case "n": "\n"
    case "t": "\t"
    case "r": "\r"
    case "b": "\u{8}"
    case "f": "\u{C}"
    case "\\", "/", "'", "\"", "`": escaped
    case "u": try unicodeEscape(at: position)
    default: throw Failure(kind: .unknownEscape(escaped), position: position)
    }
  }

  /// The character of `\uXXXX` (the cursor after the `u`), joining a surrogate pair.
  private mutating func unicodeEscape(at position: Int) throws(Failure) -> Character {
    func hex(_ lexer: inout CommandLexer) -> UInt32? {
      guard lexer.index + 4 <= lexer.characters.count,
        let code = UInt32(String(lexer.characters[lexer.index..<lexer.index + 4]), radix: 16)
      else { return nil }
      lexer.index += 4
      return code
    }
    guard var code = hex(&self) else { throw Failure(kind: .shortUnicodeEscape, position: position) }
    if (0xD800...0xDBFF).contains(code), hasPrefix("\\u") {
      index += 2
      guard let low = hex(&self), (0xDC00...0xDFFF).contains(low) else {
        throw Failure(kind: .loneSurrogate, position: position)
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(code) else { throw Failure(kind: .loneSurrogate, position: position) }
    return Character(scalar)
  }
}
