import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// Reads at a past time (Firestore's `read_time`) from the versions a database keeps once
/// `keepVersions(for:)` turned them on.
@Suite struct VersionHistoryTests {
  private static let week = Duration.seconds(7 * 24 * 3600)
  private static let likes = FieldPath(["likes"])

  private static func key(_ path: String) throws -> DocumentKey { try DocumentKey(parsing: path) }

  private static func set(_ path: String, _ fields: [String: Value]) throws -> Write {
    Write(key: try key(path), kind: .set(fields))
  }

  private static func delete(_ path: String) throws -> Write { Write(key: try key(path), kind: .delete) }

  /// Commits and returns the commit time.
  @discardableResult
  private static func commit(_ store: DocumentStore, _ writes: [Write]) throws -> Timestamp {
    try store.commit(writes).commitTime
  }

  private static func past<R>(_ store: DocumentStore, _ time: Timestamp, _ body: (PastReader) throws -> R) throws -> R {
    try store.read { try body(try $0.past(at: time)) }
  }

  private static func likes(_ document: StoredDocument?) -> Value? { document?.fields["likes"] }

  @Test func aDocumentReadsAsItWasAtEachTime() throws {
    try withStore { store in
      try store.keepVersions(for: Self.week)
      let created = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(1)])])
      let updated = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(2)])])
      let deleted = try Self.commit(store, [try Self.delete("posts/a")])
      let recreated = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(3)])])
      let a = try Self.key("posts/a")
      let before = Timestamp(microseconds: created.microseconds - 1)
      #expect(try Self.past(store, before) { try $0.document(a) } == nil)
      let first = try #require(try Self.past(store, created) { try $0.document(a) })
      #expect(Self.likes(first) == .integer(1))
      #expect(first.createTime == created && first.updateTime == created)
      let between = Timestamp(microseconds: updated.microseconds + (deleted.microseconds - updated.microseconds) / 2)
      #expect(Self.likes(try Self.past(store, between) { try $0.document(a) }) == .integer(2))
      #expect(try Self.past(store, deleted) { try $0.document(a) } == nil)
      let again = try #require(try Self.past(store, recreated) { try $0.document(a) })
      #expect(
        Self.likes(again) == .integer(3) && again.createTime == recreated, "a new document, with a new create time")
    }
  }

  /// Only the state before a commit is a version: several writes of one document in one
  /// commit leave no version in between.
  @Test func aCommitThatWritesADocumentTwiceKeepsTheVersionBeforeIt() throws {
    try withStore { store in
      try store.keepVersions(for: Self.week)
      let first = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(1)])])
      try Self.commit(
        store,
        [
          try Self.set("posts/a", ["likes": .integer(5)]), try Self.delete("posts/a"),
          try Self.set("posts/a", ["likes": .integer(7)]),
        ])
      #expect(Self.likes(try Self.past(store, first) { try $0.document(try Self.key("posts/a")) }) == .integer(1))
      #expect(Self.likes(try store.read { try $0.document(try Self.key("posts/a")) }) == .integer(7))
    }
  }

  /// A query at a past time runs on the current indexes, leaves out what was written
  /// since and matches, orders and limits the old versions in.
  @Test func aQueryAtAPastTimeSeesTheResultsOfThen() throws {
    try withStore { store in
      try store.keepVersions(for: Self.week)
      let then = try Self.commit(
        store,
        try (1...6).map { try Self.set("posts/p\($0)", ["likes": .integer(Int64($0) * 10)]) })
      try Self.commit(
        store,
        [
          try Self.set("posts/p1", ["likes": .integer(100)]),  // moves to the top now
          try Self.set("posts/p6", ["likes": .integer(0)]),  // falls out of the range now
          try Self.delete("posts/p5"),
          try Self.set("posts/new", ["likes": .integer(55)]),
          try Self.set("other/x", ["likes": .integer(40)]),
        ])
      var query = QueryModel(target: .collection(ResourcePath(["posts"])))
      try query.add(.field(FieldFilter(field: Self.likes, op: .greaterThan, value: .integer(15))))
      query.explicitOrderBys = [OrderBy(field: Self.likes, descending: true)]
      query.limit = 3
      let ids = { (documents: [StoredDocument]) in documents.map(\.key.documentID) }
      #expect(ids(try Self.past(store, then) { try $0.run(query) }) == ["p6", "p5", "p4"])
      #expect(ids(try store.read { try $0.run(query).documents.map(\.stored) }) == ["p1", "new", "p4"])
      query.limit = nil
      #expect(ids(try Self.past(store, then) { try $0.run(query) }) == ["p6", "p5", "p4", "p3", "p2"])
      query.limit = 2
      query.limitType = .last
      #expect(ids(try Self.past(store, then) { try $0.run(query) }) == ["p3", "p2"])
      var group = QueryModel(target: .group("posts"))
      group.startAt = Bound(values: [.integer(20)], inclusive: false)
      group.explicitOrderBys = [OrderBy(field: Self.likes, descending: false)]
      #expect(ids(try Self.past(store, then) { try $0.run(group) }) == ["p3", "p4", "p5", "p6"])
    }
  }

  @Test func listingsAtAPastTimeShowTheCollectionsAndDocumentsOfThen() throws {
    try withStore { store in
      try store.keepVersions(for: Self.week)
      let then = try Self.commit(
        store,
        [
          try Self.set("a/1", [:]), try Self.set("b/1/sub/x", [:]), try Self.set("c/1", [:]),
        ])
      try Self.commit(
        store,
        [
          try Self.delete("b/1/sub/x"), try Self.set("d/1", [:]), try Self.set("a/2", [:]),
          try Self.set("c/1/later/y", [:]),
        ])
      try store.read { (reader: StoreReader) throws -> Void in
        let past = try reader.past(at: then)
        #expect(try past.collectionIDs(under: nil) == ["a", "b", "c"])
        #expect(try reader.collectionIDs(under: nil) == ["a", "c", "d"])
        #expect(try past.documentIDs(inCollection: ResourcePath(["a"])) == ["1"])
        #expect(try past.documentIDs(inCollection: ResourcePath(["b"])) == ["1"], "a missing parent of a document")
        #expect(try reader.documentIDs(inCollection: ResourcePath(["b"])).isEmpty)
        #expect(try past.collectionIDs(under: try Self.key("c/1")).isEmpty)
        #expect(try past.collectionIDs(under: try Self.key("b/1")) == ["sub"])
      }
    }
  }

  @Test func aReadBeforeWhatTheDatabaseKeepsIsRefused() throws {
    try withStore { store in
      let early = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(1)])])
      let latest = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(2)])])
      // With no versions kept, the latest commit's time still reads: nothing came after.
      #expect(Self.likes(try Self.past(store, latest) { try $0.document(try Self.key("posts/a")) }) == .integer(2))
      let none = try #require(throws: HearthError.self) { try Self.past(store, early) { _ in () } }
      #expect(none.code == .failedPrecondition && none.message.contains("keeps no old versions"))

      try store.keepVersions(for: Self.week)
      let beforeHistory = try #require(throws: HearthError.self) { try Self.past(store, early) { _ in () } }
      #expect(beforeHistory.code == .failedPrecondition, "versions are kept from the last commit on")
      try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(3)])])
      #expect(Self.likes(try Self.past(store, latest) { try $0.document(try Self.key("posts/a")) }) == .integer(2))

      let future = Timestamp(microseconds: Timestamp().microseconds + 60_000_000)
      let refused = try #require(throws: HearthError.self) { try Self.past(store, future) { _ in () } }
      #expect(refused.code == .invalidArgument && refused.message.contains("cannot be in the future"))
      let tooOld = Timestamp(microseconds: Timestamp().microseconds - 8 * 24 * 3600 * 1_000_000)
      let old = try #require(throws: HearthError.self) { try Self.past(store, tooOld) { _ in () } }
      #expect(old.code == .failedPrecondition && old.message.contains("too old"))
    }
  }

  /// Versions past the retention are removed by later commits, a few at a time, and a
  /// read that would need them is refused.
  @Test func versionsPastTheRetentionAreTrimmed() throws {
    try withStore { store in
      try store.keepVersions(for: .microseconds(1))
      let first = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(0)])])
      for n in 1...40 { try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(Int64(n))])]) }
      let versions = try #require(store.tables.versions)
      let versionTimes = try #require(store.tables.versionTimes)
      let (kept, listed) = try store.read { (try $0.txn.count(versions), try $0.txn.count(versionTimes)) }
      #expect(kept <= VersionHistory.trimBatch, "41 commits, at most a trim batch of versions left")
      #expect(listed == kept)
      let trimmed = try #require(throws: HearthError.self) { try Self.past(store, first) { _ in () } }
      #expect(trimmed.code == .failedPrecondition)
    }
  }

  @Test func anImportEndsTheHistoryBeforeIt() throws {
    try withStore { store in
      try store.keepVersions(for: Self.week)
      let before = try Self.commit(store, [try Self.set("posts/a", ["likes": .integer(1)])])
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-import-\(UUID()).ndjson").path
      defer { try? FileManager.default.removeItem(atPath: file) }
      _ = try store.export(to: file)
      _ = try store.importDocuments(from: file, mode: .merge)
      let refused = try #require(throws: HearthError.self) { try Self.past(store, before) { _ in () } }
      #expect(refused.code == .failedPrecondition)
    }
  }
}
