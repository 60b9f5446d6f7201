import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own document integration tests, ported case by case with their data and expected
// results unchanged: the document cases of FIRDatabaseTests.mm
// (Firestore/Example/Tests/Integration/API). Listener, offline, cache, metadata, persistence,
// termination and settings tests are left out; where a test checks both a cache read and a server
// read, only the server read is ported. Firestore's `documentRef` is a document with an auto ID in
// a collection with an auto ID; `readDocumentForRef` is `getDocument()`.

@Suite("Firestore port: documents")
struct FirestorePortDocumentTests {

  /// A fresh document in a fresh collection, as FSTIntegrationTestCase's `documentRef`.
  private func documentRef(_ db: Database) -> DocumentReference {
    db.collection(db.collection("c").document().documentID).document()
  }

  private static var initialData: [String: Any] {
    ["desc": "Description", "owner": ["name": "Jonny", "email": "abc@xyz.com"] as [String: Any]]
  }

  // FIRDatabaseTests.testCanUpdateAnExistingDocument
  @Test func testCanUpdateAnExistingDocument() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      let updateData: [AnyHashable: Any] = ["desc": "NewDescription", "owner.email": "new@xyz.com"]
      let finalData: [String: Any] = [
        "desc": "NewDescription", "owner": ["name": "Jonny", "email": "new@xyz.com"] as [String: Any],
      ]
      try doc.setData(Self.initialData)
      try doc.updateData(updateData)
      let result = try doc.getDocument()
      #expect(result.exists)
      expectSame(result.data(), finalData)
    }
  }

  // FIRDatabaseTests.testEqualityComparison
  @Test func testEqualityComparison() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      try doc.setData(Self.initialData)
      let snap1 = try doc.getDocument()
      let snap2 = try doc.getDocument()
      let snap3 = try doc.getDocument()
      #expect(snap1 == snap2)
      #expect(snap2 == snap3)
      #expect(snap1.metadata == snap2.metadata)
      #expect(snap2.metadata == snap3.metadata)
      #expect(snap1.documentID == snap2.documentID)
      #expect(snap2.documentID == snap3.documentID)
      #expect(snap1.exists == snap2.exists)
      #expect(snap2.exists == snap3.exists)
      #expect(snap1.reference == snap2.reference)
      #expect(snap2.reference == snap3.reference)
      expectSame(snap1.data(), snap2.data())
      expectSame(snap2.data(), snap3.data())
    }
  }

  // FIRDatabaseTests.testCanUpdateAnUnknownDocument
  // (the reader's cache-only reads are left out: Hearth has no cache.)
  @Test func testCanUpdateAnUnknownDocument() throws {
    try withDatabase { db in
      let writerRef = documentRef(db)
      let readerRef = db.document(writerRef.path)
      try writerRef.setData(["a": "a"])
      try readerRef.updateData(["b": "b"])
      var writerSnap = try writerRef.getDocument()
      #expect(writerSnap.exists)
      writerSnap = try writerRef.getDocument()
      expectSame(writerSnap.data(), ["a": "a", "b": "b"])
      let readerSnap = try writerRef.getDocument()
      expectSame(readerSnap.data(), ["a": "a", "b": "b"])
    }
  }

  // FIRDatabaseTests.testCanDeleteAFieldWithAnUpdate
  @Test func testCanDeleteAFieldWithAnUpdate() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      let updateData: [AnyHashable: Any] = ["owner.email": FieldValue.delete()]
      let finalData: [String: Any] = ["desc": "Description", "owner": ["name": "Jonny"] as [String: Any]]
      try doc.setData(Self.initialData)
      try doc.updateData(updateData)
      let result = try doc.getDocument()
      #expect(result.exists)
      expectSame(result.data(), finalData)
    }
  }

  // FIRDatabaseTests.testDeleteDocument
  @Test func testDeleteDocument() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      let data: [String: Any] = ["value": "foo"]
      try doc.setData(data)
      var result = try doc.getDocument()
      expectSame(result.data(), data)
      try doc.delete()
      result = try doc.getDocument()
      #expect(!result.exists)
    }
  }

  // FIRDatabaseTests.testCanRetrieveDocumentThatDoesNotExist
  @Test func testCanRetrieveDocumentThatDoesNotExist() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let result = try doc.getDocument()
      #expect(result.data() == nil)
      #expect(result["foo"] == nil)
    }
  }

  // FIRDatabaseTests.testCannotUpdateNonexistentDocument
  @Test func testCannotUpdateNonexistentDocument() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      expectHearthError(.notFound) { try doc.updateData(["owner": "abc"]) }
      let result = try doc.getDocument()
      #expect(!result.exists)
    }
  }

  // FIRDatabaseTests.testCanOverwriteDataAnExistingDocumentUsingSet
  @Test func testCanOverwriteDataAnExistingDocumentUsingSet() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let udpateData: [String: Any] = ["desc": "NewDescription"]
      try doc.setData(Self.initialData)
      try doc.setData(udpateData)
      let document = try doc.getDocument()
      expectSame(document.data(), udpateData)
    }
  }

  // FIRDatabaseTests.testCanMergeDataWithAnExistingDocumentUsingSet
  @Test func testCanMergeDataWithAnExistingDocumentUsingSet() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = [
        "desc": "Description", "owner.data": ["name": "Jonny", "email": "abc@xyz.com"] as [String: Any],
      ]
      let mergeData: [String: Any] = ["updated": true, "owner.data": ["name": "Sebastian"] as [String: Any]]
      let finalData: [String: Any] = [
        "desc": "Description", "updated": true,
        "owner.data": ["name": "Sebastian", "email": "abc@xyz.com"] as [String: Any],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, merge: true)
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testCanMergeEmptyObject
  // (the listener's snapshots are replaced by a get after each write.)
  @Test func testCanMergeEmptyObject() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      try doc.setData([:])
      expectSame(try doc.getDocument().data(), [String: Any]())
      try doc.setData(["a": [String: Any]()], mergeFields: ["a"])
      expectSame(try doc.getDocument().data(), ["a": [String: Any]()])
      try doc.setData(["b": [String: Any]()], merge: true)
      expectSame(try doc.getDocument().data(), ["a": [String: Any](), "b": [String: Any]()])
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a": [String: Any](), "b": [String: Any]()])
    }
  }

  // FIRDatabaseTests.testCanMergeServerTimestamps
  @Test func testCanMergeServerTimestamps() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = ["updated": false]
      let mergeData: [String: Any] = [
        "time": FieldValue.serverTimestamp(),
        "nested": ["time": FieldValue.serverTimestamp()] as [String: Any],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, merge: true)
      let document = try doc.getDocument()
      expectSame(document["updated"], false)
      #expect(document["time"] is Timestamp)
      #expect(document["nested.time"] is Timestamp)
    }
  }

  // FIRDatabaseTests.testCanDeleteFieldUsingMerge
  @Test func testCanDeleteFieldUsingMerge() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = [
        "untouched": true, "foo": "bar", "nested": ["untouched": true, "foo": "bar"] as [String: Any],
      ]
      let mergeData: [String: Any] = [
        "foo": FieldValue.delete(), "nested": ["foo": FieldValue.delete()] as [String: Any],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, merge: true)
      let document = try doc.getDocument()
      expectSame(document["untouched"], true)
      #expect(document["foo"] == nil)
      expectSame(document["nested.untouched"], true)
      #expect(document["nested.foo"] == nil)
    }
  }

  // FIRDatabaseTests.testCanDeleteFieldUsingMergeFields
  @Test func testCanDeleteFieldUsingMergeFields() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = [
        "untouched": true, "foo": "bar",
        "inner": ["removed": true, "foo": "bar"] as [String: Any],
        "nested": ["untouched": true, "foo": "bar"] as [String: Any],
      ]
      let mergeData: [String: Any] = [
        "foo": FieldValue.delete(),
        "inner": ["foo": FieldValue.delete()] as [String: Any],
        "nested": ["untouched": FieldValue.delete(), "foo": FieldValue.delete()] as [String: Any],
      ]
      let finalData: [String: Any] = [
        "untouched": true, "inner": [String: Any](), "nested": ["untouched": true] as [String: Any],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, mergeFields: ["foo", "inner", "nested.foo"])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testCanSetServerTimestampsUsingMergeFields
  @Test func testCanSetServerTimestampsUsingMergeFields() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = [
        "untouched": true, "foo": "bar", "nested": ["untouched": true, "foo": "bar"] as [String: Any],
      ]
      let mergeData: [String: Any] = [
        "foo": FieldValue.serverTimestamp(),
        "inner": ["foo": FieldValue.serverTimestamp()] as [String: Any],
        "nested": ["foo": FieldValue.serverTimestamp()] as [String: Any],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, mergeFields: ["foo", "inner", "nested.foo"])
      let document = try doc.getDocument()
      #expect(document.exists)
      #expect(document["foo"] is Timestamp)
      #expect(document["inner.foo"] is Timestamp)
      #expect(document["nested.foo"] is Timestamp)
    }
  }

  // FIRDatabaseTests.testMergeReplacesArrays
  @Test func testMergeReplacesArrays() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let initialData: [String: Any] = [
        "untouched": true, "data": "old", "topLevel": ["old", "old"],
        "mapInArray": [["data": "old"] as [String: Any]],
      ]
      let mergeData: [String: Any] = [
        "data": "new", "topLevel": ["new"], "mapInArray": [["data": "new"] as [String: Any]],
      ]
      let finalData: [String: Any] = [
        "untouched": true, "data": "new", "topLevel": ["new"],
        "mapInArray": [["data": "new"] as [String: Any]],
      ]
      try doc.setData(initialData)
      try doc.setData(mergeData, merge: true)
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testCannotSpecifyFieldMaskForMissingField
  @Test func testCannotSpecifyFieldMaskForMissingField() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      expectInvalidArgument(
        mentioning: ["Field 'foo' is specified in your field mask but missing from your input data."]
      ) {
        try doc.setData([:], mergeFields: ["foo"])
      }
    }
  }

  // FIRDatabaseTests.testCanSetASubsetOfFieldsUsingMask
  @Test func testCanSetASubsetOfFieldsUsingMask() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let finalData: [String: Any] = ["desc": "Description", "owner": "Sebastian"]
      try doc.setData(Self.initialData)
      try doc.setData(["desc": "NewDescription", "owner": "Sebastian"], mergeFields: ["owner"])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testDoesNotApplyFieldDeleteOutsideOfMask
  @Test func testDoesNotApplyFieldDeleteOutsideOfMask() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let finalData: [String: Any] = ["desc": "Description", "owner": "Sebastian"]
      try doc.setData(Self.initialData)
      try doc.setData(["desc": FieldValue.delete(), "owner": "Sebastian"], mergeFields: ["owner"])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testDoesNotApplyFieldTransformOutsideOfMask
  @Test func testDoesNotApplyFieldTransformOutsideOfMask() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let finalData: [String: Any] = ["desc": "Description", "owner": "Sebastian"]
      try doc.setData(Self.initialData)
      try doc.setData(["desc": FieldValue.serverTimestamp(), "owner": "Sebastian"], mergeFields: ["owner"])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testCanSetEmptyFieldMask
  @Test func testCanSetEmptyFieldMask() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let finalData = Self.initialData
      try doc.setData(Self.initialData)
      try doc.setData(["desc": FieldValue.serverTimestamp(), "owner": "Sebastian"], mergeFields: [])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testCanSpecifyFieldsMultipleTimesInFieldMask
  @Test func testCanSpecifyFieldsMultipleTimesInFieldMask() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document()
      let finalData: [String: Any] = [
        "desc": "Description", "owner": ["name": "Sebastian", "email": "new@xyz.com"] as [String: Any],
      ]
      try doc.setData(Self.initialData)
      try doc.setData(
        ["desc": "NewDescription", "owner": ["name": "Sebastian", "email": "new@xyz.com"] as [String: Any]],
        mergeFields: ["owner.name", "owner", "owner"])
      let document = try doc.getDocument()
      expectSame(document.data(), finalData)
    }
  }

  // FIRDatabaseTests.testAddingToACollectionYieldsTheCorrectDocumentReference
  @Test func testAddingToACollectionYieldsTheCorrectDocumentReference() throws {
    try withDatabase { db in
      let coll = db.collection("collection")
      let ref = try coll.addDocument(data: ["foo": 1])
      let signal = Signal()
      let result = Box<(data: [String: Any]?, error: Error?)>((nil, nil))
      ref.getDocument { document, error in
        result.value = (document?.data(), error)
        signal.fire()
      }
      #expect(signal.wait())
      #expect(result.value.error == nil)
      expectSame(result.value.data, ["foo": 1])
    }
  }

  // FIRDatabaseTests.testExposesFirestoreOnDocumentReferences
  @Test func testExposesFirestoreOnDocumentReferences() throws {
    try withDatabase { db in
      let doc = db.document("foo/bar")
      #expect(doc.firestore === db)
    }
  }

  // FIRDatabaseTests.testExposesFirestoreOnQueries
  @Test func testExposesFirestoreOnQueries() throws {
    try withDatabase { db in
      let q = db.collection("foo").limit(to: 5)
      #expect(q.firestore === db)
    }
  }

  // FIRDatabaseTests.testQueryReferenceEquality
  @Test func testQueryReferenceEquality() throws {
    try withDatabase { firestore in
      let query = firestore.collection("foo").order(by: "bar").whereField("baz", isEqualTo: 42)
      let query2 = firestore.collection("foo").order(by: "bar").whereField("baz", isEqualTo: 42)
      #expect(query == query2)
      #expect(query.hashValue == query2.hashValue)
      let query3 = firestore.collection("foo").order(by: "BAR").whereField("baz", isEqualTo: 42)
      #expect(query != query3)
      try withDatabase { otherFirestore in
        let query4 = otherFirestore.collection("foo").order(by: "bar").whereField("baz", isEqualTo: 42)
        #expect(query4 != query)
      }
    }
  }

  // FIRDatabaseTests.testDocumentReferenceEquality
  @Test func testDocumentReferenceEquality() throws {
    try withDatabase { firestore in
      let docRef = firestore.document("foo/bar")
      #expect(firestore.document("foo/bar") == docRef)
      #expect(docRef.collection("blah").parent == docRef)
      #expect(firestore.document("foo/BAR") != docRef)
      try withDatabase { otherFirestore in
        #expect(otherFirestore.document("foo/bar") != docRef)
      }
    }
  }

  // FIRDatabaseTests.testCanTraverseCollectionsAndDocuments
  @Test func testCanTraverseCollectionsAndDocuments() throws {
    try withDatabase { db in
      let expected = "a/b/c/d"
      // doc path from root Firestore.
      #expect(db.document("a/b/c/d").path == expected)
      // collection path from root Firestore.
      #expect(db.collection("a/b/c").document("d").path == expected)
      // doc path from CollectionReference.
      #expect(db.collection("a").document("b/c/d").path == expected)
      // collection path from DocumentReference.
      #expect(db.document("a/b").collection("c/d/e").path == "a/b/c/d/e")
    }
  }

  // FIRDatabaseTests.testCanTraverseCollectionAndDocumentParents
  @Test func testCanTraverseCollectionAndDocumentParents() throws {
    try withDatabase { db in
      var collection = db.collection("a/b/c")
      #expect(collection.path == "a/b/c")
      let doc = collection.parent
      #expect(doc?.path == "a/b")
      collection = doc!.parent
      #expect(collection.path == "a")
      let nilDoc = collection.parent
      #expect(nilDoc == nil)
    }
  }

  // FIRDatabaseTests.testUpdateFieldsWithDots
  @Test func testUpdateFieldsWithDots() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["a.b": "old", "c.d": "old"])
      try doc.updateData([FieldPath(["a.b"]): "new"])
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a.b": "new", "c.d": "old"])
    }
  }

  // FIRDatabaseTests.testUpdateNestedFields
  @Test func testUpdateNestedFields() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData([
        "a": ["b": "old"] as [String: Any], "c": ["d": "old"] as [String: Any], "e": ["f": "old"] as [String: Any],
      ])
      try doc.updateData(["a.b": "new", FieldPath(["c", "d"]): "new"])
      let snapshot = try doc.getDocument()
      expectSame(
        snapshot.data(),
        [
          "a": ["b": "new"] as [String: Any], "c": ["d": "new"] as [String: Any],
          "e": ["f": "old"] as [String: Any],
        ])
    }
  }

  // FIRDatabaseTests.testCollectionID
  @Test func testCollectionID() throws {
    try withDatabase { db in
      #expect(db.collection("foo").collectionID == "foo")
      #expect(db.collection("foo/bar/baz").collectionID == "baz")
    }
  }

  // FIRDatabaseTests.testDocumentID
  @Test func testDocumentID() throws {
    try withDatabase { db in
      #expect(db.document("foo/bar").documentID == "bar")
      #expect(db.document("foo/bar/baz/qux").documentID == "qux")
    }
  }
}
