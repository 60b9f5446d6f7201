import HearthStorage

/// A walk over key ranges of one table, forward or backward, one entry at a time, so that
/// a query can merge several walks. Entries point into the memory map and stay valid until
/// the transaction ends.
final class RangeWalker {
  private let txn: ReadTransaction
  private let cursor: Cursor
  /// The non-empty ranges, in walk order: a slice of the plan's (one range of several a
  /// walk, when each is walked to be merged), so that a walk makes no array of its own.
  private let ranges: ArraySlice<KeyRange>
  /// Whether it walks each range in ascending key order.
  let forward: Bool
  private let start: (key: [UInt8], value: [UInt8]?)?
  private var position = -1
  private var inRange = false

  /// - Parameter start: where to begin within each range that contains it (a query
  ///   cursor's seek).
  init(
    _ txn: ReadTransaction, _ table: Table, _ ranges: ArraySlice<KeyRange>, forward: Bool,
    start: (key: [UInt8], value: [UInt8]?)? = nil
  ) throws {
    self.txn = txn
    cursor = try txn.cursor(table)
    // A lone range (most walks) is kept as it is: filtering it made a new array, a walk.
    if ranges.count == 1 {
      self.ranges = ranges.first!.isEmpty ? [] : ranges
    } else {
      self.ranges = (forward ? ranges.filter { !$0.isEmpty } : ranges.reversed().filter { !$0.isEmpty })[...]
    }
    self.forward = forward
    self.start = start
  }

  /// The next entry in walk order, or `nil` after the last range.
  func next() throws -> Cursor.Entry? {
    while true {
      let entry: Cursor.Entry?
      if inRange {
        entry = try forward ? cursor.next() : cursor.previous()
      } else {
        position += 1
        guard position < ranges.count else { return nil }
        entry = try enter(ranges[ranges.startIndex + position])
        inRange = true
      }
      let range = ranges.startIndex + position
      if let entry, forward ? ranges[range].isBelowUpper(entry.key) : ranges[range].isAboveLower(entry.key) {
        return entry
      }
      inRange = false
    }
  }

  /// Positions the cursor on the range's first entry in walk order (at `start` when that
  /// lies inside the range).
  private func enter(_ range: KeyRange) throws -> Cursor.Entry? {
    var entry: Cursor.Entry?
    let byKey = cursor.table.isDuplicateSorted
    if forward {
      var key = range.lower
      var value: [UInt8]?
      if let start, KeyRange.compare(start.key, range.lower) >= 0 { (key, value) = start }
      entry = try txn.positionAtOrAfter(cursor, key: key, value: value)
      // Only the lower bound's own key can fail it (an exclusive one): its entries are
      // stepped over at once, not one by one (`unread > 0` where most are 0).
      while let (key, _) = entry, !range.isAboveLower(key) { entry = try byKey ? cursor.nextKey() : cursor.next() }
    } else {
      var key = range.upper
      var value: [UInt8]?
      if let start, KeyRange.compare(start.key, range.upper) <= 0 { (key, value) = start }
      entry = try txn.positionAtOrBefore(cursor, key: key, value: value)
      while let (key, _) = entry, !range.isBelowUpper(key) {
        entry = try byKey ? cursor.previousKey() : cursor.previous()
      }
    }
    return entry
  }
}

extension ReadTransaction {
  /// Walks the entries of `range` in `table`, forward or backward, calling `visit` with
  /// each key and value until it returns `false`. `start` moves the walk's beginning
  /// inside the range to a key (and, in a duplicate-sorted table, to a value of it), for
  /// query cursors.
  func walk(
    _ table: Table, _ range: KeyRange, forward: Bool, start: (key: [UInt8], value: [UInt8]?)? = nil,
    _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
  ) throws {
    let walker = try RangeWalker(self, table, [range][...], forward: forward, start: start)
    while let (key, value) = try walker.next() {
      if try !visit(key, value) { return }
    }
  }

  /// The first entry at or after `key` (and, within it, at or after `value`).
  fileprivate func positionAtOrAfter(_ cursor: Cursor, key: [UInt8], value: [UInt8]?) throws -> Cursor.Entry? {
    guard let value, cursor.table.isDuplicateSorted else { return try cursor.seek(atLeast: key) }
    if let entry = try cursor.seek(exactly: key, valueAtLeast: value) { return entry }
    // The key is absent, or all its values come before `value`: go to the next key.
    guard let (found, _) = try cursor.seek(atLeast: key) else { return nil }
    return Self.compare(found, key) == 0 ? try cursor.nextKey() : try cursor.current()
  }

  /// -1, 0 or 1 as `found` (in the map) orders before, with or after `key`, compared in
  /// place (a copy of it into an array cost an allocation, a seek).
  private static func compare(_ found: UnsafeRawBufferPointer, _ key: [UInt8]) -> Int {
    key.withUnsafeBytes { Value.compareRaw(found, $0) }
  }

  /// The last entry at or before `key` (and, within it, at or before `value`).
  fileprivate func positionAtOrBefore(_ cursor: Cursor, key: [UInt8], value: [UInt8]?) throws -> Cursor.Entry? {
    guard let (found, _) = try cursor.seek(atLeast: key) else { return try cursor.last() }
    guard Self.compare(found, key) == 0 else { return try cursor.previous() }
    guard cursor.table.isDuplicateSorted else { return try cursor.current() }
    if let value, let (_, data) = try cursor.seek(exactly: key, valueAtLeast: value) {
      return Self.compare(data, value) > 0 ? try cursor.previous() : try cursor.current()
    }
    _ = try cursor.seek(exactly: key)
    return try cursor.lastDuplicate()
  }
}
