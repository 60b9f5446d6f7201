import Foundation
import Hearth
import HearthTestSupport
import Testing

// `whereFilter` with `Filter.andFilter` / `Filter.orFilter`, nested freely: OR of ANDs with
// `in` and `array-contains`, results in query order without duplicates, the implicit
// order of inequality fields inside disjunctions, and the 30-disjunction cap. Cases follow
// FIRQueryTests.mm (testOrQueries…, testUseInWithArrayContains…).

@Suite("Query composite filters")
struct QueryCompositeFilterTests {

  private func fiveDocuments(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("or"),
      [
        "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
        "doc5": ["a": 1, "b": 1],
      ])
  }

  /// The documents of Firestore's testOrQueriesWithIn / WithArrayMembership / UseInWithArrayContains.
  private func sixDocuments(_ db: Database, arrays: Bool) throws -> CollectionReference {
    let b: (Int) -> Any = { arrays ? [$0] : $0 }
    return try seed(
      db.collection(arrays ? "orArrays" : "orIn"),
      [
        "doc1": ["a": 1, "b": b(0)],
        "doc2": ["b": b(1)],
        "doc3": ["a": 3, "b": arrays ? [2, 7] : 2, "c": 10],
        "doc4": ["a": 1, "b": arrays ? [3, 7] : 3],
        "doc5": ["a": 1],
        "doc6": ["a": 2, "c": 20],
      ])
  }

  @Test func orOfEqualitiesAndAndsOfOrs() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      let f1 = Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 1)])
      expectIDs(c.whereFilter(f1), ["doc1", "doc2", "doc4", "doc5"], "doc5 matches both, returned once")
      let f2 = Filter.orFilter([
        Filter.andFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 0)]),
        Filter.andFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 2)]),
      ])
      expectIDs(c.whereFilter(f2), ["doc1", "doc3"])
      let f3 = Filter.andFilter([
        Filter.whereField("a", isEqualTo: 1),
        Filter.orFilter([Filter.whereField("b", isEqualTo: 0), Filter.whereField("b", isEqualTo: 3)]),
      ])
      expectIDs(c.whereFilter(f3), ["doc1", "doc4"])
      let f4 = Filter.andFilter([
        Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 2)]),
        Filter.orFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 3)]),
      ])
      expectIDs(c.whereFilter(f4), ["doc3"])
      let f5 = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 1)])
      expectIDs(c.whereFilter(f5).limit(to: 1), ["doc2"], "limit without order-by: __name__ breaks ties")
    }
  }

  @Test func orResultsAreInQueryOrderWithoutDuplicates() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      let either = Filter.orFilter([
        Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isGreaterThanOrEqualTo: 1),
        Filter.whereField("a", in: [1, 3]),
      ])
      // Documents matching several branches appear once; the order is the query's.
      expectIDs(c.whereFilter(either).order(by: "b", descending: true), ["doc4", "doc3", "doc5", "doc2", "doc1"])
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("a", isEqualTo: 1)])),
        ["doc1", "doc4", "doc5"], "identical branches")
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("a", isEqualTo: 1)]))
          .order(by: "a", descending: true).order(by: "b"), ["doc2", "doc1", "doc5", "doc4"])
    }
  }

  @Test func orWithIn() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocuments(db, arrays: false)
      let filter = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", in: [2, 3])])
      expectIDs(c.whereFilter(filter), ["doc3", "doc4", "doc6"])
      // Two in filters on different fields, and on the same field.
      let f1 = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", in: [0, 2])])
      expectIDs(c.whereFilter(f1), ["doc1", "doc3", "doc6"])
      let f2 = Filter.orFilter([Filter.whereField("a", in: [0, 3]), Filter.whereField("a", in: [0, 2])])
      expectIDs(c.whereFilter(f2), ["doc3", "doc6"])
    }
  }

  @Test func orWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocuments(db, arrays: true)
      let f1 = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContains: 7)])
      expectIDs(c.whereFilter(f1), ["doc3", "doc4", "doc6"])
      let f2 = Filter.orFilter([
        Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContainsAny: [0, 3]),
      ])
      expectIDs(c.whereFilter(f2), ["doc1", "doc4", "doc6"])
    }
  }

  @Test func inWithArrayContainsAny() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocuments(db, arrays: true)
      let f1 = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [0, 7])])
      expectIDs(c.whereFilter(f1), ["doc1", "doc3", "doc4", "doc6"])
      let f2 = Filter.orFilter([
        Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("c", isEqualTo: 10)]),
        Filter.whereField("b", arrayContainsAny: [0, 7]),
      ])
      expectIDs(c.whereFilter(f2), ["doc1", "doc3", "doc4"])
    }
  }

  @Test func orOfAndsWithInAndArrayContains() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocuments(db, arrays: true)
      let f1 = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [3])])
      expectIDs(c.whereFilter(f1), ["doc3", "doc4", "doc6"])
      let f2 = Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContains: 7)])
      expectIDs(c.whereFilter(f2), ["doc3"])
      let f3 = Filter.orFilter([
        Filter.whereField("a", in: [2, 3]),
        Filter.andFilter([Filter.whereField("b", arrayContains: 3), Filter.whereField("a", isEqualTo: 1)]),
      ])
      expectIDs(c.whereFilter(f3), ["doc3", "doc4", "doc6"])
      let f4 = Filter.andFilter([
        Filter.whereField("a", in: [2, 3]),
        Filter.orFilter([Filter.whereField("b", arrayContains: 7), Filter.whereField("a", isEqualTo: 1)]),
      ])
      expectIDs(c.whereFilter(f4), ["doc3"])
    }
  }

  @Test func deeplyNestedFiltersAndSingleMemberComposites() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      expectIDs(c.whereFilter(Filter.andFilter([Filter.whereField("a", isEqualTo: 1)])), ["doc1", "doc4", "doc5"])
      expectIDs(c.whereFilter(Filter.orFilter([Filter.whereField("b", isEqualTo: 1)])), ["doc2", "doc5"])
      let deep = Filter.orFilter([
        Filter.andFilter([
          Filter.whereField("a", isEqualTo: 1),
          Filter.orFilter([
            Filter.whereField("b", isEqualTo: 3),
            Filter.andFilter([Filter.whereField("b", isGreaterThan: -1), Filter.whereField("b", isLessThan: 1)]),
          ]),
        ]),
        Filter.andFilter([Filter.orFilter([Filter.whereField("a", isEqualTo: 3)])]),
      ])
      expectIDs(c.whereFilter(deep), ["doc1", "doc3", "doc4"])
      // whereFilter and whereField combine with AND, in either order.
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("a", isEqualTo: 2)]))
          .whereField("b", isEqualTo: 1), ["doc2", "doc5"])
      expectIDs(
        c.whereField("b", isEqualTo: 1).whereFilter(
          Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("a", isEqualTo: 3)])), ["doc5"])
      expectIDs(
        c.whereFilter(Filter.whereField("a", isEqualTo: 1)).whereFilter(Filter.whereField("b", isEqualTo: 3)), ["doc4"])
    }
  }

  @Test func emptyCompositeFiltersAddNothing() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      // Firestore's queryWhereFilter returns the query unchanged for an empty composite, and
      // drops empty members of a composite.
      expectIDs(c.whereFilter(Filter.andFilter([])), ["doc1", "doc2", "doc3", "doc4", "doc5"])
      expectIDs(c.whereFilter(Filter.orFilter([])), ["doc1", "doc2", "doc3", "doc4", "doc5"])
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("b", isEqualTo: 1), Filter.andFilter([])])), ["doc2", "doc5"])
      expectIDs(
        c.whereFilter(Filter.andFilter([Filter.orFilter([]), Filter.whereField("a", isEqualTo: 3)])), ["doc3"])
    }
  }

  @Test func everyFilterOperatorWithStringsAndFieldPaths() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("ops"),
        [
          "a": ["v": 1, "t": ["x"]], "b": ["v": 2, "t": ["y"]], "c": ["v": 3, "t": ["x", "y"]], "d": ["w": 0],
        ])
      let v = FieldPath(["v"])
      let t = FieldPath(["t"])
      // (by name, by path, expected, label, is an inequality)
      let cases: [(Filter, Filter, [String], String, Bool)] = [
        (Filter.whereField("v", isEqualTo: 2), Filter.whereField(v, isEqualTo: 2), ["b"], "==", false),
        (Filter.whereField("v", isNotEqualTo: 2), Filter.whereField(v, isNotEqualTo: 2), ["a", "c"], "!=", true),
        (Filter.whereField("v", isLessThan: 2), Filter.whereField(v, isLessThan: 2), ["a"], "<", true),
        (
          Filter.whereField("v", isLessThanOrEqualTo: 2), Filter.whereField(v, isLessThanOrEqualTo: 2), ["a", "b"],
          "<=",
          true
        ),
        (Filter.whereField("v", isGreaterThan: 2), Filter.whereField(v, isGreaterThan: 2), ["c"], ">", true),
        (
          Filter.whereField("v", isGreaterOrEqualTo: 2), Filter.whereField(v, isGreaterOrEqualTo: 2), ["b", "c"], ">=",
          true
        ),
        (
          Filter.whereField("t", arrayContains: "y"), Filter.whereField(t, arrayContains: "y"), ["b", "c"], "contains",
          false
        ),
        (
          Filter.whereField("t", arrayContainsAny: ["x", "z"]), Filter.whereField(t, arrayContainsAny: ["x", "z"]),
          ["a", "c"], "contains-any", false
        ),
        (Filter.whereField("v", in: [1, 3]), Filter.whereField(v, in: [1, 3]), ["a", "c"], "in", false),
        (Filter.whereField("v", notIn: [1, 3]), Filter.whereField(v, notIn: [1, 3]), ["b"], "not-in", true),
      ]
      for (byName, byPath, expected, label, isInequality) in cases {
        expectIDs(c.whereFilter(byName), expected, "\(label) with a String")
        expectIDs(c.whereFilter(byPath), expected, "\(label) with a FieldPath")
        // OR'ed with a branch matching d {w: 0}: d is returned unless the inequality orders
        // the query by v, which d lacks.
        let withD = isInequality ? expected : expected + ["d"]
        expectIDs(
          c.whereFilter(Filter.orFilter([byName, Filter.whereField("w", isEqualTo: 0)])), withD, "\(label) in an OR")
      }
    }
  }

  @Test func inequalitiesInsideDisjunctionsAreOrderedImplicitly() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("orIneq"),
        [
          "doc1": ["key": "a", "sort": 0, "v": 5], "doc2": ["key": "aa", "sort": 4, "v": 4],
          "doc3": ["key": "c", "sort": 3, "v": 3], "doc4": ["key": "b", "sort": 2, "v": 2],
          "doc5": ["key": "b", "sort": 2, "v": 1], "doc6": ["key": "b", "sort": 0, "v": 0],
        ])
      let filter = Filter.orFilter([
        Filter.andFilter([Filter.whereField("key", isEqualTo: "b"), Filter.whereField("sort", isLessThanOrEqualTo: 2)]),
        Filter.andFilter([Filter.whereField("key", isNotEqualTo: "b"), Filter.whereField("v", isGreaterThan: 4)]),
      ])
      // Implicitly ordered by key, sort, v, __name__ (all ascending).
      expectIDs(c.whereFilter(filter), ["doc1", "doc6", "doc5", "doc4"])
      // sort desc, key asc, v asc, __name__ asc.
      expectIDs(
        c.whereFilter(filter).order(by: "sort", descending: true).order(by: "key"), ["doc5", "doc4", "doc1", "doc6"])
      let nested = Filter.andFilter([
        Filter.orFilter([
          Filter.andFilter([
            Filter.whereField("key", isEqualTo: "b"), Filter.whereField("sort", isLessThanOrEqualTo: 4),
          ]),
          Filter.andFilter([Filter.whereField("key", isNotEqualTo: "b"), Filter.whereField("v", isGreaterOrEqualTo: 4)]
          ),
        ]),
        Filter.orFilter([
          Filter.andFilter([
            Filter.whereField("key", isGreaterThan: "b"), Filter.whereField("sort", isGreaterOrEqualTo: 1),
          ]),
          Filter.andFilter([Filter.whereField("key", isLessThan: "b"), Filter.whereField("v", isGreaterThan: 0)]),
        ]),
      ])
      expectIDs(c.whereFilter(nested), ["doc1", "doc2"])
    }
  }

  @Test func documentsLackingAnImplicitOrderFieldAreExcludedFromDisjunctions() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("orMissing"),
        [
          "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1], "doc7": ["a": 5], "doc8": ["b": -1],
        ])
      // a > 2 || b < 1 orders by a, b, __name__: doc7 (no b) and doc8 (no a) are excluded.
      let filter = Filter.orFilter([Filter.whereField("a", isGreaterThan: 2), Filter.whereField("b", isLessThan: 1)])
      expectIDs(c.whereFilter(filter), ["doc1", "doc3"])
      // With an equality branch only, no implicit order: a missing field does not exclude.
      let equality = Filter.orFilter([Filter.whereField("a", isEqualTo: 5), Filter.whereField("b", isEqualTo: -1)])
      expectIDs(c.whereFilter(equality), ["doc7", "doc8"])
    }
  }

  @Test func multipleInequalitiesWithExplicitAnd() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      expectIDs(c.whereField("a", isNotEqualTo: 1).whereField("b", isLessThan: 2), ["doc2"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("a", isNotEqualTo: 1), Filter.whereField("b", isLessThan: 2)])),
        ["doc2"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("a", isLessThan: 3), Filter.whereField("b", notIn: [2, 3])])),
        ["doc1", "doc5", "doc2"])
      expectIDs(
        c.whereField("a", isLessThan: 3).whereField("b", isNotEqualTo: 0).order(by: "b", descending: true).limit(to: 2),
        ["doc4", "doc2"])
    }
  }

  @Test func orOnDocumentIDs() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveDocuments(db)
      let id = FieldPath.documentID()
      let filter = Filter.orFilter([Filter.whereField(id, isEqualTo: "doc4"), Filter.whereField("b", isEqualTo: 0)])
      expectIDs(c.whereFilter(filter), ["doc1", "doc4"])
      let range = Filter.orFilter([
        Filter.whereField(id, isLessThan: "doc2"), Filter.whereField(id, isGreaterThan: "doc4"),
      ])
      expectIDs(c.whereFilter(range), ["doc1", "doc5"])
    }
  }

  // MARK: - The disjunction cap

  @Test func thirtyDisjunctionsAreAllowed() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("cap"), ["x": ["a": 5, "b": 6], "y": ["a": 31, "b": 1]])
      let thirty = (1...30).map { Filter.whereField("a", isEqualTo: $0) }
      expectIDs(c.whereFilter(Filter.orFilter(thirty)), ["x"])
      // 5 × 6 = 30 after distributing AND over the two in filters.
      expectIDs(c.whereField("a", in: [1, 2, 3, 4, 5]).whereField("b", in: [1, 2, 3, 4, 5, 6]), ["x"])
      expectIDs(c.whereField("a", in: Array(1...30)), ["x"], "in takes up to 30 values")
      expectIDs(c.whereField("b", arrayContainsAny: Array(1...30)), [], "array-contains-any takes up to 30 values")
    }
  }

  @Test func moreThanThirtyDisjunctionsAfterExpansionAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("cap"), ["x": ["a": 5, "b": 6]])
      let thirtyOne = (1...31).map { Filter.whereField("a", isEqualTo: $0) }
      expectInvalidQuery(c.whereFilter(Filter.orFilter(thirtyOne)), mentioning: ["30"], "31 OR branches")
      expectInvalidQuery(
        c.whereField("a", in: [1, 2, 3, 4, 5, 6]).whereField("b", in: [1, 2, 3, 4, 5, 6]), mentioning: ["30"],
        "6 × 6 = 36 after expansion")
      let product = Filter.andFilter([
        Filter.orFilter((1...4).map { Filter.whereField("a", isEqualTo: $0) }),
        Filter.orFilter((1...4).map { Filter.whereField("b", isEqualTo: $0) }),
        Filter.orFilter([Filter.whereField("c", isEqualTo: 1), Filter.whereField("c", isEqualTo: 2)]),
      ])
      expectInvalidQuery(c.whereFilter(product), mentioning: ["30"], "4 × 4 × 2 = 32 after expansion")
      expectInvalidQuery(c.whereField("a", in: Array(1...31)), mentioning: ["30"], "in with 31 values")
      expectInvalidQuery(c.whereField("a", arrayContainsAny: Array(1...31)), mentioning: ["30"])
    }
  }
}
