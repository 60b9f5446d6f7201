import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

/// `indexes`: list, add, drop and load declared indexes.
@Suite struct IndexesCommandTests {
  /// Posts in the root collection `posts` and in users/alice/posts.
  static func populate(_ shell: ShellFixture) {
    shell.succeed("set", "posts/p1", #"{"ownerId": "alice", "createdAt": 1, "tags": ["swift", "lmdb"], "likes": 3}"#)
    shell.succeed("set", "posts/p2", #"{"ownerId": "alice", "createdAt": 2, "tags": ["swift"], "likes": 5}"#)
    shell.succeed("set", "posts/p3", #"{"ownerId": "bob", "createdAt": 3, "likes": 1}"#)
    shell.succeed(
      "set", "users/alice/posts/p4", #"{"ownerId": "alice", "createdAt": 4, "tags": ["swift"], "likes": 9}"#)
  }

  static let none = #"{"indexes": [], "fieldOverrides": []}"#
  static let ownerByCreated =
    #"{"collectionGroup": "posts", "queryScope": "COLLECTION", "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, "#
    + #"{"fieldPath": "createdAt", "order": "DESCENDING"}]}"#

  /// Runs `query` on the fixture's database opened as production Firestore would
  /// (`Settings.requireIndexes`): it fails without the index it needs.
  static func strictly<T>(_ shell: ShellFixture, _ query: (Database) throws -> T) throws -> T {
    let settings = Settings()
    settings.requireIndexes = true
    return try withDatabase(at: shell.path, settings: settings) { database in
      return try query(database)
    }
  }

  /// Alice's root posts, newest first: needs posts (ownerId, createdAt desc).
  static func alicesPosts(_ shell: ShellFixture) throws -> [String] {
    try strictly(shell) { database in
      try database.collection("posts").whereField("ownerId", isEqualTo: "alice").order(
        by: "createdAt", descending: true
      )
      .getDocuments().documents.map(\.documentID)
    }
  }

  static func indexEntries(_ shell: ShellFixture) throws -> Int {
    try shell.withDatabase { try $0.stats().indexEntries }
  }

  static func expectSound(_ shell: ShellFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(
      try shell.succeed("check", "--json").json() == json(#"{"ok": true, "problems": []}"#),
      sourceLocation: sourceLocation)
  }

  @Test func addListsTheIndexServesTheQueryAndDropRemovesIt() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    #expect(try shell.succeed("indexes").json() == json(Self.none))
    #expect(throws: HearthError.self) { try Self.alicesPosts(shell) }
    let withoutIndex = try Self.indexEntries(shell)

    let added = shell.succeed("indexes", "add", "posts", "ownerId,", "createdAt", "desc")
    #expect(added.stdout == "declared index posts ownerId asc, createdAt desc\n")
    #expect(
      try shell.succeed("indexes").json() == json(#"{"indexes": [\#(Self.ownerByCreated)], "fieldOverrides": []}"#))
    #expect(try Self.alicesPosts(shell) == ["p2", "p1"])
    let plan = try shell.succeed("explain", "posts", #"where ownerId == "alice" order by createdAt desc"#).json()
    #expect(plan["plan"] == .string("composite index on posts (ownerId ASCENDING, createdAt DESCENDING)"))
    // Every collection with the ID posts is in it: p1, p2, p3 and users/alice/posts/p4.
    #expect(try Self.indexEntries(shell) == withoutIndex + 4)
    try Self.expectSound(shell)
    // Declared again (one word or several): left as it is.
    #expect(
      shell.succeed("indexes", "add", "posts ownerId ASC, createdAt descending").stdout
        == "index posts ownerId asc, createdAt desc was declared already\n")

    let dropped = shell.succeed("indexes", "drop", "posts", "ownerId,", "createdAt", "desc")
    #expect(dropped.stdout == "dropped index posts ownerId asc, createdAt desc and its 4 index entries\n")
    #expect(try shell.succeed("indexes", "--json").json() == json(Self.none))
    #expect(try Self.indexEntries(shell) == withoutIndex)
    let error = try #require(throws: HearthError.self) { try Self.alicesPosts(shell) }
    #expect(error.code == .failedPrecondition)
    try Self.expectSound(shell)
    // Declared again after the drop, it fills afresh.
    shell.succeed("indexes", "add", "posts", "ownerId,", "createdAt", "desc")
    #expect(try Self.alicesPosts(shell) == ["p2", "p1"])
    try Self.expectSound(shell)
  }

  @Test func groupScopeContainsAndDropByNumber() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    #expect(
      shell.succeed("indexes", "add", "group:posts", "tags", "contains,", "likes", "desc").stdout
        == "declared index group:posts tags contains, likes desc\n")
    shell.succeed("indexes", "add", "posts", "ownerId,", "likes")
    let listing = try shell.succeed("indexes").json()
    guard case .array(let entries)? = listing["indexes"] else { throw CocoaError(.coderReadCorrupt) }
    #expect(entries.count == 2)
    #expect(
      entries.first
        == (try json(
          #"{"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP", "fields": [{"fieldPath": "tags", "#
            + #""arrayConfig": "CONTAINS"}, {"fieldPath": "likes", "order": "DESCENDING"}]}"#)))
    let swiftPosts = try Self.strictly(shell) { database in
      try database.collectionGroup("posts").whereField("tags", arrayContains: "swift").order(
        by: "likes", descending: true
      )
      .getDocuments().documents.map(\.reference.path)
    }
    #expect(swiftPosts == ["users/alice/posts/p4", "posts/p2", "posts/p1"])

    #expect(
      shell.succeed("indexes", "drop", "2").stdout
        == "dropped index posts ownerId asc, likes asc and its 4 index entries\n")
    expectFailure(
      shell.run("indexes", "drop", "2"), status: .failure, code: "notFound",
      mentioning: ["no index number 2: the listing has 1 index"])
    expectFailure(shell.run("indexes", "drop", "0"), status: .failure, code: "notFound")
    // swift: p1, p2, p4; lmdb: p1.
    #expect(shell.succeed("indexes", "drop", "1").stdout.hasSuffix("and its 4 index entries\n"))
    #expect(try shell.succeed("indexes").json() == json(Self.none))
    try Self.expectSound(shell)
  }

  @Test func loadDeclaresTheIndexesOfAFile() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let file = shell.path + "-firestore.indexes.json"
    defer { try? FileManager.default.removeItem(atPath: file) }
    let content =
      #"{"indexes": [\#(Self.ownerByCreated)], "fieldOverrides": [{"collectionGroup": "posts", "fieldPath": "likes", "#
      + #""indexes": [{"order": "ASCENDING", "queryScope": "COLLECTION"}, "#
      + #"{"order": "DESCENDING", "queryScope": "COLLECTION_GROUP"}]}]}"#
    try content.write(toFile: file, atomically: true, encoding: .utf8)

    #expect(shell.succeed("indexes", "load", file).stdout == "\(file): 2 new indexes declared, 2 in all\n")
    #expect(try shell.succeed("indexes").json() == json(content))
    #expect(try Self.alicesPosts(shell) == ["p2", "p1"])
    let mostLiked = try Self.strictly(shell) { database in
      try database.collectionGroup("posts").order(by: "likes", descending: true).limit(to: 1).getDocuments()
        .documents.map(\.reference.path)
    }
    #expect(mostLiked == ["users/alice/posts/p4"])
    #expect(try shell.withDatabase { try $0.stats().declaredIndexes } == 2)
    try Self.expectSound(shell)
    #expect(shell.succeed("indexes", "load", file).stdout == "\(file): 0 new indexes declared, 2 in all\n")

    let more =
      #"{"indexes": [{"collectionGroup": "users", "fields": [{"fieldPath": "a", "order": "ASCENDING"}, "#
      + #"{"fieldPath": "b", "order": "ASCENDING"}]}]}"#
    let fromStandardInput = shell.run("indexes", "load", "-", stdin: more)
    #expect(fromStandardInput.status == 0, "\(fromStandardInput.stderr)")
    #expect(fromStandardInput.stdout == "standard input: 1 new index declared, 3 in all\n")
    try Self.expectSound(shell)
  }

  /// The JSON a `requireIndexes` error holds is what `indexes add` takes; so is one entry.
  @Test func addTakesJSON() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let error = try #require(throws: HearthError.self) {
      try Self.strictly(shell) { database in
        try database.collection("posts").whereField("ownerId", isEqualTo: "alice").order(by: "likes").getDocuments()
      }
    }
    let file = String(error.message[try #require(error.message.firstIndex(of: "{"))...])
    #expect(shell.succeed("indexes", "add", file).stdout == "declared index posts ownerId asc, likes asc\n")
    #expect(
      try Self.strictly(shell) { database in
        try database.collection("posts").whereField("ownerId", isEqualTo: "alice").order(by: "likes").getDocuments()
          .count
      } == 2)

    #expect(
      shell.succeed("indexes", "add", Self.ownerByCreated).stdout
        == "declared index posts ownerId asc, createdAt desc\n")
    #expect(try Self.alicesPosts(shell) == ["p2", "p1"])
    #expect(shell.succeed("indexes", "drop", Self.ownerByCreated).stdout.hasPrefix("dropped index posts ownerId asc"))
    let fromStandardInput = shell.run("indexes", "drop", "-", stdin: file)
    #expect(fromStandardInput.status == 0, "\(fromStandardInput.stderr)")
    #expect(fromStandardInput.stdout == "dropped index posts ownerId asc, likes asc and its 4 index entries\n")
    #expect(try shell.succeed("indexes").json() == json(Self.none))
    try Self.expectSound(shell)
  }

  @Test func fieldNamesWithSpecialCharactersGoInBackticks() throws {
    let shell = ShellFixture()
    shell.succeed("set", "people/ada", #"{"first name": "Ada", "a.b": {"c": 1}, "age": 36}"#)
    shell.succeed("set", "people/bob", #"{"first name": "Bob", "age": 40}"#)
    #expect(
      shell.succeed("indexes", "add", "people", "`first name`,", "age", "desc").stdout
        == "declared index people `first name` asc, age desc\n")
    #expect(
      shell.succeed("indexes", "add", "people", "`a.b`.c,", "age").stdout
        == "declared index people `a.b`.c asc, age asc\n")
    let listing = try shell.succeed("indexes").json()
    guard case .array(let entries)? = listing["indexes"] else { throw CocoaError(.coderReadCorrupt) }
    let paths = entries.map { entry -> [JSONValue?] in
      guard case .array(let fields)? = entry["fields"] else { return [] }
      return fields.map { $0["fieldPath"] }
    }
    #expect(paths == [[.string("`first name`"), .string("age")], [.string("`a.b`.c"), .string("age")]])
    // Each run opens the database afresh and reads the stored declarations back.
    try Self.expectSound(shell)
    let found = try Self.strictly(shell) { database in
      try database.collection("people").whereField(FieldPath(["first name"]), isEqualTo: "Ada")
        .order(by: "age", descending: true).getDocuments().documents.map(\.documentID)
    }
    #expect(found == ["ada"])
    #expect(
      shell.succeed("indexes", "drop", "people `a.b`.c, age").stdout
        == "dropped index people `a.b`.c asc, age asc and its 1 index entry\n")
    #expect(
      shell.succeed("indexes", "drop", "1").stdout
        == "dropped index people `first name` asc, age desc and its 2 index entries\n")
    try Self.expectSound(shell)
  }

  @Test func badInputExits65AndChangesNothing() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    shell.succeed("indexes", "add", "posts", "ownerId,", "createdAt", "desc")
    let before = shell.succeed("indexes", "--json").stdout
    let entries = try Self.indexEntries(shell)
    let badFile = shell.path + "-bad.json"
    defer { try? FileManager.default.removeItem(atPath: badFile) }
    try #"{"indexes": [{"collectionGroup": "posts", "fields": [{"fieldPath": "a"}]}]}"#.write(
      toFile: badFile, atomically: true, encoding: .utf8)

    let cases: [(arguments: [String], fragment: String)] = [
      (["add", "posts", "ownerId", "sideways"], "expected asc, desc, contains or ',' after ownerId, found 'sideways'"),
      (["add", "posts", "ownerId,"], "expected a field name after 'ownerId,'"),
      (["add", "posts"], "expected a field name after 'posts'"),
      (["add", "group:", "a"], "expected a collection ID first"),
      (["add", "users/alice/posts", "a,", "b"], "not a path: write posts"),
      (["add", "posts", "likes", "desc"], "group:posts likes desc"),
      (["add", "posts", "a", "contains,", "b", "contains"], "at most one contains field"),
      (["add", "posts", "`a,", "b"], "the backtick at column 7 is not closed"),
      (["add", "posts", "createdAt:desc,", "b"], "found ':'"),
      (["add", "posts", #""first name","#, "b"], "field names with special characters go in backticks"),
      (["add", "{"], "Invalid JSON at line 1, column 2"),
      (["add", #"{"collectionGroup": "posts", "fields": [{"fieldPath": "a", "order": "UP"}]}"#], "needs \"order\""),
      (["add", #"{"indexes": [], "extra": 1}"#], "unknown member 'extra'"),
      (["add", #"{"collectionGroup": "posts", "fields": [{"fieldPath": "a..b", "order": "ASCENDING"}]}"#], "a..b"),
      (["drop", "posts", "ownerId", "sideways"], "found 'sideways'"),
      (["load", badFile], "\(badFile): Invalid index file: indexes[0].fields[0] needs"),
    ]
    for (arguments, fragment) in cases {
      let outcome = shell.run(arguments: ["--db", shell.path, "indexes"] + arguments)
      expectFailure(outcome, status: .dataError, code: "invalidArgument", mentioning: [fragment])
      #expect(shell.succeed("indexes", "--json").stdout == before, "\(arguments)")
    }
    #expect(try Self.indexEntries(shell) == entries)

    expectFailure(
      shell.run("indexes", "remove", "1"), status: .usage, code: "usage",
      mentioning: ["unknown action 'remove' for indexes", "did you mean 'drop'?"])
    expectFailure(shell.run("indexes", "list"), status: .usage, code: "usage", mentioning: ["did you mean 'indexes'?"])
    expectFailure(shell.run("indexes", "add"), status: .usage, code: "usage", mentioning: ["missing SPEC"])
    expectFailure(shell.run("indexes", "drop"), status: .usage, code: "usage", mentioning: ["missing NAME"])
    expectFailure(shell.run("indexes", "load"), status: .usage, code: "usage", mentioning: ["missing FILE"])
    expectFailure(shell.run("indexes", "load", "a", "b"), status: .usage, code: "usage", mentioning: ["'b'"])
    expectFailure(
      shell.run("indexes", "drop", "posts", "ownerId,", "likes"), status: .failure, code: "notFound",
      mentioning: ["no declared index posts ownerId asc, likes asc"])
    expectFailure(
      shell.run("indexes", "load", "/nonexistent/firestore.indexes.json"), status: .failure, code: "notFound",
      mentioning: ["/nonexistent/firestore.indexes.json"])
    #expect(shell.succeed("indexes", "--json").stdout == before)
    try Self.expectSound(shell)
  }

  @Test func aMissingDatabaseIsNeverCreatedByBadInputOrByReading() throws {
    let shell = ShellFixture()
    expectFailure(shell.run("indexes"), status: .failure, code: "notFound", mentioning: ["no database at"])
    expectFailure(shell.run("indexes", "drop", "1"), status: .failure, code: "notFound", mentioning: ["no database at"])
    expectFailure(
      shell.run("indexes", "drop", "posts", "a,", "b"), status: .failure, code: "notFound",
      mentioning: ["no database at"])
    expectFailure(shell.run("indexes", "add", "posts", "a", "sideways"), status: .dataError, code: "invalidArgument")
    expectFailure(shell.run("indexes", "add", "{"), status: .dataError, code: "invalidArgument")
    expectFailure(
      shell.run("indexes", "load", "-", stdin: #"{"indexes": 1}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["standard input: Invalid index file"])
    #expect(!shell.databaseExists)
    // Declaring creates the database, as set does: indexes may come before the data.
    shell.succeed("indexes", "add", "posts", "a,", "b")
    #expect(shell.databaseExists)
  }

  @Test func worksInTheInteractiveShell() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let outcome = shell.run(
      arguments: ["--db", shell.path],
      stdin: """
        indexes add posts ownerId, createdAt desc
        indexes add group:posts `tags` contains, likes
        indexes --json
        indexes drop 1
        indexes drop group:posts tags contains, likes asc
        exit

        """)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    try #require(outcome.lines.count == 5)
    #expect(outcome.lines[0] == "declared index posts ownerId asc, createdAt desc")
    #expect(outcome.lines[1] == "declared index group:posts tags contains, likes asc")
    guard case .array(let entries)? = try JSONParser.parse(outcome.lines[2])["indexes"] else {
      throw CocoaError(.coderReadCorrupt)
    }
    #expect(entries.count == 2)
    #expect(outcome.lines[3].hasPrefix("dropped index posts ownerId asc, createdAt desc and its"))
    #expect(outcome.lines[4].hasPrefix("dropped index group:posts tags contains, likes asc and its"))
    try Self.expectSound(shell)
  }

  @Test func helpExamplesRun() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let file = shell.path + "-firestore.indexes.json"
    defer { try? FileManager.default.removeItem(atPath: file) }
    try #"{"indexes": [\#(Self.ownerByCreated)]}"#.write(toFile: file, atomically: true, encoding: .utf8)
    for example in Command.indexes.examples {
      let words = try Tokenizer.split(example).map { $0 == "firestore.indexes.json" ? file : $0 }
      let outcome = shell.run(arguments: ["--db", shell.path] + words)
      #expect(outcome.status == 0, "hearth \(example): \(outcome.stderr)")
    }
    #expect(
      try shell.succeed("indexes").json() == json(#"{"indexes": [\#(Self.ownerByCreated)], "fieldOverrides": []}"#))
    let help = shell.succeed("help", "indexes").stdout
    #expect(help.contains("hearth indexes add posts ownerId, createdAt desc"))
    #expect(help.contains("drop NAME"))
    #expect(shell.succeed("--help").stdout.contains("indexes [add SPEC | drop NAME | load FILE]"))
    try Self.expectSound(shell)
  }

  /// `hearth indexes` as a process: exit statuses and the one-line errors.
  @Test(
    .enabled(
      if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
  func runsAsAProcess() throws {
    let binary = HearthBinaryTests()
    let shell = ShellFixture()
    let missing = try binary.run(["--db", shell.path, "indexes"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "hearth: no database at \(shell.path) (notFound)\n")
    #expect(!shell.databaseExists)

    Self.populate(shell)
    let added = try binary.run(["--db", shell.path, "indexes", "add", "posts", "ownerId,", "createdAt", "desc"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout == "declared index posts ownerId asc, createdAt desc\n")
    let listed = try binary.run(["--db", shell.path, "indexes"])
    #expect(
      try canonical(JSONParser.parse(listed.stdout))
        == json(#"{"indexes": [\#(Self.ownerByCreated)], "fieldOverrides": []}"#))
    #expect(try Self.alicesPosts(shell) == ["p2", "p1"])

    let bad = try binary.run(["--db", shell.path, "indexes", "add", "posts", "ownerId", "sideways"])
    #expect(bad.status == 65)
    #expect(bad.stderr.hasPrefix("hearth: invalid index 'posts ownerId sideways': "))
    #expect(bad.stderr.hasSuffix(" (invalidArgument)\n"))
    #expect(bad.stderr.filter { $0 == "\n" }.count == 1)

    let dropped = try binary.run(["--db", shell.path, "indexes", "drop", "1"])
    #expect(dropped.status == 0, "\(dropped.stderr)")
    #expect(dropped.stdout == "dropped index posts ownerId asc, createdAt desc and its 4 index entries\n")
    let check = try binary.run(["--db", shell.path, "check", "--json"])
    #expect(check.status == 0)
    #expect(try canonical(JSONParser.parse(check.stdout)) == json(#"{"ok": true, "problems": []}"#))
  }
}
