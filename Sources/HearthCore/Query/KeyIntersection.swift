import HearthStorage

/// The documents under every one of several exact keys of one collection's single-field
/// indexes (`a == 1`, `b == "x"`, `tags array-contains "t"`), in document-ID order (or its
/// reverse), found from the entries alone: a key's entries are its documents' IDs in order
/// (LMDB's duplicates), so each cursor seeks the others' latest ID in turn
/// (`MDB_GET_BOTH_RANGE`) until all stand on one, the next match. Only the matches'
/// documents are then read; the others cost a seek each at most, and runs of them one
/// seek.
final class KeyIntersection {
  private let keys: [[UInt8]]
  private let cursors: [Cursor]
  /// Whether it walks in ascending ID order.
  private let forward: Bool
  private var started = false
  private var finished = false
  /// The seeks made so far (each lands on one entry), for `explain()`.
  private(set) var entriesRead = 0

  /// - Parameter keys: two or more exact keys of `table`, the one with fewest entries
  ///   first (its entries are the candidates the others are asked about).
  init(_ txn: ReadTransaction, _ table: Table, keys: [[UInt8]], forward: Bool) throws {
    self.keys = keys
    self.forward = forward
    cursors = try keys.map { _ in try txn.cursor(table) }
  }

  /// The first cursor's first ID in walk order, or its next after the last match.
  private func advanceFirst() throws -> Cursor.Entry? {
    let cursor = cursors[0]
    if started { return try forward ? cursor.nextDuplicate() : cursor.previousDuplicate() }
    started = true
    guard let first = try cursor.seek(exactly: keys[0]) else { return nil }
    return forward ? first : try cursor.lastDuplicate()
  }

  /// The next document under every key: its entries' data (the document's ID as index
  /// entries store it, in the read transaction's map), or `nil` after the last.
  func next() throws -> UnsafeRawBufferPointer? {
    guard !finished else { return nil }
    guard var target = try advanceFirst()?.value else { return finish() }
    entriesRead += 1
    // How many cursors in a row stand on `target`; the next one asked is `index`.
    var agreeing = 1
    var index = 1
    while agreeing < cursors.count {
      let cursor = cursors[index]
      let key = keys[index]
      guard
        let (_, found) = try forward
          ? cursor.seek(exactly: key, valueAtLeast: target) : cursor.seek(exactly: key, valueAtMost: target)
      else { return finish() }
      entriesRead += 1
      if found.elementsEqual(target) {
        agreeing += 1
      } else {
        // This cursor stands on a later ID in walk order: every other one is asked about
        // it in turn.
        target = found
        agreeing = 1
      }
      index = (index + 1) % cursors.count
    }
    return target
  }

  private func finish() -> UnsafeRawBufferPointer? {
    finished = true
    return nil
  }
}
