import Foundation
import Hearth
import HearthTestSupport
import Testing

// Cursors: `start(at:)`, `start(after:)`, `end(at:)`, `end(before:)` by values (a prefix of
// the order-bys) and by DocumentSnapshot (every normalised order-by value and `__name__`),
// on ascending and descending orders, with `limit(toLast:)`; and the cursor rules that
// raise invalidArgument. Cases follow FIRCursorTests.mm and FIRQueryTests.mm.

@Suite("Query cursors")
struct QueryCursorTests {

  /// Firestore's cursor fixture: `f` has no `sort` and never shows up in ordered queries.
  private func sortFixture(_ db: Database, descendingCase: Bool = false) throws -> CollectionReference {
    try seed(
      db.collection("cursor"),
      [
        "a": ["v": "a", "sort": 1.0], "b": ["v": "b", "sort": 2.0], "c": ["v": "c", "sort": 2.0],
        "d": ["v": "d", "sort": descendingCase ? 3.0 : 2.0], "e": ["v": "e", "sort": 0.0],
        "f": ["v": "f", "nosort": 1.0],
      ])
  }

  @Test func canPageThroughItemsWithStartAfterDocument() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("pages"),
        ["a": ["v": "a"], "b": ["v": "b"], "c": ["v": "c"], "d": ["v": "d"], "e": ["v": "e"], "f": ["v": "f"]])
      let first = try c.limit(to: 2).getDocuments()
      #expect(first.documents.map(\.documentID) == ["a", "b"])
      let last1 = try #require(first.documents.last)
      let second = try c.limit(to: 3).start(afterDocument: last1).getDocuments()
      #expect(second.documents.map(\.documentID) == ["c", "d", "e"])
      let last2 = try #require(second.documents.last)
      let third = try c.limit(to: 1).start(afterDocument: last2).getDocuments()
      #expect(third.documents.map(\.documentID) == ["f"])
      let last3 = try #require(third.documents.last)
      expectIDs(c.limit(to: 3).start(afterDocument: last3), [])
    }
  }

  @Test func cursorsFromDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      let query = c.order(by: "sort")
      let snapshot = try c.document("c").getDocument()
      #expect(snapshot.exists)
      // Order: e(0), a(1), b(2), c(2), d(2).
      expectIDs(query.start(atDocument: snapshot), ["c", "d"])
      expectIDs(query.start(afterDocument: snapshot), ["d"])
      expectIDs(query.end(beforeDocument: snapshot), ["e", "a", "b"])
      expectIDs(query.end(atDocument: snapshot), ["e", "a", "b", "c"])
      expectIDs(query.start(afterDocument: snapshot).end(atDocument: snapshot), [])
    }
  }

  @Test func cursorsFromValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      let query = c.order(by: "sort")
      expectIDs(query.start(at: [2.0]), ["b", "c", "d"])
      expectIDs(query.end(before: [2.0]), ["e", "a"])
      expectIDs(query.start(after: [2.0]), [])
      expectIDs(query.end(at: [2]), ["e", "a", "b", "c", "d"], "an integer cursor equals 2.0")
      expectIDs(query.start(at: [1]), ["a", "b", "c", "d"])
      expectIDs(query.start(after: [0.5]).end(before: [1.5]), ["a"], "cursors between values")
      expectIDs(query.start(at: [2]).end(at: [2]), ["b", "c", "d"])
      expectIDs(query.start(after: [2]).end(before: [2]), [])
      expectIDs(query.start(at: [3]).end(at: [0]), [], "start beyond end")
    }
  }

  @Test func aLaterCursorReplacesAnEarlierOne() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      let query = c.order(by: "sort")
      expectIDs(query.start(at: [0]).start(at: [2]), ["b", "c", "d"])
      expectIDs(query.start(at: [2]).start(after: [0]), ["a", "b", "c", "d"])
      expectIDs(query.end(at: [0]).end(before: [2]), ["e", "a"])
    }
  }

  @Test func cursorsOnReferenceValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("refs"),
        [
          "a": ["k": "1a", "ref": db.document("1/a")], "b": ["k": "1b", "ref": db.document("1/b")],
          "c": ["k": "2a", "ref": db.document("2/a")], "d": ["k": "2b", "ref": db.document("2/b")],
          "e": ["k": "3a", "ref": db.document("3/a")],
        ])
      let query = c.order(by: "ref").start(after: [db.document("1/a")]).end(at: [db.document("2/b")])
      let found = try query.getDocuments().documents.map { $0.get("k") as? String ?? "?" }
      #expect(found == ["1b", "2a", "2b"])
    }
  }

  @Test func cursorsOnDescendingOrders() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db, descendingCase: true)
      // sort desc, __name__ desc: d(3), c(2), b(2), a(1), e(0).
      let query = c.order(by: "sort", descending: true).order(by: FieldPath.documentID(), descending: true)
      expectIDs(query.start(at: [2.0]), ["c", "b", "a", "e"])
      expectIDs(query.end(before: [2.0]), ["d"])
      expectIDs(query.start(after: [2.0]), ["a", "e"])
      expectIDs(query.end(at: [2.0]), ["d", "c", "b"])
      expectIDs(query.start(at: [2.0, "b"]), ["b", "a", "e"], "two cursor values")
      expectIDs(query.start(after: [2.0, "c"]).end(before: [0.0]), ["b", "a"])
      let implicitName = c.order(by: "sort", descending: true)
      expectIDs(implicitName.start(at: [2]), ["c", "b", "a", "e"])
      expectIDs(implicitName.start(after: [3]).end(at: [1]), ["c", "b", "a"])
    }
  }

  @Test func documentCursorsOnDescendingOrdersIncludeTheDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      // sort desc, __name__ desc: d, c, b (2.0), a (1.0), e (0.0).
      let query = c.order(by: "sort", descending: true)
      let snapshot = try c.document("c").getDocument()
      expectIDs(query.start(atDocument: snapshot), ["c", "b", "a", "e"])
      expectIDs(query.start(afterDocument: snapshot), ["b", "a", "e"])
      expectIDs(query.end(beforeDocument: snapshot), ["d"])
      expectIDs(query.end(atDocument: snapshot), ["d", "c"])
    }
  }

  @Test func valueCursorsArePrefixesOfTheOrderBys() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("prefix"),
        [
          "p": ["a": 1, "b": "x"], "q": ["a": 2, "b": "y"], "r": ["a": 2, "b": "x"], "s": ["a": 3, "b": "z"],
          "t": ["a": 2, "b": "z"],
        ])
      // a asc, b asc: p(1,x), r(2,x), q(2,y), t(2,z), s(3,z).
      let query = c.order(by: "a").order(by: "b")
      expectIDs(query.start(at: [2]), ["r", "q", "t", "s"])
      expectIDs(query.start(after: [2]), ["s"])
      expectIDs(query.end(at: [2]), ["p", "r", "q", "t"])
      expectIDs(query.end(before: [2]), ["p"])
      expectIDs(query.start(at: [2, "y"]), ["q", "t", "s"])
      expectIDs(query.start(after: [2, "y"]), ["t", "s"])
      expectIDs(query.end(before: [2, "y"]), ["p", "r"])
      expectIDs(query.end(at: [2, "y"]), ["p", "r", "q"])
    }
  }

  @Test func documentCursorsUseTheImplicitInequalityOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      // No explicit order: sort > 0 orders by sort, then __name__: a(1), b, c, d (2).
      let query = c.whereField("sort", isGreaterThan: 0)
      let snapshot = try c.document("b").getDocument()
      expectIDs(query.start(afterDocument: snapshot), ["c", "d"])
      expectIDs(query.end(beforeDocument: snapshot), ["a"])
      let multi = c.whereField("sort", isGreaterThan: 0).whereField("v", isLessThan: "d")
      // sort, v, __name__: a(1,a), b(2,b), c(2,c).
      expectIDs(multi.start(afterDocument: snapshot), ["c"])
    }
  }

  @Test func documentCursorsOnDocumentsWithoutAnOrderField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortFixture(db)
      // Without order-bys, a document cursor is a position in document-ID order.
      let snapshot = try c.document("f").getDocument()
      expectIDs(c.start(atDocument: snapshot), ["f"])
      expectIDs(c.end(beforeDocument: snapshot), ["a", "b", "c", "d", "e"])
      expectIDs(c.whereField("v", isEqualTo: "b").start(afterDocument: snapshot), [])
    }
  }

  @Test func cursorsAcrossTypes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("types"),
        [
          "null": ["v": NSNull()], "bool": ["v": true], "nan": ["v": Double.nan], "one": ["v": 1], "str": ["v": "a"],
          "arr": ["v": [1]], "minusInf": ["v": -Double.infinity],
        ])
      // null, true, NaN, -inf, 1, "a", [1]
      let query = c.order(by: "v")
      expectIDs(query.start(at: [""]), ["str", "arr"])
      expectIDs(query.start(after: [true]), ["nan", "minusInf", "one", "str", "arr"])
      expectIDs(query.end(before: [1]), ["null", "bool", "nan", "minusInf"])
      expectIDs(query.start(after: [Double.nan]), ["minusInf", "one", "str", "arr"], "NaN sorts before every number")
      expectIDs(query.end(at: [Double.nan]), ["null", "bool", "nan"])
      expectIDs(query.start(after: [NSNull()]), ["bool", "nan", "minusInf", "one", "str", "arr"])
    }
  }

  @Test func timestampsAsCursors() throws {
    try withDatabase(settings: relaxed) { db in
      func micros(_ m: Int32) -> Timestamp { Timestamp(seconds: 100, nanoseconds: m * 1000) }
      let c = try seed(
        db.collection("times"),
        [
          "a": ["timestamp": micros(2)], "b": ["timestamp": micros(5)], "c": ["timestamp": micros(3)],
          "d": ["timestamp": micros(1)], "e": ["timestamp": micros(5)], "f": ["timestamp": micros(4)],
        ])
      expectIDs(c.order(by: "timestamp").start(after: [micros(2)]).end(at: [micros(5)]), ["c", "f", "b", "e"])
      expectIDs(
        c.order(by: "timestamp").start(at: [Timestamp(seconds: 100, nanoseconds: 2999)]), ["a", "c", "f", "b", "e"],
        "a cursor timestamp is truncated to microseconds")
    }
  }

  // MARK: - limit(toLast:) with cursors

  @Test func limitToLastWithCursors() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("last"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      let query = c.order(by: "sort").limit(toLast: 3)
      expectIDs(query.end(before: [2]), ["a", "b", "c"])
      expectIDs(query.end(at: [1]), ["a", "b", "c"])
      expectIDs(query.start(at: [2]), ["d"])
      expectIDs(query.start(after: [0]), ["b", "c", "d"])
      expectIDs(query.start(after: [-1]), ["b", "c", "d"])
      expectIDs(c.order(by: "sort").limit(toLast: 1).end(before: [2]), ["c"])
      let a = try c.document("a").getDocument()
      expectIDs(c.order(by: "sort").limit(toLast: 2).start(afterDocument: a), ["c", "d"])
      expectIDs(c.order(by: "sort", descending: true).limit(toLast: 2).end(before: [0]), ["c", "b"])
    }
  }

  // MARK: - Invalid cursors

  @Test func aCursorDocumentMissingAnOrderByFieldIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("missing"), ["f": ["v": "f", "nosort": 1.0], "g": ["v": "g", "sort": 1]])
      let snapshot = try c.document("f").getDocument()
      #expect(snapshot.exists)
      let query = c.order(by: "sort")
      let fragments = ["sort", "does not exist"]
      expectInvalidQuery(query.start(atDocument: snapshot), mentioning: fragments)
      expectInvalidQuery(query.start(afterDocument: snapshot), mentioning: fragments)
      expectInvalidQuery(query.end(beforeDocument: snapshot), mentioning: fragments)
      expectInvalidQuery(query.end(atDocument: snapshot), mentioning: fragments)
      expectInvalidQuery(
        c.whereField("sort", isGreaterThan: 0).start(afterDocument: snapshot), mentioning: ["sort"],
        "an implicit (inequality) order-by field counts too")
    }
  }

  @Test func aCursorDocumentThatDoesNotExistIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("ghost"), ["a": ["sort": 1]])
      let missing = try c.document("nope").getDocument()
      #expect(!missing.exists)
      expectInvalidQuery(c.order(by: "sort").start(atDocument: missing), mentioning: ["exist"])
      expectInvalidQuery(c.end(beforeDocument: missing), mentioning: ["exist"])
    }
  }

  @Test func moreCursorValuesThanOrderBysAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("toomany"), ["a": ["foo": 1, "bar": 2]])
      let query = c.order(by: "foo")
      // iOS: "…using more values than were specified in the order by"; the other SDKs: "Too
      // many arguments provided to startAt()…".
      let fragment = ["more values than|too many arguments", "order"]
      expectInvalidQuery(query.start(at: [1, 2]), mentioning: fragment)
      expectInvalidQuery(query.order(by: "bar").start(at: [1, 2, 3]), mentioning: fragment)
      expectInvalidQuery(query.end(before: [1, 2]), mentioning: fragment)
      expectInvalidQuery(c.start(after: [1]), mentioning: fragment, "no order-by at all")
    }
  }

  @Test func orderByAfterACursorIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("late"), ["a": ["foo": 1, "bar": 2]])
      let query = c.order(by: "foo")
      expectInvalidQuery(query.start(at: [1]).order(by: "bar"), mentioning: ["starting point", "order by"])
      expectInvalidQuery(query.start(after: [1]).order(by: "bar"), mentioning: ["starting point"])
      expectInvalidQuery(query.end(at: [1]).order(by: "bar"), mentioning: ["ending point", "order by"])
      expectInvalidQuery(query.end(before: [1]).order(by: "bar"), mentioning: ["ending point"])
      let snapshot = try c.document("a").getDocument()
      expectInvalidQuery(query.start(afterDocument: snapshot).order(by: "bar"), mentioning: ["starting point"])
    }
  }
}
