import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Queries whose plan reads several ranges of one index (`in`, `array-contains-any`) and
/// merges them in query order, which the merge takes from the entries' key bytes: values
/// of every type class, int and double ties broken by name, and keys cut at the length
/// limit (which only the documents' fields can order) beside whole keys of the same value
/// in other ranges, whose prefixes are of other lengths.
@Suite struct MergedRangeOrderTests {
  static let indexes = """
    {"indexes": [
      {"collectionGroup": "posts", "queryScope": "COLLECTION",
        "fields": [{"fieldPath": "owner", "order": "ASCENDING"}, {"fieldPath": "score", "order": "DESCENDING"}]},
      {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
        "fields": [{"fieldPath": "owner", "order": "ASCENDING"}, {"fieldPath": "score", "order": "DESCENDING"}]}]}
    """

  /// Owners whose key prefixes differ in length: the long one cuts a score's key that the
  /// short one keeps whole.
  static let owners = ["a", String(repeating: "o", count: 380)]

  /// Scores in Firestore's ascending order, equal ones together.
  static var scores: [[Any]] {
    [
      [1, 1.0], [2], [2.5], [3], [String(repeating: "x", count: 150) + "1"], [String(repeating: "x", count: 150) + "2"],
      [String(repeating: "x", count: 600) + "a"], [String(repeating: "x", count: 600) + "b"], ["y"],
    ]
  }

  /// Writes every owner × score into each collection; returns the paths and their
  /// scores' ranks in ascending query order (score, then path).
  static func seedPosts(_ db: Database, collections: [String]) throws -> [(rank: Int, path: String)] {
    var ranked: [(rank: Int, path: String)] = []
    let batch = db.batch()
    for collection in collections {
      var number = 0
      for owner in owners {
        for (rank, equal) in scores.enumerated() {
          for score in equal {
            let path = "\(collection)/d\(number < 10 ? "0" : "")\(number)"
            number += 1
            batch.setData(["owner": owner, "score": score], forDocument: db.document(path))
            ranked.append((rank, path))
          }
        }
      }
      // Decoys: another owner, and an owner without a score.
      batch.setData(["owner": "b", "score": 2], forDocument: db.document("\(collection)/other"))
      batch.setData(["owner": "a"], forDocument: db.document("\(collection)/unscored"))
    }
    try batch.commit()
    return ranked.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : segmentsPrecede($0.path, $1.path) }
  }

  /// Firestore's path order: segment by segment.
  static func segmentsPrecede(_ a: String, _ b: String) -> Bool {
    let (x, y) = (a.split(separator: "/"), b.split(separator: "/"))
    for (p, q) in zip(x, y) where p != q { return Array(p.utf8).lexicographicallyPrecedes(Array(q.utf8)) }
    return x.count < y.count
  }

  /// Checks the query ordered by score both ways, with limits and a cursor, against the
  /// ranked paths (compared as full paths, or as IDs).
  static func expectMergedOrder(
    _ query: Query, _ ranked: [(rank: Int, path: String)], paths: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    func names(_ ranked: [(rank: Int, path: String)]) -> [String] {
      ranked.map { paths ? $0.path : String($0.path.split(separator: "/").last!) }
    }
    func expect(_ query: Query, _ expected: [String], _ comment: String) {
      if paths {
        expectPaths(query, expected, comment, sourceLocation: sourceLocation)
      } else {
        expectIDs(query, expected, comment, sourceLocation: sourceLocation)
      }
    }
    let ascending = names(ranked)
    let descending = Array(ascending.reversed())
    expect(query.order(by: "score", descending: true), descending, "descending")
    expect(query.order(by: "score"), ascending, "ascending")
    expect(query.order(by: "score", descending: true).limit(to: 7), Array(descending.prefix(7)), "limit")
    expect(
      query.order(by: "score", descending: true).limit(toLast: 7), Array(descending.suffix(7)), "limit to last")
    expect(query.order(by: "score").limit(to: 11), Array(ascending.prefix(11)), "ascending limit")
    // A cursor: entries still order by their keys; their documents are checked against it.
    expect(
      query.order(by: "score", descending: true).start(after: [2.5]), names(ranked.filter { $0.rank < 2 }.reversed()),
      "after a cursor")
  }

  @Test func inOverACompositeIndexMergesInQueryOrder() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      try db.declareIndexes(json: Self.indexes)
      let ranked = try Self.seedPosts(db, collections: ["users/u/posts"])
      let query = db.collection("users/u/posts").whereField("owner", in: Self.owners)
      Self.expectMergedOrder(query, ranked, paths: false)
      let plan = try query.order(by: "score", descending: true).explain()
      #expect(plan.plan.contains("composite index"), "\(plan.plan)")

      // Each document once, and each value's entries read once, when `in` lists it twice.
      let twice = db.collection("users/u/posts").whereField("owner", in: Self.owners + Self.owners.reversed())
      Self.expectMergedOrder(twice, ranked, paths: false)
      let twicePlan = try twice.order(by: "score", descending: true).explain()
      #expect(twicePlan.indexEntriesRead == plan.indexEntriesRead, "\(twicePlan) against \(plan)")
    }
  }

  @Test func inOverACollectionGroupIndexMergesInQueryOrder() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      try db.declareIndexes(json: Self.indexes)
      let ranked = try Self.seedPosts(db, collections: ["users/u/posts", "users/v/posts", "teams/t/users/w/posts"])
      let query = db.collectionGroup("posts").whereField("owner", in: Self.owners)
      Self.expectMergedOrder(query, ranked, paths: true)
    }
  }

  @Test func inAndArrayContainsAnyOverSingleFieldIndexesMergeInQueryOrder() throws {
    try withDatabase(settings: relaxedRequiringIndexes) { db in
      let long = String(repeating: "x", count: 600)
      let c = try seed(
        db.collection("items"),
        [
          "a": ["v": 2, "tags": ["t", long + "1"]], "b": ["v": 1.0, "tags": ["u"]], "c": ["v": 1, "tags": ["t", "u"]],
          "d": ["v": long + "2", "tags": [long + "2"]], "e": ["v": long + "1", "tags": [long + "1", "u"]],
          "f": ["v": "y", "tags": ["w"]], "g": ["v": 2.0, "tags": [long + "2", "t"]],
        ])
      let values: [Any] = [1, 2, long + "1", long + "2", "y"]
      expectIDs(c.whereField("v", in: values).order(by: "v"), ["b", "c", "a", "g", "e", "d", "f"])
      expectIDs(c.whereField("v", in: values).order(by: "v", descending: true), ["f", "d", "e", "g", "a", "c", "b"])
      expectIDs(c.whereField("v", in: values).order(by: "v").limit(toLast: 3), ["e", "d", "f"])
      expectIDs(c.whereField("v", in: values), ["a", "b", "c", "d", "e", "f", "g"], "ordered by name")
      // 1.0 and 2.0 are the values 1 and 2, listed again.
      expectIDs(c.whereField("v", in: values + [1.0, 2.0]).order(by: "v"), ["b", "c", "a", "g", "e", "d", "f"])
      let tags: [Any] = ["t", "u", long + "1", long + "2"]
      expectIDs(c.whereField("tags", arrayContainsAny: tags), ["a", "b", "c", "d", "e", "g"])
      expectIDs(
        c.whereField("tags", arrayContainsAny: tags).order(by: FieldPath.documentID(), descending: true).limit(to: 4),
        ["g", "e", "d", "c"])
    }
  }
}
