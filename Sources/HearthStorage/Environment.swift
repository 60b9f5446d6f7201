import CLMDB
import Foundation
import Synchronization

/// One LMDB environment (a database directory), shared by everything in this process that
/// opens the same canonical path.
///
/// LMDB's rules, kept here so that no layer above has to know them:
/// - A process must open an environment only once (its locks are per process), so
///   `open(path:options:)` returns the instance already open for the same canonical path
///   and counts handles; the last `close()` closes it.
/// - Transactions are `MDB_NOTLS` and closure-scoped: `read { }` and `write { }` begin,
///   run the closure, and end the transaction on the same thread; a throw aborts.
/// - The map grows by itself: a write that finds the map (nearly) full grows it and runs
///   the write closure again, and a transaction that finds the map grown by another
///   process (`MDB_MAP_RESIZED`) adopts the new size. Both need every transaction of the
///   process to have ended, which the `gate` readers-writer lock guarantees
///   (Environment+Map.swift).
/// - Stale reader slots left by dead processes are cleared at open and before growing.
/// - Durable writes made at the same time by several threads may share one transaction
///   and its sync (`groupedWrite`, Environment+GroupCommit.swift).
/// - Every write transaction is journaled, and LMDB itself never syncs: a commit is
///   durable once its journal record is, and checkpoints sync the data file
///   (Environment+Journal.swift, which also recovers a database after a crash).
///
/// Write closures may run more than once (after a map growth), so they must compute
/// everything they write from the transaction they are given.
package final class Environment: @unchecked Sendable {
  // @unchecked: `handle` is guarded by `gate` (shared to use it, exclusive to resize or
  // close it); `tables`, `journal` and the journal's counts by `writerLock`; `pin`,
  // `pendingCheckpoint` and `checkpointRequest` by `checkpointLock`; `idleReaders` by
  // `idleReadersLock`.

  /// How to open an environment. Only the first opener's options apply to the shared
  /// instance, except `durable`, which each write chooses.
  package struct Options: Sendable {
    /// The first size of the memory map; it grows as needed.
    package var initialMapSize: Int = 64 << 20
    package var maxReaders: UInt32 = 510
    package var maxTables: UInt32 = 32
    /// `true`: every commit is durable when it returns (its journal record synced).
    /// `false`: commits are not synced (a crash of the machine may lose the last
    /// commits; a crash of the process loses nothing). Each write may choose otherwise.
    package var durable = true
    /// Create the directory and files when missing (files `fileMode`, the directory the
    /// same plus search permission wherever read is granted).
    package var createIfMissing = true
    package var fileMode: mode_t = 0o600
    /// Open a copy that no process writes (a backup) read-only and without a lock file,
    /// so that inspecting it leaves it byte for byte as it was.
    package var inspectOnly = false
    /// Opening verifies every page of a file whose used part is at most this many bytes,
    /// and only the meta pages and the table catalog of a larger one (see
    /// `Environment+Verification.swift`).
    package var wholeFileVerificationLimit = 64 << 20
    /// Tables whose entries a `StorageDamage` found at open carries, when they verified
    /// intact, so that the layer above can name what the damaged pages held.
    package var contextTables: Set<String> = []

    package init() {}
  }

  /// The canonical (symlink-free, absolute) path of the directory.
  package let path: String
  /// Whether opening verified every page (the file was small enough), so that walks over
  /// whole tables need not verify them again.
  package let verifiedEveryPageAtOpen: Bool

  private(set) var handle: OpaquePointer?
  let gate = ReadWriteLock()
  /// Held shared while the environment is open (see `OpenLock`).
  private let openLock: OpenLock?
  let writerLock = NSLock()
  /// The durable writes waiting to share a commit (Environment+GroupCommit.swift).
  let groupQueue = GroupCommitQueue()
  private let syncsOnCommit: Bool
  let fileMode: mode_t
  /// Whether write transactions are journaled (all but an environment opened
  /// `inspectOnly`, which never writes), and the journal, once the first write opened it
  /// (`Environment+Journal.swift`).
  let journals: Bool
  var journal: Journal?
  /// The read transaction begun at this process's last checkpoint, which keeps LMDB from
  /// reusing that state's pages (`Environment+Journal.swift`).
  var pin: OpaquePointer?
  /// What this process's commits did since its last checkpoint began.
  var sinceCheckpoint = CheckpointProgress()
  /// A checkpoint begun and not yet written (`Environment+Journal.swift`), and the queue
  /// that finishes it off the writers' path.
  var pendingCheckpoint: PendingCheckpoint?
  let checkpointQueue = DispatchQueue(label: "hearth.checkpoint")
  /// `requestCheckpoint`'s test hook.
  var checkpointRequest: (requested: Bool, hold: DispatchSemaphore?) = (false, nil)
  /// Guards `pin`, `pendingCheckpoint` and `checkpointRequest`, which the checkpoint
  /// queue changes too.
  let checkpointLock = NSLock()
  /// How many checkpoints this process made.
  let checkpoints = Atomic<Int>(0)
  private var tables: [String: Table] = [:]
  /// Unchecked for exclusivity: every access holds `idleReadersLock` (two a read), but
  /// `deinit`'s, which nothing can overlap.
  @exclusivity(unchecked) private var idleReaders: [(txn: OpaquePointer, cursors: [SpareCursor])] = []
  private let idleReadersLock = NSLock()
  private static let idleReaderLimit = 32
  /// How often this process grew the map, and adopted a map another process grew.
  let growths = Atomic<Int>(0)
  let adoptions = Atomic<Int>(0)
  /// When writes last cleared dead processes' reader slots (uptime, nanoseconds).
  let lastReaderCheck = Atomic<UInt64>(0)

  // MARK: - Opening and closing

  struct Registration {
    let environment: Environment
    var handles: Int
  }
  static let registry = Mutex<[String: Registration]>([:])

  /// Opens the environment in directory `path`, or returns the one this process already
  /// has open there.
  ///
  /// - Throws: `StorageError` with `ENOENT` when the database is missing and
  ///   `options.createIfMissing` is false, `EACCES` (naming the directory's owner and
  ///   mode) when this process may not look into it; `StorageDamage` when `data.mdb` is
  ///   empty, not a regular file, shorter than its pages, or has damaged pages; LMDB's
  ///   errors from `mdb_env_open`.
  package static func open(path: String, options: Options = Options()) throws -> Environment {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else { throw StorageError(code: ENOTDIR, operation: "open \(path)") }
    } else if errno == ENOENT {
      guard options.createIfMissing else {
        throw StorageError(code: ENOENT, operation: "open \(path)")
      }
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true,
          attributes: [.posixPermissions: options.fileMode | (options.fileMode & 0o444) >> 2])
      } catch {
        throw StorageError(code: errno == 0 ? EACCES : errno, operation: "mkdir \(path)")
      }
    } else {
      let code = errno
      throw StorageError(code: code, operation: "stat \(path)")
    }
    guard let resolved = realpath(path, nil) else {
      throw StorageError(code: errno, operation: "realpath \(path)")
    }
    let canonical = String(cString: resolved)
    free(resolved)

    return try registry.withLock { registry in
      if var registration = registry[canonical] {
        registration.handles += 1
        registry[canonical] = registration
        return registration.environment
      }
      let environment = try Environment(canonicalPath: canonical, options: options)
      registry[canonical] = Registration(environment: environment, handles: 1)
      return environment
    }
  }

  private init(canonicalPath: String, options: Options) throws {
    path = canonicalPath
    syncsOnCommit = options.durable
    fileMode = options.fileMode
    journals = !options.inspectOnly
    var creation: CreationLock?
    if options.inspectOnly {
      // A copy that no process writes or creates: no lock to settle its state under.
      openLock = nil
      switch try Environment.dataFileState(in: canonicalPath) {
      case .present: break
      case .empty: throw StorageDamage(Environment.emptyDataFile(in: canonicalPath))
      case .missing: throw StorageError(code: ENOENT, operation: "open \(canonicalPath)")
      }
    } else {
      try Environment.recoverIfNeeded(directory: canonicalPath, options: options)
      let lock = try OpenLock.shared(directory: canonicalPath, fileMode: options.fileMode)
      do {
        creation = try Environment.settleDataFile(in: canonicalPath, createIfMissing: options.createIfMissing)
      } catch {
        lock.release()
        throw error
      }
      openLock = lock
    }
    defer { creation?.release() }
    do {
      let usedBytes = creation == nil ? try Environment.verifyMetaPages(in: canonicalPath) : 0
      let env = try Environment.openLMDB(canonicalPath, options: options)
      var dead: Int32 = 0
      mdb_reader_check(env, &dead)
      var everyPage = true
      if creation == nil {
        let verification: PageVerification
        do {
          verification = try Environment.verifyAtOpen(
            env, directory: canonicalPath, everyTree: usedBytes <= options.wholeFileVerificationLimit,
            contextTables: options.contextTables)
        } catch {
          mdb_env_close(env)
          throw error
        }
        guard verification.isIntact else {
          mdb_env_close(env)
          throw StorageDamage(verification)
        }
        everyPage = verification.coversEveryPage
      }
      verifiedEveryPageAtOpen = everyPage
      handle = env
    } catch {
      openLock?.release()
      throw error
    }
  }

  /// `mdb_env_create` and `mdb_env_open` with `options`.
  private static func openLMDB(_ path: String, options: Options) throws -> OpaquePointer {
    var env: OpaquePointer?
    try check(mdb_env_create(&env), "mdb_env_create")
    do {
      try check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders")
      try check(mdb_env_set_maxdbs(env, options.maxTables), "mdb_env_set_maxdbs")
      try check(mdb_env_set_mapsize(env, max(options.initialMapSize, 1 << 16)), "mdb_env_set_mapsize")
      // LMDB never syncs: the journal makes commits durable (Environment+Journal.swift).
      var flags = UInt32(MDB_NOTLS | MDB_NOSYNC)
      if options.inspectOnly { flags |= UInt32(MDB_RDONLY | MDB_NOLOCK) }
      try check(mdb_env_open(env, path, flags, options.fileMode), "mdb_env_open \(path)")
    } catch {
      mdb_env_close(env)
      throw error
    }
    return env!
  }

  /// Gives back one handle; the last one closes the environment after waiting for every
  /// transaction in progress. Closing twice is harmless.
  package func close() {
    Environment.registry.withLock { registry in
      guard var registration = registry[path], registration.environment === self else { return }
      registration.handles -= 1
      if registration.handles > 0 {
        registry[path] = registration
        return
      }
      registry[path] = nil
      waitForCheckpoint()
      gate.withExclusive {
        for idle in takeIdleReaders() { Self.abort(idle) }
        if let handle {
          closingCheckpoint(handle)
          mdb_env_close(handle)
        }
        handle = nil
      }
      openLock?.release()
    }
  }

  /// Whether `close()` has closed the environment.
  package var isClosed: Bool {
    gate.lockShared()
    defer { gate.unlock() }
    return handle == nil
  }

  deinit {
    if let handle {
      for idle in idleReaders { Self.abort(idle) }
      if let pin { mdb_txn_abort(pin) }
      if let pending = pendingCheckpoint { mdb_txn_abort(pending.pin) }
      mdb_env_close(handle)
    }
  }

  // MARK: - Tables

  /// Opens (and with `create`, creates) the named table, returning its handle. Handles
  /// stay valid until the environment closes.
  ///
  /// - Throws: `StorageError` `MDB_NOTFOUND` when the table is missing and `create` is false.
  package func table(_ name: String, duplicateSort: Bool = false, create: Bool = true) throws -> Table {
    writerLock.lock()
    defer { writerLock.unlock() }
    if let table = tables[name] { return table }
    // Through `begin`, like every transaction, so that `MDB_MAP_RESIZED` is adopted: an
    // environment opened on data bigger than `initialMapSize` maps exactly the data's size,
    // so a single commit by another process before the tables are open outgrows it (a
    // process opening a database while others wrote to it used to fail here).
    let (env, txn) = try begin("mdb_dbi_open \(name)") { env, txn in
      mdb_txn_begin(env, nil, create ? 0 : UInt32(MDB_RDONLY), &txn)
    }
    func abort(_ error: any Error) -> any Error {
      mdb_txn_abort(txn)
      gate.unlock()
      return error
    }
    var dbi = MDB_dbi()
    let flags: UInt32 = duplicateSort ? UInt32(MDB_DUPSORT) : 0
    var rc = mdb_dbi_open(txn, name, flags, &dbi)
    var creation: WriteTransaction?
    if rc == MDB_NOTFOUND && create {
      // A new table: journaled like any change (a checkpoint first when one is due).
      do {
        try checkpointIfDue(env, txn)
      } catch {
        throw abort(error)
      }
      rc = mdb_dbi_open(txn, name, flags | UInt32(MDB_CREATE), &dbi)
      creation = WriteTransaction(txn)
      creation?.record.record(.createTable, Table(name: name, dbi: dbi, isDuplicateSorted: duplicateSort))
    }
    guard rc == MDB_SUCCESS else { throw abort(StorageError(code: rc, operation: "mdb_dbi_open \(name)")) }
    try check(try commitJournaled(creation, txn, durable: syncsOnCommit), "mdb_txn_commit (open \(name))")
    let table = Table(name: name, dbi: dbi, isDuplicateSorted: duplicateSort)
    tables[name] = table
    return table
  }

  // MARK: - Transactions

  /// Runs `body` in a read-only transaction: one consistent snapshot of the database,
  /// unaffected by commits made while it runs. Many reads run at once, from any thread.
  ///
  /// Everything the transaction returns (values, cursor entries) points into the memory
  /// map and is valid only inside `body`: copy what you keep.
  package func read<R>(_ body: (ReadTransaction) throws -> R) throws -> R {
    var spares: [SpareCursor] = []
    let (_, txn) = try begin("read") { env, txn in beginRead(env, &txn, &spares) }
    let transaction = ReadTransaction(txn, spareCursors: spares)
    defer {
      transaction.end(keepingCursors: true)
      recycleReader(txn, cursors: transaction.spareCursors)
      gate.unlock()
    }
    return try body(transaction)
  }

  /// Takes the gate shared and begins a transaction with `start`, adopting a map that
  /// another process grew (`MDB_MAP_RESIZED`) and trying again. On return the gate is
  /// held: the caller releases it when the transaction has ended.
  func begin(
    _ kind: String, _ start: (OpaquePointer, inout OpaquePointer?) -> Int32
  ) throws -> (env: OpaquePointer, txn: OpaquePointer) {
    while true {
      gate.lockShared()
      guard let env = handle else {
        gate.unlock()
        throw StorageError.closed(kind)
      }
      var txn: OpaquePointer?
      let rc = start(env, &txn)
      if rc == MDB_MAP_RESIZED {
        gate.unlock()
        try adoptGrownMap()
        continue
      }
      guard rc == MDB_SUCCESS, let txn else {
        gate.unlock()
        throw StorageError(code: rc, operation: "mdb_txn_begin (\(kind))")
      }
      return (env, txn)
    }
  }

  /// Runs `body` in the write transaction and commits it; a throw from `body` aborts it and
  /// nothing is written. Writes are serialized: across threads here, across processes by
  /// LMDB's writer lock.
  ///
  /// When the map is full, the transaction is aborted, the map grows, and `body` runs
  /// again, so `body` must derive everything from the transaction it is given.
  ///
  /// - Parameters:
  ///   - durable: sync the commit's journal record before returning (`nil`: the
  ///     environment's default).
  ///   - afterCommit: runs with `body`'s result once the commit succeeded, before the
  ///     next write of this process can begin: what it reads is the state this commit
  ///     left, and it sees commits one at a time, in order (listeners use it).
  /// - Throws: `StorageError` with `EDEADLK` for a write inside a write on one thread;
  ///   whatever `body` throws; LMDB's errors (`ENOSPC` when the disk is full).
  package func write<R>(
    durable: Bool? = nil, afterCommit: ((R) -> Void)? = nil, _ body: (WriteTransaction) throws -> R
  ) throws -> R {
    if WriterThread.isWriting(self) {
      throw StorageError(code: EDEADLK, operation: "mdb_txn_begin (a write inside a write on one thread)")
    }
    writerLock.lock()
    WriterThread.set(self)
    defer {
      WriterThread.set(nil)
      writerLock.unlock()
    }
    clearStaleReadersEverySecond()
    while true {
      try growIfNearlyFull()
      let (env, txn) = try begin("write") { env, txn in mdb_txn_begin(env, nil, 0, &txn) }
      let transaction = WriteTransaction(txn)
      let result: R
      do {
        try checkpointIfDue(env, txn)
        result = try body(transaction)
      } catch {
        transaction.end()
        mdb_txn_abort(txn)
        gate.unlock()
        if transaction.ranOutOfMap {
          try grow()
          continue
        }
        throw error
      }
      transaction.end()
      if transaction.ranOutOfMap {
        mdb_txn_abort(txn)
        gate.unlock()
        try grow()
        continue
      }
      let commit = try commitJournaled(transaction, txn, durable: durable ?? syncsOnCommit)
      if commit == MDB_MAP_FULL {
        try grow()
        continue
      }
      try check(diskFullWhenOutOfSpace(commit), "mdb_txn_commit")
      afterCommit?(result)
      return result
    }
  }

  /// LMDB reports a short write as `EIO`; when the file system has (next to) no space
  /// left, that short write was a full disk, and it is reported as one (`ENOSPC`), not
  /// as damage. The failed commit wrote nothing its readers can see.
  func diskFullWhenOutOfSpace(_ code: Int32) -> Int32 {
    guard code == EIO else { return code }
    var fileSystem = statvfs()
    guard statvfs(path, &fileSystem) == 0 else { return code }
    let available = Int(fileSystem.f_bavail) * Int(fileSystem.f_frsize)
    return available < 1 << 20 ? ENOSPC : code
  }

  /// Runs `body` while no write of this process can begin, so that nothing it reads
  /// changes, by this process, before it returns (listeners register this way).
  ///
  /// - Throws: `StorageError` with `EDEADLK` on a thread that is inside a write.
  package func withWritesPaused<R>(_ body: () throws -> R) throws -> R {
    if WriterThread.isWriting(self) {
      throw StorageError(code: EDEADLK, operation: "pausing writes inside a write on one thread")
    }
    writerLock.lock()
    defer { writerLock.unlock() }
    return try body()
  }

  /// The ID of the last transaction committed by any process: it changes with every
  /// commit, and reading it costs no transaction (it is in the mapped meta pages).
  ///
  /// A commit writes its meta page before it publishes itself to new readers, so a read
  /// transaction begun right after this call may still see the commit before: compare
  /// this ID with `ReadTransaction.id`, not with an earlier value of this call.
  package func lastTransactionID() -> Int {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { return 0 }
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    return info.me_last_txnid
  }

  /// Begins a read: renews an idle transaction handle, handing over its spare cursors,
  /// or begins a new one.
  private func beginRead(_ env: OpaquePointer, _ txn: inout OpaquePointer?, _ spares: inout [SpareCursor]) -> Int32 {
    if let idle = idleReadersLock.withLock({ idleReaders.popLast() }) {
      let rc = mdb_txn_renew(idle.txn)
      if rc == MDB_SUCCESS {
        txn = idle.txn
        spares = idle.cursors
        return rc
      }
      Self.abort(idle)
      return rc
    }
    return mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
  }

  /// Keeps a finished read transaction, and the cursors it opened, for reuse
  /// (`mdb_txn_reset` releases its snapshot but keeps its reader slot, so the next read
  /// skips the slot allocation and renews the cursors instead of opening them).
  private func recycleReader(_ txn: OpaquePointer, cursors: [SpareCursor]) {
    mdb_txn_reset(txn)
    let kept = idleReadersLock.withLock {
      guard idleReaders.count < Environment.idleReaderLimit else { return false }
      idleReaders.append((txn, cursors))
      return true
    }
    if !kept { Self.abort((txn, cursors)) }
  }

  /// Closes an idle read transaction's cursors and aborts it.
  private static func abort(_ idle: (txn: OpaquePointer, cursors: [SpareCursor])) {
    SpareCursor.close(idle.cursors)
    mdb_txn_abort(idle.txn)
  }

  private func takeIdleReaders() -> [(txn: OpaquePointer, cursors: [SpareCursor])] {
    idleReadersLock.withLock {
      defer { idleReaders.removeAll() }
      return idleReaders
    }
  }

  // MARK: - Statistics

  /// Facts about the environment for `stats`-like reports.
  package func statistics() throws -> Statistics {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { throw StorageError.closed("mdb_env_info") }
    var info = MDB_envinfo()
    var stat = MDB_stat()
    mdb_env_info(env, &info)
    mdb_env_stat(env, &stat)
    return Statistics(
      mapSize: Int(info.me_mapsize), pageSize: Int(stat.ms_psize),
      usedBytes: (Int(info.me_last_pgno) + 1) * Int(stat.ms_psize),
      maxReaders: Int(info.me_maxreaders), readers: Int(info.me_numreaders),
      mapGrowths: growths.load(ordering: .relaxed), mapAdoptions: adoptions.load(ordering: .relaxed))
  }

  package struct Statistics: Sendable {
    package var mapSize: Int
    package var pageSize: Int
    /// Bytes up to the highest page in use (the file's logical size).
    package var usedBytes: Int
    package var maxReaders: Int
    /// The reader table's high-water mark (`me_numreaders`): slots ever taken since the
    /// lock file was made, freed ones included. `readerTable()` counts the slots held.
    package var readers: Int
    /// How many times this process grew the map itself.
    package var mapGrowths: Int
    /// How many times this process adopted a map that another process had grown
    /// (`MDB_MAP_RESIZED`).
    package var mapAdoptions: Int
  }
}
