import Foundation
import Hearth

/// `threads DB LOG THREADS [COMMITS]`: THREADS threads, each making durable single-document
/// commits of its own (`parallel/t<T>-c<k>`, k = 1, 2, …) until killed (or until each has
/// made COMMITS), so that their commits share group commits. Each thread logs its commit
/// `k` in its own log, `LOG.t<T>` (a `CommitLog` whose seed is the thread's number), once
/// `setData` has returned, written and fsynced before its next commit. Prints `writing`
/// once every thread has settled its log.
///
/// `verify-threads DB LOG THREADS`: check, and every commit every thread logged is in DB
/// with its fields and a commit time after the thread's commit before it; a thread's next
/// commit may be there (it ran but was not acknowledged) and nothing after it.
enum ThreadedWriter {
  static func logPath(_ log: String, thread: Int) -> String { "\(log).t\(thread)" }
  static func path(thread: Int, commit: Int) -> String { "parallel/t\(thread)-c\(commit)" }

  static func run(path: String, logPath: String, threads: Int, limit: Int?) throws {
    let db = try Database(path: path)
    defer { db.close() }
    let logs = try (0..<threads).map { thread in
      let file = Self.logPath(logPath, thread: thread)
      let log = try CommitLog.read(file) ?? CommitLog.create(file, seed: UInt64(thread))
      guard log.seed == UInt64(thread) else { throw TortureError("\(file) is the log of thread \(log.seed)") }
      return (log, try LogAppender(log))
    }
    printLine("writing")
    let group = DispatchGroup()
    let failure = Failure()
    for (thread, (log, appender)) in logs.enumerated() {
      let appender = UncheckedAppender(appender)
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        var commit = log.count + 1
        while limit.map({ commit <= $0 }) ?? true {
          do {
            // The commit after the last logged one may have committed before a kill: it
            // is written again (a set), now acknowledged.
            try db.document(Self.path(thread: thread, commit: commit)).setData([
              "thread": thread, "n": commit, "at": FieldValue.serverTimestamp(),
            ])
            try appender.value.append("\(commit)")
          } catch {
            failure.set("thread \(thread), commit \(commit): \(error)")
            return
          }
          commit += 1
        }
      }
    }
    group.wait()
    if let message = failure.message { throw TortureError(message) }
  }

  static func verify(path: String, logPath: String, threads: Int) throws -> Bool {
    let db = try Database(path: path)
    defer { db.close() }
    let report = try db.check()
    var problems = report.ok ? [] : ["check: " + report.problems.prefix(10).joined(separator: "; ")]
    let documents = try db.collection("parallel").getDocuments().documents
    var byThread: [Int: [Int: (fields: [String: Any], updateTime: Timestamp?)]] = [:]
    for document in documents {
      let parts = document.documentID.dropFirst().split(separator: "-c")
      guard parts.count == 2, let thread = Int(parts[0]), let commit = Int(parts[1]) else {
        problems.append("unexpected document \(document.reference.path)")
        continue
      }
      byThread[thread, default: [:]][commit] = (document.data(), document.updateTime)
    }
    var acknowledged = 0
    var inFlight = 0
    for thread in 0..<threads {
      let logged = try CommitLog.read(Self.logPath(logPath, thread: thread))?.count ?? 0
      acknowledged += logged
      let found = byThread[thread] ?? [:]
      var previous: Timestamp?
      for commit in stride(from: 1, through: logged, by: 1) {
        guard let (fields, updateTime) = found[commit] else {
          problems.append("thread \(thread)'s acknowledged commit \(commit) is missing")
          continue
        }
        if fields["thread"] as? Int64 != Int64(thread) || fields["n"] as? Int64 != Int64(commit)
          || (fields["at"] as? Timestamp) != updateTime?.inMilliseconds
        {
          problems.append(
            "\(Self.path(thread: thread, commit: commit)) holds \(fields), update time \(String(describing: updateTime))"
          )
        }
        if let previous, let updateTime, updateTime <= previous {
          problems.append("thread \(thread)'s commit \(commit) is not after its commit \(commit - 1)")
        }
        previous = updateTime
      }
      if found[logged + 1] != nil { inFlight += 1 }
      let beyond = found.keys.filter { $0 > logged + 1 }.sorted()
      if !beyond.isEmpty { problems.append("thread \(thread) logged \(logged) commits, but \(beyond) are there too") }
    }
    printJSON([
      ("ok", .bool(problems.isEmpty)), ("acknowledged", .int(acknowledged)), ("inFlightPresent", .int(inFlight)),
      ("documents", .int(documents.count)), ("checkedDocuments", .int(report.documents)),
      ("problems", .string(problems.prefix(20).joined(separator: " | "))),
    ])
    return problems.isEmpty
  }
}

/// A thread's log appender, used by that thread alone.
private struct UncheckedAppender: @unchecked Sendable {
  let value: LogAppender
  init(_ value: LogAppender) { self.value = value }
}

/// The first failure of any thread.
private final class Failure: @unchecked Sendable {
  private let lock = NSLock()
  private var first: String?
  func set(_ message: String) { lock.withLock { first = first ?? message } }
  var message: String? { lock.withLock { first } }
}
