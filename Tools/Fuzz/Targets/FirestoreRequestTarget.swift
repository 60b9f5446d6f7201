import Foundation
import HearthCore
import HearthServer

/// The decoders of the Firestore requests `hearth serve` receives (HearthServer's
/// `FirestoreV1`). The first byte of the input picks the request type (mod 16; the
/// sixteenth is a lone `google.firestore.v1.Value` in a fixed database), the rest is the
/// message's bytes:
///
/// - decoding returns a request or throws `ProtobufError`, whose `hearthError` is
///   `invalidArgument` with a message; never a crash, never another error;
/// - what decodes re-encodes to bytes that decode again, to a request that encodes to the
///   same bytes (the encoding is deterministic and the decoder reads it back).
enum FirestoreRequestTarget {
  static let types: [any FirestoreRequest.Type] = [
    FirestoreV1.CommitRequest.self, FirestoreV1.BatchGetDocumentsRequest.self, FirestoreV1.RunQueryRequest.self,
    FirestoreV1.RunAggregationQueryRequest.self, FirestoreV1.ListenRequest.self,
    FirestoreV1.BeginTransactionRequest.self, FirestoreV1.RollbackRequest.self, FirestoreV1.BatchWriteRequest.self,
    FirestoreV1.GetDocumentRequest.self, FirestoreV1.ListDocumentsRequest.self,
    FirestoreV1.ListCollectionIdsRequest.self, FirestoreV1.CreateDocumentRequest.self,
    FirestoreV1.UpdateDocumentRequest.self, FirestoreV1.DeleteDocumentRequest.self,
    FirestoreV1.PartitionQueryRequest.self,
  ]
  static let database = DatabaseName(projectID: "fuzz", databaseID: "(default)")

  static func run(_ input: UnsafeRawBufferPointer) throws {
    guard let selector = input.first else { return }
    let payload = Array(input.dropFirst())
    let index = Int(selector) % (types.count + 1)
    if index == types.count {
      try roundTrip("Value", payload) {
        try Value(protobuf: $0, database: database)
      } encode: {
        $0.protobuf(database: database)
      }
    } else {
      let type = types[index]
      try roundTrip("\(type)", payload) {
        try type.init(protobuf: $0)
      } encode: {
        $0.protobuf()
      }
    }
  }

  static func roundTrip<Message>(
    _ name: String, _ bytes: [UInt8], decode: ([UInt8]) throws -> Message, encode: (Message) -> [UInt8]
  ) throws {
    let decoded: Message
    do {
      decoded = try decode(bytes)
    } catch let error as ProtobufError {
      try requireHearthError(error.hearthError, .invalidArgument, from: name)
      return
    } catch {
      throw PropertyViolation("\(name) threw \(type(of: error)), not a ProtobufError: \(error)")
    }
    let encoded = encode(decoded)
    let again: Message
    do {
      again = try decode(encoded)
    } catch {
      throw PropertyViolation("\(name) re-encoded does not decode: \(error); from \(hex(bytes)) to \(hex(encoded))")
    }
    let twice = encode(again)
    try require(twice == encoded, "\(name) encodes differently after a round trip: \(hex(encoded)) then \(hex(twice))")
  }
}
