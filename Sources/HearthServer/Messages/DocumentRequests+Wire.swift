import Foundation
import HearthCore

extension FirestoreV1 {
  /// `CreateDocumentRequest`: a new document `parent/collection_id/document_id` (an empty
  /// ID asks the server to choose one). The request's `Document` carries only fields:
  /// its name must not be set. (The response is the created `Document`.)
  package struct CreateDocumentRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.CreateDocumentRequest"

    package var database: DatabaseName
    package var parent: ResourcePath
    package var collectionID: String
    package var documentID: String
    package var fields: [String: Value]
    package var mask: DocumentMask?

    package init(
      database: DatabaseName, parent: ResourcePath, collectionID: String, documentID: String,
      fields: [String: Value], mask: DocumentMask? = nil
    ) {
      self.database = database
      self.parent = parent
      self.collectionID = collectionID
      self.documentID = documentID
      self.fields = fields
      self.mask = mask
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(database: database, parent: .root, collectionID: "", documentID: "", fields: [:])
      while let key = try reader.next() {
        switch key.number {
        case 1:
          let name = try reader.string(key, "parent")
          parent = try reader.check(key, "parent") { try database.parentPath(name) }
        case 2: collectionID = try reader.string(key, "collection_id")
        case 3: documentID = try reader.string(key, "document_id")
        case 4:
          fields = try reader.message(key, "document", Document.protobufName) { document in
            var fields: [String: Value] = [:]
            while let key = try document.next() {
              switch key.number {
              case 1:
                guard try document.string(key, "name").isEmpty else {
                  throw document.error("name (1)", "a document to create must not have a name")
                }
              case 2:
                let (name, value) = try document.message(key, "fields", "google.firestore.v1.Document.FieldsEntry") {
                  try Value.decodeMapEntry(&$0, database: database)
                }
                try Value.insert(name, value, into: &fields, reader: document, key: key)
              default: try document.skip(key)
              }
            }
            return fields
          }
        case 5: mask = try reader.message(key, "mask", as: DocumentMask.self, database: database)
        default: try reader.skip(key)
        }
      }
      if collectionID.isEmpty { throw reader.error("collection_id (2)", "the collection ID is missing") }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: parent))
      writer.string(2, collectionID)
      if !documentID.isEmpty { writer.string(3, documentID) }
      writer.message(4) { Value.encodeMap(fields, field: 2, to: &$0, database: database) }
      if let mask { writer.message(5, mask, database: database) }
    }
  }

  /// `UpdateDocumentRequest`: a set (no `update_mask`) or a patch of the mask's fields, as
  /// a HearthCore `Write`, with the mask of fields to return and a precondition. (The
  /// response is the updated `Document`.)
  package struct UpdateDocumentRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.UpdateDocumentRequest"

    package var database: DatabaseName
    package var document: Document
    package var updateMask: DocumentMask?
    package var mask: DocumentMask?
    package var currentDocument: Precondition?

    package init(
      database: DatabaseName, document: Document, updateMask: DocumentMask? = nil, mask: DocumentMask? = nil,
      currentDocument: Precondition? = nil
    ) {
      self.database = database
      self.document = document
      self.updateMask = updateMask
      self.mask = mask
      self.currentDocument = currentDocument
    }

    /// The request as the write it makes, its precondition included.
    package var write: Write {
      let kind: HearthCore.Write.Kind =
        updateMask.map { .patch(fields: document.fields, mask: $0.fieldPaths) } ?? .set(document.fields)
      return Write(HearthCore.Write(key: document.key, kind: kind), currentDocument: currentDocument)
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      guard let name = try reader.peekString(in: 1, "document", 1, "name"), !name.isEmpty else {
        throw reader.error("document (1)", "the document's name is missing")
      }
      do {
        return try DatabaseName.parseResource(name).database
      } catch let failure as HearthError {
        throw reader.error("document (1)", failure.message)
      }
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      var document: Document?
      while let key = try reader.next() {
        switch key.number {
        case 1: document = try reader.message(key, "document", as: Document.self, database: database)
        case 2: updateMask = try reader.message(key, "update_mask", as: DocumentMask.self, database: database)
        case 3: mask = try reader.message(key, "mask", as: DocumentMask.self, database: database)
        case 4: currentDocument = try reader.message(key, "current_document", as: Precondition.self, database: database)
        default: try reader.skip(key)
        }
      }
      guard let document else { throw reader.error("document (1)", "the document is missing") }
      self.document = document
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.message(1, document, database: database)
      if let updateMask { writer.message(2, updateMask, database: database) }
      if let mask { writer.message(3, mask, database: database) }
      if let currentDocument { writer.message(4, currentDocument, database: database) }
    }
  }

  /// `DeleteDocumentRequest`: a document by name and a precondition. (The response is
  /// `Empty`.)
  package struct DeleteDocumentRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.DeleteDocumentRequest"

    package var database: DatabaseName
    package var key: DocumentKey
    package var currentDocument: Precondition?

    package init(database: DatabaseName, key: DocumentKey, currentDocument: Precondition? = nil) {
      self.database = database
      self.key = key
      self.currentDocument = currentDocument
    }

    /// The request as the write it makes.
    package var write: Write {
      Write(HearthCore.Write(key: key, kind: .delete), currentDocument: currentDocument)
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
        case 2:
          currentDocument = try reader.message(field, "current_document", as: Precondition.self, database: database)
        default: try reader.skip(field)
        }
      }
      guard let key else { throw reader.error("name (1)", "the document name is missing") }
      self.key = key
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: key))
      if let currentDocument { writer.message(2, currentDocument, database: database) }
    }
  }
}
