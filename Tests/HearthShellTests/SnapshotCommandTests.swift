import Foundation
import Hearth
import HearthCore
import HearthStorage
import Testing

@testable import HearthShell

/// `export`, `import`, `backup` and `restore`.
@Suite struct SnapshotCommandTests {
  /// A few documents, one in a subcollection of a missing parent, every tagged type.
  static func populate(_ shell: ShellFixture) {
    shell.succeed("set", "users/alice", DocumentCommandTests.everyType)
    shell.succeed("set", "users/alice/posts/p1", #"{"likes": 3, "tags": ["a", "b"]}"#)
    shell.succeed("set", "users/bob", #"{"name": "Bob"}"#)
    shell.succeed("set", "rooms/r1/messages/m1", #"{"text": "hi", "sent": {"$timestamp": "2026-11-29T10:00:00Z"}}"#)
  }

  /// The document lines of an export (the header left out), which must match exactly
  /// between two exports of the same documents.
  static func documentLines(_ text: String) -> [String] {
    Array(text.split(separator: "\n").map(String.init).dropFirst())
  }

  @Test func exportWritesAHeaderThenDocumentsInPathOrder() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let outcome = shell.succeed("export", "-")
    let lines = outcome.lines
    let header = try JSONParser.parse(lines[0])
    #expect(header["hearth"] == .string("export"))
    #expect(header["version"] == .integer(1))
    #expect(header["documents"] == .integer(4))
    let paths = try lines.dropFirst().map { line -> String in
      guard case .string(let path)? = try JSONParser.parse(line)["path"] else { return "" }
      return path
    }
    #expect(paths == ["rooms/r1/messages/m1", "users/alice", "users/alice/posts/p1", "users/bob"])
    let alice = try JSONParser.parse(lines[2])
    #expect(
      canonical(alice["fields"]!)
        == (try json(DocumentCommandTests.everyType)
          .replacing(#"{"$double":7}"#, with: "7.0")))
  }

  @Test func exportThenImportGivesTheSameLines() throws {
    let source = ShellFixture()
    Self.populate(source)
    let file = source.path + ".jsonl"
    defer { try? FileManager.default.removeItem(atPath: file) }
    let exported = source.run("export", file)
    #expect(exported.status == 0)
    #expect(exported.stderr.contains("exported 4 documents"))

    let target = ShellFixture()
    let imported = target.run("import", file)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.contains("imported 4 documents"))
    let original = try String(contentsOfFile: file, encoding: .utf8)
    #expect(Self.documentLines(target.succeed("export", "-").stdout) == Self.documentLines(original))
  }

  @Test func importReadsStandardInputAndReplaces() throws {
    let source = ShellFixture()
    Self.populate(source)
    let export = source.succeed("export", "-").stdout

    let target = ShellFixture()
    target.succeed("set", "keep/me", #"{"a": 1}"#)
    #expect(target.run("import", "-", stdin: export).status == 0)
    #expect(target.succeed("ls").lines == ["keep", "rooms", "users"])
    #expect(target.run("import", "-", "--replace", stdin: export).status == 0)
    #expect(target.succeed("ls").lines == ["rooms", "users"])
    #expect(Self.documentLines(target.succeed("export", "-").stdout) == Self.documentLines(export))
  }

  @Test func aBadLineNamesItsLineAndChangesNothing() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"a": 1}"#)
    let before = Self.documentLines(shell.succeed("export", "-").stdout)
    let header = #"{"hearth":"export","version":1}"#
    let cases: [(input: String, fragment: String)] = [
      (
        header + "\n" + #"{"path":"users/bob","fields":{"a":2}}"# + "\n" + #"{"path":"users/x","fie"#,
        "standard input:3:"
      ),
      (header + "\n" + "not json\n", "standard input:2: invalid JSON at column 1"),
      (header + "\n" + #"{"path":"users/bob","fields":{"t":{"$timestamp":5}}}"#, "$timestamp"),
      (header + "\n" + #"{"path":"users//bob","fields":{}}"#, "//"),
      (header + "\n" + #"{"path":"users","fields":{}}"#, "even number of segments"),
      (
        header + "\n" + #"{"path":"users/b","fields":{}}"# + "\n" + #"{"path":"users/b","fields":{}}"#,
        "users/b appears twice (first on line 2)"
      ),
      (#"{"path":"users/b","fields":{}}"#, "standard input:1: the first line is not an export header"),
      (
        #"{"hearth":"export","version":1,"documents":2}"# + "\n" + #"{"path":"users/b","fields":{}}"#,
        "announces 2 documents but the file holds 1"
      ),
    ]
    for (input, fragment) in cases {
      let outcome = shell.run("import", "-", stdin: input)
      expectFailure(outcome, status: .dataError, code: "invalidArgument", mentioning: [fragment])
      #expect(Self.documentLines(shell.succeed("export", "-").stdout) == before, "\(input)")
    }
    expectFailure(
      shell.run("import", "/nonexistent/file.jsonl"), status: .failure, code: "notFound",
      mentioning: ["/nonexistent/file.jsonl"])
  }

  @Test func backupThenRestoreIntoAnotherDatabase() throws {
    let source = ShellFixture()
    Self.populate(source)
    let directory = source.path + "-backup"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let backup = source.succeed("backup", directory)
    #expect(backup.stdout.hasPrefix("backed up 4 documents ("))
    let manifest = try JSONParser.parse(String(contentsOfFile: directory + "/manifest.json", encoding: .utf8))
    #expect(manifest["documents"] == .integer(4))

    let target = ShellFixture()
    target.succeed("set", "other/doc", "{}")
    let restored = target.succeed("restore", directory)
    #expect(restored.stdout.contains("restored"))
    #expect(
      Self.documentLines(target.succeed("export", "-").stdout)
        == Self.documentLines(source.succeed("export", "-").stdout))

    expectFailure(source.run("backup", directory), status: .failure, code: "alreadyExists", mentioning: [directory])
    expectFailure(
      target.run("restore", source.path), status: .dataError, code: "invalidArgument",
      mentioning: ["not a Hearth backup"])
  }

  /// A restore over a database that another process has open is refused, unless forced.
  @Test(
    .enabled(
      if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
  func restoreRefusesADatabaseOpenElsewhere() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/alice", #"{"v": 1}"#)
    let directory = shell.path + "-backup"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    shell.succeed("backup", directory)
    shell.succeed("set", "users/alice", #"{"v": 2}"#)

    let other = try OpenShellProcess(database: shell.path, document: "users/alice", answer: "\"v\"")
    let refused = shell.run("restore", directory)
    expectFailure(refused, status: .failure, code: "failedPrecondition", mentioning: ["another process"])
    #expect(shell.succeed("get", "users/alice", "--json").stdout == #"{"v":2}"# + "\n")

    #expect(shell.succeed("restore", directory, "--force").status == 0)
    #expect(shell.succeed("get", "users/alice", "--json").stdout == #"{"v":1}"# + "\n")
    try other.close()
  }
}

extension SnapshotCommandTests {
  /// Progress is drawn in place on a terminal's standard error, and never into a pipe.
  @Test func progressShowsOnATerminalOnly() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    let file = shell.path + ".jsonl"
    let backup = shell.path + "-progress-backup"
    defer {
      try? FileManager.default.removeItem(atPath: file)
      try? FileManager.default.removeItem(atPath: backup)
    }
    let onTerminal = shell.run("export", file, terminal: true)
    #expect(onTerminal.stderr.contains("\r\u{1B}[Kexported 4 of 4 documents (100%)\r\u{1B}[K"))
    #expect(onTerminal.stderr.hasSuffix("exported 4 documents to \(file)\n"))
    #expect(!shell.run("export", file).stderr.contains("\r"))
    #expect(shell.run("import", file, terminal: true).stderr.contains("imported 4 of 4 documents (100%)"))
    #expect(shell.run("check", terminal: true).status == 0)
    let copied = shell.run("backup", backup, terminal: true)
    #expect(copied.status == 0)
    #expect(copied.stdout.hasPrefix("backed up 4 documents"))
  }

  @Test func checkSaysOkThenReportsDamageWithExit1() throws {
    let shell = ShellFixture()
    Self.populate(shell)
    #expect(shell.succeed("check").stdout.hasPrefix("ok: 4 documents, "))
    #expect(try shell.succeed("check", "--json").json() == (try json(#"{"ok": true, "problems": []}"#)))

    // Damage: every index entry gone, behind Hearth's back.
    let environment = try Environment.open(path: shell.path)
    let entries = try environment.table("indexEntries", duplicateSort: true, create: false)
    try environment.write { try $0.empty(entries) }
    environment.close()

    let damaged = shell.run("check", "--json")
    #expect(damaged.status == ExitCode.failure.rawValue)
    let report = try JSONParser.parse(damaged.stdout)
    #expect(report["ok"] == .bool(false))
    guard case .array(let problems)? = report["problems"] else { throw CocoaError(.coderReadCorrupt) }
    func has(_ prefix: String) -> Bool {
      problems.contains { if case .string(let text) = $0 { text.hasPrefix(prefix) } else { false } }
    }
    #expect(has("indexEntries: the table holds 0 entries where the documents call for "))
    #expect(has("users/alice: an index entry is missing"))
    #expect(damaged.stderr.contains("is damaged"))
  }
}

extension JSONValue {
  /// The value re-parsed after replacing `text` in its compact JSON form.
  fileprivate func replacing(_ text: String, with replacement: String) throws -> JSONValue {
    canonical(try JSONParser.parse(JSONWriter().string(from: self).replacingOccurrences(of: text, with: replacement)))
  }
}
