import Foundation

/// Firebase's read options, accepted so that ported code compiles. Hearth reads its own
/// database directly: there is no server to skip and no cache to prefer, so every source
/// reads the same committed data.
public enum FirestoreSource: Sendable {
  case `default`, server, cache
}

/// How Firebase shows a `serverTimestamp()` that the server has not yet resolved. Hearth
/// resolves it at commit, before any read can see the document, so every behaviour
/// reads the stored commit time.
public enum ServerTimestampBehavior: Sendable {
  case none, estimate, previous
}

extension DocumentReference {
  public func getDocument(source: FirestoreSource) throws -> DocumentSnapshot { try getDocument() }

  @discardableResult
  public func getDocument(source: FirestoreSource) async throws -> DocumentSnapshot { try await getDocument() }

  public func getDocument(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (DocumentSnapshot?, Error?) -> Void
  ) {
    getDocument(isolation: isolation, completion: completion)
  }
}

extension Query {
  public func getDocuments(source: FirestoreSource) throws -> QuerySnapshot { try getDocuments() }

  @discardableResult
  public func getDocuments(source: FirestoreSource) async throws -> QuerySnapshot { try await getDocuments() }

  public func getDocuments(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (QuerySnapshot?, Error?) -> Void
  ) {
    getDocuments(isolation: isolation, completion: completion)
  }
}

extension DocumentSnapshot {
  public func get(_ field: Any, serverTimestampBehavior: ServerTimestampBehavior) -> Any? { get(field) }

  public func data<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior, decoder: Database.Decoder = .init()
  ) throws -> T {
    try data(as: type, decoder: decoder)
  }
}
