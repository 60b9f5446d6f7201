import Foundation
import HearthCore

extension FirestoreService {
  /// The transaction a read belongs to (`id`, nil for none), checked, and the ID to
  /// send back for a `new_transaction` (`begun`).
  ///
  /// - Throws: `invalidArgument` for an unknown transaction, `aborted` for a wounded one;
  ///   `unimplemented` for a read at a past `read_time`, which this server does not keep
  ///   yet (rather than answer with the current data).
  func consistency(_ selector: FirestoreV1.ConsistencySelector?, in database: DatabaseName) throws -> (
    id: Data?, begun: Data
  ) {
    switch selector {
    case nil: return (nil, Data())
    case .transaction(let id):
      try transactions.read(id, in: database, locking: [])
      return (id, Data())
    case .newTransaction(let options):
      let id = transactions.begin(in: database, options: options)
      return (id, id)
    case .readTime:
      throw Self.pastReadTime
    }
  }

  /// The answer to a read at a past `read_time`: this server keeps no old versions yet,
  /// and refuses rather than answer with the current data.
  static let pastReadTime = HearthError(
    .unimplemented, "Reads at a read_time in the past are not supported by this server yet")

  /// Locks `keys` for the read's transaction, if it has one, before they are read.
  func lock(_ keys: [DocumentKey], for transaction: Data?, in database: DatabaseName) throws {
    if let transaction { try transactions.read(transaction, in: database, locking: keys) }
  }

  /// The time a read's answer stands for.
  var readTime: Timestamp { Timestamp() }

  // MARK: - Documents

  /// `BatchGetDocuments`: each document found or missing, in the order asked, from one
  /// snapshot.
  package func batchGetDocuments(_ request: FirestoreV1.BatchGetDocumentsRequest) throws
    -> [FirestoreV1.BatchGetDocumentsResponse]
  {
    let (transactionID, transaction) = try consistency(request.consistency, in: request.database)
    try lock(request.documents, for: transactionID, in: request.database)
    let store = try databases.store(request.database)
    let time = readTime
    var responses = try store.read { reader in
      try request.documents.map { key -> FirestoreV1.BatchGetDocumentsResponse in
        let result: FirestoreV1.BatchGetDocumentsResponse.Result =
          if let stored = try reader.document(key) {
            .found(Self.document(stored, mask: request.mask?.fieldPaths))
          } else {
            .missing(key)
          }
        return FirestoreV1.BatchGetDocumentsResponse(result: result, transaction: Data(), readTime: time)
      }
    }
    if !transaction.isEmpty {
      if responses.isEmpty {
        responses.append(FirestoreV1.BatchGetDocumentsResponse(result: nil, transaction: transaction, readTime: time))
      } else {
        responses[0].transaction = transaction
      }
    }
    return responses
  }

  /// `GetDocument`.
  ///
  /// - Throws: `notFound` for a missing document, as Firestore does.
  package func getDocument(_ request: FirestoreV1.GetDocumentRequest) throws -> FirestoreV1.Document {
    let transaction = try consistency(request.consistency, in: request.database).id
    try lock([request.key], for: transaction, in: request.database)
    let store = try databases.store(request.database)
    guard let stored = try store.read({ try $0.document(request.key) }) else {
      throw HearthError(.notFound, "Document \(request.database.name(of: request.key)) not found")
    }
    return Self.document(stored, mask: request.mask?.fieldPaths)
  }

  /// A stored document as the wire's, with only the fields of `mask` when there is one
  /// (an empty mask returns no fields, as `list_documents` asks).
  static func document(_ stored: StoredDocument, mask: [FieldPath]?) -> FirestoreV1.Document {
    FirestoreV1.Document(
      key: stored.key, fields: mask.map { projected(stored.fields, to: $0) } ?? stored.fields,
      createTime: stored.createTime, updateTime: stored.updateTime)
  }

  /// The fields of `fields` at `paths` (a path that is missing is left out; `__name__`
  /// selects no field).
  static func projected(_ fields: [String: Value], to paths: [FieldPath]) -> [String: Value] {
    var kept: [String: Value] = [:]
    for path in paths where !path.isDocumentID {
      if let value = FieldOperations.value(at: path, in: fields) { FieldOperations.set(value, at: path, in: &kept) }
    }
    return kept
  }

  // MARK: - Listing

  /// `ListCollectionIds`: the IDs of the collections under the parent that hold a
  /// document somewhere below, in UTF-8 order, on one page.
  package func listCollectionIDs(_ request: FirestoreV1.ListCollectionIdsRequest) throws
    -> FirestoreV1.ListCollectionIdsResponse
  {
    guard request.readTime == nil else {
      throw Self.pastReadTime
    }
    let store = try databases.store(request.database)
    let parent = request.parent.isEmpty ? nil : DocumentKey(request.parent)
    return FirestoreV1.ListCollectionIdsResponse(collectionIDs: try store.read { try $0.collectionIDs(under: parent) })
  }

  /// `ListDocuments`: a collection's documents in ID order, with `show_missing` also the
  /// missing documents that have subcollections (as a name alone).
  package func listDocuments(_ request: FirestoreV1.ListDocumentsRequest) throws -> FirestoreV1.ListDocumentsResponse {
    _ = try consistency(request.consistency, in: request.database)
    let store = try databases.store(request.database)
    let collection = request.parent.appending(request.collectionID)
    let documents = try store.read { reader -> [FirestoreV1.Document] in
      var documents: [FirestoreV1.Document] = []
      for id in try reader.documentIDs(inCollection: collection) {
        let key = DocumentKey(collection.appending(id))
        if let stored = try reader.document(key) {
          documents.append(Self.document(stored, mask: request.mask?.fieldPaths))
        } else if request.showMissing {
          documents.append(FirestoreV1.Document(key: key, fields: [:]))
        }
      }
      return documents
    }
    return FirestoreV1.ListDocumentsResponse(documents: documents, nextPageToken: "")
  }
}
