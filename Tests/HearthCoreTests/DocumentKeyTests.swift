import Testing

@testable import HearthCore

/// A document key holds its collection's path and its ID apart (so that one query's
/// results share a path); it must still order, equate and hash exactly as its whole path.
@Suite("DocumentKey")
struct DocumentKeyTests {
  static let paths: [[String]] = [
    ["a", "b"], ["a", "c"], ["a", "bc"], ["a", "b\u{0}"], ["ab", "a"], ["b", "a"],
    ["a", "b", "c", "d"], ["a", "b", "c", "e"], ["a", "b", "b", "z"], ["a", "a", "c", "d"],
    ["a", "b", "c", "d", "e", "f"], ["a", "b", "c", "d", "a", "a"], ["a", "\u{E9}"], ["a", "e\u{301}"],
    ["users", "alice", "posts", "p1"], ["users", "alice", "posts", "p10"], ["users", "alice", "postsX", "p1"],
  ]

  @Test func keysOrderEquateAndHashAsTheirPaths() {
    let keys = Self.paths.map { DocumentKey(ResourcePath($0)) }
    for a in keys {
      #expect(a.path.segments == Self.paths[keys.firstIndex(of: a)!])
      for b in keys {
        let expected = a.path.compare(b.path)
        #expect(a.compare(b) == expected, "\(a) vs \(b)")
        #expect((a < b) == (expected < 0), "\(a) < \(b)")
        #expect((a == b) == (expected == 0), "\(a) == \(b)")
        if a == b { #expect(a.hashValue == b.hashValue) }
      }
    }
    // Canonically equivalent IDs are different documents, as in Firestore.
    #expect(Set(keys).count == keys.count)
  }

  @Test func aKeyMadeFromItsPartsIsTheKeyOfItsPath() {
    for segments in Self.paths {
      let whole = DocumentKey(ResourcePath(segments))
      let parts = DocumentKey(collection: ResourcePath(Array(segments.dropLast())), id: segments.last!)
      #expect(whole == parts)
      #expect(whole.hashValue == parts.hashValue)
      #expect(parts.description == segments.joined(separator: "/"))
      #expect(parts.collectionGroup == segments[segments.count - 2])
      #expect(parts.depth == segments.count)
    }
  }
}
