import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own validation integration tests for paths, field names, data types, writes,
// updates and sentinels, ported case by case with their data unchanged: the non-query sections
// of FIRValidationTests.mm (Firestore/Example/Tests/Integration/API); the query sections are in
// FirestorePortValidationTests.swift. Firestore throws while a reference, field path, GeoPoint
// or write is made; Hearth reports the same mistakes as `invalidArgument` from the operation
// that uses them (a path from `getDocuments()`/`getDocument()`, a batch write from `commit()`, a
// transaction write from `runTransaction`), so each case runs that operation. Message fragments
// are Firestore's own wording, compared without regard to case ("a|b" accepts either).
// Settings, FirebaseApp and nil-argument tests have no Swift counterpart and are left out.

@Suite("Firestore port: data validation")
struct FirestorePortDataValidationTests {

  /// A fresh collection, as FSTIntegrationTestCase's `collectionRef`.
  private func collectionRef(_ db: Database) -> CollectionReference {
    db.collection(db.collection("c").document().documentID)
  }

  /// A fresh document in a fresh collection, as FSTIntegrationTestCase's `documentRef`.
  private func documentRef(_ db: Database) -> DocumentReference {
    collectionRef(db).document()
  }

  /// Runs `body` and records an issue if it throws (Firestore's XCTAssertNil(error)).
  private func expectNoError(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
  ) {
    do { try body() } catch {
      Issue.record("\(label): expected no error, got \(error)", sourceLocation: sourceLocation)
    }
  }

  /// Firestore's `expectWrite:toFailWithReason:includeSets:includeUpdates:`: every set and/or
  /// update API (document, batch, transaction) fails with invalidArgument and the reason.
  private func expectWrite(
    _ db: Database, set: [String: Any]?, update: [AnyHashable: Any]?, toFailWithReason reason: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let ref = documentRef(db)
    if let set {
      let label = "for \(set)"
      expectInvalidArgument(mentioning: reason, "setData \(label)", sourceLocation: sourceLocation) {
        try ref.setData(set)
      }
      expectInvalidArgument(mentioning: reason, "batch setData \(label)", sourceLocation: sourceLocation) {
        try db.batch().setData(set, forDocument: ref).commit()
      }
      expectInvalidArgument(mentioning: reason, "transaction setData \(label)", sourceLocation: sourceLocation) {
        _ = try db.runTransaction { transaction in transaction.setData(set, forDocument: ref) }
      }
    }
    if let update {
      let label = "for \(update)"
      expectInvalidArgument(mentioning: reason, "updateData \(label)", sourceLocation: sourceLocation) {
        try ref.updateData(update)
      }
      expectInvalidArgument(mentioning: reason, "batch updateData \(label)", sourceLocation: sourceLocation) {
        try db.batch().updateData(update, forDocument: ref).commit()
      }
      expectInvalidArgument(mentioning: reason, "transaction updateData \(label)", sourceLocation: sourceLocation) {
        _ = try db.runTransaction { transaction in transaction.updateData(update, forDocument: ref) }
      }
    }
  }

  /// Performs a write using each set and update API and makes sure it fails with the reason.
  private func expectWrite(
    _ db: Database, _ data: [String: Any], toFailWithReason reason: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectWrite(db, set: data, update: data, toFailWithReason: reason, sourceLocation: sourceLocation)
  }

  /// Performs a write using each set API and makes sure it fails with the reason.
  private func expectSet(
    _ db: Database, _ data: [String: Any], toFailWithReason reason: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectWrite(db, set: data, update: nil, toFailWithReason: reason, sourceLocation: sourceLocation)
  }

  /// Performs a write using each update API and makes sure it fails with the reason.
  private func expectUpdate(
    _ db: Database, _ data: [AnyHashable: Any], toFailWithReason reason: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectWrite(db, set: nil, update: data, toFailWithReason: reason, sourceLocation: sourceLocation)
  }

  // MARK: - Collection and Document Path Validation

  // FIRValidationTests.testEmptyCollectionPathsFail
  @Test func testEmptyCollectionPathsFail() throws {
    try withDatabase { db in
      let baseDocRef = db.document("foo/bar")
      let emptyError = "Collection path cannot be empty."
      expectInvalidArgument(mentioning: [emptyError]) { _ = try db.collection("").getDocuments() }
      expectInvalidArgument(mentioning: [emptyError]) { _ = try baseDocRef.collection("").getDocuments() }
    }
  }

  // FIRValidationTests.testWrongLengthCollectionPathsFail
  @Test func testWrongLengthCollectionPathsFail() throws {
    try withDatabase { db in
      let baseDocRef = db.document("foo/bar")
      let badAbsolutePaths = ["foo/bar/baz/quu", "foo/bar/baz/quu/x/y"]
      let badRelativePaths = ["baz/quu", "baz/quu/x/y"]
      let badPathLengths = [4, 6]
      for i in badAbsolutePaths.indices {
        let error =
          "Invalid collection reference. Collection references must have an odd number of segments, but "
          + "\(badAbsolutePaths[i]) has \(badPathLengths[i])"
        expectInvalidArgument(mentioning: [error]) { _ = try db.collection(badAbsolutePaths[i]).getDocuments() }
        expectInvalidArgument(mentioning: [error]) {
          _ = try baseDocRef.collection(badRelativePaths[i]).getDocuments()
        }
      }
    }
  }

  // FIRValidationTests.testEmptyCollectionGroupPathsFail
  @Test func testEmptyCollectionGroupPathsFail() throws {
    try withDatabase { db in
      let emptyError = "Collection ID cannot be empty."
      expectInvalidArgument(mentioning: [emptyError]) { _ = try db.collectionGroup("").getDocuments() }
    }
  }

  // FIRValidationTests.testEmptyDocumentPathsFail
  @Test func testEmptyDocumentPathsFail() throws {
    try withDatabase { db in
      let baseCollectionRef = db.collection("foo")
      let emptyError = "Document path cannot be empty."
      expectInvalidArgument(mentioning: [emptyError]) { _ = try db.document("").getDocument() }
      expectInvalidArgument(mentioning: [emptyError]) { _ = try baseCollectionRef.document("").getDocument() }
    }
  }

  // FIRValidationTests.testWrongLengthDocumentPathsFail
  @Test func testWrongLengthDocumentPathsFail() throws {
    try withDatabase { db in
      let baseCollectionRef = db.collection("foo")
      let badAbsolutePaths = ["foo/bar/baz", "foo/bar/baz/x/y"]
      let badRelativePaths = ["bar/baz", "bar/baz/x/y"]
      let badPathLengths = [3, 5]
      for i in badAbsolutePaths.indices {
        let error =
          "Invalid document reference. Document references must have an even number of segments, but "
          + "\(badAbsolutePaths[i]) has \(badPathLengths[i])"
        expectInvalidArgument(mentioning: [error]) { _ = try db.document(badAbsolutePaths[i]).getDocument() }
        expectInvalidArgument(mentioning: [error]) {
          _ = try baseCollectionRef.document(badRelativePaths[i]).getDocument()
        }
      }
    }
  }

  // FIRValidationTests.testPathsWithEmptySegmentsFail
  @Test func testPathsWithEmptySegmentsFail() throws {
    try withDatabase { db in
      // leading / trailing slashes are okay.
      for path in ["/foo/", "/foo", "foo/"] {
        expectNoError("\(path)") { _ = try db.collection(path).getDocuments() }
      }
      expectInvalidArgument(mentioning: ["Invalid path (foo//bar/baz). Paths must not contain // in them."]) {
        _ = try db.collection("foo//bar/baz").getDocuments()
      }
      expectInvalidArgument(mentioning: ["Invalid path (//foo). Paths must not contain // in them."]) {
        _ = try db.collection("//foo").getDocuments()
      }
      expectInvalidArgument(mentioning: ["Invalid path (foo//). Paths must not contain // in them."]) {
        _ = try db.collection("foo//").getDocuments()
      }
    }
  }

  // MARK: - Write Validation

  // FIRValidationTests.testWritesWithDirectlyNestedArraysFail
  @Test func testWritesWithDirectlyNestedArraysFail() throws {
    try withDatabase { db in
      expectWrite(db, ["nested-array": [1, [2]] as [Any]], toFailWithReason: ["Nested arrays are not supported"])
    }
  }

  // FIRValidationTests.testWritesWithIndirectlyNestedArraysSucceed
  @Test func testWritesWithIndirectlyNestedArraysSucceed() throws {
    try withDatabase { db in
      let data: [String: Any] = ["nested-array": [1, ["foo": [2]] as [String: Any]] as [Any]]
      let ref = documentRef(db)
      let ref2 = documentRef(db)
      expectNoError("setData") { try ref.setData(data) }
      expectNoError("batch.setData") { try ref.firestore.batch().setData(data, forDocument: ref).commit() }
      expectNoError("updateData") { try ref.updateData(data) }
      expectNoError("batch.updateData") {
        try ref.firestore.batch().updateData(data, forDocument: ref).commit()
      }
      expectNoError("transaction") {
        try ref.firestore.runTransaction { transaction in
          // Note ref2 does not exist at this point so set that and update ref.
          transaction.updateData(data, forDocument: ref)
          transaction.setData(data, forDocument: ref2)
        }
      }
    }
  }

  // FIRValidationTests.testWritesWithInvalidTypesFail
  @Test func testWritesWithInvalidTypesFail() throws {
    try withDatabase { db in
      expectWrite(
        db, ["foo": ["bar": self] as [String: Any]],
        toFailWithReason: ["Unsupported type", "FirestorePortDataValidationTests", "(found in field foo.bar)"])
    }
  }

  // FIRValidationTests.testWritesWithLargeNumbersFail
  @Test func testWritesWithLargeNumbersFail() throws {
    try withDatabase { db in
      let num = UInt64(Int64.max) + 1
      expectWrite(
        db, ["num": num], toFailWithReason: ["(\(num)) is too large|\(num) is too large", "(found in field num)"])
    }
  }

  // FIRValidationTests.testWritesWithReferencesToADifferentDatabaseFail
  @Test func testWritesWithReferencesToADifferentDatabaseFail() throws {
    try withDatabase { db in
      try withDatabase { differentDB in
        let ref = differentDB.document("baz/quu")
        let data: [String: Any] = ["foo": ref]
        expectWrite(
          db, data,
          toFailWithReason: [
            "Document Reference", "is for database", "but should be for database", "(found in field foo)",
          ])
      }
    }
  }

  // FIRValidationTests.testWritesWithReservedFieldsFail
  @Test func testWritesWithReservedFieldsFail() throws {
    try withDatabase { db in
      let reserved = "Invalid data. Document fields cannot begin and end with \"__\""
      expectWrite(db, ["__baz__": 1], toFailWithReason: [reserved, "(found in field __baz__)"])
      expectWrite(
        db, ["foo": ["__baz__": 1] as [String: Any]], toFailWithReason: [reserved, "(found in field foo.__baz__)"])
      expectWrite(
        db, ["__baz__": ["foo": 1] as [String: Any]], toFailWithReason: [reserved, "(found in field __baz__)"])

      expectUpdate(db, ["foo.__baz__": 1], toFailWithReason: [reserved, "(found in field foo.__baz__)"])
      expectUpdate(db, ["__baz__.foo": 1], toFailWithReason: [reserved, "(found in field __baz__.foo)"])
      expectUpdate(
        db, [1: 1],
        toFailWithReason: [
          "Dictionary keys in updateData: must be", "NSStrings or FIRFieldPaths|Strings or FieldPaths",
        ])
    }
  }

  // FIRValidationTests.testWritesMustNotContainEmptyFieldNames
  @Test func testWritesMustNotContainEmptyFieldNames() throws {
    try withDatabase { db in
      expectSet(
        db, ["": "foo"], toFailWithReason: ["Invalid data. Document fields must not be empty", "(found in field ``)"])
    }
  }

  // FIRValidationTests.testSetsWithFieldValueDeleteFail
  @Test func testSetsWithFieldValueDeleteFail() throws {
    try withDatabase { db in
      expectSet(
        db, ["foo": FieldValue.delete()],
        toFailWithReason: [
          "FieldValue.delete() can only be used with updateData() and setData() with merge:true",
          "(found in field foo)",
        ])
    }
  }

  // FIRValidationTests.testUpdatesWithNestedFieldValueDeleteFail
  @Test func testUpdatesWithNestedFieldValueDeleteFail() throws {
    try withDatabase { db in
      expectUpdate(
        db, ["foo": ["bar": FieldValue.delete()] as [String: Any]],
        toFailWithReason: [
          "FieldValue.delete() can only appear at the top level of your update data", "(found in field foo.bar)",
        ])
    }
  }

  /// Checks that neither database holds a document (the rejected write went nowhere).
  private func expectNothingWritten(
    _ db1: Database, _ db2: Database, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (name, db) in [("db1", db1), ("db2", db2)] {
      let written = (try? databaseContents(db)) ?? ["<unreadable>": ""]
      #expect(written.isEmpty, "\(label): \(name) now holds \(written)", sourceLocation: sourceLocation)
    }
  }

  // FIRValidationTests.testBatchWritesWithIncorrectReferencesFail
  // (Firestore throws from each batch write; Hearth's batch writes do not throw, so each is
  // committed alone and must fail there, writing nothing.)
  @Test func testBatchWritesWithIncorrectReferencesFail() throws {
    try withDatabase { db1 in
      try withDatabase { db2 in
        #expect(db1 !== db2)
        let reason = ["Provided document reference is from a different Cloud Firestore instance."]
        let data: [String: Any] = ["foo": 1]
        let badRef = db2.document("foo/bar")
        expectInvalidArgument(mentioning: reason, "setData") {
          try db1.batch().setData(data, forDocument: badRef).commit()
        }
        expectNothingWritten(db1, db2, "setData")
        expectInvalidArgument(mentioning: reason, "setData merge") {
          try db1.batch().setData(data, forDocument: badRef, merge: true).commit()
        }
        expectNothingWritten(db1, db2, "setData merge")
        expectInvalidArgument(mentioning: reason, "updateData") {
          try db1.batch().updateData(data, forDocument: badRef).commit()
        }
        expectNothingWritten(db1, db2, "updateData")
        expectInvalidArgument(mentioning: reason, "deleteDocument") {
          try db1.batch().deleteDocument(badRef).commit()
        }
        expectNothingWritten(db1, db2, "deleteDocument")
      }
    }
  }

  // FIRValidationTests.testTransactionWritesWithIncorrectReferencesFail
  // (Firestore throws from each transaction call and the transaction is a no-op; Hearth's
  // transaction writes do not throw, so each runs in its own transaction, which must fail.)
  @Test func testTransactionWritesWithIncorrectReferencesFail() throws {
    try withDatabase { db1 in
      try withDatabase { db2 in
        #expect(db1 !== db2)
        let reason = ["Provided document reference is from a different Cloud Firestore instance."]
        let data: [String: Any] = ["foo": 1]
        let badRef = db2.document("foo/bar")
        expectNoError("a no-op transaction") {
          _ = try db1.runTransaction { txn in
            expectInvalidArgument(mentioning: reason, "getDocument") { _ = try txn.getDocument(badRef) }
          }
        }
        expectInvalidArgument(mentioning: reason, "setData") {
          _ = try db1.runTransaction { txn in txn.setData(data, forDocument: badRef) }
        }
        expectNothingWritten(db1, db2, "setData")
        expectInvalidArgument(mentioning: reason, "setData merge") {
          _ = try db1.runTransaction { txn in txn.setData(data, forDocument: badRef, merge: true) }
        }
        expectNothingWritten(db1, db2, "setData merge")
        expectInvalidArgument(mentioning: reason, "updateData") {
          _ = try db1.runTransaction { txn in txn.updateData(data, forDocument: badRef) }
        }
        expectNothingWritten(db1, db2, "updateData")
        expectInvalidArgument(mentioning: reason, "deleteDocument") {
          _ = try db1.runTransaction { txn in txn.deleteDocument(badRef) }
        }
        expectNothingWritten(db1, db2, "deleteDocument")
      }
    }
  }

  // MARK: - Field Path validation

  /// Firestore's `expectFieldPath:toFailWithReason:`: the field path fails in updates, query
  /// filters and order-bys. (Firestore's `snapshot[fieldPath]` also throws; Hearth's subscript
  /// cannot throw, so that check is left out.)
  private func expectFieldPath(
    _ db: Database, _ fieldPath: String, toFailWithReason reason: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    // Get an arbitrary snapshot we can use for testing.
    let docRef = documentRef(db)
    try docRef.setData(["test": 1])
    _ = try docRef.getDocument()

    // Update paths.
    expectUpdate(db, [fieldPath: 1], toFailWithReason: reason, sourceLocation: sourceLocation)

    // Query filter / order fields.
    let collection = collectionRef(db)
    expectInvalidQuery(
      collection.whereField(fieldPath, isEqualTo: 1), mentioning: reason, "whereField", sourceLocation: sourceLocation)
    expectInvalidQuery(
      collection.order(by: fieldPath), mentioning: reason, "order(by:)", sourceLocation: sourceLocation)
  }

  // FIRValidationTests.testFieldPathsWithEmptySegmentsFail
  @Test func testFieldPathsWithEmptySegmentsFail() throws {
    try withDatabase { db in
      let badFieldPaths = ["", "foo..baz", ".foo", "foo."]
      for fieldPath in badFieldPaths {
        let reason =
          "Invalid field path (\(fieldPath)). Paths must not be empty, begin with '.', end with '.', or contain '..'"
        try expectFieldPath(db, fieldPath, toFailWithReason: [reason])
      }
    }
  }

  // FIRValidationTests.testFieldPathsWithInvalidSegmentsFail
  @Test func testFieldPathsWithInvalidSegmentsFail() throws {
    try withDatabase { db in
      let badFieldPaths = ["foo~bar", "foo*bar", "foo/bar", "foo[1", "foo]1", "foo[1]"]
      for fieldPath in badFieldPaths {
        let reason = "Invalid field path (\(fieldPath)). Paths must not contain '~', '*', '/', '[', or ']'"
        try expectFieldPath(db, fieldPath, toFailWithReason: [reason])
      }
    }
  }

  // FIRValidationTests.testFieldNamesMustNotBeEmpty
  // (Firestore throws from the FieldPath initializer; Hearth reports it from the update using it.)
  @Test func testFieldNamesMustNotBeEmpty() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["foo": 1])
      expectInvalidArgument(mentioning: ["Invalid field path. Provided names must not be empty."]) {
        try doc.updateData([FieldPath([]): 1])
      }
      expectInvalidArgument(mentioning: ["Invalid field name at index 0. Field names must not be empty."]) {
        try doc.updateData([FieldPath([""]): 1])
      }
      expectInvalidArgument(mentioning: ["Invalid field name at index 1. Field names must not be empty."]) {
        try doc.updateData([FieldPath(["foo", ""]): 1])
      }
    }
  }

  // MARK: - ArrayUnion / ArrayRemove Validation

  // FIRValidationTests.testInvalidArrayTransformElementFails
  @Test func testInvalidArrayTransformElementFails() throws {
    try withDatabase { db in
      expectWrite(
        db, ["foo": FieldValue.arrayUnion([1, self])],
        toFailWithReason: ["Unsupported type", "FirestorePortDataValidationTests"])
      expectWrite(
        db, ["foo": FieldValue.arrayRemove([1, self])],
        toFailWithReason: ["Unsupported type", "FirestorePortDataValidationTests"])
    }
  }

  // FIRValidationTests.testArraysInArrayTransformsFail
  @Test func testArraysInArrayTransformsFail() throws {
    try withDatabase { db in
      // This would result in a directly nested array which is not supported.
      expectWrite(
        db, ["foo": FieldValue.arrayUnion([1, ["nested"]])], toFailWithReason: ["Nested arrays are not supported"])
      expectWrite(
        db, ["foo": FieldValue.arrayRemove([1, ["nested"]])], toFailWithReason: ["Nested arrays are not supported"])
    }
  }

  // MARK: - GeoPoint Validation

  // FIRValidationTests.testInvalidGeoPointParameters
  // (Firestore throws from the GeoPoint initializer; Hearth reports it from the write.)
  @Test func testInvalidGeoPointParameters() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      for latitude in [Double.nan, -Double.infinity, Double.infinity, -90.1, 90.1] {
        let reason =
          "GeoPoint requires a latitude value in the range of [-90, 90], but was \(String(format: "%g", latitude))"
        expectInvalidArgument(mentioning: [reason]) {
          try doc.setData(["geo": GeoPoint(latitude: latitude, longitude: 0)])
        }
      }
      for longitude in [Double.nan, -Double.infinity, Double.infinity, -180.1, 180.1] {
        let reason =
          "GeoPoint requires a longitude value in the range of [-180, 180], but was \(String(format: "%g", longitude))"
        expectInvalidArgument(mentioning: [reason]) {
          try doc.setData(["geo": GeoPoint(latitude: 0, longitude: longitude)])
        }
      }
    }
  }
}
