import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// What a durable single-document commit writes to `data.mdb`, counted as the pages whose
/// bytes differ before and after it: LMDB writes no page in place (copy on write), so
/// every page a commit writes is one that differs, plus one of the two meta pages.
///
/// The counts are LMDB's, for a fixed data set, so they are exact and repeatable; each
/// figure is the median of a few commits, as a commit that splits a page writes more.
/// A durable commit itself syncs only its journal record; these pages reach the disk at
/// the next checkpoint (Environment+Journal.swift), so they are what it costs there.
@Suite struct CommitPagesTests {
  /// How many pages of `data.mdb` differ between two copies (past the shorter one's end,
  /// every page).
  static func changedPages(_ before: Data, _ after: Data, pageSize: Int) -> Int {
    let pages = (max(before.count, after.count) + pageSize - 1) / pageSize
    let common = min(before.count, after.count) / pageSize
    let differing = before.withUnsafeBytes { old in
      after.withUnsafeBytes { new in
        (0..<common).filter {
          memcmp(old.baseAddress! + $0 * pageSize, new.baseAddress! + $0 * pageSize, pageSize) != 0
        }
        .count
      }
    }
    return differing + pages - common
  }

  /// A post of the benchmark's shape: eight fields, 13 automatic index entries (ten
  /// values, the map's two fields among them, and three array elements).
  static func post(_ index: Int) -> [String: Value] {
    [
      "ownerId": .string("user\(index % 10)"), "title": .string("Post number \(index)"),
      "body": .string(String(repeating: "Lorem ipsum dolor sit amet. ", count: 6)),
      "createdAt": .timestamp(Timestamp(seconds: 1_780_000_000 + Int64(index), nanoseconds: 0)),
      "likes": .integer(Int64(index * 7919 % 5000)),
      "tags": .array([.string("swift"), .string("lmdb"), .string("t\(index % 10)")]),
      "ratings": .map(["user1": .string("5"), "user2": .string("4")]), "published": .boolean(index % 7 != 0),
    ]
  }

  /// The median number of pages that each of `rounds` commits of `writes(round)` writes.
  static func medianPages(_ store: DocumentStore, rounds: Int = 5, _ writes: (Int) throws -> [Write]) throws -> Int {
    let file = URL(fileURLWithPath: store.path + "/data.mdb")
    let pageSize = try store.environment.statistics().pageSize
    // From a checkpoint and a few commits of the same kind: LMDB's free list then
    // holds what such commits leave, whatever came before (between checkpoints, the
    // journal's pin keeps every page commits free: Environment+Journal.swift).
    try store.environment.checkpointNow()
    for round in rounds..<(2 * rounds) { try store.commit(try writes(round)) }
    var counts: [Int] = []
    for round in 0..<rounds {
      let before = try Data(contentsOf: file)
      try store.commit(try writes(round))
      counts.append(changedPages(before, try Data(contentsOf: file), pageSize: pageSize))
    }
    return counts.sorted()[rounds / 2]
  }

  static func key(_ path: String) -> DocumentKey { try! DocumentKey(parsing: path) }

  /// A single new post among 2,000 writes 28 pages of 4 KiB (measured): 8 that any
  /// commit writes (the document's path in its tree, the change log, the meta table's
  /// last commit time, LMDB's table catalog and free list, a meta page) and 20 for its
  /// 13 index entries (each field's entries lie apart, each with its leaf and branch).
  /// Once the change log is full (10,000 commits, where a database that lives long
  /// stays), trimming it costs most commits nothing: it removes 64 entries every 64th
  /// commit, not the oldest entry at every commit (1–2 more pages each). (How many pages
  /// LMDB's free list adds depends on what the journal's pin keeps, so the full log is
  /// held to the same bound as the short one, and its trimming is watched directly.)
  @Test func aSingleDocumentCommitWritesItsTreesPathsAndTrimsTheLogInBatches() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-pages-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try withStore(at: path, options: DocumentStore.Options()) { store in
      for batch in 0..<4 {
        try store.commit(
          (0..<500).map { i in
            Write(key: Self.key("users/u\(i % 10)/posts/p\(batch * 500 + i)"), kind: .set(Self.post(i)))
          })
      }
      let shortLog = try Self.medianPages(store) { round in
        [Write(key: Self.key("users/u3/posts/new\(round)"), kind: .set(Self.post(5000 + round)))]
      }
      let emptyShortLog = try Self.medianPages(store) { round in
        [Write(key: Self.key("users/u3/posts/empty\(round)"), kind: .set([:]))]
      }

      let log = try #require(store.tables.changes)
      try store.environment.write { txn in
        for _ in 0..<ChangeLog.maxEntries { try ChangeLog.append(CommitChanges(keys: []), in: txn, table: log) }
      }
      let fullLog = try Self.medianPages(store) { round in
        [Write(key: Self.key("users/u3/posts/full\(round)"), kind: .set(Self.post(6000 + round)))]
      }
      let emptyFullLog = try Self.medianPages(store) { round in
        [Write(key: Self.key("users/u3/posts/fullEmpty\(round)"), kind: .set([:]))]
      }
      let entries = try store.read { reader in try reader.txn.count(log) }
      #expect(entries >= ChangeLog.maxEntries && entries <= ChangeLog.maxEntries + ChangeLog.trimBatch)
      // Over 2 × trimBatch more commits, the log shrinks at one or two of them, each time
      // by a whole batch.
      var counts = [entries]
      for round in 0..<(2 * ChangeLog.trimBatch) {
        try store.commit([Write(key: Self.key("users/u3/posts/trim\(round)"), kind: .set([:]))])
        counts.append(try store.read { reader in try reader.txn.count(log) })
      }
      let trims = zip(counts, counts.dropFirst()).filter { $1 < $0 }
      #expect((1...2).contains(trims.count), "\(counts)")
      #expect(trims.allSatisfy { $0 - $1 >= ChangeLog.trimBatch - 1 }, "\(counts)")

      // A document without fields: its document's path, the log, the meta table, LMDB's
      // own pages.
      #expect(emptyShortLog <= 12, "an empty document's commit wrote \(emptyShortLog) pages")
      #expect(shortLog <= 40, "a post's commit wrote \(shortLog) pages")
      #expect(fullLog <= 40, "with a full log, a post's commit wrote \(fullLog) pages")
      #expect(emptyFullLog <= 12, "with a full log, an empty document's commit wrote \(emptyFullLog) pages")
    }
  }
}
