import Foundation
import HearthCore

extension FirestoreV1 {
  /// `BatchGetDocumentsRequest`: documents by name, with an optional field mask and a
  /// consistency selector (fields 4, 5, 7).
  package struct BatchGetDocumentsRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.BatchGetDocumentsRequest"

    package var database: DatabaseName
    package var documents: [DocumentKey]
    package var mask: DocumentMask?
    package var consistency: ConsistencySelector?

    package init(
      database: DatabaseName, documents: [DocumentKey], mask: DocumentMask? = nil,
      consistency: ConsistencySelector? = nil
    ) {
      self.database = database
      self.documents = documents
      self.mask = mask
      self.consistency = consistency
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      documents = []
      while let key = try reader.next() {
        switch key.number {
        case 2:
          let name = try reader.string(key, "documents")
          documents.append(try reader.check(key, "documents") { try database.documentKey(name) })
        case 3: mask = try reader.message(key, "mask", as: DocumentMask.self, database: database)
        case 4, 5, 7:
          consistency = try ConsistencySelector.decode(
            &reader, key, transaction: 4, newTransaction: 5, readTime: 7, database: database)
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      for key in documents { writer.string(2, database.name(of: key)) }
      if let mask { writer.message(3, mask, database: database) }
      consistency?.encode(to: &writer, transaction: 4, newTransaction: 5, readTime: 7, database: database)
    }
  }

  /// `BatchGetDocumentsResponse`: one document found or missing, the transaction begun by
  /// `new_transaction` (in the first response), and the read time.
  package struct BatchGetDocumentsResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.BatchGetDocumentsResponse"

    package enum Result: Sendable, Equatable {
      case found(Document)
      case missing(DocumentKey)
    }

    package var result: Result?
    package var transaction: Data
    package var readTime: Timestamp?

    package init(result: Result?, transaction: Data = Data(), readTime: Timestamp?) {
      self.result = result
      self.transaction = transaction
      self.readTime = readTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      transaction = Data()
      while let key = try reader.next() {
        switch key.number {
        case 1: result = .found(try reader.message(key, "found", as: Document.self, database: database))
        case 2:
          let name = try reader.string(key, "missing")
          result = .missing(try reader.check(key, "missing") { try database.documentKey(name) })
        case 3: transaction = try reader.bytes(key, "transaction")
        case 4: readTime = try Timestamp.decode(&reader, key, "read_time")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch result {
      case .found(let document): writer.message(1, document, database: database)
      case .missing(let key): writer.string(2, database.name(of: key))
      case nil: break
      }
      if !transaction.isEmpty { writer.bytes(3, transaction) }
      if let readTime { writer.message(4, readTime, database: database) }
    }
  }

  /// `GetDocumentRequest`: one document by name (its response is a `Document`).
  package struct GetDocumentRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.GetDocumentRequest"

    package var database: DatabaseName
    package var key: DocumentKey
    package var mask: DocumentMask?
    /// A transaction (field 3) or a read time (field 5).
    package var consistency: ConsistencySelector?

    package init(
      database: DatabaseName, key: DocumentKey, mask: DocumentMask? = nil, consistency: ConsistencySelector? = nil
    ) {
      self.database = database
      self.key = key
      self.mask = mask
      self.consistency = consistency
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "name")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      var key: DocumentKey?
      while let field = try reader.next() {
        switch field.number {
        case 1:
          let name = try reader.string(field, "name")
          key = try reader.check(field, "name") { try database.documentKey(name) }
        case 2: mask = try reader.message(field, "mask", as: DocumentMask.self, database: database)
        case 3, 5:
          consistency = try ConsistencySelector.decode(
            &reader, field, transaction: 3, newTransaction: nil, readTime: 5, database: database)
        default: try reader.skip(field)
        }
      }
      guard let key else { throw reader.error("name (1)", "the document name is missing") }
      self.key = key
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: key))
      if let mask { writer.message(2, mask, database: database) }
      consistency?.encode(to: &writer, transaction: 3, newTransaction: nil, readTime: 5, database: database)
    }
  }

  /// `ListDocumentsRequest`: the documents of the collection `parent/collection_id` (of
  /// every collection under `parent` when the ID is empty), a page at a time, with
  /// `show_missing` for documents that do not exist but have subcollections.
  package struct ListDocumentsRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.ListDocumentsRequest"

    package var database: DatabaseName
    package var parent: ResourcePath
    package var collectionID: String
    package var pageSize: Int32
    package var pageToken: String
    package var orderBy: String
    package var mask: DocumentMask?
    /// A transaction (field 8) or a read time (field 10).
    package var consistency: ConsistencySelector?
    package var showMissing: Bool

    package init(
      database: DatabaseName, parent: ResourcePath, collectionID: String, pageSize: Int32 = 0, pageToken: String = "",
      orderBy: String = "", mask: DocumentMask? = nil, consistency: ConsistencySelector? = nil,
      showMissing: Bool = false
    ) {
      self.database = database
      self.parent = parent
      self.collectionID = collectionID
      self.pageSize = pageSize
      self.pageToken = pageToken
      self.orderBy = orderBy
      self.mask = mask
      self.consistency = consistency
      self.showMissing = showMissing
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(database: database, parent: .root, collectionID: "")
      while let key = try reader.next() {
        switch key.number {
        case 1:
          let name = try reader.string(key, "parent")
          parent = try reader.check(key, "parent") { try database.parentPath(name) }
        case 2: collectionID = try reader.string(key, "collection_id")
        case 3: pageSize = try reader.int32(key, "page_size")
        case 4: pageToken = try reader.string(key, "page_token")
        case 6: orderBy = try reader.string(key, "order_by")
        case 7: mask = try reader.message(key, "mask", as: DocumentMask.self, database: database)
        case 8, 10:
          consistency = try ConsistencySelector.decode(
            &reader, key, transaction: 8, newTransaction: nil, readTime: 10, database: database)
        case 12: showMissing = try reader.bool(key, "show_missing")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: parent))
      if !collectionID.isEmpty { writer.string(2, collectionID) }
      if pageSize != 0 { writer.int32(3, pageSize) }
      if !pageToken.isEmpty { writer.string(4, pageToken) }
      if !orderBy.isEmpty { writer.string(6, orderBy) }
      if let mask { writer.message(7, mask, database: database) }
      consistency?.encode(to: &writer, transaction: 8, newTransaction: nil, readTime: 10, database: database)
      if showMissing { writer.bool(12, true) }
    }
  }

  /// `ListDocumentsResponse`: a page of documents and the token of the next.
  package struct ListDocumentsResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.ListDocumentsResponse"

    package var documents: [Document]
    package var nextPageToken: String

    package init(documents: [Document], nextPageToken: String = "") {
      self.documents = documents
      self.nextPageToken = nextPageToken
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(documents: [])
      while let key = try reader.next() {
        switch key.number {
        case 1: documents.append(try reader.message(key, "documents", as: Document.self, database: database))
        case 2: nextPageToken = try reader.string(key, "next_page_token")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for document in documents { writer.message(1, document, database: database) }
      if !nextPageToken.isEmpty { writer.string(2, nextPageToken) }
    }
  }

  /// `ListCollectionIdsRequest`: the IDs of the collections directly under `parent`.
  package struct ListCollectionIdsRequest: FirestoreRequest, Equatable {
    package static let protobufName = "google.firestore.v1.ListCollectionIdsRequest"

    package var database: DatabaseName
    package var parent: ResourcePath
    package var pageSize: Int32
    package var pageToken: String
    package var readTime: Timestamp?

    package init(
      database: DatabaseName, parent: ResourcePath, pageSize: Int32 = 0, pageToken: String = "",
      readTime: Timestamp? = nil
    ) {
      self.database = database
      self.parent = parent
      self.pageSize = pageSize
      self.pageToken = pageToken
      self.readTime = readTime
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(database: database, parent: .root)
      while let key = try reader.next() {
        switch key.number {
        case 1:
          let name = try reader.string(key, "parent")
          parent = try reader.check(key, "parent") { try database.parentPath(name) }
        case 2: pageSize = try reader.int32(key, "page_size")
        case 3: pageToken = try reader.string(key, "page_token")
        case 4: readTime = try Timestamp.decode(&reader, key, "read_time")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: parent))
      if pageSize != 0 { writer.int32(2, pageSize) }
      if !pageToken.isEmpty { writer.string(3, pageToken) }
      if let readTime { writer.message(4, readTime, database: database) }
    }
  }

  /// `ListCollectionIdsResponse`: a page of collection IDs and the token of the next.
  package struct ListCollectionIdsResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.ListCollectionIdsResponse"

    package var collectionIDs: [String]
    package var nextPageToken: String

    package init(collectionIDs: [String], nextPageToken: String = "") {
      self.collectionIDs = collectionIDs
      self.nextPageToken = nextPageToken
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(collectionIDs: [])
      while let key = try reader.next() {
        switch key.number {
        case 1: collectionIDs.append(try reader.string(key, "collection_ids"))
        case 2: nextPageToken = try reader.string(key, "next_page_token")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for id in collectionIDs { writer.string(1, id) }
      if !nextPageToken.isEmpty { writer.string(2, nextPageToken) }
    }
  }
}
