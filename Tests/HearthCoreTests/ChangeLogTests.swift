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

  /// The log keeps the last `maxEntries` commits; a reader from before them is told that
  /// everything may have changed, so its views read their queries again.
  @Test func theLogIsTrimmedAndAReaderBehindItGetsEverything() throws {
    try withStore { store in
      let log = try #require(store.tables.changes)
      let key = try DocumentKey(parsing: "c/d")
      try store.environment.write { txn in
        for _ in 0..<(ChangeLog.maxEntries + 5) {
          try ChangeLog.append(CommitChanges(keys: [key]), in: txn, table: log)
        }
      }
      try store.read { reader in
        #expect(try reader.txn.count(log) == ChangeLog.maxEntries)
        #expect(try ChangeLog.lastSequence(in: reader.txn, table: log) == UInt64(ChangeLog.maxEntries + 5))
        let behind = try ChangeLog.changes(after: 1, in: reader.txn, table: log)
        #expect(behind.changes.everything)
        let recent = try ChangeLog.changes(after: UInt64(ChangeLog.maxEntries), in: reader.txn, table: log)
        #expect(!recent.changes.everything)
        #expect(recent.changes.keys.count == 5)
      }
    }
  }
}
