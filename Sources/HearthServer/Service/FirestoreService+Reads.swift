import Foundation
import HearthCore

extension FirestoreService {
  /// The transaction a read belongs to (`id`, nil for none), checked, the ID to send
  /// back for a `new_transaction` (`begun`), and the past time to read at, if any (the
  /// request's `read_time`, or its read-only transaction's).
  ///
  /// - Throws: `invalidArgument` for an unknown transaction.
  func consistency(_ selector: FirestoreV1.ConsistencySelector?, in database: DatabaseName) throws -> (
    id: Data?, begun: Data, readTime: Timestamp?
  ) {
    switch selector {
    case nil: return (nil, Data(), nil)
    case .transaction(let id):
      let readTime = try transactions.read(id, in: database, locking: [])
      return (id, Data(), readTime)
    case .newTransaction(let options):
      let id = try transactions.begin(in: database, options: options) { try consistentTime(in: database) }
      return (id, id, try transactions.read(id, in: database, locking: []))
    case .readTime(let time):
      return (nil, Data(), time)
    }
  }

  /// The time a read-only transaction without a `read_time` reads at: the last commit
  /// before it began, which later commits follow (commit times only increase). `nil` (the
  /// latest state, read by read) when the database keeps no versions to read it by or has
  /// no commit yet.
  func consistentTime(in database: DatabaseName) throws -> Timestamp? {
    try databases.store(database).read { reader in try reader.keepsVersions ? reader.lastCommitTime : nil }
  }

  /// Takes the shared locks of `targets` for the read's transaction, if it has one,
  /// before they are read.
  func lock(_ targets: [LockTarget], for transaction: Data?, in database: DatabaseName) throws {
    if let transaction { try transactions.read(transaction, in: database, locking: targets) }
  }

  // MARK: - Documents

  /// `BatchGetDocuments`: each document found or missing, in the order asked, from one
  /// snapshot; a name asked again is answered once ("Duplicate names will be elided", as
  /// the API's reference says and Google's emulator does).
  package func batchGetDocuments(_ request: FirestoreV1.BatchGetDocumentsRequest) throws
    -> [FirestoreV1.BatchGetDocumentsResponse]
  {
    try BackendQueryRules.checkFieldPaths(request.mask?.fieldPaths ?? [])
    for key in request.documents { try BackendQueryRules.checkReservedIDs(key.path) }
    let (transactionID, transaction, past) = try consistency(request.consistency, in: request.database)
    try lock(request.documents.map(LockTarget.document), for: transactionID, in: request.database)
    var time = FirestoreService.now
    var responses = try read(request.database, at: past) { snapshot in
      time = snapshot.time
      var asked = Set<DocumentKey>()
      return try request.documents.filter { asked.insert($0).inserted }.map {
        key -> FirestoreV1.BatchGetDocumentsResponse in
        let result: FirestoreV1.BatchGetDocumentsResponse.Result =
          if let stored = try snapshot.document(key) {
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
  /// - Throws: `invalidArgument` for a reserved name in the mask or the document's name;
  ///   `notFound` for a missing document, as Firestore does.
  package func getDocument(_ request: FirestoreV1.GetDocumentRequest) throws -> FirestoreV1.Document {
    try BackendQueryRules.checkFieldPaths(request.mask?.fieldPaths ?? [])
    try BackendQueryRules.checkReservedIDs(request.key.path)
    let (transaction, _, past) = try consistency(request.consistency, in: request.database)
    try lock([.document(request.key)], for: transaction, in: request.database)
    guard let stored = try read(request.database, at: past, { try $0.document(request.key) }) else {
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
  /// document somewhere below, in UTF-8 order, in pages (`PageToken`).
  ///
  /// - Throws: `invalidArgument` for a negative page size or a token this server did not give.
  package func listCollectionIDs(_ request: FirestoreV1.ListCollectionIdsRequest) throws
    -> FirestoreV1.ListCollectionIdsResponse
  {
    let (size, start) = (try PageToken.size(request.pageSize), try PageToken.start(request.pageToken))
    try BackendQueryRules.checkReservedIDs(request.parent)
    let parent = request.parent.isEmpty ? nil : DocumentKey(request.parent)
    let all = try read(request.database, at: request.readTime) { try $0.collectionIDs(under: parent) }
    let page = Array(PageToken.ids(all, after: start).prefix(size))
    return FirestoreV1.ListCollectionIdsResponse(
      collectionIDs: page, nextPageToken: page.count == size ? PageToken.after(page[page.count - 1]) : "")
  }

  /// `ListDocuments`: a collection's documents in ID order, with `show_missing` also the
  /// missing documents that have subcollections (as a name alone), in pages (`PageToken`).
  /// As on Google's emulator, `order_by` (`ListingOrder`) lists them as a query in that
  /// order would, and an empty collection ID lists the documents of every collection
  /// directly under the parent, by name.
  ///
  /// - Throws: `invalidArgument` for a negative page size, a token this server did not
  ///   give, an invalid `order_by`, or `show_missing` with an order or without a
  ///   collection ID.
  package func listDocuments(_ request: FirestoreV1.ListDocumentsRequest) throws -> FirestoreV1.ListDocumentsResponse {
    let size = try PageToken.size(request.pageSize)
    try BackendQueryRules.checkFieldPaths(request.mask?.fieldPaths ?? [])
    if request.collectionID.utf8.contains(UInt8(ascii: "/")) {
      throw HearthError(
        .invalidArgument, "Collection id \"\(request.collectionID)\" is invalid because it contains \"/\".")
    }
    if request.showMissing, request.collectionID.isEmpty {
      throw HearthError(.invalidArgument, "collection id must be set when show_missing is true")
    }
    if request.showMissing, !request.orderBy.isEmpty {
      throw HearthError(.invalidArgument, "cannot specify an order when show_missing is true")
    }
    let orders = try ListingOrder.parse(request.orderBy)
    let byName = ListingOrder.isNameOrder(orders)
    if request.collectionID.isEmpty, !byName {
      throw HearthError(.invalidArgument, "kind is required for all orders except __key__ ascending")
    }
    let collection = request.parent.appending(request.collectionID)
    try BackendQueryRules.checkReservedIDs(request.collectionID.isEmpty ? request.parent : collection)
    let (transaction, _, past) = try consistency(request.consistency, in: request.database)
    let locked: LockTarget = request.collectionID.isEmpty ? .group("") : .collection(collection)
    try lock([locked], for: transaction, in: request.database)
    let mask = request.mask?.fieldPaths
    return try read(request.database, at: past) { snapshot in
      if request.collectionID.isEmpty {
        return try Self.listEveryCollection(
          under: request.parent, in: snapshot, size: size, mask: mask, request.pageToken)
      }
      if !byName {
        var model = QueryModel(target: .collection(collection))
        model.explicitOrderBys = orders
        let skipped = try PageToken.skipped(request.pageToken)
        let page = try snapshot.run(model).dropFirst(skipped).prefix(size)
        return FirestoreV1.ListDocumentsResponse(
          documents: page.map { Self.document($0, mask: mask) },
          nextPageToken: page.count == size ? PageToken.skipping(skipped + size) : "")
      }
      var documents: [FirestoreV1.Document] = []
      let start = try PageToken.start(request.pageToken)
      for id in PageToken.ids(try snapshot.documentIDs(inCollection: collection), after: start) {
        guard documents.count < size else { break }
        let key = DocumentKey(collection: collection, id: id)
        if let stored = try snapshot.document(key) {
          documents.append(Self.document(stored, mask: mask))
        } else if request.showMissing {
          // As Google's emulator, with the time of the delete that removed it, if any.
          documents.append(FirestoreV1.Document(key: key, fields: [:], updateTime: try snapshot.deleteTime(of: key)))
        }
      }
      let next = documents.count == size ? documents.last.map { PageToken.after($0.key.documentID) } : nil
      return FirestoreV1.ListDocumentsResponse(documents: documents, nextPageToken: next ?? "")
    }
  }

  /// The documents of every collection directly under `parent`, by name (collection ID,
  /// then document ID), from the one after the token's (`collection/id`).
  private static func listEveryCollection(
    under parent: ResourcePath, in snapshot: ReadSnapshot, size: Int, mask: [FieldPath]?, _ token: String
  ) throws -> FirestoreV1.ListDocumentsResponse {
    let start = try PageToken.startInCollections(token)
    var documents: [FirestoreV1.Document] = []
    let collectionIDs = try snapshot.collectionIDs(under: parent.isEmpty ? nil : DocumentKey(parent))
    for collectionID in collectionIDs where documents.count < size {
      if let start, Value.compareUTF8(collectionID, start.collectionID) < 0 { continue }
      let collection = parent.appending(collectionID)
      let after = start.flatMap { $0.collectionID == collectionID ? $0.id : nil }
      for id in PageToken.ids(try snapshot.documentIDs(inCollection: collection), after: after) {
        guard documents.count < size else { break }
        if let stored = try snapshot.document(DocumentKey(collection: collection, id: id)) {
          documents.append(Self.document(stored, mask: mask))
        }
      }
    }
    let next =
      documents.count == size
      ? documents.last.map { PageToken.after(collectionID: $0.key.collectionGroup, id: $0.key.documentID) } : nil
    return FirestoreV1.ListDocumentsResponse(documents: documents, nextPageToken: next ?? "")
  }
}
