import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// Damaged bytes inside values, which verified pages can still hold: Hearth's own
/// readers must turn them into `dataLoss`, never trap on them.
@Suite struct DamagedValueTests {
  /// A database with `users/alice/posts/p1` whose collections table then holds `damaged`
  /// as the path of `users/alice/posts` (found in the sweep: one flipped byte turned a
  /// collection path into a document path, and a collection-group query trapped).
  func withDamagedCollectionPath(_ damaged: String, _ body: (DocumentStore) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-value-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try DocumentStore(path: path)
    try store.commit([Write(key: try DocumentKey(parsing: "users/alice/posts/p1"), kind: .set(["likes": .integer(3)]))])
    let number = try #require(
      try store.read { try store.registry.number(of: ResourcePath.parse("users/alice/posts"), in: $0.txn) })
    try store.environment.write { txn in
      try txn.put(number.bytes, Array(damaged.utf8), in: store.tables.collections)
    }
    store.close()
    // A new process's view: nothing of the old path is cached.
    let reopened = try DocumentStore(path: path)
    defer { reopened.close() }
    try body(reopened)
  }

  @Test(arguments: ["users/aliceoposts", "users//posts", "", "users/alice"])
  func aDamagedCollectionPathIsDataLossForGroupQueries(damaged: String) throws {
    try withDamagedCollectionPath(damaged) { store in
      #expect {
        try store.read { try $0.run(QueryModel(target: .group("posts"))) }
      } throws: { error in
        (error as? HearthError)?.code == .dataLoss && "\(error)".contains("has a damaged path in the collections table")
      }
    }
  }
}
