import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// Durable commits of several threads share LMDB transactions (group commit, see
/// `DocumentStore.commit`), and each is still its own commit: its own commit time and
/// change-log entry, acknowledged after it is durable, failing alone, and seen by
/// listeners one at a time, in order. Groups of a known size are made with
/// `Environment.holdNextGroup(untilQueued:)`, never by timing.
@Suite struct GroupCommitTests {
  /// A durable store in a fresh directory, closed and removed afterwards.
  func withDurableStore(_ body: (DocumentStore) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-group-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try withStore(at: path, options: DocumentStore.Options(), body)
  }

  /// Runs `body(thread)` on `count` threads of their own, at once, and waits for them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<count {
      group.enter()
      Thread.detachNewThread {
        body(thread)
        group.leave()
      }
    }
    group.wait()
  }

  static func key(_ path: String) -> DocumentKey { try! DocumentKey(parsing: path) }

  /// Each commit's time, by the document it wrote, checked against the store: the
  /// document's update time is its commit's time, and the change log lists the commits
  /// in strictly increasing commit-time order.
  static func checkCommitTimes(_ times: [DocumentKey: Timestamp], in store: DocumentStore) throws {
    #expect(Set(times.values).count == times.count, "two commits share a commit time")
    let log = try #require(store.tables.changes)
    let (logged, stored) = try store.read { reader throws in
      (
        try ChangeLog.changes(after: 0, in: reader.txn, table: log).changes.keys,
        try times.keys.map { ($0, try reader.encodedDocument($0)?.updateTime) }
      )
    }
    for (key, updateTime) in stored { #expect(updateTime == times[key], "\(key)") }
    let inLogOrder = logged.compactMap { times[$0] }
    #expect(inLogOrder.count == times.count)
    #expect(zip(inLogOrder, inLogOrder.dropFirst()).allSatisfy { $0 < $1 }, "\(inLogOrder)")
  }

  @Test func manyThreadsCommittingDurablyAllLandWithTheirOwnCommitTimes() throws {
    try withDurableStore { store in
      let (threads, each) = (8, 15)
      let times = Locked<[DocumentKey: Timestamp]>([:])
      Self.onThreads(threads) { thread in
        for index in 0..<each {
          let key = Self.key("writers/t\(thread)-\(index)")
          do {
            let result = try store.commit([Write(key: key, kind: .set(["thread": .integer(Int64(thread))]))])
            times.withLock { $0[key] = result.commitTime }
          } catch {
            Issue.record("thread \(thread): \(error)")
          }
        }
      }
      let all = times.withLock { $0 }
      #expect(all.count == threads * each)
      try Self.checkCommitTimes(all, in: store)
      #expect(store.environment.groupCommits.requests >= threads * each)
    }
  }

  @Test func eightHeldCommitsShareOneTransaction() throws {
    try withDurableStore { store in
      let before = store.environment.lastTransactionID()
      let times = Locked<[DocumentKey: Timestamp]>([:])
      store.environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        let key = Self.key("held/d\(thread)")
        do {
          let result = try store.commit([Write(key: key, kind: .set(["n": .integer(Int64(thread))]))])
          times.withLock { $0[key] = result.commitTime }
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      #expect(store.environment.lastTransactionID() == before + 1)
      let all = times.withLock { $0 }
      #expect(all.count == 8)
      try Self.checkCommitTimes(all, in: store)
    }
  }

  /// Once writers met in a group, the next leader waits a moment for as many requests as
  /// the last two groups had writers (`GroupCommitQueue.gather`); a wait that runs out is
  /// not repeated until writers meet in a group by themselves again, and a lone writer
  /// never waits.
  @Test func aLeaderWaitsForTheLastGroupsWritersOnlyWhileTheyKeepWriting() throws {
    try withDurableStore { store in
      let environment = store.environment
      @Sendable func commitAlone(_ path: String) throws {
        _ = try store.commit([Write(key: Self.key(path), kind: .set(["n": .integer(1)]))])
      }
      for index in 0..<5 { try commitAlone("alone/d\(index)") }
      #expect(environment.groupGatherings == 0)
      environment.holdNextGroup(untilQueued: 2)
      Self.onThreads(2) { thread in
        do { try commitAlone("pair/d\(thread)") } catch { Issue.record("thread \(thread): \(error)") }
      }
      // Three writers in the last two groups: this thread's next commit waits for the
      // other two, which do not come; the commits after it do not wait.
      let groupsBefore = environment.groupCommits.groups
      for index in 0..<5 { try commitAlone("again/d\(index)") }
      #expect(environment.groupGatherings == 1)
      #expect(environment.groupCommits.groups == groupsBefore + 5)
    }
  }

  /// In a group of eight, a batch that sets a document and then creates one that exists
  /// fails with `alreadyExists` and leaves both untouched; the other seven land, in the
  /// same single transaction.
  @Test func aFailingCommitInAGroupFailsAloneAndChangesNothing() throws {
    try withDurableStore { store in
      let existing = Self.key("group/existing")
      try store.commit([Write(key: existing, kind: .set(["v": .integer(1)]))])
      let before = store.environment.lastTransactionID()
      let failures = Locked<[Int: HearthError.Code]>([:])
      store.environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        var writes = [Write(key: Self.key("group/d\(thread)"), kind: .set(["n": .integer(Int64(thread))]))]
        if thread == 3 {
          writes.append(Write(key: existing, kind: .set(["v": .integer(2)]), precondition: .exists(false)))
        }
        do {
          try store.commit(writes)
        } catch let error as HearthError {
          failures.withLock { $0[thread] = error.code }
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      #expect(failures.withLock { $0 } == [3: .alreadyExists])
      #expect(store.environment.lastTransactionID() == before + 1)
      try store.read { reader throws in
        for thread in 0..<8 {
          #expect((try reader.document(Self.key("group/d\(thread)")) != nil) == (thread != 3))
        }
        #expect(try reader.document(existing)?.fields["v"] == .integer(1))
      }
    }
  }

  /// An observer of one collection, recording what each commit it is handed shows.
  final class Recorder: CommitObserver {
    let watched: [DocumentKey]
    /// Per commit: its keys, and how many of `watched` exist on the reader it was given.
    let seen = Locked<[(keys: [DocumentKey], present: Int)]>([])
    init(watched: [DocumentKey]) { self.watched = watched }

    func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
      let present = watched.filter { (try? reader.encodedDocument($0)) != nil }.count
      seen.withLock { $0.append((changes.keys, present)) }
    }
  }

  /// Listeners see commits one at a time, in order, each on the state that exactly it
  /// left: a commit that an observer follows ends its group. Eight held commits to a
  /// watched collection commit in eight transactions; the observer sees 1, 2, … 8 of them.
  @Test func listenersSeeEachCommitOnTheStateItLeft() throws {
    try withDurableStore { store in
      let keys = (0..<8).map { Self.key("watched/d\($0)") }
      let recorder = Recorder(watched: keys)
      let token = try store.observe(recorder, scope: .collection(ResourcePath(["watched"]))) { _ in }
      defer { store.observers.remove(token) }
      let before = store.environment.lastTransactionID()
      store.environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        do {
          try store.commit([Write(key: keys[thread], kind: .set(["n": .integer(Int64(thread))]))])
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      let seen = recorder.seen.withLock { $0 }
      #expect(seen.map(\.present) == Array(1...8))
      #expect(Set(seen.flatMap(\.keys)) == Set(keys))
      #expect(store.environment.lastTransactionID() == before + 8)
    }
  }

  /// Commits that no observer follows still group around one that is followed: one
  /// watched commit among eight held ones splits the group in two at most.
  @Test func unfollowedCommitsStillGroupAroundAFollowedOne() throws {
    try withDurableStore { store in
      let watched = Self.key("watched/one")
      let recorder = Recorder(watched: [watched])
      let token = try store.observe(recorder, scope: .document(watched)) { _ in }
      defer { store.observers.remove(token) }
      let before = store.environment.lastTransactionID()
      store.environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        let key = thread == 0 ? watched : Self.key("other/d\(thread)")
        do {
          try store.commit([Write(key: key, kind: .set(["n": .integer(Int64(thread))]))])
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      #expect(recorder.seen.withLock { $0.map(\.present) } == [1])
      let transactions = store.environment.lastTransactionID() - before
      #expect(transactions >= 1 && transactions <= 2)
    }
  }

  /// A commit inside a transaction's closure on the same thread still fails instead of
  /// deadlocking.
  @Test func aCommitInsideATransactionOnOneThreadFails() throws {
    try withDurableStore { store in
      let error = try #require(throws: HearthError.self) {
        _ = try store.transact { _ in
          try store.commit([Write(key: Self.key("c/d"), kind: .set([:]))])
          return ((), [])
        }
      }
      #expect(error.code == .failedPrecondition)
    }
  }
}

/// A value the test's threads share, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
