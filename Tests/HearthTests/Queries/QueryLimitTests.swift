import Foundation
import Hearth
import HearthTestSupport
import Testing

// `limit(to:)` and `limit(toLast:)`: the first or last n of the ordered result, always
// returned in query order; limits below 1 and `limit(toLast:)` without an order-by are
// invalidArgument (FIRQueryTests.mm, FIRValidationTests.mm).

@Suite("Query limits")
struct QueryLimitTests {

  private func fixture(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("limits"),
      [
        "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1], "d": ["k": "d", "sort": 2],
      ])
  }

  @Test func limitToFirst() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      expectIDs(c.limit(to: 2), ["a", "b"])
      expectIDs(c.limit(to: 1), ["a"])
      expectIDs(c.limit(to: 10), ["a", "b", "c", "d"], "a limit above the result size")
      expectIDs(c.order(by: "sort", descending: true).limit(to: 2), ["d", "c"])
      expectIDs(c.whereField("sort", isGreaterThan: 0).limit(to: 2), ["b", "c"])
      expectIDs(c.whereField("sort", isEqualTo: 1).limit(to: 1), ["b"])
      expectIDs(c.whereField("sort", isEqualTo: 7).limit(to: 1), [])
    }
  }

  @Test func limitToLastReturnsTheLastDocumentsInQueryOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      expectIDs(c.order(by: "sort").limit(toLast: 2), ["c", "d"])
      expectIDs(c.order(by: "sort", descending: true).limit(toLast: 2), ["b", "a"])
      expectIDs(c.order(by: "sort").limit(toLast: 10), ["a", "b", "c", "d"])
      expectIDs(c.order(by: "sort").limit(toLast: 1), ["d"])
      expectIDs(c.order(by: FieldPath.documentID()).limit(toLast: 3), ["b", "c", "d"])
      expectIDs(c.whereField("sort", isLessThan: 2).order(by: "sort").limit(toLast: 2), ["b", "c"])
    }
  }

  @Test func limitToLastAgreesWithTheReversedLimitQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      // Firestore's "mirror queries": limit(toLast:) on one direction is limit(to:) on the
      // other, reversed.
      let first = try ids(c.order(by: "sort").limit(to: 2))
      let last = try ids(c.order(by: "sort", descending: true).limit(toLast: 2))
      #expect(first == ["a", "b"])
      #expect(last == ["b", "a"])
    }
  }

  @Test func theLaterLimitReplacesTheEarlierOne() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      expectIDs(c.limit(to: 1).limit(to: 3), ["a", "b", "c"])
      expectIDs(c.order(by: "sort").limit(to: 3).limit(toLast: 1), ["d"])
      expectIDs(c.order(by: "sort").limit(toLast: 1).limit(to: 1), ["a"])
    }
  }

  @Test func limitsApplyAfterFilteringAndOrdering() throws {
    try withDatabase(settings: relaxed) { db in
      var documents: [String: [String: Any]] = [:]
      for i in 0..<50 {
        documents[String(format: "doc%02d", i)] = ["n": i % 10, "even": i % 2 == 0]
      }
      let c = try seed(db.collection("many"), documents)
      // n == 3 for doc03, doc13, doc23, doc33, doc43.
      expectIDs(c.whereField("n", isEqualTo: 3).limit(to: 2), ["doc03", "doc13"])
      expectIDs(c.whereField("n", isEqualTo: 3).order(by: FieldPath.documentID()).limit(toLast: 2), ["doc33", "doc43"])
      expectIDs(
        c.whereField("even", isEqualTo: true).order(by: "n", descending: true).limit(to: 3),
        ["doc48", "doc38", "doc28"])
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: 8).limit(to: 4), ["doc08", "doc18", "doc28", "doc38"])
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: 8).limit(toLast: 2).order(by: "n"), ["doc39", "doc49"])
    }
  }

  @Test func limitOnADisjunctionKeepsDocumentOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("or"),
        [
          "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1],
        ])
      let filter = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 1)])
      expectIDs(c.whereFilter(filter).limit(to: 1), ["doc2"])
      expectIDs(c.whereFilter(filter).order(by: "a").limit(toLast: 1), ["doc2"])
      expectIDs(c.whereField("a", in: [1, 3]).limit(to: 2), ["doc1", "doc3"])
    }
  }

  // MARK: - Invalid limits

  @Test func limitsBelowOneAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      expectInvalidQuery(c.limit(to: 0), mentioning: ["limit", "positive"])
      expectInvalidQuery(c.limit(to: -1), mentioning: ["limit", "positive"])
      expectInvalidQuery(c.order(by: "sort").limit(toLast: 0), mentioning: ["limit", "positive"])
      expectInvalidQuery(c.order(by: "sort").limit(toLast: -1), mentioning: ["limit", "positive"])
      expectInvalidQuery(c.limit(to: Int.min), mentioning: ["limit"])
    }
  }

  @Test func limitToLastNeedsAnExplicitOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fixture(db)
      expectInvalidQuery(c.limit(toLast: 2), mentioning: ["limit(toLast:)", "order"])
      expectInvalidQuery(
        c.whereField("sort", isGreaterThan: 0).limit(toLast: 2), mentioning: ["limit(toLast:)"],
        "an implicit (inequality) order is not enough")
      expectInvalidQuery(db.collectionGroup("limits").limit(toLast: 1), mentioning: ["limit(toLast:)"])
    }
  }
}
