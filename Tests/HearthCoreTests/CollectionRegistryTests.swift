import Foundation
import Testing

@testable import HearthCore

/// The registry's cache keys a collection by its path's bytes: paths that are equal as
/// text but not as bytes, or whose bytes differ only in where the slashes fall, must
/// never share a number.
@Suite struct CollectionRegistryTests {
  private static func number(_ path: String, _ store: DocumentStore) throws -> CollectionNumber? {
    try store.read { try store.registry.number(of: try ResourcePath.parse(path), in: $0.txn) }
  }

  @Test func pathsThatDifferOnlyInNormalizationOrSlashesHaveTheirOwnNumbers() throws {
    try withStore { store in
      let paths = ["caf\u{E9}", "cafe\u{301}", "x/ab/y", "xa/b/y", "x", "xa"]
      try store.commit([
        Write(key: try DocumentKey(parsing: "caf\u{E9}/d"), kind: .set(["n": .integer(1)])),
        Write(key: try DocumentKey(parsing: "cafe\u{301}/d"), kind: .set(["n": .integer(2)])),
        Write(key: try DocumentKey(parsing: "x/ab/y/d"), kind: .set(["n": .integer(3)])),
        Write(key: try DocumentKey(parsing: "xa/b/y/d"), kind: .set(["n": .integer(4)])),
      ])
      // Twice: the first lookups fill the cache from the tables, the second hit it.
      for _ in 0..<2 {
        let numbers = try paths.map { try #require(try Self.number($0, store)) }
        #expect(Set(numbers).count == paths.count)
        #expect(try Self.number("cafe", store) == nil)
        #expect(try Self.number("x/a/y", store) == nil)
        #expect(try Self.number("xab/y", store) == nil)
      }
      let read = try store.read { try $0.document(try DocumentKey(parsing: "cafe\u{301}/d")) }
      #expect(read?.fields["n"] == .integer(2))
    }
  }

  @Test func manyCollectionsKeepDistinctNumbersAsTheCacheGrows() throws {
    try withStore { store in
      let paths = (0..<300).map { "c\($0)" } + (0..<100).map { "c\($0 % 7)/d/sub\($0)" }
      try store.commit(paths.map { Write(key: try DocumentKey(parsing: "\($0)/doc"), kind: .set([:])) })
      for _ in 0..<2 {
        let numbers = try paths.map { try #require(try Self.number($0, store)) }
        #expect(Set(numbers).count == paths.count)
        for (path, number) in zip(paths, numbers) {
          #expect(try store.read { try store.registry.path(of: number, in: $0.txn) } == (try ResourcePath.parse(path)))
        }
      }
    }
  }

  @Test func numbersAreTheSameAfterReopening() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-registry-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let paths = ["users", "users/alice/posts", "users/bob/posts", "users/alice/posts/p1/comments"]
    let before = try withStore(at: directory) { store in
      try store.commit(paths.map { Write(key: try DocumentKey(parsing: "\($0)/doc"), kind: .set([:])) })
      return try paths.map { try Self.number($0, store) }
    }
    let after = try withStore(at: directory) { store in try paths.map { try Self.number($0, store) } }
    #expect(before.allSatisfy { $0 != nil })
    #expect(before == after)
  }
}
