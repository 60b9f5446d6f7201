import Foundation
import Hearth
import HearthTestSupport
import Testing

// Order: explicit order-bys, directions, ties broken by `__name__` in the last explicit
// direction, exclusion of documents lacking an order-by field, implicit order-bys for
// inequality fields (several of them, in the normalised order), nested paths, and
// Firestore's order across types. Cases follow FIRQueryTests.mm where it has them.

@Suite("Query order")
struct QueryOrderTests {

  @Test func defaultOrderIsByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("plain"), ["c": ["v": 1], "a": ["v": 3], "b": ["v": 2], "B": ["v": 0]])
      expectIDs(c, ["B", "a", "b", "c"])
      expectIDs(c.whereField("v", isEqualTo: 1), ["c"])
    }
  }

  @Test func ascendingAndDescendingWithTiesBrokenByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("sorted"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      expectIDs(c.order(by: "sort"), ["a", "b", "c", "d"])
      expectIDs(c.order(by: "sort", descending: true), ["d", "c", "b", "a"], "ties by __name__ descending")
      expectIDs(
        c.order(by: "sort", descending: true).limit(to: 2), ["d", "c"], "testLimitQueriesWithDescendingSortOrder")
      expectIDs(c.order(by: FieldPath(["sort"]), descending: false), ["a", "b", "c", "d"])
    }
  }

  @Test func keyOrderIsDescendingForADescendingInequality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("foo"),
        [
          "a": ["foo": 42], "b": ["foo": 42.0], "c": ["foo": 42], "d": ["foo": 21], "e": ["foo": 21.0],
          "f": ["foo": 66],
          "g": ["foo": 66.0],
        ])
      expectIDs(c.whereField("foo", isGreaterThan: 21).order(by: "foo", descending: true), ["g", "f", "c", "b", "a"])
      expectIDs(c.whereField("foo", isGreaterThan: 21), ["a", "b", "c", "f", "g"], "implicit ascending order")
      expectIDs(c.whereField("foo", isLessThan: 66).order(by: "foo", descending: true), ["c", "b", "a", "e", "d"])
    }
  }

  @Test func documentsLackingAnOrderByFieldAreExcluded() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("sparse"),
        [
          "a": ["sort": 1.0, "x": 1], "b": ["sort": 2.0], "c": ["sort": NSNull(), "x": 2],
          "d": ["nosort": 1.0, "x": 3],
          "e": ["sort": ["nested": 1]], "f": ["x": 4, "sort": 0],
        ])
      expectIDs(
        c.order(by: "sort"), ["c", "f", "a", "b", "e"], "a null value is ordered (first), a missing one excluded")
      expectIDs(c.order(by: "sort").order(by: "x"), ["c", "f", "a"], "every order-by field is needed")
      expectIDs(c.order(by: "x", descending: true), ["f", "d", "c", "a"])
      expectIDs(c.order(by: "sort.nested"), ["e"])
      expectIDs(c.order(by: "missing"), [])
    }
  }

  @Test func severalOrderBysWithTheLastDirectionBreakingTies() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("multi"),
        ["p": ["a": 1, "b": 1], "q": ["a": 1, "b": 2], "r": ["a": 0, "b": 5], "s": ["a": 1, "b": 2]])
      expectIDs(c.order(by: "a").order(by: "b", descending: true), ["r", "s", "q", "p"], "ties (q, s) by name desc")
      expectIDs(c.order(by: "a", descending: true).order(by: "b"), ["p", "q", "s", "r"], "ties (q, s) by name asc")
      expectIDs(c.order(by: "b").order(by: "a"), ["p", "q", "s", "r"])
      expectIDs(c.order(by: "b", descending: true).order(by: "a", descending: true), ["r", "s", "q", "p"])
    }
  }

  @Test func nestedFieldPathsOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nested"),
        [
          "a": ["m": ["x": 3]], "b": ["m": ["x": 1]], "c": ["m": ["y": 0]], "d": ["m": ["x": 2, "y": 9]], "e": ["m": 5],
        ])
      expectIDs(c.order(by: "m.x"), ["b", "d", "a"])
      expectIDs(c.order(by: FieldPath(["m", "x"]), descending: true), ["a", "d", "b"])
      expectIDs(c.order(by: "m"), ["e", "b", "d", "a", "c"], "numbers before maps; maps by key then value")
    }
  }

  /// One document per type class, with IDs that do not sort like their values.
  private func everyType(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("types"),
      [
        "null": ["v": NSNull()],
        "false": ["v": false],
        "true": ["v": true],
        "nan": ["v": Double.nan],
        "minusInfinity": ["v": -Double.infinity],
        "int64Min": ["v": Int64.min],
        "minusOneAndHalf": ["v": -1.5],
        "zero": ["v": 0],
        "minusZero": ["v": -0.0],
        "one": ["v": 1],
        "oneDouble": ["v": 1.0],
        "int64Max": ["v": Int64.max],
        "infinity": ["v": Double.infinity],
        "epoch": ["v": Timestamp(seconds: 0, nanoseconds: 0)],
        "later": ["v": Timestamp(seconds: 1, nanoseconds: 1000)],
        "emptyString": ["v": ""],
        "stringA": ["v": "a"],
        "bytes": ["v": Data([0])],
        "reference": ["v": db.document("a/b")],
        "geo": ["v": GeoPoint(latitude: 0, longitude: 0)],
        "emptyArray": ["v": [Any]()],
        "array": ["v": [1]],
        "emptyMap": ["v": [String: Any]()],
        "map": ["v": ["a": 1]],
        "missing": ["w": 1],
      ])
  }

  private static let typeOrder = [
    "null", "false", "true", "nan", "minusInfinity", "int64Min", "minusOneAndHalf", "minusZero", "zero", "one",
    "oneDouble", "int64Max", "infinity", "epoch", "later", "emptyString", "stringA", "bytes", "reference", "geo",
    "emptyArray", "array", "emptyMap", "map",
  ]

  @Test func valuesOfEveryTypeOrderByFirestoresTypeOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try everyType(db)
      expectIDs(c.order(by: "v"), Self.typeOrder, "null < bool < numbers (NaN first) < timestamps < strings < ...")
      expectIDs(c.order(by: "v", descending: true), Self.typeOrder.reversed(), "descending is the exact reverse")
    }
  }

  @Test func notEqualOrdersEveryTypeButNull() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try everyType(db)
      let expected = Self.typeOrder.filter { $0 != "null" && $0 != "stringA" }
      expectIDs(c.whereField("v", isNotEqualTo: "a"), expected)
      let notIn = Self.typeOrder.filter { !["null", "one", "oneDouble", "map"].contains($0) }
      expectIDs(c.whereField("v", notIn: [1, ["a": 1]]), notIn)
    }
  }

  @Test func inequalityFieldsAreOrderedImplicitly() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("ineq"), ["a": ["n": 3], "b": ["n": 1], "c": ["n": 2], "d": ["n": 1], "e": ["m": 0]])
      expectIDs(c.whereField("n", isGreaterThan: 0), ["b", "d", "c", "a"])
      expectIDs(c.whereField("n", isNotEqualTo: 2), ["b", "d", "a"])
      expectIDs(c.whereField("n", notIn: [3]), ["b", "d", "c"])
      expectIDs(c.whereField("n", isLessThan: 3).order(by: "n", descending: true), ["c", "d", "b"])
    }
  }

  @Test func anInequalityMayFollowAnExplicitOrderOnAnotherField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("mixedOrder"),
        ["a": ["x": 2, "y": 1], "b": ["x": 1, "y": 1], "c": ["x": 3, "y": 0], "d": ["x": 1, "y": 2], "e": ["x": 5]])
      // Normalised order: y (explicit), then x (inequality), then __name__.
      expectIDs(c.whereField("x", isGreaterThan: 0).order(by: "y"), ["c", "b", "a", "d"])
      expectIDs(c.order(by: "y", descending: true).whereField("x", isLessThan: 3), ["d", "a", "b"])
    }
  }

  @Test func orderByAFieldWithAnEqualityFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("orderEq"),
        [
          "doc1": ["a": 1, "b": [0]], "doc2": ["b": [1]], "doc3": ["a": 3, "b": [2, 7], "c": 10],
          "doc4": ["a": 1, "b": [3, 7]], "doc5": ["a": 1], "doc6": ["a": 2, "c": 20],
        ])
      expectIDs(c.whereField("a", isEqualTo: 1).order(by: "a"), ["doc1", "doc4", "doc5"])
      expectIDs(c.whereField("a", in: [2, 3]).order(by: "a"), ["doc6", "doc3"])
      expectIDs(c.whereField("a", in: [2, 3]).order(by: "a", descending: true), ["doc3", "doc6"])
      expectIDs(c.whereField("b", arrayContains: 7).order(by: "a", descending: true), ["doc3", "doc4"])
    }
  }

  // MARK: - Several inequality fields (FIRQueryTests.mm, "Multiple Inequality")

  @Test func multipleInequalitiesOnDifferentFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("mieq"),
        [
          "doc1": ["key": "a", "sort": 0, "v": 0], "doc2": ["key": "b", "sort": 3, "v": 1],
          "doc3": ["key": "c", "sort": 1, "v": 3], "doc4": ["key": "d", "sort": 2, "v": 2],
        ])
      expectIDs(
        c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
          "v", isGreaterThan: 2),
        ["doc3"])
      expectIDs(
        c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
          "sort", isGreaterThan: 1), ["doc4"], "two inequalities on one field")
      expectIDs(
        c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
          .whereField("v", in: [2, 3, 4]).whereField("sort", in: [2, 3]), ["doc4"])
      expectIDs(
        c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
          .whereField("v", notIn: [2, 4, 5]), ["doc1", "doc3"])
      let ordered = c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
        .order(by: "v", descending: true)
      expectIDs(ordered, ["doc3", "doc4", "doc1"])
      expectIDs(ordered.limit(to: 2), ["doc3", "doc4"])
      expectIDs(ordered.limit(toLast: 2), ["doc4", "doc1"])
    }
  }

  @Test func multipleInequalitiesOnSpecialValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("special"),
        [
          "doc1": ["key": "a", "sort": 0, "v": 0], "doc2": ["key": "b", "sort": Double.nan, "v": 1],
          "doc3": ["key": "c", "sort": NSNull(), "v": 3], "doc4": ["key": "d", "v": 0],
          "doc5": ["key": "e", "sort": 1],
          "doc6": ["key": "f", "sort": 1, "v": 1],
        ])
      expectIDs(c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2), ["doc5", "doc6"])
      expectIDs(
        c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
          "v", isLessThanOrEqualTo: 1), ["doc6"])
    }
  }

  @Test func multipleInequalitiesWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("arrays"),
        [
          "doc1": ["key": "a", "sort": 0, "v": [0]], "doc2": ["key": "b", "sort": 1, "v": [0, 1, 3]],
          "doc3": ["key": "c", "sort": 1, "v": [Any]()], "doc4": ["key": "d", "sort": 2, "v": [1]],
          "doc5": ["key": "e", "sort": 3, "v": [2, 4]], "doc6": ["key": "f", "sort": 4, "v": [Double.nan]],
          "doc7": ["key": "g", "sort": 4, "v": [NSNull()]],
        ])
      let base = c.whereField("key", isNotEqualTo: "a").whereField("sort", isGreaterThanOrEqualTo: 1)
      expectIDs(base.whereField("v", arrayContains: 0), ["doc2"])
      expectIDs(base.whereField("v", arrayContainsAny: [0, 1]), ["doc2", "doc4"])
    }
  }

  @Test func multipleInequalitiesOnNestedFields() throws {
    try withDatabase(settings: relaxed) { db in
      func nested(_ n: Int) -> [String: Any] {
        ["name": "room \(n)", "metadata": ["createdAt": n], "field": "field \(n)", "field.dot": n, "field\\slash": n]
      }
      let c = try seed(
        db.collection("rooms"), ["doc1": nested(400), "doc2": nested(200), "doc3": nested(100), "doc4": nested(300)])
      expectIDs(
        c.whereField("metadata.createdAt", isLessThanOrEqualTo: 500).whereField(
          "metadata.createdAt", isGreaterThan: 100
        )
        .whereField("name", isNotEqualTo: "room 200").order(by: "name"), ["doc4", "doc1"])
      expectIDs(
        c.whereField("field", isGreaterThanOrEqualTo: "field 100").whereField(
          FieldPath(["field.dot"]), isNotEqualTo: 300
        )
        .whereField("field\\slash", isLessThan: 400).order(by: "name", descending: true), ["doc2", "doc3"])
    }
  }

  @Test func multipleInequalityFieldsAreOrderedByFieldPath() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("lex"),
        [
          "doc1": ["key": "a", "sort": 0, "v": 5], "doc2": ["key": "aa", "sort": 4, "v": 4],
          "doc3": ["key": "b", "sort": 3, "v": 3], "doc4": ["key": "b", "sort": 2, "v": 2],
          "doc5": ["key": "b", "sort": 2, "v": 1], "doc6": ["key": "b", "sort": 0, "v": 0],
        ])
      // Implicitly ordered by key, sort, __name__, whatever the order of the filters.
      expectIDs(
        c.whereField("key", isNotEqualTo: "a").whereField("sort", isGreaterThan: 1).whereField("v", in: [1, 2, 3, 4]),
        ["doc2", "doc4", "doc5", "doc3"])
      expectIDs(
        c.whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a").whereField("v", in: [1, 2, 3, 4]),
        ["doc2", "doc4", "doc5", "doc3"])
    }
  }

  @Test func inequalityFieldPathsCompareSegmentBySegment() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("segments"),
        [
          "p": ["a": ["b": 1], "a-": 2, "b": 2, "m": ["c": 1]],
          "q": ["a": ["b": 2], "a-": 1, "b": 1, "m": ["c": 2]],
        ])
      // Field path order: `a.b` (segments a, b) before `a-` (segment "a" < "a-"), though
      // the dotted strings compare the other way ('-' < '.').
      expectIDs(c.whereField("a-", isGreaterThan: 0).whereField("a.b", isGreaterThan: 0), ["p", "q"])
      // `b` and `m.c`: b first, whichever filter comes first.
      expectIDs(c.whereField("m.c", isGreaterThan: 0).whereField("b", isGreaterThan: 0), ["q", "p"])
    }
  }

  @Test func implicitOrderBysFollowTheLastExplicitDirection() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("explicit"),
        [
          "doc1": ["key": "a", "sort": 5, "v": 0], "doc2": ["key": "aa", "sort": 4, "v": 0],
          "doc3": ["key": "b", "sort": 3, "v": 1], "doc4": ["key": "b", "sort": 2, "v": 1],
          "doc5": ["key": "bb", "sort": 1, "v": 1], "doc6": ["key": "c", "sort": 0, "v": 2],
        ])
      let base = c.whereField("key", isGreaterThan: "a").whereField("sort", isGreaterThanOrEqualTo: 1)
      // v asc, key asc, sort asc, __name__ asc
      expectIDs(base.order(by: "v"), ["doc2", "doc4", "doc3", "doc5"])
      // v asc, sort asc, key asc, __name__ asc
      expectIDs(base.order(by: "v").order(by: "sort"), ["doc2", "doc5", "doc4", "doc3"])
      // v desc, key desc, sort desc, __name__ desc
      expectIDs(base.order(by: "v", descending: true), ["doc5", "doc3", "doc4", "doc2"])
      // v desc, sort asc, key asc, __name__ asc
      expectIDs(base.order(by: "v", descending: true).order(by: "sort"), ["doc5", "doc4", "doc3", "doc2"])
    }
  }

  @Test func anInequalityOnDocumentIDIsOrderedLast() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("withKey"),
        [
          "doc1": ["key": "a", "sort": 5], "doc2": ["key": "aa", "sort": 4], "doc3": ["key": "b", "sort": 3],
          "doc4": ["key": "b", "sort": 2], "doc5": ["key": "bb", "sort": 1],
        ])
      let id = FieldPath.documentID()
      // key asc, sort asc, __name__ asc
      expectIDs(
        c.whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a").whereField(id, isLessThan: "doc5"),
        ["doc2", "doc4", "doc3"])
      expectIDs(
        c.whereField(id, isLessThan: "doc5").whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a"),
        ["doc2", "doc4", "doc3"])
      // sort desc, key desc, __name__ desc
      expectIDs(
        c.whereField(id, isLessThan: "doc5").whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a")
          .order(by: "sort", descending: true), ["doc2", "doc3", "doc4"])
    }
  }

  @Test func explicitOrderByDocumentIDLastIsAllowed() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nameLast"), ["a": ["v": 1], "b": ["v": 1], "c": ["v": 0], "d": ["v": 2]])
      expectIDs(c.order(by: "v").order(by: FieldPath.documentID(), descending: true), ["c", "b", "a", "d"])
      expectIDs(
        c.whereField("v", isGreaterThan: 0).order(by: "v").order(by: FieldPath.documentID(), descending: true),
        ["b", "a", "d"])
    }
  }
}
