import Foundation
import HearthCore

/// Firebase's transaction options. Hearth runs a transaction's closure inside its own
/// write transaction, so there is no contention to retry and `maxAttempts` changes
/// nothing; it is kept, and checked, so that Firebase code compiles and behaves alike.
public final class TransactionOptions: NSObject, NSCopying, @unchecked Sendable {
  // @unchecked: Firebase's options are a mutable object; share a copy across threads.

  /// How many times Firestore may try to commit: 1 to `Int32.max` (default 5).
  public var maxAttempts = 5

  /// Options with Firebase's defaults (`maxAttempts` 5).
  public override init() {}

  /// A new options object with the same `maxAttempts`.
  public func copy(with zone: NSZone? = nil) -> Any {
    let copy = TransactionOptions()
    copy.maxAttempts = maxAttempts
    return copy
  }

  /// Whether `object` is options with the same `maxAttempts`.
  public override func isEqual(_ object: Any?) -> Bool {
    (object as? TransactionOptions)?.maxAttempts == maxAttempts
  }

  /// `maxAttempts`, which `isEqual(_:)` compares.
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
  /// Firebase's form with options (Firebase has no `async` import of it). `completion`
  /// gets `invalidArgument` for a `maxAttempts` out of range, without running the block,
  /// and otherwise the outcome of `runTransaction(_:completion:)`.
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
