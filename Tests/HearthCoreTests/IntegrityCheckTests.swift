import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// `DocumentStore.check()`: silent on a sound database, precise on a damaged one.
@Suite struct IntegrityCheckTests {
  func key(_ path: String) throws -> DocumentKey { try DocumentKey(parsing: path) }

  /// Documents at several depths, arrays with repeated elements, a declared composite
  /// index, overwrites and deletes.
  func populate(_ store: DocumentStore) throws {
    try store.declareIndexes(
      IndexFile.parse(
        #"{"indexes":[{"collectionGroup":"posts","queryScope":"COLLECTION_GROUP","fields":["#
          + #"{"fieldPath":"ownerId","order":"ASCENDING"},{"fieldPath":"likes","order":"DESCENDING"}]}]}"#))
    for user in 0..<5 {
      try store.commit([
        Write(
          key: key("users/u\(user)"),
          kind: .set(["name": .string("U\(user)"), "tags": .array([.string("a"), .string("a")])])),
        Write(
          key: key("users/u\(user)/posts/p1"),
          kind: .set(["ownerId": .string("u\(user)"), "likes": .integer(Int64(user)), "m": .map(["x": .null])])),
      ])
    }
    try store.commit([
      Write(key: key("users/u1/posts/p1"), kind: .set(["ownerId": .string("u1"), "likes": .double(2.5)]))
    ])
    try store.commit([Write(key: key("users/u2"), kind: .delete)])
    try store.commit([Write(key: key("missing/parent/deep/doc"), kind: .set(["v": .boolean(true)]))])
  }

  @Test func aSoundDatabasePasses() throws {
    try withStore { store in
      #expect(try store.check().ok)
      try populate(store)
      let report = try store.check()
      #expect(report.ok, "\(report.problems)")
      #expect(report.documents == 10)
      #expect(report.indexEntries > 0)
      #expect(report.collections == 8)  // users, 5 × users/uN/posts, missing, missing/parent/deep
    }
  }

  @Test func aMissingIndexEntryIsReportedWithItsDocument() throws {
    try withStore { store in
      try populate(store)
      // Remove one entry of users/u3's automatic index on "name".
      try store.environment.write { txn in
        let cursor = try txn.cursor(store.tables.indexEntries)
        var entry = try cursor.first()
        while let (_, value) = entry, !value.elementsEqual(Array("u3".utf8)) { entry = try cursor.next() }
        let (indexKey, _) = try #require(entry)
        #expect(try txn.delete(Array(indexKey), value: Array("u3".utf8), in: store.tables.indexEntries))
      }
      let report = try store.check()
      #expect(!report.ok)
      #expect(report.problems.contains { $0.contains("users/u3: an index entry is missing") })
      #expect(report.problems.contains { $0.contains("indexEntries: the table holds") })
    }
  }

  @Test func aLeftoverIndexEntryIsReported() throws {
    try withStore { store in
      try populate(store)
      try store.environment.write { txn in
        let cursor = try txn.cursor(store.tables.indexEntries)
        let (indexKey, _) = try #require(try cursor.first())
        try txn.put(Array(indexKey), Array("ghost".utf8), in: store.tables.indexEntries)
      }
      let report = try store.check()
      #expect(
        report.problems == [
          "indexEntries: the table holds \(report.indexEntries) entries where the documents call for "
            + "\(report.indexEntries - 1) (entries left behind by removed or changed documents)"
        ])
    }
  }

  @Test func damagedDocumentBytesAreReportedWithThePath() throws {
    try withStore { store in
      try populate(store)
      let target = try key("users/u4/posts/p1")
      let number = try #require(try store.read { try store.registry.number(of: target.collectionPath, in: $0.txn) })
      let storageKey = KeyLayout.documentKey(number, target.documentID)
      try store.environment.write { txn in
        var bytes = Array(try #require(try txn.get(storageKey, in: store.tables.documents)))
        bytes[bytes.count - 3] ^= 0x40
        try txn.put(storageKey, bytes, in: store.tables.documents)
      }
      let report = try store.check()
      #expect(report.problems.contains { $0.hasPrefix("users/u4/posts/p1:") })
    }
  }

  @Test func aCollectionMissingFromItsGroupIsReported() throws {
    try withStore { store in
      try populate(store)
      try store.environment.write { txn in
        try txn.empty(store.tables.groups)
      }
      let report = try store.check()
      #expect(report.problems.contains("collection users is missing from its collection group 'users'"))
      #expect(report.problems.contains("collection users/u0/posts is missing from its collection group 'posts'"))
    }
  }
}
