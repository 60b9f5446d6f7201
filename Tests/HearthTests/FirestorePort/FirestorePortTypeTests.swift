import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own field and type integration tests, ported case by case with their data and
// expected results unchanged: FIRFieldsTests.mm and FIRTypeTests.mm
// (Firestore/Example/Tests/Integration/API). Firestore's `documentRef` is a document with an auto
// ID in a collection with an auto ID; `readDocumentForRef` is `getDocument()`;
// FIRQuerySnapshotGetData is the documents' data in query order.

@Suite("Firestore port: fields and types")
struct FirestorePortTypeTests {

  /// A fresh collection, as FSTIntegrationTestCase's `collectionRef`.
  private func collectionRef(_ db: Database) -> CollectionReference {
    db.collection(db.collection("c").document().documentID)
  }

  /// A fresh document in a fresh collection, as FSTIntegrationTestCase's `documentRef`.
  private func documentRef(_ db: Database) -> DocumentReference {
    collectionRef(db).document()
  }

  /// A fresh collection holding `docs`, as FSTIntegrationTestCase's `collectionRefWithDocuments:`.
  private func collectionRef(_ db: Database, withDocuments docs: [String: [String: Any]]) throws
    -> CollectionReference
  {
    let collection = collectionRef(db)
    for (id, data) in docs { try collection.document(id).setData(data) }
    return collection
  }

  /// FIRQuerySnapshotGetData, each document's data rendered by `canonical`.
  private func querySnapshotData(_ query: Query) throws -> [String] {
    try query.getDocuments().documents.map { canonical($0.data()) }
  }

  // MARK: - FIRFieldsTests.mm

  private func testNestedData(numbered number: Int) -> [String: Any] {
    [
      "name": "room \(number)",
      "metadata": [
        "createdAt": number,
        "deep": ["field": "deep-field-\(number)"] as [String: Any],
      ] as [String: Any],
    ]
  }

  // FIRFieldsTests.testNestedFieldsCanBeWrittenWithSet
  @Test func testNestedFieldsCanBeWrittenWithSet() throws {
    try withDatabase { db in
      let testData = testNestedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      let result = try doc.getDocument()
      expectSame(result.data(), testData)
    }
  }

  // FIRFieldsTests.testNestedFieldsCanBeReadDirectly
  @Test func testNestedFieldsCanBeReadDirectly() throws {
    try withDatabase { db in
      let testData = testNestedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      let result = try doc.getDocument()
      expectSame(result["name"], testData["name"])
      expectSame(result["metadata"], testData["metadata"])
      let metadata = testData["metadata"] as! [String: Any]
      let deep = metadata["deep"] as! [String: Any]
      expectSame(result["metadata.deep.field"], deep["field"])
      #expect(result["metadata.nofield"] == nil)
      #expect(result["nometadata.nofield"] == nil)
    }
  }

  // FIRFieldsTests.testNestedFieldsCanBeUpdated
  @Test func testNestedFieldsCanBeUpdated() throws {
    try withDatabase { db in
      let testData = testNestedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      try doc.updateData(["metadata.deep.field": 100, "metadata.added": 200])
      let result = try doc.getDocument()
      expectSame(
        result.data(),
        [
          "name": "room 1",
          "metadata": ["createdAt": 1, "deep": ["field": 100] as [String: Any], "added": 200] as [String: Any],
        ])
    }
  }

  // FIRFieldsTests.testNestedFieldsCanBeUsedInQueryFilters
  @Test func testNestedFieldsCanBeUsedInQueryFilters() throws {
    try withDatabase { db in
      let testDocs = [
        "1": testNestedData(numbered: 300),
        "2": testNestedData(numbered: 100),
        "3": testNestedData(numbered: 200),
      ]
      // inequality adds implicit sort on field
      let expected = [testNestedData(numbered: 200), testNestedData(numbered: 300)].map { canonical($0) }
      let coll = try collectionRef(db, withDocuments: testDocs)
      let q = coll.whereField("metadata.createdAt", isGreaterThanOrEqualTo: 200)
      #expect(try querySnapshotData(q) == expected)
    }
  }

  // FIRFieldsTests.testNestedFieldsCanBeUsedInOrderBy
  @Test func testNestedFieldsCanBeUsedInOrderBy() throws {
    try withDatabase { db in
      let testDocs = [
        "1": testNestedData(numbered: 300),
        "2": testNestedData(numbered: 100),
        "3": testNestedData(numbered: 200),
      ]
      let coll = try collectionRef(db, withDocuments: testDocs)
      let q = coll.order(by: "metadata.createdAt")
      let expected = [testNestedData(numbered: 100), testNestedData(numbered: 200), testNestedData(numbered: 300)]
        .map { canonical($0) }
      #expect(try querySnapshotData(q) == expected)
    }
  }

  /// Test data with special characters in field names.
  private func testDottedData(numbered number: Int) -> [String: Any] {
    ["a": "field \(number)", "b.dot": number, "c\\slash": number]
  }

  // FIRFieldsTests.testFieldsWithSpecialCharsCanBeWrittenWithSet
  @Test func testFieldsWithSpecialCharsCanBeWrittenWithSet() throws {
    try withDatabase { db in
      let testData = testDottedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      let result = try doc.getDocument()
      expectSame(result.data(), testData)
    }
  }

  // FIRFieldsTests.testFieldsWithSpecialCharsCanBeReadDirectly
  @Test func testFieldsWithSpecialCharsCanBeReadDirectly() throws {
    try withDatabase { db in
      let testData = testDottedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      let result = try doc.getDocument()
      expectSame(result["a"], testData["a"])
      expectSame(result[FieldPath(["b.dot"])], testData["b.dot"])
      expectSame(result["c\\slash"], testData["c\\slash"])
    }
  }

  // FIRFieldsTests.testFieldsWithSpecialCharsCanBeUpdated
  @Test func testFieldsWithSpecialCharsCanBeUpdated() throws {
    try withDatabase { db in
      let testData = testDottedData(numbered: 1)
      let doc = documentRef(db)
      try doc.setData(testData)
      try doc.updateData([FieldPath(["b.dot"]): 100, "c\\slash": 200])
      let result = try doc.getDocument()
      expectSame(result.data(), ["a": "field 1", "b.dot": 100, "c\\slash": 200])
    }
  }

  // FIRFieldsTests.testFieldsWithSpecialCharsCanBeUsedInQueryFilters
  @Test func testFieldsWithSpecialCharsCanBeUsedInQueryFilters() throws {
    try withDatabase { db in
      let testDocs = [
        "1": testDottedData(numbered: 300),
        "2": testDottedData(numbered: 100),
        "3": testDottedData(numbered: 200),
      ]
      // inequality adds implicit sort on field
      let expected = [testDottedData(numbered: 200), testDottedData(numbered: 300)].map { canonical($0) }
      let coll = try collectionRef(db, withDocuments: testDocs)
      let q = coll.whereField(FieldPath(["b.dot"]), isGreaterThanOrEqualTo: 200)
      #expect(try querySnapshotData(q) == expected)
    }
  }

  // FIRFieldsTests.testFieldsWithSpecialCharsCanBeUsedInOrderBy
  @Test func testFieldsWithSpecialCharsCanBeUsedInOrderBy() throws {
    try withDatabase { db in
      let testDocs = [
        "1": testDottedData(numbered: 300),
        "2": testDottedData(numbered: 100),
        "3": testDottedData(numbered: 200),
      ]
      let expected = [testDottedData(numbered: 100), testDottedData(numbered: 200), testDottedData(numbered: 300)]
        .map { canonical($0) }
      let coll = try collectionRef(db, withDocuments: testDocs)
      var q = coll.order(by: FieldPath(["b.dot"]))
      #expect(try querySnapshotData(q) == expected, "query dot")
      q = coll.order(by: "c\\slash")
      #expect(try querySnapshotData(q) == expected, "query slash")
    }
  }

  private func testData(withTimestamps timestamp: Timestamp) -> [String: Any] {
    ["timestamp": timestamp, "nested": ["timestamp2": timestamp] as [String: Any]]
  }

  // FIRFieldsTests.testTimestampsAreTruncated
  @Test func testTimestampsAreTruncated() throws {
    try withDatabase { db in
      let originalTimestamp = Timestamp(seconds: 100, nanoseconds: 123_456_789)
      let doc = documentRef(db)
      try doc.setData(testData(withTimestamps: originalTimestamp))
      let snapshot = try doc.getDocument()
      let data = snapshot.data()
      // Timestamp are currently truncated to microseconds after being written to the database.
      let truncatedTimestamp = Timestamp(
        seconds: originalTimestamp.seconds, nanoseconds: originalTimestamp.nanoseconds / 1000 * 1000)

      var timestampFromSnapshot = snapshot["timestamp"] as? Timestamp
      var timestampFromData = data?["timestamp"] as? Timestamp
      #expect(truncatedTimestamp == timestampFromData)
      #expect(timestampFromSnapshot == timestampFromData)

      timestampFromSnapshot = snapshot["nested.timestamp2"] as? Timestamp
      timestampFromData = (data?["nested"] as? [String: Any])?["timestamp2"] as? Timestamp
      #expect(truncatedTimestamp == timestampFromData)
      #expect(timestampFromSnapshot == timestampFromData)
    }
  }

  // MARK: - FIRTypeTests.mm

  private func assertSuccessfulRoundtrip(
    _ db: Database, _ data: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let doc = documentRef(db)
    try doc.setData(data)
    let document = try doc.getDocument()
    #expect(document.exists, sourceLocation: sourceLocation)
    expectSame(document.data(), data, sourceLocation: sourceLocation)
  }

  // FIRTypeTests.testCanReadAndWriteNullFields
  @Test func testCanReadAndWriteNullFields() throws {
    try withDatabase { db in
      try assertSuccessfulRoundtrip(db, ["a": 1, "b": NSNull()])
    }
  }

  // FIRTypeTests.testCanReadAndWriteArrayFields
  @Test func testCanReadAndWriteArrayFields() throws {
    try withDatabase { db in
      try assertSuccessfulRoundtrip(db, ["array": [1, "foo", ["deep": true] as [String: Any], NSNull()] as [Any]])
    }
  }

  // FIRTypeTests.testCanReadAndWriteBlobFields
  @Test func testCanReadAndWriteBlobFields() throws {
    try withDatabase { db in
      let data = Data([0, 1, 2])
      try assertSuccessfulRoundtrip(db, ["blob": data])
    }
  }

  // FIRTypeTests.testCanReadAndWriteGeoPointFields
  @Test func testCanReadAndWriteGeoPointFields() throws {
    try withDatabase { db in
      try assertSuccessfulRoundtrip(db, ["geoPoint": GeoPoint(latitude: 1.23, longitude: 4.56)])
    }
  }

  // FIRTypeTests.testCanReadAndWriteDateFields
  @Test func testCanReadAndWriteDateFields() throws {
    try withDatabase { db in
      // Choose a value that can be converted losslessly between fixed point and double
      let date = Date(timeIntervalSince1970: 1_491_847_082.125)
      // Dates are read back as Timestamps, so assertSuccessfulRoundtrip cannot be used here.
      let doc = documentRef(db)
      try doc.setData(["date": date])
      let document = try doc.getDocument()
      #expect(document.exists)
      expectSame(document.data(), ["date": Timestamp(date: date)])
    }
  }

  // FIRTypeTests.testCanReadAndWriteTimestampFields
  @Test func testCanReadAndWriteTimestampFields() throws {
    try withDatabase { db in
      // Timestamps are truncated to microseconds, so only be precise to microseconds.
      let timestamp = Timestamp(seconds: 123456, nanoseconds: 123_456_000)
      try assertSuccessfulRoundtrip(db, ["timestamp": timestamp])
    }
  }

  // FIRTypeTests.testCanReadAndWriteDocumentReferences
  @Test func testCanReadAndWriteDocumentReferences() throws {
    try withDatabase { db in
      let docRef = documentRef(db)
      try assertSuccessfulRoundtrip(db, ["a": 42, "ref": docRef])
    }
  }

  // FIRTypeTests.testCanReadAndWriteDocumentReferencesInArrays
  @Test func testCanReadAndWriteDocumentReferencesInArrays() throws {
    try withDatabase { db in
      let docRef = documentRef(db)
      try assertSuccessfulRoundtrip(db, ["a": 42, "refs": [docRef]])
    }
  }
}
