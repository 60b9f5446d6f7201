import Hearth

/// A recursive-descent parser of query clauses, over the tokens `CommandLexer` reads:
/// context decides what a word is (`order` is a keyword where a clause starts and a
/// field name after `where`), so field names need no quoting unless they hold special
/// characters. The values are read in ClauseParser+Values.swift.
struct ClauseParser {
  /// The clause text, its cursor and its columns (a string read as clauses keeps its
  /// own).
  var lexer: CommandLexer
  let text: String
  /// How many lists, objects and parentheses enclose the cursor.
  var depth = 0
  /// Lists, objects and parentheses nest at most this deep, as JSON does
  /// (`JSONParser.defaultMaxDepth`): the parser recurses into each, and a few thousand
  /// `[` used to overflow the stack and crash the shell.
  static let maxDepth = 64

  static let clauseKeywords = ["where", "order", "limit", "start", "end", "count", "sum", "avg"]
  private static let clauseList = "where, order by, limit, start, end, or a final count, sum F or avg F"
  private static let operatorList = QueryClauses.Operator.allCases.map(\.rawValue).joined(separator: " ")

  init(_ text: String) {
    self.text = text
    // Scalars, not grapheme clusters: a quote or backslash followed by a combining mark
    // is one `Character`, which used to end neither a string nor an escape (a JSON
    // string the shell itself writes, such as a backslash then U+0301, did not read back).
    lexer = CommandLexer(text, words: .query)
  }

  // MARK: Clauses

  mutating func parseClauses() throws(QueryTextError) -> QueryClauses {
    var clauses = QueryClauses(text: text)
    var afterCondition = false
    while true {
      lexer.skipSpaces()
      guard let character = lexer.current else { break }
      if character == "'" || character == "\"" {
        try spliceString()
        continue
      }
      if character == ",", !clauses.aggregations.isEmpty {
        lexer.index += 1
        continue
      }
      let start = lexer.index
      guard let word = lexer.peekWord() else {
        if character == ")" { throw fail("')' without a matching '('") }
        throw fail(
          "expected \(afterCondition ? "'and', 'or' or " : "")a clause (\(Self.clauseList)), found '\(character)'")
      }
      let keyword = word.lowercased()
      if let last = clauses.aggregations.last, !["count", "sum", "avg", "average"].contains(keyword) {
        throw fail("'\(word)' after '\(last.key)': count, sum and avg come last")
      }
      lexer.takeWord(word)
      let followsCondition = afterCondition
      afterCondition = false
      switch keyword {
      case "where":
        clauses.conditions.append(try parseOr(after: word))
        afterCondition = true
      case "order":
        guard lexer.take("by") else { throw fail("expected 'by' after 'order'") }
        repeat { clauses.orders.append(try parseOrder()) } while lexer.takeSymbol(",")
      case "limit":
        guard clauses.limit == nil else { throw fail("a query has one limit; this is the second", at: start) }
        let last = lexer.take("last")
        let count = try parseCount(after: last ? "limit last" : "limit")
        clauses.limit = last ? .last(count) : .first(count)
      case "start", "end":
        let isStart = keyword == "start"
        guard (isStart ? clauses.start : clauses.end) == nil else {
          throw fail("a query has one \(keyword) cursor; this is the second", at: start)
        }
        let exclusiveWord = isStart ? "after" : "before"
        let inclusive: Bool
        if lexer.take("at") {
          inclusive = true
        } else if lexer.take(exclusiveWord) {
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
        lexer.index = start
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
    if lexer.take("desc") || lexer.take("descending") { return .init(field: field, descending: true) }
    _ = lexer.take("asc") || lexer.take("ascending")
    return .init(field: field, descending: false)
  }

  /// A whole number (for `limit`).
  private mutating func parseCount(after context: String) throws(QueryTextError) -> Int {
    lexer.skipSpaces()
    let start = lexer.index
    _ = lexer.skipDigits()
    if let character = lexer.current, lexer.isWordCharacter(character) || character == "." { lexer.index = start }
    guard lexer.index > start else {
      throw fail("expected a whole number after '\(context)'\(found(at: start))", at: start)
    }
    guard let count = Int(String(lexer.characters[start..<lexer.index])) else {
      throw fail("\(String(lexer.characters[start..<lexer.index])) is too large for a limit", at: start)
    }
    return count
  }

  // MARK: Conditions

  private mutating func parseOr(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    var parts = [try parseAnd(after: context)]
    while lexer.take("or") { parts.append(try parseAnd(after: "or")) }
    return parts.count == 1 ? parts[0] : .or(parts)
  }

  private mutating func parseAnd(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    var parts = [try parseComparison(after: context)]
    while lexer.take("and") { parts.append(try parseComparison(after: "and")) }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  /// `FIELD OP VALUE`, or `( EXPR )`.
  private mutating func parseComparison(after context: String) throws(QueryTextError) -> QueryClauses.Condition {
    lexer.skipSpaces()
    if lexer.current == "(" {
      let open = lexer.index
      try nest(at: open)
      defer { depth -= 1 }
      lexer.index += 1
      let inner = try parseOr(after: "(")
      guard lexer.takeSymbol(")") else {
        lexer.skipSpaces()
        throw fail("expected ')' to close the '(' at column \(lexer.column(at: open))\(found(at: lexer.index))")
      }
      return inner
    }
    let field = try parseField(after: context)
    let op = try parseOperator(after: field)
    lexer.skipSpaces()
    let valueStart = lexer.index
    let value = try parseValue(after: op.rawValue)
    if op.takesList, !value.isList {
      throw fail("'\(op.rawValue)' takes a list of values in brackets, such as [\"a\", \"b\"]", at: valueStart)
    }
    return .comparison(field, op, value)
  }

  private mutating func parseOperator(after field: FieldPath) throws(QueryTextError) -> QueryClauses.Operator {
    lexer.skipSpaces()
    let start = lexer.index
    let misspelled: [(typed: String, meant: String)] = [
      ("<>", "!="), ("=>", ">="), ("=<", "<="), ("===", "=="), ("!==", "!="),
    ]
    for (typed, meant) in misspelled where lexer.hasPrefix(typed) {
      throw fail("'\(typed)' is not an operator; did you mean '\(meant)'?")
    }
    for symbol in ["==", "!=", "<=", ">=", "<", ">"] where lexer.hasPrefix(symbol) {
      lexer.index += symbol.count
      return QueryClauses.Operator(rawValue: symbol)!
    }
    if lexer.hasPrefix("=") { throw fail("'=' is not an operator; did you mean '=='?") }
    if let word = lexer.peekWord() {
      let lowered = word.lowercased()
      if let op = QueryClauses.Operator(rawValue: lowered) {
        lexer.takeWord(word)
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
    lexer.skipSpaces()
    do {
      return try FieldPathText.read(from: &lexer, after: context)
    } catch {
      throw fail(error.message, at: error.position)
    }
  }

  // MARK: Tokens

  /// Enters a list, object or parentheses at `position`; the caller leaves it.
  mutating func nest(at position: Int) throws(QueryTextError) {
    guard depth < Self.maxDepth else {
      throw fail("lists, objects and parentheses nest more than \(Self.maxDepth) levels deep", at: position)
    }
    depth += 1
  }

  /// `, found 'x'` for what is at `position`, or nothing at the end.
  func found(at position: Int) -> String { lexer.found(at: position) }

  func fail(_ message: String, at position: Int? = nil) -> QueryTextError {
    QueryTextError(kind: .syntax, message: message, column: lexer.column(at: position ?? lexer.index), text: text)
  }
}
