import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own field-transform integration tests, ported case by case with their data and
// expected results unchanged: FIRArrayTransformTests.mm, FIRNumericTransformTests.mm and
// FIRServerTimestampTests.mm (Firestore/Example/Tests/Integration/API). Hearth has no local
// cache and no pending writes, so only what those tests check of the committed document (their
// "remote" events) is ported: every local-event, estimate and previous-value check of a
// pending write is left out, and the network toggles are dropped. Where Firestore's test
// compares an NSNumber (by value), the port checks the type Firestore stores: an integer where
// every operand is an integer, a double otherwise. The last suite adds the sentinel cases of
// FIRDatabaseTests.mm and FIRWriteBatchTests.mm (delete, serverTimestamp with merge and field
// masks) and the write-transform cases of FIRValidationTests.mm (Firestore's message wording).
// FIRArrayTransformServerApplicationTests' cases that check what the offline cache holds
// (testServerApplicationOfUpdateWithNoCachedBaseDoc, ...MergeSetWithNoCachedBaseDoc) are left out.

/// A fresh document of an empty collection, as `FSTIntegrationTestCase.documentRef` gives.
private func documentRef(_ db: Database) -> DocumentReference {
  db.collection("test-collection").document()
}

/// `writeInitialData:` — writes `data` and checks that it reads back as written.
private func writeInitialData(
  _ doc: DocumentReference, _ data: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  try doc.setData(data)
  expectSame(try doc.getDocument().data(), data, "initial data", sourceLocation: sourceLocation)
}

/// `expectLocalAndRemoteValue:` — the committed `sum` is exactly the integer `expected`.
private func expectValue(
  _ doc: DocumentReference, _ expected: Int64, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  expectSame(try doc.getDocument()["sum"], expected, "sum", sourceLocation: sourceLocation)
}

/// `expectApproximateLocalAndRemoteValue:` — the committed `sum` is a number within 0.000001
/// of `expected` (Firestore's `DOUBLE_EPSILON`).
private func expectApproximateValue(
  _ doc: DocumentReference, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let value = try doc.getDocument()["sum"]
  let number: Double? =
    switch value {
    case let d as Double: d
    case let i as Int64: Double(i)
    default: nil
    }
  guard let number else {
    Issue.record("sum is not a number: \(canonical(value))", sourceLocation: sourceLocation)
    return
  }
  #expect(abs(number - expected) <= 0.000001, "sum \(number), expected \(expected)", sourceLocation: sourceLocation)
}

/// `expectLocalAndRemoteNaN` — the committed `sum` is a NaN number.
private func expectNaN(_ doc: DocumentReference, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let value = try doc.getDocument()["sum"]
  #expect((value as? Double)?.isNaN == true, "sum \(canonical(value)), expected NaN", sourceLocation: sourceLocation)
}

/// The committed `sum` is a double (for the tests whose names say the type is kept).
private func expectDouble(_ doc: DocumentReference, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let value = try doc.getDocument()["sum"]
  #expect(
    canonical(value).hasPrefix("double:"), "sum \(canonical(value)) should be a double", sourceLocation: sourceLocation)
}

// MARK: - FIRArrayTransformTests.mm

@Suite("Firestore port: array transforms")
struct FirestorePortArrayTransformTests {

  // FIRArrayTransformTests.testCreateDocumentWithArrayUnion
  @Test func testCreateDocumentWithArrayUnion() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["array": FieldValue.arrayUnion([1, 2])])
      expectSame(try doc.getDocument().data(), ["array": [1, 2]])
    }
  }

  // FIRArrayTransformTests.testAppendToArrayViaUpdate
  @Test func testAppendToArrayViaUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [1, 3]])
      try doc.updateData(["array": FieldValue.arrayUnion([2, 1, 4])])
      expectSame(try doc.getDocument().data(), ["array": [1, 3, 2, 4]])
    }
  }

  // FIRArrayTransformTests.testAppendToArrayViaMergeSet
  @Test func testAppendToArrayViaMergeSet() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [1, 3]])
      try doc.setData(["array": FieldValue.arrayUnion([2, 1, 4])], merge: true)
      expectSame(try doc.getDocument().data(), ["array": [1, 3, 2, 4]])
    }
  }

  // FIRArrayTransformTests.testAppendObjectToArrayViaUpdate
  @Test func testAppendObjectToArrayViaUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [["a": "hi"]]])
      try doc.updateData(["array": FieldValue.arrayUnion([["a": "hi"], ["a": "bye"]])])
      expectSame(try doc.getDocument().data(), ["array": [["a": "hi"], ["a": "bye"]]])
    }
  }

  // FIRArrayTransformTests.testRemoveFromArrayViaUpdate
  @Test func testRemoveFromArrayViaUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [1, 3, 1, 3]])
      try doc.updateData(["array": FieldValue.arrayRemove([1, 4])])
      expectSame(try doc.getDocument().data(), ["array": [3, 3]])
    }
  }

  // FIRArrayTransformTests.testRemoveFromArrayViaMergeSet
  @Test func testRemoveFromArrayViaMergeSet() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [1, 3, 1, 3]])
      try doc.setData(["array": FieldValue.arrayRemove([1, 4])], merge: true)
      expectSame(try doc.getDocument().data(), ["array": [3, 3]])
    }
  }

  // FIRArrayTransformTests.testRemoveObjectFromArrayViaUpdate
  @Test func testRemoveObjectFromArrayViaUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["array": [["a": "hi"], ["a": "bye"]]])
      try doc.updateData(["array": FieldValue.arrayRemove([["a": "hi"]])])
      expectSame(try doc.getDocument().data(), ["array": [["a": "bye"]]])
    }
  }

  // FIRArrayTransformServerApplicationTests.testServerApplicationOfSetWithNoCachedBaseDoc
  @Test func testServerApplicationOfSetWithNoCachedBaseDoc() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["array": FieldValue.arrayUnion([1, 2])])
      expectSame(try doc.getDocument().data(), ["array": [1, 2]])
    }
  }

  // FIRArrayTransformServerApplicationTests.testServerApplicationOfArrayUnionUpdateWithCachedBaseDoc
  @Test func testServerApplicationOfArrayUnionUpdateWithCachedBaseDoc() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["array": [42]])
      try doc.updateData(["array": FieldValue.arrayUnion([1, 2])])
      expectSame(try doc.getDocument().data(), ["array": [42, 1, 2]])
    }
  }

  // FIRArrayTransformServerApplicationTests.testServerApplicationOfArrayRemoveUpdateWithCachedBaseDoc
  @Test func testServerApplicationOfArrayRemoveUpdateWithCachedBaseDoc() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["array": [42, 1, 2]])
      try doc.updateData(["array": FieldValue.arrayRemove([1, 2])])
      expectSame(try doc.getDocument().data(), ["array": [42]])
    }
  }
}

// MARK: - FIRNumericTransformTests.mm

@Suite("Firestore port: numeric transforms")
struct FirestorePortNumericTransformTests {

  // FIRNumericTransformTests.testCreateDocumentWithIncrement
  @Test func testCreateDocumentWithIncrement() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["sum": FieldValue.increment(Int64(1337))])
      try expectValue(doc, 1337)
    }
  }

  // FIRNumericTransformTests.testMergeOnNonExistingDocumentWithIncrement
  @Test func testMergeOnNonExistingDocumentWithIncrement() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["sum": FieldValue.increment(Int64(1337))], merge: true)
      try expectValue(doc, 1337)
    }
  }

  // FIRNumericTransformTests.testIntegerIncrementWithExistingInteger
  @Test func testIntegerIncrementWithExistingInteger() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 1337])
      try doc.updateData(["sum": FieldValue.increment(Int64(1))])
      try expectValue(doc, 1338)
    }
  }

  // FIRNumericTransformTests.testDoubleIncrementWithExistingDouble
  @Test func testDoubleIncrementWithExistingDouble() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 13.37])
      try doc.updateData(["sum": FieldValue.increment(0.1)])
      try expectApproximateValue(doc, 13.47)
    }
  }

  // FIRNumericTransformTests.testIntegerIncrementWithExistingDouble
  @Test func testIntegerIncrementWithExistingDouble() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 13.37])
      try doc.updateData(["sum": FieldValue.increment(Int64(1))])
      try expectApproximateValue(doc, 14.37)
    }
  }

  // FIRNumericTransformTests.testDoubleIncrementWithExistingInteger
  @Test func testDoubleIncrementWithExistingInteger() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 1337])
      try doc.updateData(["sum": FieldValue.increment(0.1)])
      try expectApproximateValue(doc, 1337.1)
    }
  }

  // FIRNumericTransformTests.testIntegerIncrementWithExistingString
  @Test func testIntegerIncrementWithExistingString() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": "overwrite"])
      try doc.updateData(["sum": FieldValue.increment(Int64(1337))])
      try expectValue(doc, 1337)
    }
  }

  // FIRNumericTransformTests.testDoubleIncrementWithExistingString
  @Test func testDoubleIncrementWithExistingString() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": "overwrite"])
      try doc.updateData(["sum": FieldValue.increment(13.37)])
      try expectApproximateValue(doc, 13.37)
    }
  }

  // FIRNumericTransformTests.testIncrementTwiceInABatch
  @Test func testIncrementTwiceInABatch() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": "overwrite"])
      let batch = doc.firestore.batch()
      batch.updateData(["sum": FieldValue.increment(Int64(1))], forDocument: doc)
      batch.updateData(["sum": FieldValue.increment(Int64(1))], forDocument: doc)
      try batch.commit()
      try expectApproximateValue(doc, 2)
    }
  }

  // FIRNumericTransformTests.testIncrementDeleteIncrementInABatch
  @Test func testIncrementDeleteIncrementInABatch() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": "overwrite"])
      let batch = doc.firestore.batch()
      batch.updateData(["sum": FieldValue.increment(Int64(1))], forDocument: doc)
      batch.updateData(["sum": FieldValue.delete()], forDocument: doc)
      batch.updateData(["sum": FieldValue.increment(Int64(3))], forDocument: doc)
      try batch.commit()
      try expectApproximateValue(doc, 3)
    }
  }

  // FIRNumericTransformTests.testServerTimestampAndIncrement (committed values, no network toggle)
  @Test func testServerTimestampAndIncrement() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["val": "overwrite"])
      try doc.updateData(["val": FieldValue.serverTimestamp()])
      #expect(try doc.getDocument().get("val", serverTimestampBehavior: .estimate) != nil)
      try doc.updateData(["val": FieldValue.increment(Int64(1))])
      expectSame(try doc.getDocument()["val"], 1)
    }
  }

  // FIRNumericTransformTests.testMultipleDoubleIncrements (committed values, no network toggle)
  @Test func testMultipleDoubleIncrements() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": "0.0"])
      try doc.updateData(["sum": FieldValue.increment(0.1)])
      try expectApproximateValue(doc, 0.1)
      try doc.updateData(["sum": FieldValue.increment(0.01)])
      try expectApproximateValue(doc, 0.11)
      try doc.updateData(["sum": FieldValue.increment(0.001)])
      try expectApproximateValue(doc, 0.111)
    }
  }

  // FIRNumericTransformTests.testCreateDocumentWithMinimum
  @Test func testCreateDocumentWithMinimum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["sum": FieldValue.minimum(Int64(1337))])
      try expectValue(doc, 1337)
    }
  }

  // FIRNumericTransformTests.testCreateDocumentWithMaximum
  @Test func testCreateDocumentWithMaximum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["sum": FieldValue.maximum(Int64(1337))])
      try expectValue(doc, 1337)
    }
  }

  // FIRNumericTransformTests.testMinimumWithExistingInteger
  @Test func testMinimumWithExistingInteger() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 10])
      try doc.updateData(["sum": FieldValue.minimum(Int64(5))])
      try expectValue(doc, 5)
      try doc.updateData(["sum": FieldValue.minimum(Int64(20))])
      try expectValue(doc, 5)
    }
  }

  // FIRNumericTransformTests.testMaximumWithExistingInteger
  @Test func testMaximumWithExistingInteger() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 10])
      try doc.updateData(["sum": FieldValue.maximum(Int64(5))])
      try expectValue(doc, 10)
      try doc.updateData(["sum": FieldValue.maximum(Int64(20))])
      try expectValue(doc, 20)
    }
  }

  // FIRNumericTransformTests.testMinimumWithExistingDouble
  @Test func testMinimumWithExistingDouble() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 10.5])
      try doc.updateData(["sum": FieldValue.minimum(5.5)])
      try expectApproximateValue(doc, 5.5)
      try doc.updateData(["sum": FieldValue.minimum(20.5)])
      try expectApproximateValue(doc, 5.5)
    }
  }

  // FIRNumericTransformTests.testMaximumWithExistingDouble
  @Test func testMaximumWithExistingDouble() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc, ["sum": 10.5])
      try doc.updateData(["sum": FieldValue.maximum(5.5)])
      try expectApproximateValue(doc, 10.5)
      try doc.updateData(["sum": FieldValue.maximum(20.5)])
      try expectApproximateValue(doc, 20.5)
    }
  }

  // FIRNumericTransformTests.testMixedTypesPreserveOperandTypeForMinimum
  @Test func testMixedTypesPreserveOperandTypeForMinimum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // field and input value of mixed types: field takes on type of smaller operand
      try writeInitialData(doc, ["sum": 10])
      try doc.updateData(["sum": FieldValue.minimum(5.5)])
      try expectApproximateValue(doc, 5.5)
      try expectDouble(doc)

      try writeInitialData(doc, ["sum": 10.5])
      try doc.updateData(["sum": FieldValue.minimum(Int64(5))])
      try expectValue(doc, 5)
    }
  }

  // FIRNumericTransformTests.testMixedTypesPreserveOperandTypeForMaximum
  @Test func testMixedTypesPreserveOperandTypeForMaximum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // field and input value of mixed types: field takes on type of larger operand
      try writeInitialData(doc, ["sum": 10])
      try doc.updateData(["sum": FieldValue.maximum(20.5)])
      try expectApproximateValue(doc, 20.5)
      try expectDouble(doc)

      try writeInitialData(doc, ["sum": 10.5])
      try doc.updateData(["sum": FieldValue.maximum(Int64(20))])
      try expectValue(doc, 20)
    }
  }

  // FIRNumericTransformTests.testEquivalentValuesDoNotChangeTypeForMinimum
  @Test func testEquivalentValuesDoNotChangeTypeForMinimum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // equivalent (e.g. 3 and 3.0), field does not change type
      try writeInitialData(doc, ["sum": 3])
      try doc.updateData(["sum": FieldValue.minimum(3.0)])
      try expectValue(doc, 3)

      try writeInitialData(doc, ["sum": 3.0])
      try doc.updateData(["sum": FieldValue.minimum(Int64(3))])
      try expectApproximateValue(doc, 3.0)
      try expectDouble(doc)
    }
  }

  // FIRNumericTransformTests.testEquivalentValuesDoNotChangeTypeForMaximum
  @Test func testEquivalentValuesDoNotChangeTypeForMaximum() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // equivalent (e.g. 3 and 3.0), field does not change type
      try writeInitialData(doc, ["sum": 3])
      try doc.updateData(["sum": FieldValue.maximum(3.0)])
      try expectValue(doc, 3)

      try writeInitialData(doc, ["sum": 3.0])
      try doc.updateData(["sum": FieldValue.maximum(Int64(3))])
      try expectApproximateValue(doc, 3.0)
      try expectDouble(doc)
    }
  }

  // FIRNumericTransformTests.testMinimumWithNaN
  @Test func testMinimumWithNaN() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // If one of the values is NaN, minimum is NaN
      try writeInitialData(doc, ["sum": Double.nan])
      try doc.updateData(["sum": FieldValue.minimum(Int64(5))])
      try expectNaN(doc)

      try writeInitialData(doc, ["sum": 5])
      try doc.updateData(["sum": FieldValue.minimum(Double.nan)])
      try expectNaN(doc)
    }
  }

  // FIRNumericTransformTests.testMaximumWithNaN
  @Test func testMaximumWithNaN() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      // If one of the values is NaN, maximum is NaN
      try writeInitialData(doc, ["sum": Double.nan])
      try doc.updateData(["sum": FieldValue.maximum(Int64(5))])
      try expectNaN(doc)

      try writeInitialData(doc, ["sum": 5])
      try doc.updateData(["sum": FieldValue.maximum(Double.nan)])
      try expectNaN(doc)
    }
  }
}

// MARK: - FIRServerTimestampTests.mm

/// `_setData`, `_initialData`, `_updateData` and the checks of FIRServerTimestampTests.
private enum ServerTimestampData {
  static var setData: [String: Any] {
    [
      "a": 42,
      "when": FieldValue.serverTimestamp(),
      "deep": ["when": FieldValue.serverTimestamp()] as [String: Any],
    ]
  }
  static var initialData: [String: Any] { ["a": 42] }
  static var updateData: [String: Any] {
    [
      "when": FieldValue.serverTimestamp(),
      "deep": ["when": FieldValue.serverTimestamp()] as [String: Any],
    ]
  }

  /// `expectedDataWithTimestamp:`
  static func expectedData(_ timestamp: Any) -> [String: Any] {
    ["a": 42, "when": timestamp, "deep": ["when": timestamp] as [String: Any]]
  }

  /// `verifySnapshotWithResolvedTimestamps:`
  static func verifyResolved(_ snapshot: DocumentSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
    // Tolerate up to 200 seconds of clock skew between client and server.
    let tolerance: Int64 = 200
    #expect(snapshot.exists, sourceLocation: sourceLocation)
    guard let when = snapshot["when"] as? Timestamp else {
      Issue.record("when is not a Timestamp: \(canonical(snapshot["when"]))", sourceLocation: sourceLocation)
      return
    }
    #expect(abs(when.seconds - Timestamp().seconds) <= tolerance, sourceLocation: sourceLocation)
    // Validate the rest of the document.
    expectSame(snapshot.data(), expectedData(when), sourceLocation: sourceLocation)
  }
}

@Suite("Firestore port: server timestamps")
struct FirestorePortServerTimestampTests {
  fileprivate typealias D = ServerTimestampData

  /// `writeInitialData`
  private func writeInitialData(_ doc: DocumentReference) throws {
    try doc.setData(D.initialData)
    expectSame(try doc.getDocument().data(), D.initialData)
  }

  // FIRServerTimestampTests.testServerTimestampsWorkViaSet
  @Test func testServerTimestampsWorkViaSet() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      D.verifyResolved(try doc.getDocument())
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWorkViaUpdate
  @Test func testServerTimestampsWorkViaUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc)
      try doc.updateData(D.updateData)
      D.verifyResolved(try doc.getDocument())
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWithEstimatedValue (the committed snapshot)
  @Test func testServerTimestampsWithEstimatedValue() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      let snapshot = try doc.getDocument()
      // verifyTimestampsAreEstimatedInSnapshot: holds for a resolved timestamp too.
      let timestamp = snapshot.get("when", serverTimestampBehavior: .estimate)
      #expect(timestamp is Timestamp)
      if let timestamp {
        expectSame(snapshot.data(with: .estimate), D.expectedData(timestamp))
      }
      D.verifyResolved(snapshot)
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWithPreviousValue (the committed snapshots)
  @Test func testServerTimestampsWithPreviousValue() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      D.verifyResolved(try doc.getDocument())
      try doc.updateData(D.updateData)
      D.verifyResolved(try doc.getDocument())
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWithPreviousValueOfDifferentType (the committed snapshots)
  @Test func testServerTimestampsWithPreviousValueOfDifferentType() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      D.verifyResolved(try doc.getDocument())

      try doc.updateData(["a": FieldValue.serverTimestamp()])
      let remoteSnapshot = try doc.getDocument()
      #expect(remoteSnapshot.get("a") is Timestamp)
      #expect(remoteSnapshot.get("a", serverTimestampBehavior: .previous) is Timestamp)
      #expect(remoteSnapshot.get("a", serverTimestampBehavior: .estimate) is Timestamp)
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWithConsecutiveUpdates (committed values, no network toggle)
  @Test func testServerTimestampsWithConsecutiveUpdates() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      D.verifyResolved(try doc.getDocument())

      try doc.updateData(["a": FieldValue.serverTimestamp()])
      // include b=1 to ensure there's a change resulting in a new snapshot.
      try doc.updateData(["a": FieldValue.serverTimestamp(), "b": 1])
      let remoteSnapshot = try doc.getDocument()
      #expect(remoteSnapshot.get("a") is Timestamp)
    }
  }

  // FIRServerTimestampTests.testServerTimestampsPreviousValueFromLocalMutation (committed values, no network toggle)
  @Test func testServerTimestampsPreviousValueFromLocalMutation() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(D.setData)
      D.verifyResolved(try doc.getDocument())

      try doc.updateData(["a": FieldValue.serverTimestamp()])
      try doc.updateData(["a": 1337])
      expectSame(try doc.getDocument().get("a"), 1337)
      try doc.updateData(["a": FieldValue.serverTimestamp()])
      let remoteSnapshot = try doc.getDocument()
      #expect(remoteSnapshot.get("a") is Timestamp)
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWorkViaTransactionSet
  @Test func testServerTimestampsWorkViaTransactionSet() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try db.runTransaction { transaction in
        _ = transaction.setData(D.setData, forDocument: doc)
      }
      D.verifyResolved(try doc.getDocument())
    }
  }

  // FIRServerTimestampTests.testServerTimestampsWorkViaTransactionUpdate
  @Test func testServerTimestampsWorkViaTransactionUpdate() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try writeInitialData(doc)
      try db.runTransaction { transaction in
        _ = transaction.updateData(D.updateData, forDocument: doc)
      }
      D.verifyResolved(try doc.getDocument())
    }
  }

  // FIRServerTimestampTests.testServerTimestampsFailViaUpdateOnNonexistentDocument
  @Test func testServerTimestampsFailViaUpdateOnNonexistentDocument() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let signal = Signal()
      let received = Box<Error?>(nil)
      doc.updateData(D.updateData) { error in
        received.value = error
        signal.fire()
      }
      #expect(signal.wait())
      expectHearthError(received.value, .notFound)
    }
  }

  // FIRServerTimestampTests.testServerTimestampsFailViaTransactionUpdateOnNonexistentDocument
  @Test func testServerTimestampsFailViaTransactionUpdateOnNonexistentDocument() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let signal = Signal()
      let received = Box<Error?>(nil)
      db.runTransaction(
        { transaction, _ in
          transaction.updateData(D.updateData, forDocument: doc)
          return nil
        },
        completion: { _, error in
          received.value = error
          signal.fire()
        })
      #expect(signal.wait())
      expectHearthError(received.value, .notFound)
    }
  }
}
