import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The one-line transaction closures that Firebase code writes compile here too, and do
/// what they say. Before the `Void` overloads, a one-line closure whose only expression is
/// a write (which returns the `Transaction`) did not compile where the call was itself the
/// one statement of a `Void` closure: "conflicting arguments to generic parameter 'T'
/// ('Void' vs. 'Transaction')". This file compiling is half of the test.
@Suite struct TransactionClosureFormTests {
  /// Runs `body` as the one statement of a `Void` closure, as `expect`-style helpers,
  /// `DispatchQueue.async` and button actions hold it.
  private func perform(_ body: () throws -> Void) rethrows { try body() }
  private func perform(_ body: () async throws -> Void) async rethrows { try await body() }

  @Test func oneLineWritesInTheSynchronousForm() throws {
    try withDatabase { db in
      let ref = db.document("forms/sync")
      try db.runTransaction { $0.setData(["a": 1], forDocument: ref) }
      expectSame(try ref.getDocument().data(), ["a": 1])

      try db.runTransaction { t in t.updateData(["n": FieldValue.increment(Int64(1))], forDocument: ref) }
      expectSame(try ref.getDocument().data(), ["a": 1, "n": 1])

      _ = try db.runTransaction { $0.setData(["b": 2], forDocument: ref, merge: true) }
      expectSame(try ref.getDocument().data(), ["a": 1, "n": 1, "b": 2])

      try perform { try db.runTransaction { $0.updateData(["a": 10], forDocument: ref) } }
      try perform {
        try db.runTransaction { t in t.updateData(["n": FieldValue.increment(Int64(1))], forDocument: ref) }
      }
      try perform { _ = try db.runTransaction { $0.deleteDocument(db.document("forms/none")) } }
      expectSame(try ref.getDocument().data(), ["a": 10, "n": 2, "b": 2])

      // A failing one-line write still fails the transaction.
      expectHearthError(.notFound) {
        try db.runTransaction { $0.updateData(["x": 1], forDocument: db.document("forms/missing")) }
      }
    }
  }

  @Test func oneLineWritesInTheAsyncForm() async throws {
    try await withDatabase { db in
      let ref = db.document("forms/async")
      try await db.runTransaction { $0.setData(["a": 1], forDocument: ref) }
      try await db.runTransaction { t in t.updateData(["n": FieldValue.increment(Int64(1))], forDocument: ref) }
      _ = try await db.runTransaction { $0.setData(["b": 2], forDocument: ref, merge: true) }
      try await perform { try await db.runTransaction { $0.updateData(["a": 10], forDocument: ref) } }
      expectSame(try await ref.getDocument().data(), ["a": 10, "n": 1, "b": 2])
    }
  }

  @Test func oneLineFirebaseBlocks() async throws {
    try await withDatabase { db in
      let ref = db.document("forms/firebase")
      _ = try await db.runTransaction { transaction, _ in transaction.setData(["a": 1], forDocument: ref) }
      try await db.runTransaction { transaction, _ in transaction.updateData(["a": 2], forDocument: ref) }
      try await perform { _ = try await db.runTransaction { transaction, _ in transaction.deleteDocument(ref) } }
      #expect(try await !ref.getDocument().exists)

      let done = Signal()
      let outcome = Box<Error?>(nil)
      db.runTransaction({ transaction, _ in transaction.setData(["b": 1], forDocument: ref) }) { _, error in
        outcome.value = error
        done.fire()
      }
      #expect(done.wait())
      #expect(outcome.value == nil)
      expectSame(try await ref.getDocument().data(), ["b": 1])
    }
  }

  @Test func resultsAreStillInferred() async throws {
    try await withDatabase { db in
      let ref = db.document("forms/results")
      try await ref.setData(["n": 41])
      let next: Int64 = try await db.runTransaction { t in
        let n = try t.getDocument(ref).get("n") as? Int64 ?? 0
        t.updateData(["n": n + 1], forDocument: ref)
        return n + 1
      }
      #expect(next == 42)
      let asyncRead = try await db.runTransaction { t in try t.getDocument(ref).get("n") as? Int64 }
      #expect(asyncRead == 42)
      let firebaseResult = try await db.runTransaction { transaction, _ in "done" }
      #expect(firebaseResult as? String == "done")
    }
    try withDatabase { db in
      let read = try db.runTransaction { t in try t.getDocument(db.document("forms/none")).exists }
      #expect(read == false)
    }
  }
}
