import Foundation
import HearthCore

extension FirestoreV1 {
  /// `ListenRequest`: one message of a Listen stream, adding or removing a target.
  package struct ListenRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.ListenRequest"

    package enum TargetChange: Sendable {
      case addTarget(Target)
      case removeTarget(Int32)
    }

    package var database: DatabaseName
    /// `nil` for a message that only sets labels.
    package var targetChange: TargetChange?
    package var labels: [String: String]

    package init(database: DatabaseName, targetChange: TargetChange?, labels: [String: String] = [:]) {
      self.database = database
      self.targetChange = targetChange
      self.labels = labels
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(database: database, targetChange: nil)
      while let key = try reader.next() {
        switch key.number {
        case 2: targetChange = .addTarget(try reader.message(key, "add_target", as: Target.self, database: database))
        case 3: targetChange = .removeTarget(try reader.int32(key, "remove_target"))
        case 4: try Labels.decodeEntry(&reader, key, "google.firestore.v1.ListenRequest.LabelsEntry", into: &labels)
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      switch targetChange {
      case .addTarget(let target): writer.message(2, target, database: database)
      case .removeTarget(let id): writer.int32(3, id)
      case nil: break
      }
      Labels.encode(labels, 4, to: &writer)
    }
  }

  /// `google.firestore.v1.Target`: what a listener watches (documents by name, or a query
  /// under a parent), where it resumes (a resume token or a read time), its ID, whether
  /// it stops once current, and the count the client expects on resuming.
  package struct Target: WireMessage {
    package static let protobufName = "google.firestore.v1.Target"

    package enum Kind: Sendable {
      case documents([DocumentKey])
      /// `QueryTarget`: the query, whose `parent` is the query target's parent.
      case query(StructuredQuery)
    }

    package enum Resume: Sendable, Equatable {
      case resumeToken(Data)
      case readTime(Timestamp)
    }

    package var kind: Kind
    package var resume: Resume?
    /// 0 asks the server to choose one.
    package var targetID: Int32
    package var once: Bool
    package var expectedCount: Int32?

    package init(kind: Kind, resume: Resume? = nil, targetID: Int32, once: Bool = false, expectedCount: Int32? = nil) {
      self.kind = kind
      self.resume = resume
      self.targetID = targetID
      self.once = once
      self.expectedCount = expectedCount
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var kind: Kind?
      var resume: Resume?
      var targetID: Int32 = 0
      var once = false
      var expectedCount: Int32?
      while let key = try reader.next() {
        switch key.number {
        case 2:
          kind = .query(
            try reader.message(key, "query", "google.firestore.v1.Target.QueryTarget") { target in
              let parent = try FirestoreV1.peekParent(target, database: database)
              var query: StructuredQuery?
              while let key = try target.next() {
                if key.number == 2 {
                  query = try FirestoreV1.decodeQuery(&target, key, database: database, parent: parent)
                } else {
                  try target.skip(key)
                }
              }
              guard let query else { throw target.error("structured_query (2)", "the query is missing") }
              return query
            })
        case 3:
          kind = .documents(
            try reader.message(key, "documents", "google.firestore.v1.Target.DocumentsTarget") { target in
              var keys: [DocumentKey] = []
              while let key = try target.next() {
                if key.number == 2 {
                  let name = try target.string(key, "documents")
                  keys.append(try target.check(key, "documents") { try database.documentKey(name) })
                } else {
                  try target.skip(key)
                }
              }
              return keys
            })
        case 4: resume = .resumeToken(try reader.bytes(key, "resume_token"))
        case 11: resume = .readTime(try Timestamp.decode(&reader, key, "read_time"))
        case 5: targetID = try reader.int32(key, "target_id")
        case 6: once = try reader.bool(key, "once")
        case 12: expectedCount = try Wrapper.int32(&reader, key, "expected_count")
        default: try reader.skip(key)
        }
      }
      guard let kind else { throw reader.error("target_type", "a target must have documents or a query") }
      self.init(kind: kind, resume: resume, targetID: targetID, once: once, expectedCount: expectedCount)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch kind {
      case .query(let query):
        writer.message(2) { target in
          target.string(1, database.name(of: query.parent))
          target.message(2) { query.encode(to: &$0, database: database) }
        }
      case .documents(let keys):
        writer.message(3) { target in for key in keys { target.string(2, database.name(of: key)) } }
      }
      if case .resumeToken(let token) = resume { writer.bytes(4, token) }
      if targetID != 0 { writer.int32(5, targetID) }
      if once { writer.bool(6, true) }
      if case .readTime(let time) = resume { writer.message(11, time, database: database) }
      if let expectedCount { Wrapper.write(12, int32: expectedCount, to: &writer) }
    }
  }

  /// `ListenResponse`: one event of a Listen stream.
  package enum ListenResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.ListenResponse"

    case targetChange(TargetChange)
    case documentChange(DocumentChange)
    case documentDelete(DocumentDelete)
    case documentRemove(DocumentRemove)
    case filter(ExistenceFilter)

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var event: ListenResponse?
      while let key = try reader.next() {
        switch key.number {
        case 2:
          event = .targetChange(try reader.message(key, "target_change", as: TargetChange.self, database: database))
        case 3:
          event = .documentChange(
            try reader.message(key, "document_change", as: DocumentChange.self, database: database))
        case 4:
          event = .documentDelete(
            try reader.message(key, "document_delete", as: DocumentDelete.self, database: database))
        case 6:
          event = .documentRemove(
            try reader.message(key, "document_remove", as: DocumentRemove.self, database: database))
        case 5: event = .filter(try reader.message(key, "filter", as: ExistenceFilter.self, database: database))
        default: try reader.skip(key)
        }
      }
      guard let event else { throw reader.error("response_type", "a listen response must have an event set") }
      self = event
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch self {
      case .targetChange(let change): writer.message(2, change, database: database)
      case .documentChange(let change): writer.message(3, change, database: database)
      case .documentDelete(let delete): writer.message(4, delete, database: database)
      case .filter(let filter): writer.message(5, filter, database: database)
      case .documentRemove(let remove): writer.message(6, remove, database: database)
      }
    }
  }

  /// `TargetChange`: targets added, removed (with the `cause`), current or reset; with no
  /// target IDs it speaks of every target (the consistent snapshot the client raises).
  package struct TargetChange: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.TargetChange"

    /// `TargetChangeType`, by its wire numbers.
    package enum ChangeType: Int32, Sendable {
      case noChange = 0
      case add = 1
      case remove = 2
      case current = 3
      case reset = 4
    }

    package var targetChangeType: ChangeType
    package var targetIDs: [Int32]
    package var cause: Status?
    package var resumeToken: Data
    package var readTime: Timestamp?

    package init(
      targetChangeType: ChangeType, targetIDs: [Int32] = [], cause: Status? = nil, resumeToken: Data = Data(),
      readTime: Timestamp? = nil
    ) {
      self.targetChangeType = targetChangeType
      self.targetIDs = targetIDs
      self.cause = cause
      self.resumeToken = resumeToken
      self.readTime = readTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(targetChangeType: .noChange)
      while let key = try reader.next() {
        switch key.number {
        case 1:
          let raw = try reader.int32(key, "target_change_type")
          guard let type = ChangeType(rawValue: raw) else {
            throw reader.error("target_change_type (1)", "\(raw) is not a target change type")
          }
          targetChangeType = type
        case 2: try reader.int32s(key, "target_ids", into: &targetIDs)
        case 3: cause = try reader.message(key, "cause", as: Status.self, database: database)
        case 4: resumeToken = try reader.bytes(key, "resume_token")
        case 6: readTime = try Timestamp.decode(&reader, key, "read_time")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if targetChangeType != .noChange { writer.int32(1, targetChangeType.rawValue) }
      writer.packedInt32s(2, targetIDs)
      if let cause { writer.message(3, cause, database: database) }
      if !resumeToken.isEmpty { writer.bytes(4, resumeToken) }
      if let readTime { writer.message(6, readTime, database: database) }
    }
  }

  /// `DocumentChange`: a document's new state, the targets it now matches and those it
  /// stopped matching.
  package struct DocumentChange: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.DocumentChange"

    package var document: Document
    package var targetIDs: [Int32]
    package var removedTargetIDs: [Int32]

    package init(document: Document, targetIDs: [Int32], removedTargetIDs: [Int32] = []) {
      self.document = document
      self.targetIDs = targetIDs
      self.removedTargetIDs = removedTargetIDs
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var document: Document?
      var targetIDs: [Int32] = []
      var removedTargetIDs: [Int32] = []
      while let key = try reader.next() {
        switch key.number {
        case 1: document = try reader.message(key, "document", as: Document.self, database: database)
        case 5: try reader.int32s(key, "target_ids", into: &targetIDs)
        case 6: try reader.int32s(key, "removed_target_ids", into: &removedTargetIDs)
        default: try reader.skip(key)
        }
      }
      guard let document else { throw reader.error("document (1)", "the document is missing") }
      self.init(document: document, targetIDs: targetIDs, removedTargetIDs: removedTargetIDs)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.message(1, document, database: database)
      writer.packedInt32s(5, targetIDs)
      writer.packedInt32s(6, removedTargetIDs)
    }
  }

  /// `DocumentDelete`: a document was deleted, as of `read_time`.
  package struct DocumentDelete: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.DocumentDelete"

    package var key: DocumentKey
    package var removedTargetIDs: [Int32]
    package var readTime: Timestamp?

    package init(key: DocumentKey, removedTargetIDs: [Int32], readTime: Timestamp?) {
      self.key = key
      self.removedTargetIDs = removedTargetIDs
      self.readTime = readTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      (key, removedTargetIDs, readTime) = try DocumentDelete.decodeRemoval(
        &reader, database: database, removedField: 6)
    }

    /// The shared shape of `DocumentDelete` and `DocumentRemove`: a name (1), removed
    /// target IDs (6 or 2) and a read time (4).
    static func decodeRemoval(_ reader: inout ProtobufReader, database: DatabaseName, removedField: Int) throws -> (
      DocumentKey, [Int32], Timestamp?
    ) {
      var key: DocumentKey?
      var removed: [Int32] = []
      var readTime: Timestamp?
      while let field = try reader.next() {
        switch field.number {
        case 1:
          let name = try reader.string(field, "document")
          key = try reader.check(field, "document") { try database.documentKey(name) }
        case removedField: try reader.int32s(field, "removed_target_ids", into: &removed)
        case 4: readTime = try Timestamp.decode(&reader, field, "read_time")
        default: try reader.skip(field)
        }
      }
      guard let key else { throw reader.error("document (1)", "the document name is missing") }
      return (key, removed, readTime)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: key))
      if let readTime { writer.message(4, readTime, database: database) }
      writer.packedInt32s(6, removedTargetIDs)
    }
  }

  /// `DocumentRemove`: a document left these targets' view (it no longer matches).
  package struct DocumentRemove: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.DocumentRemove"

    package var key: DocumentKey
    package var removedTargetIDs: [Int32]
    package var readTime: Timestamp?

    package init(key: DocumentKey, removedTargetIDs: [Int32], readTime: Timestamp?) {
      self.key = key
      self.removedTargetIDs = removedTargetIDs
      self.readTime = readTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      (key, removedTargetIDs, readTime) = try DocumentDelete.decodeRemoval(
        &reader, database: database, removedField: 2)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: key))
      writer.packedInt32s(2, removedTargetIDs)
      if let readTime { writer.message(4, readTime, database: database) }
    }
  }

  /// `ExistenceFilter`: how many documents a target matches, so that the client can tell
  /// its cache is stale. (`unchanged_names`, a Bloom filter, is neither read nor written.)
  package struct ExistenceFilter: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.ExistenceFilter"

    package var targetID: Int32
    package var count: Int32

    package init(targetID: Int32, count: Int32) {
      self.targetID = targetID
      self.count = count
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(targetID: 0, count: 0)
      while let key = try reader.next() {
        switch key.number {
        case 1: targetID = try reader.int32(key, "target_id")
        case 2: count = try reader.int32(key, "count")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if targetID != 0 { writer.int32(1, targetID) }
      if count != 0 { writer.int32(2, count) }
    }
  }
}
