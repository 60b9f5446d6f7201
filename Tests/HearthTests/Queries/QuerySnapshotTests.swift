import Foundation
import Hearth
import HearthTestSupport
import Testing

// What a one-time query returns: documents in query order with their data, `count`,
// `isEmpty`, `query`, and `documentChanges` listing every document as `added` with
// `newIndex` 0…n−1 and `oldIndex` `UInt(NSNotFound)`, as in Firebase; the async and
// completion forms return the same.

@Suite("Query snapshots")
struct QuerySnapshotTests {

  private func fixture(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("snap"),
      ["a": ["n": 3], "b": ["n": 1], "c": ["n": 2], "d": ["m": 0]])
  }

  @Test func documentChangesOfAOneTimeQueryAreAllAdded() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      let snapshot = try c.order(by: "n", descending: true).getDocuments()
      let documentIDs = snapshot.documents.map(\.documentID)
      #expect(documentIDs == ["a", "c", "b"])
      let changes = snapshot.documentChanges
      try #require(changes.count == 3)
      for (index, change) in changes.enumerated() {
        let type = change.type
        #expect(type == .added)
        #expect(change.newIndex == UInt(index))
        #expect(change.oldIndex == UInt(NSNotFound))
        #expect(change.document.documentID == documentIDs[index])
      }
    }
  }

  @Test func countAndIsEmpty() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      let some = try c.whereField("n", isGreaterThan: 1).getDocuments()
      #expect(some.count == 2)
      #expect(!some.isEmpty)
      let none = try c.whereField("n", isGreaterThan: 3).getDocuments()
      #expect(none.count == 0)
      #expect(none.isEmpty)
      #expect(none.documents.isEmpty)
      #expect(none.documentChanges.isEmpty)
      let all = try c.getDocuments()
      #expect(all.count == 4)
    }
  }

  @Test func snapshotsKeepTheirQueryAndMetadata() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      let query = c.whereField("n", isEqualTo: 2)
      let snapshot = try query.getDocuments()
      let again = try snapshot.query.getDocuments().documents.map(\.documentID)
      #expect(again == ["c"])
      #expect(!snapshot.metadata.hasPendingWrites)
      #expect(!snapshot.metadata.isFromCache)
      let document = try #require(snapshot.documents.first)
      #expect(document.exists)
      #expect(document.reference.path == "snap/c")
      expectSame(document.data(), ["n": 2])
      expectSame(document.get("n"), 2)
      #expect(document.updateTime != nil)
    }
  }

  @Test func asyncAndCompletionFormsReturnTheSameResults() async throws {
    try await withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      let query = c.whereField("n", isLessThan: 3).order(by: "n", descending: true)
      let viaAsync = try await query.getDocuments().documents.map(\.documentID)
      #expect(viaAsync == ["c", "b"])
      let signal = Signal()
      let found = Box<[String]?>(nil)
      query.getDocuments { snapshot, _ in
        found.value = snapshot?.documents.map(\.documentID)
        signal.fire()
      }
      #expect(signal.wait())
      #expect(found.value == ["c", "b"])
    }
  }

  @Test func resultsReflectCommittedWrites() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      let query = c.whereField("n", isGreaterThanOrEqualTo: 2)
      #expect(try ids(query) == ["c", "a"])
      try c.document("b").updateData(["n": 10])
      try c.document("a").delete()
      try c.document("e").setData(["n": 2])
      try c.document("c").setData(["n": "two"])
      #expect(try ids(query) == ["e", "b"], "updated, deleted, added and retyped documents")
      try c.document("b").updateData(["n": FieldValue.delete()])
      #expect(try ids(query) == ["e"])
    }
  }
}

/// Equality of queries and snapshots, beyond Firestore's own tests: values compare exactly,
/// and a snapshot of a changed document differs.
@Suite struct QueryAndSnapshotEqualityTests {
  @Test func queriesDifferInValueTypesCursorsAndLimits() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      #expect(c.whereField("a", isEqualTo: 1) != c.whereField("a", isEqualTo: 1.0))
      #expect(c.order(by: "a").start(at: [1]) == c.order(by: "a").start(at: [1]))
      #expect(c.order(by: "a").start(at: [1]) != c.order(by: "a").start(after: [1]))
      #expect(c.limit(to: 2) != c.limit(toLast: 2))
      #expect(db.collectionGroup("c") != c)
      let either = Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 2)])
      #expect(c.whereFilter(either) == c.whereFilter(either))
    }
  }

  @Test func snapshotsDifferOnceTheDocumentChanges() throws {
    try withDatabase(settings: relaxed) { db in
      let doc = db.document("c/d")
      let missing = try doc.getDocument()
      #expect(missing == (try doc.getDocument()))
      try doc.setData(["a": 1])
      let first = try doc.getDocument()
      #expect(first != missing)
      try doc.setData(["a": 1])
      #expect(first == (try doc.getDocument()), "a rewrite that changes nothing keeps the update time")
      try doc.setData(["a": 1.0])
      #expect(first != (try doc.getDocument()), "1.0 is not 1: a change, with a new update time")
      let query = db.collection("c")
      #expect(try query.getDocuments() == (try query.getDocuments()))
    }
  }
}
