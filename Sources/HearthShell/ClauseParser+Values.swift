import Hearth
import HearthCore

/// The values of query text: JSON (a number without fraction or exponent is an
/// integer), a single- or double-quoted string, `ts("…")`, `ref("…")`, `geo(lat, lng)`,
/// `bytes("…")`, `NaN`, `Infinity` or `-Infinity`, and lists and objects of these.
///
/// Each is read once, by the query's one lexer, straight into the extended JSON value it
/// stands for (`ts("…")` is `{"$timestamp": "…"}`), which `ExtendedJSON` turns into a
/// Firestore value when the query is built. Query values are not JSON text (single
/// quotes, `\'`, functions, `NaN`), so they are not handed to `JSONParser` as text; its
/// rules are kept where they apply: a number's grammar and range are `JSONParser.number`'s,
/// an object's keys are unique, strings take JSON's escapes.
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
    return QueryClauses.Literal(json: json, column: lexer.column(at: start))
  }

  /// The value at the cursor as extended JSON.
  private mutating func valueJSON(after context: String) throws(QueryTextError) -> JSONValue {
    lexer.skipSpaces()
    let start = lexer.index
    guard let character = lexer.current else { throw fail("expected a value after '\(context)'") }
    switch character {
    case "'", "\"":
      return .string(try readString())
    case "[":
      try nest(at: start)
      defer { depth -= 1 }
      lexer.index += 1
      if lexer.takeSymbol("]") { return .array([]) }
      var elements: [JSONValue] = []
      repeat {
        elements.append(try valueJSON(after: elements.isEmpty ? "[" : ","))
      } while lexer.takeSymbol(",")
      guard lexer.takeSymbol("]") else {
        lexer.skipSpaces()
        throw fail(
          "expected ',' or ']' in the list opened at column \(lexer.column(at: start))\(found(at: lexer.index))")
      }
      return .array(elements)
    case "{":
      try nest(at: start)
      defer { depth -= 1 }
      lexer.index += 1
      if lexer.takeSymbol("}") { return .object([]) }
      var members: [(key: String, value: JSONValue)] = []
      var keys = Set<String>()
      repeat {
        lexer.skipSpaces()
        let keyStart = lexer.index
        guard lexer.current == "'" || lexer.current == "\"" else {
          throw fail(
            "expected a key in quotes in the object opened at column \(lexer.column(at: start))\(found(at: lexer.index))"
          )
        }
        let key = try readString()
        guard keys.insert(key).inserted else {
          throw fail(
            "duplicate key \(Self.quoted(key)) in the object opened at column \(lexer.column(at: start))", at: keyStart)
        }
        guard lexer.takeSymbol(":") else { throw fail("expected ':' after the key \(Self.quoted(key))") }
        members.append((key, try valueJSON(after: ":")))
      } while lexer.takeSymbol(",")
      guard lexer.takeSymbol("}") else {
        lexer.skipSpaces()
        throw fail(
          "expected ',' or '}' in the object opened at column \(lexer.column(at: start))\(found(at: lexer.index))")
      }
      return .object(members)
    case "-", "0"..."9":
      return try parseNumber()
    default:
      guard let word = lexer.peekWord() else { throw fail("expected a value after '\(context)'\(found(at: start))") }
      switch word {
      case "true", "false":
        lexer.takeWord(word)
        return .bool(word == "true")
      case "null":
        lexer.takeWord(word)
        return .null
      case "NaN", "Infinity":
        lexer.takeWord(word)
        return Self.double(word)
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

  /// A number, which `JSONParser.number` reads (so `2` is an integer and `2.0` a double),
  /// or `-Infinity`. The number is every word character and `.` from the cursor on, so
  /// that `12abc` is one wrong number rather than a number and a stray word.
  private mutating func parseNumber() throws(QueryTextError) -> JSONValue {
    let start = lexer.index
    if lexer.current == "-" {
      lexer.index += 1
      if lexer.wordHere() == "Infinity" {
        lexer.index += "Infinity".count
        return Self.double("-Infinity")
      }
    }
    guard let digit = lexer.current, digit.isASCII, digit.isNumber else {
      throw fail("expected a number after '-'\(found(at: lexer.index))", at: start)
    }
    while let character = lexer.current, lexer.isWordCharacter(character) || character == "." { lexer.index += 1 }
    let text = String(lexer.characters[start..<lexer.index])
    let number: JSONValue?
    do {
      number = try JSONParser.number(text)
    } catch {
      throw QueryTextError(kind: .value, message: error.message, column: lexer.column(at: start), text: self.text)
    }
    guard let number else {
      throw fail("'\(text)' is not a number (write numbers as JSON does: 12, -3, 0.5, 1e6)", at: start)
    }
    return number
  }

  /// `ts("…")`, `ref("…")`, `bytes("…")` or `geo(lat, lng)`.
  private mutating func parseFunction(_ name: String) throws(QueryTextError) -> JSONValue {
    let start = lexer.index
    lexer.index += name.count
    let examples = [
      "ts": #"ts("2026-01-01T00:00:00Z")"#, "ref": #"ref("users/alice")"#, "bytes": #"bytes("AAEC")"#,
      "geo": "geo(40.4, -3.7)",
    ]
    let example = examples[name]!
    guard lexer.takeSymbol("(") else { throw fail("expected '(' after '\(name)', as in \(example)") }
    let json: JSONValue
    if name == "geo" {
      lexer.skipSpaces()
      let latitude = try parseNumber()
      guard lexer.takeSymbol(",") else { throw fail("expected ',' between latitude and longitude, as in \(example)") }
      lexer.skipSpaces()
      let longitude = try parseNumber()
      json = .object([("$geo", .array([latitude, longitude]))])
    } else {
      lexer.skipSpaces()
      guard lexer.current == "'" || lexer.current == "\"" else {
        throw fail("\(name)(…) takes a string in quotes, as in \(example)\(found(at: lexer.index))")
      }
      let argument = try readString()
      let tag = ["ts": "$timestamp", "ref": "$ref", "bytes": "$bytes"][name]!
      json = .object([(tag, .string(argument))])
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

  /// `text` as a JSON string, for messages.
  private static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

  /// The extended JSON of a double that JSON cannot write: `NaN`, `Infinity`, `-Infinity`.
  private static func double(_ name: String) -> JSONValue { .object([("$double", .string(name))]) }
}
