import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The interactive shell as a person uses it: `hearth` on a pseudo-terminal, driven by
/// keystrokes — a query, history (within a session and across sessions), Tab
/// completion, Ctrl-C on a line and on a running `watch`, Ctrl-D.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct TerminalSessionTests {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tty-\(UUID().uuidString)")
  var database: String { directory.appendingPathComponent("app.hearth").path }
  var historyFile: String { directory.appendingPathComponent("history").path }

  /// A database with two users and a post, written through the API.
  private func makeDatabase() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try withDatabase(at: database) { db in
      try db.document("users/alice").setData(["name": "Alice", "age": 30])
      try db.document("users/bob").setData(["name": "Bob", "age": 40])
      try db.document("users/alice/posts/p1").setData(["title": "Hello"])
    }
  }

  private func open() throws -> PseudoTerminal {
    var environment = ProcessInfo.processInfo.environment
    environment["HEARTH_DATABASE"] = nil
    environment["HEARTH_HISTORY"] = historyFile
    environment["TERM"] = "xterm"
    environment["NO_COLOR"] = "1"
    let terminal = try PseudoTerminal(
      executable: try #require(hearthExecutable), arguments: ["--db", database], environment: environment)
    #expect(terminal.waitFor("hearth:app.hearth> "), "the prompt: \(terminal.visible())")
    return terminal
  }

  @Test func queryHistoryCompletionInterruptAndExit() throws {
    try makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try open()

    // A query, typed and run.
    var mark = terminal.mark
    terminal.type("query users where age > 35 --ids\r")
    #expect(terminal.waitFor("users/bob\nhearth:app.hearth> ", after: mark), "\(terminal.visible(from: mark))")
    #expect(!terminal.visible(from: mark).contains("users/alice\n"))

    // Ctrl-P brings it back from history; Enter runs it again.
    #expect(terminal.waitUntilEditing())
    mark = terminal.mark
    terminal.type("\u{10}\r")
    #expect(terminal.waitFor("users/bob\nhearth:app.hearth> ", after: mark), "history: \(terminal.visible(from: mark))")

    // Tab completes a command, a root collection, then a document ID.
    mark = terminal.mark
    terminal.type("ge\tus\tal\t\r")
    #expect(terminal.waitFor("}\nhearth:app.hearth> ", after: mark), "completion: \(terminal.visible(from: mark))")
    #expect(terminal.visible(from: mark).contains("\"Alice\""))
    #expect(terminal.visible(from: mark).contains("get users/alice"))

    // Tab on an ambiguous word lists the choices: both users' IDs.
    mark = terminal.mark
    terminal.type("get users/\t")
    #expect(terminal.waitFor("bob", after: mark), "the list: \(terminal.visible(from: mark))")
    #expect(terminal.visible(from: mark).contains("alice"))

    // Ctrl-C drops the line being typed: it does not run.
    #expect(terminal.waitUntilEditing())
    mark = terminal.mark
    terminal.type("\u{03}")
    #expect(terminal.waitFor("hearth:app.hearth> ", after: mark))
    mark = terminal.mark
    terminal.type("ls users\r")
    #expect(
      terminal.waitFor("alice\nbob\nhearth:app.hearth> ", after: mark), "after Ctrl-C: \(terminal.visible(from: mark))")

    // Ctrl-C ends a running watch, and the shell goes on.
    mark = terminal.mark
    terminal.type("watch users\r")
    #expect(terminal.waitFor("added users/bob -→1", after: mark), "\(terminal.visible(from: mark))")
    mark = terminal.mark
    terminal.type("\u{03}")
    #expect(terminal.waitFor("hearth:app.hearth> ", after: mark), "back at the prompt: \(terminal.visible(from: mark))")
    mark = terminal.mark
    terminal.type("get users/bob\r")
    #expect(terminal.waitFor("\"Bob\"", after: mark), "the shell goes on: \(terminal.visible(from: mark))")

    // Ctrl-D at an empty prompt leaves with status 0.
    #expect(terminal.waitFor("}\nhearth:app.hearth> ", after: mark))
    #expect(terminal.waitUntilEditing())
    mark = terminal.mark
    terminal.type("\u{04}")
    #expect(terminal.waitForExit() == 0, "after Ctrl-D: \(terminal.visible(from: mark))")
  }

  @Test func historyIsKeptAcrossSessions() throws {
    try makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let first = try open()
      let mark = first.mark
      first.type("get users/alice/posts/p1\r")
      #expect(first.waitFor("\"Hello\"", after: mark))
      first.type("exit\r")
      #expect(first.waitForExit() == 0)
    }
    let saved = try String(contentsOfFile: historyFile, encoding: .utf8)
    #expect(saved.contains("users/alice/posts/p1"), "the history file: \(saved)")

    // A new session: Ctrl-P twice reaches the first session's command.
    let second = try open()
    #expect(second.waitUntilEditing())
    let mark = second.mark
    second.type("\u{10}\u{10}\r")
    #expect(second.waitFor("\"Hello\"", after: mark), "\(second.visible(from: mark))")
    second.type("exit\r")
    #expect(second.waitForExit() == 0)
  }
}
