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
    try withStore(at: path) { reopened in
      try body(reopened)
    }
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

/// Damaged numbers in the meta table and the change log (the sweep found the format
/// number trapping every open): each is `dataLoss` where it is read.
@Suite struct DamagedCounterTests {
  /// A database with one document, whose table `table` then holds `value` under `key`.
  func withDamagedEntry(
    _ key: [UInt8], _ value: [UInt8], inTable table: String, _ body: (DocumentStore) throws -> Void
  ) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-counter-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try DocumentStore(path: path)
    try store.commit([Write(key: try DocumentKey(parsing: "users/alice"), kind: .set(["n": .integer(1)]))])
    let damaged = try store.environment.table(table, create: false)
    try store.environment.write { txn in try txn.put(key, value, in: damaged) }
    store.close()
    try withStore(at: path) { reopened in
      try body(reopened)
    }
  }

  func expectDataLoss(_ fragment: String, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
  {
    #expect(sourceLocation: sourceLocation) {
      try body()
    } throws: { error in
      (error as? HearthError)?.code == .dataLoss && "\(error)".contains(fragment)
    }
  }

  let highest = [UInt8](repeating: 0xFF, count: 8)

  @Test func aDamagedFormatNumberIsDataLossAtOpen() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-format-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try DocumentStore(path: path)
    try store.environment.write { txn in try txn.put(KeyLayout.MetaKey.format, highest, in: store.tables.meta) }
    store.close()
    expectDataLoss("has a damaged format number (18446744073709551615)") { _ = try DocumentStore(path: path) }
  }

  @Test func aDamagedNextCollectionNumberIsDataLossForANewCollection() throws {
    try withDamagedEntry(KeyLayout.MetaKey.nextCollection, highest, inTable: KeyLayout.TableName.meta) { store in
      expectDataLoss("The next collection number in the meta table is damaged") {
        try store.commit([Write(key: try DocumentKey(parsing: "rooms/general"), kind: .set([:]))])
      }
    }
  }

  @Test func aDamagedLastCommitTimeIsDataLossForTheNextCommit() throws {
    try withDamagedEntry(KeyLayout.MetaKey.lastCommit, [0x7F] + highest.dropFirst(), inTable: KeyLayout.TableName.meta)
    { store in
      expectDataLoss("The last commit time in the meta table is damaged") {
        try store.commit([Write(key: try DocumentKey(parsing: "users/bob"), kind: .set([:]))])
      }
    }
  }

  @Test func aDamagedChangeLogSequenceIsDataLossForTheNextCommit() throws {
    try withDamagedEntry(highest, [0, 0], inTable: KeyLayout.TableName.changes) { store in
      expectDataLoss("The change log's last sequence number is damaged") {
        try store.commit([Write(key: try DocumentKey(parsing: "users/bob"), kind: .set([:]))])
      }
    }
  }
}
