import CLMDB
import Foundation
import Synchronization
import Testing

@testable import HearthStorage

/// The memory map grows by itself and takes up a map that another opener of the file
/// grew: writers never see `MDB_MAP_FULL`, readers and copies never see `MDB_MAP_RESIZED`.
/// Another process is played by a second, raw LMDB handle on the same files; the tests
/// with real processes (several writers growing one map, a listener adopting their
/// growth) are CrashHarnessTests'.
@Suite struct MapGrowthTests {
  /// A tiny initial map takes 500 MB of values, written 25 at a time, without the writer
  /// seeing an error.
  @Test func aTinyInitialMapTakes500MegabytesOfValues() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 64 << 10
    options.durable = false
    try withEnvironment(at: directory.path, options: options) { environment in
      let table = try environment.table("blobs")
      let payload = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      let count = 500
      for first in stride(from: 0, to: count, by: 25) {
        try environment.write { txn in
          for index in first..<first + 25 { try txn.put(bytes("b\(index)"), payload, in: table) }
        }
      }
      try environment.read { txn throws in
        #expect(try txn.count(table) == count)
        let last = try #require(try txn.get(bytes("b499"), in: table))
        #expect(Array(last) == payload)
      }
      let onDisk = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")[.size] as? Int ?? 0
      #expect(onDisk >= 500_000_000)
      #expect(try environment.statistics().mapGrowths > 0)
    }
  }

  /// A tiny map grows by itself, while other threads keep reading, without the writer
  /// seeing an error.
  @Test func aTinyMapGrowsUnderConcurrentReads() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 64 << 10
    options.durable = false
    try withEnvironment(at: directory.path, options: options) { environment in
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
  }

  /// A map grown by another opener of the file (as another process would) is adopted
  /// (`MDB_MAP_RESIZED`) instead of surfacing as an error.
  @Test func aMapGrownElsewhereIsAdopted() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    try withEnvironment(at: directory.path, options: options) { environment in
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
  }

  /// Opening a table adopts a map grown elsewhere too: several processes opening a
  /// database while others write meet this between opening the environment and opening
  /// its tables.
  @Test func aTableOpensAfterTheMapGrewElsewhere() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    try withEnvironment(at: directory.path, options: options) { environment in
      growMapElsewhere(directory.path, table: "t", create: true, keys: ["big"])

      let table = try environment.table("t", create: false)
      let created = try environment.table("u")
      try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: created) }
      #expect(try environment.read { txn in try txn.get(bytes("big"), in: table)?.count } == 4 << 20)
    }
  }

  /// A copy (a backup) taken right after another opener grew the map: LMDB's copy begins
  /// its own read transaction, which must take up the grown map as every other
  /// transaction does.
  @Test func aCopyTakesUpAMapGrownElsewhere() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    try withEnvironment(at: directory.path + "/db", options: options) { environment in
      let table = try environment.table("t")
      try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: table) }

      growMapElsewhere(directory.path + "/db", table: "t", create: false, keys: ["big"])

      let backup = directory.path + "/backup"
      try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
      try environment.copy(to: backup)
      #expect(try environment.statistics().mapAdoptions == 1)
      try withEnvironment(at: backup) { copy in
        let copied = try copy.table("t", create: false)
        #expect(try copy.read { txn in try txn.count(copied) } == 2)
      }
    }
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
