import Foundation
import Hearth

// MARK: - The table entry

extension Command {
  static let watch = Command(
    name: "watch", summary: "stream a document's or a query's changes as they are committed, until Ctrl-C",
    usage: "watch DOC | watch TARGET [CLAUSES] [--changes N]",
    details: """
      Listens to a document, or to a query (TARGET and CLAUSES as for 'query'), and
      prints one line per change as commits arrive, from this process or any other:
      'added PATH -→0', 'modified PATH 2→0', 'removed PATH 1→-' (positions in the
      results before and after; - for none). The first lines are the current results.
      With --json, one {"type", "path", "oldIndex", "newIndex", "fields"} object per line
      (null for no position; fields for removed documents are their last). Runs until
      Ctrl-C, or until --changes N changes have been printed.
      """,
    examples: [
      "watch users/alice", "watch rooms/r1/messages 'order by sentAt desc limit 20'", "watch group:posts --changes 5",
    ],
    options: [.value("--changes", "N", "stop after N changes")],
    arguments: ["PATH", "CLAUSES"], required: 1, access: .read, aliases: ["listen", "follow", "tail", "subscribe"],
    readsQueryText: true,
    run: WatchCommand.watch)
}

// MARK: - Running it

/// `watch`: a snapshot listener printing each change.
enum WatchCommand {
  /// One change as `watch` prints it.
  struct Line {
    let type: DocumentChangeType
    let path: String
    let oldIndex: Int?
    let newIndex: Int?
    let fields: [String: Any]?
  }

  static func watch(_ invocation: Invocation) throws {
    let limit = try invocation.arguments.integer("--changes", in: 1...Int.max)
    let first = invocation.arguments.positionals[0]
    let printer = Printer(invocation: invocation, limit: limit)
    let registration: ListenerRegistration
    if !first.hasPrefix("group:"), let path = try? ShellPath.parse(first), path.kind == .document {
      if invocation.arguments.positionals.count > 1 {
        throw UsageError.notAllowed("a document has no query clauses: watch DOC, or watch COLLECTION CLAUSES")
      }
      let database = try invocation.database()
      registration = database.document(path.path).addSnapshotListener(printer.document)
    } else {
      let (target, clauses) = try QueryCommands.parse(invocation)
      if !clauses.aggregations.isEmpty { throw UsageError.notAllowed("watch follows documents, not count, sum or avg") }
      let database = try invocation.database()
      registration = try QueryCommands.build(target, clauses, database).addSnapshotListener(printer.query)
    }
    let failure = printer.waitUntilDone()
    registration.remove()
    if let failure { throw CommandFailure.from(failure, context: "watch") }
  }

  /// Prints changes from the listener's queue and tells the command when to stop.
  ///
  /// `@unchecked Sendable`: its state is touched only on the listener's serial queue,
  /// then read after `done` is signalled.
  final class Printer: @unchecked Sendable {
    private let invocation: Invocation
    private let limit: Int?
    private var printed = 0
    private var failure: Error?
    private var documentExists = false
    private let done = DispatchSemaphore(value: 0)

    init(invocation: Invocation, limit: Int?) {
      self.invocation = invocation
      self.limit = limit
    }

    /// Waits until the listener failed or printed `limit` changes, or Ctrl-C.
    func waitUntilDone() -> Error? {
      guard Interrupts.wait(for: done) else { return nil }
      return failure
    }

    func query(_ snapshot: QuerySnapshot?, _ error: Error?) {
      guard let snapshot else { return finish(error) }
      print(
        snapshot.documentChanges.map { change in
          Line(
            type: change.type, path: change.document.reference.path, oldIndex: Self.position(change.oldIndex),
            newIndex: Self.position(change.newIndex), fields: change.document.data())
        })
    }

    func document(_ snapshot: DocumentSnapshot?, _ error: Error?) {
      guard let snapshot else { return finish(error) }
      let existed = documentExists
      documentExists = snapshot.exists
      let path = snapshot.reference.path
      switch (existed, snapshot.exists) {
      case (false, false): return
      case (false, true): print([Line(type: .added, path: path, oldIndex: nil, newIndex: 0, fields: snapshot.data())])
      case (true, true): print([Line(type: .modified, path: path, oldIndex: 0, newIndex: 0, fields: snapshot.data())])
      case (true, false): print([Line(type: .removed, path: path, oldIndex: 0, newIndex: nil, fields: nil)])
      }
    }

    private func print(_ lines: [Line]) {
      for line in lines where limit.map({ printed < $0 }) ?? true {
        if invocation.json || !invocation.session.stdout.isTerminal {
          invocation.printJSON(
            [
              ("type", "\(line.type)"), ("path", line.path), ("oldIndex", line.oldIndex ?? NSNull()),
              ("newIndex", line.newIndex ?? NSNull()), ("fields", line.fields ?? NSNull()),
            ] as [(String, Any)])
        } else {
          let positions = "\(line.oldIndex.map(String.init) ?? "-")→\(line.newIndex.map(String.init) ?? "-")"
          invocation.session.writeLine("\(line.type) \(line.path) \(positions)")
        }
        printed += 1
      }
      invocation.session.stdout.flush()
      // Output that cannot be written (a reader gone, a full disk) ends the watch.
      if let code = invocation.session.stdout.writeError { return finish(CommandFailure.output(code)) }
      if let limit, printed >= limit { finish(nil) }
    }

    private func finish(_ error: Error?) {
      failure = error
      done.signal()
    }

    private static func position(_ index: UInt) -> Int? { index == UInt(NSNotFound) ? nil : Int(index) }
  }
}
