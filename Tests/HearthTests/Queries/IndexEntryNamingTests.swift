import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The documents a declared index's entries name, as queries read them back: IDs of every
/// length (short ones are built as small strings, long ones on the heap; a descending
/// index stores them complemented, read eight bytes at a time) and in other scripts, and
/// collection-group entries from more collections than the registry's first table holds,
/// with parents named as variously.
@Suite struct IndexEntryNamingTests {
  static let indexes = """
    {"indexes": [
      {"collectionGroup": "posts", "queryScope": "COLLECTION",
        "fields": [{"fieldPath": "kind", "order": "ASCENDING"}, {"fieldPath": "likes", "order": "DESCENDING"}]},
      {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
        "fields": [{"fieldPath": "kind", "order": "ASCENDING"}, {"fieldPath": "likes", "order": "DESCENDING"}]},
      {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
        "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "likes", "order": "DESCENDING"}]}],
     "fieldOverrides": [
      {"collectionGroup": "posts", "fieldPath": "tags",
        "indexes": [{"arrayConfig": "CONTAINS", "queryScope": "COLLECTION_GROUP"}]}]}
    """

  /// IDs of 1 to 40 bytes, ASCII and not, with the bytes a key escapes or complements.
  static let ids: [String] =
    (1...40).map { String(repeating: "abcdefghij", count: 4).prefix($0) }.map(String.init)
    + ["é", "ü-7", "日本語", "日本語のドキュメント", "naïve-résumé-identifier", "\u{7F}x", "~tilde", "a b"]

  @Test func collectionEntriesNameEveryID() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      try db.declareIndexes(json: Self.indexes)
      let posts = db.collection("users/solo/posts")
      let batch = db.batch()
      for (likes, id) in Self.ids.enumerated() {
        batch.setData(["kind": "post", "likes": likes], forDocument: posts.document(id))
      }
      try batch.commit()
      let expected = Array(Self.ids.reversed())
      expectIDs(posts.whereField("kind", isEqualTo: "post").order(by: "likes", descending: true), expected)
      expectIDs(
        posts.whereField("kind", isEqualTo: "post").order(by: "likes", descending: true).limit(toLast: 5),
        Array(expected.suffix(5)))
    }
  }

  @Test func groupEntriesNameDocumentsOfManyCollections() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      try db.declareIndexes(json: Self.indexes)
      // 150 parents (past the 64 slots the registry's table of entry names starts with),
      // named short, long and in other scripts, at two depths.
      var expected: [(likes: Int, path: String)] = []
      let batch = db.batch()
      for parent in 0..<150 {
        let user = ["u\(parent)", "user-with-a-long-identifier-\(parent)", "ü\(parent)"][parent % 3]
        let collection = parent % 5 == 0 ? "teams/t\(parent)/users/\(user)/posts" : "users/\(user)/posts"
        for post in 0..<2 {
          let id = Self.ids[(parent + post * 7) % Self.ids.count]
          let likes = parent * 2 + post
          batch.setData(["kind": "post", "likes": likes], forDocument: db.document("\(collection)/\(id)"))
          expected.append((likes, "\(collection)/\(id)"))
        }
      }
      try batch.commit()
      let query = db.collectionGroup("posts").whereField("kind", isEqualTo: "post").order(by: "likes", descending: true)
      let byLikes = expected.sorted { $0.likes > $1.likes }.map(\.path)
      expectPaths(query, byLikes)
      // Read again: the names are now known to the registry, and must still name the same.
      expectPaths(query.limit(to: 40), Array(byLikes.prefix(40)))
      expectPaths(
        query.whereField("likes", isLessThan: 100),
        byLikes.filter { path in
          expected.first { $0.path == path }!.likes < 100
        })
    }
  }

  /// An array-contains page's entries order by their documents' paths, so that each
  /// names its document by the bytes of the last entry's collection when it shares it.
  /// Beside such entries: a document of a subcollection of the last one's document, of a
  /// collection whose parent's ID extends the last's, and of other parents between them,
  /// each named whole; under an ordered field, collections interleave.
  @Test func groupContainsEntriesNameDocumentsBesideTheLastOnesCollection() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      try db.declareIndexes(json: Self.indexes)
      let paths = [
        "users/a/posts/p", "users/a/posts/p/posts/x", "users/a/posts/p/posts/x/posts/y", "users/a/posts/p2",
        "users/a/posts/q", "users/a/posts/ü", "users/a/posts/ü/posts/p", "users/ab/posts/p", "users/ab/posts/p0",
        "users/b/posts/a", "users/b/posts/abcdefghijabcdefghij", "users/ü/posts/p",
      ]
      let batch = db.batch()
      for (likes, path) in paths.enumerated() {
        batch.setData(["tags": ["t", "u"], "likes": likes], forDocument: db.document(path))
      }
      batch.setData(["tags": ["u"], "likes": 99], forDocument: db.document("users/a/posts/p1"))
      try batch.commit()
      let tagged = db.collectionGroup("posts").whereField("tags", arrayContains: "t")
      expectPaths(tagged, paths)
      expectPaths(tagged.limit(to: 4), Array(paths.prefix(4)))
      expectPaths(tagged.order(by: "likes", descending: true), paths.reversed())
      expectPaths(
        db.collectionGroup("posts").whereField("tags", arrayContains: "u"),
        Array(paths.prefix(3)) + ["users/a/posts/p1"] + paths.dropFirst(3))
    }
  }
}
