import Foundation

/// Firebase's read options, accepted so that ported code compiles. Hearth reads its own
/// database directly: there is no server to skip and no cache to prefer, so every source
/// reads the same committed data.
public enum FirestoreSource: Sendable {
  /// Firebase's server-then-cache, the server only, or the cache only: in Hearth, each
  /// reads the database.
  case `default`, server, cache
}

/// How Firebase shows a `serverTimestamp()` that the server has not yet resolved. Hearth
/// resolves it at commit, before any read can see the document, so every behaviour
/// reads the stored commit time.
public enum ServerTimestampBehavior: Sendable {
  /// Firebase's `null`, local estimate or previous value for a pending timestamp: in
  /// Hearth, each reads the commit time.
  case none, estimate, previous
}

extension DocumentReference {
  /// `getDocument()`: every source reads the database.
  ///
  /// - Throws: as `getDocument()`: `invalidArgument` for an invalid path;
  ///   `failedPrecondition` when the database is closed; `dataLoss` for damaged bytes.
  public func getDocument(source: FirestoreSource) throws -> DocumentSnapshot { try getDocument() }

  /// The `async` `getDocument()`: every source reads the database.
  ///
  /// - Throws: as `getDocument()`: `invalidArgument`, `failedPrecondition` or
  ///   `dataLoss`.
  @discardableResult
  public func getDocument(source: FirestoreSource) async throws -> DocumentSnapshot { try await getDocument() }

  /// The completion form of `getDocument()`: every source reads the database.
  public func getDocument(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (DocumentSnapshot?, Error?) -> Void
  ) {
    getDocument(isolation: isolation, completion: completion)
  }
}

extension Query {
  /// `getDocuments()`: every source reads the database.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument` for a query that breaks
  ///   Firestore's rules; `failedPrecondition` for an undeclared index under
  ///   `requireIndexes`, or a closed database; `dataLoss` for a damaged document.
  public func getDocuments(source: FirestoreSource) throws -> QuerySnapshot { try getDocuments() }

  /// The `async` `getDocuments()`: every source reads the database.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument`, `failedPrecondition` or
  ///   `dataLoss`.
  @discardableResult
  public func getDocuments(source: FirestoreSource) async throws -> QuerySnapshot { try await getDocuments() }

  /// The completion form of `getDocuments()`: every source reads the database.
  public func getDocuments(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (QuerySnapshot?, Error?) -> Void
  ) {
    getDocuments(isolation: isolation, completion: completion)
  }
}

extension DocumentSnapshot {
  /// `get(_:)`: server timestamps are resolved at commit.
  public func get(_ field: Any, serverTimestampBehavior: ServerTimestampBehavior) -> Any? { get(field) }

  /// `data(as:decoder:)`: server timestamps are resolved at commit.
  ///
  /// - Throws: as `data(as:decoder:)`: `DecodingError.valueNotFound` for a missing
  ///   document (unless `type` is optional); `DecodingError` naming the document and the
  ///   field when the data does not fit `type`.
  public func data<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior, decoder: Database.Decoder = .init()
  ) throws -> T {
    try data(as: type, decoder: decoder)
  }
}
