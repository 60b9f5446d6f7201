import Foundation
import HearthCore

/// The reads and writes of one `runTransaction` call.
///
/// Reads come first and see one consistent snapshot; writes are applied atomically when
/// the closure returns, to the very state it read (Hearth runs the closure inside its
/// write transaction, so there is no contention to retry). The closure may still run
/// again if the database had to grow, so keep it free of other side effects, as
/// Firestore asks.
public final class Transaction {
  let database: Database
  private let reader: StoreReader
  private(set) var writes: [Write] = []
  private var firstError: Error?
  /// Documents this transaction read as missing or deleted: updating them is an error.
  private var missing: Set<DocumentKey> = []

  init(database: Database, reader: StoreReader) {
    self.database = database
    self.reader = reader
  }

  /// Reads a document in the transaction's snapshot.
  ///
  /// - Throws: `invalidArgument` after a write in this transaction (reads come first).
  ///   The transaction then fails with that error even if the closure catches it and
  ///   goes on, as Firestore's SDKs fail it ("even if the error is not bubbled up"), so
  ///   that writes planned on a read that never happened are not committed. Also
  ///   `invalidArgument` for an invalid path or a reference from another database, and
  ///   `dataLoss` for a document whose stored bytes are damaged.
  public func getDocument(_ document: DocumentReference) throws -> DocumentSnapshot {
    guard writes.isEmpty && firstError == nil else {
      let error = HearthError(
        .invalidArgument, "Firestore transactions require all reads to be executed before all writes.")
      firstError = firstError ?? error
      throw error
    }
    let key = try database.key(of: document)
    let stored = try reader.encodedDocument(key)
    if stored == nil { missing.insert(key) }
    return DocumentSnapshot(database: database, key: key, document: stored)
  }

  private func record(_ document: DocumentReference, _ make: () throws -> Write) -> Transaction {
    guard firstError == nil else { return self }
    do {
      _ = try database.key(of: document)
      let write = try make()
      if case .patch = write.kind, write.precondition == .exists(true), missing.contains(write.key) {
        throw HearthError(.invalidArgument, "Can't update a document that doesn't exist: \(write.key)")
      }
      if case .delete = write.kind { missing.insert(write.key) } else { missing.remove(write.key) }
      writes.append(write)
    } catch {
      firstError = error
    }
    return self
  }

  /// Replaces the document with `data` when the transaction commits. Like every write
  /// here, it never throws: invalid data makes `runTransaction` throw, writing nothing.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
    record(document) { try document.reader.set(data) }
  }

  /// Merges `data` into the document (`merge: true`) or replaces it, when the
  /// transaction commits.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> Transaction {
    record(document) { merge ? try document.reader.merge(data) : try document.reader.set(data) }
  }

  /// Writes only the listed field paths of `data` when the transaction commits.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any]) -> Transaction
  {
    record(document) { try document.reader.merge(data, fields: mergeFields) }
  }

  /// Updates fields by path when the transaction commits. Updating a document this
  /// transaction read as missing (or deleted) makes it fail with `invalidArgument`, as in
  /// Firestore; one that is missing at the commit, with `notFound`.
  @discardableResult
  public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> Transaction {
    record(document) { try document.reader.update(fields) }
  }

  /// Creates the document when the transaction commits, which then fails with
  /// `alreadyExists` if it exists.
  @discardableResult
  public func create(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
    record(document) { try document.reader.create(data) }
  }

  /// Deletes the document (not its subcollections) when the transaction commits.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference) -> Transaction {
    record(document) { Write(key: try document.validKey(), kind: .delete) }
  }

  /// The writes to commit, or the first error a write met.
  func finish() throws -> [Write] {
    if let firstError { throw firstError }
    return writes
  }
}

extension Database {
  /// Runs `body` as a transaction: its reads see one consistent snapshot and its writes
  /// commit atomically when it returns. A throw from `body` (or invalid data in a write)
  /// writes nothing and is rethrown.
  ///
  /// The result may be dropped: a one-line closure that only writes
  /// (`{ $0.setData(data, forDocument: ref) }`) returns the `Transaction`, which no one
  /// wants.
  ///
  /// A plain write through a `DocumentReference` or `WriteBatch` inside `body`, on the
  /// same thread, fails with `failedPrecondition`: write through the `Transaction`.
  ///
  /// - Throws: what `body` throws; the first error a write met (`invalidArgument` for
  ///   invalid data, another database's reference, or a read after a write, even if
  ///   `body` caught it); `notFound` for an update of a missing document, `alreadyExists`
  ///   for a `create` of an existing one; and the errors of every write (see `Database`).
  ///   Nothing is written then.
  @discardableResult
  public func runTransaction<T>(_ body: (Transaction) throws -> T) throws -> T {
    try transact(body)
  }

  /// The `async` form: `body` runs synchronously inside the write transaction.
  ///
  /// - Throws: as the synchronous form: what `body` throws, or the first error a write
  ///   met (`invalidArgument`, `notFound`, `alreadyExists`); and the errors of every
  ///   write (see `Database`).
  @discardableResult
  public func runTransaction<T>(_ body: (Transaction) throws -> T) async throws -> T {
    try transact(body)
  }

  /// The form for a closure that returns nothing. Without it, a one-line closure that
  /// writes (and so returns the `Transaction`) is ambiguous where the call is itself
  /// the one statement of a `Void` closure (`expect { try db.runTransaction { $0… } }`):
  /// `T` would be `Void` from there and `Transaction` from the closure. Firebase's block
  /// returns `Any?`, which is why the same line compiles there.
  ///
  /// - Throws: as the generic form: what `body` throws, or the first error a write met
  ///   (`invalidArgument`, `notFound`, `alreadyExists`); and the errors of every write
  ///   (see `Database`).
  public func runTransaction(_ body: (Transaction) throws -> Void) throws {
    try transact(body)
  }

  /// The `async` form of the `Void` closure's.
  ///
  /// - Throws: as the generic form: what `body` throws, or the first error a write met
  ///   (`invalidArgument`, `notFound`, `alreadyExists`); and the errors of every write
  ///   (see `Database`).
  public func runTransaction(_ body: (Transaction) throws -> Void) async throws {
    try transact(body)
  }

  private func transact<T>(_ body: (Transaction) throws -> T) throws -> T {
    try engine().transact { reader in
      let transaction = Transaction(database: self, reader: reader)
      let result = try body(transaction)
      return (result, try transaction.finish())
    }.0
  }

  /// Firebase's form: the block reports failure through `errorPointer` (and the result
  /// is then ignored) or returns a result, which may be dropped.
  ///
  /// - Throws: the error the block set (nothing is written then), or the first error a
  ///   write met (`invalidArgument`, `notFound`, `alreadyExists`); and the errors of
  ///   every write (see `Database`).
  @discardableResult
  public func runTransaction(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?) async throws -> Any? {
    try runFirebaseTransaction(updateBlock)
  }

  /// Firebase's completion form: runs the transaction now, then calls `completion` with
  /// the block's result or the error the `async` form would throw.
  public func runTransaction(
    _ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (Any?, Error?) -> Void
  ) {
    let deliver = { (result: Any??, error: Error?) in completion(result ?? nil, error) }
    complete(isolation, deliver) { try runFirebaseTransaction(updateBlock) }
  }

  private func runFirebaseTransaction(_ updateBlock: (Transaction, NSErrorPointer) -> Any?) throws -> Any? {
    let result: Any?? = try transact { transaction -> Any? in
      var error: NSError?
      #if canImport(Darwin)
        let result = updateBlock(transaction, AutoreleasingUnsafeMutablePointer(&error))
      #else
        let result = withUnsafeMutablePointer(to: &error) { updateBlock(transaction, $0) }
      #endif
      if let error { throw error }
      return result
    }
    return result ?? nil
  }
}
