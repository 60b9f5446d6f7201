import Foundation
import Hearth
import HearthTestSupport
import Testing

/// WriteBatch (all or nothing, in order, once) and runTransaction (reads before writes,
/// one snapshot, atomic, rolled back by errors) — docs/semantics.md "Writes", Firestore's
/// FIRWriteBatchTests and FIRTransactionTests.
@Suite struct BatchAndTransactionTests {
  struct AppError: Error, Equatable { let reason: String }

  // MARK: - WriteBatch

  @Test func batchCommitsEveryWrite() throws {
    try withDatabase { db in
      let a = db.document("b/a")
      let b = db.document("b/b")
      let c = db.document("b/c")
      try c.setData(["old": true])
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: a)
        .setData(["b": 1], forDocument: b, merge: true)
        .updateData(["old": false, "new": 1], forDocument: c)
      try batch.commit()
      expectSame(try a.getDocument().data(), ["a": 1])
      expectSame(try b.getDocument().data(), ["b": 1])
      expectSame(try c.getDocument().data(), ["old": false, "new": 1])
    }
  }

  @Test func aFailingUpdateInTheMiddleRollsBackEveryWrite() throws {
    try withDatabase { db in
      let existing = db.document("b/existing")
      try existing.setData(["v": 1])
      let before = try databaseContents(db)
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("b/first"))
      batch.updateData(["v": 2], forDocument: existing)
      batch.deleteDocument(existing)
      batch.setData(["x": 1], forDocument: db.document("fresh/one"))
      batch.updateData(["a": 1], forDocument: db.document("b/missing"))
      batch.setData(["c": 3], forDocument: db.document("b/last"))
      expectHearthError(.notFound, mentioning: ["b/missing"]) { try batch.commit() }
      #expect(try databaseContents(db) == before)
      #expect(try !db.document("b/first").getDocument().exists)
      #expect(try !db.document("b/last").getDocument().exists)
      expectSame(try existing.getDocument().data(), ["v": 1])
      #expect(
        try db.listCollections().map(\.collectionID) == ["b"], "the collection created by the failed batch is gone")
    }
  }

  @Test func anAbortedCommitLeavesNoTraceOfItsNewCollections() throws {
    // A commit that registers new collections and then fails must not leave them (or their
    // internal numbers) behind for the next commits.
    try withDatabase { db in
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("ghosts/a"))
      batch.setData(["a": 1], forDocument: db.document("ghosts/a/sub/s"))
      batch.updateData(["x": 1], forDocument: db.document("nowhere/x"))
      expectHearthError(.notFound) { try batch.commit() }

      try db.document("real/r").setData(["r": 1])
      try db.document("real/r/inner/i").setData(["i": 1])
      try db.document("other/o").setData(["o": 1])
      #expect(try db.listCollections().map(\.collectionID) == ["other", "real"])
      #expect(try !db.document("ghosts/a").getDocument().exists)
      #expect(try db.collection("ghosts").getDocuments().isEmpty)
      #expect(try db.collection("ghosts").listDocuments().isEmpty)
      #expect(try db.collection("ghosts/a/sub").getDocuments().isEmpty)
      expectSame(try db.document("real/r").getDocument().data(), ["r": 1])
      expectSame(try db.document("other/o").getDocument().data(), ["o": 1])
      #expect(try db.collection("real").getDocuments().documents.map(\.documentID) == ["r"])
      #expect(try db.collection("other").getDocuments().documents.map(\.documentID) == ["o"])
      #expect(try db.collectionGroup("inner").getDocuments().documents.map(\.reference.path) == ["real/r/inner/i"])
      #expect(try db.collectionGroup("sub").getDocuments().isEmpty)
      // The failed collections can be used for real afterwards.
      try db.document("ghosts/b").setData(["b": 1])
      #expect(try db.collection("ghosts").getDocuments().documents.map(\.documentID) == ["b"])
      #expect(try db.collection("real").getDocuments().documents.map(\.documentID) == ["r"])
    }
  }

  @Test func aCreateOfAnExistingDocumentRollsBackTheBatch() throws {
    try withDatabase { db in
      let existing = db.document("b/existing")
      try existing.setData(["v": 1])
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("b/first"))
      batch.create(["v": 2], forDocument: existing)
      expectHearthError(.alreadyExists, mentioning: ["b/existing"]) { try batch.commit() }
      #expect(try !db.document("b/first").getDocument().exists)
      expectSame(try existing.getDocument().data(), ["v": 1])
    }
  }

  @Test func createTwiceInOneBatchOrTransactionFails() throws {
    try withDatabase { db in
      let doc = db.document("b/twice")
      let batch = db.batch()
      batch.create(["v": 1], forDocument: doc)
      batch.create(["v": 2], forDocument: doc)
      expectHearthError(.alreadyExists) { try batch.commit() }
      #expect(try !doc.getDocument().exists)

      try doc.setData(["v": 0])
      expectHearthError(.alreadyExists) {
        try db.runTransaction { transaction in
          transaction.setData(["other": true], forDocument: db.document("b/other"))
          transaction.create(["v": 3], forDocument: doc)
        }
      }
      expectSame(try doc.getDocument().data(), ["v": 0])
      #expect(try !db.document("b/other").getDocument().exists)
    }
  }

  @Test func writesToOneDocumentInOneBatchApplyInOrder() throws {
    try withDatabase { db in
      let doc = db.document("b/ordered")
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: doc)
      batch.updateData(["b": 2], forDocument: doc)  // the document exists by now
      batch.setData(["c": 3], forDocument: doc, merge: true)
      batch.updateData(["a": FieldValue.increment(10)], forDocument: doc)
      batch.setData(["d": 4, "a": 0], forDocument: doc, mergeFields: ["d"])
      try batch.commit()
      expectSame(try doc.getDocument().data(), ["a": 11, "b": 2, "c": 3, "d": 4])

      let deleted = db.document("b/deleted")
      try db.batch().setData(["x": 1], forDocument: deleted).deleteDocument(deleted).commit()
      #expect(try !deleted.getDocument().exists)

      let recreated = db.document("b/recreated")
      try recreated.setData(["old": true])
      try db.batch().deleteDocument(recreated).setData(["new": true], forDocument: recreated).commit()
      expectSame(try recreated.getDocument().data(), ["new": true])

      // An update after a delete in the same batch fails, and so does the whole batch.
      let gone = db.document("b/gone")
      try gone.setData(["x": 1])
      let failing = db.batch().deleteDocument(gone).updateData(["y": 1], forDocument: gone)
      expectHearthError(.notFound) { try failing.commit() }
      expectSame(try gone.getDocument().data(), ["x": 1])
    }
  }

  @Test func aBatchCannotBeCommittedTwice() throws {
    try withDatabase { db in
      let doc = db.document("b/once")
      let batch = db.batch()
      batch.updateData(["n": FieldValue.increment(1)], forDocument: doc)
      try doc.setData(["n": 0])
      try batch.commit()
      let error = expectHearthError(.failedPrecondition) { try batch.commit() }
      #expect(error != nil)
      expectSame(try doc.getDocument().get("n"), 1, "the second commit wrote nothing")

      // A batch whose commit failed cannot be retried either.
      let failed = db.batch().updateData(["n": 5], forDocument: db.document("b/missing"))
      expectHearthError(.notFound) { try failed.commit() }
      expectHearthError(.failedPrecondition) { try failed.commit() }
    }
  }

  @Test func anEmptyBatchCommits() throws {
    try withDatabase { db in
      try db.batch().commit()
      #expect(try db.listCollections().isEmpty)
    }
  }

  @Test func aLargeBatchHasNoWriteCap() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for i in 0..<1200 {
        batch.setData(["i": i], forDocument: db.collection("many").document(String(format: "%05d", i)))
      }
      try batch.commit()
      let documents = try db.collection("many").getDocuments().documents
      #expect(documents.count == 1200)
      #expect(documents.first?.documentID == "00000")
      #expect(documents.last?.get("i") as? Int64 == 1199)
      let times = Set(documents.map(\.updateTime))
      #expect(times.count == 1, "one commit")
    }
  }

  // MARK: - runTransaction

  @Test func transactionReturnsTheClosureValue() throws {
    try withDatabase { db in
      let value: Int = try db.runTransaction { _ in 42 }
      #expect(value == 42)
      let doc = db.document("t/counter")
      try doc.setData(["count": 5])
      let newCount: Int64 = try db.runTransaction { transaction in
        let count = try transaction.getDocument(doc).get("count") as? Int64 ?? 0
        transaction.updateData(["count": count + 1], forDocument: doc)
        return count + 1
      }
      #expect(newCount == 6)
      expectSame(try doc.getDocument().get("count"), 6)
    }
  }

  @Test func transactionWritesEveryKind() throws {
    try withDatabase { db in
      let a = db.document("t/a")
      let b = db.document("t/b")
      let c = db.document("t/c")
      let d = db.document("t/d")
      try b.setData(["keep": 1, "change": 1])
      try c.setData(["x": 1])
      try db.runTransaction { transaction in
        transaction.setData(["a": 1], forDocument: a)
        transaction.setData(["change": 2], forDocument: b, merge: true)
        transaction.setData(["y": 2, "z": 3], forDocument: c, mergeFields: ["y"])
        transaction.deleteDocument(d)
        transaction.create(["new": true], forDocument: db.document("t/e"))
      }
      expectSame(try a.getDocument().data(), ["a": 1])
      expectSame(try b.getDocument().data(), ["keep": 1, "change": 2])
      expectSame(try c.getDocument().data(), ["x": 1, "y": 2])
      expectSame(try db.document("t/e").getDocument().data(), ["new": true])
      let times = Set(try ["t/a", "t/b", "t/c", "t/e"].map { try db.document($0).getDocument().updateTime })
      #expect(times.count == 1, "one commit time for all the writes")
    }
  }

  @Test func aReadAfterAWriteIsInvalid() throws {
    try withDatabase { db in
      let doc = db.document("t/read-after-write")
      try doc.setData(["v": 1])
      expectHearthError(.invalidArgument, mentioning: ["read"]) {
        try db.runTransaction { transaction in
          transaction.setData(["v": 2], forDocument: doc)
          _ = try transaction.getDocument(doc)
        }
      }
      expectSame(try doc.getDocument().data(), ["v": 1], "nothing written")

      // The read itself throws, and the transaction fails even if the closure goes on
      // (TransactionReadAfterWriteTests has every form).
      var thrown: HearthError?
      expectHearthError(.invalidArgument, mentioning: ["read"]) {
        try db.runTransaction { transaction in
          _ = try transaction.getDocument(doc)
          transaction.updateData(["v": 3], forDocument: doc)
          do { _ = try transaction.getDocument(db.document("t/other")) } catch let error as HearthError {
            thrown = error
          }
        }
      }
      #expect(thrown?.code == .invalidArgument)
      expectSame(try doc.getDocument().data(), ["v": 1], "nothing written")
    }
  }

  @Test func readsSeeOneSnapshot() throws {
    try withDatabase { db in
      let a = db.document("t/a")
      let b = db.document("t/b")
      try a.setData(["v": 1])
      try b.setData(["v": 1])
      let started = Signal()
      let writerDone = Signal()
      let seen: (Int64?, Int64?) = try db.runTransaction { transaction in
        let first = try transaction.getDocument(a).get("v") as? Int64
        // Another thread commits while the transaction is open.
        Thread.detachNewThread {
          started.fire()
          try? db.batch().setData(["v": 2], forDocument: a).setData(["v": 2], forDocument: b).commit()
          writerDone.fire()
        }
        _ = started.wait()
        // The closure runs inside the write transaction: the other commit waits for it.
        #expect(!writerDone.wait(seconds: 0.1), "another commit completed while the transaction was open")
        let second = try transaction.getDocument(b).get("v") as? Int64
        return (first, second)
      }
      #expect(seen.0 == 1)
      #expect(seen.1 == 1, "b is read from the same snapshot as a")
      #expect(writerDone.wait(), "the other writer completes after the transaction")
      expectSame(try a.getDocument().get("v"), 2)
      expectSame(try b.getDocument().get("v"), 2)
    }
  }

  @Test func repeatedReadsInATransactionAgree() throws {
    try withDatabase { db in
      let doc = db.document("t/repeat")
      try doc.setData(["v": 1])
      try db.runTransaction { transaction in
        let first = try transaction.getDocument(doc)
        let second = try transaction.getDocument(doc)
        #expect(first.updateTime == second.updateTime)
        expectSame(first.data(), second.data())
      }
    }
  }

  @Test func updateOfADocumentReadAsMissingIsInvalidAndWritesNothing() throws {
    try withDatabase { db in
      let missing = db.document("t/missing")
      let other = db.document("t/other")
      expectHearthError(.invalidArgument, mentioning: ["doesn't exist"]) {
        try db.runTransaction { transaction in
          let snapshot = try transaction.getDocument(missing)
          #expect(!snapshot.exists)
          transaction.setData(["written": true], forDocument: other)
          transaction.updateData(["a": 1], forDocument: missing)
        }
      }
      let missingAfter = try missing.getDocument()
      let otherAfter = try other.getDocument()
      let collections = try db.listCollections()
      #expect(!missingAfter.exists)
      #expect(!otherAfter.exists)
      #expect(collections.isEmpty)
    }
  }

  @Test func updateAfterDeleteInTheSameTransactionIsInvalid() throws {
    try withDatabase { db in
      let doc = db.document("t/deleted")
      try doc.setData(["v": 1])
      expectHearthError(.invalidArgument, mentioning: ["doesn't exist"]) {
        try db.runTransaction { transaction in
          _ = try transaction.getDocument(doc)
          transaction.deleteDocument(doc)
          transaction.updateData(["v": 2], forDocument: doc)
        }
      }
      expectSame(try doc.getDocument().data(), ["v": 1])
      // Without the read too.
      expectHearthError(.invalidArgument) {
        try db.runTransaction { transaction in
          transaction.deleteDocument(doc)
          transaction.updateData(["v": 2], forDocument: doc)
        }
      }
      expectSame(try doc.getDocument().data(), ["v": 1])
    }
  }

  @Test func setAfterReadingAsMissingThenUpdateWorks() throws {
    try withDatabase { db in
      let doc = db.document("t/created")
      try db.runTransaction { transaction in
        let before = try transaction.getDocument(doc)
        #expect(!before.exists)
        transaction.setData(["v": 1], forDocument: doc)
        transaction.updateData(["w": 2], forDocument: doc)
      }
      expectSame(try doc.getDocument().data(), ["v": 1, "w": 2])
    }
  }

  @Test func updateOfAnUnreadMissingDocumentFailsAndWritesNothing() throws {
    try withDatabase { db in
      let other = db.document("t/other")
      expectHearthError(.notFound) {
        try db.runTransaction { transaction in
          transaction.setData(["v": 1], forDocument: other)
          transaction.updateData(["a": 1], forDocument: db.document("t/never"))
        }
      }
      let otherAfter = try other.getDocument()
      #expect(!otherAfter.exists)
    }
  }

  @Test func anErrorThrownByTheClosureRollsBackAndIsRethrown() throws {
    try withDatabase { db in
      let doc = db.document("t/rollback")
      try doc.setData(["v": 1])
      do {
        try db.runTransaction { transaction in
          _ = try transaction.getDocument(doc)
          transaction.updateData(["v": 2], forDocument: doc)
          transaction.setData(["new": true], forDocument: db.document("t/new"))
          throw AppError(reason: "changed my mind")
        }
        Issue.record("the transaction should have thrown")
      } catch let error as AppError {
        #expect(error == AppError(reason: "changed my mind"))
      }
      expectSame(try doc.getDocument().data(), ["v": 1])
      #expect(try !db.document("t/new").getDocument().exists)
    }
  }

  @Test func aTransactionWithOnlyReadsWritesNothing() throws {
    try withDatabase { db in
      let doc = db.document("t/read-only")
      try doc.setData(["v": 1])
      let before = try doc.getDocument().updateTime
      let data = try db.runTransaction { transaction in try transaction.getDocument(doc).data() }
      expectSame(data, ["v": 1])
      #expect(try doc.getDocument().updateTime == before)
    }
  }

  @Test func concurrentTransactionsNeverLoseAnIncrement() throws {
    try withDatabase(settings: relaxed) { db in
      let doc = db.document("t/shared")
      try doc.setData(["count": 0])
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<25 {
          do {
            try db.runTransaction { transaction in
              let count = try transaction.getDocument(doc).get("count") as? Int64 ?? -1_000
              transaction.updateData(["count": count + 1], forDocument: doc)
            }
          } catch {
            Issue.record("transaction failed: \(error)")
          }
        }
      }
      expectSame(try doc.getDocument().get("count"), 100)
    }
  }

  // MARK: - Firebase's NSErrorPointer form

  @Test func firebaseFormReturnsTheBlockResult() async throws {
    try await withDatabase { db in
      let doc = db.document("t/firebase")
      try await doc.setData(["population": 10])
      let result = try await db.runTransaction { transaction, errorPointer -> Any? in
        let snapshot: DocumentSnapshot
        do {
          snapshot = try transaction.getDocument(doc)
        } catch let error as NSError {
          errorPointer?.pointee = error
          return nil
        }
        let population = snapshot.get("population") as? Int64 ?? 0
        transaction.updateData(["population": population + 1], forDocument: doc)
        return population + 1
      }
      #expect(result as? Int64 == 11)
      expectSame(try await doc.getDocument().get("population"), 11)
    }
  }

  @Test func firebaseFormFailsWhenTheErrorPointerIsSet() async throws {
    try await withDatabase { db in
      let doc = db.document("t/firebase-error")
      try await doc.setData(["v": 1])
      do {
        _ = try await db.runTransaction { transaction, errorPointer -> Any? in
          transaction.updateData(["v": 2], forDocument: doc)
          transaction.setData(["x": 1], forDocument: db.document("t/extra"))
          errorPointer?.pointee = NSError(
            domain: "AppErrorDomain", code: -1, userInfo: [NSLocalizedDescriptionKey: "nope"])
          return "ignored"
        }
        Issue.record("the transaction should have failed")
      } catch {
        let nsError = error as NSError
        #expect(nsError.domain == "AppErrorDomain")
        #expect(nsError.code == -1)
      }
      expectSame(try await doc.getDocument().data(), ["v": 1])
      let extra = try await db.document("t/extra").getDocument()
      #expect(!extra.exists)
    }
  }

  @Test func firebaseFormCompletionRunsOnTheSettingsQueue() throws {
    let queue = DispatchQueue(label: "test.callbacks")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "callbacks")
    let settings = Settings()
    settings.dispatchQueue = queue
    try withDatabase(settings: settings) { db in
      let doc = db.document("t/completion")
      try doc.setData(["v": 1])
      let done = Signal()
      let outcome = Box<(result: String?, error: Error?, queue: String?)>((nil, nil, nil))
      db.runTransaction(
        { transaction, _ -> Any? in
          let v = (try? transaction.getDocument(doc).get("v") as? Int64) ?? 0
          transaction.updateData(["v": v + 1], forDocument: doc)
          return "done"
        },
        completion: { result, error in
          outcome.value = (result as? String, error, DispatchQueue.getSpecific(key: key))
          done.fire()
        })
      #expect(done.wait(), "the completion ran")
      #expect(outcome.value.result == "done")
      #expect(outcome.value.error == nil)
      #expect(outcome.value.queue == "callbacks", "delivered on Settings.dispatchQueue")
      expectSame(try doc.getDocument().get("v"), 2)

      let failed = Signal()
      let failure = Box<(result: Any?, error: Error?, queue: String?)>((nil, nil, nil))
      db.runTransaction(
        { transaction, errorPointer -> Any? in
          transaction.updateData(["v": 100], forDocument: doc)
          errorPointer?.pointee = NSError(domain: "AppErrorDomain", code: 7)
          return nil
        },
        completion: { result, error in
          failure.value = (result, error, DispatchQueue.getSpecific(key: key))
          failed.fire()
        })
      #expect(failed.wait())
      #expect(failure.value.result == nil)
      #expect((failure.value.error as NSError?)?.code == 7)
      #expect(failure.value.queue == "callbacks")
      expectSame(try doc.getDocument().get("v"), 2)
    }
  }

  @Test func asyncTransactionAndBatchForms() async throws {
    try await withDatabase { db in
      let doc = db.document("t/async")
      try await doc.setData(["v": 1])
      let value = try await db.runTransaction { transaction -> Int64 in
        let v = try transaction.getDocument(doc).get("v") as? Int64 ?? 0
        transaction.updateData(["v": v * 10], forDocument: doc)
        return v * 10
      }
      #expect(value == 10)
      let batch = db.batch()
      batch.updateData(["w": true], forDocument: doc)
      try await batch.commit()
      expectSame(try await doc.getDocument().data(), ["v": 10, "w": true])
      await expectHearthError(.invalidArgument) {
        _ = try await db.runTransaction { transaction -> Int in
          transaction.setData(["v": 0], forDocument: doc)
          _ = try transaction.getDocument(doc)
          return 0
        }
      }
      expectSame(try await doc.getDocument().get("v"), 10)
    }
  }
}
