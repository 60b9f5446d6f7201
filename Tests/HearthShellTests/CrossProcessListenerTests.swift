import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

/// Commits made by another process reach this process's listeners, through the change
/// log.
@Suite(.enabled(if: hearthExecutable != nil, "the hearth executable is not built"))
struct CrossProcessListenerTests {
  /// Runs `hearth --db PATH ARGUMENTS...` as another process.
  func hearth(_ path: String, _ arguments: String...) throws {
    let outcome = try runProcess(try #require(hearthExecutable), ["--db", path] + arguments)
    #expect(outcome.succeeded, "hearth \(arguments): \(outcome.stderr)")
  }

  /// Snapshots as they arrive, with a wait for the next one.
  final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [[String]] = []

    func add(_ item: [String]) {
      condition.lock()
      items.append(item)
      condition.broadcast()
      condition.unlock()
    }

    func next(timeout: TimeInterval = 15) -> [String]? {
      condition.lock()
      defer { condition.unlock() }
      let deadline = Date().addingTimeInterval(timeout)
      while items.isEmpty { if !condition.wait(until: deadline) { return nil } }
      return items.removeFirst()
    }
  }

  @Test func anotherProcesssCommitsReachAListenerInOrder() throws {
    let fixture = ShellFixture()
    try withDatabase(at: fixture.path) { database in
      let inbox = Inbox()
      let registration = database.collection("rooms/r1/messages").order(by: "n").addSnapshotListener { snapshot, _ in
        inbox.add(
          (snapshot?.documentChanges ?? []).map { "\($0.type) \($0.document.documentID)" })
      }
      defer { registration.remove() }
      #expect(inbox.next() == [])

      try hearth(fixture.path, "set", "rooms/r1/messages/m1", #"{"n": 1}"#)
      #expect(inbox.next() == ["added m1"])
      try hearth(fixture.path, "set", "rooms/r1/messages/m2", #"{"n": 2}"#)
      #expect(inbox.next() == ["added m2"])
      try hearth(fixture.path, "update", "rooms/r1/messages/m1", #"{"n": 3}"#)
      #expect(inbox.next() == ["modified m1"])
      try hearth(fixture.path, "set", "rooms/r2/messages/x", #"{"n": 0}"#)  // another room
      try hearth(fixture.path, "rm", "rooms/r1/messages/m2")
      #expect(inbox.next() == ["removed m2"])

      // This process's own commits still arrive once each.
      try database.document("rooms/r1/messages/m4").setData(["n": 4])
      #expect(inbox.next() == ["added m4"])
      #expect(inbox.next(timeout: 0.3) == nil)
    }
  }
}

extension CrossProcessListenerTests {
  /// `hearth watch` in another process prints each change of this process's commits, as
  /// JSON lines off a terminal, and stops after `--changes N`.
  @Test func watchPrintsOneLinePerChange() throws {
    let fixture = ShellFixture()
    try withDatabase(at: fixture.path) { database in
      try database.document("c/a").setData(["n": 1])

      let (process, lines) = try RawProcess.withLines([
        "--db", fixture.path, "watch", "c", "order by n", "--changes", "4",
      ])

      func change(_ line: String?) throws -> String {
        let json = try JSONParser.parse(try #require(line))
        func text(_ key: String) -> String {
          switch json[key] {
          case .string(let value)?: value
          case .integer(let value)?: "\(value)"
          default: "-"
          }
        }
        return "\(text("type")) \(text("path")) \(text("oldIndex"))→\(text("newIndex"))"
      }
      #expect(try change(lines.next()) == "added c/a -→0")
      try database.document("c/b").setData(["n": 2])
      #expect(try change(lines.next()) == "added c/b -→1")
      try database.document("c/a").updateData(["n": 3])
      #expect(try change(lines.next()) == "modified c/a 0→1")
      try database.document("c/b").delete()
      #expect(try change(lines.next()) == "removed c/b 0→-")
      let outcome = process.finish(readingOutput: false)
      #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
    }
  }
}
