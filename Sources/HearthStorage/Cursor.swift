import CLMDB

/// A position in a table, for ordered walks and range scans. It belongs to the
/// transaction that opened it and is closed when that transaction ends.
///
/// Each move returns the entry it lands on, or `nil` at either end. Keys and values point
/// into the memory map and are valid until the transaction ends.
package final class Cursor {
  package typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

  private var cursor: OpaquePointer?
  package let table: Table
  /// The transaction's next older open cursor (see `ReadTransaction.openCursors`).
  var nextOpen: Cursor?

  init(_ cursor: OpaquePointer, table: Table) {
    self.cursor = cursor
    self.table = table
  }

  func close() {
    if let cursor { mdb_cursor_close(cursor) }
    cursor = nil
  }

  /// Takes the LMDB cursor away (to renew in a later read), leaving this one closed.
  func detach() -> OpaquePointer? {
    defer { cursor = nil }
    return cursor
  }

  private func move(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil, value: UnsafeRawBufferPointer? = nil)
    throws -> Entry?
  {
    guard let cursor else { throw StorageError.expired("mdb_cursor_get (\(table))") }
    var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
    var v = MDB_val(mv_size: value?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: value?.baseAddress))
    let rc = mdb_cursor_get(cursor, &k, &v, op)
    if rc == MDB_NOTFOUND { return nil }
    try check(rc, "mdb_cursor_get (\(table))")
    return (
      UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
      UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    )
  }

  package func first() throws -> Entry? { try move(MDB_FIRST) }
  package func last() throws -> Entry? { try move(MDB_LAST) }
  package func next() throws -> Entry? { try move(MDB_NEXT) }
  package func previous() throws -> Entry? { try move(MDB_PREV) }
  package func current() throws -> Entry? { try move(MDB_GET_CURRENT) }

  /// Moves to the first key at or after `key` (`MDB_SET_RANGE`).
  package func seek(atLeast key: UnsafeRawBufferPointer) throws -> Entry? {
    try move(MDB_SET_RANGE, key: key)
  }

  package func seek(atLeast key: [UInt8]) throws -> Entry? {
    try key.withUnsafeBytes { (k) in try seek(atLeast: k) }
  }

  /// Moves to exactly `key` (`MDB_SET_KEY`), or returns `nil` when it is absent.
  package func seek(exactly key: [UInt8]) throws -> Entry? {
    try key.withUnsafeBytes { (k) in try move(MDB_SET_KEY, key: k) }
  }

  package func seek(exactly key: UnsafeRawBufferPointer) throws -> Entry? { try move(MDB_SET_KEY, key: key) }

  /// In a duplicate-sorted table: the next value of the current key.
  package func nextDuplicate() throws -> Entry? { try move(MDB_NEXT_DUP) }

  /// In a duplicate-sorted table: the previous value of the current key.
  package func previousDuplicate() throws -> Entry? { try move(MDB_PREV_DUP) }

  /// In a duplicate-sorted table: moves to exactly `key` and its first value at or after
  /// `value` (`MDB_GET_BOTH_RANGE`), or returns `nil` when there is none.
  package func seek(exactly key: [UInt8], valueAtLeast value: [UInt8]) throws -> Entry? {
    try value.withUnsafeBytes { try seek(exactly: key, valueAtLeast: $0) }
  }

  /// In a duplicate-sorted table: moves to exactly `key` and its first value at or after
  /// `value`, which may point into the map (`MDB_GET_BOTH_RANGE`); `nil` when there is none.
  package func seek(exactly key: [UInt8], valueAtLeast value: UnsafeRawBufferPointer) throws -> Entry? {
    try key.withUnsafeBytes { try move(MDB_GET_BOTH_RANGE, key: $0, value: value) }
  }

  /// In a duplicate-sorted table: moves to exactly `key` and its last value at or before
  /// `value`, or returns `nil` when there is none (LMDB has no such operation: the first
  /// value at or after it, then the one before; or the key's last when all come before).
  package func seek(exactly key: [UInt8], valueAtMost value: UnsafeRawBufferPointer) throws -> Entry? {
    if let entry = try seek(exactly: key, valueAtLeast: value) {
      return entry.value.elementsEqual(value) ? entry : try previousDuplicate()
    }
    guard try seek(exactly: key) != nil else { return nil }
    return try lastDuplicate()
  }

  /// In a duplicate-sorted table: the first value of the next key.
  package func nextKey() throws -> Entry? { try move(MDB_NEXT_NODUP) }

  /// In a duplicate-sorted table: the last value of the previous key.
  package func previousKey() throws -> Entry? { try move(MDB_PREV_NODUP) }

  /// In a duplicate-sorted table: the last value of the current key. (`MDB_LAST_DUP` does
  /// not return the key, so the entry is read back with `MDB_GET_CURRENT`.)
  package func lastDuplicate() throws -> Entry? {
    guard try move(MDB_LAST_DUP) != nil else { return nil }
    return try current()
  }

  /// In a duplicate-sorted table: how many values the current key has (`mdb_cursor_count`).
  package func duplicateCount() throws -> Int {
    guard let cursor else { throw StorageError.expired("mdb_cursor_count (\(table))") }
    var count = 0
    try check(mdb_cursor_count(cursor, &count), "mdb_cursor_count (\(table))")
    return count
  }

  /// What `countEntries` counted, and the key it stopped at for its caller to look at.
  package struct EntryCount {
    /// The entries counted (in a duplicate-sorted table, the values of the keys visited).
    package var entries = 0
    /// The keys visited.
    package var keys = 0
    /// The first key at least `stopLength` bytes long that sorts below the bound, where
    /// the cursor was left, uncounted; `nil` when counting ended at the bound, the table's
    /// end or the limit.
    package var stoppedAt: UnsafeRawBufferPointer?
  }

  /// Counts entries from `key`, the current key, on while their keys sort below `upper` (or
  /// equal it, when `inclusive`): one step a key and its values' number
  /// (`mdb_cursor_count`) in a duplicate-sorted table, one step an entry in another. Stops
  /// once `limit` entries are counted, or at a key of `stopLength` bytes or more.
  ///
  /// One loop over LMDB's calls: stepping with `nextKey` and asking `duplicateCount` cost a
  /// count ~440 instructions a key (each move checked, wrapped and returned as optionals),
  /// of which LMDB's own work is ~200.
  package func countEntries(
    from key: UnsafeRawBufferPointer, below upper: UnsafeRawBufferPointer, inclusive: Bool, limit: Int,
    stopLength: Int
  ) throws -> EntryCount {
    guard let cursor else { throw StorageError.expired("mdb_cursor_get (\(table))") }
    let duplicates = table.isDuplicateSorted
    let step = duplicates ? MDB_NEXT_NODUP : MDB_NEXT
    var result = EntryCount()
    var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
    var v = MDB_val()
    while true {
      let current = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
      let order = ByteOrder.compare(current, upper)
      guard inclusive ? order <= 0 : order < 0 else { return result }
      guard current.count < stopLength else {
        result.stoppedAt = current
        return result
      }
      result.keys += 1
      if duplicates {
        // Asked directly: through `duplicateCount` it cost ~35 instructions a key more.
        var count = 0
        try check(mdb_cursor_count(cursor, &count), "mdb_cursor_count (\(table))")
        result.entries += count
      } else {
        result.entries += 1
      }
      if result.entries >= limit { return result }
      let rc = mdb_cursor_get(cursor, &k, &v, step)
      if rc == MDB_NOTFOUND { return result }
      try check(rc, "mdb_cursor_get (\(table))")
    }
  }

  /// Moves to the last key that starts with `prefix`, or returns `nil` when none does.
  /// Useful for descending walks over one range.
  package func seekLast(withPrefix prefix: [UInt8]) throws -> Entry? {
    // Position after the range: the smallest key greater than every key with the prefix.
    if let upper = Cursor.successor(of: prefix), let entry = try seek(atLeast: upper) {
      _ = entry
      guard let before = try previous() else { return nil }
      return before.key.starts(with: prefix) ? before : nil
    }
    guard let last = try last() else { return nil }
    return last.key.starts(with: prefix) ? last : nil
  }

  /// The smallest byte string greater than every string that starts with `prefix`, or
  /// `nil` when there is none (the prefix is all `0xFF`).
  package static func successor(of prefix: [UInt8]) -> [UInt8]? {
    var bytes = prefix
    while let last = bytes.last {
      if last < 0xFF {
        bytes[bytes.count - 1] = last + 1
        return bytes
      }
      bytes.removeLast()
    }
    return nil
  }

}
