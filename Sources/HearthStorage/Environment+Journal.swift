import CLMDB
import Foundation

/// Durable commits through the journal (`Journal`): every write transaction appends its
/// changes to the journal before LMDB commits it, and LMDB commits without syncing
/// (`MDB_NOSYNC`); a durable commit returns once the journal is synced. A commit then
/// costs one write and one sync of one file instead of LMDB's writing each changed page
/// where it lies and syncing twice, and group commit shares that one sync.
///
/// What keeps it safe when the machine stops:
/// - **Checkpoints.** Now and then the state of the last commit is made durable: the
///   pages of `data.mdb` synced (`mdb_env_sync`), then `checkpoint.hearth` written
///   (`Checkpoint`): that transaction's ID and a copy of its meta page. A checkpoint
///   begins at the start of a write, which holds LMDB's writer lock: it keeps the meta
///   page, takes a pin (below) on that state, and begins the journal's next generation
///   in its other file; the sync and the checkpoint's writing then run on a queue of
///   their own while commits go on, appending to the new generation. The old file's
///   records are needed until the checkpoint is written; so a checkpoint begins this
///   way only when the last one has been written (by any process), and otherwise runs
///   in place, on the writer's path, covering every record.
/// - **The pin.** LMDB reuses the pages that commits free as soon as no reader needs
///   them, and an unsynced commit could overwrite a page of the checkpoint's state on
///   disk. So each writing process holds a read transaction begun at its last
///   checkpoint (the pin): while it lives, no page of that state is reused, and the
///   checkpoint's state stays whole on disk whatever later commits wrote. The pin moves
///   only once the next checkpoint is written. A process checkpoints (in place) before
///   its first journaled commit, so that it holds a pin; a pin on an older checkpoint
///   protects a newer one too (LMDB keeps what the oldest reader needs).
/// - **Recovery.** A process that opens the database when no other has it open, and
///   finds records past the checkpoint or the newest commit not the checkpoint's (a
///   writer stopped without its closing checkpoint), writes the checkpoint's meta page
///   back — the state it names is whole, however many later pages reached the disk —
///   verifies it, and replays the records past it (from the generation the checkpoint
///   began, then any later one), then checkpoints. Records are appended before LMDB
///   commits, under LMDB's writer lock, so the journal holds every commit in order; one
///   whose commit failed is marked void. A record cut short by the stop ends its
///   generation: no commit after it was acknowledged.
///
/// A checkpoint begins when `checkpointCommits` commits, `checkpointBytes` of journal or
/// `checkpointPages` pages freed by commits have gathered since the last one began, or
/// when `checkpointInterval` has passed with commits since; and the environment
/// checkpoints in place when it closes. Until a checkpoint is written, the pin keeps
/// LMDB from reusing the pages commits free (each commit writes new copies of the pages
/// it changes and frees the old), so the file holds up to about twice
/// `checkpointPages` pages more than it would.
extension Environment {
  static let checkpointCommits = 512
  /// Pages freed (so written) since the last checkpoint began: 4 MiB of 4 KiB pages, or
  /// a sixteenth (`checkpointShare`) of the pages in use when that is more (a checkpoint
  /// syncs that many pages at once, and the larger the batch, the less each page costs
  /// the disk; the pins keep up to about twice that many from reuse).
  package static let checkpointPages = 1024
  static let checkpointShare = 16
  static let checkpointBytes = 16 << 20
  static let checkpointInterval: UInt64 = 1_000_000_000

  /// Checkpoints, in write transaction `txn` (which holds LMDB's writer lock), when one
  /// is due: in the background, unless this process holds no pin yet (its first write)
  /// or another checkpoint has not finished (then in place, which covers every record).
  /// While this process's last checkpoint runs, the next waits for it once commits have
  /// freed as many pages again, so that the pins never keep more than about twice
  /// that. Called under the writer lock before a write's body runs.
  func checkpointIfDue(_ env: OpaquePointer, _ txn: OpaquePointer) throws {
    guard let journal = try openJournal() else { return }
    let (pinned, pending, requested) = checkpointLock.withLock {
      (pin != nil, pendingCheckpoint != nil, checkpointRequest.requested)
    }
    if !pinned { return try checkpoint(env, txn, keepingPin: true) }
    // The file's size is looked up only past the least (this runs before every write).
    let freed = sinceCheckpoint.pagesFreed
    let manyPagesFreed =
      freed >= Environment.checkpointPages && freed >= pagesInUse(env) / Environment.checkpointShare
    if pending {
      guard manyPagesFreed else { return }
      waitForCheckpoint()
    }
    let due =
      requested || manyPagesFreed || sinceCheckpoint.commits >= Environment.checkpointCommits
      || sinceCheckpoint.bytes >= Environment.checkpointBytes
      || (sinceCheckpoint.commits > 0
        && DispatchTime.now().uptimeNanoseconds - sinceCheckpoint.began >= Environment.checkpointInterval)
    guard due else { return }
    // The other file still holds records that no finished checkpoint covers (another
    // process's checkpoint stopped before its end): only a checkpoint in place is safe.
    let finished = try Checkpoint.read(in: path)?.transaction ?? -1
    if journal.currentGeneration.generation > finished { return try checkpoint(env, txn, keepingPin: true) }
    try beginCheckpoint(env, txn)
  }

  /// The journal, opened (its files made) at the first write: a database a process only
  /// reads may sit where it cannot write. `nil` for an environment opened `inspectOnly`.
  /// Called under the writer lock.
  func openJournal() throws -> Journal? {
    if journal == nil && journals { journal = try Journal(directory: path, fileMode: fileMode) }
    return journal
  }

  /// The pages the data file has in use (up to its last page).
  private func pagesInUse(_ env: OpaquePointer) -> Int {
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    return info.me_last_pgno + 1
  }

  /// Makes the last committed state durable and the checkpoint, in place, in write
  /// transaction `txn` (begun, not yet changed: it holds LMDB's writer lock, so no
  /// process commits meanwhile); then a new generation of the journal begins in its
  /// current file. With `keepingPin`, the pin moves to the new checkpoint; without (at
  /// close), it is let go.
  func checkpoint(_ env: OpaquePointer, _ txn: OpaquePointer, keepingPin: Bool) throws {
    guard let journal else { return }
    let committed = mdb_txn_id(txn) - 1
    try check(mdb_env_sync(env, 1), "mdb_env_sync (checkpoint)")
    try Checkpoint(ofTransaction: committed, directory: path).write(in: path, fileMode: fileMode)
    var newPin: OpaquePointer?
    do {
      try journal.begin(generation: committed, switching: false)
      if keepingPin {
        try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &newPin), "mdb_txn_begin (checkpoint pin)")
      }
    } catch {
      // Records of the generation before this checkpoint would not be replayed: without
      // a pin, the next write checkpoints again before it journals anything.
      checkpointLock.withLock { movePin(to: nil) }
      throw error
    }
    checkpointLock.withLock { movePin(to: newPin) }
    checkpointBegun()
    checkpoints.add(1, ordering: .relaxed)
  }

  /// Begins a checkpoint that runs while commits go on, in write transaction `txn`: the
  /// state of the last commit gets a pin and its meta page is kept; the journal's next
  /// generation begins in its other file (the current one keeps the records up to that
  /// state until the checkpoint is written); then the data file is synced off the
  /// writers' path (`finishCheckpoint`).
  private func beginCheckpoint(_ env: OpaquePointer, _ txn: OpaquePointer) throws {
    guard let journal else { return }
    let committed = mdb_txn_id(txn) - 1
    let checkpoint = try Checkpoint(ofTransaction: committed, directory: path)
    var newPin: OpaquePointer?
    try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &newPin), "mdb_txn_begin (checkpoint pin)")
    do {
      // The records of the file left must be durable before any of the next file's are
      // (recovery replays the two generations one after the other): relaxed commits
      // leave records no sync has covered yet.
      try journal.sync(file: journal.currentGeneration.file)
      try journal.begin(generation: committed, switching: true)
    } catch {
      mdb_txn_abort(newPin)
      throw error
    }
    checkpointLock.withLock { pendingCheckpoint = PendingCheckpoint(checkpoint: checkpoint, pin: newPin!) }
    checkpointBegun()
    checkpointQueue.async { [self] in finishCheckpoint() }
  }

  /// Ends the checkpoint `beginCheckpoint` began: syncs the data file (every page of its
  /// state was written before), writes the checkpoint, and moves the pin to it. It takes
  /// neither the writer lock nor LMDB's, so a writer may wait for it. A failure leaves
  /// the old checkpoint, pin and records, and the next checkpoint is made in place.
  private func finishCheckpoint() {
    checkpointLock.withLock { checkpointRequest.hold }?.wait()
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle, let pending = checkpointLock.withLock({ pendingCheckpoint }) else { return }
    let written =
      mdb_env_sync(env, 1) == MDB_SUCCESS && (try? pending.checkpoint.write(in: path, fileMode: fileMode)) != nil
    checkpointLock.withLock {
      guard pendingCheckpoint?.pin == pending.pin else { return }
      pendingCheckpoint = nil
      guard written else { return mdb_txn_abort(pending.pin) }
      movePin(to: pending.pin)
      checkpoints.add(1, ordering: .relaxed)
    }
  }

  /// Waits until no checkpoint is running off the writers' path.
  func waitForCheckpoint() { checkpointQueue.sync {} }

  /// A test hook: the next write begins a checkpoint off the writers' path, whose end
  /// waits until `hold` (when given) is signalled, so that a test can stop the machine
  /// while it runs.
  package func requestCheckpoint(holdingItsEnd hold: DispatchSemaphore? = nil) {
    checkpointLock.withLock { checkpointRequest = (true, hold) }
  }

  /// Whether a checkpoint begun off the writers' path has not been written yet.
  package var checkpointIsPending: Bool { checkpointLock.withLock { pendingCheckpoint != nil } }

  /// Starts the counts towards the next checkpoint again.
  private func checkpointBegun() {
    checkpointLock.withLock { checkpointRequest.requested = false }
    sinceCheckpoint = CheckpointProgress()
  }

  /// Commits `txn` through the journal: appends `transaction`'s record (none when it
  /// changed nothing), commits LMDB without syncing and releases the gate (which `begin`
  /// took), then voids the record when the commit failed or, for a `durable` commit that
  /// succeeded, syncs it. Returns LMDB's code for the commit. A journal error before the
  /// commit aborts `txn`, releases the gate and is thrown.
  ///
  /// What follows the commit runs without the gate: counting the pages it freed begins
  /// a read, which may have to adopt a map another process grew, and that waits until
  /// no transaction of this process holds the gate.
  func commitJournaled(_ transaction: WriteTransaction?, _ txn: OpaquePointer, durable: Bool) throws -> Int32 {
    let id = mdb_txn_id(txn)
    let append: JournalAppend?
    do {
      append = try transaction.flatMap { try journal($0, txn) }
    } catch {
      mdb_txn_abort(txn)
      gate.unlock()
      throw error
    }
    let rc = mdb_txn_commit(txn)
    gate.unlock()
    try settleJournal(append, transaction: id, commit: rc, durable: durable)
    return rc
  }

  /// Appends `transaction`'s changes to the journal, before `txn` commits; returns where
  /// the record went (for `void` when the commit fails, and `sync`), or `nil` when
  /// there is nothing to journal.
  private func journal(_ transaction: WriteTransaction, _ txn: OpaquePointer) throws -> JournalAppend? {
    guard !transaction.record.isEmpty, let journal = try openJournal() else { return nil }
    let append = try journal.append(&transaction.record, transaction: mdb_txn_id(txn))
    sinceCheckpoint.commits += 1
    sinceCheckpoint.bytes += append.record.count
    return append
  }

  /// After `mdb_txn_commit` returned `rc` for transaction `transaction`, journaled as
  /// `append`: voids the record when the commit failed; when it succeeded, counts the
  /// pages it freed and syncs the journal if it is durable.
  private func settleJournal(_ append: JournalAppend?, transaction: Int, commit rc: Int32, durable: Bool) throws {
    guard let journal, let append else { return }
    if rc != MDB_SUCCESS { return journal.void(append) }
    sinceCheckpoint.pagesFreed += freedPages(by: transaction)
    if durable { try journal.sync(file: append.file) }
  }

  /// How many pages commit `transaction` freed: the length of its record in LMDB's free
  /// list (table 0, keyed by transaction ID; each value an ID list whose first word is
  /// its length). The pin keeps the record until the next checkpoint.
  private func freedPages(by transaction: Int) -> Int {
    let count = try? read { txn -> Int in
      var cursor: OpaquePointer?
      guard mdb_cursor_open(txn.txn, 0, &cursor) == MDB_SUCCESS else { return 0 }
      defer { mdb_cursor_close(cursor) }
      var id = size_t(transaction)
      return withUnsafeMutableBytes(of: &id) { idBytes in
        var key = MDB_val(mv_size: idBytes.count, mv_data: idBytes.baseAddress)
        var value = MDB_val()
        guard mdb_cursor_get(cursor, &key, &value, MDB_SET_KEY) == MDB_SUCCESS,
          value.mv_size >= MemoryLayout<size_t>.size, let data = value.mv_data
        else { return 0 }
        return Int(data.loadUnaligned(as: size_t.self))
      }
    }
    return count ?? 0
  }

  /// Checkpoints now, in place (tests, and tools that want the data file whole on disk).
  package func checkpointNow() throws {
    waitForCheckpoint()
    writerLock.lock()
    defer { writerLock.unlock() }
    let (env, txn) = try begin("checkpoint") { env, txn in mdb_txn_begin(env, nil, 0, &txn) }
    defer {
      mdb_txn_abort(txn)
      gate.unlock()
    }
    try checkpoint(env, txn, keepingPin: true)
  }

  /// How many checkpoints this process made, and how many commits it journaled since its last.
  package var journalState: (checkpoints: Int, commitsSinceCheckpoint: Int) {
    writerLock.withLock { (checkpoints.load(ordering: .relaxed), sinceCheckpoint.commits) }
  }

  /// The final checkpoint, at close (under the gate, held exclusive, after
  /// `waitForCheckpoint`): a database closed cleanly needs no recovery, and no pin
  /// outlives the environment.
  func closingCheckpoint(_ env: OpaquePointer) {
    let pinned = checkpointLock.withLock {
      if let pending = pendingCheckpoint {
        // Begun by a write that raced the close: its task finds the environment closed.
        mdb_txn_abort(pending.pin)
        pendingCheckpoint = nil
      }
      return pin != nil
    }
    guard journal != nil, pinned else { return }
    var txn: OpaquePointer?
    if mdb_txn_begin(env, nil, 0, &txn) == MDB_SUCCESS, let txn {
      try? checkpoint(env, txn, keepingPin: false)
      mdb_txn_abort(txn)
    }
    checkpointLock.withLock { movePin(to: nil) }
  }

  /// Lets the pin go and holds `newPin` instead. Called under `checkpointLock`.
  private func movePin(to newPin: OpaquePointer?) {
    if let pin { mdb_txn_abort(pin) }
    pin = newPin
  }
}

// MARK: - Recovery

extension Environment {
  /// Recovers the database in `directory` when a writer stopped without its closing
  /// checkpoint and no process has it open: writes the checkpoint's meta page back and
  /// replays the journal past it. Called before the environment opens.
  static func recoverIfNeeded(directory: String, options: Options) throws {
    guard !options.inspectOnly, try dataFileState(in: directory) == .present,
      try needsRecovery(directory, exclusive: false)
    else { return }
    // Only with no other process in the database: a live writer's journal is its own.
    guard let exclusive = try OpenLock.exclusive(directory: directory, patience: .seconds(0)) else { return }
    defer { exclusive.release() }
    guard try needsRecovery(directory, exclusive: true), let checkpoint = try Checkpoint.read(in: directory) else {
      return
    }
    let entries = Journal.records(in: directory, after: checkpoint.transaction)
    let file = try DataFile(path: dataFile(in: directory))
    guard try checkpoint.matches(file) else {
      throw StorageDamage(
        fileFault(
          Checkpoint.file(in: directory),
          problem: "checkpoint.hearth does not match data.mdb (the page it names holds other bytes): if data.mdb "
            + "was replaced by hand, remove checkpoint.hearth, journal-0.hearth and journal-1.hearth; "
            + "otherwise data.mdb is damaged"))
    }
    let metaPages = try file.read(offset: 0, count: 2 * checkpoint.pageSize)
    let id = checkpoint.transaction
    let restored = [0, 1].map { checkpoint.metaPage(at: $0, transaction: $0 == id & 1 ? id : max(id - 1, 0)) }
    try writeMetaPages(restored, pageSize: checkpoint.pageSize, directory: directory)
    // The checkpoint's state is whole unless the disk damaged it: verified with plain
    // reads before LMDB replays onto it. If it is not, the meta pages go back as they
    // were, so that recovery never leaves the file worse than it found it.
    let verification = try verifyUnopenedDataFile(in: directory, contextTables: options.contextTables)
    guard verification.isIntact else {
      if metaPages.count == 2 * checkpoint.pageSize {
        try writeMetaPages(
          [Array(metaPages[..<checkpoint.pageSize]), Array(metaPages[checkpoint.pageSize...])],
          pageSize: checkpoint.pageSize, directory: directory)
      }
      throw StorageDamage(verification)
    }
    try replay(entries, directory: directory, options: options)
  }

  /// Whether the journal has records, or the newest commit is not the checkpoint's (or
  /// the meta pages are damaged: a meta page being written when the machine stopped).
  ///
  /// A checkpoint newer than the data file's newest commit is another file's (one put in
  /// the directory by hand since): it is removed, with its journal.
  private static func needsRecovery(_ directory: String, exclusive: Bool) throws -> Bool {
    guard let checkpoint = try Checkpoint.read(in: directory) else { return false }
    let metas = try? MetaPages.settled(file: DataFile(path: dataFile(in: directory)))
    if let newest = metas?.newest, Int(newest.transactionID) < checkpoint.transaction {
      guard exclusive else { return true }
      removeJournal(in: directory)
      return false
    }
    if !Journal.records(in: directory, after: checkpoint.transaction).isEmpty { return true }
    guard let newest = metas?.newest else { return true }
    return Int(newest.transactionID) != checkpoint.transaction
  }

  /// Removes the journal and the checkpoint of the database in `directory` (whose data
  /// file is being replaced).
  package static func removeJournal(in directory: String) {
    for file in Journal.files(in: directory) { unlink(file) }
    unlink(Checkpoint.file(in: directory))
  }

  /// Writes `pages` (the first bytes of meta pages 0 and 1) over the data file's meta
  /// pages, and syncs it.
  private static func writeMetaPages(_ pages: [[UInt8]], pageSize: Int, directory: String) throws {
    let path = dataFile(in: directory)
    let descriptor = Foundation.open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(path)") }
    defer { Foundation.close(descriptor) }
    for (index, page) in pages.enumerated() {
      let written = page.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, off_t(index * pageSize)) }
      guard written == page.count else { throw StorageError(code: errno, operation: "pwrite \(path) (recovery)") }
    }
    guard fdatasync(descriptor) == 0 else { throw StorageError(code: errno, operation: "fdatasync \(path)") }
  }

  /// Applies `entries` to the database in `directory`, each in a transaction of its own,
  /// syncs, checkpoints, and begins the journal's next generation.
  private static func replay(_ entries: [JournalEntry], directory: String, options: Options) throws {
    var env: OpaquePointer?
    try check(mdb_env_create(&env), "mdb_env_create (recovery)")
    defer { mdb_env_close(env) }
    try check(mdb_env_set_maxdbs(env, options.maxTables), "mdb_env_set_maxdbs (recovery)")
    try check(
      mdb_env_open(env, directory, UInt32(MDB_NOTLS | MDB_NOSYNC), options.fileMode), "mdb_env_open \(directory)")
    for entry in entries {
      let changes = try entry.changes()
      while true {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin (recovery)")
        var rc = MDB_SUCCESS
        for change in changes where rc == MDB_SUCCESS { rc = apply(change, txn!) }
        if rc == MDB_SUCCESS { rc = mdb_txn_commit(txn) } else { mdb_txn_abort(txn) }
        if rc == MDB_MAP_FULL {
          var info = MDB_envinfo()
          mdb_env_info(env, &info)
          try check(mdb_env_set_mapsize(env, info.me_mapsize * 2), "mdb_env_set_mapsize (recovery)")
          continue
        }
        try check(rc, "replaying the journal (transaction \(entry.transaction))")
        break
      }
    }
    try check(mdb_env_sync(env, 1), "mdb_env_sync (recovery)")
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    try Checkpoint(ofTransaction: info.me_last_txnid, directory: directory).write(
      in: directory, fileMode: options.fileMode)
    try Journal(directory: directory, fileMode: options.fileMode).begin(
      generation: info.me_last_txnid, switching: false)
  }

  /// Applies one journaled change in `txn`; LMDB's return code.
  private static func apply(_ change: JournalEntry.Change, _ txn: OpaquePointer) -> Int32 {
    var dbi = MDB_dbi()
    let flags = UInt32(MDB_CREATE) | (change.duplicateSort ? UInt32(MDB_DUPSORT) : 0)
    let rc = mdb_dbi_open(txn, change.table, flags, &dbi)
    guard rc == MDB_SUCCESS else { return rc }
    return change.key.withUnsafeBytes { key in
      change.value.withUnsafeBytes { value in
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let result: Int32
        switch change.kind {
        case .put: result = mdb_put(txn, dbi, &k, &v, 0)
        case .delete: result = mdb_del(txn, dbi, &k, nil)
        case .deleteValue: result = mdb_del(txn, dbi, &k, &v)
        case .empty: result = mdb_drop(txn, dbi, 0)
        case .createTable: result = MDB_SUCCESS
        }
        return result == MDB_NOTFOUND ? MDB_SUCCESS : result
      }
    }
  }
}

/// A checkpoint begun and not yet written: its meta page, and the pin on its state.
struct PendingCheckpoint {
  let checkpoint: Checkpoint
  let pin: OpaquePointer
}

/// What a process's commits did since its last checkpoint began: what decides when the
/// next one is due.
struct CheckpointProgress {
  var commits = 0
  /// Journal bytes they appended.
  var bytes = 0
  /// LMDB pages they freed (so wrote).
  var pagesFreed = 0
  /// When the checkpoint began (uptime, nanoseconds).
  let began = DispatchTime.now().uptimeNanoseconds
}
