import Foundation
import Hearth
import HearthTestSupport
import Testing

/// What `declaredIndexesJSON()` writes is valid against `Schemas/firestore.indexes.schema.json`,
/// checked with a standard JSON Schema validator (Python's `jsonschema`, installed by
/// Tools/setup.sh; a validator that cannot run fails these tests), and what the schema
/// rejects Hearth rejects too.
@Suite struct IndexFileSchemaTests {
  /// The schema's complaint about `json`, or `nil` when it is valid.
  func schemaProblem(_ json: String) throws -> String? {
    try JSONSchemaValidator.verdict(json, schema: "firestore.indexes.schema.json")
  }

  @Test func declaredIndexesAreValidAgainstTheSchema() throws {
    try withDatabase { db in
      try db.declareIndexes(
        json: """
          {"indexes": [
             {"collectionGroup": "posts", "queryScope": "COLLECTION",
              "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, {"fieldPath": "createdAt", "order": "DESCENDING"}]},
             {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
              "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "likes", "order": "ASCENDING"}]}],
           "fieldOverrides": [
             {"collectionGroup": "posts", "fieldPath": "body", "indexes": []},
             {"collectionGroup": "posts", "fieldPath": "ownerId",
              "indexes": [{"order": "ASCENDING", "queryScope": "COLLECTION"}, {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}]}]}
          """)
      let written = try db.declaredIndexesJSON()
      #expect(try schemaProblem(written) == nil)
      // The file reads back as the same declarations.
      try withDatabase { other in
        try other.declareIndexes(json: written)
        #expect(try other.declaredIndexesJSON() == written)
      }
    }
  }

  @Test func anIndexFileThatIsNotUTF8IsInvalidNamingTheLineAndByte() throws {
    try withScratchDirectory { directory in
      try withDatabase { db in
        let file = directory + "/firestore.indexes.json"
        let bytes =
          Array("{\"indexes\": [\n  {\"collectionGroup\": \"caf".utf8) + [0xE9]
          + Array(#"", "queryScope": "COLLECTION", "fields": []}]}"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        expectHearthError(.invalidArgument, mentioning: [file, "line 2", "invalid UTF-8 byte 0xE9"]) {
          try db.declareIndexes(fromFile: file)
        }
        expectHearthError(.notFound, mentioning: [directory + "/missing.json"]) {
          try db.declareIndexes(fromFile: directory + "/missing.json")
        }
      }
    }
  }

  @Test func whatTheSchemaRejectsHearthRejects() throws {
    try withDatabase { db in
      let invalid = [
        #"{"indexes": [{"collectionGroup": "posts", "fields": []}]}"#,
        #"{"indexes": [{"collectionGroup": "posts", "fields": [{"fieldPath": "a", "order": "UP"}]}]}"#,
        #"{"indexes": [{"collectionGroup": "a/b", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#,
        #"{"indexes": [{"fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#,
        #"{"indexes": [{"collectionGroup": "p", "queryScope": "DATABASE", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#,
        #"{"fieldOverrides": [{"collectionGroup": "p", "fieldPath": "a"}]}"#,
        #"{"extra": []}"#,
      ]
      for json in invalid {
        #expect(try schemaProblem(json) != nil, "the schema accepts \(json)")
        let error = try #require(throws: HearthError.self, "Hearth accepts \(json)") {
          try db.declareIndexes(json: json)
        }
        #expect(error.code == .invalidArgument)
      }
    }
  }
}
