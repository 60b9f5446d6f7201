import CLMDB
import Foundation
import Testing

@testable import HearthStorage

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
    try withEnvironment(at: directory.path) { environment in
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
      #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
    }
  }

  @Test func missingDatabaseIsNotCreatedWhenAskedNotTo() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.createIfMissing = false
    #expect(throws: StorageError.self) { try Environment.open(path: directory.path, options: options) }
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  /// A read's cursors are kept with its transaction handle and renewed by the next read
  /// on it, which sees its own snapshot through them; a cursor kept past its read stays
  /// closed, whatever became of the LMDB cursor it held.
  @Test func readCursorsAreRenewedByTheNextReadAndSeeItsSnapshot() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let other = try environment.table("u")
      try environment.write { txn in try txn.put(bytes("a"), bytes("1"), in: table) }
      var kept: Cursor?
      try environment.read { txn in
        let cursor = try txn.cursor(table)
        let second = try txn.cursor(table)
        #expect(string(try cursor.first()?.key) == "a")
        #expect(string(try second.last()?.value) == "1")
        kept = cursor
      }
      try environment.write { txn in try txn.put(bytes("b"), bytes("2"), in: table) }
      try environment.read { txn in
        #expect(txn.spareCursors.count == 2)
        let cursor = try txn.cursor(table)
        #expect(txn.spareCursors.count == 1)
        var keys: [String] = []
        var entry = try cursor.first()
        while let (key, _) = entry {
          keys.append(string(key)!)
          entry = try cursor.next()
        }
        #expect(keys == ["a", "b"])
        // No spare is of this table: a new cursor is opened.
        #expect(try txn.cursor(other).first() == nil)
        #expect(txn.spareCursors.count == 1)
      }
      #expect(throws: StorageError.self) { try kept!.first() }
    }
  }

  /// `countEntries` counts a duplicate-sorted table's values key by key, and another's
  /// entries one by one, up to an upper bound (inclusive or not), a limit, or a long key
  /// it leaves current and uncounted.
  @Test func countEntriesStopsAtTheBoundTheLimitOrALongKey() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let duplicates = try environment.table("d", duplicateSort: true)
      let plain = try environment.table("p")
      let keys = ["a", "b", "c", "cccc", "d"]
      try environment.write { txn in
        for (index, key) in keys.enumerated() {
          for value in 0...index { try txn.put(bytes(key), bytes("v\(value)"), in: duplicates) }
          try txn.put(bytes(key), bytes("v"), in: plain)
        }
      }
      try environment.read { txn throws in
        func count(
          _ table: Table, from start: String, below upper: String, inclusive: Bool, limit: Int = .max,
          stopLength: Int = .max
        ) throws -> (entries: Int, keys: Int, stoppedAt: String?) {
          let cursor = try txn.cursor(table)
          let first = try #require(try cursor.seek(atLeast: bytes(start)))
          let counted = try bytes(upper).withUnsafeBytes { upper in
            try cursor.countEntries(
              from: first.key, below: upper, inclusive: inclusive, limit: limit, stopLength: stopLength)
          }
          return (counted.entries, counted.keys, string(counted.stoppedAt))
        }
        // Values 1 + 2 + 3 of keys a, b, c; then "cccc" (4 values) with the bound "cccc".
        #expect(try count(duplicates, from: "a", below: "cccc", inclusive: false) == (6, 3, nil))
        #expect(try count(duplicates, from: "a", below: "cccc", inclusive: true) == (10, 4, nil))
        #expect(try count(duplicates, from: "b", below: "z", inclusive: false) == (14, 4, nil))
        #expect(try count(duplicates, from: "a", below: "z", inclusive: false, limit: 4) == (6, 3, nil))
        #expect(try count(duplicates, from: "a", below: "z", inclusive: false, stopLength: 4) == (6, 3, "cccc"))
        #expect(try count(plain, from: "a", below: "d", inclusive: true) == (5, 5, nil))
        #expect(try count(plain, from: "b", below: "d", inclusive: false, limit: 2) == (2, 2, nil))
      }
    }
  }

  @Test func writesCommitAndAThrowAbortsEverything() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
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
  }

  @Test func aTransactionCannotBeUsedAfterItsClosure() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      var escaped: ReadTransaction?
      try environment.read { escaped = $0 }
      #expect(throws: StorageError.self) { _ = try escaped!.get(bytes("a"), in: table) }
    }
  }

  @Test func aWriteInsideAWriteOnOneThreadFailsInsteadOfDeadlocking() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let error = try #require(throws: StorageError.self) {
        try environment.write { _ in try environment.write { _ in } }
      }
      #expect(error.code == EDEADLK)
      // A read inside a write is fine.
      try environment.write { _ in try environment.read { _ in } }
    }
  }

  @Test func cursorsWalkRangesInKeyOrder() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
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
  }

  @Test func duplicateSortedTablesKeepSortedSetsPerKey() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
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
  }

  @Test func errorsCarryCodeTextAndOperation() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let error = try #require(throws: StorageError.self) {
        try environment.write { txn in try txn.put([UInt8](repeating: 1, count: 600), bytes("v"), in: table) }
      }
      #expect(error.code == MDB_BAD_VALSIZE)
      #expect(error.description.contains("mdb_put (t)"))
      #expect(error.description.contains(error.message))
      #expect(!error.message.isEmpty)
    }
  }

  @Test func closedEnvironmentThrows() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment.open(path: directory.path)
    environment.close()
    #expect(throws: StorageError.self) { try environment.read { _ in } }
    #expect(throws: StorageError.self) { try environment.write { _ in } }
  }
}
