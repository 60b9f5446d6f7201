import HearthStorage

/// The old versions of documents, for reads at a past time (Firestore's `read_time`):
/// each commit that changes a document keeps the version it replaces, so the state of
/// the database at any time within the retention can be read back.
///
/// It is off until `DocumentStore.keepVersions(for:)` turns it on for a database (the
/// wire server does, as Firestore keeps versions for its reads at a past time); then every
/// writer of that database keeps it, whichever process, so that it has no holes. The two
/// tables hold an undo log (see `KeyLayout`):
///
/// ```
/// versions      key: collection(8) escaped(docID) time(8)  value: the document as it
///                                                           was before the write at
///                                                           `time`: DocumentCodec bytes,
///                                                           or empty when it was absent
/// versionTimes  key: time(8) collection(8) docID            value: empty
/// ```
///
/// `time` is a commit time in microseconds, its sign bit flipped and big-endian, so that
/// keys sort by time. The state of a document at time `t` is the version kept by its first
/// write after `t`, or its current state when nothing wrote it after `t`. `versionTimes`
/// lists the same writes by time: what changed after `t` (for queries at `t`) and what is
/// past the retention (trimmed by later commits, a few at a time).
///
/// Two meta keys say what can be read: `versionRetention` (how long versions are kept,
/// in microseconds; absent: none are) and `versionsFrom` (reads at or after this time
/// are exact: history began then, or an import or a trim has cut it there).
struct VersionHistory {
  let txn: WriteTransaction
  let tables: Tables
  private let versions: Table
  private let versionTimes: Table
  /// How long versions are kept, in microseconds.
  let retention: Int64
  /// The documents this commit has kept a version of: only the first write of a
  /// document in a commit replaces the version before the commit.
  private var kept: Set<[UInt8]> = []

  /// The most versions past the retention one commit removes: trimming never makes one
  /// commit slow, and commits remove faster than they add.
  static let trimBatch = 16

  /// The database's history, or `nil` when it keeps no versions.
  init?(txn: WriteTransaction, tables: Tables) throws {
    guard let versions = tables.versions, let versionTimes = tables.versionTimes,
      let retention = try Self.retention(in: txn, tables: tables)
    else { return nil }
    self.txn = txn
    self.tables = tables
    self.versions = versions
    self.versionTimes = versionTimes
    self.retention = retention
  }

  /// How long the database keeps versions (microseconds), or `nil` when it keeps none.
  static func retention(in txn: ReadTransaction, tables: Tables) throws -> Int64? {
    try txn.get(KeyLayout.MetaKey.versionRetention, in: tables.meta)
      .flatMap(KeyLayout.readBigEndian).map { Int64(bitPattern: $0) }
  }

  /// The earliest time reads are exact at (`Int64.min`: any time).
  static func readableFrom(in txn: ReadTransaction, tables: Tables) throws -> Int64 {
    try txn.get(KeyLayout.MetaKey.versionsFrom, in: tables.meta)
      .flatMap(KeyLayout.readBigEndian).map { Int64(bitPattern: $0) } ?? .min
  }

  static func setReadableFrom(_ time: Int64, in txn: WriteTransaction, tables: Tables) throws {
    try txn.put(KeyLayout.MetaKey.versionsFrom, KeyLayout.bigEndian(UInt64(bitPattern: time)), in: tables.meta)
  }

  /// Keeps `before` (the document's stored bytes, `nil` when it did not exist) as the
  /// version the write at `time` replaces; call it before the write changes the bytes.
  /// The bytes are copied first: LMDB's pointers into its pages are valid only until
  /// the next update.
  mutating func keep(
    _ before: UnsafeRawBufferPointer?, storageKey: [UInt8], number: CollectionNumber, documentID: String,
    at time: Int64
  ) throws {
    guard kept.insert(storageKey).inserted else { return }
    let timeBytes = Self.timeKey(time)
    let key = Self.versionKey(number, documentID, time: time)
    try txn.put(key, before.map { Array($0) } ?? [], in: versions)
    try txn.put(timeBytes + storageKey, [], in: versionTimes)
  }

  /// Removes up to `trimBatch` versions of writes at or before `now - retention`, which
  /// no read in the retention needs, and moves `versionsFrom` past them.
  func trim(now: Int64) throws {
    let (cutoff, overflow) = now.subtractingReportingOverflow(retention)
    guard !overflow else { return }
    let cursor = try txn.cursor(versionTimes)
    var removed: [(time: Int64, storageKey: [UInt8])] = []
    var entry = try cursor.first()
    while removed.count < Self.trimBatch, let (key, _) = entry, let time = Self.time(key), time <= cutoff {
      removed.append((time, Array(key[8...])))
      entry = try cursor.next()
    }
    guard let last = removed.last else { return }
    for (time, storageKey) in removed {
      _ = try txn.delete(Self.timeKey(time) + storageKey, in: versionTimes)
      guard let key = Self.versionKey(storageKey: storageKey, time: time) else { continue }
      _ = try txn.delete(key, in: versions)
    }
    if try Self.readableFrom(in: txn, tables: tables) < last.time {
      try Self.setReadableFrom(last.time, in: txn, tables: tables)
    }
  }

  /// The `versions` key of the version the write at `time` replaced.
  static func versionKey(_ number: CollectionNumber, _ documentID: String, time: Int64) -> [UInt8] {
    var key = number.bytes
    KeyCodec.append(string: documentID, to: &key)
    return key + timeKey(time)
  }

  /// The `versions` key for a `documents` key (collection(8) docID) and a time.
  static func versionKey(storageKey: [UInt8], time: Int64) -> [UInt8]? {
    storageKey.withUnsafeBytes { bytes in
      guard let number = CollectionNumber(bytes), let id = KeyLayout.documentID(inKey: bytes) else { return nil }
      return versionKey(number, id, time: time)
    }
  }

  // MARK: - Reading

  /// The version of the document (`number`, `documentID`) at `time` when a write after
  /// `time` kept one: its bytes, or `.some(nil)` when it was absent; `nil` when no write
  /// after `time` kept one (its state at `time` is its current one).
  static func version(
    _ number: CollectionNumber, _ documentID: String, at time: Int64, in txn: ReadTransaction, tables: Tables
  ) throws -> [UInt8]?? {
    guard let versions = tables.versions, time < .max else { return nil }
    var prefix = number.bytes
    KeyCodec.append(string: documentID, to: &prefix)
    let cursor = try txn.cursor(versions)
    // Escaped IDs are prefix-free: a key with this prefix is this document's.
    guard let (key, value) = try cursor.seek(atLeast: prefix + timeKey(time + 1)), key.starts(with: prefix) else {
      return nil
    }
    return .some(value.isEmpty ? nil : Array(value))
  }

  /// The time of the last write to the document (`number`, `documentID`) at or before
  /// `time` that kept a version, `nil` when none is kept. For a document missing at
  /// `time`, that write is the delete that removed it (a delete of a missing document
  /// keeps nothing): the update time Firestore gives a missing document that
  /// `ListDocuments` shows.
  static func lastWriteTime(
    _ number: CollectionNumber, _ documentID: String, atOrBefore time: Int64, in txn: ReadTransaction,
    tables: Tables
  ) throws -> Int64? {
    guard let versions = tables.versions else { return nil }
    var prefix = number.bytes
    KeyCodec.append(string: documentID, to: &prefix)
    let cursor = try txn.cursor(versions)
    // The first key after `time`'s, then one back: the last write at or before `time`.
    let bound = time == .max ? [UInt8](repeating: 0xFF, count: 9) : timeKey(time + 1)
    let after = try cursor.seek(atLeast: prefix + bound)
    let entry = after == nil ? try cursor.last() : try cursor.previous()
    guard let (key, _) = entry, key.count == prefix.count + 8, key.starts(with: prefix) else { return nil }
    return Self.time(UnsafeRawBufferPointer(rebasing: key[prefix.count...]))
  }

  /// The documents written after `time` (as `documents` keys: collection(8) docID), each
  /// once, with the time of its first write after `time`, in time order.
  static func writes(after time: Int64, in txn: ReadTransaction, tables: Tables) throws -> [(
    storageKey: [UInt8], time: Int64
  )] {
    guard let versionTimes = tables.versionTimes, time < .max else { return [] }
    let cursor = try txn.cursor(versionTimes)
    var seen = Set<[UInt8]>()
    var writes: [(storageKey: [UInt8], time: Int64)] = []
    var entry = try cursor.seek(atLeast: timeKey(time + 1))
    while let (key, _) = entry, key.count > 16, let written = Self.time(key) {
      let storageKey = Array(key[8...])
      if seen.insert(storageKey).inserted { writes.append((storageKey, written)) }
      entry = try cursor.next()
    }
    return writes
  }

  /// A time as it sorts in keys: its sign bit flipped, big-endian.
  static func timeKey(_ time: Int64) -> [UInt8] {
    KeyLayout.bigEndian(UInt64(bitPattern: time) ^ (1 << 63))
  }

  /// The time at the start of `key`.
  static func time(_ key: UnsafeRawBufferPointer) -> Int64? {
    KeyLayout.readBigEndian(key).map { Int64(bitPattern: $0 ^ (1 << 63)) }
  }
}

extension DocumentStore {
  /// Keeps the versions that writes replace for `retention`, from now on, in this
  /// database (every process that writes it then keeps them), so that it can be read as
  /// it was at any time since, within the retention (`StoreReader.past(at:)`). Calling it
  /// again changes the retention; reads before the first call are refused.
  ///
  /// - Throws: `failedPrecondition` for a read-only store.
  package func keepVersions(for retention: Duration) throws {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(path) is open read-only")
    }
    let microseconds = retention.components.seconds * 1_000_000 + retention.components.attoseconds / 1_000_000_000_000
    try guarded {
      try environment.write(durable: options.durable) { txn in
        let current = try VersionHistory.retention(in: txn, tables: tables)
        guard current != microseconds else { return }
        if current == nil {
          // History begins now: a read before the last commit would miss what it replaced.
          let last = try Committer(store: self, txn: txn).lastCommitTime()
          try VersionHistory.setReadableFrom(last, in: txn, tables: tables)
        }
        try txn.put(
          KeyLayout.MetaKey.versionRetention, KeyLayout.bigEndian(UInt64(bitPattern: microseconds)), in: tables.meta)
      }
    }
  }
}
