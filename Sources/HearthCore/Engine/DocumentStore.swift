import Foundation
import HearthStorage
import Synchronization

/// The engine of one open database: documents in LMDB, read in snapshots and written in
/// atomic commits. `Database` (the public API) is a thin layer over it.
///
/// Every method is safe to call from any thread. Reads run concurrently on consistent
/// snapshots; commits are serialized (across processes too). Errors are `HearthError`s:
/// storage failures are mapped to Firestore codes (`resourceExhausted` for a full disk,
/// `dataLoss` for damaged files, `failedPrecondition` after `close()`).
package final class DocumentStore: Sendable {
  package struct Options: Sendable {
    /// Open an existing database only, and refuse writes (`failedPrecondition`).
    package var readOnly = false
    /// fsync at every commit (`Durability.full`); `false` is `Durability.relaxed`.
    package var durable = true
    /// The first size of the memory map; it grows by itself.
    package var initialMapSize = 64 << 20
    /// Permissions of new database files (the directory gets the same, plus search
    /// permission wherever read is granted).
    package var fileMode: UInt16 = 0o600
    /// Open a backup's copy to look at it: read-only, and without creating a lock file.
    package var inspectOnly = false

    package init() {}
  }

  package let options: Options
  let environment: Environment
  let tables: Tables
  let registry: CollectionRegistry
  let catalog: IndexCatalog
  /// The query layer's plan cache (`PlanCache`), made at its first use and held here
  /// untyped: the engine lies below the query layer and knows nothing of plans.
  let planCacheSlot = Mutex<AnyObject?>(nil)
  /// What follows this store's commits (the listeners' observers), attached from above
  /// on first use: see `CommitFollower`.
  let followerSlot = Mutex<(any CommitFollower)?>(nil)
  /// The buffers query results share, kept for reuse (`ResultBuffers`).
  package let resultBuffers = ResultBuffers()
  private let isClosed = Atomic<Bool>(false)

  /// The database directory's canonical path.
  package var path: String { environment.path }
  /// How many group commits this store made, and how many writes they held (the second
  /// divided by the first is the mean group's size; see `Environment+GroupCommit.swift`).
  package var groupCommits: (groups: Int, requests: Int) { environment.groupCommits }

  /// Opens (or, unless read-only, creates) the database in directory `path`.
  ///
  /// - Throws: `notFound` for a read-only open of a missing database; `permissionDenied`
  ///   when this process may not read the directory or its files; `failedPrecondition`
  ///   for a newer format; `dataLoss` when the files are not a Hearth database, or are
  ///   damaged (an empty or truncated `data.mdb`, damaged pages: see
  ///   `Environment+Verification.swift`).
  package convenience init(path: String, options: Options = Options()) throws {
    do {
      try self.init(reportingDamageOf: path, options: options)
    } catch let damage as StorageDamage {
      throw DocumentStore.translate(damage, path: path)
    }
  }

  /// What to do about a damaged database.
  static let restoreAdvice = "restore a backup (hearth restore BACKUP, or Database.restore(from:to:))"
  /// What to do about a damaged database that cannot be opened.
  static let damageAdvice = restoreAdvice + "; hearth check (Database.check(path:)) lists what is lost"

  /// Opens the database like `init(path:options:)`, but throws damage found in the file
  /// as the `StorageDamage` itself, for `check` to report.
  init(reportingDamageOf path: String, options: Options) throws {
    var environmentOptions = Environment.Options()
    environmentOptions.initialMapSize = options.initialMapSize
    environmentOptions.durable = options.durable
    environmentOptions.createIfMissing = !options.readOnly
    environmentOptions.fileMode = mode_t(options.fileMode)
    environmentOptions.inspectOnly = options.inspectOnly
    environmentOptions.contextTables = [KeyLayout.TableName.collections]
    var options = options
    if options.inspectOnly {
      options.readOnly = true
      environmentOptions.createIfMissing = false
    }
    self.options = options
    let environment: Environment
    do {
      environment = try Environment.open(path: path, options: environmentOptions)
    } catch let error as StorageError where error.code == ENOENT {
      throw HearthError(.notFound, "No Hearth database at \(path)")
    } catch let error as StorageError where error.code == EACCES || error.code == EPERM {
      throw HearthError(
        .permissionDenied,
        "Permission denied: cannot open the database at \(path): \(error); open it as a user allowed to read "
          + "and write its directory and files, or change their permissions")
    } catch let damage as StorageDamage {
      throw damage
    } catch {
      throw DocumentStore.translate(error, path: path)
    }
    do {
      tables = try Tables(environment: environment, create: !options.readOnly)
      registry = CollectionRegistry(tables: tables)
      catalog = IndexCatalog(tables: tables)
      self.environment = environment
      try checkFormat()
      if !options.readOnly { try declareIndexFile() }
    } catch {
      environment.close()
      if let storage = error as? StorageError, storage.isNotFound {
        throw HearthError(.notFound, "\(path) is not a Hearth database (its tables are missing)")
      }
      throw DocumentStore.translate(error, path: path)
    }
  }

  /// Closes the database; later calls fail with `failedPrecondition`. Closing twice is
  /// harmless.
  package func close() {
    if isClosed.exchange(true, ordering: .acquiringAndReleasing) { return }
    followerSlot.withLock { $0 }?.storeClosed()
    environment.close()
  }

  /// Writes the layout version into a new database, or checks an existing one's.
  ///
  /// - Throws: `failedPrecondition` for another format; `dataLoss` for a format number
  ///   no Hearth wrote (more than 32 bits: damaged bytes).
  private func checkFormat() throws {
    let stored = try environment.read { txn in
      try txn.get(KeyLayout.MetaKey.format, in: tables.meta).map {
        KeyLayout.readBigEndian(UnsafeRawBufferPointer(rebasing: $0.prefix(8))) ?? 0
      }
    }
    if let stored {
      guard UInt32(exactly: stored) != nil else {
        throw HearthError(.dataLoss, "\(path) has a damaged format number (\(stored)); \(Self.restoreAdvice)")
      }
      guard stored == KeyLayout.layoutVersion else {
        throw HearthError(
          .failedPrecondition,
          "\(path) uses database format \(stored); this Hearth reads format \(KeyLayout.layoutVersion)")
      }
      return
    }
    guard !options.readOnly else { return }
    try environment.write { txn in
      try txn.put(KeyLayout.MetaKey.format, KeyLayout.bigEndian(UInt64(KeyLayout.layoutVersion)), in: tables.meta)
    }
  }

  // MARK: - Transactions

  /// Runs `body` on one consistent snapshot.
  package func read<R>(_ body: (StoreReader) throws -> R) throws -> R {
    try guarded {
      try environment.read { txn in try body(StoreReader(store: self, txn: txn)) }
    }
  }

  /// Runs `body` inside the write transaction, then applies the writes it returns, all in
  /// one atomic commit: `body`'s reads see the state the writes apply to. A throw from
  /// `body` or from any write aborts everything. `body` may run again when the database
  /// had to grow, as Firestore transactions may.
  package func transact<R>(_ body: (StoreReader) throws -> (result: R, writes: [Write])) throws -> (R, CommitResult) {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(path) is open read-only")
    }
    return try guarded {
      var resolved: [(ResourcePath, CollectionNumber)] = []
      let outcome = try environment.write(
        durable: options.durable,
        afterCommit: { [self] (outcome: (R, CommitResult)) in
          committed(
            CommitChanges(keys: outcome.1.changedKeys, documents: outcome.1.documents),
            logSequence: outcome.1.logSequence)
        }
      ) { txn -> (R, CommitResult) in
        resolved.removeAll()
        let (result, writes) = try body(StoreReader(store: self, txn: txn))
        let commit = try Committer(store: self, txn: txn).apply(
          writes, resolved: &resolved, keepingDocuments: isFollowed)
        return (result, commit)
      }
      registry.remember(resolved)
      return outcome
    }
  }

  /// Commits `writes` atomically.
  ///
  /// A durable commit shares its LMDB transaction and syncs with the durable commits
  /// other threads of this process make at the same time (group commit: see
  /// `Environment.groupedWrite`). Each is still its own Hearth commit, with its own commit
  /// time, change-log entry and result; each returns only once the shared commit is
  /// durable; one whose writes fail (a failed precondition, an invalid document) fails
  /// alone and changes nothing. Relaxed commits cost no sync, so they gain nothing from
  /// sharing, and take `transact`'s path, as transactions with a closure do (their
  /// closure is the caller's, which must run on the caller's thread).
  @discardableResult
  package func commit(_ writes: [Write]) throws -> CommitResult {
    guard options.durable, !options.readOnly, !writes.isEmpty else { return try transact { _ in ((), writes) }.1 }
    let keys = writes.map(\.key)
    return try guarded {
      let (commit, resolved) = try environment.groupedWrite(
        weight: writes.count,
        // A commit that listeners follow ends its group: their reader must see the state
        // it left, not that of the commits after it in the group.
        endsGroup: { [self] in follows(keys) },
        afterCommit: { [self] (outcome: (CommitResult, [(ResourcePath, CollectionNumber)])) in
          committed(
            CommitChanges(keys: outcome.0.changedKeys, documents: outcome.0.documents),
            logSequence: outcome.0.logSequence)
        }
      ) { [self] txn in
        var resolved: [(ResourcePath, CollectionNumber)] = []
        let commit = try Committer(store: self, txn: txn).apply(
          writes, resolved: &resolved, keepingDocuments: isFollowed)
        return (commit, resolved)
      }
      registry.remember(resolved)
      return commit
    }
  }

  /// Runs `body` with storage errors translated, after checking the store is open.
  func guarded<R>(_ body: () throws -> R) throws -> R {
    if isClosed.load(ordering: .acquiring) {
      throw HearthError(.failedPrecondition, "The database at \(path) is closed")
    }
    do {
      return try body()
    } catch {
      throw DocumentStore.translate(error, path: path)
    }
  }

  /// A `HearthError` for any error from below, keeping `HearthError`s as they are.
  static func translate(_ error: Error, path: String) -> Error {
    if let damage = error as? StorageDamage { return HearthError(.dataLoss, "\(damage); \(damageAdvice)") }
    guard let storage = error as? StorageError else { return error }
    if storage.code == EDEADLK {
      return HearthError(
        .failedPrecondition,
        "A write was started inside a transaction's closure on the same thread; write through the "
          + "Transaction (or WriteBatch) instead, or after runTransaction returns")
    }
    let code: HearthError.Code
    if storage.isDiskFull || storage.isTransactionFull || storage.isMapFull {
      code = .resourceExhausted
    } else if storage.isCorrupt {
      code = .dataLoss
    } else if storage.code == EBADF {
      code = .failedPrecondition
    } else if storage.code == EACCES || storage.code == EPERM || storage.code == EROFS {
      code = .permissionDenied
    } else {
      code = .internal
    }
    return HearthError(code, "Storage error in \(path): \(storage)")
  }
}

/// What one write of a commit did (Firestore's `WriteResult`).
package struct WriteResult: Sendable {
  /// The document's update time after the write: the commit time, or its previous update
  /// time when the write left it unchanged; `nil` after a delete.
  package var updateTime: Timestamp?
  /// The value each of the write's field transforms produced, in order.
  package var transformResults: [Value]
}

/// What a commit did.
package struct CommitResult: Sendable {
  /// The commit's time: every written document's update time, and the value of
  /// `serverTimestamp()`.
  package var commitTime: Timestamp
  /// The documents written or deleted, in write order (a key may repeat).
  package var changedKeys: [DocumentKey]
  /// What each write did, in write order.
  package var writeResults: [WriteResult]
  /// The commit's entry in the change log (0 when it wrote none).
  var logSequence: UInt64 = 0
  /// Each written document as stored (`nil` for a deleted one), when the store is
  /// followed.
  var documents: [DocumentKey: CommittedDocument?]?
}
