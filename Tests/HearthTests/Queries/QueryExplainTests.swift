import Foundation
import Hearth
import HearthTestSupport
import Testing

// `Query.explain()` runs on every query shape, reports a non-empty plan, as many results
// as `getDocuments()` returns, and what the plan reads. (Which plan reads least is the
// index efficiency suite's business, not this one's.)

@Suite("Query explain")
struct QueryExplainTests {

  @Test func explainRunsOnEveryQueryShape() throws {
    try withDatabase(settings: relaxed) { db in
      var documents: [String: [String: Any]] = [:]
      for i in 0..<20 {
        documents["doc\(i)"] = [
          "n": i, "owner": i % 3 == 0 ? "x" : "y", "tags": ["t\(i % 4)", "all"], "m": ["k": i % 5],
          "s": String(UnicodeScalar(UInt8(97 + i % 7))),
        ]
      }
      let c = try seed(db.collection("explain"), documents)
      try seed(db, paths: ["a/1/explain/g1": ["n": 1], "b/2/explain/g2": ["n": 50]])
      let id = FieldPath.documentID()
      let shapes: [(String, Query)] = [
        ("collection", c),
        ("==", c.whereField("owner", isEqualTo: "x")),
        ("!=", c.whereField("owner", isNotEqualTo: "x")),
        ("<", c.whereField("n", isLessThan: 5)),
        ("<=", c.whereField("n", isLessThanOrEqualTo: 5)),
        (">", c.whereField("n", isGreaterThan: 15)),
        (">=", c.whereField("n", isGreaterThanOrEqualTo: 15)),
        ("range", c.whereField("n", isGreaterThanOrEqualTo: 3).whereField("n", isLessThan: 9)),
        ("array-contains", c.whereField("tags", arrayContains: "t1")),
        ("array-contains-any", c.whereField("tags", arrayContainsAny: ["t1", "t2"])),
        ("in", c.whereField("n", in: [1, 5, 7, 100])),
        ("not-in", c.whereField("n", notIn: [1, 5, 7])),
        ("nested", c.whereField("m.k", isEqualTo: 2)),
        (
          "equality + order + limit",
          c.whereField("owner", isEqualTo: "y").order(by: "n", descending: true).limit(to: 4)
        ),
        ("limit(toLast:)", c.order(by: "n").limit(toLast: 3)),
        ("order desc", c.order(by: "s", descending: true)),
        ("two order-bys", c.order(by: "s").order(by: "n", descending: true)),
        ("cursor values", c.order(by: "n").start(after: [4]).end(at: [12])),
        ("multiple inequality", c.whereField("n", isGreaterThan: 2).whereField("s", isLessThan: "e")),
        (
          "or",
          c.whereFilter(
            Filter.orFilter([Filter.whereField("owner", isEqualTo: "x"), Filter.whereField("n", in: [1, 2])]))
        ),
        (
          "or of ands",
          c.whereFilter(
            Filter.orFilter([
              Filter.andFilter([Filter.whereField("owner", isEqualTo: "x"), Filter.whereField("n", isGreaterThan: 10)]),
              Filter.whereField("tags", arrayContains: "t3"),
            ]))
        ),
        ("document ID ==", c.whereField(id, isEqualTo: "doc3")),
        ("document ID range", c.whereField(id, isGreaterThan: "doc1").whereField(id, isLessThan: "doc2")),
        ("document ID in", c.whereField(id, in: ["doc3", "doc4", "nope"])),
        ("order by document ID desc", c.order(by: id, descending: true).limit(to: 2)),
        ("collection group", db.collectionGroup("explain")),
        ("collection group filtered", db.collectionGroup("explain").whereField("n", isGreaterThan: 10)),
        ("empty result", c.whereField("owner", isEqualTo: "nobody")),
        ("missing collection", db.collection("nothing").whereField("n", isEqualTo: 1)),
      ]
      // What each shape reads, (documents, index entries), by the plan it gets: the
      // single-field index of its filter (for != and not-in, its entries less those of
      // the values they exclude; every entry of an equality whose order the index does
      // not give), a scan of the collection, or the documents by ID. `n` is 0…19,
      // `owner` "x" for every third, `tags` "t\(n % 4)", `m.k` n % 5, `s` a…g by n % 7.
      let reads: [String: (Int, Int)] = [
        "collection": (20, 0), "==": (7, 7), "!=": (13, 13), "<": (5, 5), "<=": (6, 6), ">": (4, 4),
        ">=": (5, 5), "range": (6, 6), "array-contains": (5, 5), "array-contains-any": (10, 10), "in": (3, 3),
        "not-in": (17, 17), "nested": (4, 4), "equality + order + limit": (13, 13), "limit(toLast:)": (3, 3),
        "order desc": (20, 20), "two order-bys": (20, 0),
        // Order from the index: 5…12, and one entry past each end.
        "cursor values": (10, 10),
        // The range on s (a…d: 12 entries), then n > 2 on the documents.
        "multiple inequality": (12, 12),
        "or": (9, 9), "or of ands": (12, 12), "document ID ==": (1, 0), "document ID range": (10, 0),
        "document ID in": (2, 0), "order by document ID desc": (2, 0), "collection group": (22, 0),
        "collection group filtered": (10, 10), "empty result": (0, 0), "missing collection": (0, 0),
      ]
      for (label, query) in shapes {
        do {
          let expected = try query.getDocuments().count
          let explanation = try query.explain()
          #expect(explanation.resultsReturned == expected, "\(label): resultsReturned")
          #expect(!explanation.plan.isEmpty, "\(label): the plan should say what was read")
          let (documents, indexEntries) = try #require(reads[label], "\(label): what it reads")
          #expect(explanation.documentsRead == documents, "\(label): documentsRead (\(explanation.plan))")
          #expect(explanation.indexEntriesRead == indexEntries, "\(label): indexEntriesRead (\(explanation.plan))")
        } catch {
          Issue.record("\(label): \(error)")
        }
      }
    }
  }

  @Test func explainRunsWithDocumentCursors() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("explainCursor"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 2], "d": ["n": 3]])
      let b = try c.document("b").getDocument()
      let query = c.order(by: "n").start(afterDocument: b)
      let explanation = try query.explain()
      #expect(explanation.resultsReturned == 2)
      #expect(!explanation.plan.isEmpty)
    }
  }
}
