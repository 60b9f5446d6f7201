import Foundation
import HearthCore

/// The transactions clients have begun and not yet ended, and the document locks that
/// make them serializable.
///
/// A transaction spans calls: `BeginTransaction` (or a read's `new_transaction`) gives an
/// ID, reads name it, and `Commit` or `Rollback` ends it. An ID is valid once, in its own
/// database. A read-write transaction locks every document it reads (found or missing)
/// until it ends, so no other writer can change what it read before it commits: its
/// commit is serializable with everything else, as Firestore's pessimistic transactions
/// are. Writes without a transaction wait for the locks of the documents they write.
///
/// Contention is settled as in Firestore, without deadlocks or long waits (wound-wait,
/// by age): a transaction that needs a lock held by a younger one takes it, and the
/// younger one fails with ABORTED at its next call, which the client retries (keeping
/// its age, through `retry_transaction`, so it cannot starve); a younger one waits for
/// an older one. The older one first gives the younger one `woundGrace` to commit, unless
/// the younger one is itself waiting for a lock: a client usually commits within
/// milliseconds of its reads, and an abort it would retry costs more than the wait (with
/// many clients on one document, immediate wounds cascade: each retry wounds whoever
/// took the lock meanwhile, until clients run out of attempts). A transaction left idle
/// for `idleLimit` expires and frees its locks, and no wait lasts longer than
/// `waitLimit`.
///
/// An ID stays known after its transaction ends, so that `Rollback` of an ended one
/// succeeds, as on Google's emulator (clients roll back after a commit failed), and
/// other calls tell an ended transaction from one that never was.
///
/// Read-only transactions take no locks; their reads see the database as it was at their
/// `read_time`, or, without one, at the last commit before they began, so that all of
/// them see one state (as on Google's emulator, where a write after a read-only
/// transaction began is not seen by its reads).
final class ServerTransactions: @unchecked Sendable {
  // @unchecked Sendable: every stored property is read and written with `condition`
  // locked.
  struct Open {
    let database: DatabaseName
    let readOnly: Bool
    /// A read-only transaction's `read_time`: its reads see the database as it was then.
    var readTime: Timestamp? = nil
    /// Lower is older; a retry keeps the age of the transaction it retries.
    let age: UInt64
    var lastUse: ContinuousClock.Instant
    var locks: Set<DocumentKey> = []
    /// An older transaction took its locks: its next call fails with ABORTED.
    var wounded = false
    /// Its commit is under way: it can no longer be wounded.
    var committing = false
    /// It waits for a lock: an older one that needs its locks wounds it at once.
    var waiting = false
  }

  private struct Holder: Hashable {
    let database: DatabaseName
    let key: DocumentKey
  }

  static let idleLimit = Duration.seconds(60)
  static let waitLimit = Duration.seconds(20)
  /// How long a write outside transactions waits for their locks: Google's emulator's
  /// lock timeout, after which it answers ABORTED ("Transaction lock timeout.") and the
  /// transaction goes on.
  static let writeWaitLimit = Duration.seconds(2)
  /// How many ended transactions are remembered (for their rollbacks and retries).
  static let endedLimit = 10_000

  private let woundGrace: Duration
  private let condition = NSCondition()
  private var open: [Data: Open] = [:]
  private var holders: [Holder: Data] = [:]
  private var nextAge: UInt64 = 0

  init(woundGrace: Duration) {
    self.woundGrace = woundGrace
  }

  /// A new transaction's ID: 16 random bytes. A retry (`retry_transaction`) inherits the
  /// age of the one it retries. A read-only transaction without a `read_time` takes
  /// `pin()` as its own.
  ///
  /// - Throws: `invalidArgument` for a retry of a transaction this database never began
  ///   (Google's emulator's words).
  func begin(
    in database: DatabaseName, options: FirestoreV1.TransactionOptions?, pin: () throws -> Timestamp? = { nil }
  ) throws -> Data {
    var generator = SystemRandomNumberGenerator()
    let id = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    var readOnly = false
    var readTime: Timestamp?
    var retried: Data?
    switch options?.mode {
    case .readOnly(let time)?:
      readOnly = true
      readTime = try time ?? pin()
    case .readWrite(let retry)?: retried = retry
    case nil: break
    }
    return try locked {
      expireIdle()
      let age: UInt64
      if let retried, !retried.isEmpty {
        // A retry keeps the age of the transaction it retries, which this database began.
        let open = open[retried].flatMap { $0.database == database ? $0.age : nil }
        guard let previous = ended[retried]?.age ?? open else {
          throw HearthError(.invalidArgument, "Invalid transaction.")
        }
        age = previous
      } else {
        age = nextAge
        nextAge += 1
      }
      open[id] = Open(database: database, readOnly: readOnly, readTime: readTime, age: age, lastUse: .now)
      return id
    }
  }

  /// Transactions that ended, with their ages for their retries, oldest first in
  /// `endedOrder`.
  private var ended: [Data: (database: DatabaseName, age: UInt64)] = [:]
  private var endedOrder: [Data] = []

  /// Checks the transaction for a read and, for a read-write one, locks `keys` for it
  /// (waiting for younger holders to be wounded, or for older ones to end).
  ///
  /// A wounded transaction still reads, without locks: it learns of its abort when it
  /// commits, where clients retry (Google's Python client retries only a commit's
  /// ABORTED; one from a read ends its transaction function).
  ///
  /// - Returns: the `read_time` of a read-only transaction that has one.
  /// - Throws: `invalidArgument` for an unknown, ended, expired or foreign ID; `aborted`
  ///   when a lock did not come in time.
  @discardableResult
  func read(_ id: Data, in database: DatabaseName, locking keys: [DocumentKey]) throws -> Timestamp? {
    try locked {
      var transaction = try valid(id, in: database)
      transaction.lastUse = .now
      open[id] = transaction
      guard !transaction.readOnly else { return transaction.readTime }
      for key in keys {
        guard try lock(key, for: id, in: database) else { return nil }
      }
      return nil
    }
  }

  /// Ends the transaction for its commit and runs `commit` while it still holds its
  /// locks, which it also takes for the documents it writes; then frees them all.
  ///
  /// - Throws: as `read`; `aborted` when an older transaction wounded this one;
  ///   `invalidArgument` for writes in a read-only transaction.
  func commit<R>(
    _ id: Data, in database: DatabaseName, writing keys: [DocumentKey], _ commit: () throws -> R
  ) throws -> R {
    try locked {
      let transaction = try valid(id, in: database)
      if transaction.readOnly, !keys.isEmpty {
        end(id)
        throw HearthError(.invalidArgument, "Cannot modify entities in a read-only transaction")
      }
      for key in keys {
        guard try lock(key, for: id, in: database) else { break }
      }
      guard open[id]?.wounded == false else {
        end(id)
        throw Self.aborted
      }
      open[id]?.committing = true
    }
    defer { locked { end(id) } }
    return try commit()
  }

  /// Ends the transaction without writing (`Rollback`); one that has already ended stays
  /// ended.
  ///
  /// - Throws: `invalidArgument` for an ID this server never gave in this database.
  func rollback(_ id: Data, in database: DatabaseName) throws {
    try locked {
      if ended[id]?.database == database { return }
      _ = try valid(id, in: database)
      end(id)
    }
  }

  /// Runs a write that belongs to no transaction once no transaction holds a lock on
  /// the documents it writes: all of them at once, so it never holds one while waiting.
  ///
  /// - Throws: `aborted` when the locks stay held past `writeWaitLimit`; what `write` throws.
  func withoutTransaction<R>(in database: DatabaseName, writing keys: [DocumentKey], _ write: () throws -> R) throws
    -> R
  {
    // The write holds the documents' locks while it runs (as a transaction that is
    // committing, which nothing can wound), so no transaction reads them meanwhile.
    let id = Data("write-\(UUID().uuidString)".utf8)
    try locked {
      let deadline = ContinuousClock.now + Self.writeWaitLimit
      while keys.contains(where: { holders[Holder(database: database, key: $0)] != nil }) {
        guard wait(until: deadline) else {
          throw HearthError(.aborted, "Transaction lock timeout: a transaction holds these documents")
        }
      }
      var write = Open(database: database, readOnly: false, readTime: nil, age: .max, lastUse: .now)
      write.committing = true
      for key in keys {
        holders[Holder(database: database, key: key)] = id
        write.locks.insert(key)
      }
      open[id] = write
    }
    defer { locked { end(id, remembered: false) } }
    return try write()
  }

  // MARK: - With the condition locked

  private func locked<R>(_ body: () throws -> R) rethrows -> R {
    condition.lock()
    defer { condition.unlock() }
    return try body()
  }

  private func valid(_ id: Data, in database: DatabaseName) throws -> Open {
    guard let transaction = open[id], transaction.database == database else {
      let state =
        ended[id]?.database == database
        ? "is invalid or closed: it has ended or expired" : "is not valid: this database never began it"
      throw HearthError(.invalidArgument, "Transaction \(id.base64EncodedString()) \(state)")
    }
    if ContinuousClock.now - transaction.lastUse >= Self.idleLimit {
      end(id)
      throw HearthError(.invalidArgument, "Transaction \(id.base64EncodedString()) has expired")
    }
    return transaction
  }

  /// Takes `key`'s lock for `id`: at once when free; from a younger holder that is
  /// waiting itself or has not committed within `woundGrace`, by wounding it; from an
  /// older one, after it ends. False when `id` is or gets wounded.
  ///
  /// - Throws: `aborted` (ending `id`) when the lock did not come within `waitLimit`.
  private func lock(_ key: DocumentKey, for id: Data, in database: DatabaseName) throws -> Bool {
    let holder = Holder(database: database, key: key)
    let start = ContinuousClock.now
    let deadline = start + Self.waitLimit
    let woundAt = start + woundGrace
    defer { open[id]?.waiting = false }
    while true {
      guard let mine = open[id], !mine.wounded else { return false }
      guard let current = holders[holder], current != id else {
        holders[holder] = id
        open[id]?.locks.insert(key)
        return true
      }
      var until = deadline
      if let other = open[current], other.age > mine.age, !other.committing {
        if other.waiting || ContinuousClock.now >= woundAt {
          wound(current)
          continue
        }
        until = woundAt
      }
      if !mine.waiting {
        open[id]?.waiting = true
        // An older transaction waiting out its grace for this one's locks must not wait.
        condition.broadcast()
      }
      guard wait(until: until) || until == woundAt else {
        end(id)
        throw HearthError(.aborted, "Transaction lock timeout: \(key) stayed locked by another transaction")
      }
    }
  }

  /// Marks `id` aborted and frees its locks (its client learns at its next call).
  private func wound(_ id: Data) {
    guard var transaction = open[id] else { return }
    transaction.wounded = true
    release(&transaction)
    open[id] = transaction
    condition.broadcast()
  }

  /// Ends `id` and frees its locks; a transaction's ID and age are kept (`remembered`)
  /// for its rollback and retries.
  private func end(_ id: Data, remembered: Bool = true) {
    guard var transaction = open.removeValue(forKey: id) else { return }
    release(&transaction)
    if remembered {
      if endedOrder.count >= Self.endedLimit {
        let forgotten = endedOrder.prefix(Self.endedLimit / 2)
        for old in forgotten { ended[old] = nil }
        endedOrder.removeFirst(forgotten.count)
      }
      ended[id] = (transaction.database, transaction.age)
      endedOrder.append(id)
    }
    condition.broadcast()
  }

  private func release(_ transaction: inout Open) {
    for key in transaction.locks { holders[Holder(database: transaction.database, key: key)] = nil }
    transaction.locks.removeAll()
  }

  /// Ends the transactions idle for `idleLimit`, freeing their locks.
  private func expireIdle() {
    let now = ContinuousClock.now
    for (id, transaction) in open where now - transaction.lastUse >= Self.idleLimit && !transaction.committing {
      end(id)
    }
  }

  /// Waits for a change of the locks, at most until `deadline` (and a second, to look
  /// for idle transactions again); false once the deadline has passed.
  private func wait(until deadline: ContinuousClock.Instant) -> Bool {
    let now = ContinuousClock.now
    guard now < deadline else { return false }
    let left = min(deadline - now, .seconds(1))
    let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
    expireIdle()
    return true
  }

  private static let aborted = HearthError(
    .aborted, "Transaction was aborted: an older transaction needed the documents it had read; retry it")
}
