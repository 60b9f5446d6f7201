import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own write batch and transaction integration tests, ported case by case with their
// data and expected results unchanged: FIRWriteBatchTests.mm
// (Firestore/Example/Tests/Integration/API) and FSTTransactionTests.mm
// (Firestore/Example/Tests/Integration). Firestore's batch tests that watch a listener are ported
// as reads of the committed state the server snapshot holds (the latency-compensated local event
// and metadata are left out). Transaction tests about retries and contention (a write outside the
// transaction while it runs, concurrent increments, attempt counts, TransactionOptions) and the
// memory-usage test are left out.

@Suite("Firestore port: batches and transactions")
struct FirestorePortWriteTests {

  /// A fresh document in a fresh collection, as FSTIntegrationTestCase's `documentRef`.
  private func documentRef(_ db: Database) -> DocumentReference {
    collectionRef(db).document()
  }

  /// A fresh collection, as FSTIntegrationTestCase's `collectionRef`.
  private func collectionRef(_ db: Database) -> CollectionReference {
    db.collection(db.collection("c").document().documentID)
  }

  /// The documents' data in query order, as FIRQuerySnapshotGetData.
  private func querySnapshotData(_ query: Query) throws -> [String] {
    try query.getDocuments().documents.map { canonical($0.data()) }
  }

  // MARK: - FIRWriteBatchTests.mm

  // FIRWriteBatchTests.testSupportEmptyBatches
  @Test func testSupportEmptyBatches() throws {
    try withDatabase { db in
      let signal = Signal()
      let result = Box<Error?>(nil)
      db.batch().commit { error in
        result.value = error
        signal.fire()
      }
      #expect(signal.wait())
      #expect(result.value == nil)
    }
  }

  // FIRWriteBatchTests.testCommitWithoutCompletionHandler
  @Test func testCommitWithoutCompletionHandler() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch1 = doc.firestore.batch()
      batch1.setData(["aa": "bb"], forDocument: doc)
      batch1.commit(completion: nil)
      let snapshot1 = try doc.getDocument()
      #expect(snapshot1.exists)
      expectSame(snapshot1.data(), ["aa": "bb"])

      let batch2 = doc.firestore.batch()
      batch2.setData(["cc": "dd"], forDocument: doc)
      try batch2.commit()
      let snapshot2 = try doc.getDocument()
      #expect(snapshot2.exists)
      expectSame(snapshot2.data(), ["cc": "dd"])
    }
  }

  // FIRWriteBatchTests.testSetDocuments
  @Test func testSetDocuments() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      batch.setData(["a": "b"], forDocument: doc)
      batch.setData(["c": "d"], forDocument: doc)
      try batch.commit()
      let snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      expectSame(snapshot.data(), ["c": "d"])
    }
  }

  // FIRWriteBatchTests.testSetDocumentWithMerge
  @Test func testSetDocumentWithMerge() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      batch.setData(["a": "b", "nested": ["a": "b"] as [String: Any]], forDocument: doc)
      batch.setData(["c": "d", "nested": ["c": "d"] as [String: Any]], forDocument: doc, merge: true)
      try batch.commit()
      let snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      expectSame(snapshot.data(), ["a": "b", "c": "d", "nested": ["a": "b", "c": "d"] as [String: Any]])
    }
  }

  // FIRWriteBatchTests.testUpdateDocuments
  @Test func testUpdateDocuments() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["foo": "bar"])
      let batch = doc.firestore.batch()
      batch.updateData(["baz": 42], forDocument: doc)
      try batch.commit()
      let snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      expectSame(snapshot.data(), ["foo": "bar", "baz": 42])
    }
  }

  // FIRWriteBatchTests.testCannotUpdateNonexistentDocuments
  @Test func testCannotUpdateNonexistentDocuments() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      batch.updateData(["baz": 42], forDocument: doc)
      #expect(throws: (any Error).self) { try batch.commit() }
      let result = try doc.getDocument()
      #expect(!result.exists)
    }
  }

  // FIRWriteBatchTests.testUpdateFieldsWithDots
  @Test func testUpdateFieldsWithDots() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      batch.setData(["a.b": "old", "c.d": "old"], forDocument: doc)
      batch.updateData([FieldPath(["a.b"]): "new"], forDocument: doc)
      try batch.commit()
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a.b": "new", "c.d": "old"])
    }
  }

  // FIRWriteBatchTests.testUpdateNestedFields
  @Test func testUpdateNestedFields() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      batch.setData(
        ["a": ["b": "old"] as [String: Any], "c": ["d": "old"] as [String: Any], "e": ["f": "old"] as [String: Any]],
        forDocument: doc)
      batch.updateData(["a.b": "new", FieldPath(["c", "d"]): "new"], forDocument: doc)
      try batch.commit()
      let snapshot = try doc.getDocument()
      expectSame(
        snapshot.data(),
        [
          "a": ["b": "new"] as [String: Any], "c": ["d": "new"] as [String: Any],
          "e": ["f": "old"] as [String: Any],
        ])
    }
  }

  // FIRWriteBatchTests.testDeleteDocuments
  @Test func testDeleteDocuments() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.setData(["foo": "bar"])
      var snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      let batch = doc.firestore.batch()
      batch.deleteDocument(doc)
      try batch.commit()
      snapshot = try doc.getDocument()
      #expect(!snapshot.exists)
    }
  }

  // FIRWriteBatchTests.testBatchesCommitAtomicallyRaisingCorrectEvents
  // (the listener's events are replaced by a query of the committed state.)
  @Test func testBatchesCommitAtomicallyRaisingCorrectEvents() throws {
    try withDatabase { db in
      let collection = collectionRef(db)
      let docA = collection.document("a")
      let docB = collection.document("b")
      #expect(try collection.getDocuments().count == 0)
      // Atomically write two documents.
      let batch = collection.firestore.batch()
      batch.setData(["a": 1], forDocument: docA)
      batch.setData(["b": 2], forDocument: docB)
      try batch.commit()
      let serverSnap = try collection.getDocuments()
      #expect(!serverSnap.metadata.hasPendingWrites)
      #expect(try querySnapshotData(collection) == [canonical(["a": 1]), canonical(["b": 2])])
    }
  }

  // FIRWriteBatchTests.testBatchesFailAtomicallyRaisingCorrectEvents
  // (the listener's events are replaced by a query of the committed state.)
  @Test func testBatchesFailAtomicallyRaisingCorrectEvents() throws {
    try withDatabase { db in
      let collection = collectionRef(db)
      let docA = collection.document("a")
      let docB = collection.document("b")
      #expect(try collection.getDocuments().count == 0)
      // Atomically write 1 document and update a nonexistent document.
      let batch = collection.firestore.batch()
      batch.setData(["a": 1], forDocument: docA)
      batch.updateData(["b": 2], forDocument: docB)
      expectHearthError(.notFound) { try batch.commit() }
      // Server state with the set reverted.
      let serverSnap = try collection.getDocuments()
      #expect(!serverSnap.metadata.hasPendingWrites)
      #expect(serverSnap.count == 0)
    }
  }

  // FIRWriteBatchTests.testWriteTheSameServerTimestampAcrossWrites
  // (the listener's events are replaced by a query of the committed state.)
  @Test func testWriteTheSameServerTimestampAcrossWrites() throws {
    try withDatabase { db in
      let collection = collectionRef(db)
      let docA = collection.document("a")
      let docB = collection.document("b")
      #expect(try collection.getDocuments().count == 0)
      // Atomically write 2 documents with server timestamps.
      let batch = collection.firestore.batch()
      batch.setData(["when": FieldValue.serverTimestamp()], forDocument: docA)
      batch.setData(["when": FieldValue.serverTimestamp()], forDocument: docB)
      try batch.commit()
      let serverSnap = try collection.getDocuments()
      #expect(!serverSnap.metadata.hasPendingWrites)
      #expect(serverSnap.count == 2)
      let when = serverSnap.documents.first?["when"]
      #expect(when is Timestamp)
      #expect(try querySnapshotData(collection) == [canonical(["when": when]), canonical(["when": when])])
    }
  }

  // FIRWriteBatchTests.testCanWriteTheSameDocumentMultipleTimes
  // (the listener's events are replaced by a read of the committed state.)
  @Test func testCanWriteTheSameDocumentMultipleTimes() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      let initialSnap = try doc.getDocument()
      #expect(!initialSnap.exists)
      let batch = doc.firestore.batch()
      batch.deleteDocument(doc)
      batch.setData(["a": 1, "b": 1, "when": "when"], forDocument: doc)
      batch.updateData(["b": 2, "when": FieldValue.serverTimestamp()], forDocument: doc)
      try batch.commit()
      let serverSnap = try doc.getDocument()
      #expect(!serverSnap.metadata.hasPendingWrites)
      let when = serverSnap["when"]
      #expect(when is Timestamp)
      expectSame(serverSnap.data(), ["a": 1, "b": 2, "when": when as Any])
    }
  }

  // FIRWriteBatchTests.testCanWriteVeryLargeBatches
  @Test func testCanWriteVeryLargeBatches() throws {
    try withDatabase { db in
      // Create a map containing nearly 1 MB of data.
      let kb = String(repeating: "a", count: 1000)
      var values: [String: Any] = [:]
      for _ in 0..<1000 {
        values[db.collection("ids").document().documentID] = kb
      }
      let doc = documentRef(db)
      let batch = doc.firestore.batch()
      // Write a batch containing 3 copies of the data, creating a ~3 MB batch.
      batch.setData(values, forDocument: doc)
      for _ in 0..<2 {
        batch.updateData(values, forDocument: doc)
      }
      try batch.commit()
      let snap = try doc.getDocument()
      expectSame(snap.data(), values)
    }
  }

  // MARK: - FSTTransactionTests.mm

  /// One step of FSTTransactionTests' transaction tester.
  struct Stage: Sendable {
    let name: String
    let run: @Sendable (Transaction, DocumentReference) -> Void
  }

  static let delete1 = Stage(name: "delete") { transaction, doc in transaction.deleteDocument(doc) }
  static let update1 = Stage(name: "update") { transaction, doc in
    transaction.updateData(["foo": "bar1"], forDocument: doc)
  }
  static let update2 = Stage(name: "update") { transaction, doc in
    transaction.updateData(["foo": "bar2"], forDocument: doc)
  }
  static let set1 = Stage(name: "set") { transaction, doc in transaction.setData(["foo": "bar1"], forDocument: doc) }
  static let set2 = Stage(name: "set") { transaction, doc in transaction.setData(["foo": "bar2"], forDocument: doc) }
  static let get = Stage(name: "get") { transaction, doc in _ = try? transaction.getDocument(doc) }

  enum FromDocument: String {
    /// The operation will be performed on a document that exists.
    case existing
    /// The operation will be performed on a document that has never existed.
    case nonexistent
    /// The operation will be performed on a document that existed, but was deleted.
    case deleted
  }

  /// FSTTransactionTester: prepares a document, runs the stages in one transaction, checks the end.
  struct TransactionTester {
    let db: Database
    var from = FromDocument.nonexistent
    var stages: [Stage] = []

    func withExistingDoc() -> TransactionTester {
      var t = self
      t.from = .existing
      return t
    }
    func withNonexistentDoc() -> TransactionTester {
      var t = self
      t.from = .nonexistent
      return t
    }
    func withDeletedDoc() -> TransactionTester {
      var t = self
      t.from = .deleted
      return t
    }
    func runWithStages(_ stages: [Stage]) -> TransactionTester {
      var t = self
      t.stages = stages
      return t
    }

    private var stageNames: String { "\(from) doc, [\(stages.map(\.name).joined(separator: ", "))]" }

    private func prepareDoc() throws -> DocumentReference {
      let docRef = db.collection("nonexistent").document()
      switch from {
      case .existing:
        try docRef.setData(["foo": "bar"])
      case .nonexistent:
        break
      case .deleted:
        try docRef.setData(["foo": "bar"])
        try docRef.delete()
      }
      return docRef
    }

    private func runSuccessfulTransaction(_ docRef: DocumentReference, _ sourceLocation: SourceLocation) -> Bool {
      do {
        _ = try db.runTransaction { transaction -> Bool in
          for stage in stages { stage.run(transaction, docRef) }
          return true
        }
        return true
      } catch {
        Issue.record("Expected the sequence \(stageNames) to succeed, but got \(error)", sourceLocation: sourceLocation)
        return false
      }
    }

    func expectDoc(_ expected: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
      let docRef = try prepareDoc()
      guard runSuccessfulTransaction(docRef, sourceLocation) else { return }
      let snapshot = try docRef.getDocument()
      #expect(snapshot.exists, "\(stageNames)", sourceLocation: sourceLocation)
      expectSame(snapshot.data(), expected, stageNames, sourceLocation: sourceLocation)
    }

    func expectNoDoc(sourceLocation: SourceLocation = #_sourceLocation) throws {
      let docRef = try prepareDoc()
      guard runSuccessfulTransaction(docRef, sourceLocation) else { return }
      let snapshot = try docRef.getDocument()
      #expect(!snapshot.exists, "\(stageNames)", sourceLocation: sourceLocation)
    }

    func expectError(_ expected: HearthError.Code, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let docRef = try prepareDoc()
      expectHearthError(expected, "Expected the sequence \(stageNames) to fail", sourceLocation: sourceLocation) {
        _ = try db.runTransaction { transaction -> Bool in
          for stage in stages { stage.run(transaction, docRef) }
          return true
        }
      }
    }
  }

  // FSTTransactionTests.testRunsTransactionsAfterGettingExistingDoc
  @Test func testRunsTransactionsAfterGettingExistingDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (get, delete1, update1, update2, set1, set2) = (
        Self.get, Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2
      )
      try tt.withExistingDoc().runWithStages([get, delete1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([get, delete1, update2]).expectError(.invalidArgument)
      try tt.withExistingDoc().runWithStages([get, delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withExistingDoc().runWithStages([get, update1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([get, update1, update2]).expectDoc(["foo": "bar2"])
      try tt.withExistingDoc().runWithStages([get, update1, set2]).expectDoc(["foo": "bar2"])

      try tt.withExistingDoc().runWithStages([get, set1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([get, set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withExistingDoc().runWithStages([get, set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testRunsTransactionsAfterGettingNonexistentDoc
  @Test func testRunsTransactionsAfterGettingNonexistentDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (get, delete1, update1, update2, set1, set2) = (
        Self.get, Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2
      )
      try tt.withNonexistentDoc().runWithStages([get, delete1, delete1]).expectNoDoc()
      try tt.withNonexistentDoc().runWithStages([get, delete1, update2]).expectError(.invalidArgument)
      try tt.withNonexistentDoc().runWithStages([get, delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withNonexistentDoc().runWithStages([get, update1, delete1]).expectError(.invalidArgument)
      try tt.withNonexistentDoc().runWithStages([get, update1, update2]).expectError(.invalidArgument)
      try tt.withNonexistentDoc().runWithStages([get, update1, set2]).expectError(.invalidArgument)

      try tt.withNonexistentDoc().runWithStages([get, set1, delete1]).expectNoDoc()
      try tt.withNonexistentDoc().runWithStages([get, set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withNonexistentDoc().runWithStages([get, set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testRunsTransactionsAfterGettingDeletedDoc
  @Test func testRunsTransactionsAfterGettingDeletedDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (get, delete1, update1, update2, set1, set2) = (
        Self.get, Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2
      )
      try tt.withDeletedDoc().runWithStages([get, delete1, delete1]).expectNoDoc()
      try tt.withDeletedDoc().runWithStages([get, delete1, update2]).expectError(.invalidArgument)
      try tt.withDeletedDoc().runWithStages([get, delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withDeletedDoc().runWithStages([get, update1, delete1]).expectError(.invalidArgument)
      try tt.withDeletedDoc().runWithStages([get, update1, update2]).expectError(.invalidArgument)
      try tt.withDeletedDoc().runWithStages([get, update1, set2]).expectError(.invalidArgument)

      try tt.withDeletedDoc().runWithStages([get, set1, delete1]).expectNoDoc()
      try tt.withDeletedDoc().runWithStages([get, set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withDeletedDoc().runWithStages([get, set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testRunsTransactionOnExistingDoc
  @Test func testRunsTransactionOnExistingDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (delete1, update1, update2, set1, set2) = (Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2)
      try tt.withExistingDoc().runWithStages([delete1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([delete1, update2]).expectError(.invalidArgument)
      try tt.withExistingDoc().runWithStages([delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withExistingDoc().runWithStages([update1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([update1, update2]).expectDoc(["foo": "bar2"])
      try tt.withExistingDoc().runWithStages([update1, set2]).expectDoc(["foo": "bar2"])

      try tt.withExistingDoc().runWithStages([set1, delete1]).expectNoDoc()
      try tt.withExistingDoc().runWithStages([set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withExistingDoc().runWithStages([set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testRunsTransactionsOnNonexistentDoc
  @Test func testRunsTransactionsOnNonexistentDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (delete1, update1, update2, set1, set2) = (Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2)
      try tt.withNonexistentDoc().runWithStages([delete1, delete1]).expectNoDoc()
      try tt.withNonexistentDoc().runWithStages([delete1, update2]).expectError(.invalidArgument)
      try tt.withNonexistentDoc().runWithStages([delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withNonexistentDoc().runWithStages([update1, delete1]).expectError(.notFound)
      try tt.withNonexistentDoc().runWithStages([update1, update2]).expectError(.notFound)
      try tt.withNonexistentDoc().runWithStages([update1, set2]).expectError(.notFound)

      try tt.withNonexistentDoc().runWithStages([set1, delete1]).expectNoDoc()
      try tt.withNonexistentDoc().runWithStages([set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withNonexistentDoc().runWithStages([set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testRunsTransactionsOnDeletedDoc
  @Test func testRunsTransactionsOnDeletedDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let tt = TransactionTester(db: db)
      let (delete1, update1, update2, set1, set2) = (Self.delete1, Self.update1, Self.update2, Self.set1, Self.set2)
      try tt.withDeletedDoc().runWithStages([delete1, delete1]).expectNoDoc()
      try tt.withDeletedDoc().runWithStages([delete1, update2]).expectError(.invalidArgument)
      try tt.withDeletedDoc().runWithStages([delete1, set2]).expectDoc(["foo": "bar2"])

      try tt.withDeletedDoc().runWithStages([update1, delete1]).expectError(.notFound)
      try tt.withDeletedDoc().runWithStages([update1, update2]).expectError(.notFound)
      try tt.withDeletedDoc().runWithStages([update1, set2]).expectError(.notFound)

      try tt.withDeletedDoc().runWithStages([set1, delete1]).expectNoDoc()
      try tt.withDeletedDoc().runWithStages([set1, update2]).expectDoc(["foo": "bar2"])
      try tt.withDeletedDoc().runWithStages([set1, set2]).expectDoc(["foo": "bar2"])
    }
  }

  // FSTTransactionTests.testSetDocumentWithMerge
  @Test func testTransactionSetDocumentWithMerge() throws {
    try withDatabase { firestore in
      let doc = firestore.collection("towns").document()
      let result = try firestore.runTransaction { transaction -> Bool in
        transaction.setData(["a": "b", "nested": ["a": "b"] as [String: Any]], forDocument: doc)
        transaction.setData(["c": "d", "nested": ["c": "d"] as [String: Any]], forDocument: doc, merge: true)
        return true
      }
      #expect(result == true)
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a": "b", "c": "d", "nested": ["a": "b", "c": "d"] as [String: Any]])
    }
  }

  // FSTTransactionTests.testCanHaveGetsWithoutMutations
  @Test func testCanHaveGetsWithoutMutations() throws {
    try withDatabase { firestore in
      let doc = firestore.collection("foo").document()
      let doc2 = firestore.collection("foo").document()
      try doc.setData(["foo": "bar"])
      try firestore.runTransaction { transaction in
        _ = try transaction.getDocument(doc2)
        _ = try transaction.getDocument(doc)
      }
      let snapshot = try doc.getDocument()
      expectSame(snapshot["foo"], "bar")
    }
  }

  // FSTTransactionTests.testDoesNotRetryOnPermanentError
  @Test func testDoesNotRetryOnPermanentError() throws {
    try withDatabase { firestore in
      let counter = Box(0)
      // Make a transaction that should fail with a permanent error
      expectHearthError(.invalidArgument) {
        try firestore.runTransaction { transaction in
          counter.mutate { $0 += 1 }
          // Get and update a document that doesn't exist so that the transaction fails.
          let doc = firestore.collection("nonexistent").document()
          _ = try? transaction.getDocument(doc)
          transaction.updateData(["count": 16], forDocument: doc)
        }
      }
      #expect(counter.value == 1)
    }
  }

  // FSTTransactionTests.testSuccessWithNoTransactionOperations
  @Test func testSuccessWithNoTransactionOperations() throws {
    try withDatabase { firestore in
      let signal = Signal()
      let outcome = Box<(result: Any?, error: Error?)>((nil, nil))
      firestore.runTransaction(
        { _, _ -> Any? in "yes" },
        completion: { result, error in
          outcome.value = (result, error)
          signal.fire()
        })
      #expect(signal.wait())
      #expect(outcome.value.result as? String == "yes")
      #expect(outcome.value.error == nil)
    }
  }

  // FSTTransactionTests.testCancellationOnError
  @Test func testCancellationOnError() throws {
    try withDatabase { firestore in
      let doc = firestore.collection("towns").document()
      let counter = Box(0)
      let signal = Signal()
      let outcome = Box<(result: Any?, error: Error?)>((nil, nil))
      firestore.runTransaction(
        { transaction, error -> Any? in
          counter.mutate { $0 += 1 }
          transaction.setData(["foo": "bar"], forDocument: doc)
          error?.pointee = NSError(domain: NSCocoaErrorDomain, code: 35, userInfo: [:])
          return nil
        },
        completion: { result, error in
          outcome.value = (result, error)
          signal.fire()
        })
      #expect(signal.wait())
      #expect(outcome.value.result == nil)
      #expect(outcome.value.error != nil)
      #expect((outcome.value.error as NSError?)?.code == 35)
      #expect(counter.value == 1)
      let snapshot = try doc.getDocument()
      #expect(!snapshot.exists)
    }
  }

  // FSTTransactionTests.testUpdateFieldsWithDotsTransactionally
  @Test func testUpdateFieldsWithDotsTransactionally() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.firestore.runTransaction { transaction in
        transaction.setData(["a.b": "old", "c.d": "old"], forDocument: doc)
        transaction.updateData([FieldPath(["a.b"]): "new"], forDocument: doc)
      }
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a.b": "new", "c.d": "old"])
    }
  }

  // FSTTransactionTests.testUpdateNestedFieldsTransactionally
  @Test func testUpdateNestedFieldsTransactionally() throws {
    try withDatabase { db in
      let doc = documentRef(db)
      try doc.firestore.runTransaction { transaction in
        transaction.setData(
          [
            "a": ["b": "old"] as [String: Any], "c": ["d": "old"] as [String: Any],
            "e": ["f": "old"] as [String: Any],
          ], forDocument: doc)
        transaction.updateData(["a.b": "new", FieldPath(["c", "d"]): "new"], forDocument: doc)
      }
      let snapshot = try doc.getDocument()
      expectSame(
        snapshot.data(),
        [
          "a": ["b": "new"] as [String: Any], "c": ["d": "new"] as [String: Any],
          "e": ["f": "old"] as [String: Any],
        ])
    }
  }
}
