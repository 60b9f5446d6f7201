import Foundation
import HearthCore

/// The `async` and completion-handler forms of `DocumentReference`'s operations.
///
/// `async` forms read the data where they are called, then commit off the concurrency
/// pool. Completion forms do the work before they return and call `completion` where the
/// caller's isolation says: on its actor (the main actor for top-level code and
/// `@MainActor` types), or on `Settings.dispatchQueue` outside any actor.
extension DocumentReference {
  public func setData(_ data: [String: Any]) async throws {
    try await commitAsync(try reader.set(data))
  }

  public func setData(_ data: [String: Any], merge: Bool) async throws {
    try await commitAsync(merge ? try reader.merge(data) : try reader.set(data))
  }

  public func setData(_ data: [String: Any], mergeFields: [Any]) async throws {
    try await commitAsync(try reader.merge(data, fields: mergeFields))
  }

  public func updateData(_ fields: [AnyHashable: Any]) async throws {
    try await commitAsync(try reader.update(fields))
  }

  public func create(_ data: [String: Any]) async throws {
    try await commitAsync(try reader.create(data))
  }

  public func delete() async throws {
    try await commitAsync(Write(key: try validKey(), kind: .delete))
  }

  @discardableResult
  public func getDocument() async throws -> DocumentSnapshot {
    try await firestore.offload { try self.getDocument() }
  }

  public func setData(
    _ data: [String: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data) }
  }

  public func setData(
    _ data: [String: Any], merge: Bool, isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data, merge: merge) }
  }

  public func setData(
    _ data: [String: Any], mergeFields: [Any], isolation: isolated (any Actor)? = #isolation,
    completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try setData(data, mergeFields: mergeFields) }
  }

  public func updateData(
    _ fields: [AnyHashable: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try updateData(fields) }
  }

  public func create(
    _ data: [String: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) {
    firestore.complete(isolation, completion) { try create(data) }
  }

  public func delete(isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?) {
    firestore.complete(isolation, completion) { try delete() }
  }

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
