import HearthStorage

/// The change log (docs/file-formats.md): every commit appends the paths it changed under the
/// next sequence number, in the commit's own transaction, so that other processes'
/// listeners can find out what changed (Observation's poller reads it).
///
/// ```
/// changes   key: sequence, UInt64 big-endian    value: flags(1) count(varint) paths
///   flags bit 0: everything may have changed (an import that emptied the database)
///   paths: each a varint length and the document's canonical path, UTF-8
/// ```
///
/// The log keeps the last `maxEntries` commits, and at most `trimBatch` more: an append
/// that finds more than that removes the oldest down to `maxEntries` at once, so it never
/// grows without bound. A reader that falls behind the trimmed log re-reads everything
/// instead.
///
/// Trimming in batches, not one entry per append, is for the single-document commit:
/// removing the oldest entry dirties another leaf of the log and its branch (about 3 of
/// the ~39 pages such a commit writes, `CommitPagesTests`), while 64 removals at once
/// mostly share one leaf.
enum ChangeLog {
  static let maxEntries = 10_000
  static let trimBatch = 64

  /// Appends one commit's changes; returns its sequence number.
  @discardableResult
  static func append(_ changes: CommitChanges, in txn: WriteTransaction, table: Table) throws -> UInt64 {
    let cursor = try txn.cursor(table)
    let last = try cursor.last().flatMap { KeyLayout.readBigEndian($0.key) } ?? 0
    guard last < .max else { throw HearthError.dataLoss("The change log's last sequence number is damaged") }
    let sequence = last + 1
    var writer = ByteWriter(capacity: 16 + changes.keys.count * 32)
    writer.byte(changes.everything ? 1 : 0)
    writer.varint(UInt64(changes.keys.count))
    for key in changes.keys { writer.string(key.description) }
    try txn.put(KeyLayout.bigEndian(sequence), writer.bytes, in: table)
    let count = try txn.count(table)
    if count > maxEntries + trimBatch, let first = try cursor.first().flatMap({ KeyLayout.readBigEndian($0.key) }) {
      // Sequences are consecutive: appends add the next one, trims remove the first ones.
      for oldest in first..<first + UInt64(count - maxEntries) {
        _ = try txn.delete(KeyLayout.bigEndian(oldest), in: table)
      }
    }
    return sequence
  }

  /// The last sequence number written (0 before the first commit).
  static func lastSequence(in txn: ReadTransaction, table: Table) throws -> UInt64 {
    try txn.cursor(table).last().flatMap { KeyLayout.readBigEndian($0.key) } ?? 0
  }

  /// The changes of the commits after `sequence`, merged, and the last sequence read;
  /// `everything` when the log no longer reaches back to `sequence + 1`.
  static func changes(after sequence: UInt64, in txn: ReadTransaction, table: Table) throws
    -> (changes: CommitChanges, last: UInt64)
  {
    let cursor = try txn.cursor(table)
    guard sequence < .max else { return (CommitChanges(keys: []), sequence) }
    var entry = try cursor.seek(atLeast: KeyLayout.bigEndian(sequence + 1))
    guard let (firstKey, _) = entry, let first = KeyLayout.readBigEndian(firstKey) else {
      return (CommitChanges(keys: []), sequence)
    }
    var changes = CommitChanges(keys: [], everything: first != sequence + 1)
    var last = sequence
    while let (key, value) = entry, let number = KeyLayout.readBigEndian(key) {
      last = number
      var reader = ByteReader(value)
      if let flags = try? reader.byte(), let count = try? reader.count() {
        if flags & 1 != 0 { changes.everything = true }
        for _ in 0..<count {
          guard let path = try? reader.trustedString(), let parsed = try? DocumentKey(parsing: path) else { break }
          changes.keys.append(parsed)
        }
      }
      entry = try cursor.next()
    }
    return (changes, last)
  }
}
