import Foundation
import HearthCore
import HearthShell
import HearthTestSupport
import Testing

/// The doc shell as a new user meets it: the built `hearth` binary run as a process on a
/// temporary database, every command, with its standard output and error as pipes (so
/// the machine output of docs/shell.md applies), its exit status, and the errors a user runs
/// into. JSON output is parsed and compared, not matched as text.
///
/// The in-process tests (`Shell.run`) cover the commands' details; these check that the
/// binary a user runs behaves as docs/shell.md says, end to end.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct EndToEndTests {
  // MARK: - ls and tree

  @Test func lsAndTreeShowTheShapeOfTheDatabase() throws {
    let fixture = try EndToEndFixture()
    for (path, data) in [
      ("users/alice", #"{"age": 30}"#), ("users/bob", #"{"age": 17}"#), ("users/dave", #"{"age": 70}"#),
      ("users/alice/posts/p1", #"{"likes": 5}"#), ("users/alice/likes/l1", "{}"), ("users/carol/posts/p2", "{}"),
      ("rooms/r1", "{}"),
    ] {
      try fixture.succeed("set", path, data)
    }

    // ls: root collections, a collection's document IDs (with carol, which only has a
    // subcollection), a document's subcollections; one name per line off a terminal.
    #expect(try fixture.succeed("ls").lines == ["rooms", "users"])
    #expect(try fixture.succeed("ls", "users").lines == ["alice", "bob", "carol", "dave"])
    #expect(try fixture.succeed("ls", "users/alice").lines == ["likes", "posts"])
    #expect(try fixture.succeed("ls", "users/carol").lines == ["posts"])
    #expect(try fixture.succeed("ls", "users/bob").lines == [])
    #expect(try fixture.succeed("ls", "users/alice/posts").lines == ["p1"])

    // Paging: --limit, then --after the last name shown.
    #expect(try fixture.succeed("ls", "users", "--limit", "2").lines == ["alice", "bob"])
    #expect(try fixture.succeed("ls", "users", "--limit", "2", "--after", "bob").lines == ["carol", "dave"])
    #expect(try fixture.succeed("ls", "users", "--limit", "2", "--after", "dave").lines == [])
    #expect(try fixture.succeed("ls", "--limit=1").lines == ["rooms"])
    expectFailure(
      try fixture.run("ls", "users", "--limit", "0"), status: .usage, code: "usage", mentioning: ["--limit"])

    // --json: a JSON array of strings, before or after the command.
    #expect(try fixture.succeed("ls", "users", "--json").json() == json(#"["alice", "bob", "carol", "dave"]"#))
    #expect(try fixture.hearth(["--db", fixture.database, "--json", "ls"]).json() == json(#"["rooms", "users"]"#))
    #expect(
      try fixture.succeed("ls", "users", "--json", "--limit", "1", "--after", "alice").json() == json(#"["bob"]"#))
    #expect(try fixture.succeed("ls", "users/bob", "--json").json() == json("[]"))

    // A collection with nothing in it, and a document that is not there, fail.
    expectFailure(
      try fixture.run("ls", "nothing"), status: .failure, code: "notFound", mentioning: ["no documents in collection"])
    expectFailure(
      try fixture.run("ls", "users/zoe"), status: .failure, code: "notFound", mentioning: ["no document at users/zoe"])

    // tree --json: nested objects with counts; --depth cuts the levels below PATH.
    let shallow = try fixture.succeed("tree", "--depth", "1", "--json").json()
    #expect(
      shallow
        == (try json(
          #"""
          {"collections": [{"id": "rooms", "path": "rooms", "documents": 1},
                           {"id": "users", "path": "users", "documents": 3}]}
          """#)))
    let users = try fixture.succeed("tree", "users", "--depth", "1", "--json").json()
    #expect(
      users
        == (try json(
          #"""
          {"id": "users", "path": "users", "documents": 3, "children": [
            {"id": "alice", "path": "users/alice", "exists": true},
            {"id": "bob", "path": "users/bob", "exists": true},
            {"id": "carol", "path": "users/carol", "exists": false},
            {"id": "dave", "path": "users/dave", "exists": true}]}
          """#)))
    let alice = try fixture.succeed("tree", "users/alice", "--json").json()
    #expect(
      alice
        == (try json(
          #"""
          {"id": "alice", "path": "users/alice", "exists": true, "collections": [
            {"id": "likes", "path": "users/alice/likes", "documents": 1, "children": [
              {"id": "l1", "path": "users/alice/likes/l1", "exists": true, "collections": []}]},
            {"id": "posts", "path": "users/alice/posts", "documents": 1, "children": [
              {"id": "p1", "path": "users/alice/posts/p1", "exists": true, "collections": []}]}]}
          """#)))
    // The whole tree (no --depth) reaches every document.
    let whole = try fixture.succeed("tree", "--json").json()
    #expect(
      paths(in: whole).sorted() == [
        "rooms", "rooms/r1", "users", "users/alice", "users/alice/likes", "users/alice/likes/l1", "users/alice/posts",
        "users/alice/posts/p1", "users/bob", "users/carol", "users/carol/posts", "users/carol/posts/p2", "users/dave",
      ])
    // Drawn as text off a terminal: one line per node, no colour.
    let drawn = try fixture.succeed("tree")
    #expect(drawn.lines.count == 14)
    #expect(!drawn.stdout.contains("\u{1B}"))
    #expect(drawn.stdout.contains("carol (missing)"))
  }

  // MARK: - get, set, update, add, rm

  @Test func documentCommandsReadAndWriteDocuments() throws {
    let fixture = try EndToEndFixture()
    let set = try fixture.succeed(
      "set", "users/alice", #"{"name": "Alice", "age": 30, "owner": {"email": "a@example.com", "team": "core"}}"#)
    #expect(set.stdout.isEmpty)
    #expect(
      try fixture.document("users/alice")
        == json(#"{"name": "Alice", "age": 30, "owner": {"email": "a@example.com", "team": "core"}}"#))

    // --meta wraps the fields with the path and the times.
    let meta = try fixture.succeed("get", "users/alice", "--meta").json()
    #expect(meta["path"] == .string("users/alice"))
    #expect(meta["fields"] == (try fixture.document("users/alice")))
    let created = try #require(string(meta["createTime"]))
    #expect(created.hasSuffix("Z"))
    #expect(string(meta["updateTime"]) == created)
    #expect(memberNames(meta) == ["createTime", "fields", "path", "updateTime"])

    // set --merge keeps the other fields and merges nested objects; set alone replaces.
    try fixture.succeed("set", "users/alice", #"{"owner": {"phone": "555"}, "active": true}"#, "--merge")
    #expect(
      try fixture.document("users/alice")
        == json(
          #"""
          {"name": "Alice", "age": 30, "active": true,
           "owner": {"email": "a@example.com", "team": "core", "phone": "555"}}
          """#))
    try fixture.succeed("set", "users/bob", #"{"name": "Bob", "age": 17}"#)
    try fixture.succeed("set", "users/bob", #"{"name": "Robert"}"#)
    #expect(try fixture.document("users/bob") == json(#"{"name": "Robert"}"#))

    // update: keys are field paths; the rest of a nested object stays.
    let update = try fixture.succeed(
      "update", "users/alice", #"{"owner.email": "alice@example.com", "age": 31, "`a.b`.c": 1}"#)
    #expect(update.stdout.isEmpty)
    #expect(
      try fixture.document("users/alice")
        == json(
          #"""
          {"name": "Alice", "age": 31, "active": true, "a.b": {"c": 1},
           "owner": {"email": "alice@example.com", "team": "core", "phone": "555"}}
          """#))
    let updated = try fixture.succeed("get", "users/alice", "--meta").json()
    #expect(string(updated["createTime"]) == created)
    #expect(string(updated["updateTime"]) != created)
    // update does not create: that is set's job.
    expectFailure(
      try fixture.run("update", "users/zoe", #"{"age": 1}"#), status: .failure, code: "notFound",
      mentioning: ["users/zoe"])
    #expect(try fixture.run("get", "users/zoe").status == 1)

    // add prints the new document's path, which then exists.
    let added = try fixture.succeed("add", "notes", #"{"text": "hi"}"#)
    #expect(added.lines.count == 1)
    let path = try #require(added.lines.first)
    let id = path.dropFirst("notes/".count)
    #expect(path.hasPrefix("notes/") && id.count == 20 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    #expect(try fixture.document(path) == json(#"{"text": "hi"}"#))
    #expect(try fixture.succeed("ls", "notes").lines == [String(id)])

    // rm DOC deletes the document and keeps its subcollections.
    try fixture.succeed("set", "users/bob/posts/p1", #"{"likes": 1}"#)
    #expect(try fixture.succeed("rm", "users/bob").stdout.isEmpty)
    expectFailure(
      try fixture.run("get", "users/bob"), status: .failure, code: "notFound", mentioning: ["no document at users/bob"])
    #expect(try fixture.document("users/bob/posts/p1") == json(#"{"likes": 1}"#))
    #expect(try fixture.succeed("ls", "users/bob").lines == ["posts"])
    // rm DOC --recursive takes its subcollections too.
    try fixture.succeed("set", "users/alice/posts/p2", #"{"likes": 2}"#)
    try fixture.succeed("rm", "users/alice", "--recursive")
    #expect(try fixture.run("get", "users/alice").status == 1)
    #expect(try fixture.run("get", "users/alice/posts/p2").status == 1)
    #expect(try fixture.succeed("ls", "users").lines == ["bob"])
    // Deleting what is not there fails, unless --force.
    expectFailure(try fixture.run("rm", "users/zoe"), status: .failure, code: "notFound", mentioning: ["users/zoe"])
    try fixture.succeed("rm", "users/zoe", "--force")

    // rm COLLECTION is a usage error without --recursive, and deletes nothing.
    expectFailure(
      try fixture.run("rm", "users"), status: .usage, code: "usage",
      mentioning: ["users is a collection", "--recursive"])
    #expect(try fixture.document("users/bob/posts/p1") == json(#"{"likes": 1}"#))
    try fixture.succeed("rm", "users", "--recursive")
    #expect(try fixture.succeed("ls").lines == ["notes"])
    #expect(try fixture.run("get", "users/bob/posts/p1").status == 1)
    expectFailure(
      try fixture.run("rm", "users", "--recursive"), status: .failure, code: "notFound", mentioning: ["users"])

    // A document path where a collection is needed, and the reverse, say which is which
    // (a bad path is bad input: 65).
    expectFailure(
      try fixture.run("add", "notes/n1", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["notes/n1 is a document", "add needs a collection path"])
    expectFailure(
      try fixture.run("set", "notes", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["notes is a collection", "set needs a document path"])
    // JSON taken apart by the user's shell (no quotes): a usage error with a hint.
    expectFailure(
      try fixture.run("set", "notes/n1", #"{"a":"#, "1}"), status: .usage, code: "usage", mentioning: ["single quotes"])
    // JSON from standard input.
    try fixture.succeed("set", "notes/n2", "-", stdin: #"{"from": "stdin"}"#)
    #expect(try fixture.document("notes/n2") == json(#"{"from": "stdin"}"#))
  }

  @Test func getOutputFedBackToSetGivesTheSameDocument() throws {
    let fixture = try EndToEndFixture()
    let original = #"""
      {"text": "héllo \"wörld\"\n", "int": -9007199254740993, "max": 9223372036854775807, "double": 2.5,
       "whole": {"$double": 2}, "nan": {"$double": "NaN"}, "inf": {"$double": "Infinity"},
       "negInf": {"$double": "-Infinity"}, "yes": true, "nothing": null,
       "at": {"$timestamp": "2026-11-29T10:00:00.123456Z"}, "ref": {"$ref": "users/bob"},
       "where": {"$geo": [40.4, -3.7]}, "blob": {"$bytes": "AAEC/w=="},
       "literal": {"$literal": {"$timestamp": "not a time"}},
       "nested": {"list": [1, 2.0, "x", {"$timestamp": "2026-01-01T00:00:00Z"}, {"in": [true]}], "map": {"k": {}}}}
      """#
    try fixture.succeed("set", "things/original", original)
    let output = try fixture.succeed("get", "things/original")
    #expect(output.lines.count == 1)
    // Types JSON lacks come out tagged; a whole-number double is printed as one.
    #expect(
      try output.json()
        == json(
          #"""
          {"text": "héllo \"wörld\"\n", "int": -9007199254740993, "max": 9223372036854775807, "double": 2.5,
           "whole": 2.0, "nan": {"$double": "NaN"}, "inf": {"$double": "Infinity"},
           "negInf": {"$double": "-Infinity"}, "yes": true, "nothing": null,
           "at": {"$timestamp": "2026-11-29T10:00:00.123456Z"}, "ref": {"$ref": "users/bob"},
           "where": {"$geo": [40.4, -3.7]}, "blob": {"$bytes": "AAEC/w=="},
           "literal": {"$literal": {"$timestamp": "not a time"}},
           "nested": {"list": [1, 2.0, "x", {"$timestamp": "2026-01-01T00:00:00Z"}, {"in": [true]}], "map": {"k": {}}}}
          """#))

    // The output, unchanged, is a valid `set` argument that writes the same document.
    try fixture.succeed("set", "things/copy", String(output.stdout.dropLast()))
    let copy = try fixture.succeed("get", "things/copy")
    #expect(try copy.json() == output.json())
    #expect(copy.stdout == output.stdout)
    // So are the fields of `get --meta`, read back through standard input.
    let meta = try fixture.succeed("get", "things/original", "--meta").json()
    let fields = try #require(meta["fields"])
    try fixture.succeed("set", "things/viaMeta", "-", stdin: fields.serialized())
    #expect(try fixture.document("things/viaMeta") == output.json())
    // And the types stay types: the timestamp orders as a time, the double as a number.
    let query = try fixture.succeed("query", "things", #"where at == ts("2026-11-29T10:00:00.123456Z")"#, "--ids")
    #expect(query.lines == ["things/copy", "things/original", "things/viaMeta"])
    #expect(try fixture.succeed("query", "things", "where whole == 2", "count").json() == json(#"{"count": 3}"#))
  }

  // MARK: - query and explain

  @Test func queriesPrintDocumentsInQueryOrder() throws {
    let fixture = try EndToEndFixture()
    for (path, data) in [
      (
        "users/alice",
        #"{"name": "Alice", "age": 30, "country": "ES", "tags": ["swift", "go"], "joined": "#
          + #"{"$timestamp": "2026-01-10T00:00:00Z"}}"#
      ),
      (
        "users/bob",
        #"{"name": "Bob", "age": 17, "country": "ES", "tags": ["rust"], "joined": "#
          + #"{"$timestamp": "2025-06-01T00:00:00Z"}}"#
      ),
      (
        "users/carol",
        #"{"name": "Carol", "age": 80, "country": "FR", "tags": ["swift"], "joined": "#
          + #"{"$timestamp": "2026-03-01T00:00:00Z"}}"#
      ),
      (
        "users/dave",
        #"{"name": "Dave", "age": 70, "country": "ES", "tags": [], "joined": "#
          + #"{"$timestamp": "2024-01-01T00:00:00Z"}}"#
      ),
      (
        "users/erin",
        #"{"name": "Erin", "age": 45, "country": "ES", "tags": ["go"], "joined": "#
          + #"{"$timestamp": "2026-02-01T00:00:00Z"}}"#
      ),
      ("users/alice/posts/p1", #"{"likes": 5, "ownerId": "alice"}"#),
      ("users/alice/posts/p3", #"{"likes": 12, "ownerId": "alice"}"#),
      ("users/bob/posts/p2", #"{"likes": 1, "ownerId": "bob"}"#), ("posts/p4", #"{"likes": 7, "ownerId": "dave"}"#),
    ] {
      try fixture.succeed("set", path, data)
    }

    /// The paths of the documents `query users CLAUSES` prints, in order, after checking
    /// that every line is a `{"path", "fields"}` object.
    func queried(_ target: String = "users", _ clauses: String..., sourceLocation: SourceLocation = #_sourceLocation)
      throws -> [String]
    {
      let objects = try fixture.succeed("query", target, clauses.joined(separator: " "), sourceLocation: sourceLocation)
        .jsonLines(sourceLocation: sourceLocation)
      for object in objects {
        #expect(memberNames(object) == ["fields", "path"], "\(object)", sourceLocation: sourceLocation)
      }
      return objects.compactMap { string($0["path"]) }
    }

    // One {"path", "fields"} object per line, fields in extended JSON.
    #expect(
      try fixture.succeed("query", "users", "where age < 18").jsonLines()
        == [
          try json(
            #"""
            {"path": "users/bob", "fields": {"name": "Bob", "age": 17, "country": "ES", "tags": ["rust"],
             "joined": {"$timestamp": "2025-06-01T00:00:00Z"}}}
            """#)
        ])
    #expect(try queried() == ["users/alice", "users/bob", "users/carol", "users/dave", "users/erin"])
    // where with or and parentheses (and binds tighter), order by, limit.
    #expect(
      try queried("users", #"where (age < 18 or age > 65) and country == "ES""#, "order by age desc")
        == ["users/dave", "users/bob"])
    #expect(try queried("users", #"where country == "FR" or age == 17"#) == ["users/bob", "users/carol"])
    #expect(try queried("users", "where age >= 18 order by age desc limit 2") == ["users/carol", "users/dave"])
    #expect(try queried("users", "order by age limit last 2") == ["users/dave", "users/carol"])
    #expect(try queried("users", "ORDER BY age LIMIT 1") == ["users/bob"])
    // Cursors on the order-by values.
    #expect(try queried("users", "order by age start after 17 end before 70") == ["users/alice", "users/erin"])
    #expect(try queried("users", "order by age start at 30 end at 45") == ["users/alice", "users/erin"])
    #expect(
      try queried("users", #"order by __name__ start after "bob" limit 2"#) == ["users/carol", "users/dave"])
    // ts(...) literals compare with timestamps, also as cursors.
    #expect(
      try queried("users", #"where joined >= ts("2026-01-01T00:00:00Z") order by joined"#)
        == ["users/alice", "users/erin", "users/carol"])
    #expect(
      try queried("users", #"order by joined desc start after ts("2026-01-10T00:00:00Z")"#)
        == ["users/bob", "users/dave"])
    // in, not-in, array-contains, array-contains-any; clauses split over several words.
    #expect(try queried("users", "where", "tags", "array-contains", #""swift""#) == ["users/alice", "users/carol"])
    #expect(
      try queried("users", #"where tags array-contains-any ["rust", "go"] order by age"#)
        == ["users/bob", "users/alice", "users/erin"])
    #expect(try queried("users", #"where name in ['Alice', "Erin"]"#) == ["users/alice", "users/erin"])
    #expect(
      try queried("users", #"where country not-in ["ES"]"#) == ["users/carol"])
    #expect(try queried("users", "where age > 100") == [])

    // group:ID queries every collection with that ID; __name__ there is a full path.
    #expect(
      try queried("group:posts", "where likes > 3 order by likes desc")
        == ["users/alice/posts/p3", "posts/p4", "users/alice/posts/p1"])
    #expect(
      try fixture.succeed("query", "group:posts", #"where ownerId in ["alice", "bob"]"#, "--ids").lines
        == ["users/alice/posts/p1", "users/alice/posts/p3", "users/bob/posts/p2"])
    #expect(
      try fixture.succeed("query", "users/alice/posts", "order by likes desc", "--ids").lines
        == ["users/alice/posts/p3", "users/alice/posts/p1"])

    // --ids: paths only, in query order.
    #expect(
      try fixture.succeed("query", "users", "order by age desc limit 3", "--ids").lines
        == ["users/carol", "users/dave", "users/erin"])

    // count, sum F, avg F: one object.
    #expect(try fixture.succeed("query", "users", #"where country == "ES""#, "count").json() == json(#"{"count": 4}"#))
    #expect(try fixture.succeed("query", "users", "count").json() == json(#"{"count": 5}"#))
    #expect(try fixture.succeed("query", "users", "sum age").json() == json(#"{"sum": 242}"#))
    #expect(
      try fixture.succeed("query", "users", #"where country == "ES" avg age"#).json() == json(#"{"avg": 40.5}"#))
    #expect(try fixture.succeed("query", "users", "where age > 100 avg age").json() == json(#"{"avg": null}"#))
    #expect(try fixture.succeed("query", "group:posts", "sum likes").json() == json(#"{"sum": 25}"#))
    expectFailure(
      try fixture.run("query", "users", "count", "--ids"), status: .usage, code: "usage", mentioning: ["--ids"])

    // --table works on a pipe too: a header, then one row per document in query order,
    // without colour.
    let table = try fixture.succeed("query", "users", "where age >= 45 order by age", "--table")
    #expect(!table.stdout.contains("\u{1B}"))
    let rows = table.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
    #expect(rows.first == ["id", "age", "country", "joined", "name", "tags"])
    #expect(rows.dropFirst().map(\.first) == ["erin", "dave", "carol"])
    #expect(rows.dropFirst().first == ["erin", "45", "ES", "2026-02-01T00:00:00Z", "Erin", #"["go"]"#])
    expectFailure(
      try fixture.run("query", "users", "--ids", "--table"), status: .usage, code: "usage", mentioning: ["--table"])

    // A query Firestore would refuse is bad input, like a syntax error.
    expectFailure(
      try fixture.run("query", "users", "limit last 2"), status: .dataError, code: "invalidArgument",
      mentioning: ["OrderBy"])
    expectFailure(
      try fixture.run("query", "users", "where age in []"), status: .dataError, code: "invalidArgument",
      mentioning: ["non-empty array"])

    // explain: one object with the plan and what the query read and returned.
    let explained = try fixture.succeed("explain", "users", "where age >= 18 order by age desc limit 2").json()
    #expect(memberNames(explained) == ["documentsRead", "indexEntriesRead", "plan", "resultsReturned"])
    #expect(explained["resultsReturned"] == .integer(2))
    #expect(!(string(explained["plan"]) ?? "").isEmpty)
    // The index on age, walked down from its top: two entries, two documents, then the limit.
    if case .integer(let read) = explained["documentsRead"] {
      #expect(read == 2)
    } else {
      Issue.record("documentsRead is not an integer: \(explained)")
    }
    if case .integer(let entries) = explained["indexEntriesRead"] {
      #expect(entries == 2)
    } else {
      Issue.record("indexEntriesRead is not an integer: \(explained)")
    }
    let group = try fixture.succeed("explain", "group:posts", "where likes > 3", "--json").json()
    #expect(group["resultsReturned"] == .integer(3))
    let counted = try fixture.succeed("explain", "users", #"where country == "ES""#, "count").json()
    #expect(counted["resultsReturned"] == .integer(4))
  }

  // MARK: - watch

  @Test func watchStreamsChangesCommittedByOtherProcesses() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/erin", #"{"age": 45}"#)
    try fixture.succeed("set", "users/carol", #"{"age": 80}"#)
    try fixture.succeed("set", "users/bob", #"{"age": 17}"#)

    let query = try fixture.start([
      "--db", fixture.database, "watch", "users", "where age >= 40 order by age", "--changes", "4",
    ])
    let document = try fixture.start(["--db", fixture.database, "watch", "users/erin", "--changes", "2"])
    defer {
      query.kill()
      document.kill()
    }
    /// The next line the watch printed, parsed.
    func next(_ watch: RawProcess, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
      let line = try #require(watch.readLine(), "the watch ended early", sourceLocation: sourceLocation)
      return canonical(try JSONParser.parse(line))
    }

    // First the current results, as additions.
    #expect(
      try next(query)
        == json(#"{"type": "added", "path": "users/erin", "oldIndex": null, "newIndex": 0, "fields": {"age": 45}}"#))
    #expect(
      try next(query)
        == json(#"{"type": "added", "path": "users/carol", "oldIndex": null, "newIndex": 1, "fields": {"age": 80}}"#))
    #expect(
      try next(document)
        == json(#"{"type": "added", "path": "users/erin", "oldIndex": null, "newIndex": 0, "fields": {"age": 45}}"#))

    // Then each commit of another hearth process, one at a time.
    try fixture.succeed("set", "users/fred", #"{"age": 50}"#)
    #expect(
      try next(query)
        == json(#"{"type": "added", "path": "users/fred", "oldIndex": null, "newIndex": 1, "fields": {"age": 50}}"#))
    try fixture.succeed("set", "users/bob", #"{"age": 18}"#)  // still outside the query: no line
    try fixture.succeed("update", "users/carol", #"{"age": 20}"#)
    // A removed document comes with its last fields.
    #expect(
      try next(query)
        == json(
          #"{"type": "removed", "path": "users/carol", "oldIndex": 2, "newIndex": null, "fields": {"age": 80}}"#))
    // --changes 4 reached: the watch ends by itself, with status 0.
    let queryEnd = query.finish().shellOutcome
    #expect(queryEnd.status == 0, "\(queryEnd.stderr)")
    #expect(queryEnd.stdout.isEmpty)
    #expect(queryEnd.stderr.isEmpty)

    try fixture.succeed("update", "users/erin", #"{"city": "Madrid"}"#)
    #expect(
      try next(document)
        == json(
          #"""
          {"type": "modified", "path": "users/erin", "oldIndex": 0, "newIndex": 0,
           "fields": {"age": 45, "city": "Madrid"}}
          """#))
    let documentEnd = document.finish().shellOutcome
    #expect(documentEnd.status == 0, "\(documentEnd.stderr)")
    #expect(documentEnd.stdout.isEmpty)

    // watch follows documents, not aggregations; and a document takes no clauses.
    expectFailure(try fixture.run("watch", "users", "count"), status: .usage, code: "usage")
    expectFailure(try fixture.run("watch", "users/erin", "where age > 1"), status: .usage, code: "usage")
  }

  // MARK: - export and import

  @Test func exportWritesJSONLinesThatImportReadsBack() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/bob", #"{"age": 1}"#)
    try fixture.succeed("set", "users/alice/posts/p1", #"{"likes": 5}"#)
    try fixture.succeed(
      "set", "users/alice", #"{"name": "Alice", "joined": {"$timestamp": "2026-11-29T10:00:00.123456Z"}}"#)

    // To a file: a header, then the documents in path order, parents first.
    let file = fixture.file("export.jsonl")
    let exported = try fixture.succeed("export", file)
    #expect(exported.stdout.isEmpty)
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
      canonical(try JSONParser.parse(String($0)))
    }
    try #require(lines.count == 4)
    let header = lines[0]
    #expect(memberNames(header) == ["documents", "exportedAt", "hearth", "version"])
    #expect(header["hearth"] == .string("export"))
    #expect(header["version"] == .integer(1))
    #expect(header["documents"] == .integer(3))
    let documents = Array(lines.dropFirst())
    #expect(documents.map { string($0["path"]) } == ["users/alice", "users/alice/posts/p1", "users/bob"])
    for document in documents {
      #expect(memberNames(document) == ["createTime", "fields", "path", "updateTime"])
    }
    #expect(
      documents[0]["fields"]
        == (try json(#"{"name": "Alice", "joined": {"$timestamp": "2026-11-29T10:00:00.123456Z"}}"#)))
    let aliceMeta = try fixture.succeed("get", "users/alice", "--meta").json()
    #expect(documents[0]["createTime"] == aliceMeta["createTime"])
    #expect(documents[0]["updateTime"] == aliceMeta["updateTime"])

    // To standard output: the same documents (the header may say null documents).
    let streamed = try fixture.succeed("export", "-").jsonLines()
    try #require(streamed.count == 4)
    #expect(streamed[0]["hearth"] == .string("export"))
    #expect(streamed[0]["documents"] == .integer(3) || streamed[0]["documents"] == .null)
    #expect(Array(streamed.dropFirst()) == documents)

    // import merges: documents in the file replace those at the same path, the others
    // stay, and times are kept.
    let other = EndToEndDatabase(fixture, "other")
    try other.succeed("set", "users/bob", #"{"age": 99, "old": true}"#)
    try other.succeed("set", "users/zed", #"{"z": 1}"#)
    try other.succeed("import", file)
    #expect(try other.succeed("ls", "users").lines == ["alice", "bob", "zed"])
    #expect(try other.document("users/bob") == json(#"{"age": 1}"#))
    #expect(try other.document("users/zed") == json(#"{"z": 1}"#))
    #expect(try other.succeed("get", "users/alice", "--meta").json() == aliceMeta)
    #expect(try other.document("users/alice/posts/p1") == json(#"{"likes": 5}"#))

    // import --replace empties the database first: it then exports as the original.
    try other.succeed("import", file, "--replace")
    #expect(Array(try other.succeed("export", "-").jsonLines().dropFirst()) == documents)
    #expect(try other.run("get", "users/zed").status == 1)

    // A bad line: exit 65, FILE:LINE in the message, and nothing applied, not even
    // the good lines before it, with or without --replace.
    let goodLine =
      #"{"path":"users/new","createTime":"2026-01-01T00:00:00Z","updateTime":"2026-01-01T00:00:00Z","fields":{"a":1}}"#
    let bad = fixture.file("bad.jsonl")
    try
      (#"{"hearth":"export","version":1,"exportedAt":"2026-01-01T00:00:00Z","documents":2}"# + "\n" + goodLine
      + "\n" + #"{"path":"users","createTime":"2026-01-01T00:00:00Z","#
      + #""updateTime":"2026-01-01T00:00:00Z","fields":{}}"# + "\n").write(
        toFile: bad, atomically: true, encoding: .utf8)
    expectFailure(try other.run("import", bad), status: .dataError, code: "invalidArgument", mentioning: ["\(bad):3"])
    expectFailure(
      try other.run("import", bad, "--replace"), status: .dataError, code: "invalidArgument", mentioning: ["\(bad):3"])
    let brokenJSON =
      #"{"hearth":"export","version":1,"exportedAt":"2026-01-01T00:00:00Z","documents":2}"# + "\n"
      + goodLine + "\n" + "{nope\n"
    expectFailure(
      try other.run("import", "-", stdin: brokenJSON), status: .dataError, code: "invalidArgument",
      mentioning: ["standard input:3"])
    #expect(try other.run("get", "users/new").status == 1)
    #expect(Array(try other.succeed("export", "-").jsonLines().dropFirst()) == documents)

    // From standard input, a good file loads.
    let good = #"{"hearth":"export","version":1,"exportedAt":"2026-01-01T00:00:00Z","documents":1}"# + "\n" + goodLine
    try other.succeed("import", "-", stdin: good + "\n")
    #expect(try other.document("users/new") == json(#"{"a": 1}"#))
    #expect(try other.document("users/bob") == json(#"{"age": 1}"#))
    // A file that is not there is not found, and the database stays as it was.
    let missingFile = fixture.file("missing.jsonl")
    expectFailure(
      try other.run("import", missingFile), status: .failure, code: "notFound", mentioning: [missingFile])
    #expect(try other.document("users/new") == json(#"{"a": 1}"#))
  }

  // MARK: - backup and restore

  @Test func restoreReplacesTheDatabaseWithABackup() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/alice", #"{"v": 1}"#)
    try fixture.succeed("set", "users/bob", #"{"v": 1}"#)

    let backup = fixture.file("backup")
    let made = try fixture.succeed("backup", backup)
    #expect(made.stdout.contains(backup))
    #expect(FileManager.default.fileExists(atPath: backup + "/manifest.json"))
    // DIR must not exist or be empty.
    let again = try fixture.run("backup", backup)
    #expect(again.status == 1, "\(again.stderr)")
    #expect(again.stderr.hasPrefix("hearth: ") && again.stderr.hasSuffix(")\n"))
    let described = try fixture.succeed("backup", fixture.file("backup2"), "--json").json()
    #expect(described["documents"] == .integer(2))

    // The database moves on after the backup.
    try fixture.succeed("set", "users/alice", #"{"v": 2}"#)
    try fixture.succeed("rm", "users/bob")
    try fixture.succeed("set", "users/carol", #"{"v": 2}"#)

    // While another process has the database open, restore refuses and changes nothing.
    let holder = try fixture.start(["--db", fixture.database, "watch", "users/alice"])
    defer { holder.kill() }
    #expect(holder.readLine() != nil, "the watch printed its first snapshot")
    expectFailure(
      try fixture.run("restore", backup), status: .failure, code: "failedPrecondition",
      mentioning: ["open in another process"])
    #expect(try fixture.document("users/alice") == json(#"{"v": 2}"#))
    #expect(try fixture.succeed("ls", "users").lines == ["alice", "carol"])

    // --force restores anyway; the data is the backup's.
    let forced = try fixture.succeed("restore", backup, "--force")
    #expect(forced.stdout.contains(backup))
    holder.kill()
    _ = holder.finish()
    #expect(try fixture.document("users/alice") == json(#"{"v": 1}"#))
    #expect(try fixture.document("users/bob") == json(#"{"v": 1}"#))
    #expect(try fixture.succeed("ls", "users").lines == ["alice", "bob"])
    #expect(try fixture.succeed("check", "--json").json() == json(#"{"ok": true, "problems": []}"#))

    // With nobody else holding it, restore needs no --force.
    try fixture.succeed("set", "users/alice", #"{"v": 3}"#)
    try fixture.succeed("restore", backup)
    #expect(try fixture.document("users/alice") == json(#"{"v": 1}"#))
    // A directory that holds no backup is refused, and the database stays.
    let notABackup = fixture.file("empty")
    try FileManager.default.createDirectory(atPath: notABackup, withIntermediateDirectories: false)
    expectFailure(
      try fixture.run("restore", notABackup), status: .dataError, code: "invalidArgument",
      mentioning: ["manifest.json"])
    expectFailure(
      try fixture.run("restore", fixture.file("nowhere")), status: .failure, code: "notFound",
      mentioning: ["nowhere"])
    #expect(try fixture.document("users/alice") == json(#"{"v": 1}"#))
  }

  // MARK: - check

  @Test func checkReportsDamage() throws {
    let fixture = try EndToEndFixture()
    let marker = "CORRUPT-ME-PLEASE-0123456789"
    try fixture.succeed("set", "users/a", #"{"s": "\#(marker)"}"#)
    try fixture.succeed("set", "users/b", #"{"s": "fine"}"#)
    #expect(try fixture.succeed("check", "--json").json() == json(#"{"ok": true, "problems": []}"#))
    let plain = try fixture.succeed("check")
    #expect(plain.lines.count == 1)
    #expect(plain.lines.first?.hasPrefix("ok") == true)

    // A copy with one byte of the document changed, in every copy of it LMDB keeps (old
    // pages, the index entry): the byte after the first, so keys keep their order.
    let damaged = EndToEndDatabase(fixture, "damaged")
    try FileManager.default.copyItem(atPath: fixture.database, toPath: damaged.path)
    try #require(
      try damageEveryCopy(of: marker, inFile: damaged.path + "/data.mdb") > 0, "the document's bytes are in data.mdb")

    let report = try damaged.run("check", "--json")
    #expect(report.status == 1)
    let result = canonical(try JSONParser.parse(report.stdout))
    #expect(result["ok"] == .bool(false))
    guard case .array(let problems) = result["problems"] else {
      Issue.record("no problems array: \(report.stdout)")
      return
    }
    #expect(!problems.isEmpty)
    #expect(problems.contains { string($0)?.contains("users/a") == true })
    #expect(report.stderr.hasPrefix("hearth: ") && report.stderr.hasSuffix(" (dataLoss)\n"))
    #expect(report.stderr.filter { $0 == "\n" }.count == 1)
    let text = try damaged.run("check")
    #expect(text.status == 1)
    #expect(text.lines.contains { $0.contains("users/a") })
    // The damaged document fails to read; the original database is untouched.
    #expect(try damaged.run("get", "users/a").status == 1)
    #expect(try fixture.succeed("check", "--json").json() == json(#"{"ok": true, "problems": []}"#))
  }

  // MARK: - help and exit

  @Test func helpDescribesEveryCommandWithExamples() throws {
    let fixture = try EndToEndFixture()
    let overview = try fixture.hearth(["--help"])
    #expect(overview.status == 0)
    #expect(try fixture.hearth(["help"]).stdout == overview.stdout)
    // The commands section: one command per line up to the first blank line.
    let lines = overview.lines
    let start = try #require(lines.firstIndex(of: "commands:"))
    let listed = lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap {
      $0.split(separator: " ").first.map(String.init)
    }
    let covered = [
      "ls", "tree", "get", "set", "update", "add", "rm", "query", "explain", "watch", "export", "import", "backup",
      "restore", "check", "help", "exit",
    ]
    #expect(Set(listed).isSuperset(of: covered), "\(listed)")
    #expect(Set(listed).count == listed.count)

    for command in listed {
      let page = try fixture.hearth(["help", command])
      #expect(page.status == 0, "\(command): \(page.stderr)")
      #expect(page.lines.first?.hasPrefix("usage: \(command)") == true, "\(command)")
      let examples = page.lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("hearth ") }
      #expect(!examples.isEmpty, "help \(command) has an example")
      // Each example runs a command hearth has (after any global options).
      for example in examples {
        var words = example.split(separator: " ").dropFirst().map(String.init)
        while let first = words.first, first.hasPrefix("--") {
          words.removeFirst(first == "--db" ? 2 : 1)
        }
        #expect(words.first.map(listed.contains) == true, "help \(command): \(example)")
      }
      // `hearth COMMAND --help` shows the same page.
      #expect(try fixture.hearth([command, "--help"]).stdout == page.stdout, "\(command) --help")
    }
    expectFailure(
      try fixture.hearth(["help", "sett"]), status: .usage, code: "usage", mentioning: ["did you mean 'set'?"])
    #expect(!FileManager.default.fileExists(atPath: fixture.file("default.hearth")))
  }

  @Test func theInteractiveShellReadsCommandsFromStandardInput() throws {
    let fixture = try EndToEndFixture()
    let session = try fixture.run(
      stdin: """
        set users/alice '{"name": "Alice", "age": 30}'
        # a comment
        get users/alice
        query users where age > 18 --ids
        query users where name == "Alice" count
        lss
        set users/bob '{
          "name": "Bob"
        }'
        ls users
        exit 3
        get users/alice
        """)
    #expect(session.status == 3, "\(session.stderr)")
    #expect(session.lines.count == 5, "\(session.stdout)")
    let output = session.lines
    if output.count == 5 {
      #expect(canonical(try JSONParser.parse(output[0])) == (try json(#"{"name": "Alice", "age": 30}"#)))
      #expect(output[1] == "users/alice")
      #expect(canonical(try JSONParser.parse(output[2])) == (try json(#"{"count": 1}"#)))
      #expect(Array(output[3...]) == ["alice", "bob"])
    }
    // No prompts off a terminal; the failed command reported, the shell going on.
    #expect(session.stderr == "hearth: unknown command 'lss'; did you mean 'ls'? (usage)\n")

    // Without exit, the end of input ends the shell with the last command's status.
    #expect(try fixture.run(stdin: "get users/nobody\n").status == 1)
    #expect(try fixture.run(stdin: "get users/alice\n").status == 0)
    // exit as a command of its own.
    #expect(try fixture.run("exit", "3").status == 3)
    #expect(try fixture.run("exit").status == 0)
    expectFailure(try fixture.run("exit", "300"), status: .usage, code: "usage")
  }

  // MARK: - Errors

  @Test func unknownCommandsSuggestTheNearestOne() throws {
    let fixture = try EndToEndFixture()
    let typo = try fixture.run("lss")
    #expect(typo.status == 64)
    #expect(typo.stdout.isEmpty)
    #expect(typo.stderr == "hearth: unknown command 'lss'; did you mean 'ls'? (usage)\n")
    expectFailure(
      try fixture.run("qeury", "users"), status: .usage, code: "usage", mentioning: ["did you mean 'query'?"])
    expectFailure(
      try fixture.run("delete", "users/a"), status: .usage, code: "usage", mentioning: ["did you mean 'rm'?"])
    expectFailure(try fixture.run("ls", "--limt", "2"), status: .usage, code: "usage", mentioning: ["'--limit'"])
    expectFailure(try fixture.hearth(["--jsn", "ls"]), status: .usage, code: "usage", mentioning: ["'--json'"])
    #expect(!FileManager.default.fileExists(atPath: fixture.database))
  }

  @Test func aQuerySyntaxErrorPointsAtItsColumn() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/alice", #"{"age": 30}"#)

    /// Runs `COMMAND users CLAUSES` and checks the failure: exit 65, the message naming
    /// the column of `token` (its first occurrence; `nil`: the end of the text), the
    /// clauses on the next line and a caret under that column on the one after.
    func expectCaret(
      _ clauses: [String], under token: String?, command: String = "query",
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let text = clauses.joined(separator: " ")
      let outcome = try fixture.hearth(["--db", fixture.database, command, "users"] + clauses)
      #expect(outcome.status == 65, "\(outcome.stderr)", sourceLocation: sourceLocation)
      #expect(outcome.stdout.isEmpty, sourceLocation: sourceLocation)
      var column = text.count  // from 0; one past the end for a missing end
      if let token {
        let range = try #require(text.range(of: token), sourceLocation: sourceLocation)
        column = text.distance(from: text.startIndex, to: range.lowerBound)
      }
      var lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(lines.last == "", sourceLocation: sourceLocation)
      lines.removeLast()
      try #require(lines.count == 3, "\(outcome.stderr)", sourceLocation: sourceLocation)
      #expect(
        lines[0].hasPrefix("hearth: query syntax error at column \(column + 1): "), "\(lines[0])",
        sourceLocation: sourceLocation)
      #expect(lines[0].hasSuffix(" (invalidArgument)"), sourceLocation: sourceLocation)
      #expect(lines[1].hasSuffix(text), "\(lines[1])", sourceLocation: sourceLocation)
      let textStart = lines[1].count - text.count
      #expect(
        lines[2].trimmingCharacters(in: .whitespaces) == "^", "\(lines[2])", sourceLocation: sourceLocation)
      let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
      #expect(caret == textStart + column, "\n\(lines[1])\n\(lines[2])", sourceLocation: sourceLocation)
    }

    try expectCaret(["where age >> 18"], under: "> 18")
    try expectCaret(["where", "age", ">=", "18", "order", "by", "age", "limit", "ten"], under: "ten")
    try expectCaret(["where (age > 1 or age < 0"], under: nil)
    try expectCaret(["order age"], under: "age", command: "explain")
    try expectCaret(["where name == \"Alice\" limt 3"], under: "limt")
  }

  @Test func aCollectionPathWhereADocumentIsNeededIsBadInput() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/alice", #"{"age": 30}"#)
    let outcome = try fixture.run("get", "users")
    #expect(outcome.stdout.isEmpty)
    expectFailure(
      outcome, status: .dataError, code: "invalidArgument",
      mentioning: ["users is a collection", "get needs a document path", "users/ID"])
    expectFailure(
      try fixture.run("get", "users/alice/posts"), status: .dataError, code: "invalidArgument",
      mentioning: ["users/alice/posts is a collection"])
    expectFailure(
      try fixture.run("update", "users", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["users is a collection"])
    expectFailure(
      try fixture.run("query", "users/alice"), status: .dataError, code: "invalidArgument",
      mentioning: ["users/alice is a document", "query needs a collection path"])
  }

  @Test func readingCommandsNeverCreateADatabaseAtAMistypedPath() throws {
    let fixture = try EndToEndFixture()
    try fixture.succeed("set", "users/alice", #"{"age": 30}"#)
    let typo = fixture.file("bd")
    let exportFile = fixture.file("export.jsonl")
    let backupDirectory = fixture.file("backup")
    let reads: [[String]] = [
      ["ls"], ["ls", "users"], ["ls", "users/alice"], ["get", "users/alice"], ["get", "users/alice", "--meta"],
      ["query", "users"], ["query", "users", "where age > 1", "count"], ["explain", "users"], ["tree"],
      ["tree", "users"], ["export", exportFile], ["export", "-"], ["check"], ["check", "--json"],
      ["backup", backupDirectory], ["watch", "users", "--changes", "1"], ["watch", "users/alice", "--changes", "1"],
      ["rm", "users/alice"], ["update", "users/alice", #"{"age": 31}"#],
    ]
    for words in reads {
      let outcome = try fixture.hearth(["--db", typo] + words)
      #expect(outcome.status == 1, "\(words): \(outcome.stderr)")
      #expect(outcome.stdout.isEmpty, "\(words)")
      #expect(outcome.stderr == "hearth: no database at \(typo) (notFound)\n", "\(words)")
    }
    #expect(!FileManager.default.fileExists(atPath: typo))
    #expect(!FileManager.default.fileExists(atPath: exportFile))
    #expect(!FileManager.default.fileExists(atPath: backupDirectory))

    // The same through $HEARTH_DATABASE, and with neither: ./default.hearth.
    let viaEnvironment = try fixture.hearth(["get", "users/alice"], environment: ["HEARTH_DATABASE": typo])
    #expect(viaEnvironment.stderr == "hearth: no database at \(typo) (notFound)\n")
    let byDefault = try fixture.hearth(["ls"])
    #expect(byDefault.status == 1)
    #expect(byDefault.stderr == "hearth: no database at ./default.hearth (notFound)\n")
    #expect(!FileManager.default.fileExists(atPath: typo))
    #expect(!FileManager.default.fileExists(atPath: fixture.file("default.hearth")))
    // $HEARTH_DATABASE names the database when --db is not given.
    let named = try fixture.hearth(["get", "users/alice"], environment: ["HEARTH_DATABASE": fixture.database])
    #expect(named.status == 0)
    #expect(try named.json() == json(#"{"age": 30}"#))

    // Bad JSON is bad input (65), and does not create the database either.
    for bad in ["{", #"{"a": }"#, "[1, 2]", #"{"a": 1} x"#, #"{"t": {"$timestamp": "yesterday"}}"#] {
      let outcome = try fixture.hearth(["--db", typo, "set", "users/alice", bad])
      expectFailure(outcome, status: .dataError, code: "invalidArgument", mentioning: ["set"])
    }
    expectFailure(
      try fixture.hearth(["--db", typo, "add", "users", "nope"]), status: .dataError, code: "invalidArgument")
    #expect(!FileManager.default.fileExists(atPath: typo))
    // Also on an existing database, where the document stays as it was.
    expectFailure(try fixture.run("set", "users/alice", "{"), status: .dataError, code: "invalidArgument")
    #expect(try fixture.document("users/alice") == json(#"{"age": 30}"#))

    // A document that is not there: exit 1.
    let missing = try fixture.run("get", "users/nobody")
    #expect(missing.stdout.isEmpty)
    expectFailure(missing, status: .failure, code: "notFound", mentioning: ["no document at users/nobody"])
  }
}

// MARK: - Running hearth

/// A temporary directory for one test, removed afterwards: the database `db` in it
/// (created by the first command that writes) and any files a test puts beside it. The
/// processes run in it, so `./default.hearth` would land there too.
final class EndToEndFixture {
  let directory: String
  let database: String

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)").path
    database = directory + "/db"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// A path in the fixture's directory.
  func file(_ name: String) -> String { directory + "/" + name }

  /// Starts `hearth ARGUMENTS...` (no `--db` added), standard input from `stdin`
  /// (nothing when `nil`).
  func start(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws
    -> RawProcess
  {
    // Standard input from a file, not a pipe: nothing to write to a process that may
    // already have ended.
    var input: FileHandle?
    if let stdin {
      let path = file("stdin-\(UUID().uuidString)")
      try Data(stdin.utf8).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      input = FileHandle(forReadingAtPath: path)
    }
    return try RawProcess(arguments, stdin: input, directory: directory, environment: environment, timeout: 30)
  }

  /// Runs `hearth ARGUMENTS...` to its end.
  func hearth(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws
    -> ShellOutcome
  {
    try start(arguments, stdin: stdin, environment: environment).finish().shellOutcome
  }

  /// Runs `hearth --db DB ARGUMENTS...`.
  func run(_ arguments: String..., stdin: String? = nil) throws -> ShellOutcome {
    try hearth(["--db", database] + arguments, stdin: stdin)
  }

  /// Runs `hearth --db DB ARGUMENTS...`, which must succeed.
  @discardableResult
  func succeed(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> ShellOutcome
  {
    let outcome = try hearth(["--db", database] + arguments, stdin: stdin)
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
    return outcome
  }

  /// `hearth get PATH`, parsed.
  func document(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    try succeed("get", path, sourceLocation: sourceLocation).json(sourceLocation: sourceLocation)
  }
}

/// A second database in a fixture's directory.
struct EndToEndDatabase {
  let fixture: EndToEndFixture
  let path: String

  init(_ fixture: EndToEndFixture, _ name: String) {
    self.fixture = fixture
    path = fixture.file(name)
  }

  func run(_ arguments: String..., stdin: String? = nil) throws -> ShellOutcome {
    try fixture.hearth(["--db", path] + arguments, stdin: stdin)
  }

  @discardableResult
  func succeed(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> ShellOutcome
  {
    let outcome = try fixture.hearth(["--db", path] + arguments, stdin: stdin)
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
    return outcome
  }

  func document(_ documentPath: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    try succeed("get", documentPath, sourceLocation: sourceLocation).json(sourceLocation: sourceLocation)
  }
}

// MARK: - JSON

extension ShellOutcome {
  /// Each line of standard output parsed as JSON, members in canonical order.
  fileprivate func jsonLines(sourceLocation: SourceLocation = #_sourceLocation) throws -> [JSONValue] {
    #expect(status == 0, "stderr: \(stderr)", sourceLocation: sourceLocation)
    return try lines.map { canonical(try JSONParser.parse($0)) }
  }
}

/// The string in `value`, if it is one.
private func string(_ value: JSONValue?) -> String? {
  if case .string(let text) = value { return text }
  return nil
}

/// The member names of an object, sorted.
private func memberNames(_ value: JSONValue) -> [String] {
  guard case .object(let members) = value else { return [] }
  return members.map(\.key).sorted()
}

/// Every `"path"` in a `tree --json` object, at any depth.
private func paths(in value: JSONValue) -> [String] {
  switch value {
  case .array(let elements): return elements.flatMap(paths(in:))
  case .object(let members):
    return members.flatMap { member in
      member.key == "path" ? [string(member.value)].compactMap { $0 } : paths(in: member.value)
    }
  default: return []
  }
}
