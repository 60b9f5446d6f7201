import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

/// `ls` and `tree`.
@Suite struct BrowseCommandTests {
  /// users/{alice, bob, carol (missing, with posts)}, alice/posts/p1, products/x.
  func makeFixture() throws -> ShellFixture {
    let shell = ShellFixture()
    try shell.withDatabase { database in
      try database.document("users/alice").setData(["name": "Alice"])
      try database.document("users/bob").setData(["name": "Bob"])
      try database.document("users/alice/posts/p1").setData(["title": "Hi"])
      try database.document("users/carol/posts/p2").setData(["title": "Yo"])
      try database.document("products/x").setData(["price": 1])
    }
    return shell
  }

  @Test func lsListsRootCollectionsDocumentsAndSubcollections() throws {
    let shell = try makeFixture()
    #expect(shell.succeed("ls").lines == ["products", "users"])
    #expect(shell.succeed("ls", "/").lines == ["products", "users"])
    // Missing documents that have subcollections are listed, as Firestore's listDocuments does.
    #expect(shell.succeed("ls", "users").lines == ["alice", "bob", "carol"])
    #expect(shell.succeed("ls", "users/alice").lines == ["posts"])
    #expect(shell.succeed("ls", "users/carol").lines == ["posts"])
    #expect(shell.succeed("ls", "users/bob").lines.isEmpty)
    #expect(shell.succeed("ls", "users/alice/posts").lines == ["p1"])
  }

  @Test func lsPagesWithLimitAndAfter() throws {
    let shell = try makeFixture()
    #expect(shell.succeed("ls", "users", "--limit", "2").lines == ["alice", "bob"])
    #expect(shell.succeed("ls", "users", "--limit=2", "--after", "bob").lines == ["carol"])
    #expect(shell.succeed("ls", "users", "--after", "b").lines == ["bob", "carol"])
    #expect(shell.succeed("ls", "users", "--after", "carol").lines.isEmpty)
    #expect(shell.succeed("ls", "--limit", "1").lines == ["products"])
    // The hint for the next page goes to a person (stderr on a terminal), never into the data.
    let outcome = shell.run("ls", "users", "--limit", "1", terminal: true)
    #expect(outcome.lines == ["alice"])
    #expect(outcome.stderr.contains("ls users --limit 1 --after alice"))
    expectFailure(shell.run("ls", "users", "--limit", "0"), status: .usage, code: "usage", mentioning: ["--limit"])
    expectFailure(shell.run("ls", "users", "--limit", "many"), status: .usage, code: "usage")
    expectFailure(shell.run("ls", "users", "--limit"), status: .usage, code: "usage", mentioning: ["needs a value"])
  }

  @Test func lsWithJSONPrintsAnArray() throws {
    let shell = try makeFixture()
    #expect(try shell.succeed("ls", "users", "--json").json() == json(#"["alice", "bob", "carol"]"#))
    #expect(try shell.succeed("--json", "ls").json() == json(#"["products", "users"]"#))
    #expect(try shell.succeed("ls", "users/bob", "--json").json() == json("[]"))
  }

  @Test func lsOfNothingFails() throws {
    let shell = try makeFixture()
    expectFailure(
      shell.run("ls", "nothing"), status: .failure, code: "notFound", mentioning: ["no documents in collection nothing"]
    )
    expectFailure(
      shell.run("ls", "users/zed"), status: .failure, code: "notFound", mentioning: ["no document at users/zed"])
    expectFailure(
      shell.run("ls", "users//x"), status: .dataError, code: "invalidArgument", mentioning: ["empty segments"])
  }

  @Test func treeDrawsTheDatabase() throws {
    let shell = try makeFixture()
    #expect(
      shell.succeed("tree").lines == [
        shell.path,
        "├── products (1 document)",
        "│   └── x",
        "└── users (2 documents)",
        "    ├── alice",
        "    │   └── posts (1 document)",
        "    │       └── p1",
        "    ├── bob",
        "    └── carol (missing)",
        "        └── posts (1 document)",
        "            └── p2",
      ])
    #expect(
      shell.succeed("tree", "--depth", "1").lines == [
        shell.path, "├── products (1 document)", "└── users (2 documents)",
      ])
    #expect(
      shell.succeed("tree", "users", "--depth", "2").lines == [
        "users (2 documents)", "├── alice", "│   └── posts (1 document)", "├── bob", "└── carol (missing)",
        "    └── posts (1 document)",
      ])
    #expect(shell.succeed("tree", "users/alice").lines == ["alice", "└── posts (1 document)", "    └── p1"])
    expectFailure(shell.run("tree", "nothing"), status: .failure, code: "notFound")
    expectFailure(shell.run("tree", "--depth", "-1"), status: .usage, code: "usage")
  }

  @Test func treeWithJSONNestsObjects() throws {
    let shell = try makeFixture()
    let expected = try json(
      #"""
      {"collections": [
        {"id": "products", "path": "products", "documents": 1, "children": [
          {"id": "x", "path": "products/x", "exists": true}]},
        {"id": "users", "path": "users", "documents": 2, "children": [
          {"id": "alice", "path": "users/alice", "exists": true},
          {"id": "bob", "path": "users/bob", "exists": true},
          {"id": "carol", "path": "users/carol", "exists": false}]}]}
      """#)
    #expect(try shell.succeed("tree", "--depth", "2", "--json").json() == expected)
    let full = try shell.succeed("tree", "users/carol", "--json").json()
    #expect(
      try full
        == json(
          #"""
          {"id": "carol", "path": "users/carol", "exists": false, "collections": [
            {"id": "posts", "path": "users/carol/posts", "documents": 1, "children": [
              {"id": "p2", "path": "users/carol/posts/p2", "exists": true, "collections": []}]}]}
          """#))
  }

  @Test func readingNeverCreatesADatabase() {
    let shell = ShellFixture()
    for command in [["ls"], ["ls", "users"], ["tree"], ["get", "users/alice"]] {
      expectFailure(
        shell.run(arguments: ["--db", shell.path] + command), status: .failure, code: "notFound",
        mentioning: ["no database at \(shell.path)"])
    }
    #expect(!shell.databaseExists)
  }

  @Test func readsWhileAnotherHandleHasTheDatabaseOpen() throws {
    let shell = try makeFixture()
    try withDatabase(at: shell.path) { database in
      try database.document("users/dave").setData(["name": "Dave"])
      #expect(shell.succeed("ls", "users").lines == ["alice", "bob", "carol", "dave"])
      shell.succeed("set", "users/erin", #"{"name": "Erin"}"#)
      #expect(try database.document("users/erin").getDocument().exists)
    }
  }
}
