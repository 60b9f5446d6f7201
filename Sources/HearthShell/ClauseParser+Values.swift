import Hearth

/// The values of query text: JSON (a number without fraction or exponent is an
/// integer), a single- or double-quoted string, `ts("…")`, `ref("…")`, `geo(lat, lng)`,
/// `bytes("…")`, `NaN`, `Infinity` or `-Infinity`, and lists and objects of these. Each
/// is kept as the extended JSON it stands for (`ts("…")` is `{"$timestamp":"…"}`), which
/// `ExtendedJSON` reads when the query is built.
extension ClauseParser {
  mutating func parseValues(after context: String) throws(QueryTextError) -> [QueryClauses.Literal] {
    var values = [try parseValue(after: context)]
    while lexer.takeSymbol(",") { values.append(try parseValue(after: ",")) }
    return values
  }

  mutating func parseValue(after context: String) throws(QueryTextError) -> QueryClauses.Literal {
    lexer.skipSpaces()
    let start = lexer.index
    let json = try valueJSON(after: context)
    return QueryClauses.Literal(json: json, column: lexer.column(at: start), isList: lexer.characters[start] == "[")
  }

  /// The value at the cursor as extended JSON text.
  private mutating func valueJSON(after context: String) throws(QueryTextError) -> String {
    lexer.skipSpaces()
    let start = lexer.index
    guard let character = lexer.current else { throw fail("expected a value after '\(context)'") }
    switch character {
    case "'", "\"":
      return Self.quoted(try readString())
    case "[":
      try nest(at: start)
      defer { depth -= 1 }
      lexer.index += 1
      if lexer.takeSymbol("]") { return "[]" }
      var elements: [String] = []
      repeat {
        elements.append(try valueJSON(after: elements.isEmpty ? "[" : ","))
      } while lexer.takeSymbol(",")
      guard lexer.takeSymbol("]") else {
        lexer.skipSpaces()
        throw fail(
          "expected ',' or ']' in the list opened at column \(lexer.column(at: start))\(found(at: lexer.index))")
      }
      return "[" + elements.joined(separator: ",") + "]"
    case "{":
      try nest(at: start)
      defer { depth -= 1 }
      lexer.index += 1
      if lexer.takeSymbol("}") { return "{}" }
      var members: [String] = []
      repeat {
        lexer.skipSpaces()
        guard lexer.current == "'" || lexer.current == "\"" else {
          throw fail(
            "expected a key in quotes in the object opened at column \(lexer.column(at: start))\(found(at: lexer.index))"
          )
        }
        let key = Self.quoted(try readString())
        guard lexer.takeSymbol(":") else { throw fail("expected ':' after the key \(key)") }
        members.append(key + ":" + (try valueJSON(after: ":")))
      } while lexer.takeSymbol(",")
      guard lexer.takeSymbol("}") else {
        lexer.skipSpaces()
        throw fail(
          "expected ',' or '}' in the object opened at column \(lexer.column(at: start))\(found(at: lexer.index))")
      }
      return "{" + members.joined(separator: ",") + "}"
    case "-", "0"..."9":
      return try parseNumber()
    default:
      guard let word = lexer.peekWord() else { throw fail("expected a value after '\(context)'\(found(at: start))") }
      switch word {
      case "true", "false", "null":
        lexer.takeWord(word)
        return word
      case "NaN", "Infinity":
        lexer.takeWord(word)
        return #"{"$double":"\#(word)"}"#
      case "ts", "ref", "bytes", "geo":
        return try parseFunction(word)
      default:
        lexer.takeWord(word)
        lexer.skipSpaces()
        if lexer.current == "(" {
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
    let start = lexer.index
    if lexer.current == "-" {
      lexer.index += 1
      if lexer.wordHere() == "Infinity" {
        lexer.index += "Infinity".count
        return #"{"$double":"-Infinity"}"#
      }
    }
    let integerStart = lexer.index
    guard lexer.skipDigits() else { throw fail("expected a number after '-'\(found(at: lexer.index))", at: start) }
    var valid = lexer.characters[integerStart] != "0" || lexer.index - integerStart == 1
    if lexer.current == "." {
      lexer.index += 1
      valid = valid && lexer.skipDigits()
    }
    if lexer.current == "e" || lexer.current == "E" {
      lexer.index += 1
      if lexer.current == "+" || lexer.current == "-" { lexer.index += 1 }
      valid = valid && lexer.skipDigits()
    }
    while let character = lexer.current, lexer.isWordCharacter(character) || character == "." {
      lexer.index += 1
      valid = false
    }
    guard valid else {
      throw fail(
        "'\(String(lexer.characters[start..<lexer.index]))' is not a number (write numbers as JSON does: 12, -3, 0.5, 1e6)",
        at: start)
    }
    return String(lexer.characters[start..<lexer.index])
  }

  /// `ts("…")`, `ref("…")`, `bytes("…")` or `geo(lat, lng)`.
  private mutating func parseFunction(_ name: String) throws(QueryTextError) -> String {
    let start = lexer.index
    lexer.index += name.count
    let examples = [
      "ts": #"ts("2026-01-01T00:00:00Z")"#, "ref": #"ref("users/alice")"#, "bytes": #"bytes("AAEC")"#,
      "geo": "geo(40.4, -3.7)",
    ]
    let example = examples[name]!
    guard lexer.takeSymbol("(") else { throw fail("expected '(' after '\(name)', as in \(example)") }
    let json: String
    if name == "geo" {
      lexer.skipSpaces()
      let latitude = try parseNumber()
      guard lexer.takeSymbol(",") else { throw fail("expected ',' between latitude and longitude, as in \(example)") }
      lexer.skipSpaces()
      let longitude = try parseNumber()
      json = #"{"$geo":[\#(latitude),\#(longitude)]}"#
    } else {
      lexer.skipSpaces()
      guard lexer.current == "'" || lexer.current == "\"" else {
        throw fail("\(name)(…) takes a string in quotes, as in \(example)\(found(at: lexer.index))")
      }
      let argument = Self.quoted(try readString())
      let tag = ["ts": "$timestamp", "ref": "$ref", "bytes": "$bytes"][name]!
      json = #"{"\#(tag)":\#(argument)}"#
    }
    guard lexer.takeSymbol(")") else {
      lexer.skipSpaces()
      throw fail("expected ')' to close the '\(name)(' at column \(lexer.column(at: start))\(found(at: lexer.index))")
    }
    return json
  }

  /// A single- or double-quoted string at the cursor, with JSON's escapes (and `\'`).
  private mutating func readString() throws(QueryTextError) -> String {
    var string = ""
    do {
      try lexer.readQuoted(.query, into: &string)
    } catch {
      throw stringFailure(error)
    }
    return string
  }

  /// Replaces the string at the cursor by its contents, to be read as clauses: a Unix
  /// shell's quotes typed in the interactive shell (`query users 'where a == 1'`).
  mutating func spliceString() throws(QueryTextError) {
    let start = lexer.index
    let contents: (characters: [Character], columns: [Int])
    do {
      contents = try lexer.readQuotedWithColumns(.query)
    } catch {
      throw stringFailure(error)
    }
    lexer.replace(start..<lexer.index, with: contents.characters, columns: contents.columns)
    lexer.index = start
  }

  /// What is wrong with a string, in the words of a query.
  private func stringFailure(_ failure: CommandLexer.Failure) -> QueryTextError {
    let position = failure.position
    switch failure.kind {
    case .unclosed:
      let kind = lexer.characters[position] == "'" ? "single" : "double"
      return fail("the \(kind) quote at column \(lexer.column(at: position)) is not closed", at: position)
    case .unknownEscape(let escaped): return fail("unknown escape '\\\(escaped)' in a string", at: position)
    case .shortUnicodeEscape: return fail("'\\u' needs four hex digits, as in \\u00e9", at: position)
    case .loneSurrogate: return fail("'\\u' escapes a lone surrogate", at: position)
    }
  }

  /// `text` as a JSON string.
  private static func quoted(_ text: String) -> String { ExtendedJSON.string(from: text) }
}
