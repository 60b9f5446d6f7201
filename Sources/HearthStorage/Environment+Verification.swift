import CLMDB
import Foundation

/// Where Hearth verifies the pages of `data.mdb` before LMDB reads them (LMDB trusts
/// every page it follows: a damaged page number, node offset or flag is a `SIGSEGV`, a
/// `SIGBUS` past the file's end, or an assertion's `SIGABRT`):
///
/// - Every open reads both meta pages with plain reads before LMDB maps the file, and
///   refuses (`StorageDamage`) a file shorter than its newest commit's pages, or meta
///   pages that are damaged or disagree (either one: LMDB picks the newer by a
///   transaction ID that may itself be the damaged byte).
/// - Every open then verifies, under a read transaction (whose snapshot no writer may
///   reuse meanwhile, so that another process's commits never look like damage), the
///   table catalog and every named table's record, and, when the file's used part is at
///   most `Options.wholeFileVerificationLimit` (64 MiB), every page of every tree: all
///   that `get`, `query`, `export` and writes will read. That costs about 0.5 ms per MiB
///   of pages (a release build, the file in the page cache): up to about 30 ms on a
///   64 MiB file, nothing noticeable on a few MiB.
/// - Above the limit, opening stays as quick as on a small file, and the walks over
///   whole tables verify every page of their own snapshot first: `check` (always, at
///   any size), `stats`, `export` and `backup` (`ReadTransaction.verifyPages`). A point
///   read, a query or a write on such a file trusts the pages past the catalog; `check`
///   finds their damage.
extension Environment {
  /// The walk over a commit's pages, on the open file `file`. `nil` when the meta page
  /// of `transactionID` is gone (a writer committed twice since the snapshot began:
  /// begin another and try again).
  static func verify(
    _ file: DataFile, transactionID: Int, everyTree: Bool, contextTables: Set<String>
  ) throws(StorageError) -> PageVerification? {
    let metas = try MetaPages.settled(file: file)
    var verification = PageVerification(
      file: file.path, fileSize: metas.fileSize, pageSize: metas.pageSize, lastPage: 0,
      transactionID: transactionID, coversEveryPage: everyTree)
    guard metas.allDamage.isEmpty else {
      verification.damage = metas.allDamage
      return verification
    }
    guard let meta = metas.page(ofTransaction: transactionID) else { return nil }
    try walk(file, meta, everyTree: everyTree, contextTables: contextTables, into: &verification)
    return verification
  }

  /// Walks the pages of `meta`'s commit, adding what it found to `verification`.
  private static func walk(
    _ file: DataFile, _ meta: MetaPage, everyTree: Bool, contextTables: Set<String>,
    into verification: inout PageVerification
  ) throws(StorageError) {
    verification.lastPage = Int(meta.lastPage)
    var walk = PageWalk(
      file: file, fileSize: verification.fileSize, pageSize: meta.pageSize, lastPage: Int(meta.lastPage),
      contextTables: contextTables)
    try walk.run(meta, everyTree: everyTree)
    verification.damage += walk.damage
    verification.pagesVerified = walk.pagesVerified + LMDBFormat.metaPageCount
    verification.contextEntries = walk.contextEntries
  }

  /// Reads the meta pages of `directory`'s data file before LMDB maps it.
  ///
  /// - Returns: the bytes its newest commit uses.
  /// - Throws: `StorageDamage` when the meta pages are damaged or the file is shorter
  ///   than they say; `StorageError` when it cannot be read for permissions.
  static func verifyMetaPages(in directory: String) throws -> Int {
    let path = dataFile(in: directory)
    do {
      let file = try DataFile(path: path)
      let metas = try MetaPages.settled(file: file)
      guard metas.allDamage.isEmpty, let newest = metas.newest else {
        var verification = fileFault(path, problem: "", size: metas.fileSize)
        verification.pageSize = metas.pageSize
        verification.damage = metas.allDamage
        throw StorageDamage(verification)
      }
      return (Int(newest.lastPage) + 1) * newest.pageSize
    } catch let error as StorageError where error.code != EACCES && error.code != EPERM {
      throw StorageDamage(fileFault(path, problem: "data.mdb cannot be read: \(error)"))
    }
  }

  /// Verifies the pages of the newest commit of the just-opened `env` in a read
  /// transaction of its own: every tree, or only the catalog.
  static func verifyAtOpen(
    _ env: OpaquePointer, directory: String, everyTree: Bool, contextTables: Set<String>
  ) throws -> PageVerification {
    let file = try DataFile(path: dataFile(in: directory))
    for _ in 0..<100 {
      var txn: OpaquePointer?
      var rc = mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
      if rc == MDB_MAP_RESIZED {
        rc = mdb_env_set_mapsize(env, 0)
        try check(rc, "mdb_env_set_mapsize (adopt)")
        continue
      }
      try check(rc, "mdb_txn_begin (verify pages)")
      defer { mdb_txn_abort(txn) }
      if let verification = try verify(
        file, transactionID: mdb_txn_id(txn), everyTree: everyTree, contextTables: contextTables)
      {
        return verification
      }
    }
    throw StorageError(code: EAGAIN, operation: "verify pages (the newest commit kept changing)")
  }
}

extension Environment {
  /// Verifies the newest commit's pages of the data file in `directory` with plain
  /// reads, without LMDB: for a file that opening refused. For a file shorter than its
  /// pages, the walk lists each page past its end, to tell what was lost.
  ///
  /// No reader slot keeps writers from reusing pages meanwhile: another process that
  /// writes to the file while this runs may show as more damage.
  package static func verifyUnopenedDataFile(in directory: String, contextTables: Set<String> = [])
    throws -> PageVerification
  {
    let path = dataFile(in: directory)
    let file = try DataFile(path: path)
    let metas = try MetaPages.settled(file: file)
    var verification = PageVerification(
      file: path, fileSize: metas.fileSize, pageSize: metas.pageSize, lastPage: 0, transactionID: 0,
      coversEveryPage: true)
    guard metas.damage.isEmpty, let newest = metas.newest else {
      verification.damage = metas.damage
      return verification
    }
    verification.transactionID = Int(newest.transactionID)
    verification.damage = metas.shortFile.map { [$0] } ?? []
    try walk(file, newest, everyTree: true, contextTables: contextTables, into: &verification)
    return verification
  }
}

extension ReadTransaction {
  /// Verifies every page of this transaction's snapshot with plain reads (see
  /// `PageWalk`), before a walk that LMDB would make over them.
  ///
  /// - Parameter contextTables: tables whose entries the result carries when they
  ///   verified intact (to name what damaged pages held).
  /// - Throws: `StorageError` `EAGAIN` when writers committed twice since this
  ///   transaction began (its meta page is gone): run it again in a new transaction.
  package func verifyPages(contextTables: Set<String> = []) throws -> PageVerification {
    try ensureLive("verify pages")
    var directory: UnsafePointer<CChar>?
    try check(mdb_env_get_path(mdb_txn_env(txn), &directory), "mdb_env_get_path")
    let file = try DataFile(path: Environment.dataFile(in: String(cString: directory!)))
    guard
      let verification = try Environment.verify(file, transactionID: id, everyTree: true, contextTables: contextTables)
    else {
      throw StorageError(code: EAGAIN, operation: "verify pages (the snapshot's meta page was rewritten)")
    }
    return verification
  }
}
