import Hearth

/// A recursive-descent parser over the Unicode scalars of the clause text (each one a
/// `Character`, see `Tokenizer.scalars(of:)`): context decides
/// what a word is (`order` is a keyword where a clause starts and a field name after
/// `where`), so field names need no quoting unless they hold special characters.
struct ClauseParser {
  private var characters: [Character]
  /// The column in `text` of each character (a string read as clauses keeps its own).
  private var columns: [Int]
  private var index = 0
  private let text: String
  private let endColumn: Int
  /// How many lists, objects and parentheses enclose the cursor.
  private var depth = 0
  /// Lists, objects and parentheses nest at most this deep, as JSON does
  /// (`JSONParser.defaultMaxDepth`): the parser recurses into each, and a few thousand
  /// `[` used to overflow the stack and crash the shell.
  private static let maxDepth = 64

  private static let clauseKeywords = ["where", "order", "limit", "start", "end", "count", "sum", "avg"]
  private static let clauseList = "where, order by, limit, start, end, or a final count, sum F or avg F"
  private static let operatorList = QueryClauses.Operator.allCases.map(\.rawValue).joined(separator: " ")

  init(_ text: String) {
    self.text = text
    // Scalars, not grapheme clusters: a quote or backslash followed by a combining mark
    // is one `Character`, which used to end neither a string nor an escape (a JSON
    // string the shell itself writes, such as a backslash then U+0301, did not read back).
    characters = Tokenizer.scalars(of: text)
    columns = characters.indices.map { $0 + 1 }
    endColumn = characters.count + 1
  }

  // MARK: Clauses

  mutating func parseClauses() throws(QueryTextError) -> QueryClauses {
    var clauses = QueryClauses(text: text)
    var afterCondition = false
    while true {
      skipSpaces()
      guard let character = current else { break }
      if character == "'" || character == "\"" {
        try spliceString()
        continue
      }
      if character == ",", !clauses.aggregations.isEmpty {
        index += 1
        continue
      }
      let start = index
      guard let word = peekWord() else {
        if character == ")" { throw fail("')' without a matching '('") }
        throw fail(
          "expected \(afterCondition ? "'and', 'or' or " : "")a clause (\(Self.clauseList)), found '\(character)'")
      }
      let keyword = word.lowercased()
      if let last = clauses.aggregations.last, !["count", "sum", "avg", "average"].contains(keyword) {
        throw fail("'\(word)' after '\(last.key)': count, sum and avg come last")
      }
      index += word.unicodeScalars.count
      let followsCondition = afterCondition
      afterCondition = false
      switch keyword {
      case "where":
        clauses.conditions.append(try parseOr(after: word))
        afterCondition = true
      case "order":
        guard take("by") else { throw fail("expected 'by' after 'order'") }
        repeat { clauses.orders.append(try parseOrder()) } while takeSymbol(",")
      case "limit":
        guard clauses.limit == nil else { throw fail("a query has one limit; this is the second", at: start) }
        let last = take("last")
        let count = try parseCount(after: last ? "limit last" : "limit")
        clauses.limit = last ? .last(count) : .first(count)
      case "start", "end":
        let isStart = keyword == "start"
        guard (isStart ? clauses.start : clauses.end) == nil else {
          throw fail("a query has one \(keyword) cursor; this is the second", at: start)
        }
        let exclusiveWord = isStart ? "after" : "before"
        let inclusive: Bool
        if take("at") {
          inclusive = true
        } else if take(exclusiveWord) {
          inclusive = false
        } else {
          throw fail("expected 'at' or '\(exclusiveWord)' after '\(word)'")
        }
        let cursor = QueryClauses.Cursor(
          values: try parseValues(after: "\(keyword) \(inclusive ? "at" : exclusiveWord)"), inclusive: inclusive)
        if isStart { clauses.start = cursor } else { clauses.end = cursor }
      case "count", "sum", "avg", "average":
        let aggregation: QueryClauses.Aggregation
        switch keyword {
        case "count": aggregation = .count
        case "sum": aggregation = .sum(try parseField(after: word))
        default: aggregation = .average(try parseField(after: word))
        }
        if clauses.aggregations.contains(where: { $0.key == aggregation.key }) {
          throw fail("a query has one \(aggregation.key); this is the second", at: start)
        }
        clauses.aggregations.append(aggregation)
      default:
        index = start
        throw fail(unknownClause(word, afterCondition: followsCondition))
      }
    }
    return clauses
  }

  /// The message for a word where a clause belongs, with the keyword probably meant.
  private func unknownClause(_ word: String, afterCondition: Bool) -> String {
    let expected = "expected \(afterCondition ? "'and', 'or' or " : "")a clause (\(Self.clauseList)), found '\(word)'"
    let lowered = word.lowercased()
    let meant: String? =
      switch lowered {
      case "sort", "orderby", "sortby": "order by"
      case "filter": "where"
      case "&&": "and"
      case "||": "or"
      case "offset", "skip":
        "start after: Firestore queries have no offset; page with 'start after' the last values shown"
      default: Suggestions.nearest(to: lowered, in: Self.clauseKeywords + (afterCondition ? ["and", "or"] : []))
      }
    guard let meant else { return expected }
    return meant.contains(":") ? "\(expected); use \(meant)" : "\(expected); did you mean '\(meant)'?"
  }

  private mutating func parseOrder() throws(QueryTextError) -> QueryClauses.Order {
    let field = try parseField(after: "order by")
    if take("desc") || take("descending") { return .init(field: field, descending: true) }
    _ = take("asc") || take("ascending")
    return .init(field: field, descending: false)
  }

  /// A whole number (for `limit`).
  private mutating func parseCount(after context: String) throws(QueryTextError) -> Int {
    skipSpaces()
    let start = index
    while let character = current, character.isASCII, character.isNumber { index += 1 }
    if let character = current, Self.isWordCharacter(character) || character == "." { index = start }
    guard index > start else {
      throw fail("expected a whole number after '\(context)'\(found(at: start))", at: start)
    }
    guard let count = Int(String(characters[start..<index])) else {
      throw fail("\(String(characters[start..<index])) is too large for a limit", at: start)
    }
    return count
  }

  // MARK: Conditions

  private mutating func parseOr(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    var parts = [try parseAnd(after: context)]
    while take("or") { parts.append(try parseAnd(after: "or")) }
    return parts.count == 1 ? parts[0] : .or(parts)
  }

  private mutating func parseAnd(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    var parts = [try parseComparison(after: context)]
    while take("and") { parts.append(try parseComparison(after: "and")) }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  /// `FIELD OP VALUE`, or `( EXPR )`.
  private mutating func parseComparison(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    skipSpaces()
    if current == "(" {
      let open = index
      try nest(at: open)
      defer { depth -= 1 }
      index += 1
      let inner = try parseOr(after: "(")
      guard takeSymbol(")") else {
        skipSpaces()
        throw fail("expected ')' to close the '(' at column \(column(at: open))\(found(at: index))")
      }
      return inner
    }
    let field = try parseField(after: context)
    let op = try parseOperator(after: field)
    skipSpaces()
    let valueStart = index
    let value = try parseValue(after: op.rawValue)
    if op.takesList, !value.isList {
      throw fail("'\(op.rawValue)' takes a list of values in brackets, such as [\"a\", \"b\"]", at: valueStart)
    }
    return .comparison(field, op, value)
  }

  private mutating func parseOperator(after field: FieldPath) throws(QueryTextError) -> QueryClauses.Operator {
    skipSpaces()
    let start = index
    let misspelled: [(typed: String, meant: String)] = [
      ("<>", "!="), ("=>", ">="), ("=<", "<="), ("===", "=="), ("!==", "!="),
    ]
    for (typed, meant) in misspelled where hasPrefix(typed) {
      throw fail("'\(typed)' is not an operator; did you mean '\(meant)'?")
    }
    for symbol in ["==", "!=", "<=", ">=", "<", ">"] where hasPrefix(symbol) {
      index += symbol.count
      return QueryClauses.Operator(rawValue: symbol)!
    }
    if hasPrefix("=") { throw fail("'=' is not an operator; did you mean '=='?") }
    if let word = peekWord() {
      let lowered = word.lowercased()
      if let op = QueryClauses.Operator(rawValue: lowered) {
        index += word.unicodeScalars.count
        return op
      }
      let meant: String? =
        switch lowered {
        case "not": "not-in"
        case "contains": "array-contains"
        case "eq", "is": "=="
        case "ne", "neq": "!="
        case "lt": "<"
        case "le", "lte": "<="
        case "gt": ">"
        case "ge", "gte": ">="
        default:
          Suggestions.nearest(
            to: lowered.replacingOccurrences(of: "_", with: "-"),
            in: Self.operatorList.split(separator: " ").map(String.init))
        }
      if let meant {
        throw fail("'\(word)' is not an operator; did you mean '\(meant)'?", at: start)
      }
    }
    throw fail("expected an operator after '\(field)' (\(Self.operatorList))\(found(at: start))", at: start)
  }

  // MARK: Fields

  /// A dotted field path (`FieldPathText`).
  private mutating func parseField(after context: String) throws(QueryTextError) -> FieldPath {
    skipSpaces()
    do {
      return try fieldPathText.read(at: &index, after: context)
    } catch {
      throw fail(error.message, at: error.position)
    }
  }

  private var fieldPathText: FieldPathText {
    FieldPathText(characters: characters, isNameCharacter: Self.isWordCharacter, column: column(at:))
  }

  // MARK: Values

  private mutating func parseValues(after context: String) throws(QueryTextError) -> [QueryClauses.Literal] {
    var values = [try parseValue(after: context)]
    while takeSymbol(",") { values.append(try parseValue(after: ",")) }
    return values
  }

  private mutating func parseValue(after context: String) throws(QueryTextError) -> QueryClauses.Literal {
    skipSpaces()
    let start = index
    let json = try valueJSON(after: context)
    return QueryClauses.Literal(json: json, column: column(at: start), isList: characters[start] == "[")
  }

  /// The value at the cursor as extended JSON text.
  private mutating func valueJSON(after context: String) throws(QueryTextError) -> String {
    skipSpaces()
    let start = index
    guard let character = current else { throw fail("expected a value after '\(context)'") }
    switch character {
    case "'", "\"":
      return Self.quoted(String(try parseString().characters))
    case "[":
      try nest(at: start)
      defer { depth -= 1 }
      index += 1
      if takeSymbol("]") { return "[]" }
      var elements: [String] = []
      repeat {
        elements.append(try valueJSON(after: elements.isEmpty ? "[" : ","))
      } while takeSymbol(",")
      guard takeSymbol("]") else {
        skipSpaces()
        throw fail("expected ',' or ']' in the list opened at column \(column(at: start))\(found(at: index))")
      }
      return "[" + elements.joined(separator: ",") + "]"
    case "{":
      try nest(at: start)
      defer { depth -= 1 }
      index += 1
      if takeSymbol("}") { return "{}" }
      var members: [String] = []
      repeat {
        skipSpaces()
        guard current == "'" || current == "\"" else {
          throw fail("expected a key in quotes in the object opened at column \(column(at: start))\(found(at: index))")
        }
        let key = Self.quoted(String(try parseString().characters))
        guard takeSymbol(":") else { throw fail("expected ':' after the key \(key)") }
        members.append(key + ":" + (try valueJSON(after: ":")))
      } while takeSymbol(",")
      guard takeSymbol("}") else {
        skipSpaces()
        throw fail("expected ',' or '}' in the object opened at column \(column(at: start))\(found(at: index))")
      }
      return "{" + members.joined(separator: ",") + "}"
    case "-", "0"..."9":
      return try parseNumber()
    default:
      guard let word = peekWord() else { throw fail("expected a value after '\(context)'\(found(at: start))") }
      switch word {
      case "true", "false", "null":
        index += word.unicodeScalars.count
        return word
      case "NaN", "Infinity":
        index += word.unicodeScalars.count
        return #"{"$double":"\#(word)"}"#
      case "ts", "ref", "bytes", "geo":
        return try parseFunction(word)
      default:
        index += word.unicodeScalars.count
        skipSpaces()
        if current == "(" {
          throw fail(
            "unknown function '\(word)'; values are JSON, quoted strings, ts(\"…\"), ref(\"…\"), geo(lat, lng), "
              + "bytes(\"…\"), NaN or Infinity", at: start)
        }
        let lowered = word.lowercased()
        if Self.clauseKeywords.contains(lowered) || ["and", "or", "by", "asc", "desc", "at", "after"].contains(lowered)
        {
          throw fail("expected a value after '\(context)', found '\(word)'", at: start)
        }
        if ["true", "false", "null", "nan", "infinity"].contains(lowered) {
          let meant = ["nan": "NaN", "infinity": "Infinity"][lowered] ?? lowered
          throw fail("expected a value after '\(context)', found '\(word)'; did you mean \(meant)?", at: start)
        }
        throw fail(
          "expected a value after '\(context)', found '\(word)'; strings go in quotes: \"\(word)\" "
            + "(from a Unix shell, put the clauses in single quotes)", at: start)
      }
    }
  }

  /// A JSON number, kept as typed (so `2` stays an integer and `2.0` a double), or
  /// `-Infinity`.
  private mutating func parseNumber() throws(QueryTextError) -> String {
    let start = index
    if current == "-" {
      index += 1
      if peekWordHere() == "Infinity" {
        index += "Infinity".count
        return #"{"$double":"-Infinity"}"#
      }
    }
    func digits(_ parser: inout ClauseParser) -> Bool {
      let first = parser.index
      while let character = parser.current, character.isASCII, character.isNumber { parser.index += 1 }
      return parser.index > first
    }
    let integerStart = index
    guard digits(&self) else { throw fail("expected a number after '-'\(found(at: index))", at: start) }
    var valid = characters[integerStart] != "0" || index - integerStart == 1
    if current == "." {
      index += 1
      valid = valid && digits(&self)
    }
    if current == "e" || current == "E" {
      index += 1
      if current == "+" || current == "-" { index += 1 }
      valid = valid && digits(&self)
    }
    while let character = current, Self.isWordCharacter(character) || character == "." {
      index += 1
      valid = false
    }
    guard valid else {
      throw fail(
        "'\(String(characters[start..<index]))' is not a number (write numbers as JSON does: 12, -3, 0.5, 1e6)",
        at: start)
    }
    return String(characters[start..<index])
  }

  /// `ts("…")`, `ref("…")`, `bytes("…")` or `geo(lat, lng)`.
  private mutating func parseFunction(_ name: String) throws(QueryTextError) -> String {
    let start = index
    index += name.count
    let examples = [
      "ts": #"ts("2026-01-01T00:00:00Z")"#, "ref": #"ref("users/alice")"#, "bytes": #"bytes("AAEC")"#,
      "geo": "geo(40.4, -3.7)",
    ]
    let example = examples[name]!
    guard takeSymbol("(") else { throw fail("expected '(' after '\(name)', as in \(example)") }
    let json: String
    if name == "geo" {
      skipSpaces()
      let latitude = try parseNumber()
      guard takeSymbol(",") else { throw fail("expected ',' between latitude and longitude, as in \(example)") }
      skipSpaces()
      let longitude = try parseNumber()
      json = #"{"$geo":[\#(latitude),\#(longitude)]}"#
    } else {
      skipSpaces()
      guard current == "'" || current == "\"" else {
        throw fail("\(name)(…) takes a string in quotes, as in \(example)\(found(at: index))")
      }
      let argument = Self.quoted(String(try parseString().characters))
      let tag = ["ts": "$timestamp", "ref": "$ref", "bytes": "$bytes"][name]!
      json = #"{"\#(tag)":\#(argument)}"#
    }
    guard takeSymbol(")") else {
      skipSpaces()
      throw fail("expected ')' to close the '\(name)(' at column \(column(at: start))\(found(at: index))")
    }
    return json
  }

  /// A single- or double-quoted string at the cursor, with JSON's escapes (and `\'`):
  /// its characters and the column each came from.
  private mutating func parseString() throws(QueryTextError) -> (characters: [Character], columns: [Int]) {
    let quote = characters[index]
    let open = index
    index += 1
    var value: [Character] = []
    var valueColumns: [Int] = []
    while true {
      guard let character = current else {
        let kind = quote == "'" ? "single" : "double"
        throw fail("the \(kind) quote at column \(column(at: open)) is not closed", at: open)
      }
      let position = index
      index += 1
      if character == quote { break }
      guard character == "\\" else {
        value.append(character)
        valueColumns.append(column(at: position))
        continue
      }
      guard let escaped = current else { continue }
      index += 1
      let unescaped: Character
      switch escaped {
      case "n": unescaped = "\n"
      case "t": unescaped = "\t"
      case "r": unescaped = "\r"
      case "b": unescaped = "\u{8}"
      case "f": unescaped = "\u{C}"
      case "\\", "/", "'", "\"", "`": unescaped = escaped
      case "u": unescaped = try parseUnicodeEscape(at: position)
      default: throw fail("unknown escape '\\\(escaped)' in a string", at: position)
      }
      value.append(unescaped)
      valueColumns.append(column(at: position))
    }
    return (value, valueColumns)
  }

  /// The character of `\uXXXX` (the cursor after the `u`), joining a surrogate pair.
  private mutating func parseUnicodeEscape(at position: Int) throws(QueryTextError) -> Character {
    func hex(_ parser: inout ClauseParser) -> UInt32? {
      guard parser.index + 4 <= parser.characters.count,
        let code = UInt32(String(parser.characters[parser.index..<parser.index + 4]), radix: 16)
      else { return nil }
      parser.index += 4
      return code
    }
    guard var code = hex(&self) else { throw fail("'\\u' needs four hex digits, as in \\u00e9", at: position) }
    if (0xD800...0xDBFF).contains(code), hasPrefix("\\u") {
      index += 2
      guard let low = hex(&self), (0xDC00...0xDFFF).contains(low) else {
        throw fail("'\\u' escapes a lone surrogate", at: position)
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(code) else { throw fail("'\\u' escapes a lone surrogate", at: position) }
    return Character(scalar)
  }

  /// Replaces the string at the cursor by its contents, to be read as clauses: a Unix
  /// shell's quotes typed in the interactive shell (`query users 'where a == 1'`).
  private mutating func spliceString() throws(QueryTextError) {
    let start = index
    let contents = try parseString()
    characters.replaceSubrange(start..<index, with: contents.characters)
    columns.replaceSubrange(start..<index, with: contents.columns)
    index = start
  }

  // MARK: Characters

  /// Enters a list, object or parentheses at `position`; the caller leaves it.
  private mutating func nest(at position: Int) throws(QueryTextError) {
    guard depth < Self.maxDepth else {
      throw fail("lists, objects and parentheses nest more than \(Self.maxDepth) levels deep", at: position)
    }
    depth += 1
  }

  private var current: Character? { index < characters.count ? characters[index] : nil }

  private func column(at position: Int) -> Int { position < columns.count ? columns[position] : endColumn }

  /// Characters of keywords, operators spelled as words (`not-in`) and plain field names.
  private static func isWordCharacter(_ character: Character) -> Bool {
    !character.isWhitespace && !"`=!<>(),[]{}'\":.".contains(character)
  }

  private mutating func skipSpaces() {
    while let character = current, character.isWhitespace { index += 1 }
  }

  private func hasPrefix(_ symbol: String) -> Bool {
    var position = index
    for character in symbol {
      guard position < characters.count, characters[position] == character else { return false }
      position += 1
    }
    return true
  }

  /// The word at the cursor, after spaces, without taking it.
  private mutating func peekWord() -> String? {
    skipSpaces()
    return peekWordHere()
  }

  private func peekWordHere() -> String? {
    var end = index
    while end < characters.count, Self.isWordCharacter(characters[end]) { end += 1 }
    return end > index ? String(characters[index..<end]) : nil
  }

  /// Takes `keyword` (any case) when it is the next word.
  private mutating func take(_ keyword: String) -> Bool {
    guard let word = peekWord(), word.lowercased() == keyword else { return false }
    index += word.unicodeScalars.count
    return true
  }

  /// Takes `symbol` when it comes next, after spaces.
  private mutating func takeSymbol(_ symbol: Character) -> Bool {
    skipSpaces()
    guard current == symbol else { return false }
    index += 1
    return true
  }

  /// `, found 'x'` for what is at `position`, or nothing at the end.
  private func found(at position: Int) -> String { fieldPathText.found(at: position) }

  private func fail(_ message: String, at position: Int? = nil) -> QueryTextError {
    QueryTextError(kind: .syntax, message: message, column: column(at: position ?? index), text: text)
  }

  /// `text` as a JSON string.
  private static func quoted(_ text: String) -> String { ExtendedJSON.string(from: text) }
}
