import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

/// `stats`.
@Suite struct StatsCommandTests {
  /// 3 documents in 2 collections: users/alice, users/bob, posts/p1.
  static func populate(_ shell: ShellFixture) {
    shell.succeed("set", "users/alice", #"{"name": "Alice", "age": 31}"#)
    shell.succeed("set", "users/bob", #"{"name": "Bob", "tags": ["a", "b"]}"#)
    shell.succeed("set", "posts/p1", #"{"ownerId": "alice", "createdAt": 1}"#)
  }

  /// The members of `stats --json` that are numbers.
  static func numbers(_ outcome: ShellOutcome, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Int]
  {
    guard case .object(let members) = try outcome.json(sourceLocation: sourceLocation) else { return [:] }
    var numbers: [String: Int] = [:]
    for (key, value) in members { if case .integer(let number) = value { numbers[key] = Int(number) } }
    return numbers
  }

  @Test func countsWhatWasWritten() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let outcome = shell.succeed("stats", "--json")
    let stats = try Self.numbers(outcome)
    #expect(stats["documents"] == 3)
    #expect(stats["collections"] == 2)
    #expect(stats["declaredIndexes"] == 0)
    let report = try shell.withDatabase { try $0.check() }
    #expect(report.ok)
    #expect(stats["indexEntries"] == report.indexEntries)
    #expect((stats["indexEntries"] ?? 0) > 0)
    // Whole pages, within the map.
    let bytes = try #require(stats["bytes"])
    let pageSize = try #require(stats["pageSize"])
    #expect(bytes > 0 && pageSize > 0 && bytes % pageSize == 0)
    #expect(try #require(stats["mapSize"]) >= bytes)
    // This process holds a reader slot while the database is open.
    #expect(try #require(stats["readers"]) >= 1)
    #expect(stats["processes"] == 1)
    #expect(try #require(stats["maxReaders"]) >= stats["readers"]!)
    let canonicalPath = try shell.withDatabase { $0.path }
    #expect(try outcome.json()["path"] == .string(canonicalPath))

    // Off a terminal the output is the same JSON, without --json.
    #expect(try Self.numbers(shell.succeed("stats")).keys.sorted() == stats.keys.sorted())
  }

  @Test func countsSubcollectionsApartAndSkipsEmptiedCollections() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    shell.succeed("set", "users/alice/posts/p2", #"{"ownerId": "alice"}"#)
    shell.succeed("set", "rooms/r1/messages/m1", #"{"text": "hi"}"#)
    var stats = try Self.numbers(shell.succeed("stats", "--json"))
    #expect(stats["documents"] == 5)
    // users, posts, users/alice/posts and rooms/r1/messages; rooms holds no document.
    #expect(stats["collections"] == 4)
    shell.succeed("rm", "posts/p1")
    stats = try Self.numbers(shell.succeed("stats", "--json"))
    #expect(stats["documents"] == 4)
    #expect(stats["collections"] == 3)
    #expect(stats["indexEntries"] == (try shell.withDatabase { try $0.check().indexEntries }))
  }

  @Test func countsTheEntriesOfDeclaredIndexes() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let before = try Self.numbers(shell.succeed("stats", "--json"))
    shell.succeed("indexes", "add", "users", "name,", "age", "desc")
    let after = try Self.numbers(shell.succeed("stats", "--json"))
    #expect(after["declaredIndexes"] == 1)
    // Only alice has both fields.
    #expect(after["indexEntries"] == before["indexEntries"]! + 1)
    #expect(after["indexEntries"] == (try shell.withDatabase { try $0.check().indexEntries }))
  }

  @Test func onATerminalPrintsAnAlignedTable() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let outcome = shell.run("stats", terminal: true)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    // A label, two spaces or more, a value: every value starts in the same column.
    let rows = outcome.lines.compactMap { line -> (label: String, column: Int, value: String)? in
      guard let gap = line.range(of: "  "), let start = line[gap.lowerBound...].firstIndex(where: { $0 != " " })
      else { return nil }
      return (String(line[..<gap.lowerBound]), line.distance(from: line.startIndex, to: start), String(line[start...]))
    }
    #expect(
      rows.map(\.label) == [
        "database", "documents", "collections", "index entries", "declared indexes", "size", "map size", "readers",
      ], "\(outcome.stdout)")
    #expect(Set(rows.map(\.column)).count == 1, "\(outcome.stdout)")
    #expect(rows.count == 8 && rows[1].value == "3" && rows[2].value == "2")
    #expect(rows.last?.value.hasSuffix("held by 1 process") == true)
    // --json forces the object, even on a terminal.
    #expect(try Self.numbers(shell.run("stats", "--json", terminal: true))["documents"] == 3)
  }

  @Test func aMissingDatabaseFailsAndNothingIsCreated() throws {
    let shell = ShellFixture()
    expectFailure(shell.run("stats"), status: .failure, code: "notFound", mentioning: ["no database at \(shell.path)"])
    expectFailure(shell.run("stats", "--json"), status: .failure, code: "notFound")
    #expect(!shell.databaseExists)
    expectFailure(shell.run("stats", "extra"), status: .usage, code: "usage", mentioning: ["unexpected argument"])
  }

  @Test func helpExamplesRun() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    for example in Command.stats.examples {
      let outcome = shell.run(arguments: ["--db", shell.path] + (try Tokenizer.split(example)))
      #expect(outcome.status == 0, "hearth \(example): \(outcome.stderr)")
    }
    let help = shell.succeed("help", "stats").stdout
    #expect(help.contains("hearth stats --json"))
    #expect(help.contains("mdb_env_info"))
  }

  /// `hearth stats` as a process, while another `hearth` process (an interactive shell)
  /// has the database open: both count as readers.
  @Test(
    .enabled(
      if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
  func runsAsAProcessAndCountsOtherProcesses() throws {
    let binary = HearthBinaryTests()
    let shell = ShellFixture()
    let missing = try binary.run(["--db", shell.path, "stats"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "hearth: no database at \(shell.path) (notFound)\n")
    #expect(!shell.databaseExists)

    Self.populate(shell)
    let alone = try binary.run(["--db", shell.path, "stats"])
    #expect(alone.status == 0, "\(alone.stderr)")
    let stats = try JSONParser.parse(alone.stdout)
    #expect(stats["documents"] == .integer(3))
    #expect(stats["collections"] == .integer(2))
    #expect(stats["processes"] == .integer(1))

    let other = try OpenShellProcess(database: shell.path, document: "users/alice", answer: "Alice")
    let together = try binary.run(["--db", shell.path, "stats", "--json"])
    #expect(try JSONParser.parse(together.stdout)["processes"] == .integer(2))
    try other.close()
    let after = try binary.run(["--db", shell.path, "stats", "--json"])
    #expect(try JSONParser.parse(after.stdout)["processes"] == .integer(1))
  }
}
