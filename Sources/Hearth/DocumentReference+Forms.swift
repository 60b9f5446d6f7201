import Foundation
import HearthCore

/// The `async` and completion-handler forms of `DocumentReference`'s operations.
///
/// `async` forms read the data where they are called, then commit off the concurrency
/// pool. Completion forms do the work before they return and call `completion` where the
/// caller's isolation says: on its actor (the main actor for top-level code and
/// `@MainActor` types), or on `Settings.dispatchQueue` outside any actor.
extension DocumentReference {
  /// Replaces the document with `data`, committing off the concurrency pool.
  ///
  /// - Throws: as `setData(_:)`: `invalidArgument` for an invalid path or data Firestore
  ///   would refuse; and the errors of every write (see `Database`).
  public func setData(_ data: [String: Any]) async throws {
    try await commitAsync(try reader.set(data))
  }

  /// Merges `data` into the document (or replaces it with `merge: false`), committing off
  /// the concurrency pool.
  ///
  /// - Throws: as `setData(_:merge:)`: `invalidArgument` for an invalid path or data
  ///   Firestore would refuse; and the errors of every write (see `Database`).
  public func setData(_ data: [String: Any], merge: Bool) async throws {
    try await commitAsync(merge ? try reader.merge(data) : try reader.set(data))
  }

  /// Writes only the listed field paths of `data`, committing off the concurrency pool.
  ///
  /// - Throws: as `setData(_:mergeFields:)`: `invalidArgument` for an invalid path, data
  ///   Firestore would refuse, or a listed field missing from `data`; and the errors of
  ///   every write (see `Database`).
  public func setData(_ data: [String: Any], mergeFields: [Any]) async throws {
    try await commitAsync(try reader.merge(data, fields: mergeFields))
  }

  /// Updates fields by path, committing off the concurrency pool.
  ///
  /// - Throws: as `updateData(_:)`: `notFound` when the document does not exist;
  ///   `invalidArgument` for an invalid path, field path or value; and the errors of
  ///   every write (see `Database`).
  public func updateData(_ fields: [AnyHashable: Any]) async throws {
    try await commitAsync(try reader.update(fields))
  }

  /// Creates the document, committing off the concurrency pool.
  ///
  /// - Throws: as `create(_:)`: `alreadyExists` when the document exists;
  ///   `invalidArgument` for an invalid path or data Firestore would refuse; and the
  ///   errors of every write (see `Database`).
  public func create(_ data: [String: Any]) async throws {
    try await commitAsync(try reader.create(data))
  }

  /// Deletes the document (not its subcollections), committing off the concurrency pool.
  ///
  /// - Throws: as `delete()`: `invalidArgument` for an invalid path; and the errors of
  ///   every write (see `Database`).
  public func delete() async throws {
    try await commitAsync(Write(key: try validKey(), kind: .delete))
  }

  /// Reads the document off the concurrency pool.
  ///
  /// - Throws: as `getDocument()`: `invalidArgument` for an invalid path;
  ///   `failedPrecondition` when the database is closed; `dataLoss` for damaged bytes.
  @discardableResult
  public func getDocument() async throws -> DocumentSnapshot {
    try await firestore.offload { try self.getDocument() }
  }

  /// Replaces the document with `data` now, then calls `completion` with `nil` or the
  /// error `setData(_:)` would throw.
  public func setData(
    _ data: [String: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data) }
  }

  /// Merges `data` into the document now (or replaces it with `merge: false`), then calls
  /// `completion` with `nil` or the error `setData(_:merge:)` would throw.
  public func setData(
    _ data: [String: Any], merge: Bool, isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data, merge: merge) }
  }

  /// Writes the listed field paths of `data` now, then calls `completion` with `nil` or
  /// the error `setData(_:mergeFields:)` would throw.
  public func setData(
    _ data: [String: Any], mergeFields: [Any], isolation: isolated (any Actor)? = #isolation,
    completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data, mergeFields: mergeFields) }
  }

  /// Updates fields by path now, then calls `completion` with `nil` or the error
  /// `updateData(_:)` would throw (`notFound` for a missing document).
  public func updateData(
    _ fields: [AnyHashable: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try updateData(fields) }
  }

  /// Creates the document now, then calls `completion` with `nil` or the error
  /// `create(_:)` would throw (`alreadyExists` for an existing document).
  public func create(
    _ data: [String: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try create(data) }
  }

  /// Deletes the document now, then calls `completion` with `nil` or the error `delete()`
  /// would throw.
  public func delete(isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?) {
    firestore.complete(isolation, completion) { try delete() }
  }

  /// Reads the document now, then calls `completion` with the snapshot or the error
  /// `getDocument()` would throw.
  public func getDocument(
    isolation: isolated (any Actor)? = #isolation, completion: @escaping (DocumentSnapshot?, Error?) -> Void
  ) {
    firestore.complete(isolation, completion) { try getDocument() }
  }

  private func commitAsync(_ write: Write) async throws {
    let database = firestore
    try await database.offload { _ = try database.commit([write]) }
  }
}
