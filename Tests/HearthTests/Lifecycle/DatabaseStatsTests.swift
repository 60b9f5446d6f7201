import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `Database.stats()`: counts that match what was written and what `check()` counts,
/// without reading documents.
@Suite struct DatabaseStatsTests {
  @Test func anEmptyDatabaseCountsNothing() throws {
    try withDatabase { db in
      let stats = try db.stats()
      #expect(stats.documents == 0)
      #expect(stats.collections == 0)
      #expect(stats.indexEntries == 0)
      #expect(stats.declaredIndexes == 0)
      #expect(stats.bytes > 0 && stats.bytes % stats.pageSize == 0)
      #expect(stats.mapSize >= stats.bytes)
      #expect(stats.readers >= 1 && stats.readers <= stats.maxReaders)
      #expect(stats.processes == 1)
    }
  }

  @Test func countsMatchWhatWasWrittenAndWhatCheckCounts() throws {
    try withDatabase(settings: relaxed) { db in
      try db.document("users/alice").setData(["name": "Alice", "tags": ["a", "b"]])
      try db.document("users/bob").setData(["name": "Bob"])
      try db.document("posts/p1").setData(["ownerId": "alice", "likes": 3])
      var stats = try db.stats()
      #expect(stats.documents == 3)
      #expect(stats.collections == 2)
      let report = try db.check()
      #expect(report.ok)
      #expect(stats.indexEntries == report.indexEntries)
      // name ×2, tags, tags' two elements, ownerId, likes.
      #expect(stats.indexEntries == 7)

      // Subcollections count on their own; a missing parent adds none; an emptied
      // collection stops counting.
      try db.document("users/alice/posts/p2").setData(["likes": 1])
      try db.document("rooms/r1/messages/m1").setData(["text": "hi"])
      #expect(try db.stats().collections == 4)
      try db.document("posts/p1").delete()
      stats = try db.stats()
      #expect(stats.documents == 4)
      #expect(stats.collections == 3)
      #expect(stats.indexEntries == (try db.check().indexEntries))

      let grownFrom = stats.bytes
      let batch = db.batch()
      for index in 0..<2000 {
        batch.setData(
          ["n": index, "text": String(repeating: "x", count: 200)], forDocument: db.document("bulk/d\(index)"))
      }
      try batch.commit()
      stats = try db.stats()
      #expect(stats.documents == 2004)
      #expect(stats.bytes > grownFrom)
    }
  }

  @Test func aReadOnlyDatabaseHasStatsToo() throws {
    let path = makeTemporaryPath("hearth-stats")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try withDatabase(at: path) { writer in
      try writer.document("users/alice").setData(["name": "Alice"])
    }
    let settings = Settings()
    settings.readOnly = true
    try withDatabase(at: path, settings: settings) { reader in
      let stats = try reader.stats()
      #expect(stats.documents == 1)
      #expect(stats.collections == 1)
      #expect(stats.indexEntries == 1)
    }
  }

  @Test func aClosedDatabaseRefuses() throws {
    let db = try Database.temporary()
    db.close()
    expectHearthError(.failedPrecondition) { _ = try db.stats() }
  }
}
