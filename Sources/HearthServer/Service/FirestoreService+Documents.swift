import Foundation
import HearthCore

/// The one-document RPCs other clients use (the REST-shaped `CreateDocument`,
/// `UpdateDocument`, `DeleteDocument`), as commits of one write.
extension FirestoreService {
  /// `CreateDocument`: a new document, under an ID of 20 random letters and digits when
  /// the request gives none (as Firestore's clients make them).
  ///
  /// - Throws: `alreadyExists` when the document exists; `invalidArgument` for an invalid
  ///   ID or data.
  package func createDocument(_ request: FirestoreV1.CreateDocumentRequest) throws -> FirestoreV1.Document {
    let id = request.documentID.isEmpty ? Self.autoID() : request.documentID
    let key = DocumentKey(collection: request.parent.appending(request.collectionID), id: id)
    let write = try checked(
      Write(key: key, kind: .set(request.fields), precondition: .exists(false)), in: request.database)
    return try written(write, in: request.database, mask: request.mask)
  }

  /// `UpdateDocument`: a set, or with `update_mask` a patch, of one document.
  ///
  /// - Throws: as `commit`.
  package func updateDocument(_ request: FirestoreV1.UpdateDocumentRequest) throws -> FirestoreV1.Document {
    let write = try checked(request.write.write, in: request.database)
    return try written(write, in: request.database, mask: request.mask)
  }

  /// `DeleteDocument`.
  ///
  /// - Throws: as `commit`, for a failed precondition.
  package func deleteDocument(_ request: FirestoreV1.DeleteDocumentRequest) throws {
    let write = try checked(request.write.write, in: request.database)
    let store = try databases.store(request.database)
    _ = try withNames(request.database) {
      try transactions.withoutTransaction(in: request.database, writing: [write.key]) { try store.commit([write]) }
    }
  }

  /// Commits `write` and returns the document as read just after (a later write may
  /// already show there, as it may in Firestore's answer).
  private func written(
    _ write: Write, in database: DatabaseName, mask: FirestoreV1.DocumentMask?
  ) throws -> FirestoreV1.Document {
    let store = try databases.store(database)
    let stored = try withNames(database) {
      try transactions.withoutTransaction(in: database, writing: [write.key]) {
        try store.commit([write])
        return try store.read { try $0.document(write.key) }
      }
    }
    guard let stored else { throw HearthError(.internal, "Document \(database.name(of: write.key)) vanished") }
    return Self.document(stored, mask: mask?.fieldPaths)
  }

  /// 20 letters and digits, Firestore's automatic ID.
  static func autoID() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
  }
}
