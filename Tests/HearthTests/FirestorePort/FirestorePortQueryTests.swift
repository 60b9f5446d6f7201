import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own query integration tests, ported case by case with their data and expected
// results unchanged: FIRQueryTests.mm, FIRCursorTests.mm and the query cases of
// FIRCompositeIndexQueryTests.mm (Firestore/Example/Tests/Integration/API), and the Swift
// QueryIntegrationTests.swift where it differs. Listener, offline, cache and metadata parts are
// left out; where a test checks both a get and a listener, only the get is ported. The cases
// of numeric document IDs (`__id7__`), "sort documents by DocumentId" in the JS SDK's
// database.test.ts, are at the end, with the listener part: they check that a listener
// orders as a get does.

@Suite("Firestore port: queries")
struct FirestorePortQueryTests {

  // MARK: - FIRQueryTests.mm

  // FIRQueryTests.testLimitQueries
  @Test func testLimitQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("c"), ["a": ["k": "a"], "b": ["k": "b"], "c": ["k": "c"]])
      expectIDs(c.limit(to: 2), ["a", "b"])
    }
  }

  // FIRQueryTests.testLimitQueriesWithDescendingSortOrder
  @Test func testLimitQueriesWithDescendingSortOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      expectIDs(c.order(by: "sort", descending: true).limit(to: 2), ["d", "c"])
    }
  }

  // FIRQueryTests.testLimitToLastMustAlsoHaveExplicitOrderBy
  @Test func testLimitToLastMustAlsoHaveExplicitOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      expectInvalidQuery(
        c.limit(toLast: 2),
        mentioning: ["limit(toLast:) queries require specifying at least one OrderBy() clause"])
    }
  }

  // FIRQueryTests.testLimitToLastQueriesWithCursors
  @Test func testLimitToLastQueriesWithCursors() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      expectIDs(c.order(by: "sort").limit(toLast: 3).end(before: [2]), ["a", "b", "c"])
      expectIDs(c.order(by: "sort").limit(toLast: 3).end(at: [1]), ["a", "b", "c"])
      expectIDs(c.order(by: "sort").limit(toLast: 3).start(at: [2]), ["d"])
      expectIDs(c.order(by: "sort").limit(toLast: 3).start(after: [0]), ["b", "c", "d"])
      expectIDs(c.order(by: "sort").limit(toLast: 3).start(after: [-1]), ["b", "c", "d"])
    }
  }

  // FIRQueryTests.testKeyOrderIsDescendingForDescendingInequality
  @Test func testKeyOrderIsDescendingForDescendingInequality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["foo": 42], "b": ["foo": 42.0], "c": ["foo": 42], "d": ["foo": 21], "e": ["foo": 21.0],
          "f": ["foo": 66], "g": ["foo": 66.0],
        ])
      expectIDs(c.whereField("foo", isGreaterThan: 21).order(by: "foo", descending: true), ["g", "f", "c", "b", "a"])
    }
  }

  // FIRQueryTests.testUnaryFilterQueries
  @Test func testUnaryFilterQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["null": NSNull(), "nan": Double.nan],
          "b": ["null": NSNull(), "nan": 0],
          "c": ["null": false, "nan": Double.nan],
        ])
      expectIDs(c.whereField("null", isEqualTo: NSNull()).whereField("nan", isEqualTo: Double.nan), ["a"])
    }
  }

  // FIRQueryTests.testQueryWithFieldPaths
  @Test func testQueryWithFieldPaths() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("c"), ["a": ["a": 1], "b": ["a": 2], "c": ["a": 3]])
      let query = c.whereField(FieldPath(["a"]), isLessThan: 3).order(by: FieldPath(["a"]), descending: true)
      expectIDs(query, ["b", "a"])
    }
  }

  // FIRQueryTests.testFilterOnInfinity
  @Test func testFilterOnInfinity() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("c"), ["a": ["inf": Double.infinity], "b": ["inf": -Double.infinity]])
      expectIDs(c.whereField("inf", isEqualTo: Double.infinity), ["a"])
    }
  }

  // FIRQueryTests.testCanExplicitlySortByDocumentID
  @Test func testCanExplicitlySortByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("c"), ["a": ["key": "a"], "b": ["key": "b"], "c": ["key": "c"]])
      expectIDs(c.order(by: FieldPath.documentID()), ["a", "b", "c"])
    }
  }

  private func fourDocIDs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      ["aa": ["key": "aa"], "ab": ["key": "ab"], "ba": ["key": "ba"], "bb": ["key": "bb"]])
  }

  // FIRQueryTests.testCanQueryByDocumentID
  @Test func testCanQueryByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: "ab"), ["ab"])
    }
  }

  // FIRQueryTests.testCanQueryByDocumentIDs
  @Test func testCanQueryByDocumentIDs() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: "ab"), ["ab"])
      expectIDs(
        c.whereField(FieldPath.documentID(), isGreaterThan: "aa")
          .whereField(FieldPath.documentID(), isLessThanOrEqualTo: "ba"),
        ["ab", "ba"])
    }
  }

  // FIRQueryTests.testCanQueryByDocumentIDsUsingRefs
  @Test func testCanQueryByDocumentIDsUsingRefs() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: c.document("ab")), ["ab"])
      expectIDs(
        c.whereField(FieldPath.documentID(), isGreaterThan: c.document("aa"))
          .whereField(FieldPath.documentID(), isLessThanOrEqualTo: c.document("ba")),
        ["ab", "ba"])
    }
  }

  private func zipDocs(_ db: Database, dAsString: Bool = false) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": ["zip": Double.nan],
        "b": ["zip": 91102],
        "c": ["zip": 98101],
        "d": ["zip": dAsString ? "98101" as Any : 98103 as Any],
        "e": ["zip": [98101]],
        "f": ["zip": [98101, 98102]],
        "g": ["zip": ["98101", ["zip": 98101]] as [Any]],
        "h": ["zip": ["code": 500]],
        "i": ["zip": NSNull()],
        "j": ["code": 500],
      ])
  }

  // FIRQueryTests.testQueriesCanUseNotEqualFilters
  @Test func testQueriesCanUseNotEqualFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipDocs(db)
      expectIDs(c.whereField("zip", isNotEqualTo: 98101), ["a", "b", "d", "e", "f", "g", "h"], "!= 98101")
      expectIDs(c.whereField("zip", isNotEqualTo: ["code": 500]), ["a", "b", "c", "d", "e", "f", "g"], "with objects")
      expectIDs(c.whereField("zip", isNotEqualTo: [NSNull()]), ["a", "b", "c", "d", "e", "f", "g", "h"], "with [null]")
      expectIDs(c.whereField("zip", isNotEqualTo: Double.nan), ["b", "c", "d", "e", "f", "g", "h"], "with NaN")
    }
  }

  // FIRQueryTests.testQueriesCanUseNotEqualFiltersWithDocIds
  @Test func testQueriesCanUseNotEqualFiltersWithDocIds() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), isNotEqualTo: "aa"), ["ab", "ba", "bb"])
    }
  }

  // FIRQueryTests.testSDKUsesNotEqualFiltersSameAsServer
  @Test func testSDKUsesNotEqualFiltersSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipDocs(db, dAsString: true)
      expectIDs(c.whereField("zip", isNotEqualTo: 98101), ["a", "b", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", isNotEqualTo: Double.nan), ["b", "c", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", isNotEqualTo: [NSNull()]), ["a", "b", "c", "d", "e", "f", "g", "h"])
    }
  }

  // FIRQueryTests.testQueriesCanUseArrayContainsFilters
  @Test func testQueriesCanUseArrayContainsFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["array": [42]],
          "b": ["array": ["a", 42, "c"] as [Any]],
          "c": ["array": [41.999, "42", ["a": [42]]] as [Any]],
          "d": ["array": [42], "array2": ["bingo"]],
          "e": ["array": [NSNull()]],
          "f": ["array": [Double.nan]],
        ])
      expectIDs(c.whereField("array", arrayContains: 42), ["a", "b", "d"])
      expectIDs(c.whereField("array", arrayContains: NSNull()), [], "with null")
      expectIDs(c.whereField("array", arrayContains: Double.nan), [], "with NaN")
    }
  }

  // FIRQueryTests.testQueriesCanUseInFilters
  @Test func testQueriesCanUseInFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["zip": 98101],
          "b": ["zip": 91102],
          "c": ["zip": 98103],
          "d": ["zip": [98101]],
          "e": ["zip": ["98101", ["zip": 98101]] as [Any]],
          "f": ["zip": ["code": 500]],
          "g": ["zip": [98101, 98102]],
          "h": ["zip": NSNull()],
          "i": ["zip": Double.nan],
        ])
      expectIDs(c.whereField("zip", in: [98101, 98103, [98101, 98102]]), ["a", "c", "g"])
      expectIDs(c.whereField("zip", in: [["code": 500]]), ["f"], "with objects")
      expectIDs(c.whereField("zip", in: [NSNull()]), [], "with null")
      expectIDs(c.whereField("zip", in: [NSNull(), 98101]), ["a"], "with null and a value")
      expectIDs(c.whereField("zip", in: [Double.nan]), [], "with NaN")
      expectIDs(c.whereField("zip", in: [Double.nan, 98101]), ["a"], "with NaN and a value")
    }
  }

  // FIRQueryTests.testQueriesCanUseInFiltersWithDocIds
  @Test func testQueriesCanUseInFiltersWithDocIds() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), in: ["aa", "ab"]), ["aa", "ab"])
    }
  }

  // FIRQueryTests.testQueriesCanUseNotInFilters
  @Test func testQueriesCanUseNotInFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipDocs(db)
      expectIDs(c.whereField("zip", notIn: [98101, 98103, [98101, 98102]]), ["a", "b", "e", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [["code": 500]]), ["a", "b", "c", "d", "e", "f", "g"], "with objects")
      expectIDs(c.whereField("zip", notIn: [NSNull()]), [], "with null")
      expectIDs(c.whereField("zip", notIn: [Double.nan]), ["b", "c", "d", "e", "f", "g", "h"], "with NaN")
      expectIDs(
        c.whereField("zip", notIn: [Double.nan, 98101]), ["b", "d", "e", "f", "g", "h"], "with NaN and a number")
    }
  }

  // FIRQueryTests.testQueriesCanUseNotInFiltersWithDocIds
  @Test func testQueriesCanUseNotInFiltersWithDocIds() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocIDs(db)
      expectIDs(c.whereField(FieldPath.documentID(), notIn: ["aa", "ab"]), ["ba", "bb"])
    }
  }

  // FIRQueryTests.testSDKUsesNotInFiltersSameAsServer
  @Test func testSDKUsesNotInFiltersSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipDocs(db, dAsString: true)
      expectIDs(c.whereField("zip", notIn: [98101, 98103, [98101, 98102]]), ["a", "b", "d", "e", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [NSNull()]), [])
    }
  }

  // FIRQueryTests.testQueriesCanUseArrayContainsAnyFilters
  @Test func testQueriesCanUseArrayContainsAnyFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["array": [42]],
          "b": ["array": ["a", 42, "c"] as [Any]],
          "c": ["array": [41.999, "42", ["a": [42]]] as [Any]],
          "d": ["array": [42], "array2": ["bingo"]],
          "e": ["array": [43]],
          "f": ["array": [["a": 42]]],
          "g": ["array": 42],
          "h": ["array": [NSNull()]],
          "i": ["array": [Double.nan]],
        ])
      expectIDs(c.whereField("array", arrayContainsAny: [42, 43]), ["a", "b", "d", "e"])
      expectIDs(c.whereField("array", arrayContainsAny: [["a": 42]]), ["f"], "with objects")
      expectIDs(c.whereField("array", arrayContainsAny: [NSNull()]), [], "with null")
      expectIDs(c.whereField("array", arrayContainsAny: [NSNull(), 43]), ["e"], "with null and a value")
      expectIDs(c.whereField("array", arrayContainsAny: [Double.nan]), [], "with NaN")
      expectIDs(c.whereField("array", arrayContainsAny: [Double.nan, 43]), ["e"], "with NaN and a value")
    }
  }

  // FIRQueryTests.testCollectionGroupQueries
  @Test func testCollectionGroupQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "bq8ZkT2xLmN4pR7sV1wY"  // Firestore uses "b" + an auto ID
      let paths = [
        "abc/123/\(cg)/cg-doc1", "abc/123/\(cg)/cg-doc2", "\(cg)/cg-doc3", "\(cg)/cg-doc4",
        "def/456/\(cg)/cg-doc5", "\(cg)/virtual-doc/nested-coll/not-cg-doc", "x\(cg)/not-cg-doc",
        "\(cg)x/not-cg-doc", "abc/123/\(cg)x/not-cg-doc", "abc/123/x\(cg)/not-cg-doc", "abc/\(cg)",
      ]
      try seed(db, paths: Dictionary(uniqueKeysWithValues: paths.map { ($0, ["x": 1] as [String: Any]) }))
      expectIDs(db.collectionGroup(cg), ["cg-doc1", "cg-doc2", "cg-doc3", "cg-doc4", "cg-doc5"])
    }
  }

  private func arbitraryIDGroup(_ db: Database, _ cg: String) throws {
    let paths = [
      "a/a/\(cg)/cg-doc1", "a/b/a/b/\(cg)/cg-doc2", "a/b/\(cg)/cg-doc3", "a/b/c/d/\(cg)/cg-doc4",
      "a/c/\(cg)/cg-doc5", "\(cg)/cg-doc6", "a/b/nope/nope",
    ]
    try seed(db, paths: Dictionary(uniqueKeysWithValues: paths.map { ($0, ["x": 1] as [String: Any]) }))
  }

  // FIRQueryTests.testCollectionGroupQueriesWithStartAtEndAtWithArbitraryDocumentIDs
  @Test func testCollectionGroupQueriesWithStartAtEndAtWithArbitraryDocumentIDs() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "bq8ZkT2xLmN4pR7sV1wY"
      try arbitraryIDGroup(db, cg)
      let query = db.collectionGroup(cg).order(by: FieldPath.documentID())
        .start(after: ["a/b"]).end(before: ["a/b/\(cg)/cg-doc3"])
      expectIDs(query, ["cg-doc2"])
    }
  }

  // FIRQueryTests.testCollectionGroupQueriesWithWhereFiltersOnArbitraryDocumentIDs
  @Test func testCollectionGroupQueriesWithWhereFiltersOnArbitraryDocumentIDs() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "bq8ZkT2xLmN4pR7sV1wY"
      try arbitraryIDGroup(db, cg)
      let query = db.collectionGroup(cg)
        .whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: "a/b")
        .whereField(FieldPath.documentID(), isLessThan: "a/b/\(cg)/cg-doc3")
      expectIDs(query, ["cg-doc2"])
    }
  }

  private static let unicodeStrings: [(String, String)] = [
    ("a", "Łukasiewicz"), ("b", "Sierpiński"), ("c", "岩澤"), ("d", "🄟"), ("e", "Ｐ"), ("f", "︒"), ("g", "🐵"),
  ]

  // FIRQueryTests.testSnapshotListenerSortsUnicodeStringsInTheSameOrderAsServer (get part)
  @Test func testSnapshotListenerSortsUnicodeStringsInTheSameOrderAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": $0.1]) }))
      expectIDs(c.order(by: "value"), ["b", "a", "c", "f", "e", "d", "g"])
    }
  }

  // FIRQueryTests.testSnapshotListenerSortsUnicodeStringsInArrayInTheSameOrderAsServer (get part)
  @Test func testSnapshotListenerSortsUnicodeStringsInArrayInTheSameOrderAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": [$0.1]]) }))
      expectIDs(c.order(by: "value"), ["b", "a", "c", "f", "e", "d", "g"])
    }
  }

  // FIRQueryTests.testSnapshotListenerSortsUnicodeStringsInMapInTheSameOrderAsServer (get part)
  @Test func testSnapshotListenerSortsUnicodeStringsInMapInTheSameOrderAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": ["foo": $0.1]]) }))
      expectIDs(c.order(by: "value"), ["b", "a", "c", "f", "e", "d", "g"])
    }
  }

  // FIRQueryTests.testSnapshotListenerSortsUnicodeStringsInMapKeyInTheSameOrderAsServer (get part)
  @Test func testSnapshotListenerSortsUnicodeStringsInMapKeyInTheSameOrderAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": [$0.1: "foo"]]) }))
      expectIDs(c.order(by: "value"), ["b", "a", "c", "f", "e", "d", "g"])
    }
  }

  // FIRQueryTests.testSnapshotListenerSortsUnicodeStringsInDocumentKeyInTheSameOrderAsServer (get part)
  @Test func testSnapshotListenerSortsUnicodeStringsInDocumentKeyInTheSameOrderAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.1, ["value": "foo"] as [String: Any]) }))
      expectIDs(c.order(by: FieldPath.documentID()), ["Sierpiński", "Łukasiewicz", "岩澤", "︒", "Ｐ", "🄟", "🐵"])
    }
  }

  private func fiveABDocs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
        "doc5": ["a": 1, "b": 1],
      ])
  }

  // FIRQueryTests.testOrQueries (and QueryIntegrationTests.swift testOrQueries)
  @Test func testOrQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveABDocs(db)
      let filter1 = Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 1)])
      expectIDs(c.whereFilter(filter1), ["doc1", "doc2", "doc4", "doc5"], "a==1 || b==1")
      let filter2 = Filter.orFilter([
        Filter.andFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 0)]),
        Filter.andFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 2)]),
      ])
      expectIDs(c.whereFilter(filter2), ["doc1", "doc3"], "(a==1 && b==0) || (a==3 && b==2)")
      let filter3 = Filter.andFilter([
        Filter.whereField("a", isEqualTo: 1),
        Filter.orFilter([Filter.whereField("b", isEqualTo: 0), Filter.whereField("b", isEqualTo: 3)]),
      ])
      expectIDs(c.whereFilter(filter3), ["doc1", "doc4"], "a==1 && (b==0 || b==3)")
      let filter4 = Filter.andFilter([
        Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 2)]),
        Filter.orFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 3)]),
      ])
      expectIDs(c.whereFilter(filter4), ["doc3"], "(a==2 || b==2) && (a==3 || b==3)")
      let filter5 = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 1)])
      expectIDs(c.whereFilter(filter5).limit(to: 1), ["doc2"], "limit without orderBy")
    }
  }

  private func sixDocs(_ db: Database, arrays: Bool, cField: Bool = false, doc2BArray: Bool = true)
    throws -> CollectionReference
  {
    let b: (Int, [Int]) -> Any = { scalar, array in arrays ? array : scalar }
    var doc3: [String: Any] = ["a": 3, "b": b(2, [2, 7])]
    var doc6: [String: Any] = ["a": 2]
    if cField {
      doc3["c"] = 10
      doc6["c"] = 20
    }
    return try seed(
      db.collection("c"),
      [
        "doc1": ["a": 1, "b": b(0, [0])],
        "doc2": ["b": arrays && doc2BArray ? [1] as Any : 1 as Any],
        "doc3": doc3,
        "doc4": ["a": 1, "b": b(3, [3, 7])],
        "doc5": ["a": 1],
        "doc6": doc6,
      ])
  }

  // FIRQueryTests.testOrQueriesWithIn
  @Test func testOrQueriesWithIn() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: false)
      let filter = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", in: [2, 3])])
      expectIDs(c.whereFilter(filter), ["doc3", "doc4", "doc6"])
    }
  }

  // FIRQueryTests.testOrQueriesWithArrayMembership
  @Test func testOrQueriesWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true)
      let filter1 = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContains: 7)])
      expectIDs(c.whereFilter(filter1), ["doc3", "doc4", "doc6"])
      let filter2 = Filter.orFilter([
        Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContainsAny: [0, 3]),
      ])
      expectIDs(c.whereFilter(filter2), ["doc1", "doc4", "doc6"])
    }
  }

  // QueryIntegrationTests.swift testOrQueriesWithArrayMembership (doc2 has "b": 1, not [1])
  @Test func swift_testOrQueriesWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true, doc2BArray: false)
      let filter1 = Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContains: 7)])
      expectIDs(c.whereFilter(filter1), ["doc3", "doc4", "doc6"])
      let filter2 = Filter.orFilter([
        Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", arrayContainsAny: [0, 3]),
      ])
      expectIDs(c.whereFilter(filter2), ["doc1", "doc4", "doc6"])
    }
  }

  // FIRQueryTests.testMultipleInOps
  @Test func testMultipleInOps() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: false)
      let filter1 = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", in: [0, 2])])
      expectIDs(c.whereFilter(filter1), ["doc1", "doc3", "doc6"])
      let filter2 = Filter.orFilter([Filter.whereField("a", in: [0, 3]), Filter.whereField("a", in: [0, 2])])
      expectIDs(c.whereFilter(filter2), ["doc3", "doc6"])
    }
  }

  // QueryIntegrationTests.swift testMultipleInOps (first query ordered by "a")
  @Test func swift_testMultipleInOps() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: false)
      let filter1 = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", in: [0, 2])])
      expectIDs(c.whereFilter(filter1).order(by: "a"), ["doc1", "doc6", "doc3"])
      let filter2 = Filter.orFilter([Filter.whereField("a", in: [0, 3]), Filter.whereField("a", in: [0, 2])])
      expectIDs(c.whereFilter(filter2), ["doc3", "doc6"])
    }
  }

  // FIRQueryTests.testUsingInWithArrayContainsAny
  @Test func testUsingInWithArrayContainsAny() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true, cField: true)
      let filter1 = Filter.orFilter([
        Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [0, 7]),
      ])
      expectIDs(c.whereFilter(filter1), ["doc1", "doc3", "doc4", "doc6"])
      let filter2 = Filter.orFilter([
        Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("c", isEqualTo: 10)]),
        Filter.whereField("b", arrayContainsAny: [0, 7]),
      ])
      expectIDs(c.whereFilter(filter2), ["doc1", "doc3", "doc4"])
    }
  }

  // FIRQueryTests.testUseInWithArrayContains
  @Test func testUseInWithArrayContains() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true)
      let filter1 = Filter.orFilter([
        Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [3]),
      ])
      expectIDs(c.whereFilter(filter1), ["doc3", "doc4", "doc6"])
      let filter2 = Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContains: 7)])
      expectIDs(c.whereFilter(filter2), ["doc3"])
      let filter3 = Filter.orFilter([
        Filter.whereField("a", in: [2, 3]),
        Filter.andFilter([Filter.whereField("b", arrayContains: 3), Filter.whereField("a", isEqualTo: 1)]),
      ])
      expectIDs(c.whereFilter(filter3), ["doc3", "doc4", "doc6"])
      let filter4 = Filter.andFilter([
        Filter.whereField("a", in: [2, 3]),
        Filter.orFilter([Filter.whereField("b", arrayContains: 7), Filter.whereField("a", isEqualTo: 1)]),
      ])
      expectIDs(c.whereFilter(filter4), ["doc3"])
    }
  }

  // FIRQueryTests.testOrderByEquality
  @Test func testOrderByEquality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true, cField: true)
      expectIDs(c.whereFilter(Filter.whereField("a", isEqualTo: 1)).order(by: "a"), ["doc1", "doc4", "doc5"])
      expectIDs(c.whereFilter(Filter.whereField("a", in: [2, 3])).order(by: "a"), ["doc6", "doc3"])
    }
  }

  // QueryIntegrationTests.swift testOrderByEquality (first query without order(by:))
  @Test func swift_testOrderByEquality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true, cField: true)
      expectIDs(c.whereFilter(Filter.whereField("a", isEqualTo: 1)), ["doc1", "doc4", "doc5"])
      expectIDs(c.whereFilter(Filter.whereField("a", in: [2, 3])).order(by: "a"), ["doc6", "doc3"])
    }
  }

  // MARK: - FIRCompositeIndexQueryTests.mm (query cases)
  //
  // Firestore writes these into one shared collection with a `testId` field, and adds
  // `whereField("testId", isEqualTo: testId)` to every query; the port keeps both.

  // FIRCompositeIndexQueryTests.testOrQueriesWithCompositeIndexes (and QueryIntegrationTests.swift)
  @Test func testOrQueriesWithCompositeIndexes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1],
        ])
      let q1 = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isGreaterThan: 2), Filter.whereField("b", isEqualTo: 1)]))
      expectIDs(withTestID(q1), ["doc5", "doc2", "doc3"], "a>2 || b==1")
      let q2 = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isGreaterThan: 0)]))
      expectIDs(withTestID(q2).limit(to: 2), ["doc1", "doc2"], "(a==1) || (b > 0) LIMIT 2")
      let q3 = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isGreaterThan: 0)]))
      expectIDs(
        withTestID(q3).limit(toLast: 2).order(by: "b"), ["doc3", "doc4"], "(a==1) || (b > 0) LIMIT_TO_LAST 2 ORDER BY b"
      )
      let q4 = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 1)]))
      expectIDs(withTestID(q4).limit(to: 1).order(by: "a"), ["doc5"], "(a==2) || (b == 1) ORDER BY a LIMIT 1")
      let q5 = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 1)]))
      expectIDs(
        withTestID(q5).limit(toLast: 1).order(by: "a"), ["doc2"], "(a==2) || (b == 1) ORDER BY a LIMIT_TO_LAST 1")
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityOnDifferentFields
  @Test func testMultipleInequalityOnDifferentFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 0, "v": 0], "doc2": ["key": "b", "sort": 3, "v": 1],
          "doc3": ["key": "c", "sort": 1, "v": 3], "doc4": ["key": "d", "sort": 2, "v": 2],
        ])
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
            "v", isGreaterThan: 2)),
        ["doc3"], "multiple inequality fields")
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
            "sort", isGreaterThan: 1)),
        ["doc4"], "duplicate inequality fields")
      expectIDs(
        withTestID(
          c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
            .whereField("v", in: [2, 3, 4]).whereField("sort", in: [2, 3])),
        ["doc4"], "with multiple IN")
      expectIDs(
        withTestID(
          c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
            "v", notIn: [2, 4, 5])),
        ["doc1", "doc3"], "with NOT-IN")
      expectIDs(
        withTestID(
          c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).order(
            by: "v", descending: true)),
        ["doc3", "doc4", "doc1"], "with orderBy")
      expectIDs(
        withTestID(
          c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
            .order(by: "v", descending: true).limit(to: 2)),
        ["doc3", "doc4"], "with limit")
      expectIDs(
        withTestID(
          c.whereField("key", isGreaterThanOrEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)
            .order(by: "v", descending: true).limit(toLast: 2)),
        ["doc4", "doc1"], "with limitToLast")
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityOnSpecialValues
  @Test func testMultipleInequalityOnSpecialValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 0, "v": 0], "doc2": ["key": "b", "sort": Double.nan, "v": 1],
          "doc3": ["key": "c", "sort": NSNull(), "v": 3], "doc4": ["key": "d", "v": 0],
          "doc5": ["key": "e", "sort": 1], "doc6": ["key": "f", "sort": 1, "v": 1],
        ])
      expectIDs(
        withTestID(c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2)), ["doc5", "doc6"])
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 2).whereField(
            "v", isLessThanOrEqualTo: 1)),
        ["doc6"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityWithArrayMembership
  @Test func testMultipleInequalityWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 0, "v": [0]], "doc2": ["key": "b", "sort": 1, "v": [0, 1, 3]],
          "doc3": ["key": "c", "sort": 1, "v": [Int]()], "doc4": ["key": "d", "sort": 2, "v": [1]],
          "doc5": ["key": "e", "sort": 3, "v": [2, 4]], "doc6": ["key": "f", "sort": 4, "v": [Double.nan]],
          "doc7": ["key": "g", "sort": 4, "v": [NSNull()]],
        ])
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isGreaterThanOrEqualTo: 1).whereField(
            "v", arrayContains: 0)),
        ["doc2"])
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isGreaterThanOrEqualTo: 1)
            .whereField("v", arrayContainsAny: [0, 1])),
        ["doc2", "doc4"])
    }
  }

  private func nestedData(_ number: Int) -> [String: Any] {
    [
      "name": "room \(number)", "metadata": ["createdAt": number], "field": "field \(number)",
      "field.dot": number, "field\\slash": number,
    ]
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityWithNestedField
  @Test func testMultipleInequalityWithNestedField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db, ["doc1": nestedData(400), "doc2": nestedData(200), "doc3": nestedData(100), "doc4": nestedData(300)])
      expectIDs(
        withTestID(
          c.whereField("metadata.createdAt", isLessThanOrEqualTo: 500).whereField(
            "metadata.createdAt", isGreaterThan: 100
          )
          .whereField("name", isNotEqualTo: "room 200").order(by: "name", descending: false)),
        ["doc4", "doc1"])
      expectIDs(
        withTestID(
          c.whereField("field", isGreaterThanOrEqualTo: "field 100").whereField(
            FieldPath(["field.dot"]), isNotEqualTo: 300
          )
          .whereField("field\\slash", isLessThan: 400).order(by: "name", descending: true)),
        ["doc2", "doc3"])
    }
  }

  private func compositeFilterDocs(_ db: Database, doc3Key: String) throws -> CollectionReference {
    try compositeIndexTestDocs(
      db,
      [
        "doc1": ["key": "a", "sort": 0, "v": 5], "doc2": ["key": "aa", "sort": 4, "v": 4],
        "doc3": ["key": doc3Key, "sort": 3, "v": 3], "doc4": ["key": "b", "sort": 2, "v": 2],
        "doc5": ["key": "b", "sort": 2, "v": 1], "doc6": ["key": "b", "sort": 0, "v": 0],
      ])
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityWithCompositeFilters
  @Test func testMultipleInequalityWithCompositeFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeFilterDocs(db, doc3Key: "c")
      let or1 = Filter.orFilter([
        Filter.andFilter([Filter.whereField("key", isEqualTo: "b"), Filter.whereField("sort", isLessThanOrEqualTo: 2)]),
        Filter.andFilter([Filter.whereField("key", isNotEqualTo: "b"), Filter.whereField("v", isGreaterThan: 4)]),
      ])
      // Implicitly ordered by: 'key' asc, 'sort' asc, 'v' asc, __name__ asc
      expectIDs(withTestID(c.whereFilter(or1)), ["doc1", "doc6", "doc5", "doc4"])
      // Ordered by: 'sort' desc, 'key' asc, 'v' asc, __name__ asc
      expectIDs(
        withTestID(c.whereFilter(or1).order(by: "sort", descending: true).order(by: "key")),
        ["doc5", "doc4", "doc1", "doc6"])
      let and2 = Filter.andFilter([
        Filter.orFilter([
          Filter.andFilter([
            Filter.whereField("key", isEqualTo: "b"), Filter.whereField("sort", isLessThanOrEqualTo: 4),
          ]),
          Filter.andFilter([
            Filter.whereField("key", isNotEqualTo: "b"), Filter.whereField("v", isGreaterThanOrEqualTo: 4),
          ]),
        ]),
        Filter.orFilter([
          Filter.andFilter([
            Filter.whereField("key", isGreaterThan: "b"), Filter.whereField("sort", isGreaterThanOrEqualTo: 1),
          ]),
          Filter.andFilter([Filter.whereField("key", isLessThan: "b"), Filter.whereField("v", isGreaterThan: 0)]),
        ]),
      ])
      // Implicitly ordered by: 'key' asc, 'sort' asc, 'v' asc, __name__ asc
      expectIDs(withTestID(c.whereFilter(and2)), ["doc1", "doc2"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityFieldsWillBeImplicitlyOrderedLexicographically
  @Test func testMultipleInequalityFieldsWillBeImplicitlyOrderedLexicographically() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeFilterDocs(db, doc3Key: "b")
      // Implicitly ordered by: 'key' asc, 'sort' asc, __name__ asc
      expectIDs(
        withTestID(
          c.whereField("key", isNotEqualTo: "a").whereField("sort", isGreaterThan: 1).whereField("v", in: [1, 2, 3, 4])),
        ["doc2", "doc4", "doc5", "doc3"])
      expectIDs(
        withTestID(
          c.whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a").whereField("v", in: [1, 2, 3, 4])),
        ["doc2", "doc4", "doc5", "doc3"])
    }
  }

  private func explicitOrderDocs(_ db: Database, withDoc6: Bool) throws -> CollectionReference {
    var docs: [String: [String: Any]] = [
      "doc1": ["key": "a", "sort": 5, "v": 0], "doc2": ["key": "aa", "sort": 4, "v": 0],
      "doc3": ["key": "b", "sort": 3, "v": 1], "doc4": ["key": "b", "sort": 2, "v": 1],
      "doc5": ["key": "bb", "sort": 1, "v": 1],
    ]
    if withDoc6 { docs["doc6"] = ["key": "c", "sort": 0, "v": 2] }
    return try compositeIndexTestDocs(db, docs)
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityWithMultipleExplicitOrderBy
  @Test func testMultipleInequalityWithMultipleExplicitOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try explicitOrderDocs(db, withDoc6: true)
      let base = c.whereField("key", isGreaterThan: "a").whereField("sort", isGreaterThanOrEqualTo: 1)
      // Ordered by: 'v' asc, 'key' asc, 'sort' asc, __name__ asc
      expectIDs(withTestID(base.order(by: "v", descending: false)), ["doc2", "doc4", "doc3", "doc5"])
      // Ordered by: 'v asc, 'sort' asc, 'key' asc,  __name__ asc
      expectIDs(
        withTestID(base.order(by: "v", descending: false).order(by: "sort", descending: false)),
        ["doc2", "doc5", "doc4", "doc3"])
      // Ordered by: 'v' desc, 'key' desc, 'sort' desc, __name__ desc
      expectIDs(withTestID(base.order(by: "v", descending: true)), ["doc5", "doc3", "doc4", "doc2"])
      // Ordered by: 'v desc, 'sort' asc, 'key' asc,  __name__ asc
      expectIDs(
        withTestID(base.order(by: "v", descending: true).order(by: "sort", descending: false)),
        ["doc5", "doc4", "doc3", "doc2"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityFieldsWithDocumentKey
  @Test func testMultipleInequalityFieldsWithDocumentKey() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 5], "doc2": ["key": "aa", "sort": 4], "doc3": ["key": "b", "sort": 3],
          "doc4": ["key": "b", "sort": 2], "doc5": ["key": "bb", "sort": 1],
        ])
      // Implicitly ordered by: 'key' asc, 'sort' asc, __name__ asc
      expectIDs(
        withTestID(
          c.whereField("sort", isGreaterThan: 1).whereField("key", isNotEqualTo: "a").whereField(
            FieldPath.documentID(), isLessThan: "doc5")),
        ["doc2", "doc4", "doc3"])
      expectIDs(
        withTestID(
          c.whereField(FieldPath.documentID(), isLessThan: "doc5").whereField("sort", isGreaterThan: 1).whereField(
            "key", isNotEqualTo: "a")),
        ["doc2", "doc4", "doc3"])
      // Ordered by: 'sort' desc,'key' desc,  __name__ desc
      expectIDs(
        withTestID(
          c.whereField(FieldPath.documentID(), isLessThan: "doc5").whereField("sort", isGreaterThan: 1)
            .whereField("key", isNotEqualTo: "a").order(by: "sort", descending: true)),
        ["doc2", "doc3", "doc4"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityReadFromCacheWhenOffline (online read only)
  @Test func testMultipleInequalityReadFromCacheWhenOffline() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 1], "doc2": ["key": "aa", "sort": 4], "doc3": ["key": "b", "sort": 3],
          "doc4": ["key": "b", "sort": 2],
        ])
      // Implicitly ordered by: 'key' asc, 'sort' asc, __name__ asc
      expectIDs(
        withTestID(c.whereField("key", isNotEqualTo: "a").whereField("sort", isLessThanOrEqualTo: 3)), ["doc4", "doc3"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityFromCacheAndFromServer
  @Test func testMultipleInequalityFromCacheAndFromServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1],
        ])
      expectIDs(withTestID(c.whereField("a", isNotEqualTo: 1).whereField("b", isLessThan: 2)), ["doc2"], "implicit AND")
      expectIDs(
        withTestID(
          c.whereFilter(
            Filter.andFilter([Filter.whereField("a", isNotEqualTo: 1), Filter.whereField("b", isLessThan: 2)]))),
        ["doc2"], "explicit AND")
      expectIDs(
        withTestID(
          c.whereFilter(
            Filter.andFilter([Filter.whereField("a", isLessThan: 3), Filter.whereField("b", notIn: [2, 3])]))),
        ["doc1", "doc5", "doc2"], "a < 3 && b not-in [2, 3]")
      expectIDs(
        withTestID(
          c.whereField("a", isLessThan: 3).whereField("b", isNotEqualTo: 0).order(by: "b", descending: true).limit(
            to: 2)),
        ["doc4", "doc2"], "a < 3 && b != 0 ordered by b desc limit 2")
      expectIDs(
        withTestID(
          c.whereFilter(
            Filter.orFilter([Filter.whereField("a", isGreaterThan: 2), Filter.whereField("b", isLessThan: 1)]))),
        ["doc1", "doc3"], "a>2 || b<1")
    }
  }

  // MARK: - FIRCursorTests.mm

  private func sortDocs(_ db: Database, dSort: Double = 2.0) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": ["v": "a", "sort": 1.0], "b": ["v": "b", "sort": 2.0], "c": ["v": "c", "sort": 2.0],
        "d": ["v": "d", "sort": dSort], "e": ["v": "e", "sort": 0.0],
        "f": ["v": "f", "nosort": 1.0],  // should not show up
      ])
  }

  // FIRCursorTests.testCanPageThroughItems
  @Test func testCanPageThroughItems() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        ["a": ["v": "a"], "b": ["v": "b"], "c": ["v": "c"], "d": ["v": "d"], "e": ["v": "e"], "f": ["v": "f"]])
      var snapshot = try c.limit(to: 2).getDocuments()
      #expect(snapshot.documents.map(\.documentID) == ["a", "b"])
      var lastDoc = try #require(snapshot.documents.last)
      snapshot = try c.limit(to: 3).start(afterDocument: lastDoc).getDocuments()
      #expect(snapshot.documents.map(\.documentID) == ["c", "d", "e"])
      lastDoc = try #require(snapshot.documents.last)
      snapshot = try c.limit(to: 1).start(afterDocument: lastDoc).getDocuments()
      #expect(snapshot.documents.map(\.documentID) == ["f"])
      lastDoc = try #require(snapshot.documents.last)
      expectIDs(c.limit(to: 3).start(afterDocument: lastDoc), [])
    }
  }

  // FIRCursorTests.testCanBeCreatedFromDocuments
  @Test func testCanBeCreatedFromDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortDocs(db)
      let query = c.order(by: "sort")
      let snapshot = try c.document("c").getDocument()
      #expect(snapshot.exists)
      expectIDs(query.start(atDocument: snapshot), ["c", "d"])
      expectIDs(query.end(beforeDocument: snapshot), ["e", "a", "b"])
    }
  }

  // FIRCursorTests.testCanBeCreatedFromValues
  @Test func testCanBeCreatedFromValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortDocs(db)
      let query = c.order(by: "sort")
      expectIDs(query.start(at: [2.0]), ["b", "c", "d"])
      expectIDs(query.end(before: [2.0]), ["e", "a"])
    }
  }

  // FIRCursorTests.testCanBeCreatedUsingDocumentId
  @Test func testCanBeCreatedUsingDocumentId() throws {
    try withDatabase(settings: relaxed) { db in
      let writer = db.collection("parent-collection").document().collection("sub-collection")
      try seed(writer, ["a": ["k": "a"], "b": ["k": "b"], "c": ["k": "c"], "d": ["k": "d"], "e": ["k": "e"]])
      let reader = db.collection(writer.path)
      expectIDs(reader.order(by: FieldPath.documentID()).start(at: ["b"]).end(before: ["d"]), ["b", "c"])
    }
  }

  // FIRCursorTests.testCanBeUsedWithReferenceValues
  @Test func testCanBeUsedWithReferenceValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["k": "1a", "ref": db.document("1/a")], "b": ["k": "1b", "ref": db.document("1/b")],
          "c": ["k": "2a", "ref": db.document("2/a")], "d": ["k": "2b", "ref": db.document("2/b")],
          "e": ["k": "3a", "ref": db.document("3/a")],
        ])
      let query = c.order(by: "ref").start(after: [db.document("1/a")]).end(at: [db.document("2/b")])
      let actual = try query.getDocuments().documents.map { $0.get("k") as? String ?? "?" }
      #expect(actual == ["1b", "2a", "2b"])
    }
  }

  // FIRCursorTests.testCanBeUsedInDescendingQueries
  @Test func testCanBeUsedInDescendingQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sortDocs(db, dSort: 3.0)
      let query = c.order(by: "sort", descending: true).order(by: FieldPath.documentID(), descending: true)
      expectIDs(query.start(at: [2.0]), ["c", "b", "a", "e"])
      expectIDs(query.end(before: [2.0]), ["d"])
    }
  }

  private func micros(_ seconds: Int64, _ micros: Int32) -> Timestamp {
    Timestamp(seconds: seconds, nanoseconds: micros * 1000)
  }

  // FIRCursorTests.testTimestampsCanBePassedToQueriesAsLimits
  @Test func testTimestampsCanBePassedToQueriesAsLimits() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["timestamp": micros(100, 2)], "b": ["timestamp": micros(100, 5)], "c": ["timestamp": micros(100, 3)],
          "d": ["timestamp": micros(100, 1)], "e": ["timestamp": micros(100, 5)], "f": ["timestamp": micros(100, 4)],
        ])
      let query = c.order(by: "timestamp").start(after: [micros(100, 2)]).end(at: [micros(100, 5)])
      expectIDs(query, ["c", "f", "b", "e"])
    }
  }

  // FIRCursorTests.testTimestampsCanBePassedToQueriesInWhereClause
  @Test func testTimestampsCanBePassedToQueriesInWhereClause() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["timestamp": micros(100, 7)], "b": ["timestamp": micros(100, 4)], "c": ["timestamp": micros(100, 8)],
          "d": ["timestamp": micros(100, 5)], "e": ["timestamp": micros(100, 6)],
        ])
      let query = c.whereField("timestamp", isGreaterThanOrEqualTo: micros(100, 5))
        .whereField("timestamp", isLessThan: micros(100, 8))
      expectIDs(query, ["d", "e", "a"])
    }
  }

  // FIRCursorTests.testTimestampsAreTruncatedToMicroseconds
  @Test func testTimestampsAreTruncatedToMicroseconds() throws {
    try withDatabase(settings: relaxed) { db in
      let nanos = Timestamp(seconds: 0, nanoseconds: 123_456_789)
      let micros = Timestamp(seconds: 0, nanoseconds: 123_456_000)
      let millis = Timestamp(seconds: 0, nanoseconds: 123_000_000)
      let c = try seed(db.collection("c"), ["a": ["timestamp": nanos]])
      expectIDs(c.whereField("timestamp", isEqualTo: nanos), ["a"])
      expectIDs(c.whereField("timestamp", isEqualTo: micros), ["a"])
      expectIDs(c.whereField("timestamp", isEqualTo: millis), [])
    }
  }

  // MARK: - database.test.ts: sort documents by DocumentId

  /// The documents of both cases.
  private static let documentIDCases = [
    "A", "a", "Aa", "7", "12", "__id7__", "__id12__", "__id-2__", "_id1__", "__id1_", "__id",
    "__id9223372036854775807__", "__id9223372036854775806__", "__id-9223372036854775808__",
    "__id-9223372036854775807__",
  ]

  /// The query's IDs from a get and from a listener's first snapshot, which must agree.
  private func getAndListen(_ query: Query, _ expected: [String]) throws {
    expectIDs(query, expected)
    let seen = Box<[String]?>(nil)
    let registration = query.addSnapshotListener { snapshot, _ in
      if let snapshot { seen.mutate { $0 = snapshot.documents.map(\.documentID) } }
    }
    defer { registration.remove() }
    #expect(waitUntil { seen.value != nil })
    #expect(seen.value == expected)
  }

  // it('snapshot listener sorts query by DocumentId same way as get query')
  @Test func snapshotListenerSortsQueryByDocumentIdSameWayAsGetQuery() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.documentIDCases.map { ($0, ["a": 1]) }))
      try getAndListen(
        c.order(by: FieldPath.documentID()),
        [
          "__id-9223372036854775808__", "__id-9223372036854775807__", "__id-2__", "__id7__", "__id12__",
          "__id9223372036854775806__", "__id9223372036854775807__", "12", "7", "A", "Aa", "__id", "__id1_",
          "_id1__", "a",
        ])
    }
  }

  // it('snapshot listener sorts filtered query by DocumentId same way as get query')
  @Test func snapshotListenerSortsFilteredQueryByDocumentIdSameWayAsGetQuery() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.documentIDCases.map { ($0, ["a": 1]) }))
      try getAndListen(
        c.order(by: FieldPath.documentID()).whereField(FieldPath.documentID(), isGreaterThan: "__id7__")
          .whereField(FieldPath.documentID(), isLessThanOrEqualTo: "Aa"),
        ["__id12__", "__id9223372036854775806__", "__id9223372036854775807__", "12", "7", "A", "Aa"])
    }
  }
}
