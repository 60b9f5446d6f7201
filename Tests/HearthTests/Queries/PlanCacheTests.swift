import Foundation
import Hearth
import HearthTestSupport
import Testing

// A count keeps the plan its shape chose (the one candidate whose keys alone answer it)
// and builds only that plan for the next count of the shape; a query keeps the declared
// index its shape alone chose, apart from the counts' choices. What must hold: a kept plan
// never outlives the index catalog it was chosen under, and shapes that differ in
// anything a plan depends on (an operator, a value that cannot match, a limit, the
// order) never share one — whatever order the counts run in, each is planned and
// answered as it would be alone.

@Suite("Plans kept by query shape")
struct PlanCacheTests {
  private static let composite = """
    {"indexes": [{"collectionGroup": "items", "queryScope": "COLLECTION",
      "fields": [{"fieldPath": "k", "order": "ASCENDING"}, {"fieldPath": "v", "order": "ASCENDING"}]}]}
    """

  private static let groupComposite = """
    {"indexes": [{"collectionGroup": "items", "queryScope": "COLLECTION_GROUP",
      "fields": [{"fieldPath": "k", "order": "ASCENDING"}, {"fieldPath": "v", "order": "ASCENDING"}]}]}
    """

  /// 60 documents in `box/a/items` with `k` 0...2, `v` 0...9 and `tags` (some with null).
  private func populate(_ db: Database) throws {
    let batch = db.batch()
    for i in 0..<60 {
      var tags: [Any] = [i % 4, "t\(i % 3)"]
      if i % 5 == 0 { tags.append(NSNull()) }
      batch.setData(["k": i % 3, "v": i % 10, "tags": tags], forDocument: db.document("box/a/items/d\(i)"))
    }
    try batch.commit()
  }

  /// The count of `query`, checked against the documents it returns, and how it ran.
  private func count(_ query: Query, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
    Int, QueryExplanation
  ) {
    let counted = try query.count.getAggregation().count.intValue
    #expect(counted == (try query.getDocuments().count), sourceLocation: sourceLocation)
    return (counted, try query.count.explain())
  }

  @Test func aKeptPlanIsDroppedWithItsIndex() throws {
    try withDatabase(settings: relaxed) { db in
      try populate(db)
      try db.declareIndexes(json: Self.composite)
      let items = db.collection("box/a/items")
      let query = items.whereField("k", isEqualTo: 1).whereField("v", isGreaterThanOrEqualTo: 4)
      for _ in 0..<3 {
        let (counted, explanation) = try count(query)
        #expect(counted == 12)
        #expect(explanation.plan.contains("composite index"), "\(explanation)")
        #expect(explanation.documentsRead == 0)
      }
      // Without the index, its plan would count nothing: the count reads documents.
      try db.dropIndexes(json: Self.composite)
      try items.document("late").setData(["k": 1, "v": 9])
      let (counted, explanation) = try count(query)
      #expect(counted == 13)
      #expect(!explanation.plan.contains("composite index"), "\(explanation)")
      // Declared again, under a newer catalog: the plan is chosen again.
      try db.declareIndexes(json: Self.composite)
      let (again, redeclared) = try count(query)
      #expect(again == 13)
      #expect(redeclared.plan.contains("composite index"), "\(redeclared)")
      #expect(redeclared.documentsRead == 0)
    }
  }

  /// Counts whose shapes differ only a little, each with its values.
  private func counts(_ db: Database) -> [(String, Query)] {
    let items = db.collection("box/a/items")
    let group = db.collectionGroup("items")
    return [
      ("v >= 3", items.whereField("v", isGreaterThanOrEqualTo: 3)),
      ("v >= 7", items.whereField("v", isGreaterThanOrEqualTo: 7)),
      ("v > 3", items.whereField("v", isGreaterThan: 3)),
      ("v == 3", items.whereField("v", isEqualTo: 3)),
      ("v == null", items.whereField("v", isEqualTo: NSNull())),
      ("v >= 3 limit 5", items.whereField("v", isGreaterThanOrEqualTo: 3).limit(to: 5)),
      ("v >= 3 order desc", items.whereField("v", isGreaterThanOrEqualTo: 3).order(by: "v", descending: true)),
      ("tags contains 1", items.whereField("tags", arrayContains: 1)),
      ("tags contains null", items.whereField("tags", arrayContains: NSNull())),
      ("tags contains t2", items.whereField("tags", arrayContains: "t2")),
      ("k == 1, v >= 4", items.whereField("k", isEqualTo: 1).whereField("v", isGreaterThanOrEqualTo: 4)),
      ("k == 2, v >= 1", items.whereField("k", isEqualTo: 2).whereField("v", isGreaterThanOrEqualTo: 1)),
      ("k == 1, v < 4", items.whereField("k", isEqualTo: 1).whereField("v", isLessThan: 4)),
      ("k == 1, v == 4", items.whereField("k", isEqualTo: 1).whereField("v", isEqualTo: 4)),
      ("k in [1, 2]", items.whereField("k", in: [1, 2])),
      ("group v >= 3", group.whereField("v", isGreaterThanOrEqualTo: 3)),
      ("group k == 1, v >= 4", group.whereField("k", isEqualTo: 1).whereField("v", isGreaterThanOrEqualTo: 4)),
    ]
  }

  @Test func countsPlanAndAnswerAloneWhateverRanBefore() throws {
    func run(_ reversed: Bool) throws -> [String: (Int, String, Int)] {
      try withDatabase(settings: relaxed) { db in
        try populate(db)
        try db.declareIndexes(json: Self.composite)
        var seen: [String: (Int, String, Int)] = [:]
        let all = counts(db)
        for (label, query) in reversed ? all.reversed() : all {
          // Twice: the second runs with the plan the first kept.
          let (first, planned) = try count(query)
          let (second, kept) = try count(query)
          #expect(first == second, "\(label)")
          #expect(planned.plan == kept.plan, "\(label)")
          #expect(planned.documentsRead == kept.documentsRead, "\(label)")
          seen[label] = (first, planned.plan, planned.documentsRead)
        }
        return seen
      }
    }
    let forward = try run(false)
    let backward = try run(true)
    for (label, (counted, plan, read)) in forward {
      let other = try #require(backward[label])
      #expect(other.0 == counted, "\(label)")
      #expect(other.1 == plan, "\(label)")
      #expect(other.2 == read, "\(label)")
    }
    #expect(forward["tags contains null"]?.0 == 0)
    #expect(forward["v >= 3 limit 5"]?.0 == 5)
  }

  @Test func queriesPlanAndAnswerAloneWhateverRanBefore() throws {
    // Each query beside a count of its shape (whose choice prefers plans that count from
    // keys), in two orders: a query's results and plan must not depend on which ran first.
    func run(_ reversed: Bool) throws -> [String: ([String], String)] {
      try withDatabase(settings: relaxed) { db in
        try populate(db)
        try db.declareIndexes(json: Self.composite)
        try db.declareIndexes(json: Self.groupComposite)
        var seen: [String: ([String], String)] = [:]
        let all =
          counts(db) + [
            (
              "k == 1 order v desc limit 3",
              db.collection("box/a/items").whereField("k", isEqualTo: 1)
                .order(by: "v", descending: true).limit(to: 3)
            ),
            (
              "group k == 2 order v limit 4",
              db.collectionGroup("items").whereField("k", isEqualTo: 2)
                .order(by: "v").limit(to: 4)
            ),
            // One shape, whose kept choice is built from lists of two values, one, and
            // none that can match.
            (
              "group k in [0, 2] order v limit 4",
              db.collectionGroup("items").whereField("k", in: [0, 2]).order(by: "v").limit(to: 4)
            ),
            (
              "group k in [1] order v limit 4",
              db.collectionGroup("items").whereField("k", in: [1]).order(by: "v").limit(to: 4)
            ),
            (
              "group k in [NaN] order v limit 4",
              db.collectionGroup("items").whereField("k", in: [Double.nan]).order(by: "v").limit(to: 4)
            ),
          ]
        for (label, query) in reversed ? all.reversed() : all {
          if reversed { _ = try count(query) }
          let first = try query.getDocuments().documents.map(\.documentID)
          let planned = try query.explain()
          if !reversed { _ = try count(query) }
          let second = try query.getDocuments().documents.map(\.documentID)
          let kept = try query.explain()
          #expect(first == second, "\(label)")
          #expect(planned.plan == kept.plan, "\(label)")
          seen[label] = (first, planned.plan)
        }
        return seen
      }
    }
    let forward = try run(false)
    let backward = try run(true)
    for (label, (documents, plan)) in forward {
      let other = try #require(backward[label])
      #expect(other.0 == documents, "\(label)")
      #expect(other.1 == plan, "\(label)")
    }
    #expect(forward["k == 1 order v desc limit 3"]?.0.count == 3)
    #expect(forward["group k == 2 order v limit 4"]?.1.contains("collection-group index") == true)
    #expect(forward["group k in [0, 2] order v limit 4"]?.0 == ["d0", "d20", "d30", "d50"])
    #expect(forward["group k in [1] order v limit 4"]?.0 == ["d10", "d40", "d1", "d31"])
    #expect(forward["group k in [NaN] order v limit 4"]?.0 == [])
  }

  @Test func aQueryKeepsNoPlanPastItsIndex() throws {
    try withDatabase(settings: relaxed) { db in
      try populate(db)
      try db.declareIndexes(json: Self.groupComposite)
      let query = db.collectionGroup("items").whereField("k", isEqualTo: 1).order(by: "v").limit(to: 5)
      let expected = ["d10", "d40", "d1", "d31", "d22"]
      for _ in 0..<3 {
        #expect(try query.getDocuments().documents.map(\.documentID) == expected)
        #expect(try query.explain().plan.contains("collection-group index"))
      }
      try db.dropIndexes(json: Self.groupComposite)
      #expect(try query.getDocuments().documents.map(\.documentID) == expected)
      #expect(try !query.explain().plan.contains("collection-group index"))
      try db.declareIndexes(json: Self.groupComposite)
      #expect(try query.explain().plan.contains("collection-group index"))
    }
  }
}
