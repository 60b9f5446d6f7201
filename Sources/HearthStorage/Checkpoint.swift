import Foundation

/// `checkpoint.hearth`: the last state of `data.mdb` known to be on disk whole — the LMDB
/// transaction ID and a copy of its meta page. Recovery writes that meta page back and
/// replays the journal past it (`Environment+Journal.swift`).
///
/// The file holds two slots of `slotSize` bytes, written in turn in place, each:
///
/// ```
/// magic "HEARTHCP"(8) transaction(8) pageSize(4) meta(152) catalog(4) crc(4)
/// ```
///
/// little-endian. `meta` is the first 152 bytes of the meta page (LMDB's page header and
/// `MDB_meta`; the rest of a meta page is zeros); `catalog` is the CRC-32 of the page at
/// the root of that state's table catalog (0 when it has none); `crc` is the CRC-32 of
/// everything before it. The catalog's root page is one the pin keeps as it was, so a
/// data file whose page there holds other bytes is not the one the checkpoint was made
/// of (`matches`). A new
/// checkpoint overwrites the older slot and is synced, so a write cut short by a stop
/// leaves the other, previous checkpoint whole; the valid slot with the higher
/// transaction is the checkpoint. Written in place, it needs no new disk space: a
/// database on a full disk still checkpoints, and closes clean.
///
/// The journal and the checkpoint belong to the data file beside them, as SQLite's
/// `-wal` file does: a restore removes them (`Environment.removeJournal`), and whoever
/// puts another `data.mdb` in the directory by hand must remove them too. A checkpoint
/// newer than the data file's newest commit is taken for another file's, and removed.
struct Checkpoint: Equatable {
  static let fileName = "checkpoint.hearth"
  static let magic = Array("HEARTHCP".utf8)
  static let metaBytes = LMDBFormat.headerSize + LMDBFormat.metaSize
  static let slotSize = 512
  private static let recordSize = 8 + 8 + 4 + metaBytes + 4 + 4

  let transaction: Int
  let pageSize: Int
  let meta: [UInt8]
  let catalog: UInt32

  static func file(in directory: String) -> String { directory + "/" + fileName }

  init(transaction: Int, pageSize: Int, meta: [UInt8], catalog: UInt32) {
    self.transaction = transaction
    self.pageSize = pageSize
    self.meta = meta
    self.catalog = catalog
  }

  /// The checkpoint of committed transaction `transaction` of the database in
  /// `directory`: its meta page, read back from `data.mdb` (`MetaPages`).
  init(ofTransaction transaction: Int, directory: String) throws {
    let file = try DataFile(path: Environment.dataFile(in: directory))
    guard let page = try MetaPages.settled(file: file).page(ofTransaction: transaction),
      case let meta = try file.read(offset: page.index * page.pageSize, count: Checkpoint.metaBytes),
      meta.count == Checkpoint.metaBytes
    else {
      throw StorageError(code: EIO, operation: "checkpoint (no meta page of transaction \(transaction) in data.mdb)")
    }
    self.init(
      transaction: transaction, pageSize: page.pageSize, meta: meta,
      catalog: try Checkpoint.catalogChecksum(meta: meta, pageSize: page.pageSize, file: file))
  }

  /// The checkpoint of `directory`, or `nil` when it has none (no journaled commit was
  /// ever made there, or the file was made and its first checkpoint not yet written).
  /// It is read under the file's lock, shared, so that a checkpoint being written is read
  /// whole or not at all.
  ///
  /// - Throws: `StorageDamage` when the file holds bytes but no whole checkpoint;
  ///   `StorageError` when it cannot be read.
  static func read(in directory: String) throws -> Checkpoint? {
    let path = file(in: directory)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw StorageError(code: errno, operation: "open \(path)")
    }
    defer { close(descriptor) }
    try waitForLock(descriptor, LOCK_SH, path: path)
    let (count, slots) = readSlots(descriptor)
    guard count >= 0 else { throw StorageError(code: errno, operation: "read \(path)") }
    if count == 0 { return nil }
    guard let newest = slots.compactMap({ $0 }).max(by: { $0.transaction < $1.transaction }) else {
      throw StorageDamage(
        Environment.fileFault(path, problem: "checkpoint.hearth is damaged: the journal cannot be replayed"))
    }
    return newest
  }

  /// The bytes read of the file's two slots (`pread`'s count: -1 when it failed), and the
  /// checkpoint each slot holds (`nil` when it holds no whole one).
  private static func readSlots(_ descriptor: Int32) -> (count: Int, slots: [Checkpoint?]) {
    var bytes = [UInt8](repeating: 0, count: 2 * slotSize)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
    return (count, [0, slotSize].map { decode(bytes[$0..<max($0, min($0 + recordSize, count))]) })
  }

  /// The checkpoint in one slot's bytes, or `nil` when they are not a whole one.
  private static func decode(_ bytes: ArraySlice<UInt8>) -> Checkpoint? {
    let start = bytes.startIndex
    guard bytes.count == recordSize, bytes.prefix(8).elementsEqual(magic),
      JournalRecord.checksum(Array(bytes.prefix(recordSize - 4)))
        == UInt32(littleEndianBytes: bytes[(start + recordSize - 4)...])
    else { return nil }
    return Checkpoint(
      transaction: Int(truncatingIfNeeded: UInt64(littleEndianBytes: bytes[(start + 8)..<(start + 16)])),
      pageSize: Int(UInt32(littleEndianBytes: bytes[(start + 16)..<(start + 20)])),
      meta: Array(bytes[(start + 20)..<(start + 20 + metaBytes)]),
      catalog: UInt32(littleEndianBytes: bytes[(start + 20 + metaBytes)..<(start + 24 + metaBytes)]))
  }

  /// Writes this checkpoint over the older slot of `directory`'s checkpoint file, and
  /// syncs it (and, when this made the file, the directory).
  func write(in directory: String, fileMode: mode_t) throws(StorageError) {
    var bytes = Checkpoint.magic
    withUnsafeBytes(of: UInt64(transaction).littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(pageSize).littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: meta)
    withUnsafeBytes(of: catalog.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: JournalRecord.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
    let path = Checkpoint.file(in: directory)
    var created = false
    var descriptor = open(path, O_RDWR | O_CLOEXEC)
    if descriptor < 0 && errno == ENOENT {
      descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
      created = true
    }
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(path)") }
    defer { close(descriptor) }
    // Which slot is older is read and written under the file's lock: processes that
    // checkpoint at once take turns.
    try waitForLock(descriptor, LOCK_EX, path: path)
    let existing = Checkpoint.readSlots(descriptor).slots
    // Over the slot that does not hold the newest checkpoint.
    let newer = existing[0].map { first in existing[1].map { first.transaction >= $0.transaction } ?? true } ?? false
    let offset = newer ? Checkpoint.slotSize : 0
    let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
    guard written == bytes.count else {
      throw StorageError(code: written < 0 ? errno : ENOSPC, operation: "write \(path)")
    }
    guard fdatasync(descriptor) == 0 else { throw StorageError(code: errno, operation: "fdatasync \(path)") }
    if created { Environment.syncDirectory(directory) }
  }

  /// The CRC-32 of the page at the root of the table catalog that `meta` names in `file`
  /// (0 when it names none, or the page is past the file's end).
  static func catalogChecksum(meta: [UInt8], pageSize: Int, file: DataFile) throws -> UInt32 {
    guard let record = TreeRecord(FileBytes(bytes: meta), at: LMDBFormat.headerSize + LMDBFormat.metaMainRecord),
      !record.isEmpty, record.root < UInt64(Int.max / pageSize)
    else { return 0 }
    let page = try file.read(offset: Int(record.root) * pageSize, count: pageSize)
    return page.count == pageSize ? JournalRecord.checksum(page) : 0
  }

  /// Whether `file` is the data file this checkpoint was made of: the root page of its
  /// table catalog holds the bytes it held then.
  func matches(_ file: DataFile) throws -> Bool {
    try Checkpoint.catalogChecksum(meta: meta, pageSize: pageSize, file: file) == catalog
  }

  /// The meta page bytes to write back at page `index` (0 or 1): this checkpoint's, with
  /// that page number, and with transaction ID `transaction` (the other page gets the
  /// checkpoint's ID less one, so that the pair is as a commit leaves it).
  func metaPage(at index: Int, transaction: Int) -> [UInt8] {
    var page = meta
    page.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt64(index).littleEndian, toByteOffset: 0, as: UInt64.self)
      raw.storeBytes(
        of: UInt64(transaction).littleEndian, toByteOffset: LMDBFormat.headerSize + LMDBFormat.metaTransactionID,
        as: UInt64.self)
    }
    return page
  }
}

extension FixedWidthInteger {
  /// The integer stored little-endian in `bytes` (exactly its size).
  init(littleEndianBytes bytes: ArraySlice<UInt8>) {
    var value: Self = 0
    for (shift, byte) in bytes.enumerated() { value |= Self(byte) << (8 * shift) }
    self = value
  }
}
