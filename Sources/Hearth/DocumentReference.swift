import Foundation
import HearthCore

/// A document's location: `db.document("users/alice")` or
/// `db.collection("users").document("alice")`. The document need not exist.
///
/// A reference made from an invalid path still exists, so that building references never
/// crashes; every operation on it throws `invalidArgument` naming the path and the rule.
public final class DocumentReference: Hashable, Sendable, CustomStringConvertible {
  /// The database the document belongs to.
  public let firestore: Database
  private let parsed: Result<DocumentKey, HearthError>
  /// The path as given; only read when it did not parse (a valid path is rebuilt from its
  /// key, so a reference made from a key does not spell its path until asked).
  private let rawPath: String
  /// Speeds up repeated reads through this reference.
  let collectionHint = CollectionHint()

  init(database: Database, key: DocumentKey) {
    firestore = database
    parsed = .success(key)
    rawPath = ""
  }

  init(database: Database, parsing path: String) {
    firestore = database
    parsed = Result { try DocumentKey(parsing: path) }.mapError { $0 as! HearthError }
    rawPath = path
  }

  init(database: Database, invalid error: HearthError, path: String) {
    firestore = database
    parsed = .failure(error)
    rawPath = path
  }

  /// The key, or the reason the path is invalid.
  func validKey() throws -> DocumentKey { try parsed.get() }

  /// The last segment of the path: the document's ID.
  public var documentID: String {
    (try? parsed.get().documentID) ?? rawPath.split(separator: "/").last.map(String.init) ?? ""
  }

  /// The path from the root, such as `users/alice`.
  public var path: String { (try? parsed.get().description) ?? rawPath }

  /// The collection holding the document.
  public var parent: CollectionReference {
    switch parsed {
    case .success(let key): CollectionReference(database: firestore, path: key.collectionPath)
    case .failure(let error): CollectionReference(database: firestore, invalid: error, path: rawPath)
    }
  }

  /// The subcollection at `path` below this document (`"posts"`, or deeper:
  /// `"posts/p1/comments"`).
  public func collection(_ path: String) -> CollectionReference {
    switch parsed {
    case .success(let key):
      do {
        let relative = try ResourcePath.parse(path, what: "Collection path")
        return CollectionReference(
          database: firestore, checking: key.path.appending(relative), raw: "\(key.path)/\(path)")
      } catch {
        return CollectionReference(database: firestore, invalid: error as! HearthError, path: "\(key.path)/\(path)")
      }
    case .failure(let error):
      return CollectionReference(database: firestore, invalid: error, path: "\(rawPath)/\(path)")
    }
  }

  /// The subcollections of this document that hold documents (directly or below), by
  /// ID. A missing document can have them.
  ///
  /// - Throws: `invalidArgument` for a reference made from an invalid path; as every
  ///   read, `failedPrecondition` (closed) or `dataLoss` (damaged file).
  public func listCollections() throws -> [CollectionReference] {
    let key = try validKey()
    return try firestore.engine().read { try $0.collectionIDs(under: key) }
      .map { CollectionReference(database: firestore, path: key.path.appending($0)) }
  }

  /// `DocumentReference(users/alice)`.
  public var description: String { "DocumentReference(\(path))" }

  /// Equal when they name the same document (IDs compared by UTF-8 bytes, as Firestore
  /// does) in the same database.
  public static func == (a: DocumentReference, b: DocumentReference) -> Bool {
    Value.compareUTF8(a.path, b.path) == 0 && (a.firestore === b.firestore || a.firestore.path == b.firestore.path)
  }

  /// Hashes the path's UTF-8 bytes, which `==` compares.
  public func hash(into hasher: inout Hasher) {
    for byte in path.utf8 { hasher.combine(byte) }
  }

  // MARK: - Writing and reading

  var reader: UserDataReader {
    get throws { UserDataReader(database: firestore, key: try validKey()) }
  }

  /// Replaces the document with `data` (creating it when missing). `FieldValue`
  /// transforms apply at the commit; `FieldValue.delete()` is refused here (it needs
  /// `merge: true`).
  ///
  /// Unlike Firebase's, which returns at once and reports failure to no one, this returns
  /// once the commit is durable and throws where it fails.
  ///
  /// - Throws: `invalidArgument` for an invalid path or for data Firestore would refuse
  ///   (an unsupported type, a nested array, a field name or document too large, a
  ///   sentinel out of place), naming the field; and the errors of every write (see
  ///   `Database`). Nothing is written then.
  public func setData(_ data: [String: Any]) throws {
    try firestore.commit([try reader.set(data)])
  }

  /// With `merge: true`, writes the fields of `data` into the document and keeps the
  /// others (nested maps merge, `FieldValue.delete()` removes a field); with `false`,
  /// replaces it. Creates the document when missing.
  ///
  /// - Throws: `invalidArgument` for an invalid path or for data Firestore would refuse,
  ///   naming the field; and the errors of every write (see `Database`).
  public func setData(_ data: [String: Any], merge: Bool) throws {
    try firestore.commit([merge ? try reader.merge(data) : try reader.set(data)])
  }

  /// Writes only the listed field paths (`String`s or `FieldPath`s), taking their values
  /// from `data`; other fields of `data` are ignored, and a listed path missing from
  /// `data` is an error. A listed map replaces the stored one.
  ///
  /// - Throws: `invalidArgument` for an invalid path, data Firestore would refuse, or a
  ///   listed field that `data` does not hold; and the errors of every write (see
  ///   `Database`).
  public func setData(_ data: [String: Any], mergeFields: [Any]) throws {
    try firestore.commit([try reader.merge(data, fields: mergeFields)])
  }

  /// Updates fields by path (`"owner.email"` changes one nested field; a `FieldPath`
  /// key names a field whose name holds a dot) and keeps the others.
  ///
  /// - Throws: `notFound` when the document does not exist; `invalidArgument` for an
  ///   invalid path or field path, a field given twice (or inside another given one),
  ///   or data Firestore would refuse; and the errors of every write (see `Database`).
  public func updateData(_ fields: [AnyHashable: Any]) throws {
    try firestore.commit([try reader.update(fields)])
  }

  /// Creates the document with `data` (beyond the mobile SDK, as the server SDKs'
  /// `create`).
  ///
  /// - Throws: `alreadyExists` when the document exists; `invalidArgument` for an
  ///   invalid path or data Firestore would refuse; and the errors of every write (see
  ///   `Database`).
  public func create(_ data: [String: Any]) throws {
    try firestore.commit([try reader.create(data)])
  }

  /// Deletes the document (not its subcollections: `Database.recursiveDelete(_:)`
  /// deletes those too); succeeds when it is missing.
  ///
  /// - Throws: `invalidArgument` for a reference made from an invalid path; and the
  ///   errors of every write (see `Database`).
  public func delete() throws {
    try firestore.commit([Write(key: try validKey(), kind: .delete)])
  }

  /// Reads the document's committed state; `exists` is false when it is missing.
  ///
  /// - Throws: `invalidArgument` for a reference made from an invalid path;
  ///   `failedPrecondition` when the database is closed; `dataLoss` when the document's
  ///   stored bytes are damaged.
  public func getDocument() throws -> DocumentSnapshot {
    let key = try validKey()
    let document = try firestore.engine().read { try $0.encodedDocument(key, hint: collectionHint) }
    return DocumentSnapshot(database: firestore, key: key, document: document)
  }
}
