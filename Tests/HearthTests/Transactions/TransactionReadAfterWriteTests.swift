import Foundation
import Hearth
import HearthTestSupport
import Testing

/// A read after a write fails the whole transaction, even when the closure catches the
/// error and goes on (the JS SDK's "cannot read after writing, even if the error is not
/// bubbled up"): the commit fails with the same error and nothing is written, in every
/// form of `runTransaction`.
@Suite struct TransactionReadAfterWriteTests {
  private static let message = "Firestore transactions require all reads to be executed before all writes."

  /// Writes `a`, reads `b` after it and swallows the error, writes `c`: what a closure
  /// that ignores the failed read does. Records the error the read threw.
  private static func swallowRead(_ transaction: Transaction, _ db: Database, caught: Box<Error?>) {
    transaction.setData(["v": 1], forDocument: db.document("raw/a"))
    do {
      _ = try transaction.getDocument(db.document("raw/b"))
      Issue.record("the read after a write should have thrown")
    } catch {
      caught.value = error
    }
    transaction.setData(["v": 1], forDocument: db.document("raw/c"))
  }

  /// Nothing was written, and the read threw the error the commit reported.
  private static func expectNothingWritten(
    _ db: Database, caught: Box<Error?>, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try databaseContents(db).isEmpty, "nothing is written", sourceLocation: sourceLocation)
    expectHearthError(caught.value, .invalidArgument, mentioning: [message], sourceLocation: sourceLocation)
  }

  @Test func synchronousForm() throws {
    try withDatabase { db in
      let caught = Box<Error?>(nil)
      expectHearthError(.invalidArgument, mentioning: [Self.message]) {
        try db.runTransaction { transaction in Self.swallowRead(transaction, db, caught: caught) }
      }
      try Self.expectNothingWritten(db, caught: caught)

      // A closure that returns a value fails alike.
      expectHearthError(.invalidArgument, mentioning: [Self.message]) {
        let result: Int = try db.runTransaction { transaction in
          Self.swallowRead(transaction, db, caught: caught)
          return 1
        }
        Issue.record("no result should come back, got \(result)")
      }
      try Self.expectNothingWritten(db, caught: caught)
    }
  }

  @Test func asyncForm() async throws {
    try await withDatabase { db in
      let caught = Box<Error?>(nil)
      await expectHearthError(.invalidArgument, mentioning: [Self.message]) {
        try await db.runTransaction { transaction in Self.swallowRead(transaction, db, caught: caught) }
      }
      try Self.expectNothingWritten(db, caught: caught)
    }
  }

  @Test func firebaseErrorPointerForm() async throws {
    try await withDatabase { db in
      let caught = Box<Error?>(nil)
      await expectHearthError(.invalidArgument, mentioning: [Self.message]) {
        _ = try await db.runTransaction { transaction, _ -> Any? in
          Self.swallowRead(transaction, db, caught: caught)
          return "result"
        }
      }
      try Self.expectNothingWritten(db, caught: caught)
    }
  }

  @Test func completionForms() throws {
    try withDatabase { db in
      let caught = Box<Error?>(nil)
      let done = Signal()
      let outcome = Box<(result: Any?, error: Error?)>((nil, nil))
      db.runTransaction(
        { transaction, _ -> Any? in
          Self.swallowRead(transaction, db, caught: caught)
          return "result"
        },
        completion: { result, error in
          outcome.value = (result, error)
          done.fire()
        })
      #expect(done.wait())
      #expect(outcome.value.result == nil)
      expectHearthError(outcome.value.error, .invalidArgument, mentioning: [Self.message])
      try Self.expectNothingWritten(db, caught: caught)

      let optionsDone = Signal()
      let optionsOutcome = Box<Error?>(nil)
      db.runTransaction(
        with: TransactionOptions(),
        block: { transaction, _ -> Any? in
          Self.swallowRead(transaction, db, caught: caught)
          return nil
        },
        completion: { _, error in
          optionsOutcome.value = error
          optionsDone.fire()
        })
      #expect(optionsDone.wait())
      expectHearthError(optionsOutcome.value, .invalidArgument, mentioning: [Self.message])
      try Self.expectNothingWritten(db, caught: caught)
    }
  }

  @Test func aReadBeforeAnyWriteStillWorks() throws {
    try withDatabase { db in
      try db.document("raw/b").setData(["v": 5])
      let seen: Int64? = try db.runTransaction { transaction in
        let v = try transaction.getDocument(db.document("raw/b")).get("v") as? Int64
        transaction.setData(["v": (v ?? 0) + 1], forDocument: db.document("raw/b"))
        return v
      }
      #expect(seen == 5)
      expectSame(try db.document("raw/b").getDocument().data(), ["v": 6])
    }
  }
}
