import Foundation
import HearthCore

/// A query over one collection, or over every collection with one ID (a collection
/// group).
///
/// Today a query reads all of its target's documents in document-ID order (by full path
/// for a collection group); filters, ordering, limits and cursors come next, on this type.
///
/// `@unchecked Sendable`: a query is immutable; subclasses add only immutable state.
public class Query: @unchecked Sendable {
  public let firestore: Database
  let target: Result<QueryTarget, HearthError>

  enum QueryTarget: Sendable {
    case collection(ResourcePath)
    case group(String)
  }

  init(database: Database, target: Result<QueryTarget, HearthError>) {
    firestore = database
    self.target = target
  }

  convenience init(database: Database, group collectionID: String) {
    let target: Result<QueryTarget, HearthError>
    if collectionID.isEmpty {
      target = .failure(HearthError(.invalidArgument, "Collection ID cannot be empty."))
    } else if collectionID.contains("/") {
      target = .failure(
        HearthError(
          .invalidArgument, "Invalid collection ID (\(collectionID)). Collection IDs must not contain / in them."))
    } else if let problem = ResourcePath.problem(withID: collectionID) {
      target = .failure(HearthError(.invalidArgument, "Invalid collection ID (\(collectionID)). \(problem)"))
    } else {
      target = .success(.group(collectionID))
    }
    self.init(database: database, target: target)
  }

  /// Runs the query.
  public func getDocuments() throws -> QuerySnapshot {
    let target = try self.target.get()
    let documents = try firestore.engine().read { reader -> [EncodedDocument] in
      switch target {
      case .collection(let path):
        return try reader.encodedDocuments(inCollection: path)
      case .group(let collectionID):
        return try reader.collectionGroup(collectionID)
          .flatMap { try reader.encodedDocuments(inCollection: $0) }
          .sorted { $0.key < $1.key }
      }
    }
    return QuerySnapshot(
      query: self, documents: documents.map { QueryDocumentSnapshot(database: firestore, document: $0) })
  }

  public func getDocuments() async throws -> QuerySnapshot {
    try await firestore.offload { try self.getDocuments() }
  }

  public func getDocuments(completion: @escaping (QuerySnapshot?, Error?) -> Void) {
    firestore.complete(completion) { try getDocuments() }
  }
}
