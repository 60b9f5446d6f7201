import Foundation
import HearthCore
import HearthServer
import Testing

/// Malformed bytes are errors naming the message and the field, never traps; unknown
/// fields and both forms of repeated scalars are read as protobuf requires.
@Suite struct ProtobufReaderTests {
  let database = WireCases.database

  func valueError(_ bytes: [UInt8]) -> ProtobufError? {
    do {
      _ = try Value(protobuf: bytes, database: database)
      return nil
    } catch let error as ProtobufError {
      return error
    } catch {
      Issue.record("not a ProtobufError: \(error)")
      return nil
    }
  }

  @Test func truncatedVarintIsAnError() throws {
    // integer_value (2) whose varint never ends.
    let error = try #require(valueError([0x10, 0x80, 0x80]))
    #expect(error.message == "google.firestore.v1.Value")
    #expect(error.field == "integer_value (2)")
    #expect(error.problem.contains("cut off"))
    #expect(error.hearthError.code == .invalidArgument)
  }

  @Test func overlongVarintIsAnError() throws {
    let error = try #require(valueError([0x10] + Array(repeating: 0xFF, count: 9) + [0x7F]))
    #expect(error.problem.contains("64 bits"))
  }

  @Test func lengthPastTheEndIsAnError() throws {
    // string_value (17) claiming 100 bytes with 2 present.
    let error = try #require(valueError([0x8A, 0x01, 100, 0x61, 0x62]))
    #expect(error.field == "string_value (17)")
    #expect(error.problem.contains("past the end"))
    // A length that does not fit in an Int.
    #expect(valueError([0x8A, 0x01] + Array(repeating: 0xFF, count: 9) + [0x01]) != nil)
  }

  @Test func wrongWireTypeIsAnError() throws {
    // double_value (3) sent as a varint.
    let error = try #require(valueError([0x18, 0x01]))
    #expect(error.field == "double_value (3)")
    #expect(error.problem.contains("expected fixed64"))
    // map_value (6) sent as fixed32.
    #expect(try #require(valueError([0x35, 0, 0, 0, 0])).field == "map_value (6)")
  }

  @Test func invalidUTF8IsAnErrorNamingTheField() throws {
    let error = try #require(valueError([0x8A, 0x01, 2, 0xC3, 0x28]))
    #expect(error.field == "string_value (17)")
    #expect(error.problem.contains("UTF-8"))
    // Inside a map's key, with the path that led there.
    let nested = try #require(valueError([0x32, 0x08, 0x0A, 0x06, 0x0A, 0x02, 0xFF, 0xFE, 0x12, 0x00]))
    #expect(nested.message == "google.firestore.v1.MapValue.FieldsEntry")
    #expect(nested.field == "key (1)")
    #expect(nested.path == ["Value.map_value", "MapValue.fields"])
    #expect(nested.description.contains("Invalid google.firestore.v1.MapValue.FieldsEntry field key (1)"))
  }

  @Test func errorsDeepInARequestNameTheWayThere() throws {
    let request = FirestoreV1.CommitRequest(
      database: database,
      writes: [
        FirestoreV1.Write(
          HearthCore.Write(key: WireCases.key("cities/SF"), kind: .set(["name": .string("\u{1}\u{2}")])))
      ])
    var bytes = request.protobuf()
    let marker: [UInt8] = [0x01, 0x02]
    let at = try #require(
      (0..<(bytes.count - 1)).last { bytes[$0] == marker[0] && bytes[$0 + 1] == marker[1] })
    bytes[at] = 0xFF
    do {
      _ = try FirestoreV1.CommitRequest(protobuf: bytes)
      Issue.record("invalid UTF-8 decoded")
    } catch let error as ProtobufError {
      #expect(error.message == "google.firestore.v1.Value" && error.field == "string_value (17)")
      #expect(error.path == ["CommitRequest.writes", "Write.update", "Document.fields", "Document.FieldsEntry.value"])
      #expect(error.hearthError.code == .invalidArgument)
      #expect(error.hearthError.message.contains("(in CommitRequest.writes > Write.update"))
    }
  }

  @Test func groupsAndBadWireTypesAreRefused() throws {
    #expect(try #require(valueError([0x0B, 0x0C])).problem.contains("groups"))
    #expect(try #require(valueError([0x0E])).problem.contains("wire type 6"))
    #expect(try #require(valueError([0x00])).problem.contains("field number 0"))
  }

  @Test func nestingPastTheLimitIsAnError() throws {
    // Arrays of arrays, 120 deep: each level is Value.array_value → ArrayValue.values,
    // two messages.
    var deep: [UInt8] = [0x08, 0x01]
    for _ in 0..<120 {
      let array = [0x0A] + varint(deep.count) + deep
      deep = [0x4A] + varint(array.count) + array
    }
    let failure = try #require(valueError(deep))
    #expect(failure.problem.contains("nest more than \(ProtobufReader.maxDepth)"))
    // 40 levels (80 messages) are within the limit.
    var fine: [UInt8] = [0x08, 0x01]
    for _ in 0..<40 {
      let array = [0x0A] + varint(fine.count) + fine
      fine = [0x4A] + varint(array.count) + array
    }
    #expect(valueError(fine) == nil)
  }

  @Test func missingKindsAndUnsupportedKindsAreErrors() throws {
    #expect(try #require(valueError([])).problem.contains("one of its kinds"))
    #expect(try #require(valueError([0x9A, 0x01, 0x01, 0x61])).problem.contains("pipeline"))
    // A reference outside the request's database, and a collection instead of a document.
    let other = Array("projects/other/databases/(default)/documents/a/b".utf8)
    #expect(try #require(valueError([0x2A] + varint(other.count) + other)).problem.contains("request's database"))
    let collection = Array("projects/demo-proj/databases/(default)/documents/a".utf8)
    #expect(try #require(valueError([0x2A] + varint(collection.count) + collection)).problem.contains("even number"))
  }

  @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
    let unknown: [UInt8] = [
      0xA0, 0x38, 0x96, 0x01, 0xA9, 0x38, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0xB2, 0x38, 0x02, 0x08, 0x01, 0xBD, 0x38, 7, 0,
      0, 0,
    ]
    let value = try Value(protobuf: unknown + [0x10, 0x05] + unknown, database: database)
    #expect(value.isIdentical(to: .integer(5)))
  }

  @Test func lastOneofMemberWins() throws {
    let value = try Value(protobuf: [0x10, 0x05, 0x08, 0x01], database: database)
    #expect(value.isIdentical(to: .boolean(true)))
  }

  @Test func repeatedScalarsReadPackedAndUnpacked() throws {
    let name = Array("projects/demo-proj/databases/(default)/documents/a/b".utf8)
    let document: [UInt8] = [0x0A] + varint(name.count) + name
    let body = [0x0A] + varint(document.count) + document
    // target_ids (5) unpacked: 1, 2; then packed: 3, -1 (ten bytes).
    let minusOne: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01]
    let bytes = body + [0x28, 0x01, 0x28, 0x02, 0x2A, UInt8(1 + minusOne.count), 0x03] + minusOne
    let change = try FirestoreV1.DocumentChange(protobuf: bytes, database: database)
    #expect(change.targetIDs == [1, 2, 3, -1])
    // Written packed, as proto3 writes them.
    #expect(change.protobuf(database: database).suffix(15) == [0x2A, 0x0D, 0x01, 0x02, 0x03] + minusOne)
  }

  @Test func mapKeysThatSwiftEquatesAreRefused() throws {
    func entry(_ key: String) -> [UInt8] {
      let keyBytes = Array(key.utf8)
      let body: [UInt8] = [0x0A] + varint(keyBytes.count) + keyBytes + [0x12, 0x02, 0x08, 0x01]
      return [0x0A] + varint(body.count) + body
    }
    let decomposed = entry("\u{E9}") + entry("e\u{301}")
    let error = try #require(valueError([0x32] + varint(decomposed.count) + decomposed))
    #expect(error.problem.contains("Unicode normalization"))
    // The same key twice keeps the last value.
    let twice = entry("a") + entry("a")
    #expect(valueError([0x32] + varint(twice.count) + twice) == nil)
  }

  @Test func requestsWithoutOrWithMalformedNamesAreErrors() throws {
    #expect(throws: ProtobufError.self) { try FirestoreV1.CommitRequest(protobuf: []) }
    let bad = Array("projects/p/databases".utf8)
    do {
      _ = try FirestoreV1.CommitRequest(protobuf: [0x0A] + varint(bad.count) + bad)
      Issue.record("a malformed database name decoded")
    } catch let error as ProtobufError {
      #expect(error.field == "database (1)")
      #expect(error.problem.contains("projects/{project_id}/databases/{database_id}"))
    }
    let empty = Array("projects/p/databases/d/documents/a//b".utf8)
    #expect(throws: ProtobufError.self) {
      try FirestoreV1.GetDocumentRequest(protobuf: [0x0A] + varint(empty.count) + empty)
    }
    let collection = Array("projects/p/databases/d/documents/a".utf8)
    #expect(throws: ProtobufError.self) {
      try FirestoreV1.RunQueryRequest(protobuf: [0x0A] + varint(collection.count) + collection + [0x12, 0x00])
    }
  }

  @Test func writerBackpatchesLongLengths() throws {
    // A string of 300 bytes inside a map inside a value: lengths of two bytes, twice.
    let long = String(repeating: "x", count: 300)
    let value = Value.map(["k": .string(long)])
    let bytes = value.protobuf(database: database)
    // Value.map_value (6), 313 bytes: the entry (310), its value (304), the string (300).
    #expect(bytes.prefix(3) == [0x32, 0xB9, 0x02])
    #expect(bytes.count == 316)
    #expect(try Value(protobuf: bytes, database: database).isIdentical(to: value))
  }

  func varint(_ value: Int) -> [UInt8] {
    var value = UInt64(value)
    var bytes: [UInt8] = []
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    return bytes + [UInt8(value)]
  }
}
