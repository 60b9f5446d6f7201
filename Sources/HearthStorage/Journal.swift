import CDeflate
import Foundation

/// The journal: `journal.hearth` in the database directory, where every commit's changes
/// are appended (and, for a durable commit, synced) before LMDB commits them without
/// syncing. One short append and one sync of one file cost far less than LMDB's durable
/// commit, which writes each changed page (and its branches) where it lies and syncs
/// twice (docs/architecture.md, "What a durable commit costs"). `Environment+Journal.swift`
/// says how checkpoints and recovery keep this safe.
///
/// The file is a sequence of records, appended by any process under LMDB's writer lock
/// (so in commit order) and emptied at each checkpoint:
///
/// ```
/// record := length(4) crc(4) state(1) body      little-endian; crc: CRC-32 of body
/// state  := 1 live | 0 void (its commit failed after the append)
/// body   := transaction(8) change…               the LMDB transaction ID it commits
/// change := 1 table key value                    put
///         | 2 table key                          delete a key (every value)
///         | 3 table key value                    delete one value of a key
///         | 4 table                              delete every entry of a table
///         | 5 table                              create a table
/// table  := flags(1) length(1) name              flags: 1 = duplicate-sorted
/// key, value := length(4) bytes
/// ```
///
/// A record whose length runs past the end of the file or whose CRC does not match ends
/// the journal: it was being written when the machine stopped, and its commit was never
/// acknowledged (acknowledgement waits for the sync, which covers every byte before).
final class Journal: @unchecked Sendable {
  // @unchecked: the descriptor is only read, and each call is one system call; appends
  // and truncation happen under LMDB's writer lock.
  static let fileName = "journal.hearth"
  static let headerSize = 9

  let path: String
  private let descriptor: Int32

  static func file(in directory: String) -> String { directory + "/" + fileName }

  init(directory: String, fileMode: mode_t) throws(StorageError) {
    path = Journal.file(in: directory)
    descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(path)") }
  }

  deinit { Foundation.close(descriptor) }

  /// The file's size in bytes.
  func size() -> Int {
    var info = stat()
    return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Appends `record` (made by `JournalRecord.finish`) and returns its offset, for
  /// `void(at:)`. Called under LMDB's writer lock, so no other process appends meanwhile;
  /// a short write is cut off again, so that it cannot end the journal early.
  func append(_ record: [UInt8]) throws(StorageError) -> Int {
    let offset = Int(lseek(descriptor, 0, SEEK_END))
    var written = 0
    while written < record.count {
      let count = record.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        let code = count < 0 ? errno : EIO
        ftruncate(descriptor, off_t(offset))
        throw StorageError(code: code, operation: "write \(path)")
      }
      written += count
    }
    return offset
  }

  /// Marks `record`, appended at `offset`, void: its commit failed, and recovery must not
  /// apply it. LMDB's writer lock is no longer held then (a failed commit lets it go),
  /// so the record is marked only while its length and CRC are still there: a
  /// checkpoint may have emptied the journal meanwhile and another commit taken its
  /// place. (Recovery also keeps only the last record of a transaction ID, which the
  /// next commit reuses.)
  func void(_ record: [UInt8], at offset: Int) {
    var header = [UInt8](repeating: 0, count: 8)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, 8, off_t(offset)) }
    guard count == 8, header[...] == record.prefix(8) else { return }
    var state: UInt8 = 0
    _ = pwrite(descriptor, &state, 1, off_t(offset + 8))
  }

  /// Makes every record appended so far durable.
  func sync() throws(StorageError) {
    while fdatasync(descriptor) != 0 {
      guard errno == EINTR else { throw StorageError(code: errno, operation: "fdatasync \(path)") }
    }
  }

  /// Empties the journal (at a checkpoint, under LMDB's writer lock).
  func truncate() throws(StorageError) {
    guard ftruncate(descriptor, 0) == 0 else { throw StorageError(code: errno, operation: "ftruncate \(path)") }
  }

  /// The live records of the journal in `directory`, in order, up to the first that is
  /// incomplete or damaged; of several records of one transaction ID (a commit that
  /// failed, and the next, which took its ID), the last.
  static func records(in directory: String) throws(StorageError) -> [JournalEntry] {
    let path = file(in: directory)
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) { throw StorageError(code: EIO, operation: "read \(path)") }
      return []
    }
    let bytes = [UInt8](data)
    var entries: [JournalEntry] = []
    var offset = 0
    while offset + headerSize + 8 <= bytes.count {
      let length = Int(UInt32(littleEndianBytes: bytes[offset..<(offset + 4)]))
      let end = offset + headerSize + length
      guard length >= 8, end <= bytes.count else { break }
      let body = Array(bytes[(offset + headerSize)..<end])
      guard UInt32(littleEndianBytes: bytes[(offset + 4)..<(offset + 8)]) == JournalRecord.checksum(body) else { break }
      if bytes[offset + 8] == 1 {
        let entry = JournalEntry(body: body)
        if entries.last?.transaction == entry.transaction { entries.removeLast() }
        entries.append(entry)
      }
      offset = end
    }
    return entries
  }
}

/// The changes of one write transaction, as `WriteTransaction` makes them, in the
/// journal's format (`Journal`).
struct JournalRecord {
  enum Change: UInt8 {
    case put = 1
    case delete, deleteValue, empty, createTable
  }

  private(set) var bytes: [UInt8]
  /// Whether any change was recorded (a transaction that changed nothing is not journaled).
  private(set) var isEmpty = true

  init() {
    bytes = [UInt8](repeating: 0, count: Journal.headerSize + 8)
    bytes.reserveCapacity(2048)
  }

  mutating func record(
    _ change: Change, _ table: Table, key: UnsafeRawBufferPointer? = nil, value: UnsafeRawBufferPointer? = nil
  ) {
    isEmpty = false
    bytes.append(change.rawValue)
    bytes.append(table.isDuplicateSorted ? 1 : 0)
    bytes.append(UInt8(table.name.utf8.count))
    bytes.append(contentsOf: table.name.utf8)
    for field in [key, value] {
      guard let field else { continue }
      withUnsafeBytes(of: UInt32(field.count).littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: field)
    }
  }

  /// The record ready to append, for LMDB transaction `transaction`.
  mutating func finish(transaction: Int) -> [UInt8] {
    let length = bytes.count - Journal.headerSize
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt64(transaction).littleEndian, toByteOffset: Journal.headerSize, as: UInt64.self)
    }
    let crc = bytes.withUnsafeBytes { JournalRecord.checksum($0[Journal.headerSize...]) }
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

  /// The LMDB transaction the record's commit made.
  var transaction: Int { Int(UInt64(littleEndianBytes: body[0..<8])) }

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
    var offset = 8
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
