import Foundation
import Hearth
import Testing

/// `Database.firestore()`, the shared default database. Serialized: it changes the
/// process-wide `Settings.defaultPath`.
@Suite(.serialized) struct DatabaseLifecycleTests {
  @Test func firestoreOpensTheDefaultPathOnceAndAgainAfterClose() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-default-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    Settings.defaultPath = path
    let first = Firestore.firestore()
    #expect(first === Database.firestore())
    try first.document("users/alice").setData(["name": "Alice"])
    first.close()
    let error = try #require(throws: HearthError.self) { try first.document("users/alice").getDocument() }
    #expect(error.code == .failedPrecondition)

    let second = Database.firestore()
    #expect(second !== first)
    #expect(try second.document("users/alice").getDocument().get("name") as? String == "Alice")
    second.close()
  }

  @Test func aDefaultPathThatCannotBeOpenedFailsEveryOperationWithoutCrashing() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-not-a-dir-\(UUID().uuidString)")
      .path
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    Settings.defaultPath = file
    let db = Database.firestore()
    #expect(throws: HearthError.self) { try db.document("users/alice").setData(["name": "Alice"]) }
    #expect(throws: HearthError.self) { try db.collection("users").getDocuments() }
    db.close()
  }

  @Test func temporaryDatabasesDisappearOnClose() throws {
    let db = try Database.temporary()
    try db.document("a/b").setData(["x": 1])
    #expect(FileManager.default.fileExists(atPath: db.path))
    db.close()
    #expect(!FileManager.default.fileExists(atPath: db.path))
  }

  @Test func aDirectoryThatIsNotADatabaseIsRefusedWithDataLossOrNotFound() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-garbage-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
      to: URL(fileURLWithPath: path + "/data.mdb"))
    let error = try #require(throws: HearthError.self) { try Database(path: path) }
    #expect(error.code == .dataLoss)
    #expect(error.message.contains(path))
  }
}
