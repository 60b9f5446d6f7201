import Foundation
import HearthCore

/// The google.firestore.v1 messages, in Firestore's own names, decoded into HearthCore's
/// values where it has them (`Value`, `QueryModel`, `Write`, …) and into the small types
/// of this namespace where the wire says more than HearthCore models (a projection, an
/// offset, an update-time precondition).
///
/// A handler turns a request's bytes into HearthCore values and its answer into bytes:
///
/// ```swift
/// let request = try FirestoreV1.CommitRequest(protobuf: bytes)  // ProtobufError: INVALID_ARGUMENT
/// let writes = request.writes.map(\.write)                      // HearthCore `Write`s
/// // … commit them (their preconditions included) …
/// let response = FirestoreV1.CommitResponse(writeResults: results, commitTime: time)
/// return response.protobuf(database: request.database)
/// ```
///
/// Requests (`FirestoreRequest`) find their database in their own fields; responses take
/// the request's database to write names and references. A `ProtobufError`'s
/// `hearthError` is the INVALID_ARGUMENT status to answer with.
package enum FirestoreV1 {}

/// A protobuf message of the Firestore API with its decoder and encoder.
///
/// Both take the database the message belongs to: a `reference_value` names a document by
/// its full resource name, and HearthCore's `.reference` holds only the document's key
/// within one database.
package protocol WireMessage: Sendable {
  /// The message's full protobuf name, for errors: `google.firestore.v1.Document`.
  static var protobufName: String { get }
  /// Decodes the message from its fields (the reader loops over `next()`).
  init(decoding reader: inout ProtobufReader, database: DatabaseName) throws
  /// Appends the message's fields, in field-number order.
  func encode(to writer: inout ProtobufWriter, database: DatabaseName)
}

extension WireMessage {
  /// Decodes a whole message of this type from `bytes`.
  ///
  /// - Throws: `ProtobufError` (INVALID_ARGUMENT) for anything but a valid message.
  package init(protobuf bytes: [UInt8], database: DatabaseName) throws {
    self = try ProtobufReader.read(bytes, message: Self.protobufName) { try Self(decoding: &$0, database: database) }
  }

  package init(protobuf bytes: UnsafeRawBufferPointer, database: DatabaseName) throws {
    self = try ProtobufReader.read(bytes, message: Self.protobufName) { try Self(decoding: &$0, database: database) }
  }

  /// The message's bytes.
  package func protobuf(database: DatabaseName) -> [UInt8] {
    var writer = ProtobufWriter()
    encode(to: &writer, database: database)
    return writer.bytes
  }
}

/// A request the server receives: it names its own database (in a `database`, `parent`
/// or `name` field), which decoding its values needs, so it decodes from bytes alone.
package protocol FirestoreRequest: WireMessage {
  /// The database the request names, found before its other fields are decoded.
  static func database(peeking reader: ProtobufReader) throws -> DatabaseName
  var database: DatabaseName { get }
}

extension FirestoreRequest {
  /// Decodes a request from the bytes of a gRPC message.
  ///
  /// - Throws: `ProtobufError` (INVALID_ARGUMENT): malformed bytes, a malformed name, a
  ///   value HearthCore cannot hold.
  package init(protobuf bytes: UnsafeRawBufferPointer) throws {
    self = try ProtobufReader.read(bytes, message: Self.protobufName) { reader in
      try Self(decoding: &reader, database: Self.database(peeking: reader))
    }
  }

  package init(protobuf bytes: [UInt8]) throws {
    self = try bytes.withUnsafeBytes { try Self(protobuf: $0) }
  }

  /// The request's bytes (for tests and clients).
  package func protobuf() -> [UInt8] { protobuf(database: database) }

  /// The database of a request whose field `number` is a database name
  /// (`projects/P/databases/D`).
  static func databaseField(_ reader: ProtobufReader, _ number: Int, _ name: String) throws -> DatabaseName {
    guard let text = try reader.peekString(number, name), !text.isEmpty else {
      throw reader.error("\(name) (\(number))", "the database name is missing")
    }
    do {
      return try DatabaseName(parsing: text)
    } catch let failure as HearthError {
      throw reader.error("\(name) (\(number))", failure.message)
    }
  }

  /// The database of a request whose field `number` is a resource name under a database
  /// (a parent or a document name).
  static func databaseOfResource(_ reader: ProtobufReader, _ number: Int, _ name: String) throws -> DatabaseName {
    guard let text = try reader.peekString(number, name), !text.isEmpty else {
      throw reader.error("\(name) (\(number))", "the resource name is missing")
    }
    do {
      return try DatabaseName.parseResource(text).database
    } catch let failure as HearthError {
      throw reader.error("\(name) (\(number))", failure.message)
    }
  }
}

extension ProtobufReader {
  /// The embedded message of type `M` in this field.
  package mutating func message<M: WireMessage>(
    _ key: FieldKey, _ name: String, as type: M.Type, database: DatabaseName
  ) throws -> M {
    try message(key, name, M.protobufName) { try M(decoding: &$0, database: database) }
  }
}

extension ProtobufWriter {
  /// `value` as the embedded message in field `number`.
  package mutating func message(_ number: Int, _ value: some WireMessage, database: DatabaseName) {
    message(number) { value.encode(to: &$0, database: database) }
  }
}
