import Foundation
import HearthCore

/// Writes committed together: all of them or none.
///
/// ```swift
/// let batch = db.batch()
/// batch.setData(["since": Timestamp()], forDocument: me.collection("following").document(them))
/// batch.setData(["since": Timestamp()], forDocument: them.collection("followers").document(me))
/// try batch.commit()
/// ```
///
/// The write methods never throw: invalid data is reported by `commit()`, which then
/// writes nothing. There is no limit on the number of writes.
public final class WriteBatch {
  let database: Database
  private var writes: [Write] = []
  private var firstError: Error?
  private var isCommitted = false

  init(database: Database) { self.database = database }

  /// Records a write, or the first error met while reading its data.
  func record(_ document: DocumentReference, _ make: () throws -> Write) -> WriteBatch {
    guard firstError == nil else { return self }
    do {
      _ = try database.key(of: document)
      writes.append(try make())
    } catch {
      firstError = error
    }
    return self
  }

  /// Adds a write that replaces the document with `data` (creating it when missing).
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
    record(document) { try document.reader.set(data) }
  }

  /// Adds a write that merges `data` into the document (`merge: true`) or replaces it.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> WriteBatch {
    record(document) { merge ? try document.reader.merge(data) : try document.reader.set(data) }
  }

  /// Adds a write of only the listed field paths (`String`s or `FieldPath`s) of `data`.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any]) -> WriteBatch
  {
    record(document) { try document.reader.merge(data, fields: mergeFields) }
  }

  /// Adds an update of fields by path; the commit fails with `notFound` when the
  /// document does not exist then.
  @discardableResult
  public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> WriteBatch {
    record(document) { try document.reader.update(fields) }
  }

  /// Creates the document; the commit fails with `alreadyExists` when it exists.
  @discardableResult
  public func create(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
    record(document) { try document.reader.create(data) }
  }

  /// Adds a delete of the document (not its subcollections); a missing one is no error.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference) -> WriteBatch {
    record(document) { Write(key: try document.validKey(), kind: .delete) }
  }

  /// Commits every write atomically, in the order they were added; returns once the
  /// commit is durable.
  ///
  /// - Throws: the first invalid write's error (`invalidArgument`: an invalid path, data
  ///   Firestore would refuse, or a reference from another database); `notFound` for an
  ///   update of a missing document; `alreadyExists` for a `create` of an existing one;
  ///   `failedPrecondition` when the batch was already committed; and the errors of every
  ///   write (see `Database`). Nothing is written then.
  public func commit() throws {
    try database.commit(try takeWrites())
  }

  /// Commits every write atomically, off the concurrency pool.
  ///
  /// - Throws: as `commit()`: `invalidArgument`, `notFound` or `alreadyExists` for the
  ///   writes, `failedPrecondition` for a batch already committed; and the errors of
  ///   every write (see `Database`).
  public func commit() async throws {
    let writes = try takeWrites()
    let database = self.database
    try await database.offload { _ = try database.commit(writes) }
  }

  /// Commits now, then calls `completion` with `nil` or the error `commit()` would throw.
  public func commit(isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?) {
    database.complete(isolation, completion) { try commit() }
  }

  private func takeWrites() throws -> [Write] {
    guard !isCommitted else {
      throw HearthError(.failedPrecondition, "A write batch can no longer be used after commit() has been called.")
    }
    isCommitted = true
    if let firstError { throw firstError }
    return writes
  }
}
