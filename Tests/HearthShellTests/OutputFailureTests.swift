import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Standard output that cannot be written (issue 13, item 4): a full disk fails every
/// command that prints, with exit 74 and a message; a reader that goes away
/// (`hearth export - | head -1`) ends hearth quietly with status 141, by `exit`, never by
/// the SIGPIPE signal.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct OutputFailureTests {
  /// A database whose export, listing and query output are far larger than a pipe holds
  /// (3,000 documents of about 400 bytes), so that a reader that stops after one line
  /// leaves hearth writing into a closed pipe.
  static func largeDatabase(in scratch: ScratchDirectory) throws -> String {
    let path = scratch.file("db")
    let settings = Settings()
    settings.durability = .relaxed
    return try withDatabase(at: path, settings: settings) { database in
      let batch = database.batch()
      let padding = String(repeating: "x", count: 400)
      for index in 0..<3000 {
        batch.setData(
          ["n": index, "text": padding], forDocument: database.document("users/" + String(format: "u%05d", index)))
      }
      try batch.commit()
      return path
    }
  }

  @Test func aFullDiskFailsEveryCommandThatPrints() throws {
    let scratch = try ScratchDirectory("hearth-output")
    let database = try Self.largeDatabase(in: scratch)
    let commands: [[String]] = [
      ["export", "-"], ["get", "users/u00001"], ["get", "users/u00001", "--meta"], ["query", "users"],
      ["query", "users", "where n < 3", "--ids"], ["query", "users", "count"], ["ls"], ["ls", "users"], ["tree"],
      ["explain", "users", "where n == 3"], ["stats"], ["check"], ["indexes"], ["watch", "users/u00002"],
      ["watch", "users", "where n < 3"], ["help"], ["help", "export"], ["--help"],
    ]
    for command in commands {
      guard let full = FileHandle(forWritingAtPath: "/dev/full") else {
        Issue.record("no /dev/full")
        return
      }
      let outcome = try runRaw(["--db", database] + command, stdout: full)
      #expect(outcome.exited, "\(command): ended by signal \(outcome.status)")
      #expect(outcome.status == 74, "\(command): \(outcome.stderr)")
      #expect(
        outcome.stderr == "hearth: cannot write to standard output: No space left on device (io)\n", "\(command)")
    }
    // A write that committed is kept although its output failed: only output was lost.
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let added = try runRaw(["--db", database, "add", "users", #"{"n": -1}"#], stdout: full)
    #expect(added.status == 74, "\(added.stderr)")
    let count = try runRaw(["--db", database, "query", "users", "where n == -1", "count"])
    #expect(count.stdoutText == #"{"count":1}"# + "\n", "\(count.stderr)")
  }

  @Test func aReaderThatGoesAwayEndsHearthQuietlyWithStatus141() throws {
    let scratch = try ScratchDirectory("hearth-output")
    let database = try Self.largeDatabase(in: scratch)
    let commands: [[String]] = [
      ["export", "-"], ["query", "users"], ["query", "users", "where n >= 0", "order by n desc"], ["watch", "users"],
    ]
    for command in commands {
      let process = try RawProcess(["--db", database] + command)
      // `| head -1`: one line read, then the reader is gone.
      #expect(process.readLine() != nil, "\(command)")
      process.closeOutput()
      let outcome = process.finish(readingOutput: false)
      #expect(outcome.exited, "\(command): ended by signal \(outcome.status)")
      #expect(outcome.status == 141, "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.isEmpty, "\(command)")
    }
    // A script given to the interactive shell stops at the first command whose output
    // has no reader.
    let script = try scratch.input(Array("query users\nset users/after '{}'\n".utf8))
    let process = try RawProcess(["--db", database], stdin: script)
    #expect(process.readLine() != nil)
    process.closeOutput()
    let outcome = process.finish(readingOutput: false)
    #expect(outcome.exited && outcome.status == 141, "\(outcome.status): \(outcome.stderr)")
    #expect(outcome.stderr.isEmpty)
    let after = try runRaw(["--db", database, "get", "users/after"])
    #expect(after.status == 1, "the script stopped before its second command")
  }
}
