import Foundation
import HearthCore

extension FirestoreV1 {
  /// `google.firestore.v1.Write`, as HearthCore's `Write` plus what it lacks.
  ///
  /// - `update` without `update_mask` is `.set(fields)`; with one, `.patch(fields:mask:)`
  ///   (the mask's paths missing from the fields are deleted, as in Firestore).
  /// - `delete` is `.delete`.
  /// - `transform` (a `DocumentTransform` on its own, which older clients send) is
  ///   `.patch(fields: [:], mask: [])` with its transforms: the transforms alone change
  ///   the document, as Firestore applies them.
  /// - `current_document` is kept as sent (`currentDocument`) and becomes the HearthCore
  ///   write's precondition (`exists` or `updateTime`), which the commit checks.
  package struct Write: WireMessage {
    package static let protobufName = "google.firestore.v1.Write"

    /// Which member of the `operation` oneof carried the write.
    package enum Operation: Sendable, Equatable {
      case update, delete, transform
    }

    package var write: HearthCore.Write
    package var operation: Operation
    package var currentDocument: Precondition?

    package init(_ write: HearthCore.Write, currentDocument: Precondition? = nil, operation: Operation? = nil) {
      var write = write
      if let currentDocument { write.precondition = currentDocument.hearthPrecondition }
      self.write = write
      self.currentDocument = currentDocument
      if let operation {
        self.operation = operation
      } else if case .delete = write.kind {
        self.operation = .delete
      } else {
        self.operation = .update
      }
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var document: Document?
      var deleted: DocumentKey?
      var transform: (key: DocumentKey, transforms: [HearthCore.FieldTransform])?
      var operation: Operation?
      var mask: DocumentMask?
      var updateTransforms: [HearthCore.FieldTransform] = []
      var currentDocument: Precondition?
      while let key = try reader.next() {
        switch key.number {
        case 1:
          document = try reader.message(key, "update", as: Document.self, database: database)
          operation = .update
        case 2:
          let name = try reader.string(key, "delete")
          deleted = try reader.check(key, "delete") { try database.documentKey(name) }
          operation = .delete
        case 6:
          transform = try reader.message(key, "transform", "google.firestore.v1.DocumentTransform") {
            try Write.decodeDocumentTransform(&$0, database: database)
          }
          operation = .transform
        case 3: mask = try reader.message(key, "update_mask", as: DocumentMask.self, database: database)
        case 7:
          updateTransforms.append(
            try reader.message(key, "update_transforms", as: HearthCore.FieldTransform.self, database: database))
        case 4: currentDocument = try reader.message(key, "current_document", as: Precondition.self, database: database)
        default: try reader.skip(key)
        }
      }
      let kind: HearthCore.Write.Kind
      let documentKey: DocumentKey
      var transforms = updateTransforms
      switch operation {
      case .update:
        let document = document!
        documentKey = document.key
        kind = mask.map { .patch(fields: document.fields, mask: $0.fieldPaths) } ?? .set(document.fields)
      case .delete:
        documentKey = deleted!
        kind = .delete
      case .transform:
        documentKey = transform!.key
        transforms = transform!.transforms
        kind = .patch(fields: [:], mask: [])
      case nil:
        throw reader.error("operation", "a write must have one of update, delete or transform")
      }
      if operation != .update, mask != nil {
        throw reader.error("update_mask (3)", "an update mask can be set only when the operation is update")
      }
      if operation != .update, !updateTransforms.isEmpty {
        throw reader.error("update_transforms (7)", "update transforms can be set only when the operation is update")
      }
      self.init(
        HearthCore.Write(key: documentKey, kind: kind, transforms: transforms), currentDocument: currentDocument,
        operation: operation)
    }

    /// A `DocumentTransform`: the document's name and its field transforms.
    static func decodeDocumentTransform(_ reader: inout ProtobufReader, database: DatabaseName) throws -> (
      key: DocumentKey, transforms: [HearthCore.FieldTransform]
    ) {
      var name: String?
      var transforms: [HearthCore.FieldTransform] = []
      var documentKey: FieldKey?
      while let key = try reader.next() {
        switch key.number {
        case 1:
          name = try reader.string(key, "document")
          documentKey = key
        case 2:
          transforms.append(
            try reader.message(key, "field_transforms", as: HearthCore.FieldTransform.self, database: database))
        default: try reader.skip(key)
        }
      }
      guard let name, let documentKey else { throw reader.error("document (1)", "a transform must name its document") }
      return (try reader.check(documentKey, "document") { try database.documentKey(name) }, transforms)
    }

    /// Fields in number order: `update` (1) or `delete` (2), `update_mask` (3),
    /// `current_document` (4), `transform` (6), `update_transforms` (7).
    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch (operation, write.kind) {
      case (.delete, _), (_, .delete):
        writer.string(2, database.name(of: write.key))
      case (.transform, _):
        break
      case (.update, .set(let fields)):
        writer.message(1, Document(key: write.key, fields: fields), database: database)
      case (.update, .patch(let fields, let mask)):
        writer.message(1, Document(key: write.key, fields: fields), database: database)
        writer.message(3, DocumentMask(fieldPaths: mask), database: database)
      }
      if let currentDocument {
        writer.message(4, currentDocument, database: database)
      } else if case .exists(let exists) = write.precondition {
        writer.message(4, Precondition.exists(exists), database: database)
      } else if case .updateTime(let time) = write.precondition {
        writer.message(4, Precondition.updateTime(time), database: database)
      }
      if operation == .transform {
        writer.message(6) { transform in
          transform.string(1, database.name(of: write.key))
          for field in write.transforms { transform.message(2, field, database: database) }
        }
      } else if operation == .update {
        for field in write.transforms { writer.message(7, field, database: database) }
      }
    }
  }

  /// `google.firestore.v1.WriteResult`: the write's update time (absent for a delete of a
  /// missing document… and for every write of a failed batch) and the transforms' results.
  package struct WriteResult: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.WriteResult"

    package var updateTime: Timestamp?
    package var transformResults: [Value]

    package init(updateTime: Timestamp?, transformResults: [Value] = []) {
      self.updateTime = updateTime
      self.transformResults = transformResults
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      updateTime = nil
      transformResults = []
      while let key = try reader.next() {
        switch key.number {
        case 1: updateTime = try Timestamp.decode(&reader, key, "update_time")
        case 2:
          transformResults.append(try reader.message(key, "transform_results", as: Value.self, database: database))
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if let updateTime { writer.message(1, updateTime, database: database) }
      Value.encodeArray(transformResults, field: 2, to: &writer, database: database)
    }

    package static func == (a: WriteResult, b: WriteResult) -> Bool {
      a.updateTime == b.updateTime && a.transformResults.count == b.transformResults.count
        && zip(a.transformResults, b.transformResults).allSatisfy { $0.isIdentical(to: $1) }
    }
  }
}

extension FirestoreV1.Precondition {
  /// HearthCore's precondition, which the commit checks.
  var hearthPrecondition: HearthCore.Write.Precondition {
    switch self {
    case .exists(let exists): .exists(exists)
    case .updateTime(let time): .updateTime(time)
    case .none: .none
    }
  }
}

/// `google.firestore.v1.DocumentTransform.FieldTransform`, straight into HearthCore's
/// `FieldTransform`: `set_to_server_value: REQUEST_TIME` is `.serverTimestamp`,
/// `increment`/`maximum`/`minimum` carry their operand, `append_missing_elements` is
/// `.arrayUnion` and `remove_all_from_array` `.arrayRemove`. Whether an operand is a
/// number is checked with the write (`FirestoreService.checked`).
extension FieldTransform: WireMessage {
  package static let protobufName = "google.firestore.v1.DocumentTransform.FieldTransform"

  package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
    var path: FieldPath?
    var operation: TransformOperation?
    while let key = try reader.next() {
      switch key.number {
      case 1:
        let text = try reader.string(key, "field_path")
        path = try reader.check(key, "field_path") { try FieldPath.parse(canonical: text) }
      case 2:
        let server = try reader.int32(key, "set_to_server_value")
        guard server == 1 else {
          throw reader.error("set_to_server_value (2)", "\(server) is not a server value (REQUEST_TIME is 1)")
        }
        operation = .serverTimestamp
      case 3: operation = .increment(try reader.message(key, "increment", as: Value.self, database: database))
      case 4: operation = .maximum(try reader.message(key, "maximum", as: Value.self, database: database))
      case 5: operation = .minimum(try reader.message(key, "minimum", as: Value.self, database: database))
      case 6:
        operation = .arrayUnion(
          try reader.message(key, "append_missing_elements", Value.arrayName) {
            try Value.decodeArray(&$0, database: database)
          })
      case 7:
        operation = .arrayRemove(
          try reader.message(key, "remove_all_from_array", Value.arrayName) {
            try Value.decodeArray(&$0, database: database)
          })
      default: try reader.skip(key)
      }
    }
    guard let path else { throw reader.error("field_path (1)", "a field transform must name its field") }
    guard let operation else { throw reader.error("transform_type", "a field transform must have a transform set") }
    self.init(path: path, operation: operation)
  }

  package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
    writer.string(1, path.canonical)
    switch operation {
    case .serverTimestamp: writer.int32(2, 1)
    case .increment(let value): writer.message(3, value, database: database)
    case .maximum(let value): writer.message(4, value, database: database)
    case .minimum(let value): writer.message(5, value, database: database)
    case .arrayUnion(let values): writer.message(6) { Value.encodeArray(values, field: 1, to: &$0, database: database) }
    case .arrayRemove(let values):
      writer.message(7) { Value.encodeArray(values, field: 1, to: &$0, database: database) }
    }
  }
}
