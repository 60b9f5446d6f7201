import CLMDB
import CSQLite
import Foundation
import Hearth
import Synchronization

/// Hearth through its public API, as an app uses it.
final class HearthSubject {
  let database: Database
  let workload: SocialWorkload
  let references: [DocumentReference]

  init(directory: String, workload: SocialWorkload) throws {
    let database = try Database(path: directory)
    self.database = database
    self.workload = workload
    references = workload.documents.map { database.document($0.path) }
  }

  func batchedSet() throws {
    for start in stride(from: 0, to: workload.documents.count, by: 1000) {
      let batch = database.batch()
      for index in start..<min(start + 1000, workload.documents.count) {
        batch.setData(workload.documents[index].fields, forDocument: references[index])
      }
      try batch.commit()
    }
  }

  /// `count` documents set durably one after another, in a collection of round
  /// `round`'s own (each round writes as the first did, into a new collection).
  func durableSets(_ count: Int, round: Int) throws {
    for index in 0..<count {
      try database.collection("durable\(round)").document("d\(index)").setData(
        workload.documents[index % workload.documents.count].fields)
    }
  }

  /// `threads` threads, each setting its own documents durably, one per commit: what
  /// group commit shares.
  func parallelDurableSets(threads: Int, _ count: Int, round: Int) throws {
    let fields = Unchecked((0..<count).map { workload.documents[$0 % workload.documents.count].fields })
    let database = database
    let before = try database.engine().groupCommits
    try onThreads(threads) { thread in
      for index in stride(from: thread, to: count, by: threads) {
        try database.collection("parallel\(round)").document("t\(thread)-d\(index)").setData(fields.value[index])
      }
    }
    let after = try database.engine().groupCommits
    groupSizes.append(Double(after.requests - before.requests) / Double(max(after.groups - before.groups, 1)))
  }

  /// The mean number of writes a group commit held, in each round of `parallelDurableSets`.
  private(set) var groupSizes: [Double] = []

  /// The read alone: the snapshot holds the verified bytes; fields are built on use.
  func getSnapshots(_ order: [Int]) throws {
    var found = 0
    for index in order where try references[index].getDocument().exists { found += 1 }
    precondition(found == order.count)
  }

  func getDictionaries(_ order: [Int]) throws {
    var fields = 0
    for index in order { fields += try references[index].getDocument().data()?.count ?? 0 }
    precondition(fields == order.count * 8)
  }

  func getStructs(_ order: [Int]) throws {
    var likes = 0
    for index in order { likes &+= try references[index].getDocument(as: Post.self).likes }
    _ = likes
  }

  /// Each user's posts, one collection's `getDocuments()` at a time.
  func readCollections() throws {
    var total = 0
    for user in workload.users { total += try database.collection("users/\(user)/posts").getDocuments().count }
    precondition(total == workload.documents.count)
  }

  /// Every post at once: the collection group's `getDocuments()`.
  func readGroup() throws {
    let count = try database.collectionGroup("posts").getDocuments().count
    precondition(count == workload.documents.count)
  }

  func close() { database.close() }
}

/// LMDB through its C API: the same bytes, the same kind of transactions.
final class LMDBSubject {
  private var env: OpaquePointer?
  private var dbi = MDB_dbi()
  let workload: SocialWorkload
  private let keys: [[UInt8]]

  init(directory: String, workload: SocialWorkload) throws {
    self.workload = workload
    keys = workload.documents.map { Array($0.path.utf8) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    precondition(mdb_env_create(&env) == 0)
    mdb_env_set_maxdbs(env, 4)
    mdb_env_set_mapsize(env, 8 << 30)
    precondition(mdb_env_open(env, directory, UInt32(MDB_NOTLS), 0o600) == 0)
    var txn: OpaquePointer?
    mdb_txn_begin(env, nil, 0, &txn)
    precondition(mdb_dbi_open(txn, "documents", UInt32(MDB_CREATE), &dbi) == 0)
    mdb_txn_commit(txn)
  }

  private func put(_ key: [UInt8], _ value: [UInt8], _ txn: OpaquePointer?) {
    key.withUnsafeBytes { k in
      value.withUnsafeBytes { v in
        var mk = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
        var mv = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
        precondition(mdb_put(txn, dbi, &mk, &mv, 0) == 0)
      }
    }
  }

  func batchedPut() throws {
    for start in stride(from: 0, to: keys.count, by: 1000) {
      var txn: OpaquePointer?
      mdb_txn_begin(env, nil, 0, &txn)
      for index in start..<min(start + 1000, keys.count) { put(keys[index], workload.documents[index].encoded, txn) }
      precondition(mdb_txn_commit(txn) == 0)
    }
  }

  func durablePuts(_ count: Int, round: Int) throws {
    for index in 0..<count {
      var txn: OpaquePointer?
      mdb_txn_begin(env, nil, 0, &txn)
      put(Array("durable\(round)/d\(index)".utf8), workload.documents[index % keys.count].encoded, txn)
      precondition(mdb_txn_commit(txn) == 0)
    }
  }

  /// `threads` threads, each making its own durable put transactions: LMDB serializes
  /// them (each pays its syncs), the floor without group commit.
  func parallelDurablePuts(threads: Int, _ count: Int, round: Int) throws {
    let env = Unchecked(env)
    let dbi = dbi
    let values = Unchecked((0..<count).map { workload.documents[$0 % keys.count].encoded })
    try onThreads(threads) { thread in
      for index in stride(from: thread, to: count, by: threads) {
        var txn: OpaquePointer?
        precondition(mdb_txn_begin(env.value, nil, 0, &txn) == 0)
        var key = Array("parallel\(round)/t\(thread)-d\(index)".utf8)
        var value = values.value[index]
        key.withUnsafeMutableBytes { k in
          value.withUnsafeMutableBytes { v in
            var mk = MDB_val(mv_size: k.count, mv_data: k.baseAddress)
            var mv = MDB_val(mv_size: v.count, mv_data: v.baseAddress)
            precondition(mdb_put(txn, dbi, &mk, &mv, 0) == 0)
          }
        }
        precondition(mdb_txn_commit(txn) == 0)
      }
    }
  }

  /// One read transaction per get (reset and renewed, as Hearth does), copying the value
  /// out as any reader must.
  func gets(_ order: [Int]) throws {
    var txn: OpaquePointer?
    mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
    mdb_txn_reset(txn)
    var bytes = 0
    for index in order {
      mdb_txn_renew(txn)
      keys[index].withUnsafeBytes { k in
        var mk = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
        var mv = MDB_val()
        precondition(mdb_get(txn, dbi, &mk, &mv) == 0)
        let copy = [UInt8](UnsafeRawBufferPointer(start: mv.mv_data, count: mv.mv_size))
        bytes += copy.count
      }
      mdb_txn_reset(txn)
    }
    mdb_txn_abort(txn)
    precondition(bytes > 0)
  }

  /// Each user's posts, the keys under its collection's path, in a read transaction of
  /// their own (renewed, as Hearth's queries are).
  func scanCollections() throws {
    var txn: OpaquePointer?
    mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
    mdb_txn_reset(txn)
    var count = 0
    for user in workload.users {
      mdb_txn_renew(txn)
      count += copyValues(under: "users/\(user)/posts/", txn)
      mdb_txn_reset(txn)
    }
    mdb_txn_abort(txn)
    precondition(count == keys.count)
  }

  /// Every post in one cursor walk.
  func scan() throws {
    var txn: OpaquePointer?
    mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
    let count = copyValues(under: "users/", txn)
    mdb_txn_abort(txn)
    precondition(count == keys.count)
  }

  /// Copies out the value of each key that begins with `prefix`; returns how many.
  private func copyValues(under prefix: String, _ txn: OpaquePointer?) -> Int {
    var cursor: OpaquePointer?
    mdb_cursor_open(txn, dbi, &cursor)
    defer { mdb_cursor_close(cursor) }
    var count = 0
    Array(prefix.utf8).withUnsafeBytes { p in
      var key = MDB_val(mv_size: p.count, mv_data: UnsafeMutableRawPointer(mutating: p.baseAddress))
      var value = MDB_val()
      var op = MDB_SET_RANGE
      while mdb_cursor_get(cursor, &key, &value, op) == 0, key.mv_size >= p.count,
        memcmp(key.mv_data, p.baseAddress!, p.count) == 0
      {
        let copy = [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
        if !copy.isEmpty { count += 1 }
        op = MDB_NEXT
      }
    }
    return count
  }

  func close() { mdb_env_close(env) }
}

/// SQLite, configured for durability like Hearth's default: WAL, `synchronous=FULL`.
final class SQLiteSubject {
  private var db: OpaquePointer?
  let workload: SocialWorkload
  private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  let path: String

  init(path: String, workload: SocialWorkload) throws {
    self.workload = workload
    self.path = path
    precondition(sqlite3_open(path, &db) == SQLITE_OK)
    execute("PRAGMA journal_mode=WAL")
    execute("PRAGMA synchronous=FULL")
    execute("CREATE TABLE documents (path TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID")
  }

  private func execute(_ sql: String) {
    precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
  }

  private func prepare(_ sql: String) -> OpaquePointer? {
    var statement: OpaquePointer?
    precondition(sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK)
    return statement
  }

  private func insert(_ statement: OpaquePointer?, _ path: String, _ bytes: [UInt8]) {
    sqlite3_bind_text(statement, 1, path, -1, transient)
    _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), transient) }
    precondition(sqlite3_step(statement) == SQLITE_DONE)
    sqlite3_reset(statement)
  }

  func batchedInsert() throws {
    let statement = prepare("INSERT OR REPLACE INTO documents VALUES (?, ?)")
    defer { sqlite3_finalize(statement) }
    for start in stride(from: 0, to: workload.documents.count, by: 1000) {
      execute("BEGIN")
      for index in start..<min(start + 1000, workload.documents.count) {
        insert(statement, workload.documents[index].path, workload.documents[index].encoded)
      }
      execute("COMMIT")
    }
  }

  func durableInserts(_ count: Int, round: Int) throws {
    let statement = prepare("INSERT OR REPLACE INTO documents VALUES (?, ?)")
    defer { sqlite3_finalize(statement) }
    for index in 0..<count {
      insert(statement, "durable\(round)/d\(index)", workload.documents[index % workload.documents.count].encoded)
    }
  }

  /// One connection per writer thread (WAL, `synchronous=FULL`, a busy timeout) with its
  /// statement prepared, opened before the row is timed, as Hearth's and LMDB's
  /// environments are.
  private var writerConnections: [(connection: OpaquePointer?, statement: OpaquePointer?)] = []

  func openWriterConnections(_ count: Int) {
    while writerConnections.count < count {
      var connection: OpaquePointer?
      precondition(sqlite3_open(path, &connection) == SQLITE_OK)
      sqlite3_busy_timeout(connection, 60_000)
      for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"] {
        precondition(sqlite3_exec(connection, pragma, nil, nil, nil) == SQLITE_OK)
      }
      var statement: OpaquePointer?
      precondition(
        sqlite3_prepare_v2(connection, "INSERT OR REPLACE INTO documents VALUES (?, ?)", -1, &statement, nil)
          == SQLITE_OK)
      writerConnections.append((connection, statement))
    }
  }

  /// `threads` threads, each with its own connection (`openWriterConnections`), each
  /// inserting its own rows, one per transaction: SQLite serializes the writers on its
  /// WAL lock (a writer that finds it taken sleeps in its busy handler), each commit with
  /// its own sync.
  func parallelDurableInserts(threads: Int, _ count: Int, round: Int) throws {
    openWriterConnections(threads)
    let values = Unchecked((0..<count).map { workload.documents[$0 % workload.documents.count].encoded })
    let connections = Unchecked(writerConnections)
    try onThreads(threads) { thread in
      let (connection, statement) = connections.value[thread]
      let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
      for index in stride(from: thread, to: count, by: threads) {
        sqlite3_bind_text(statement, 1, "parallel\(round)/t\(thread)-d\(index)", -1, transient)
        _ = values.value[index].withUnsafeBytes {
          sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), transient)
        }
        let rc = sqlite3_step(statement)
        precondition(rc == SQLITE_DONE, String(cString: sqlite3_errmsg(connection)))
        sqlite3_reset(statement)
      }
    }
  }

  func selects(_ order: [Int]) throws {
    let statement = prepare("SELECT data FROM documents WHERE path = ?")
    defer { sqlite3_finalize(statement) }
    var bytes = 0
    for index in order {
      sqlite3_bind_text(statement, 1, workload.documents[index].path, -1, transient)
      precondition(sqlite3_step(statement) == SQLITE_ROW)
      let count = Int(sqlite3_column_bytes(statement, 0))
      let copy = [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: count))
      bytes += copy.count
      sqlite3_reset(statement)
    }
    precondition(bytes > 0)
  }

  /// Each user's posts, the rows whose paths lie under its collection's, by one
  /// prepared statement bound for each (no post has a subcollection, whose paths the
  /// range would hold too).
  func selectCollections() throws {
    let statement = prepare(Self.rangeSelect)
    defer { sqlite3_finalize(statement) }
    var count = 0
    for user in workload.users { count += copyRows(statement, under: "users/\(user)/posts") }
    precondition(count == workload.documents.count)
  }

  /// Every post in one statement.
  func scan() throws {
    let statement = prepare(Self.rangeSelect)
    defer { sqlite3_finalize(statement) }
    precondition(copyRows(statement, under: "users") == workload.documents.count)
  }

  private static let rangeSelect = "SELECT data FROM documents WHERE path >= ?1 AND path < ?2 ORDER BY path"

  /// Runs `rangeSelect` for the paths under `path` (from "path/" up to "path0", as "0"
  /// follows "/"), copying out each row's data; returns how many.
  private func copyRows(_ statement: OpaquePointer?, under path: String) -> Int {
    sqlite3_bind_text(statement, 1, path + "/", -1, transient)
    sqlite3_bind_text(statement, 2, path + "0", -1, transient)
    defer { sqlite3_reset(statement) }
    var count = 0
    while sqlite3_step(statement) == SQLITE_ROW {
      let size = Int(sqlite3_column_bytes(statement, 0))
      let copy = [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: size))
      if !copy.isEmpty { count += 1 }
    }
    return count
  }

  func close() {
    for (connection, statement) in writerConnections {
      sqlite3_finalize(statement)
      sqlite3_close(connection)
    }
    sqlite3_close(db)
  }
}

/// A value handed to the benchmark's threads, which only read it.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Runs `body(thread)` on `count` threads of their own (not a pool, which would cap them at
/// the number of cores), and waits for them all; rethrows the first error.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
  let group = DispatchGroup()
  let failure = Mutex<(any Error)?>(nil)
  for thread in 0..<count {
    group.enter()
    Thread.detachNewThread {
      defer { group.leave() }
      do { try body(thread) } catch { failure.withLock { $0 = $0 ?? error } }
    }
  }
  group.wait()
  if let error = failure.withLock({ $0 }) { throw error }
}
