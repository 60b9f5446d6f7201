import Foundation
import HearthCore

/// A collection's location: `db.collection("users")`, or a subcollection,
/// `db.collection("users/alice/posts")`. It is also a query for all its documents.
public final class CollectionReference: Query, @unchecked Sendable {
  /// The path as given, for an invalid reference (a valid one's is its `ResourcePath`,
  /// joined only when asked).
  private let rawPath: String

  init(database: Database, path: ResourcePath) {
    rawPath = ""
    super.init(database: database, model: QueryModel(target: .collection(path)))
  }

  init(database: Database, invalid error: HearthError, path: String) {
    rawPath = path
    super.init(database: database, model: QueryModel(target: .collection(.root)), problem: error)
  }

  /// A reference to an assembled path, checked for an odd number of segments.
  convenience init(database: Database, checking path: ResourcePath, raw: String) {
    if path.count % 2 == 1 {
      do {
        try path.validate()
        self.init(database: database, path: path)
      } catch {
        self.init(database: database, invalid: error as! HearthError, path: raw)
      }
    } else {
      self.init(
        database: database,
        invalid: HearthError(
          .invalidArgument,
          "Invalid collection reference. Collection references must have an odd number of segments, "
            + "but \(path) has \(path.count)."),
        path: raw)
    }
  }

  convenience init(database: Database, parsing path: String) {
    do {
      let parsed = try ResourcePath.parse(path, what: "Collection path")
      self.init(database: database, checking: parsed, raw: path)
    } catch {
      self.init(database: database, invalid: error as! HearthError, path: path)
    }
  }

  func validPath() throws -> ResourcePath {
    if let problem { throw problem }
    guard case .collection(let path) = model.target else { preconditionFailure("a collection reference") }
    return path
  }

  /// The last segment of the path.
  public var collectionID: String {
    (try? validPath().last) ?? rawPath.split(separator: "/").last.map(String.init) ?? ""
  }

  /// The path from the root, such as `users/alice/posts`.
  public var path: String { (try? validPath().canonical) ?? rawPath }

  /// The document holding this subcollection; `nil` for a root collection.
  public var parent: DocumentReference? {
    guard let path = try? validPath(), let parent = path.parent, !parent.isEmpty else { return nil }
    return DocumentReference(database: firestore, key: DocumentKey(parent))
  }

  /// A document with a new random ID: 20 characters from A–Z, a–z, 0–9, drawn from the
  /// system's secure random source.
  public func document() -> DocumentReference {
    document(AutoID.make())
  }

  /// The document at `path` relative to this collection (`"alice"`, or deeper:
  /// `"alice/posts/p1"`).
  public func document(_ path: String) -> DocumentReference {
    do {
      let base = try validPath()
      let relative = try ResourcePath.parse(path, what: "Document path", startsWithDocument: true)
      let full = base.appending(relative)
      guard full.count % 2 == 0 else {
        throw HearthError(
          .invalidArgument,
          "Invalid document reference. Document references must have an even number of segments, "
            + "but \(full) has \(full.count).")
      }
      try full.validate()
      return DocumentReference(database: firestore, key: DocumentKey(full))
    } catch {
      return DocumentReference(database: firestore, invalid: error as! HearthError, path: "\(self.path)/\(path)")
    }
  }

  /// Adds a document with a new random ID.
  ///
  /// - Returns: the new document's reference.
  /// - Throws: `invalidArgument` for a collection made from an invalid path or data
  ///   Firestore would refuse; and the errors of every write (see `Database`).
  @discardableResult
  public func addDocument(data: [String: Any]) throws -> DocumentReference {
    let reference = document()
    try reference.create(data)
    return reference
  }

  /// Adds a document with a new random ID, committing off the concurrency pool.
  ///
  /// - Returns: the new document's reference.
  /// - Throws: as `addDocument(data:)`: `invalidArgument` for an invalid path or data
  ///   Firestore would refuse; and the errors of every write (see `Database`).
  @discardableResult
  public func addDocument(data: [String: Any]) async throws -> DocumentReference {
    let reference = document()
    try await reference.create(data)
    return reference
  }

  /// Adds a document with a new random ID, returning its reference at once and calling
  /// `completion` with `nil` or the error `addDocument(data:)` would throw.
  @discardableResult
  public func addDocument(
    data: [String: Any], isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)?
  ) -> DocumentReference {
    let reference = document()
    reference.create(data, isolation: isolation, completion: completion)
    return reference
  }

  /// The IDs in this collection — its documents and the missing documents that have
  /// subcollections — as references, in ID order.
  ///
  /// - Throws: `invalidArgument` for a collection made from an invalid path; as every
  ///   read, `failedPrecondition` (closed) or `dataLoss` (damaged file).
  public func listDocuments() throws -> [DocumentReference] {
    let path = try validPath()
    return try firestore.engine().read { try $0.documentIDs(inCollection: path) }
      .map { DocumentReference(database: firestore, key: DocumentKey(collection: path, id: $0)) }
  }
}

/// Firestore's automatic document IDs.
enum AutoID {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }
}
