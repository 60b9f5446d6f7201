import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Firebase's `TransactionOptions` (its FIRTransactionOptionsTests, and the options form of
/// `runTransaction`): Hearth has no contention to retry, so the options only have to be
/// valid.
@Suite struct TransactionOptionsTests {
  @Test func defaultsAndSettingMaxAttempts() {
    let options = TransactionOptions()
    #expect(options.maxAttempts == 5)
    options.maxAttempts = 10
    #expect(options.maxAttempts == 10)
    options.maxAttempts = 99
    #expect(options.maxAttempts == 99)
  }

  @Test func equalityHashAndCopy() throws {
    #expect(TransactionOptions().hash == TransactionOptions().hash)
    let a = TransactionOptions()
    a.maxAttempts = 3
    let b = TransactionOptions()
    b.maxAttempts = 3
    #expect(a == b)
    #expect(a.hash == b.hash)
    b.maxAttempts = 4
    #expect(a != b)
    let copy = try #require(a.copy() as? TransactionOptions)
    #expect(copy == a && copy !== a)
  }

  @Test func runsWithValidOptionsAndRefusesInvalidOnes() throws {
    try withDatabase { db in
      let doc = db.document("counters/c")
      func run(_ options: TransactionOptions?) -> Error? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var reported: Error?
        db.runTransaction(
          with: options,
          block: { transaction, _ in
            transaction.setData(["n": 1], forDocument: doc)
            return nil
          },
          completion: { _, error in
            reported = error
            done.signal()
          })
        done.wait()
        return reported
      }
      #expect(run(nil) == nil)
      #expect(run(TransactionOptions()) == nil)
      try doc.delete()
      for attempts in [0, -1, Int(Int32.min), Int(Int32.max) + 1] {
        let options = TransactionOptions()
        options.maxAttempts = attempts
        let error = try #require(run(options) as? HearthError, "maxAttempts \(attempts)")
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("maxAttempts"))
        #expect(try !doc.getDocument().exists, "a refused transaction writes nothing")
      }
    }
  }
}
