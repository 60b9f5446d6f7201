import Foundation
import Hearth
import Testing

@testable import HearthShell

/// A command that fails leaves nothing behind (issue 13, item 6): a database it created
/// to write into is removed again while it holds nothing, directories and all, and what
/// existed before the command is never removed.
@Suite struct FailedCommandCleanupTests {
  static let header = #"{"hearth":"export","version":1}"#
  static let badExport = header + "\n" + #"{"path":"users/a","fields":{}}"# + "\n" + "not json\n"

  @Test func aFailedImportIntoAMissingPathLeavesNoDatabase() throws {
    let scratch = try ScratchDirectory("hearth-cleanup")
    let file = scratch.file("bad.jsonl")
    try Data(Self.badExport.utf8).write(to: URL(fileURLWithPath: file))
    let shell = ShellFixture()
    // Directories that did not exist either: all of them go.
    let nested = scratch.file("new/deeper/db")
    for database in [shell.path, nested] {
      expectFailure(
        shell.run(arguments: ["--db", database, "import", file]), status: .dataError, code: "invalidArgument",
        mentioning: ["bad.jsonl:3:"])
      expectFailure(
        shell.run(arguments: ["--db", database, "import", "-"], stdin: Self.badExport), status: .dataError,
        code: "invalidArgument", mentioning: ["standard input:3:"])
    }
    #expect(!FileManager.default.fileExists(atPath: shell.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["bad.jsonl"])
  }

  @Test func aWriteRefusedByHearthLeavesNoDatabase() throws {
    let shell = ShellFixture()
    expectFailure(
      shell.run("set", "users/a", #"{"__reserved__": 1}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["__reserved__"])
    // Nested 21 levels below the document: JSON that parses, data that Hearth refuses when it writes.
    let deep = String(repeating: #"{"a": "#, count: 22) + "1" + String(repeating: "}", count: 22)
    expectFailure(
      shell.run("add", "users", deep), status: .dataError, code: "invalidArgument", mentioning: ["20 levels"])
    expectFailure(
      shell.run("update", "users/a", #"{"b": 1}"#), status: .failure, code: "notFound", mentioning: ["no database"])
    #expect(!shell.databaseExists)
  }

  @Test func anEmptyDirectoryThatExistedStaysAndStaysEmpty() throws {
    let shell = ShellFixture()
    try FileManager.default.createDirectory(atPath: shell.path, withIntermediateDirectories: false)
    expectFailure(shell.run("import", "-", stdin: Self.badExport), status: .dataError, code: "invalidArgument")
    expectFailure(shell.run("set", "users/a", #"{"__reserved__": 1}"#), status: .dataError, code: "invalidArgument")
    #expect(try FileManager.default.contentsOfDirectory(atPath: shell.path) == [])
  }

  @Test func aFailedCommandNeverRemovesADatabaseThatExisted() throws {
    let shell = ShellFixture()
    // An empty database: created, then emptied again.
    shell.succeed("set", "users/a", "{}")
    shell.succeed("rm", "users/a")
    expectFailure(shell.run("import", "-", stdin: Self.badExport), status: .dataError, code: "invalidArgument")
    expectFailure(shell.run("set", "users/a", #"{"__reserved__": 1}"#), status: .dataError, code: "invalidArgument")
    #expect(FileManager.default.fileExists(atPath: shell.path + "/data.mdb"))
    #expect(shell.succeed("stats", "--json").stdout.contains(#""documents":0"#))

    // In the interactive shell, a command that fails after another created the database
    // leaves it too.
    let other = ShellFixture()
    let session = other.run(
      arguments: ["--db", other.path],
      stdin: """
        set users/a {}
        rm users/a
        set users/b {"__reserved__": 1}
        """)
    #expect(session.status == ExitCode.dataError.rawValue, "\(session.stderr)")
    #expect(FileManager.default.fileExists(atPath: other.path + "/data.mdb"))
  }
}
