import CLMDB
import Dispatch
import Foundation
import Synchronization

/// Group commit: durable writes that this process's threads make at the same time share
/// one LMDB write transaction, its journal record and that record's sync
/// (Environment+Journal.swift; a writer alone pays a sync for every commit), and the
/// branch pages their changes have in common.
///
/// How it works (a leader/follower queue):
/// - A writer enqueues its request. When no leader is running it becomes the leader;
///   otherwise it sleeps until a leader has committed its request, or hands it the lead.
/// - The leader takes the writer lock (so groups are serialized with `write { }`, which
///   keeps its own path), takes every request queued by then — its own first — and runs
///   them in order in one transaction, each body as if it were alone (each computes what
///   it writes from the transaction, so it sees the requests before it). It commits once,
///   durably; then, still under the writer lock, runs each request's `afterCommit` in
///   order and wakes its writer: no writer returns before the shared commit is durable,
///   and what follows commits sees them one at a time, in order. Requests that arrived
///   meanwhile wait for the next group, whose leader is the first of them.
/// - A request whose body throws must change nothing and must not fail the others. The
///   group does not use LMDB's nested transactions for that (a child transaction
///   allocates a dirty list of 128k entries and copies every page it touches that its
///   parent dirtied); it runs the bodies straight in the shared transaction and, when
///   one throws, aborts and runs the group again without it. Failures are rare on this
///   path (a failed precondition), every rerun drops one request, and bodies are
///   re-runnable anyway (a full map reruns them too).
/// - When several threads keep writing, the leader first waits a moment (`gather`) until
///   as many requests are queued as the last two groups had writers: each of them is
///   back with its next write soon after its group is durable, and one group of all of
///   them shares the journal sync and the branch pages that two alternating halves would
///   each pay (8 threads: ~14 pages a write instead of ~17). A lone writer never waits,
///   and once a wait runs out none is made until writers meet in a group by themselves
///   again, so writers that pause pay it once.
/// - A group ends early after a request whose `endsGroup` says so (the engine's
///   listeners need a reader on the state that exactly their commit left: only the
///   last request of a group gets that), and at `groupWeightLimit` writes (so that a
///   group stays well inside LMDB's dirty-page limit: when a request meets
///   `MDB_TXN_FULL` after others, it and the rest go to the next group).
/// - Nothing here weakens crash safety: every group is one ordinary journaled commit
///   (`commitJournaled`), synced before any of its writers returns. Other processes'
///   writers are serialized by LMDB's own lock.
extension Environment {
  /// At most this many writes (the sum of the requests' `weight`) go into one group,
  /// as in one batch of 1,000.
  static let groupWeightLimit = 1000

  /// Runs `body` durably in a write transaction that concurrent callers of this method
  /// share, and returns once that transaction's commit is durable.
  ///
  /// `body` runs on whichever thread leads the group, so it must be `@Sendable`, and it
  /// may run more than once (after another request of its group failed, or the map
  /// grew): it must compute everything it writes from the transaction it is given.
  ///
  /// - Parameters:
  ///   - weight: how many writes `body` makes, for the group's size limit.
  ///   - endsGroup: asked, under the writer lock, when the group is formed: `true` makes
  ///     this request the last of its group, so that its `afterCommit` reads exactly the
  ///     state it left.
  ///   - afterCommit: runs with `body`'s result once the shared commit is durable, in the
  ///     group's order, before the next write of this process can begin (as in
  ///     `write(durable:afterCommit:_:)`), on the leader's thread.
  /// - Throws: `StorageError` with `EDEADLK` for a write inside a write on one thread;
  ///   whatever `body` throws (only this request fails); LMDB's errors, which fail the
  ///   whole group (`ENOSPC` when the disk is full).
  package func groupedWrite<R: Sendable>(
    weight: Int = 1, endsGroup: @escaping @Sendable () -> Bool = { false },
    afterCommit: (@Sendable (R) -> Void)? = nil, _ body: @escaping @Sendable (WriteTransaction) throws -> R
  ) throws -> R {
    if WriterThread.isWriting(self) {
      throw StorageError(code: EDEADLK, operation: "mdb_txn_begin (a write inside a write on one thread)")
    }
    let request = TypedGroupRequest(weight: weight, endsGroup: endsGroup, afterCommit: afterCommit, body: body)
    if !groupQueue.enqueue(request) { request.wakeup.wait() }
    if groupQueue.role(of: request) == .leader { lead(request) }
    if let failure = request.failure { throw failure }
    guard let result = request.result else {
      throw StorageError(code: EINVAL, operation: "group commit (a request ended without a result)")
    }
    return result
  }

  /// How many groups this process committed, and how many requests they held: the
  /// second divided by the first is the mean group size.
  package var groupCommits: (groups: Int, requests: Int) {
    (groupQueue.groups.load(ordering: .relaxed), groupQueue.requests.load(ordering: .relaxed))
  }

  /// How many times a leader waited for the last groups' writers (`gather`).
  package var groupGatherings: Int { groupQueue.gatherings.load(ordering: .relaxed) }

  /// A test hook: the next leader waits until `count` requests (its own included) are
  /// queued, or `timeout` has passed, before it forms its group, so that a test can make
  /// a group of a known size without depending on timing.
  package func holdNextGroup(untilQueued count: Int, timeout: Duration = .seconds(30)) {
    groupQueue.condition.withLock {
      groupQueue.hold = (count, Date().addingTimeInterval(Double(timeout.components.seconds)))
    }
  }

  /// Leads one group, whose first request is `own`, then hands the lead to the first
  /// request queued meanwhile.
  private func lead(_ own: GroupRequest) {
    if !groupQueue.waitForHold() { groupQueue.gather() }
    writerLock.lock()
    WriterThread.set(self)
    var members = groupQueue.takeGroup()
    commit(&members, own: own)
    WriterThread.set(nil)
    writerLock.unlock()
    groupQueue.handOff()
  }

  /// Runs the group's requests in one transaction and commits it; on return every
  /// request of `members` (and any dropped from it) has its outcome and is woken.
  private func commit(_ members: inout [GroupRequest], own: GroupRequest) {
    clearStaleReadersEverySecond()
    func finish(_ request: GroupRequest, _ failure: (any Error)?) {
      request.failure = failure
      groupQueue.finish(request, wake: request !== own)
    }
    func failAll(_ error: any Error) {
      for request in members { finish(request, error) }
      members.removeAll()
    }
    while !members.isEmpty {
      let env: OpaquePointer
      let txn: OpaquePointer
      do {
        try growIfNearlyFull()
        (env, txn) = try begin("write") { env, txn in mdb_txn_begin(env, nil, 0, &txn) }
      } catch {
        return failAll(error)
      }
      let transaction = WriteTransaction(txn)
      var failed: (index: Int, error: any Error)?
      do {
        try checkpointIfDue(env, txn)
      } catch {
        transaction.end()
        mdb_txn_abort(txn)
        gate.unlock()
        return failAll(error)
      }
      for (index, request) in members.enumerated() {
        do {
          try request.run(transaction)
        } catch {
          failed = (index, error)
          break
        }
      }
      transaction.end()
      if transaction.ranOutOfMap || failed != nil {
        mdb_txn_abort(txn)
        gate.unlock()
        if transaction.ranOutOfMap {
          do { try grow() } catch { return failAll(error) }
        } else if let (index, error) = failed {
          if index > 0, (error as? StorageError)?.isTransactionFull == true {
            // Too much for one transaction with the requests before it: it leads the
            // next group instead.
            groupQueue.putBack(Array(members[index...]))
            members.removeSubrange(index...)
          } else {
            finish(members.remove(at: index), error)
          }
        }
        continue
      }
      let rc: Int32
      do {
        rc = try commitJournaled(transaction, txn, durable: true)
      } catch {
        return failAll(error)
      }
      if rc == MDB_MAP_FULL {
        do { try grow() } catch { return failAll(error) }
        continue
      }
      guard rc == MDB_SUCCESS else {
        return failAll(StorageError(code: diskFullWhenOutOfSpace(rc), operation: "mdb_txn_commit"))
      }
      groupQueue.groups.add(1, ordering: .relaxed)
      groupQueue.requests.add(members.count, ordering: .relaxed)
      for request in members {
        request.committed()
        finish(request, nil)
      }
      members.removeAll()
    }
  }
}

/// The requests waiting for a group, and whether a leader is running. Every `var` is
/// guarded by `condition`. Invariant: requests wait only while a leader runs (the leader
/// hands the lead to the first of them when it is done).
final class GroupCommitQueue: @unchecked Sendable {
  let condition = NSCondition()
  private var waiting: [GroupRequest] = []
  private var leading = false
  /// The test hook of `Environment.holdNextGroup`: how many requests the next leader
  /// waits for, and until when.
  var hold: (count: Int, deadline: Date)?
  let groups = Atomic<Int>(0)
  let requests = Atomic<Int>(0)
  let gatherings = Atomic<Int>(0)
  /// How long a leader waits for the writers of the last groups (`gather`): well under
  /// a journal sync, time enough for a woken writer to make its next request.
  static let gatherPatience: TimeInterval = 0.000_2
  /// The threads whose requests the last group held.
  private var lastWriters: [pthread_t] = []
  /// How many threads the last two groups' requests came from.
  private var recentWriters = 1
  /// Whether a leader is waiting in `gather`, and whether it waited for this group.
  private var gathering = false
  private var gathered = false
  /// Whether the last wait ran out before the writers were back.
  private var gatheringRanOut = false

  /// Queues `request`; returns whether it leads (no leader was running).
  func enqueue(_ request: GroupRequest) -> Bool {
    condition.withLock {
      waiting.append(request)
      if hold != nil || gathering { condition.broadcast() }
      guard !leading else { return false }
      leading = true
      request.role = .leader
      return true
    }
  }

  func role(of request: GroupRequest) -> GroupRequest.Role { condition.withLock { request.role } }

  /// Waits as `hold` asks, then clears it; returns whether there was a hold.
  func waitForHold() -> Bool {
    condition.withLock {
      guard let (count, deadline) = hold else { return false }
      while waiting.count < count, condition.wait(until: deadline) {}
      hold = nil
      gathered = false
      return true
    }
  }

  /// Waits up to `gatherPatience` until as many requests are queued as the last two
  /// groups had writers, when that is more than one and the last such wait did not run
  /// out (see the type's comment in `Environment`).
  func gather() {
    condition.withLock {
      gathered = recentWriters > 1 && !gatheringRanOut && waiting.count < recentWriters
      guard gathered else { return }
      gatherings.add(1, ordering: .relaxed)
      gathering = true
      defer { gathering = false }
      let deadline = Date(timeIntervalSinceNow: Self.gatherPatience)
      while waiting.count < recentWriters {
        guard condition.wait(until: deadline) else {
          gatheringRanOut = waiting.count < recentWriters
          return
        }
      }
    }
  }

  /// The next group: the requests queued now, in order, up to the first whose
  /// `endsGroup` is true and within `Environment.groupWeightLimit`; the others stay
  /// queued, first. Called by the leader under the writer lock.
  func takeGroup() -> [GroupRequest] {
    let queued = condition.withLock {
      defer { waiting.removeAll() }
      return waiting
    }
    var members: [GroupRequest] = []
    var weight = 0
    for request in queued {
      if !members.isEmpty, weight + request.weight > Environment.groupWeightLimit { break }
      members.append(request)
      weight += request.weight
      if request.endsGroup() { break }
    }
    if members.count < queued.count { putBack(Array(queued[members.count...])) }
    let writers = members.map(\.writer)
    condition.withLock {
      var distinct: [pthread_t] = []
      for writer in lastWriters + writers where !distinct.contains(where: { pthread_equal($0, writer) != 0 }) {
        distinct.append(writer)
      }
      recentWriters = distinct.count
      lastWriters = writers
      // Writers met in a group without a wait: they are busy again.
      if !gathered, members.count > 1 { gatheringRanOut = false }
    }
    return members
  }

  /// Returns requests to the front of the queue, in order.
  func putBack(_ requests: [GroupRequest]) {
    condition.withLock { waiting.insert(contentsOf: requests, at: 0) }
  }

  /// Marks `request` done, waking its writer when it is not the leader's own.
  func finish(_ request: GroupRequest, wake: Bool) {
    condition.withLock { request.role = .done }
    if wake { request.wakeup.signal() }
  }

  /// Ends a leader's turn: the first request queued leads next, or no one does.
  func handOff() {
    let next: GroupRequest? = condition.withLock {
      guard let first = waiting.first else {
        leading = false
        return nil
      }
      first.role = .leader
      return first
    }
    next?.wakeup.signal()
  }
}

/// One writer's request in the group queue. `role` is guarded by the queue's condition;
/// `failure` and the result are written by the leader before it marks the request done
/// and signals `wakeup`, and read by the writer after it wakes.
class GroupRequest: @unchecked Sendable {
  enum Role { case waiting, leader, done }
  var role = Role.waiting
  var failure: (any Error)?
  let weight: Int
  let endsGroup: @Sendable () -> Bool
  let wakeup = DispatchSemaphore(value: 0)
  /// The thread that made the request (for `GroupCommitQueue.gather`).
  let writer = pthread_self()

  init(weight: Int, endsGroup: @escaping @Sendable () -> Bool) {
    self.weight = max(1, weight)
    self.endsGroup = endsGroup
  }

  /// Runs the body in the group's transaction, keeping its result.
  func run(_ txn: WriteTransaction) throws {}
  /// Runs `afterCommit` on the result.
  func committed() {}
}

final class TypedGroupRequest<R: Sendable>: GroupRequest, @unchecked Sendable {
  private let body: @Sendable (WriteTransaction) throws -> R
  private let afterCommit: (@Sendable (R) -> Void)?
  var result: R?

  init(
    weight: Int, endsGroup: @escaping @Sendable () -> Bool, afterCommit: (@Sendable (R) -> Void)?,
    body: @escaping @Sendable (WriteTransaction) throws -> R
  ) {
    self.body = body
    self.afterCommit = afterCommit
    super.init(weight: weight, endsGroup: endsGroup)
  }

  override func run(_ txn: WriteTransaction) throws {
    result = nil
    result = try body(txn)
  }

  override func committed() {
    if let result { afterCommit?(result) }
  }
}
