import Foundation
import HearthCore

/// What a lock covers: a document, or the range a query read — a collection, or every
/// collection of a collection group (an empty ID: every collection, for a query of all
/// descendants with no collection ID).
enum LockTarget: Hashable, CustomStringConvertible {
  case document(DocumentKey)
  case collection(ResourcePath)
  case group(String)

  /// What `query` reads: its collection, or its collection group (for a group below a
  /// document too: the lock is coarser than the query, never finer).
  init(readBy query: FirestoreV1.StructuredQuery) {
    self = query.allDescendants ? .group(query.collectionID) : .collection(query.parent.appending(query.collectionID))
  }

  /// The targets a write of `key` takes for writing: the document, and its collection
  /// and group, so that it waits for the transactions whose queries read those.
  static func written(_ key: DocumentKey) -> [LockTarget] {
    [.document(key), .collection(key.collectionPath), .group(key.collectionGroup), .group("")]
  }

  /// Whether `mode` excludes `other` here. On a document only readers share; writers
  /// into a collection or group exclude only its readers (their documents' own locks
  /// exclude one another), and a retry's query reads it as any reader.
  func excludes(_ mode: LockMode, _ other: LockMode) -> Bool {
    guard case .document = self else { return (mode == .write) != (other == .write) }
    return mode != .read || other != .read
  }

  var description: String {
    switch self {
    case .document(let key): "\(key)"
    case .collection(let path): "collection \(path)"
    case .group(let id): id.isEmpty ? "every collection" : "collection group \(id)"
    }
  }
}

/// How a lock is held: for reading, shared; for reading what a transaction will likely
/// write (a retry's reads), a document's alone (a collection's shared, as a reader's);
/// for writing.
enum LockMode: CaseIterable {
  case read, update, write
}

/// The transactions clients have begun and not yet ended, and the locks that make them
/// serializable.
///
/// A transaction spans calls: `BeginTransaction` (or a read's `new_transaction`) gives an
/// ID, reads name it, and `Commit` or `Rollback` ends it. An ID is valid once, in its own
/// database. A read-write transaction takes a shared lock on every document it reads
/// (found or missing), and on the range every query it runs reads (its collection, or
/// its collection group), until it ends; its commit takes an exclusive lock on each
/// document it writes, and a writer's lock on the document's collection and group, which
/// no other transaction may hold a query's lock on. So transactions read the same
/// documents at once, no other writer changes what one read (or adds to, or takes from,
/// what its queries read) before it commits, and its commit is serializable with
/// everything else, as Firestore's pessimistic transactions are. Google's emulator locks
/// the same: a query locks its whole collection, whatever its filters and limit. Writes
/// without a transaction take the same locks as a commit, all at once.
///
/// Contention is settled as in Firestore, without deadlocks (wound-wait, by age): a
/// transaction that needs a lock held by a younger one takes it, and the younger one
/// fails with ABORTED at its next call, which the client retries (keeping its age,
/// through `retry_transaction`, so it cannot starve); a younger one waits for an older
/// one. The older one first gives the younger one `woundGrace` to commit, unless the
/// younger one is itself waiting for a lock: a client usually commits within
/// milliseconds of its reads, and an abort it would retry costs more than the wait (with
/// many clients on one document, immediate wounds cascade: each retry wounds whoever
/// took the lock meanwhile, until clients run out of attempts). A retry's reads take
/// update locks, which no other transaction shares: transactions that read one document
/// at once and were aborted for it then take turns rather than abort one another again
/// (all of them read the document, which their writes change, so only one of each round
/// could commit), and new transactions read it after them. A lock that comes free goes
/// to the oldest transaction waiting for it. No wait lasts longer than `waitLimit`,
/// Google's emulator's lock timeout, after which a commit fails with ABORTED, and a read
/// goes on without its lock, its transaction aborted at its commit (Google's clients
/// retry a commit's ABORTED, not a read's). (Where an older transaction commits a write
/// to a document a younger one read, the emulator makes the older one's commit time out,
/// and the younger one may commit; Hearth, as production Firestore, lets the older one
/// win.) A transaction left idle for `idleLimit` expires and frees its locks.
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
    /// A retry of an aborted transaction: its reads take update locks.
    var isRetry = false
    var lastUse: ContinuousClock.Instant
    var locks: Set<LockTarget> = []
    /// An older transaction took its locks, or a read's lock did not come in time: its
    /// commit fails with ABORTED, for this reason.
    var wounded: HearthError?
    /// Its commit is under way: it can no longer be wounded.
    var committing = false
  }

  private struct Holder: Hashable {
    let database: DatabaseName
    let target: LockTarget
  }

  /// The transactions (and plain writes) that hold one target's lock, by mode.
  private typealias Holders = [LockMode: Set<Data>]

  static let idleLimit = Duration.seconds(60)
  /// How long a call waits for a lock: Google's emulator's lock timeout, after which it
  /// answers ABORTED ("Transaction lock timeout.") and the holder goes on.
  static let waitLimit = Duration.seconds(2)
  /// How many ended transactions are remembered (for their rollbacks and retries).
  static let endedLimit = 10_000

  private let woundGrace: Duration
  private let condition = NSCondition()
  private var open: [Data: Open] = [:]
  private var holders: [Holder: Holders] = [:]
  /// The transactions waiting for a lock, and the lock each waits for: an older one that
  /// needs a waiter's locks wounds it at once, and a younger one waits behind it for a
  /// lock its mode excludes. Few at any time, so that a lock taken looks through these
  /// rather than through every open transaction.
  private var waiting: [Data: (target: LockTarget, mode: LockMode)] = [:]
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
      open[id] = Open(
        database: database, readOnly: readOnly, readTime: readTime, age: age, isRetry: retried?.isEmpty == false,
        lastUse: .now)
      return id
    }
  }

  /// Transactions that ended, with their ages for their retries, oldest first in
  /// `endedOrder`.
  private var ended: [Data: (database: DatabaseName, age: UInt64)] = [:]
  private var endedOrder: [Data] = []

  /// Checks the transaction for a read and, for a read-write one, takes the shared locks
  /// of `targets` for it (waiting for a younger writer to be wounded, or for an older
  /// one, or a commit under way, to end).
  ///
  /// A wounded transaction still reads, without locks: it learns of its abort when it
  /// commits, where clients retry (Google's Python client retries only a commit's
  /// ABORTED; one from a read ends its transaction function). So does one whose lock did
  /// not come within `waitLimit`: it is wounded.
  ///
  /// - Returns: the `read_time` of a read-only transaction that has one.
  /// - Throws: `invalidArgument` for an unknown, ended, expired or foreign ID.
  @discardableResult
  func read(_ id: Data, in database: DatabaseName, locking targets: [LockTarget]) throws -> Timestamp? {
    try locked {
      var transaction = try valid(id, in: database)
      transaction.lastUse = .now
      open[id] = transaction
      guard !transaction.readOnly else { return transaction.readTime }
      for target in targets {
        switch lock(target, transaction.isRetry ? .update : .read, for: id, in: database) {
        case .held: continue
        case .wounded: return nil
        case .timedOut:
          // Clients retry a commit's ABORTED, not a read's: the read goes on without its
          // lock, and the commit aborts.
          wound(id, Self.timedOut(target))
          return nil
        }
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
      locking: for key in keys {
        for target in LockTarget.written(key) {
          switch lock(target, .write, for: id, in: database) {
          case .held: continue
          case .wounded: break locking
          case .timedOut:
            end(id)
            throw Self.timedOut(target)
          }
        }
      }
      if let reason = open[id]?.wounded {
        end(id)
        throw reason
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

  /// Runs a write that belongs to no transaction once no transaction holds a lock it
  /// needs (the documents it writes, a query's lock on their collections): all of them
  /// at once, so it never holds one while waiting.
  ///
  /// - Throws: `aborted` when the locks stay held past `waitLimit`; what `write` throws.
  func withoutTransaction<R>(in database: DatabaseName, writing keys: [DocumentKey], _ write: () throws -> R) throws
    -> R
  {
    // The write holds its locks while it runs (as a transaction that is committing, which
    // nothing can wound), so no transaction reads its documents meanwhile.
    let id = Data("write-\(UUID().uuidString)".utf8)
    let targets = Set(keys.flatMap(LockTarget.written))
    try locked {
      let deadline = ContinuousClock.now + Self.waitLimit
      while let held = targets.first(where: { !conflicts($0, .write, for: id, in: database).isEmpty }) {
        guard wait(until: deadline) else {
          throw HearthError(.aborted, "Transaction lock timeout: a transaction holds \(held)")
        }
      }
      var write = Open(database: database, readOnly: false, readTime: nil, age: .max, lastUse: .now)
      write.committing = true
      open[id] = write
      for target in targets { hold(target, .write, for: id, in: database) }
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

  /// The others that hold `target`'s lock in a mode that excludes `mode`.
  private func conflicts(_ target: LockTarget, _ mode: LockMode, for id: Data, in database: DatabaseName) -> [Data] {
    guard let held = holders[Holder(database: database, target: target)] else { return [] }
    var others = Set<Data>()
    for (other, ids) in held where target.excludes(mode, other) { others.formUnion(ids) }
    others.remove(id)
    return Array(others)
  }

  /// Records that `id` (open) holds `target`'s lock in `mode`.
  private func hold(_ target: LockTarget, _ mode: LockMode, for id: Data, in database: DatabaseName) {
    holders[Holder(database: database, target: target), default: [:]][mode, default: []].insert(id)
    open[id]?.locks.insert(target)
  }

  /// How a wait for a lock ended.
  private enum Grant {
    case held, wounded, timedOut
  }

  /// Takes `target`'s lock for `id` in `mode`: at once when no other holder excludes it
  /// and no older transaction waits for it, unless `id` holds it already (a lock that
  /// comes free goes to the oldest first, so that a hot document's waiters do not race
  /// for it and abort one another); from younger holders that are waiting themselves or
  /// have not committed within `woundGrace`, by wounding them; from older ones, after
  /// they end. `timedOut` when the lock did not come within `waitLimit`.
  private func lock(_ target: LockTarget, _ mode: LockMode, for id: Data, in database: DatabaseName) -> Grant {
    let start = ContinuousClock.now
    let deadline = start + Self.waitLimit
    let woundAt = start + woundGrace
    defer { waiting[id] = nil }
    while true {
      guard let mine = open[id], mine.wounded == nil else { return .wounded }
      let others = conflicts(target, mode, for: id, in: database)
      // One that holds the target already (reading a document again) goes before its
      // waiters, which wait for it.
      if others.isEmpty, mine.locks.contains(target) || !olderWaits(for: target, excluding: mode, than: mine) {
        hold(target, mode, for: id, in: database)
        return .held
      }
      var until = deadline
      var woundedAny = false
      for current in others {
        guard let other = open[current], other.age > mine.age, !other.committing else { continue }
        if waiting[current] != nil || ContinuousClock.now >= woundAt {
          wound(current)
          woundedAny = true
        } else {
          until = min(until, woundAt)
        }
      }
      if woundedAny { continue }
      if waiting[id] == nil {
        waiting[id] = (target, mode)
        // An older transaction waiting out its grace for this one's locks must not wait.
        condition.broadcast()
      }
      guard wait(until: until) || until == woundAt else { return .timedOut }
    }
  }

  /// Whether a transaction older than `mine` waits for `target` in a mode that excludes
  /// `mode`.
  private func olderWaits(for target: LockTarget, excluding mode: LockMode, than mine: Open) -> Bool {
    waiting.contains { id, wanted in
      guard wanted.target == target, target.excludes(mode, wanted.mode), let other = open[id] else { return false }
      return other.age < mine.age && other.wounded == nil && other.database == mine.database
    }
  }

  /// Marks `id` aborted and frees its locks (its client learns at its commit).
  private func wound(_ id: Data, _ reason: HearthError = aborted) {
    guard var transaction = open[id] else { return }
    transaction.wounded = reason
    release(&transaction, id)
    open[id] = transaction
    condition.broadcast()
  }

  /// Ends `id` and frees its locks; a transaction's ID and age are kept (`remembered`)
  /// for its rollback and retries.
  private func end(_ id: Data, remembered: Bool = true) {
    guard var transaction = open.removeValue(forKey: id) else { return }
    release(&transaction, id)
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

  private func release(_ transaction: inout Open, _ id: Data) {
    for target in transaction.locks {
      let holder = Holder(database: transaction.database, target: target)
      for mode in LockMode.allCases { holders[holder]?[mode]?.remove(id) }
      if holders[holder]?.values.allSatisfy(\.isEmpty) == true { holders[holder] = nil }
    }
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

  private static func timedOut(_ target: LockTarget) -> HearthError {
    HearthError(.aborted, "Transaction lock timeout: \(target) stayed locked by another transaction")
  }
}
