import CLMDB
import Foundation

/// A read-only view of one consistent snapshot, valid only inside the `Environment.read`
/// (or `write`) closure that received it. Using it afterwards throws.
///
/// Values it returns point into the memory map and are valid until the closure returns.
package class ReadTransaction {
  let txn: OpaquePointer
  private var isLive = true
  /// The cursors it opened, the newest first, linked through `Cursor.nextOpen`: a list
  /// that needs no array (growing one cost a query ~2.6k instructions).
  ///
  /// It and `spareCursors` skip the dynamic exclusivity check (~80 instructions an
  /// access, a few a cursor): a transaction is used by one thread, and no access to them
  /// calls out while it lasts.
  @exclusivity(unchecked) private var openCursors: Cursor?
  /// LMDB cursors that an earlier read on the same (reset and renewed) transaction
  /// opened, renewed here instead of opened again (`mdb_cursor_renew`: read-only cursors
  /// may move between transactions, which spares LMDB's allocation of each). A write
  /// transaction has none: LMDB frees its cursors when it ends.
  @exclusivity(unchecked) var spareCursors: [SpareCursor]

  init(_ txn: OpaquePointer, spareCursors: [SpareCursor] = []) {
    self.txn = txn
    self.spareCursors = spareCursors
  }

  /// Closes the cursors and forbids further use. Called by `Environment` before the
  /// transaction is committed, aborted or reset.
  ///
  /// - Parameter keepingCursors: keep each LMDB cursor in `spareCursors` for the next
  ///   read on this transaction handle instead of closing it (read-only transactions).
  func end(keepingCursors: Bool = false) {
    var next = openCursors
    openCursors = nil
    while let cursor = next {
      next = cursor.nextOpen
      cursor.nextOpen = nil
      if keepingCursors, let handle = cursor.detach() {
        spareCursors.append(SpareCursor(dbi: cursor.table.dbi, cursor: handle))
      } else {
        cursor.close()
      }
    }
    isLive = false
  }

  @inline(__always)
  func ensureLive(_ operation: @autoclosure () -> String) throws(StorageError) {
    if !isLive { throw StorageError.expired(operation()) }
  }

  /// The value stored under `key`, or `nil`. For a duplicate-sorted table, the first value.
  /// The ID of the commit this transaction reads (as `Environment.lastTransactionID()`
  /// counts commits).
  package var id: Int { mdb_txn_id(txn) }

  package func get(_ key: UnsafeRawBufferPointer, in table: Table) throws
    -> UnsafeRawBufferPointer?
  {
    try ensureLive("mdb_get (\(table))")
    var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
    var v = MDB_val()
    let rc = mdb_get(txn, table.dbi, &k, &v)
    if rc == MDB_NOTFOUND { return nil }
    try check(rc, "mdb_get (\(table))")
    return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
  }

  package func get(_ key: [UInt8], in table: Table) throws -> UnsafeRawBufferPointer? {
    try key.withUnsafeBytes { (bytes) in try get(bytes, in: table) }
  }

  /// A cursor over `table`, closed when the transaction ends.
  package func cursor(_ table: Table) throws -> Cursor {
    try ensureLive("mdb_cursor_open (\(table))")
    var cursor: OpaquePointer?
    if let index = spareCursors.firstIndex(where: { $0.dbi == table.dbi }) {
      let spare = spareCursors.remove(at: index).cursor
      if mdb_cursor_renew(txn, spare) == MDB_SUCCESS {
        cursor = spare
      } else {
        mdb_cursor_close(spare)
      }
    }
    if cursor == nil { try check(mdb_cursor_open(txn, table.dbi, &cursor), "mdb_cursor_open (\(table))") }
    let wrapped = Cursor(cursor!, table: table)
    wrapped.nextOpen = openCursors
    openCursors = wrapped
    return wrapped
  }

  /// The number of entries in `table` (from `mdb_stat`, without a scan).
  package func count(_ table: Table) throws -> Int {
    try ensureLive("mdb_stat (\(table))")
    var stat = MDB_stat()
    try check(mdb_stat(txn, table.dbi, &stat), "mdb_stat (\(table))")
    return stat.ms_entries
  }

}

/// The write transaction, valid only inside the `Environment.write` closure.
///
/// A failed write makes the whole transaction fail (LMDB's rule): the closure should
/// throw, and nothing is committed.
package final class WriteTransaction: ReadTransaction {
  /// Set when a write met `MDB_MAP_FULL`; `Environment.write` then grows the map and
  /// runs the closure again, whatever the closure did with the error.
  private(set) var ranOutOfMap = false
  /// The changes made so far, for the journal (`Environment+Journal.swift`).
  var record = JournalRecord()

  @inline(__always)
  func checkWrite(_ rc: Int32, _ operation: @autoclosure () -> String) throws(StorageError) {
    if rc == MDB_MAP_FULL { ranOutOfMap = true }
    try check(rc, operation())
  }

  /// Stores `value` under `key`, replacing what was there (for a duplicate-sorted table,
  /// adding `value` to the key's set).
  package func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in table: Table)
    throws
  {
    try ensureLive("mdb_put (\(table))")
    var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
    var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
    try checkWrite(mdb_put(txn, table.dbi, &k, &v, 0), "mdb_put (\(table))")
    record.record(.put, table, key: key, value: value)
  }

  /// Deletes every entry of `table`, keeping the table (`mdb_drop` without delete).
  package func empty(_ table: Table) throws {
    try ensureLive("mdb_drop (\(table))")
    try checkWrite(mdb_drop(txn, table.dbi, 0), "mdb_drop (\(table))")
    record.record(.empty, table)
  }

  package func put(_ key: [UInt8], _ value: [UInt8], in table: Table) throws {
    try key.withUnsafeBytes { (k) in
      try value.withUnsafeBytes { (v) in try put(k, v, in: table) }
    }
  }

  /// Deletes `key` (every value of it, in a duplicate-sorted table). Returns whether it existed.
  @discardableResult
  package func delete(_ key: UnsafeRawBufferPointer, in table: Table) throws -> Bool {
    try ensureLive("mdb_del (\(table))")
    var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
    let rc = mdb_del(txn, table.dbi, &k, nil)
    if rc == MDB_NOTFOUND { return false }
    try checkWrite(rc, "mdb_del (\(table))")
    record.record(.delete, table, key: key)
    return true
  }

  @discardableResult
  package func delete(_ key: [UInt8], in table: Table) throws -> Bool {
    try key.withUnsafeBytes { (k) in try delete(k, in: table) }
  }

  /// Deletes one value of `key` in a duplicate-sorted table. Returns whether it existed.
  @discardableResult
  package func delete(_ key: [UInt8], value: [UInt8], in table: Table) throws -> Bool {
    try ensureLive("mdb_del (\(table))")
    return try key.withUnsafeBytes { (kb) in
      try value.withUnsafeBytes { (vb) in
        var k = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
        var v = MDB_val(mv_size: vb.count, mv_data: UnsafeMutableRawPointer(mutating: vb.baseAddress))
        let rc = mdb_del(txn, table.dbi, &k, &v)
        if rc == MDB_NOTFOUND { return false }
        try checkWrite(rc, "mdb_del (\(table))")
        record.record(.deleteValue, table, key: kb, value: vb)
        return true
      }
    }
  }

}

/// An LMDB cursor of a read transaction that ended, kept with its (reset) transaction
/// handle for the next read to renew.
struct SpareCursor {
  let dbi: MDB_dbi
  let cursor: OpaquePointer

  /// Closes the LMDB cursors (of a transaction handle that is being aborted).
  static func close(_ spares: [SpareCursor]) {
    for spare in spares { mdb_cursor_close(spare.cursor) }
  }
}
