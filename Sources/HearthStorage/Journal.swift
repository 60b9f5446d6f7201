import CDeflate
import Foundation

/// The journal: two files in the database directory, `journal-0.hearth` and
/// `journal-1.hearth`, where every commit's changes are appended (and, for a durable
/// commit, synced) before LMDB commits them without syncing. One short write and one sync
/// of one file cost far less than LMDB's durable commit, which writes each changed page
/// (and its branches) where it lies and syncs twice (docs/architecture.md, "What a
/// durable commit costs"). `Environment+Journal.swift` says how checkpoints and recovery
/// keep this safe.
///
/// Each file is a header page and records, appended by any process under LMDB's writer
/// lock (so in commit order):
///
/// ```
/// header := "HEARTHJL"(8) generation(8)               the first 4,096 bytes
/// record := length(4) crc(4) state(1) body           little-endian; crc: CRC-32 of body
/// state  := 1 live | 0 void (its commit failed after the append)
/// body   := generation(8) transaction(8) change…     the LMDB transaction it commits
/// change := 1 table key value                         put
///         | 2 table key                               delete a key (every value)
///         | 3 table key value                         delete one value of a key
///         | 4 table                                   delete every entry of a table
///         | 5 table                                   create a table
/// table  := flags(1) length(1) name                   flags: 1 = duplicate-sorted
/// key, value := length(4) bytes
/// ```
///
/// A generation is the transaction ID of the checkpoint that began it. The current file
/// is the one whose header has the later generation; a checkpoint starts a new generation
/// in the other file (or, done in place, in the current one), writing over what it held,
/// so the files are reused instead of growing (a sync of a write within the file costs
/// about half of one that extends it). A file's records are those from its start that
/// carry its generation; the first one cut short, damaged or of an older generation ends
/// them: its commit was never acknowledged (acknowledgement waits for the sync, which
/// covers every byte before).
final class Journal: @unchecked Sendable {
  // @unchecked: the descriptors are only read; the position (`current`, `generation`,
  // `end`, `lastTransaction`) is used under LMDB's writer lock and the environment's.
  static let fileNames = ["journal-0.hearth", "journal-1.hearth"]
  static let magic = Array("HEARTHJL".utf8)
  static let headerSize = 4096
  static let recordHeaderSize = 9
  /// A file past this size (after one huge transaction) is cut back when a generation
  /// begins in it.
  static let sizeLimit = 64 << 20

  let directory: String
  private let descriptors: [Int32]
  private var current = 0
  private var generation = -1
  private var end = headerSize
  private var lastTransaction = -1

  static func files(in directory: String) -> [String] { fileNames.map { directory + "/" + $0 } }

  init(directory: String, fileMode: mode_t) throws(StorageError) {
    self.directory = directory
    var descriptors: [Int32] = []
    for path in Journal.files(in: directory) {
      let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
      guard descriptor >= 0 else {
        let code = errno
        for open in descriptors { Foundation.close(open) }
        throw StorageError(code: code, operation: "open \(path)")
      }
      descriptors.append(descriptor)
    }
    self.descriptors = descriptors
  }

  deinit { for descriptor in descriptors { Foundation.close(descriptor) } }

  /// The generation in file `index`'s header, or -1 when it has none. Read before every
  /// append, so into the stack rather than an array.
  private func headerGeneration(_ index: Int) -> Int {
    var header: (magic: UInt64, generation: UInt64) = (0, 0)
    let count = withUnsafeMutableBytes(of: &header) { pread(descriptors[index], $0.baseAddress!, 16, 0) }
    let magic = Journal.magic.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    guard count == 16, header.magic == magic else { return -1 }
    return Int(truncatingIfNeeded: UInt64(littleEndian: header.generation))
  }

  /// The current generation (the later of the two headers'), and the file it is in.
  var currentGeneration: (file: Int, generation: Int) {
    let (first, second) = (headerGeneration(0), headerGeneration(1))
    return second > first ? (1, second) : (0, first)
  }

  /// Finds where the next record of transaction `transaction` goes: the end of the
  /// current file's records. This process's own position serves while no other process
  /// has appended or begun a generation since.
  private func locate(transaction: Int) {
    let (file, latest) = currentGeneration
    if file != current || latest != generation {
      (current, generation, end) = (file, latest, Journal.headerSize)
    } else if transaction == lastTransaction + 1 {
      return
    }
    while let record = Journal.record(descriptors[current], at: end, generation: generation) {
      end += Journal.recordHeaderSize + record.body.count
    }
  }

  /// Appends `record` (made by `JournalRecord.finish`, which `generation` completes) for
  /// LMDB transaction `transaction`; returns where it went, for `void` and `sync`.
  /// Called under LMDB's writer lock.
  func append(_ record: inout JournalRecord, transaction: Int) throws(StorageError) -> JournalAppend {
    locate(transaction: transaction)
    let bytes = record.finish(generation: generation, transaction: transaction)
    let descriptor = descriptors[current]
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(end + written))
      }
      if count < 0 && errno == EINTR { continue }
      // What was written of it fails its CRC, and the next record goes over it.
      guard count > 0 else {
        throw StorageError(
          code: count < 0 ? errno : ENOSPC, operation: "write \(Journal.files(in: directory)[current])")
      }
      written += count
    }
    let offset = end
    end += bytes.count
    lastTransaction = transaction
    return JournalAppend(record: bytes, file: current, offset: offset)
  }

  /// Marks `append`'s record void: its commit failed, and recovery must not apply it.
  /// LMDB's writer lock is no longer held then (a failed commit lets it go), so the
  /// record is marked only while its length and CRC are still there: a checkpoint may
  /// have begun a generation in its file meanwhile, and another commit taken its place.
  /// (Recovery also keeps only the last record of a transaction ID, which the next
  /// commit reuses.)
  func void(_ append: JournalAppend) {
    let descriptor = descriptors[append.file]
    var header = [UInt8](repeating: 0, count: 8)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, 8, off_t(append.offset)) }
    guard count == 8, header[...] == append.record.prefix(8) else { return }
    var state: UInt8 = 0
    _ = pwrite(descriptor, &state, 1, off_t(append.offset + 8))
  }

  /// Makes every record appended to `file` so far durable.
  func sync(file: Int) throws(StorageError) {
    while fdatasync(descriptors[file]) != 0 {
      guard errno == EINTR else {
        throw StorageError(code: errno, operation: "fdatasync \(Journal.files(in: directory)[file])")
      }
    }
  }

  /// Begins generation `generation` (a checkpoint's transaction ID) in the file that is
  /// not current (`switching`: a checkpoint that runs while commits go on, whose records
  /// the current file keeps until it is done) or in the current one (a checkpoint that
  /// covers every record). Called under LMDB's writer lock.
  func begin(generation: Int, switching: Bool) throws(StorageError) {
    let file = switching ? 1 - currentGeneration.file : currentGeneration.file
    let descriptor = descriptors[file]
    var info = stat()
    if fstat(descriptor, &info) == 0, Int(info.st_size) > Journal.sizeLimit {
      ftruncate(descriptor, off_t(Journal.headerSize))
    }
    var header = Journal.magic
    withUnsafeBytes(of: UInt64(generation).littleEndian) { header.append(contentsOf: $0) }
    let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
    guard written == header.count else {
      throw StorageError(
        code: written < 0 ? errno : ENOSPC, operation: "write \(Journal.files(in: directory)[file])")
    }
    (current, self.generation, end, lastTransaction) = (file, generation, Journal.headerSize, generation)
  }

  /// The record at `offset` of the file open as `descriptor` when it is whole and of
  /// generation `generation` (any, when `nil`); `nil` otherwise.
  private static func record(_ descriptor: Int32, at offset: Int, generation: Int?) -> JournalEntry? {
    var header = [UInt8](repeating: 0, count: recordHeaderSize + 8)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
    guard count == header.count else { return nil }
    let length = Int(UInt32(littleEndianBytes: header[0..<4]))
    let recordGeneration = Int(truncatingIfNeeded: UInt64(littleEndianBytes: header[9..<17]))
    var info = stat()
    guard length >= 16, generation == nil || recordGeneration == generation, fstat(descriptor, &info) == 0,
      offset + recordHeaderSize + length <= Int(info.st_size)
    else { return nil }
    var body = [UInt8](repeating: 0, count: length)
    let read = body.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress!, length, off_t(offset + recordHeaderSize))
    }
    guard read == length, UInt32(littleEndianBytes: header[4..<8]) == JournalRecord.checksum(body) else { return nil }
    return JournalEntry(body: body, isLive: header[8] == 1)
  }

  /// The live records of the journal in `directory` past checkpoint `checkpoint` (its
  /// transaction ID), in order: those of each file whose generation began at or after
  /// it, the earlier generation first (a checkpoint that had not finished leaves the
  /// records up to it in one file, and those after in the other). Of several records of
  /// one transaction ID (a commit that failed, and the next, which took its ID), the last.
  static func records(in directory: String, after checkpoint: Int) -> [JournalEntry] {
    // Read-only, and without making the files: a database a process only reads may
    // sit where it cannot write.
    let descriptors = files(in: directory).map { Foundation.open($0, O_RDONLY | O_CLOEXEC) }
    defer { for descriptor in descriptors where descriptor >= 0 { Foundation.close(descriptor) } }
    var generations: [(generation: Int, entries: [JournalEntry])] = []
    for descriptor in descriptors where descriptor >= 0 {
      guard let first = record(descriptor, at: headerSize, generation: nil), first.generation >= checkpoint else {
        continue
      }
      var entries: [JournalEntry] = []
      var offset = headerSize
      while let entry = record(descriptor, at: offset, generation: first.generation) {
        offset += recordHeaderSize + entry.body.count
        entries.append(entry)
      }
      generations.append((first.generation, entries))
    }
    var entries: [JournalEntry] = []
    for entry in generations.sorted(by: { $0.generation < $1.generation }).flatMap(\.entries)
    where entry.isLive && entry.transaction > checkpoint {
      if entries.last?.transaction == entry.transaction { entries.removeLast() }
      entries.append(entry)
    }
    return entries
  }
}

/// Where a record went: its bytes, file and offset.
struct JournalAppend {
  let record: [UInt8]
  let file: Int
  let offset: Int
}

/// The changes of one write transaction, as `WriteTransaction` makes them, in the
/// journal's format (`Journal`).
struct JournalRecord {
  enum Change: UInt8 {
    case put = 1
    case delete, deleteValue, empty, createTable
  }

  private(set) var bytes: [UInt8]
  /// The record's headers: its own, then its body's generation and transaction.
  private static let headersSize = Journal.recordHeaderSize + 16

  init() {
    bytes = [UInt8](repeating: 0, count: JournalRecord.headersSize)
    bytes.reserveCapacity(2048)
  }

  /// Whether no change was recorded (a transaction that changed nothing is not journaled).
  var isEmpty: Bool { bytes.count == JournalRecord.headersSize }

  mutating func record(
    _ change: Change, _ table: Table, key: UnsafeRawBufferPointer? = nil, value: UnsafeRawBufferPointer? = nil
  ) {
    bytes.append(change.rawValue)
    bytes.append(table.isDuplicateSorted ? 1 : 0)
    bytes.append(UInt8(table.name.utf8.count))
    bytes.append(contentsOf: table.name.utf8)
    if let key { append(key) }
    if let value { append(value) }
  }

  /// A key or value: its length, then its bytes.
  private mutating func append(_ field: UnsafeRawBufferPointer) {
    withUnsafeBytes(of: UInt32(field.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: field)
  }

  /// The record ready to append, of generation `generation`, for LMDB transaction
  /// `transaction`.
  mutating func finish(generation: Int, transaction: Int) -> [UInt8] {
    let length = bytes.count - Journal.recordHeaderSize
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt64(generation).littleEndian, toByteOffset: Journal.recordHeaderSize, as: UInt64.self)
      raw.storeBytes(of: UInt64(transaction).littleEndian, toByteOffset: Journal.recordHeaderSize + 8, as: UInt64.self)
    }
    let crc = bytes.withUnsafeBytes { JournalRecord.checksum($0[Journal.recordHeaderSize...]) }
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt32(length).littleEndian, toByteOffset: 0, as: UInt32.self)
      raw.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
      raw[8] = 1
    }
    return bytes
  }

  static func checksum<C: ContiguousBytes>(_ body: C) -> UInt32 {
    body.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
  }
}

/// One record read back from the journal, for recovery.
struct JournalEntry {
  let body: [UInt8]
  /// Not marked void.
  let isLive: Bool

  /// The generation the record was appended in.
  var generation: Int { Int(truncatingIfNeeded: UInt64(littleEndianBytes: body[0..<8])) }
  /// The LMDB transaction the record's commit made.
  var transaction: Int { Int(truncatingIfNeeded: UInt64(littleEndianBytes: body[8..<16])) }

  /// One change: what it does, to which table (its name and whether it is
  /// duplicate-sorted), with which key and value.
  struct Change {
    let kind: JournalRecord.Change
    let table: String
    let duplicateSort: Bool
    let key: ArraySlice<UInt8>
    let value: ArraySlice<UInt8>
  }

  /// The record's changes, in order.
  ///
  /// - Throws: `StorageError` (`EILSEQ`) when the body is not well formed (its CRC held:
  ///   only a defect in the writer could make it so).
  func changes() throws(StorageError) -> [Change] {
    var changes: [Change] = []
    var offset = 16
    func take(_ count: Int) throws(StorageError) -> ArraySlice<UInt8> {
      guard count >= 0, offset + count <= body.count else {
        throw StorageError(code: EILSEQ, operation: "reading the journal (a record of transaction \(transaction))")
      }
      defer { offset += count }
      return body[offset..<(offset + count)]
    }
    func field() throws(StorageError) -> ArraySlice<UInt8> {
      let length = try take(4)
      return try take(Int(UInt32(littleEndianBytes: length)))
    }
    while offset < body.count {
      let header = try take(3)
      guard let kind = JournalRecord.Change(rawValue: header[header.startIndex]) else {
        throw StorageError(code: EILSEQ, operation: "reading the journal (a record of transaction \(transaction))")
      }
      let name = String(decoding: try take(Int(header[header.startIndex + 2])), as: UTF8.self)
      let key = kind == .put || kind == .delete || kind == .deleteValue ? try field() : []
      let value = kind == .put || kind == .deleteValue ? try field() : []
      changes.append(
        Change(kind: kind, table: name, duplicateSort: header[header.startIndex + 1] == 1, key: key, value: value))
    }
    return changes
  }
}
