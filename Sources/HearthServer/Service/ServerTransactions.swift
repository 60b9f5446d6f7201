import Foundation
import HearthCore
import Synchronization

/// The transactions clients have begun and not yet ended, by ID.
///
/// A transaction spans calls: `BeginTransaction` (or a read's `new_transaction`) gives an
/// ID, reads name it, and `Commit` or `Rollback` ends it. An ID is valid in its own
/// database only, once: a second commit, or a commit after a rollback, is refused as
/// Firestore refuses it. A transaction left idle for `idleLimit` expires (Firestore ends
/// idle transactions after 60 seconds), so an abandoned client holds nothing for long.
///
/// Reads in a transaction currently see the latest committed state; giving them one
/// snapshot and making the commit serializable (documents read are locked until the
/// transaction ends) is issue 15's next step.
final class ServerTransactions: Sendable {
  struct Open: Sendable {
    let database: DatabaseName
    let readOnly: Bool
    var lastUse: ContinuousClock.Instant
  }

  static let idleLimit = Duration.seconds(60)
  private let open = Mutex<[Data: Open]>([:])

  /// A new transaction's ID: 16 random bytes.
  func begin(in database: DatabaseName, options: FirestoreV1.TransactionOptions?) -> Data {
    var generator = SystemRandomNumberGenerator()
    let id = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    var readOnly = false
    if case .readOnly? = options?.mode { readOnly = true }
    let now = ContinuousClock.now
    open.withLock { open in
      open = open.filter { now - $0.value.lastUse < Self.idleLimit }
      open[id] = Open(database: database, readOnly: readOnly, lastUse: now)
    }
    return id
  }

  /// Marks a read in the transaction.
  ///
  /// - Throws: `invalidArgument` for an ID that is unknown, ended, expired or of another
  ///   database.
  func use(_ id: Data, in database: DatabaseName) throws {
    try open.withLock { open in
      guard var transaction = open[id], transaction.database == database,
        ContinuousClock.now - transaction.lastUse < Self.idleLimit
      else { throw Self.invalid(id) }
      transaction.lastUse = .now
      open[id] = transaction
    }
  }

  /// Ends the transaction, for a commit or a rollback; returns what it was.
  ///
  /// - Throws: `invalidArgument` as `use`.
  @discardableResult
  func end(_ id: Data, in database: DatabaseName) throws -> Open {
    try open.withLock { open in
      guard let transaction = open[id], transaction.database == database else { throw Self.invalid(id) }
      open[id] = nil
      guard ContinuousClock.now - transaction.lastUse < Self.idleLimit else { throw Self.invalid(id) }
      return transaction
    }
  }

  private static func invalid(_ id: Data) -> HearthError {
    HearthError(
      .invalidArgument,
      "Transaction \(id.base64EncodedString()) is not valid: it has ended, expired or belongs to another database")
  }
}
