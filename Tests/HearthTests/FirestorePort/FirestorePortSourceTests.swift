import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own get-with-source integration tests, ported case by case with their data and
// expected results unchanged: FIRFirestoreSourceTests.mm (Firestore/Example/Tests/Integration/API).
// Only the online cases are ported: Hearth has no network to disable. Hearth has no cache either,
// so every source reads the committed database (docs/semantics.md: `hasPendingWrites` and
// `isFromCache` are always false); in the online cache-only cases the `fromCache == true`
// assertion is left out and everything else is kept, and the case that expects a cache miss
// (`testGetNonExistingDocWhileOnlineCacheOnly`) is left out.
// `readDocumentForRef`/`readDocumentSetForRef` are `getDocument(source:)`/`getDocuments(source:)`
// with `.default` unless a source is named.

@Suite("Firestore port: FIRFirestoreSourceTests")
struct FirestorePortSourceTests {

  /// FSTIntegrationTestCase's `collectionRef`: a collection with a fresh auto ID.
  private func collectionRef(_ db: Database) -> CollectionReference {
    db.collection("test-collection-\(db.collection("c").document().documentID)")
  }

  /// FSTIntegrationTestCase's `documentRef`.
  private func documentRef(_ db: Database) -> DocumentReference {
    db.collection("test-collection").document()
  }

  /// FSTIntegrationTestCase's `writeAllDocuments:toCollection:`.
  private func writeAllDocuments(_ documents: [String: [String: Any]], toCollection collection: CollectionReference)
    throws
  {
    let batch = collection.firestore.batch()
    for (key, value) in documents {
      batch.setData(value, forDocument: collection.document(key))
    }
    try batch.commit()
  }

  /// FIRQuerySnapshotGetData.
  private func data(_ snapshot: QuerySnapshot) -> [Any] {
    snapshot.documents.map { $0.data() }
  }

  /// FIRQuerySnapshotGetDocChangesData: [type, documentID, data] per change.
  private func docChangesData(_ snapshot: QuerySnapshot) -> [Any] {
    snapshot.documentChanges.map { change -> [Any] in
      ["\(change.type)", change.document.documentID, change.document.data()]
    }
  }

  private static var initialDocs: [String: [String: Any]] {
    [
      "doc1": ["key1": "value1"],
      "doc2": ["key2": "value2"],
      "doc3": ["key3": "value3"],
    ]
  }

  private static var initialDocsData: [Any] { [["key1": "value1"], ["key2": "value2"], ["key3": "value3"]] }

  private static var initialDocsChanges: [Any] {
    [
      ["\(DocumentChangeType.added)", "doc1", ["key1": "value1"]],
      ["\(DocumentChangeType.added)", "doc2", ["key2": "value2"]],
      ["\(DocumentChangeType.added)", "doc3", ["key3": "value3"]],
    ]
  }

  // FIRFirestoreSourceTests.testGetDocumentWhileOnlineWithDefaultSource
  @Test func testGetDocumentWhileOnlineWithDefaultSource() throws {
    try withDatabase { db in
      let doc = documentRef(db)

      // set document to a known value
      let initialData: [String: Any] = ["key": "value"]
      try doc.setData(initialData)

      // get doc and ensure that it exists, is *not* from the cache, and matches
      // the initialData.
      let result = try doc.getDocument(source: .default)
      #expect(result.exists)
      #expect(!result.metadata.isFromCache)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(result.data(), initialData)
    }
  }

  // FIRFirestoreSourceTests.testGetCollectionWhileOnlineWithDefaultSource
  @Test func testGetCollectionWhileOnlineWithDefaultSource() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // set a few documents to known values
      try writeAllDocuments(Self.initialDocs, toCollection: col)

      // get docs and ensure they are *not* from the cache, and match the
      // initialDocs.
      let result = try col.getDocuments(source: .default)
      #expect(!result.metadata.isFromCache)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(data(result), Self.initialDocsData)
      expectSame(docChangesData(result), Self.initialDocsChanges)
    }
  }

  // FIRFirestoreSourceTests.testGetDocumentError
  @Test func testGetDocumentError() throws {
    try withDatabase { db in
      let doc = db.document("foo/__invalid__")

      let completed = Signal()
      let received = Box<Error?>(nil)
      doc.getDocument { _, error in
        received.value = error
        completed.fire()
      }
      #expect(completed.wait(), "get completed")
      #expect(received.value != nil)
    }
  }

  // FIRFirestoreSourceTests.testGetCollectionError
  @Test func testGetCollectionError() throws {
    try withDatabase { db in
      let col = db.collection("__invalid__")

      let completed = Signal()
      let received = Box<Error?>(nil)
      col.getDocuments { _, error in
        received.value = error
        completed.fire()
      }
      #expect(completed.wait(), "get completed")
      #expect(received.value != nil)
    }
  }

  // FIRFirestoreSourceTests.testGetDocumentWhileOnlineCacheOnly
  // (the `fromCache == true` assertion is left out: Hearth has no cache.)
  @Test func testGetDocumentWhileOnlineCacheOnly() throws {
    try withDatabase { db in
      let doc = documentRef(db)

      // set document to a known value
      let initialData: [String: Any] = ["key": "value"]
      try doc.setData(initialData)

      // get doc and ensure that it exists, *is* from the cache, and matches
      // the initialData.
      let result = try doc.getDocument(source: .cache)
      #expect(result.exists)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(result.data(), initialData)
    }
  }

  // FIRFirestoreSourceTests.testGetCollectionWhileOnlineCacheOnly
  // (the `fromCache == true` assertion is left out: Hearth has no cache.)
  @Test func testGetCollectionWhileOnlineCacheOnly() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // set a few documents to a known value
      try writeAllDocuments(Self.initialDocs, toCollection: col)

      // get docs and ensure they *are* from the cache, and matches the
      // initialDocs.
      let result = try col.getDocuments(source: .cache)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(data(result), Self.initialDocsData)
      expectSame(docChangesData(result), Self.initialDocsChanges)
    }
  }

  // FIRFirestoreSourceTests.testGetDocumentWhileOnlineServerOnly
  @Test func testGetDocumentWhileOnlineServerOnly() throws {
    try withDatabase { db in
      let doc = documentRef(db)

      // set document to a known value
      let initialData: [String: Any] = ["key": "value"]
      try doc.setData(initialData)

      // get doc and ensure that it exists, is *not* from the cache, and matches
      // the initialData.
      let result = try doc.getDocument(source: .server)
      #expect(result.exists)
      #expect(!result.metadata.isFromCache)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(result.data(), initialData)
    }
  }

  // FIRFirestoreSourceTests.testGetCollectionWhileOnlineServerOnly
  @Test func testGetCollectionWhileOnlineServerOnly() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // set a few documents to a known value
      try writeAllDocuments(Self.initialDocs, toCollection: col)

      // get docs and ensure they are *not* from the cache, and matches the
      // initialData.
      let result = try col.getDocuments(source: .server)
      #expect(!result.metadata.isFromCache)
      #expect(!result.metadata.hasPendingWrites)
      expectSame(data(result), Self.initialDocsData)
      expectSame(docChangesData(result), Self.initialDocsChanges)
    }
  }

  // FIRFirestoreSourceTests.testGetNonExistingDocWhileOnlineWithDefaultSource
  @Test func testGetNonExistingDocWhileOnlineWithDefaultSource() throws {
    try withDatabase { db in
      let doc = documentRef(db)

      // get doc and ensure that it does not exist and is *not* from the cache.
      let snapshot = try doc.getDocument(source: .default)
      #expect(!snapshot.exists)
      #expect(!snapshot.metadata.isFromCache)
      #expect(!snapshot.metadata.hasPendingWrites)
    }
  }

  // FIRFirestoreSourceTests.testGetNonExistingCollectionWhileOnlineWithDefaultSource
  @Test func testGetNonExistingCollectionWhileOnlineWithDefaultSource() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // get collection and ensure it's empty and that it's *not* from the cache.
      let snapshot = try col.getDocuments(source: .default)
      #expect(snapshot.count == 0)
      #expect(snapshot.documentChanges.count == 0)
      #expect(!snapshot.metadata.isFromCache)
      #expect(!snapshot.metadata.hasPendingWrites)
    }
  }

  // FIRFirestoreSourceTests.testGetNonExistingCollectionWhileOnlineCacheOnly
  // (the `fromCache == true` assertion is left out: Hearth has no cache.)
  @Test func testGetNonExistingCollectionWhileOnlineCacheOnly() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // get collection and ensure it's empty and that it *is* from the cache.
      let snapshot = try col.getDocuments(source: .cache)
      #expect(snapshot.count == 0)
      #expect(snapshot.documentChanges.count == 0)
      #expect(!snapshot.metadata.hasPendingWrites)
    }
  }

  // FIRFirestoreSourceTests.testGetNonExistingDocWhileOnlineServerOnly
  @Test func testGetNonExistingDocWhileOnlineServerOnly() throws {
    try withDatabase { db in
      let doc = documentRef(db)

      // get doc and ensure that it does not exist and is *not* from the cache.
      let snapshot = try doc.getDocument(source: .server)
      #expect(!snapshot.exists)
      #expect(!snapshot.metadata.isFromCache)
      #expect(!snapshot.metadata.hasPendingWrites)
    }
  }

  // FIRFirestoreSourceTests.testGetNonExistingCollectionWhileOnlineServerOnly
  @Test func testGetNonExistingCollectionWhileOnlineServerOnly() throws {
    try withDatabase { db in
      let col = collectionRef(db)

      // get collection and ensure that it's empty and that it's *not* from the cache.
      let snapshot = try col.getDocuments(source: .server)
      #expect(snapshot.count == 0)
      #expect(snapshot.documentChanges.count == 0)
      #expect(!snapshot.metadata.isFromCache)
      #expect(!snapshot.metadata.hasPendingWrites)
    }
  }
}
