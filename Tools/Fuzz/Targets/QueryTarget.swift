import Hearth
import HearthCore
import HearthShell

/// The shell's command-line tokenizer and query clause parser. The input, as UTF-8 text
/// (invalid bytes repaired), is:
///
/// - split into words (`Tokenizer.split` and `splitKeepingQuotes`): words, or a
///   `TokenizerError` at a column of the line; every word, quoted as the shell's hints
///   quote it (`quotedIfNeeded`), splits back into that one word;
/// - parsed as query clauses (`QueryClauses.parse`): clauses, or a `QueryTextError` at a
///   column of the text. Every value the clauses hold is well-formed JSON (a number out
///   of range aside) that extended JSON reads or refuses with `invalidArgument`;
/// - built into a query on an empty database and run, with its aggregations: results, or
///   a `QueryTextError` for a bad value or a `HearthError` for a query Firestore forbids.
enum QueryTarget {
  static func run(_ input: UnsafeRawBufferPointer) throws {
    let text = String(decoding: input, as: UTF8.self)
    // Columns count Unicode scalars.
    let length = text.unicodeScalars.count
    try tokenize(text, length: length)
    try requireStringValue(text)

    let clauses: QueryClauses
    do {
      clauses = try QueryClauses.parse(text)
    } catch {
      try require(
        error.column >= 1 && error.column <= length + 1,
        "query error at column \(error.column) of \(length) characters: \(error.message)")
      try require(error.text == text, "query error quotes other text: \(error.text.debugDescription)")
      try require(!error.message.isEmpty, "query error without a message")
      return
    }
    for literal in clauses.literals {
      try require(
        literal.column >= 1 && literal.column <= length, "a value at column \(literal.column) of \(length)")
      try requireJSON(literal.json)
    }
    try runQuery(clauses)
  }

  static func tokenize(_ text: String, length: Int) throws {
    do {
      let words = try Tokenizer.split(text)
      for word in words {
        let quoted = Tokenizer.quotedIfNeeded(word)
        let again: [String]
        do {
          again = try Tokenizer.split(quoted)
        } catch {
          throw PropertyViolation(
            "word \(word.debugDescription), quoted as \(quoted.debugDescription), does not split: \(error)")
        }
        try require(
          again.count == 1 && again[0].utf8.elementsEqual(word.utf8),
          "word \(word.debugDescription), quoted as \(quoted.debugDescription), splits into \(again)")
      }
    } catch let error as TokenizerError {
      try require(error.column >= 1 && error.column <= length, "tokenizer error at column \(error.column) of \(length)")
    }
    do {
      _ = try Tokenizer.splitKeepingQuotes(text)
    } catch {
      try require(error.column >= 1 && error.column <= length, "tokenizer error at column \(error.column) of \(length)")
    }
  }

  /// Any string, quoted as JSON (as the shell writes strings), reads back as a query value.
  static func requireStringValue(_ string: String) throws {
    let quoted = JSONWriter.quoted(string)
    let clauses: QueryClauses
    do {
      clauses = try QueryClauses.parse("where a == " + quoted)
    } catch {
      throw PropertyViolation("the JSON string \(quoted.debugDescription) is not a query value: \(error.message)")
    }
    guard case .string(let read)? = clauses.literals.first?.json else {
      throw PropertyViolation("the JSON string \(quoted.debugDescription) became \(clauses.literals.map(\.json))")
    }
    try require(
      clauses.literals.count == 1 && read.utf8.elementsEqual(string.utf8),
      "the JSON string \(quoted.debugDescription) reads as \(read.debugDescription)")
  }

  /// The parser reads values as extended JSON: each must be JSON that writes and reads
  /// back unchanged, and that `ExtendedJSONCodec` takes or refuses with `invalidArgument`.
  static func requireJSON(_ json: JSONValue) throws {
    let text = JSONWriter().string(from: json)
    do {
      let again = try JSONParser.parse(text, maxDepth: .max)
      try require(again == json, "a value's JSON \(text.debugDescription) reads back as \(again)")
    } catch let error as JSONParseError {
      throw PropertyViolation("a value's JSON \(text.debugDescription) is malformed: \(error)")
    }
    do {
      _ = try ExtendedJSONCodec.value(from: json)
    } catch {
      try requireHearthError(error, .invalidArgument, from: "ExtendedJSONCodec.value for \(text.debugDescription)")
    }
  }

  static func runQuery(_ clauses: QueryClauses) throws {
    let database = FuzzDatabase.shared()
    let query: Query
    do {
      query = try clauses.query(from: database.collection("fuzz"), database: database)
    } catch {
      try require(!error.message.isEmpty, "query value error without a message")
      return
    }
    do {
      _ = try query.getDocuments()
    } catch {
      try requireHearthError(error, .invalidArgument, .failedPrecondition, from: "Query.getDocuments")
    }
    guard !clauses.aggregateFields.isEmpty else { return }
    do {
      _ = try query.aggregate(clauses.aggregateFields).getAggregation()
    } catch {
      try requireHearthError(error, .invalidArgument, .failedPrecondition, from: "AggregateQuery.getAggregation")
    }
  }
}
