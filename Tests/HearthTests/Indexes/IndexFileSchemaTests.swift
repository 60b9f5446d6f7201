import Foundation
import Hearth
import Testing

/// What `declaredIndexesJSON()` writes is valid against `Schemas/firestore.indexes.schema.json`,
/// checked with a standard JSON Schema validator (Python's `jsonschema`, installed by
/// Tools/setup.sh), and what the schema rejects Hearth rejects too.
@Suite struct IndexFileSchemaTests {
  /// The repository's root (this file is `Tests/HearthTests/<folder>/<name>.swift`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Validates `json` with the schema; returns the validator's complaint, or `nil`.
  func schemaProblem(_ json: String) throws -> String? {
    let schema = Self.root.appendingPathComponent("Schemas/firestore.indexes.schema.json").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import json, sys, jsonschema; jsonschema.validate(json.load(sys.stdin), json.load(open(sys.argv[1])))",
      schema,
    ]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(json.utf8))
    try input.fileHandleForWriting.close()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : message
  }

  @Test func declaredIndexesAreValidAgainstTheSchema() throws {
    let db = try Database.temporary()
    defer { db.close() }
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
    let other = try Database.temporary()
    defer { other.close() }
    try other.declareIndexes(json: written)
    #expect(try other.declaredIndexesJSON() == written)
  }

  @Test func anIndexFileThatIsNotUTF8IsInvalidNamingTheLineAndByte() throws {
    try withScratchDirectory { directory in
      let db = try Database.temporary()
      defer { db.close() }
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

  @Test func whatTheSchemaRejectsHearthRejects() throws {
    let db = try Database.temporary()
    defer { db.close() }
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
      let error = try #require(throws: HearthError.self, "Hearth accepts \(json)") { try db.declareIndexes(json: json) }
      #expect(error.code == .invalidArgument)
    }
  }
}
