import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

/// `query`, `explain` and the query clause language (docs/shell.md, "`query` and `explain`").
@Suite struct QueryCommandTests {
  /// Five users, posts under two of them, and decoys for the collection group.
  static func people() throws -> ShellFixture {
    let shell = ShellFixture()
    try shell.withDatabase { db in
      func time(_ text: String) -> Timestamp { Timestamp(date: ISO8601DateFormatter().date(from: text)!) }
      try db.document("users/alice").setData([
        "name": "Alice", "age": 31, "country": "ES", "tags": ["swift", "go"], "address": ["city": "Madrid"],
        "joined": time("2026-01-05T00:00:00Z"), "score": 4.5, "a.b": 1,
      ])
      try db.document("users/bob").setData([
        "name": "Bob", "age": 17, "country": "FR", "tags": ["rust"], "joined": time("2025-12-01T00:00:00Z"),
      ])
      try db.document("users/carol").setData([
        "name": "Carol", "age": 70, "country": "ES", "tags": ["swift"], "joined": time("2026-02-01T00:00:00Z"),
        "score": NSNull(),
      ])
      try db.document("users/dave").setData([
        "name": "Dave", "age": 45, "country": "DE", "tags": [String](), "manager": db.document("users/alice"),
      ])
      try db.document("users/eve").setData(["name": "Eve", "age": 12, "country": "ES"])
      try db.document("users/alice/posts/p1").setData([
        "ownerId": "alice", "likes": 12, "tags": ["swift"], "createdAt": time("2026-01-10T00:00:00Z"),
      ])
      try db.document("users/alice/posts/p2").setData([
        "ownerId": "alice", "likes": 3, "tags": ["swift"], "createdAt": time("2026-01-20T00:00:00Z"),
      ])
      try db.document("users/alice/posts/p3").setData([
        "ownerId": "alice", "likes": 40, "tags": ["go"], "createdAt": time("2026-01-30T00:00:00Z"),
      ])
      try db.document("users/bob/posts/p4").setData([
        "ownerId": "bob", "likes": 7, "tags": ["swift"], "createdAt": time("2025-12-24T00:00:00Z"),
      ])
      try db.document("users/bob/posts/p5").setData([
        "ownerId": "bob", "likes": 25, "tags": ["rust"], "createdAt": time("2026-02-14T00:00:00Z"),
      ])
      try db.document("posts/p6").setData([
        "ownerId": "carol", "likes": 1, "createdAt": time("2026-03-01T00:00:00Z"),
      ])
      // Decoys: collections named like the group, and a document named like it.
      try db.document("users/alice/postsx/d1").setData(["ownerId": "alice", "likes": 99])
      try db.document("users/alice/xposts/d2").setData(["ownerId": "alice", "likes": 99])
      try db.document("things/posts").setData(["ownerId": "alice", "likes": 99])
    }
    return shell
  }

  /// The paths `query TARGET CLAUSES --ids` prints.
  func ids(
    _ shell: ShellFixture, _ target: String, _ clauses: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String] {
    let outcome = shell.run(arguments: ["--db", shell.path, "query", target, clauses, "--ids"])
    #expect(outcome.status == 0, "\(clauses): \(outcome.stderr)", sourceLocation: sourceLocation)
    return outcome.lines
  }

  func users(_ ids: String...) -> [String] { ids.map { "users/\($0)" } }

  // MARK: - Filters

  @Test func everyOperator() throws {
    let shell = try Self.people()
    #expect(ids(shell, "users", "where age == 31") == users("alice"))
    #expect(ids(shell, "users", #"where country != "ES""#) == users("dave", "bob"))
    #expect(ids(shell, "users", "where age < 18") == users("eve", "bob"))
    #expect(ids(shell, "users", "where age <= 17") == users("eve", "bob"))
    #expect(ids(shell, "users", "where age > 44") == users("dave", "carol"))
    #expect(ids(shell, "users", "where age >= 45") == users("dave", "carol"))
    #expect(ids(shell, "users", #"where country in ["FR", "DE"]"#) == users("bob", "dave"))
    #expect(ids(shell, "users", #"where country not-in ["ES"]"#) == users("dave", "bob"))
    #expect(ids(shell, "users", #"where tags array-contains "swift""#) == users("alice", "carol"))
    #expect(ids(shell, "users", #"where tags array-contains-any ["rust", "go"]"#) == users("alice", "bob"))
    // Keywords and word operators in any case; no spaces needed around symbols.
    #expect(ids(shell, "users", #"WHERE country IN ['FR'] AND age<18"#) == users("bob"))
    #expect(ids(shell, "users", "where age>=45 and age<=45") == users("dave"))
  }

  @Test func fieldsAndLiterals() throws {
    let shell = try Self.people()
    #expect(ids(shell, "users", #"where address.city == "Madrid""#) == users("alice"))
    #expect(ids(shell, "users", "where `a.b` == 1") == users("alice"))
    #expect(ids(shell, "users", "where `address`.`city` == 'Madrid'") == users("alice"))
    #expect(ids(shell, "users", #"where manager == ref("users/alice")"#) == users("dave"))
    #expect(ids(shell, "users", #"where joined > ts("2026-01-01T00:00:00Z")"#) == users("alice", "carol"))
    #expect(ids(shell, "users", "where score == null") == users("carol"))
    #expect(ids(shell, "users", "where score == 4.5") == users("alice"))
    #expect(ids(shell, "users", "where age > -1 and age < Infinity") == users("eve", "bob", "alice", "dave", "carol"))
    #expect(ids(shell, "users", "where tags == []") == users("dave"))
    #expect(ids(shell, "users", #"where tags == ["swift", "go"]"#) == users("alice"))
    #expect(ids(shell, "users", #"where address == {"city": "Madrid"}"#) == users("alice"))
    #expect(ids(shell, "users", #"where name == "Al\u0069ce""#) == users("alice"))
    #expect(ids(shell, "users", #"where __name__ in ["bob", "eve"]"#) == users("bob", "eve"))
    #expect(ids(shell, "users", #"where __name__ > "carol""#) == users("dave", "eve"))
    // An integer and a double with the same value are equal, as in Firestore.
    #expect(ids(shell, "users", "where age == 31.0") == users("alice"))
    // Negative numbers are values, not options, as separate words too.
    let words = shell.run("query", "users", "where", "age", ">", "-5", "count")
    #expect(try words.json() == json(#"{"count": 5}"#))
  }

  @Test func andBindsTighterThanOr() throws {
    let shell = try Self.people()
    let loose = ids(shell, "users", #"where country == "FR" or country == "DE" and age > 40"#)
    #expect(Set(loose) == Set(users("bob", "dave")))
    let grouped = ids(shell, "users", #"where (country == "FR" or country == "DE") and age > 40"#)
    #expect(grouped == users("dave"))
    let nested = ids(shell, "users", #"where ((age < 18) or (age > 65 and (country == "ES")))"#)
    #expect(Set(nested) == Set(users("eve", "bob", "carol")))
    // Several where clauses are ANDed.
    #expect(ids(shell, "users", #"where country == "ES" where age < 40"#) == users("eve", "alice"))
  }

  // MARK: - Order, limits, cursors

  @Test func orderAndLimits() throws {
    let shell = try Self.people()
    #expect(ids(shell, "users", "order by age desc limit 2") == users("carol", "dave"))
    #expect(ids(shell, "users", "order by age limit last 2") == users("dave", "carol"))
    #expect(ids(shell, "users", "order by age asc limit 1") == users("eve"))
    let byCountry = users("dave", "carol", "alice", "eve", "bob")
    #expect(ids(shell, "users", "order by country, age desc") == byCountry)
    #expect(ids(shell, "users", "order by country order by age desc") == byCountry)
    // Clauses in any order; the query is built in Firestore's.
    #expect(ids(shell, "users", "limit 2 order by age desc") == users("carol", "dave"))
    // A document lacking an order-by field is left out.
    #expect(ids(shell, "users", "order by joined") == users("bob", "alice", "carol"))
  }

  @Test func cursors() throws {
    let shell = try Self.people()
    #expect(ids(shell, "users", #"order by joined start after ts("2026-01-01T00:00:00Z")"#) == users("alice", "carol"))
    #expect(ids(shell, "users", #"order by joined end before ts("2026-02-01T00:00:00Z")"#) == users("bob", "alice"))
    #expect(ids(shell, "users", "order by age start at 31 end at 45") == users("alice", "dave"))
    #expect(ids(shell, "users", "order by age desc start after 45") == users("alice", "bob", "eve"))
    #expect(ids(shell, "users", #"order by country, age start after "ES", 12"#) == users("alice", "carol", "bob"))
    // Cursors on the document ID: a plain ID, or a reference.
    #expect(ids(shell, "users", #"order by __name__ start after "bob" end at "dave""#) == users("carol", "dave"))
    #expect(ids(shell, "users", #"order by __name__ start at ref("users/carol") limit 1"#) == users("carol"))
    #expect(ids(shell, "users", #"order by age, __name__ start after 31, "alice""#) == users("dave", "carol"))
    // limit last with cursors.
    #expect(ids(shell, "users", "order by age end before 70 limit last 2") == users("alice", "dave"))
  }

  // MARK: - Collection groups

  @Test func collectionGroups() throws {
    let shell = try Self.people()
    let posts = [
      "users/alice/posts/p1", "users/alice/posts/p2", "users/alice/posts/p3", "users/bob/posts/p4",
      "users/bob/posts/p5", "posts/p6",
    ]
    #expect(Set(ids(shell, "group:posts", "")) == Set(posts))
    #expect(ids(shell, "group:posts", "where likes > 10 order by likes desc") == [posts[2], posts[4], posts[0]])
    #expect(ids(shell, "group:posts", #"where __name__ == "users/bob/posts/p4""#) == [posts[3]])
    #expect(ids(shell, "users/alice/posts", "order by likes") == [posts[1], posts[0], posts[2]])
    let shown = shell.succeed("query", "group:posts", "where likes == 40")
    #expect(
      try shown.json()
        == json(
          #"{"path": "users/alice/posts/p3", "fields": {"ownerId": "alice", "likes": 40, "tags": ["go"], "createdAt": {"$timestamp": "2026-01-30T00:00:00Z"}}}"#
        ))
  }

  // MARK: - Aggregations

  @Test func countSumAndAverage() throws {
    let shell = try Self.people()
    func aggregate(_ clauses: String) throws -> JSONValue {
      try shell.run(arguments: ["--db", shell.path, "query", "users", clauses]).json()
    }
    #expect(try aggregate(#"where country == "ES" count"#) == json(#"{"count": 3}"#))
    #expect(try aggregate("count") == json(#"{"count": 5}"#))
    #expect(try aggregate("sum age") == json(#"{"sum": 175}"#))
    #expect(try aggregate("where age > 30 avg age") == json(#"{"avg": 48.666666666666664}"#))
    #expect(try aggregate("avg score") == json(#"{"avg": 4.5}"#))
    #expect(try aggregate("where age > 100 avg age") == json(#"{"avg": null}"#))
    #expect(try aggregate("where age > 100 sum age") == json(#"{"sum": 0}"#))
    #expect(try aggregate("order by age limit 2 count") == json(#"{"count": 2}"#))
    #expect(try aggregate("count, sum age avg age") == json(#"{"count": 5, "sum": 175, "avg": 35.0}"#))
    // The keys keep the order typed.
    let ordered = shell.succeed("query", "users", "avg age count")
    #expect(ordered.stdout == #"{"avg":35.0,"count":5}"# + "\n")
    // As separate words, as a Unix shell passes them.
    #expect(try shell.run("query", "users", "where age < 18", "count").json() == json(#"{"count": 2}"#))
    #expect(try shell.run("query", "group:posts", "sum", "likes").json() == json(#"{"sum": 88}"#))
  }

  // MARK: - Output

  @Test func machineOutputIsOneObjectPerLine() throws {
    let shell = try Self.people()
    let outcome = shell.succeed("query", "users", "where age < 18 order by age")
    #expect(outcome.lines.count == 2)
    #expect(
      try canonical(JSONParser.parse(outcome.lines[0]))
        == json(#"{"path": "users/eve", "fields": {"name": "Eve", "age": 12, "country": "ES"}}"#))
    #expect(outcome.lines[1].hasPrefix(#"{"path":"users/bob","fields":{"#))
    // No clauses: every document of the collection, by ID.
    #expect(ids(shell, "users", "") == users("alice", "bob", "carol", "dave", "eve"))
    #expect(shell.succeed("query", "users", "--ids").lines == users("alice", "bob", "carol", "dave", "eve"))
    // Nothing matches: nothing printed, still success.
    #expect(shell.succeed("query", "users", "where age > 100").stdout.isEmpty)
    #expect(shell.succeed("query", "nothing").stdout.isEmpty)
    // --json forces machine output on a terminal.
    let forced = shell.run("query", "users", "where age < 18 order by age", "--json", terminal: true)
    #expect(forced.stdout == outcome.stdout)
    let pretty = shell.run("query", "users", "where age == 12", terminal: true)
    #expect(pretty.lines.count > 3)
    let note = shell.run("query", "users", "where age > 100", terminal: true)
    #expect(note.status == 0 && note.stdout.isEmpty && note.stderr == "no documents match\n")
  }

  @Test func tableOutput() throws {
    let shell = try Self.people()
    let table = shell.succeed("query", "users", "where country == 'ES' order by age", "--table")
    #expect(
      table.lines == [
        "id     a.b  address  age  country  joined                name   score  tags",
        "eve                  12   ES                             Eve",
        #"alice  1    {city}   31   ES       2026-01-05T00:00:00Z  Alice  4.5    ["swift","go"]"#,
        #"carol                70   ES       2026-02-01T00:00:00Z  Carol  null   ["swift"]"#,
      ])
    let group = shell.succeed("query", "group:posts", "where likes == 40", "--table")
    #expect(group.lines[0].hasPrefix("path  "))
    #expect(group.lines[1].hasPrefix("users/alice/posts/p3  "))
    #expect(QueryTable.cell(String(repeating: "x", count: 50)).count == QueryTable.cellWidth)
    #expect(QueryTable.cell(GeoPoint(latitude: 1.5, longitude: -2)) == "geo(1.5, -2.0)")
  }

  @Test func explainShowsThePlanAndCounts() throws {
    let shell = try Self.people()
    let outcome = shell.succeed("explain", "users", "where age >= 18 order by age desc limit 2")
    #expect(outcome.lines.count == 1)
    guard case .object(let members) = try outcome.json() else {
      Issue.record("not an object: \(outcome.stdout)")
      return
    }
    #expect(members.map(\.key) == ["documentsRead", "indexEntriesRead", "plan", "resultsReturned"])
    #expect(outcome.stdout.hasPrefix(#"{"plan":""#))
    let values = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
    if case .string(let plan) = values["plan"] { #expect(!plan.isEmpty) } else { Issue.record("plan") }
    #expect(values["resultsReturned"] == .integer(2))
    // The index on age, walked down from its top: two entries, two documents, then the limit.
    if case .integer(let read) = values["documentsRead"] { #expect(read == 2) } else { Issue.record("documentsRead") }
    if case .integer(let entries) = values["indexEntriesRead"] {
      #expect(entries == 2)
    } else {
      Issue.record("indexEntriesRead")
    }
    // A person at a terminal gets a short readable form; --json still gives the object.
    let readable = shell.run("explain", "group:posts", "where likes > 3", terminal: true)
    #expect(readable.status == 0)
    #expect(readable.lines.count == 3)
    #expect(readable.lines[0].hasPrefix("plan:"))
    #expect(readable.lines[1].hasPrefix("read:"))
    #expect(readable.lines[2] == "returned: 4")
    let forced = shell.run("explain", "group:posts", "where likes > 3", "--json", terminal: true)
    #expect(forced.stdout.hasPrefix(#"{"plan":"#) && forced.lines.count == 1)
    // An aggregation explains itself: a count its index proves reads no document.
    let count = try shell.run("explain", "users", "where age >= 18 count").json()
    #expect(count["documentsRead"] == .integer(0))
    #expect(count["resultsReturned"] == .integer(3))
    if case .string(let plan) = count["plan"] {
      #expect(plan.hasSuffix("counted from its keys"))
    } else {
      Issue.record("plan")
    }
  }

  // MARK: - Errors

  @Test func syntaxErrorsPointAtTheColumn() throws {
    let shell = try Self.people()
    let outcome = shell.run("query", "users", "where likes >=")
    #expect(outcome.status == ExitCode.dataError.rawValue)
    let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines == [
        "hearth: query syntax error at column 15: expected a value after '>=' (invalidArgument)",
        "  where likes >=",
        "                ^",
        "",
      ])
    #expect(outcome.stdout.isEmpty)

    let inside = shell.run("query", "users", "where likes >= and tags array-contains 'x'")
    #expect(
      inside.stderr.hasPrefix("hearth: query syntax error at column 16: expected a value after '>=', found 'and'"))
    #expect(inside.stderr.hasSuffix("  where likes >= and tags array-contains 'x'\n                 ^\n"))
    // Syntax is checked before the database is opened: none is needed, none is made.
    let nowhere = ShellFixture()
    #expect(nowhere.run("query", "users", "where x = 1").status == ExitCode.dataError.rawValue)
    #expect(!nowhere.databaseExists)
  }

  @Test(arguments: [
    ("where age = 3", 11, "'=' is not an operator; did you mean '=='?"),
    ("where age <> 3", 11, "'<>' is not an operator; did you mean '!='?"),
    ("where age not in [1]", 11, "'not' is not an operator; did you mean 'not-in'?"),
    ("where age array_contains 1", 11, "did you mean 'array-contains'?"),
    ("where age", 10, "expected an operator after 'age'"),
    ("where (age < 3", 15, "expected ')' to close the '(' at column 7"),
    ("where age < 3)", 14, "')' without a matching '('"),
    ("where name == Alice", 15, #"found 'Alice'; strings go in quotes: "Alice""#),
    ("where name == 'Alice", 15, "the single quote at column 15 is not closed"),
    ("where `a.b == 1", 7, "the backtick at column 7 is not closed"),
    ("where a.`` == 1", 9, "a field name in backticks cannot be empty"),
    ("where age in 3", 14, "'in' takes a list of values in brackets"),
    ("where age in [1, 2", 19, "expected ',' or ']' in the list opened at column 14"),
    ("where a == 1 b == 2", 14, "expected 'and', 'or' or a clause"),
    ("where a == 01", 12, "'01' is not a number"),
    ("where a == TRUE", 12, "did you mean true?"),
    ("where a == foo(1)", 12, "unknown function 'foo'"),
    ("where a == ts(2026)", 15, #"ts(…) takes a string in quotes, as in ts("2026-01-01T00:00:00Z")"#),
    ("where a == geo(1 2)", 18, "expected ',' between latitude and longitude"),
    ("where a.", 9, "expected a field name after '.'"),
    ("where == 1", 7, "expected a field name after 'where'"),
    ("order age", 7, "expected 'by' after 'order'"),
    ("sort by age", 1, "did you mean 'order by'?"),
    ("wher age > 1", 1, "did you mean 'where'?"),
    ("limit ten", 7, "expected a whole number after 'limit', found 'ten'"),
    ("limit 1 limit 2", 9, "a query has one limit"),
    ("order by a start 1", 18, "expected 'at' or 'after' after 'start'"),
    ("order by a end after 1", 16, "expected 'at' or 'before' after 'end'"),
    ("count where a == 1", 7, "'where' after 'count': count, sum and avg come last"),
    ("sum", 4, "expected a field name after 'sum'"),
    ("count count", 7, "a query has one count"),
    ("offset 10", 1, "Firestore queries have no offset"),
    ("where a == \"x\\q\"", 14, #"unknown escape '\q'"#),
  ])
  func syntaxErrors(text: String, column: Int, message: String) {
    #expect {
      try QueryClauses.parse(text)
    } throws: { error in
      guard let error = error as? QueryTextError else { return false }
      return error.column == column && error.message.contains(message) && error.kind == .syntax
    }
  }

  @Test(arguments: [
    ("where a == [1, 99999999999999999999]", 16, "integer 99999999999999999999 does not fit in 64 bits"),
    ("where a == geo(1e400, 2)", 16, "number 1e400 is too large for a double"),
    ("start at -1e999", 10, "number -1e999 is too large for a double"),
  ])
  func numbersOutOfRangeAreValueErrorsAtTheNumber(text: String, column: Int, message: String) {
    // JSON's own rules for a number's range (JSONParser.number), reported where the
    // number starts rather than where the value does.
    #expect {
      try QueryClauses.parse(text)
    } throws: { error in
      guard let error = error as? QueryTextError else { return false }
      return error.column == column && error.message.hasPrefix(message) && error.kind == .value
    }
  }

  @Test func valuesAreReadAsJSONReadsThem() throws {
    func literal(_ value: String) throws -> JSONValue? {
      try QueryClauses.parse("where a == " + value).literals.first?.json
    }
    #expect(try literal("2") == .integer(2))
    #expect(try literal("2.0") == .double(2))
    #expect(try literal("1.5e3") == .double(1500))
    #expect(try literal("-0") == .integer(0))
    #expect(try literal("-0.0") == .double(-0.0))
    #expect(try literal("-9223372036854775808") == .integer(.min))
    #expect(
      try literal(#"{'b': 1, "a": [true, null]}"#)
        == .object([("b", .integer(1)), ("a", .array([.bool(true), .null]))]))
    // An object's keys are unique, as JSONParser requires of a document.
    #expect(
      throws: QueryTextError(
        kind: .syntax, message: #"duplicate key "k" in the object opened at column 12"#, column: 21,
        text: "where a == {'k': 1, 'k': 2}")
    ) {
      try QueryClauses.parse("where a == {'k': 1, 'k': 2}")
    }
  }

  @Test func aQuotedClauseStringIsReadAsClauses() throws {
    // A Unix shell's quotes typed in the interactive shell; errors still point into
    // the text as typed.
    let clauses = try QueryClauses.parse(#"'where a == "x"' limit 2"#)
    #expect(clauses.conditions.count == 1)
    #expect(clauses.limit == .first(2))
    #expect(
      throws: QueryTextError(kind: .syntax, message: "expected a value after '=='", column: 14, text: "'where a == '")
    ) {
      try QueryClauses.parse("'where a == '")
    }
  }

  @Test func theParserBuildsTheExpressionTree() throws {
    let clauses = try QueryClauses.parse(#"where a == 1 or b == 2 and (c == 3 or d in [4]) order by a desc, b"#)
    guard case .or(let parts) = clauses.conditions.first, parts.count == 2, case .and(let right) = parts[1],
      case .or(let inner) = right[1]
    else {
      Issue.record("\(clauses.conditions)")
      return
    }
    #expect(right.count == 2 && inner.count == 2)
    #expect(
      clauses.orders == [
        .init(field: FieldPath(["a"]), descending: true), .init(field: FieldPath(["b"]), descending: false),
      ])
    let literals = try QueryClauses.parse(
      #"start at ts("2026-01-01T00:00:00Z"), ref("users/a"), geo(1, -2.5), bytes("AAEC"), NaN, -Infinity, 'it\'s', [1, {"k": null}]"#
    )
    #expect(
      literals.start?.values.map { JSONWriter().string(from: $0.json) } == [
        #"{"$timestamp":"2026-01-01T00:00:00Z"}"#, #"{"$ref":"users/a"}"#, #"{"$geo":[1,-2.5]}"#,
        #"{"$bytes":"AAEC"}"#, #"{"$double":"NaN"}"#, #"{"$double":"-Infinity"}"#, #""it's""#, #"[1,{"k":null}]"#,
      ])
    #expect(literals.start?.inclusive == true)
    #expect(
      try QueryClauses.parse("where `a\\`b`.c == 1").conditions == [
        .comparison(FieldPath(["a`b", "c"]), .equal, .init(json: .integer(1), column: 19))
      ])
  }

  @Test func exitStatuses() throws {
    let shell = try Self.people()
    // Firestore's rules, from Hearth: invalidArgument, exit 65, Hearth's message.
    let toLast = shell.run("query", "users", "limit last 2")
    expectFailure(toLast, status: .dataError, code: "invalidArgument", mentioning: ["OrderBy"])
    #expect(!toLast.stderr.contains("syntax"))
    expectFailure(shell.run("query", "users", "where a in []"), status: .dataError, code: "invalidArgument")
    expectFailure(
      shell.run("query", "users", "where a != 1 and b != 2"), status: .dataError, code: "invalidArgument")
    expectFailure(shell.run("query", "group:a/b", ""), status: .dataError, code: "invalidArgument")
    // A value Hearth cannot read points at it too.
    let badTime = shell.run("query", "users", "where joined > ts(\"yesterday\")")
    #expect(badTime.status == ExitCode.dataError.rawValue)
    #expect(badTime.stderr.hasPrefix("hearth: invalid value in query at column 16: "))
    #expect(badTime.stderr.contains("not an RFC 3339 time"))
    #expect(badTime.stderr.hasSuffix("                 ^\n"))
    // A bad TARGET is bad input too.
    expectFailure(
      shell.run("query", "users/alice"), status: .dataError, code: "invalidArgument", mentioning: ["collection path"])
    expectFailure(shell.run("query", "group:"), status: .dataError, code: "invalidArgument")
    // Usage errors: 64.
    expectFailure(shell.run("query"), status: .usage, code: "usage", mentioning: ["TARGET"])
    expectFailure(shell.run("query", "users", "count", "--ids"), status: .usage, code: "usage")
    expectFailure(shell.run("query", "users", "--ids", "--table"), status: .usage, code: "usage")
    expectFailure(shell.run("count", "users"), status: .usage, code: "usage", mentioning: ["did you mean 'query'?"])
    // Reading commands never create a database.
    let nowhere = ShellFixture()
    expectFailure(
      nowhere.run("query", "users", "count"), status: .failure, code: "notFound", mentioning: ["no database"])
    expectFailure(nowhere.run("explain", "users"), status: .failure, code: "notFound")
    #expect(!nowhere.databaseExists)
  }

  // MARK: - docs/shell.md's clause examples

  static let shellExamples = [
    #"query users/alice/posts where likes >= 10 and tags array-contains "swift" order by createdAt desc limit 20"#,
    #"query group:posts where ownerId in ["alice", "bob"] order by createdAt desc start after ts("2026-01-01T00:00:00Z") limit 5"#,
    #"query users where (age < 18 or age > 65) and country == "ES""#,
  ]

  static let shellExampleResults = [
    ["users/alice/posts/p1"],
    // Descending: after 2026-01-01 is before it.
    ["users/bob/posts/p4"],
    ["users/eve", "users/carol"],
  ]

  @Test func shellDesignExamplesInTheInteractiveShell() throws {
    let shell = try Self.people()
    let script = Self.shellExamples.map { $0 + " --ids" }.joined(separator: "\n") + "\n"
    let outcome = shell.run(arguments: ["--db", shell.path], stdin: script)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.isEmpty)
    #expect(outcome.lines == Self.shellExampleResults.flatMap { $0 })
  }

  @Test func shellDesignExamplesFromAUnixShell() throws {
    let shell = try Self.people()
    for (example, expected) in zip(Self.shellExamples, Self.shellExampleResults) {
      // hearth query TARGET 'CLAUSES' --ids
      let words = example.split(separator: " ", maxSplits: 2).map(String.init)
      let outcome = shell.run(arguments: ["--db", shell.path] + words + ["--ids"])
      #expect(outcome.status == 0, "\(example): \(outcome.stderr)")
      #expect(outcome.lines == expected, "\(example)")
    }
  }

  @Test func theInteractiveShellKeepsQuotesForQueries() throws {
    let shell = try Self.people()
    let script = """
      query users where name == 'Alice' --ids
      query 'users' 'where name == "Bob"' --ids
      query users where `address`.city == "Madrid" --ids
      query users where name in ["Carol",
        "Dave"] --ids
      query users where name == "it's" count
      explain users where age < -1 --json
      query users where name == "Eve" or
      """
    let outcome = shell.run(arguments: ["--db", shell.path], stdin: script)
    #expect(
      Array(outcome.lines.prefix(6)) == [
        "users/alice", "users/bob", "users/alice", "users/carol", "users/dave", #"{"count":0}"#,
      ])
    #expect(outcome.lines.count == 7)
    #expect(outcome.stderr.contains("query syntax error at column 23: expected a field name after 'or'"))
  }

  @Test func splittingKeepsQuotes() throws {
    #expect(
      try Tokenizer.splitKeepingQuotes(#"query users where name == "A B" and `first name` == 'it\'s'"#) == [
        "query", "users", "where", "name", "==", #""A B""#, "and", "`first name`", "==", #"'it\'s'"#,
      ])
    #expect(
      try Tokenizer.splitKeepingQuotes("query  users\n  where a in [1,\n 2]") == [
        "query", "users", "where", "a", "in", "[1,", "2]",
      ])
    #expect(throws: TokenizerError(kind: .doubleQuote, column: 12)) {
      try Tokenizer.splitKeepingQuotes(#"query a == "x"#)
    }
    #expect(throws: TokenizerError(kind: .bracket("["), column: 14)) {
      try Tokenizer.splitKeepingQuotes("query a in x [1, 2")
    }
    #expect(Tokenizer.firstWord(of: "  query users") == "query")
    #expect(Tokenizer.firstWord(of: "'query' users") == nil)
  }
}
