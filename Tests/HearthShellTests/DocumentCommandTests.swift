import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

/// `get`, `set`, `update`, `add` and `rm`.
@Suite struct DocumentCommandTests {
  static let everyType = #"""
    {"name": "Alice", "age": 30, "score": 2.0, "ratio": 0.1, "active": true, "nothing": null,
     "joined": {"$timestamp": "2026-11-29T10:00:00.123456Z"}, "friend": {"$ref": "users/bob"},
     "where": {"$geo": [40.4, -3.7]}, "avatar": {"$bytes": "AAEA/w=="}, "nan": {"$double": "NaN"},
     "inf": {"$double": "Infinity"}, "ninf": {"$double": "-Infinity"}, "whole": {"$double": 7},
     "negzero": -0.0, "max": 9223372036854775807, "min": -9223372036854775808, "exact": 9007199254740993,
     "tags": ["a", "b", 1], "address": {"city": "Madrid", "geo": {"$geo": [0.5, -0.25]}},
     "lit": {"$literal": {"$x": {"$timestamp": "2026-01-01T00:00:00Z"}}}, "empty": {}, "none": [],
     "a.b": 1, "`tick`": 2, "ключ": "значение"}
    """#

  @Test func setThenGetGivesTheSameJSON() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", Self.everyType)
    let output = try shell.succeed("get", "users/alice").json()
    var expected = try json(Self.everyType)
    // The whole-number double is written back in the plain form, which reads the same.
    expected = try json(Self.everyType.replacingOccurrences(of: #"{"$double": 7}"#, with: "7.0"))
    #expect(output == expected)
  }

  @Test func setStoresFirestoreTypes() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", Self.everyType)
    try shell.withDatabase { database in
      let snapshot = try database.document("users/alice").getDocument()
      #expect(snapshot.get("age") as? Int64 == 30)
      #expect(snapshot.get("score") as? Double == 2.0)
      #expect(snapshot.get("whole") as? Double == 7.0)
      #expect((snapshot.get("negzero") as? Double)?.sign == .minus)
      #expect((snapshot.get("nan") as? Double)?.isNaN == true)
      #expect(snapshot.get("exact") as? Int64 == 9_007_199_254_740_993)
      #expect(snapshot.get("joined") as? Timestamp == Timestamp(seconds: 1_795_946_400, nanoseconds: 123_456_000))
      #expect((snapshot.get("friend") as? DocumentReference)?.path == "users/bob")
      #expect(snapshot.get("where") as? GeoPoint == GeoPoint(latitude: 40.4, longitude: -3.7))
      #expect(snapshot.get("avatar") as? Data == Data([0, 1, 0, 255]))
      let literal = snapshot.data()?["lit"] as? [String: Any]
      #expect(literal?["$x"] as? Timestamp == Timestamp(seconds: 1_767_225_600, nanoseconds: 0))
      #expect(snapshot.data()?["a.b"] as? Int64 == 1)
    }
  }

  /// The promise of docs/shell.md: `get` output can be fed back to `set` unchanged.
  @Test(arguments: [false, true])
  func getOutputFedBackIntoSetGivesTheIdenticalDocument(terminal: Bool) throws {
    let shell = ShellFixture()
    try shell.withDatabase { database in
      try database.document("users/alice").setData([
        "nan": Double.nan, "negzero": -0.0, "inf": -Double.infinity, "min": Int64.min, "max": Int64.max,
        "tiny": Double.leastNonzeroMagnitude, "third": 1.0 / 3, "whole": 2.0, "int": 2,
        "bytes": Data([0, 0, 0]), "time": Timestamp(seconds: 1, nanoseconds: 1000),
        "ref": database.document("a/b/c/d"), "geo": GeoPoint(latitude: -0.0, longitude: 180),
        "nested": ["$only": ["deep": [1, "two", ["$ref": "not a tag"]]]], "text": "line\nbreak \u{1B}[31m \"q\"",
        "empty": [String: Any](), "list": [Any](),
      ])
    }
    let first = shell.run("get", "users/alice", terminal: terminal)
    #expect(first.status == 0, "\(first.stderr)")
    let copied = shell.run("set", "users/copy", withoutColors(first.stdout))
    #expect(copied.status == 0, "\(copied.stderr)")
    let second = shell.run("get", "users/copy", terminal: terminal)
    #expect(second.stdout == first.stdout)
    try shell.withDatabase { database in
      let original = try database.document("users/alice").getDocument()
      let copy = try database.document("users/copy").getDocument()
      let originalData = try #require(original.data())
      let copyData = try #require(copy.data())
      #expect(ExtendedJSON.string(from: originalData) == ExtendedJSON.string(from: copyData))
      #expect((copy.get("negzero") as? Double)?.sign == .minus)
      #expect(copy.get("whole") as? Double == 2.0)
      #expect(copy.get("int") as? Int64 == 2)
    }
  }

  @Test func getWithMetaWrapsTheFields() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"name": "Alice"}"#)
    let outcome = shell.succeed("get", "users/alice", "--meta")
    guard case .object(let members) = try JSONParser.parse(outcome.stdout) else {
      Issue.record("not an object: \(outcome.stdout)")
      return
    }
    #expect(members.map(\.key) == ["path", "createTime", "updateTime", "fields"])
    #expect(members[0].value == .string("users/alice"))
    #expect(members[3].value == .object([("name", .string("Alice"))]))
    for member in members[1...2] {
      guard case .string(let text) = member.value else {
        Issue.record("\(member.key) is not a string")
        continue
      }
      #expect(RFC3339.parse(text) != nil, "\(text)")
    }
  }

  @Test func getOfAMissingDocumentFails() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice/posts/p1", #"{"a": 1}"#)
    expectFailure(
      shell.run("get", "users/bob"), status: .failure, code: "notFound", mentioning: ["no document at users/bob"])
    expectFailure(
      shell.run("get", "users/alice"), status: .failure, code: "notFound", mentioning: ["it has subcollections: posts"])
  }

  @Test func setReplacesAndMergeMerges() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"name": "Alice", "address": {"city": "Madrid", "zip": "28001"}}"#)
    shell.succeed("set", "users/alice", #"{"address": {"city": "Lyon"}, "age": 3}"#, "--merge")
    #expect(
      try shell.succeed("get", "users/alice").json()
        == json(#"{"name": "Alice", "age": 3, "address": {"city": "Lyon", "zip": "28001"}}"#))
    shell.succeed("set", "users/alice", #"{"only": true}"#)
    #expect(try shell.succeed("get", "users/alice").json() == json(#"{"only": true}"#))
  }

  @Test func setReadsJSONFromStandardInput() throws {
    let shell = ShellFixture()
    let outcome = shell.run("set", "users/alice", "-", stdin: "{\n  \"name\": \"From stdin\"\n}\n")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(try shell.succeed("get", "users/alice").json() == json(#"{"name": "From stdin"}"#))
  }

  @Test func updateTakesFieldPaths() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"name": "Alice", "address": {"city": "Madrid", "zip": "28001"}}"#)
    shell.succeed("update", "users/alice", #"{"address.city": "Lyon", "age": 31}"#)
    #expect(
      try shell.succeed("get", "users/alice").json()
        == json(#"{"name": "Alice", "age": 31, "address": {"city": "Lyon", "zip": "28001"}}"#))
  }

  @Test func updateKeysMayQuoteNamesWithBackticks() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"a.b": {"c": 1}, "a": {"b": 2}}"#)
    shell.succeed("update", "users/alice", #"{"`a.b`.c": 10, "`x\\`y`": true}"#)
    #expect(try shell.succeed("get", "users/alice").json() == json(#"{"a.b": {"c": 10}, "a": {"b": 2}, "x`y": true}"#))
    expectFailure(
      shell.run("update", "users/alice", #"{"`a.b": 1}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["unclosed backtick"])
  }

  @Test func updateOfAMissingDocumentFailsWithoutCreatingAnything() throws {
    let shell = ShellFixture()
    expectFailure(
      shell.run("update", "users/alice", #"{"a": 1}"#), status: .failure, code: "notFound",
      mentioning: ["no database at"])
    #expect(!shell.databaseExists)
    shell.succeed("set", "users/bob", #"{"a": 1}"#)
    expectFailure(
      shell.run("update", "users/alice", #"{"a": 1}"#), status: .failure, code: "notFound",
      mentioning: ["no document at users/alice", "use set"])
  }

  @Test func addPrintsTheNewPath() throws {
    let shell = ShellFixture()
    let outcome = shell.succeed("add", "users/alice/posts", #"{"title": "Hi"}"#)
    #expect(outcome.lines.count == 1)
    let path = try #require(outcome.lines.first)
    #expect(path.hasPrefix("users/alice/posts/"))
    #expect(path.split(separator: "/").last?.count == 20)
    #expect(try shell.succeed("get", path).json() == json(#"{"title": "Hi"}"#))
  }

  @Test func rmDeletesDocumentsAndTrees() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"a": 1}"#)
    shell.succeed("set", "users/alice/posts/p1", #"{"a": 1}"#)
    shell.succeed("set", "users/bob", #"{"a": 1}"#)

    // A document alone keeps its subcollections, which now hang off a missing document.
    shell.succeed("rm", "users/alice")
    expectFailure(shell.run("get", "users/alice"), status: .failure, code: "notFound")
    #expect(shell.succeed("ls", "users").lines == ["alice", "bob"])
    expectFailure(
      shell.run("rm", "users/alice"), status: .failure, code: "notFound",
      mentioning: ["only subcollections (posts)", "--recursive"])
    shell.succeed("rm", "users/alice", "--recursive")
    #expect(shell.succeed("ls", "users").lines == ["bob"])

    // Nothing to delete: an error, unless --force.
    expectFailure(
      shell.run("rm", "users/alice"), status: .failure, code: "notFound", mentioning: ["no document at users/alice"])
    shell.succeed("rm", "users/alice", "--force")
    shell.succeed("rm", "users/alice", "--recursive", "--force")

    // A collection needs --recursive.
    expectFailure(
      shell.run("rm", "users"), status: .usage, code: "usage", mentioning: ["users is a collection", "--recursive"])
    shell.succeed("rm", "users", "--recursive")
    #expect(shell.succeed("ls").lines.isEmpty)
    expectFailure(shell.run("rm", "users", "--recursive"), status: .failure, code: "notFound")
    shell.succeed("rm", "users", "--recursive", "--force")
  }

  @Test func rmOfAMissingDatabaseDoesNotCreateIt() {
    let shell = ShellFixture()
    expectFailure(
      shell.run("rm", "users/alice", "--force"), status: .failure, code: "notFound", mentioning: ["no database at"])
    #expect(!shell.databaseExists)
  }

  @Test func invalidDocumentDataIsBadInput() {
    let shell = ShellFixture()
    expectFailure(
      shell.run("set", "users/alice", #"{"a": [[1]]}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["Nested arrays"])
    expectFailure(
      shell.run("set", "users/alice", #"{"__name__": 1}"#), status: .dataError, code: "invalidArgument")
    expectFailure(
      shell.run("set", "users/__x__", #"{"a": 1}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["reserved"])
  }
}
