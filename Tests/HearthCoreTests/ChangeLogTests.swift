import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// The change log that carries commits to other processes' listeners.
@Suite struct ChangeLogTests {
  @Test func everyCommitLogsItsPathsInOrder() throws {
    try withStore { store in
      let a = try DocumentKey(parsing: "users/a")
      let b = try DocumentKey(parsing: "users/a/posts/b")
      try store.commit([Write(key: a, kind: .set([:]))])
      try store.commit([Write(key: b, kind: .set([:])), Write(key: a, kind: .delete)])
      let log = try #require(store.tables.changes)
      let (changes, last) = try store.read { try ChangeLog.changes(after: 0, in: $0.txn, table: log) }
      #expect(last == 2)
      #expect(changes.keys == [a, b, a])
      #expect(!changes.everything)
      let (later, sameLast) = try store.read { try ChangeLog.changes(after: 2, in: $0.txn, table: log) }
      #expect(later.keys.isEmpty && sameLast == 2)
    }
  }

  /// The log keeps the last `maxEntries` commits, trimmed `trimBatch` at a time; a
  /// reader from before them is told that everything may have changed, so its views read
  /// their queries again.
  @Test func theLogIsTrimmedAndAReaderBehindItGetsEverything() throws {
    try withStore { store in
      let log = try #require(store.tables.changes)
      let key = try DocumentKey(parsing: "c/d")
      let untrimmed = ChangeLog.maxEntries + ChangeLog.trimBatch
      try store.environment.write { txn in
        for _ in 0..<untrimmed { try ChangeLog.append(CommitChanges(keys: [key]), in: txn, table: log) }
      }
      try store.read { reader throws in #expect(try reader.txn.count(log) == untrimmed) }
      // One more append trims the log to its last `maxEntries`; five more keep them.
      try store.environment.write { txn in
        for _ in 0..<6 { try ChangeLog.append(CommitChanges(keys: [key]), in: txn, table: log) }
      }
      try store.read { reader in
        #expect(try reader.txn.count(log) == ChangeLog.maxEntries + 5)
        let last = UInt64(untrimmed + 6)
        #expect(try ChangeLog.lastSequence(in: reader.txn, table: log) == last)
        let behind = try ChangeLog.changes(after: 1, in: reader.txn, table: log)
        #expect(behind.changes.everything)
        let oldestKept = last - UInt64(ChangeLog.maxEntries + 5) + 1
        let fromOldest = try ChangeLog.changes(after: oldestKept - 1, in: reader.txn, table: log)
        #expect(!fromOldest.changes.everything)
        #expect(fromOldest.changes.keys.count == ChangeLog.maxEntries + 5)
        #expect(try ChangeLog.changes(after: oldestKept - 2, in: reader.txn, table: log).changes.everything)
      }
    }
  }
}
