import Foundation
import Hearth
import HearthTestSupport
import Testing

// Counts answered from index keys alone (no document read) must be exactly the number of
// documents the same query returns: every value type in one field (NaN, infinities, -0.0
// beside 0, 1 beside 1.0, null, strings longer than an index key, arrays, maps), missing
// fields, collection and collection-group scope, single-field and composite indexes,
// limits. Each count is checked against `getDocuments()` of the same query.

@Suite("Counts from index keys")
struct IndexCountTests {
  /// The values documents hold in `v`; `nil` leaves the field out.
  private static var values: [Any?] {
    [
      nil, NSNull(), false, true, -3, -1, 0, -0.0, 1, 1.0, 1.5, 2, 3, 7, Double.nan, Double.infinity,
      -Double.infinity, "", "a", "b", "ba", String(repeating: "x", count: 600) + "1",
      String(repeating: "x", count: 600) + "2", [1], [1, 2], ["k": 1], Timestamp(seconds: 10, nanoseconds: 0),
    ]
  }

  /// The operands the queries compare `v` with.
  private static var operands: [Any] {
    [
      -1, 0, 1, 1.0, 1.5, 3, Double.infinity, -Double.infinity, "a", "b", String(repeating: "x", count: 600),
      [1], Timestamp(seconds: 5, nanoseconds: 0), false, true,
    ]
  }

  private static let indexes = """
    {
      "indexes": [
        {"collectionGroup": "items", "queryScope": "COLLECTION",
         "fields": [{"fieldPath": "k", "order": "ASCENDING"}, {"fieldPath": "v", "order": "DESCENDING"}]},
        {"collectionGroup": "items", "queryScope": "COLLECTION_GROUP",
         "fields": [{"fieldPath": "k", "order": "ASCENDING"}, {"fieldPath": "v", "order": "ASCENDING"}]},
        {"collectionGroup": "items", "queryScope": "COLLECTION_GROUP",
         "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "v", "order": "ASCENDING"}]}
      ],
      "fieldOverrides": [
        {"collectionGroup": "items", "fieldPath": "v", "indexes": [
          {"order": "ASCENDING", "queryScope": "COLLECTION"},
          {"order": "DESCENDING", "queryScope": "COLLECTION"},
          {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"},
          {"arrayConfig": "CONTAINS", "queryScope": "COLLECTION"}
        ]}
      ]
    }
    """

  /// Three collections of the group `items` with pseudo-random documents (a fixed seed).
  private func withItems(_ body: (Database) throws -> Void) throws {
    try withDatabase(settings: relaxed) { db in
      try db.declareIndexes(json: Self.indexes)
      var random = SplitMix64(seed: 20_261_202)
      let batch = db.batch()
      for i in 0..<240 {
        var fields: [String: Any] = ["k": Int.random(in: 0...2, using: &random)]
        if let value = Self.values.randomElement(using: &random)! { fields["v"] = value }
        if Int.random(in: 0...3, using: &random) > 0 {
          fields["tags"] = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0...4, using: &random)
          }
        }
        let parent = ["a", "b", "c"][i % 3]
        batch.setData(fields, forDocument: db.document("things/\(parent)/items/d\(i)"))
      }
      try batch.commit()
      try body(db)
    }
  }

  /// Checks that the count of `query` is the number of documents it returns, and
  /// returns what counting it read.
  @discardableResult
  private func expectCountAgrees(_ query: Query, _ label: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> QueryExplanation
  {
    let counted = try query.count.getAggregation().count.intValue
    let returned = try query.getDocuments().count
    #expect(counted == returned, "\(label)", sourceLocation: sourceLocation)
    let explanation = try query.count.explain()
    #expect(explanation.resultsReturned == counted, "\(label)", sourceLocation: sourceLocation)
    return explanation
  }

  @Test func rangeCountsMatchTheQueryAndReadNoDocument() throws {
    try withItems { db in
      let targets: [(String, Query)] = [
        ("collection", db.collection("things/a/items")), ("group", db.collectionGroup("items")),
      ]
      for (scope, target) in targets {
        for operand in Self.operands {
          let label = "\(scope) v vs \(operand)"
          let queries: [(String, Query)] = [
            ("<", target.whereField("v", isLessThan: operand)),
            ("<=", target.whereField("v", isLessThanOrEqualTo: operand)),
            (">", target.whereField("v", isGreaterThan: operand)),
            (">=", target.whereField("v", isGreaterThanOrEqualTo: operand)),
            ("==", target.whereField("v", isEqualTo: operand)),
          ]
          for (op, query) in queries {
            let explanation = try expectCountAgrees(query, "\(label) \(op)")
            // Strings this long are cut in their keys: those counts read documents.
            if !((operand as? String).map { $0.count > 500 } ?? false) {
              #expect(explanation.documentsRead == 0, "\(label) \(op): \(explanation)")
            }
          }
          let limited = target.whereField("v", isGreaterThan: operand).limit(to: 3)
          let explanation = try expectCountAgrees(limited, "\(label) > limit 3")
          #expect(explanation.resultsReturned <= 3)
        }
        // Both bounds: NaN stays out, a count from the keys.
        let bounded = target.whereField("v", isGreaterThan: -1).whereField("v", isLessThan: 3)
        #expect(try expectCountAgrees(bounded, "\(scope) -1 < v < 3").documentsRead == 0)
        for list in [[1, 1.0, 3] as [Any], [NSNull(), Double.nan, "a"], ["b", [1, 2]]] {
          #expect(try expectCountAgrees(target.whereField("v", in: list), "\(scope) in \(list)").documentsRead == 0)
        }
      }
    }
  }

  @Test func compositeCountsMatchTheQueryAndReadNoDocument() throws {
    try withItems { db in
      let targets: [(String, Query)] = [
        ("collection", db.collection("things/b/items")), ("group", db.collectionGroup("items")),
      ]
      for (scope, target) in targets {
        for k in 0...2 {
          for operand in [0, 1, 2, "a"] as [Any] {
            let equal = target.whereField("k", isEqualTo: k)
            let explanation = try expectCountAgrees(
              equal.whereField("v", isGreaterThanOrEqualTo: operand), "\(scope) k == \(k), v >= \(operand)")
            #expect(explanation.documentsRead == 0, "\(explanation)")
            try expectCountAgrees(
              equal.whereField("v", isLessThan: operand), "\(scope) k == \(k), v < \(operand)")
            // Ordered by v: only documents that have it.
            let ordered = try expectCountAgrees(equal.order(by: "v"), "\(scope) k == \(k) order by v")
            #expect(ordered.documentsRead == 0, "\(ordered)")
          }
          let within = try expectCountAgrees(
            target.whereField("k", in: [k, 2]).whereField("v", isGreaterThan: 0), "\(scope) k in [\(k), 2], v > 0")
          #expect(within.documentsRead == 0, "\(within)")
        }
      }
      // array-contains with a range on the next field of a group index: each document once.
      for tag in 0...4 {
        let query = db.collectionGroup("items").whereField("tags", arrayContains: tag)
        #expect(try expectCountAgrees(query, "tags contains \(tag)").documentsRead == 0)
        let ranged = try expectCountAgrees(
          query.whereField("v", isGreaterThan: 0), "tags contains \(tag), v > 0")
        #expect(ranged.documentsRead == 0, "\(ranged)")
      }
    }
  }

  @Test func countsTheKeysCannotProveReadDocuments() throws {
    try withItems { db in
      let items = db.collection("things/c/items")
      let shapes: [(String, Query)] = [
        ("!= a cut key", items.whereField("v", isNotEqualTo: String(repeating: "x", count: 600))),
        ("or", items.whereFilter(.orFilter([.whereField("v", isEqualTo: 1), .whereField("k", isEqualTo: 0)]))),
        ("contains any", items.whereField("tags", arrayContainsAny: [1, 2])),
        ("cursor", items.order(by: "v").start(at: [1])),
      ]
      for (label, query) in shapes {
        let explanation = try expectCountAgrees(query, label)
        #expect(explanation.documentsRead > 0, "\(label): \(explanation)")
      }
    }
  }

  @Test func equalitiesOnSeveralFieldsAreCountedFromTheirIndexesIntersected() throws {
    try withItems { db in
      for target in [db.collection("things/c/items"), db.collectionGroup("items")] {
        for k in 0...2 {
          for tag in 0...4 {
            let query = target.whereField("k", isEqualTo: k).whereField("tags", arrayContains: tag)
            let explanation = try expectCountAgrees(query, "k == \(k), tags contains \(tag)")
            #expect(explanation.documentsRead == 0, "\(explanation)")
          }
        }
      }
    }
  }

  @Test func aCountOfOneValueIsOneStepWhateverItsDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for i in 0..<500 {
        batch.setData(["published": i % 5 != 0, "likes": i % 10], forDocument: db.document("p/d\(i)"))
      }
      try batch.commit()
      let published = try db.collection("p").whereField("published", isEqualTo: true).count.explain()
      #expect(published.resultsReturned == 400)
      #expect(published.indexEntriesRead == 1)
      #expect(published.documentsRead == 0)
      // A range: one step per distinct value (5 to 9), not per document.
      let range = try db.collection("p").whereField("likes", isGreaterThanOrEqualTo: 5).count.explain()
      #expect(range.resultsReturned == 250)
      #expect(range.indexEntriesRead == 5)
      #expect(range.documentsRead == 0)
    }
  }
}
