import Foundation
import HearthCore

/// The Firestore API over Hearth databases: one method per RPC of
/// `google.firestore.v1.Firestore`, a decoded request in, the response messages out,
/// with Firestore's semantics. Failures are `HearthError`s, whose codes are gRPC's (the
/// transport answers with them); messages name documents by their full resource names,
/// as Firestore's do.
///
/// The methods block on LMDB (a durable commit waits for its sync), so the transport
/// calls them off Swift's cooperative threads.
package final class FirestoreService: Sendable {
  package let databases: ServedDatabases
  let transactions: ServerTransactions
  /// Refuse, as production Firestore does, a query that needs a composite or
  /// collection-group index not declared (`FAILED_PRECONDITION` naming the index);
  /// Google's emulator never does.
  package let requireIndexes: Bool

  /// - Parameter woundGrace: how long a transaction gives a younger one that holds a
  ///   document it needs to commit before aborting it (see `ServerTransactions`).
  package init(databases: ServedDatabases, requireIndexes: Bool = false, woundGrace: Duration = .milliseconds(500)) {
    self.databases = databases
    self.requireIndexes = requireIndexes
    self.transactions = ServerTransactions(woundGrace: woundGrace)
  }

  // MARK: - Writes

  /// `Commit`: the writes applied atomically, each with its result; in a transaction when
  /// the request names one (which then ends). A commit of no writes answers without a
  /// commit time, as Google's emulator does.
  ///
  /// - Throws: `notFound`, `alreadyExists` or `failedPrecondition` for a failed
  ///   precondition, `invalidArgument` for an invalid write or an unknown transaction;
  ///   nothing is written then.
  package func commit(_ request: FirestoreV1.CommitRequest) throws -> FirestoreV1.CommitResponse {
    let writes = try request.writes.map { try checked($0.write, in: request.database) }
    try BackendWriteRules.check(writes)
    let store = try databases.store(request.database)
    let keys = writes.map(\.key)
    let result = try withNames(request.database) {
      request.transaction.isEmpty
        ? try transactions.withoutTransaction(in: request.database, writing: keys) { try store.commit(writes) }
        : try transactions.commit(request.transaction, in: request.database, writing: keys) {
          try store.commit(writes)
        }
    }
    return FirestoreV1.CommitResponse(
      writeResults: result.writeResults.map {
        FirestoreV1.WriteResult(updateTime: $0.updateTime, transformResults: $0.transformResults)
      },
      commitTime: writes.isEmpty ? nil : result.commitTime)
  }

  /// `BatchWrite`: each write applied on its own (not atomically), each with its status.
  package func batchWrite(_ request: FirestoreV1.BatchWriteRequest) throws -> FirestoreV1.BatchWriteResponse {
    let store = try databases.store(request.database)
    var results: [FirestoreV1.WriteResult] = []
    var statuses: [FirestoreV1.Status] = []
    var keys = Set<DocumentKey>()
    for write in request.writes where !keys.insert(write.write.key).inserted {
      throw HearthError(.invalidArgument, "the same document cannot be written more than once in a single request")
    }
    for write in request.writes {
      do {
        let checkedWrite = try checked(write.write, in: request.database)
        let result = try withNames(request.database) {
          try transactions.withoutTransaction(in: request.database, writing: [checkedWrite.key]) {
            try store.commit([checkedWrite])
          }
        }
        let written = result.writeResults[0]
        results.append(
          FirestoreV1.WriteResult(updateTime: written.updateTime, transformResults: written.transformResults))
        statuses.append(FirestoreV1.Status(code: 0, message: ""))
      } catch {
        let failure = Self.hearthError(error)
        results.append(FirestoreV1.WriteResult(updateTime: nil, transformResults: []))
        statuses.append(FirestoreV1.Status(code: Int32(failure.code.rawValue), message: failure.message))
      }
    }
    return FirestoreV1.BatchWriteResponse(writeResults: results, status: statuses)
  }

  /// A write's key checked as a write's must be (a read may name any `__id<digits>__` key,
  /// as `recursive_delete`'s cursors do; a write only a `NumericID`), its values as a document's (their
  /// timestamps cut to microseconds), and its transforms as Google's emulator checks them.
  func checked(_ sent: Write, in database: DatabaseName) throws -> Write {
    var write = sent
    // Firestore keeps timestamps to the microsecond, and cuts a write's as it takes it.
    switch write.kind {
    case .set(let fields): write.kind = .set(fields.mapValues(\.cutToMicroseconds))
    case .patch(let fields, let mask): write.kind = .patch(fields: fields.mapValues(\.cutToMicroseconds), mask: mask)
    case .delete: break
    }
    for index in write.transforms.indices {
      switch write.transforms[index].operation {
      case .arrayUnion(let values): write.transforms[index].operation = .arrayUnion(values.map(\.cutToMicroseconds))
      case .arrayRemove(let values): write.transforms[index].operation = .arrayRemove(values.map(\.cutToMicroseconds))
      default: break
      }
    }
    do {
      try write.key.path.validate()
    } catch let error as HearthError {
      throw HearthError(error.code, error.message.replacingOccurrences(of: "Invalid path", with: "Invalid document"))
    }
    // The values are checked before anything is read, as the backend checks a request:
    // invalid data is INVALID_ARGUMENT even where a precondition would fail too.
    switch write.kind {
    case .set(let fields), .patch(let fields, _): try DocumentValidation.validate(fields, of: write.key)
    case .delete: break
    }
    // The transforms as Google's emulator checks them, in its words (the SDKs cannot send
    // either: their numbers are typed, and a field and one inside it conflict there).
    for transform in write.transforms {
      switch transform.operation {
      case .increment(let operand), .maximum(let operand), .minimum(let operand):
        guard operand.isNumber else { throw HearthError(.invalidArgument, "Input must be int64 or double.") }
      default: break
      }
      if write.transforms.contains(where: { $0.path != transform.path && transform.path.isPrefix(of: $0.path) }) {
        throw HearthError(
          .invalidArgument, "Cannot transform property \(transform.path) and its nested property at the same time.")
      }
    }
    return write
  }

  // MARK: - Transactions

  /// `BeginTransaction`: a transaction ID for the reads and the commit that follow.
  package func beginTransaction(_ request: FirestoreV1.BeginTransactionRequest) throws
    -> FirestoreV1.BeginTransactionResponse
  {
    _ = try databases.store(request.database)
    return FirestoreV1.BeginTransactionResponse(
      transaction: try transactions.begin(in: request.database, options: request.options) {
        try consistentTime(in: request.database)
      })
  }

  /// `Rollback`: ends a transaction without writing.
  ///
  /// - Throws: `invalidArgument` for a transaction this server does not know.
  package func rollback(_ request: FirestoreV1.RollbackRequest) throws {
    try transactions.rollback(request.transaction, in: request.database)
  }

  // MARK: - Errors

  /// Runs `body`, naming documents in its errors by their full resource names, as
  /// Firestore does ("No document to update: projects/p/databases/d/documents/c/d").
  func withNames<R>(_ database: DatabaseName, _ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch let error as HearthError {
      for prefix in ["No document to update: ", "Document already exists: "] where error.message.hasPrefix(prefix) {
        let path = String(error.message.dropFirst(prefix.count))
        if let key = try? DocumentKey(parsing: path) {
          throw HearthError(error.code, prefix + database.name(of: key))
        }
      }
      throw error
    }
  }

  /// Any error as the `HearthError` the client gets: a malformed message is
  /// INVALID_ARGUMENT, anything unexpected INTERNAL.
  package static func hearthError(_ error: Error) -> HearthError {
    switch error {
    case let error as HearthError: error
    case let error as ProtobufError: error.hearthError
    default: HearthError(.internal, "\(error)")
    }
  }
}

extension Value {
  /// This value with every timestamp in it cut to microseconds, Firestore's precision.
  fileprivate var cutToMicroseconds: Value {
    switch self {
    case .timestamp(let time): .timestamp(time.truncatedToMicroseconds)
    case .array(let elements): .array(elements.map(\.cutToMicroseconds))
    case .map(let fields): .map(fields.mapValues(\.cutToMicroseconds))
    default: self
    }
  }
}
