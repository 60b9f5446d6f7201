import Foundation
import HearthCore

/// Firebase's transaction options. Hearth runs a transaction's closure inside its own
/// write transaction, so there is no contention to retry and `maxAttempts` changes
/// nothing; it is kept, and checked, so that Firebase code compiles and behaves alike.
public final class TransactionOptions: NSObject, NSCopying, @unchecked Sendable {
  // @unchecked: Firebase's options are a mutable object; share a copy across threads.

  /// How many times Firestore may try to commit: 1 to `Int32.max` (default 5).
  public var maxAttempts = 5

  public override init() {}

  public func copy(with zone: NSZone? = nil) -> Any {
    let copy = TransactionOptions()
    copy.maxAttempts = maxAttempts
    return copy
  }

  public override func isEqual(_ object: Any?) -> Bool {
    (object as? TransactionOptions)?.maxAttempts == maxAttempts
  }

  public override var hash: Int { maxAttempts }

  /// - Throws: `invalidArgument` when `maxAttempts` is out of range (Firebase raises when
  ///   it is set).
  func validate() throws {
    guard maxAttempts >= 1, maxAttempts <= Int(Int32.max) else {
      throw HearthError(
        .invalidArgument,
        "Invalid 'maxAttempts' value: \(maxAttempts); it must be greater than zero and fit in 32 bits.")
    }
  }
}

extension Database {
  /// Firebase's form with options (Firebase has no `async` import of it).
  public func runTransaction(
    with options: TransactionOptions?, block updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?,
    isolation: isolated (any Actor)? = #isolation, completion: @escaping (Any?, Error?) -> Void
  ) {
    if let options {
      do { try options.validate() } catch {
        complete(isolation, completion) { throw error }
        return
      }
    }
    runTransaction(updateBlock, isolation: isolation, completion: completion)
  }
}
