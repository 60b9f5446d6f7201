import CLMDB
import Foundation
import Synchronization
import Testing

@testable import HearthStorage

/// A fresh directory, removed at the end of the test.
final class TemporaryDirectory {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-storage-\(UUID().uuidString)").path
  deinit { try? FileManager.default.removeItem(atPath: path) }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
private func string(_ buffer: UnsafeRawBufferPointer?) -> String? { buffer.map { String(decoding: $0, as: UTF8.self) } }

@Suite struct EnvironmentTests {
  @Test func oneEnvironmentPerCanonicalPath() throws {
    let directory = TemporaryDirectory()
    let first = try Environment.open(path: directory.path)
    let second = try Environment.open(path: directory.path + "/./")
    #expect(first === second)
    first.close()
    #expect(!second.isClosed)
    second.close()
    #expect(second.isClosed)
    let reopened = try Environment.open(path: directory.path)
    #expect(reopened !== first)
    reopened.close()
  }

  @Test func newFilesAreReadableOnlyByTheirOwner() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
    #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func missingDatabaseIsNotCreatedWhenAskedNotTo() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.createIfMissing = false
    #expect(throws: StorageError.self) { try Environment.open(path: directory.path, options: options) }
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func writesCommitAndAThrowAbortsEverything() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let table = try environment.table("t")
    try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: table) }
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try environment.write { txn in
        try txn.put(bytes("a"), bytes("2"), in: table)
        try txn.put(bytes("b"), bytes("3"), in: table)
        throw Stop()
      }
    }
    try environment.read { txn throws in
      #expect(string(try txn.get(bytes("a"), in: table)) == "1")
      #expect(try txn.get(bytes("b"), in: table) == nil)
      #expect(try txn.count(table) == 1)
    }
  }

  @Test func aTransactionCannotBeUsedAfterItsClosure() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let table = try environment.table("t")
    var escaped: ReadTransaction?
    try environment.read { escaped = $0 }
    #expect(throws: StorageError.self) { _ = try escaped!.get(bytes("a"), in: table) }
  }

  @Test func aWriteInsideAWriteOnOneThreadFailsInsteadOfDeadlocking() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let error = try #require(throws: StorageError.self) {
      try environment.write { _ in try environment.write { _ in } }
    }
    #expect(error.code == EDEADLK)
    // A read inside a write is fine.
    try environment.write { _ in try environment.read { _ in } }
  }

  @Test func cursorsWalkRangesInKeyOrder() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let table = try environment.table("t")
    try environment.write { txn in
      for key in ["a1", "a2", "a3", "b1", "c"] { try txn.put(bytes(key), bytes(key.uppercased()), in: table) }
    }
    try environment.read { txn throws in
      let cursor = try txn.cursor(table)
      var keys: [String] = []
      var entry = try cursor.seek(atLeast: bytes("a"))
      while let (key, _) = entry, key.starts(with: bytes("a")) {
        keys.append(string(key)!)
        entry = try cursor.next()
      }
      #expect(keys == ["a1", "a2", "a3"])
      #expect(string(try cursor.seekLast(withPrefix: bytes("a"))?.key) == "a3")
      #expect(string(try cursor.seekLast(withPrefix: bytes("c"))?.key) == "c")
      #expect(try cursor.seekLast(withPrefix: bytes("d")) == nil)
      #expect(string(try cursor.seek(exactly: bytes("b1"))?.value) == "B1")
      #expect(try cursor.seek(exactly: bytes("b")) == nil)
    }
    #expect(Cursor.successor(of: [0x61, 0xFF]) == [0x62])
    #expect(Cursor.successor(of: [0xFF, 0xFF]) == nil)
  }

  @Test func duplicateSortedTablesKeepSortedSetsPerKey() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let table = try environment.table("d", duplicateSort: true)
    try environment.write { txn in
      for value in ["z", "a", "m"] { try txn.put(bytes("k"), bytes(value), in: table) }
      try txn.delete(bytes("k"), value: bytes("m"), in: table)
    }
    try environment.read { txn throws in
      let cursor = try txn.cursor(table)
      var values: [String] = []
      var entry = try cursor.seek(exactly: bytes("k"))
      while let (_, value) = entry {
        values.append(string(value)!)
        entry = try cursor.nextDuplicate()
      }
      #expect(values == ["a", "z"])
    }
  }

  @Test func errorsCarryCodeTextAndOperation() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    defer { environment.close() }
    let table = try environment.table("t")
    let error = try #require(throws: StorageError.self) {
      try environment.write { txn in try txn.put([UInt8](repeating: 1, count: 600), bytes("v"), in: table) }
    }
    #expect(error.code == MDB_BAD_VALSIZE)
    #expect(error.description.contains("mdb_put (t)"))
    #expect(error.description.contains(error.message))
    #expect(!error.message.isEmpty)
  }

  @Test func closedEnvironmentThrows() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    environment.close()
    #expect(throws: StorageError.self) { try environment.read { _ in } }
    #expect(throws: StorageError.self) { try environment.write { _ in } }
  }

  /// A tiny map grows by itself, while other threads keep reading, without the writer
  /// seeing an error.
  @Test func aTinyMapGrowsUnderConcurrentReads() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 64 << 10
    options.durable = false
    let environment = try Environment.open(path: directory.path, options: options)
    defer { environment.close() }
    let table = try environment.table("t")
    let value = [UInt8](repeating: 7, count: 100_000)
    let done = Atomic(false)
    let readers = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: readers) {
        while !done.load(ordering: .relaxed) {
          _ = try? environment.read { txn in try txn.get(bytes("k0"), in: table)?.count }
        }
      }
    }
    for batch in 0..<40 {
      try environment.write { txn in
        for item in 0..<10 { try txn.put(bytes("k\(batch * 10 + item)"), value, in: table) }
      }
    }
    done.store(true, ordering: .relaxed)
    readers.wait()
    #expect(environment.mapSize >= 40 << 20)
    try environment.read { txn throws in
      #expect(try txn.count(table) == 400)
      #expect(try txn.get(bytes("k399"), in: table)?.count == 100_000)
    }
  }

  /// A map grown by another opener of the file (as another process would) is adopted
  /// (`MDB_MAP_RESIZED`) instead of surfacing as an error.
  @Test func aMapGrownElsewhereIsAdopted() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    let environment = try Environment.open(path: directory.path, options: options)
    defer { environment.close() }
    let table = try environment.table("t")
    try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: table) }

    // A second, raw handle on the same files grows the map and fills it past the old size.
    growMapElsewhere(directory.path, table: "t", create: false, keys: ["big0", "big1", "big2"])

    let count = try environment.read { txn in try txn.count(table) }
    #expect(count == 4)
    #expect(environment.mapSize >= 64 << 20)
    try environment.write { txn in try txn.put(bytes("b"), bytes("2"), in: table) }
    #expect(try environment.statistics().mapAdoptions == 1)
  }

  /// Opening a table adopts a map grown elsewhere too: several processes opening a
  /// database while others write meet this between opening the environment and opening
  /// its tables.
  @Test func aTableOpensAfterTheMapGrewElsewhere() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    let environment = try Environment.open(path: directory.path, options: options)
    defer { environment.close() }

    growMapElsewhere(directory.path, table: "t", create: true, keys: ["big"])

    let table = try environment.table("t", create: false)
    let created = try environment.table("u")
    try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: created) }
    #expect(try environment.read { txn in try txn.get(bytes("big"), in: table)?.count } == 4 << 20)
  }

  /// Another environment on `path`, as another process would open it, with a 64 MiB map:
  /// it writes 4 MiB under each key of `table` and commits, so LMDB records the larger
  /// map, which the environment under test has not taken up yet.
  private func growMapElsewhere(_ path: String, table: String, create: Bool, keys: [String]) {
    var other: OpaquePointer?
    #expect(mdb_env_create(&other) == 0)
    #expect(mdb_env_set_maxdbs(other, 8) == 0)
    #expect(mdb_env_set_mapsize(other, 64 << 20) == 0)
    #expect(mdb_env_open(other, path, UInt32(MDB_NOTLS | MDB_NOSYNC), 0o600) == 0)
    var txn: OpaquePointer?
    #expect(mdb_txn_begin(other, nil, 0, &txn) == 0)
    var dbi = MDB_dbi()
    #expect(mdb_dbi_open(txn, table, create ? UInt32(MDB_CREATE) : 0, &dbi) == 0)
    var big = [UInt8](repeating: 9, count: 4 << 20)
    for name in keys {
      var keyBytes = bytes(name)
      keyBytes.withUnsafeMutableBytes { keyBuffer in
        big.withUnsafeMutableBytes { valueBuffer in
          var key = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
          var value = MDB_val(mv_size: valueBuffer.count, mv_data: valueBuffer.baseAddress)
          #expect(mdb_put(txn, dbi, &key, &value, 0) == 0)
        }
      }
    }
    #expect(mdb_txn_commit(txn) == 0)
    mdb_env_close(other)
  }
}
