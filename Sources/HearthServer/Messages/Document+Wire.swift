import Foundation
import HearthCore

extension FirestoreV1 {
  /// `google.firestore.v1.Document`: a document's key (from its full name, which must be
  /// in the request's database), its fields, and its times (output only: absent in
  /// writes).
  package struct Document: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.Document"

    package var key: DocumentKey
    package var fields: [String: Value]
    package var createTime: Timestamp?
    package var updateTime: Timestamp?

    package init(key: DocumentKey, fields: [String: Value], createTime: Timestamp? = nil, updateTime: Timestamp? = nil)
    {
      self.key = key
      self.fields = fields
      self.createTime = createTime
      self.updateTime = updateTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var name: String?
      var fields: [String: Value] = [:]
      var createTime: Timestamp?
      var updateTime: Timestamp?
      while let key = try reader.next() {
        switch key.number {
        case 1: name = try reader.string(key, "name")
        case 2:
          let (field, value) = try reader.message(key, "fields", "google.firestore.v1.Document.FieldsEntry") {
            try Value.decodeMapEntry(&$0, database: database)
          }
          try Value.insert(field, value, into: &fields, reader: reader, key: key)
        case 3: createTime = try Timestamp.decode(&reader, key, "create_time")
        case 4: updateTime = try Timestamp.decode(&reader, key, "update_time")
        default: try reader.skip(key)
        }
      }
      guard let name else { throw reader.error("name (1)", "a document must have a name") }
      do {
        self.key = try database.documentKey(name)
      } catch let failure as HearthError {
        throw reader.error("name (1)", failure.message)
      }
      self.fields = fields
      self.createTime = createTime
      self.updateTime = updateTime
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: key))
      Value.encodeMap(fields, field: 2, to: &writer, database: database)
      if let createTime { writer.message(3, createTime, database: database) }
      if let updateTime { writer.message(4, updateTime, database: database) }
    }

    /// Equal keys and times, and fields identical by `Value.isIdentical` (NaN equals
    /// itself, `-0.0` differs from `0.0`).
    package static func == (a: Document, b: Document) -> Bool {
      a.key == b.key && a.createTime == b.createTime && a.updateTime == b.updateTime
        && Value.identicalFields(a.fields, b.fields)
    }
  }

  /// `google.firestore.v1.DocumentMask`: field paths in Firestore's canonical form
  /// (`` a.`b c` ``), parsed into `FieldPath`s and written back canonically.
  package struct DocumentMask: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.DocumentMask"

    package var fieldPaths: [FieldPath]

    package init(fieldPaths: [FieldPath]) { self.fieldPaths = fieldPaths }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      fieldPaths = []
      while let key = try reader.next() {
        if key.number == 1 {
          let text = try reader.string(key, "field_paths")
          fieldPaths.append(try reader.check(key, "field_paths") { try FieldPath.parse(canonical: text) })
        } else {
          try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for path in fieldPaths { writer.string(1, path.canonical) }
    }
  }

  /// `google.firestore.v1.Precondition`: the document must exist (or not), or must have
  /// been last updated at exactly this time. HearthCore's `Write.Precondition` has no
  /// update-time case, hence this type.
  package enum Precondition: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.Precondition"

    case exists(Bool)
    case updateTime(Timestamp)
    /// The message was sent with neither condition (the empty message).
    case none

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var condition = Precondition.none
      while let key = try reader.next() {
        switch key.number {
        case 1: condition = .exists(try reader.bool(key, "exists"))
        case 2: condition = .updateTime(try Timestamp.decode(&reader, key, "update_time"))
        default: try reader.skip(key)
        }
      }
      self = condition
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch self {
      case .exists(let exists): writer.bool(1, exists)
      case .updateTime(let time): writer.message(2, time, database: database)
      case .none: break
      }
    }
  }
}
