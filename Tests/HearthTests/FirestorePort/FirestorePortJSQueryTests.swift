import Foundation
import Hearth
import HearthTestSupport
import Testing

// The Firebase JavaScript SDK's query integration tests
// (packages/firestore/test/integration/api/query.test.ts and aggregation.test.ts), ported
// case by case with their data and expected results unchanged. Only the cases that add
// something over the iOS ports (FirestorePortQueryTests, FirestorePortAggregateTests) are
// here: different data, operands, operator combinations or edge values. Listener, offline,
// cache, bloom-filter and converter cases are left out.

@Suite("Firestore port: JS SDK queries")
struct FirestorePortJSQueryTests {

  private func abcdSort(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
        "d": ["k": "d", "sort": 2],
      ])
  }

  // describe('Queries') it('can issue limitToLast queries using descending sort order')
  @Test func canIssueLimitToLastQueriesUsingDescendingSortOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try abcdSort(db)
      expectIDs(c.order(by: "sort", descending: true).limit(toLast: 2), ["b", "a"])
      #expect(
        try values(c.order(by: "sort", descending: true).limit(toLast: 2), "k") == [
          canonical("b"), canonical("a"),
        ])
    }
  }

  // describe('Queries') it('can issue limitToLast queries with cursors') — limitToLast given last
  @Test func canIssueLimitToLastQueriesWithCursorsLimitLast() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try abcdSort(db)
      expectIDs(c.order(by: "sort").end(before: [2]).limit(toLast: 3), ["a", "b", "c"])
      expectIDs(c.order(by: "sort").end(at: [1]).limit(toLast: 3), ["a", "b", "c"])
      expectIDs(c.order(by: "sort").start(at: [2]).limit(toLast: 3), ["d"])
      expectIDs(c.order(by: "sort").start(after: [0]).limit(toLast: 3), ["b", "c", "d"])
      expectIDs(c.order(by: "sort").start(after: [-1]).limit(toLast: 3), ["b", "c", "d"])
    }
  }

  // describe('Queries') it('key order is descending for descending inequality') — operand 21.0, e is int 21
  @Test func keyOrderIsDescendingForDescendingInequality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["foo": 42], "b": ["foo": 42.0], "c": ["foo": 42], "d": ["foo": 21], "e": ["foo": 21],
          "f": ["foo": 66], "g": ["foo": 66],
        ])
      expectIDs(c.whereField("foo", isGreaterThan: 21.0).order(by: "foo", descending: true), ["g", "f", "c", "b", "a"])
    }
  }

  // describe('Queries') it('can issue queries with Dates differing in milliseconds')
  @Test func canIssueQueriesWithDatesDifferingInMilliseconds() throws {
    try withDatabase(settings: relaxed) { db in
      // JS Dates hold whole milliseconds exactly; a Swift Date (a Double since 2001) cannot hold
      // x.001 s exactly, so the dates are written as the Timestamps JS's Timestamp.fromDate gives.
      let seconds = Int64(Date().timeIntervalSince1970)
      let date1 = Timestamp(seconds: seconds, nanoseconds: 0)
      let date2 = Timestamp(seconds: seconds, nanoseconds: 1_000_000)
      let date3 = Timestamp(seconds: seconds, nanoseconds: 2_000_000)
      let c = try seed(
        db.collection("c"),
        ["1": ["id": "1", "date": date1], "2": ["id": "2", "date": date2], "3": ["id": "3", "date": date3]])
      expectIDs(c.whereField("date", isGreaterThan: date1), ["2", "3"])
      expectIDs(c.whereField("date", isGreaterThan: date2), ["3"])
      let docs = try c.whereField("date", isGreaterThan: date1).getDocuments().documents
      #expect(docs.map { canonical($0.get("date")) } == [canonical(date2), canonical(date3)])
    }
  }

  private func jsZipDocs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": ["zip": Double.nan],
        "b": ["zip": 91102],
        "c": ["zip": 98101],
        "d": ["zip": "98101"],
        "e": ["zip": [98101]],
        "f": ["zip": [98101, 98102]],
        "g": ["zip": ["98101", ["zip": 98101]] as [Any]],
        "h": ["zip": ["code": 500]],
        "i": ["code": 500],
        "j": ["zip": NSNull()],
      ])
  }

  // describe('Queries') it('can use != filters') — d is the string "98101"; `!= null` (not `!= [null]`)
  @Test func canUseNotEqualFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try jsZipDocs(db)
      expectIDs(c.whereField("zip", isNotEqualTo: 98101), ["a", "b", "d", "e", "f", "g", "h"], "!= 98101")
      expectIDs(c.whereField("zip", isNotEqualTo: ["code": 500]), ["a", "b", "c", "d", "e", "f", "g"], "with objects")
      expectIDs(c.whereField("zip", isNotEqualTo: NSNull()), ["a", "b", "c", "d", "e", "f", "g", "h"], "with null")
      expectIDs(c.whereField("zip", isNotEqualTo: Double.nan), ["b", "c", "d", "e", "f", "g", "h"], "with NaN")
    }
  }

  // describe('Queries') it('can use array-contains filters') — null / NaN operands on the absent field "zip"
  @Test func canUseArrayContainsFilters() throws {
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
      expectIDs(c.whereField("zip", arrayContains: NSNull()), [], "with null")
      expectIDs(c.whereField("zip", arrayContains: Double.nan), [], "with NaN")
    }
  }

  // describe('Queries') it('can use NOT_IN filters') — i is {code: 500}, j is {zip: null}
  @Test func canUseNotInFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["zip": Double.nan],
          "b": ["zip": 91102],
          "c": ["zip": 98101],
          "d": ["zip": 98103],
          "e": ["zip": [98101]],
          "f": ["zip": [98101, 98102]],
          "g": ["zip": ["98101", ["zip": 98101]] as [Any]],
          "h": ["zip": ["code": 500]],
          "i": ["code": 500],
          "j": ["zip": NSNull()],
        ])
      expectIDs(c.whereField("zip", notIn: [98101, 98103, [98101, 98102]]), ["a", "b", "e", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [["code": 500]]), ["a", "b", "c", "d", "e", "f", "g"], "with objects")
      expectIDs(c.whereField("zip", notIn: [NSNull()]), [], "with null")
      expectIDs(c.whereField("zip", notIn: [Double.nan]), ["b", "c", "d", "e", "f", "g", "h"], "with NaN")
      expectIDs(
        c.whereField("zip", notIn: [Double.nan, 98101]), ["b", "d", "e", "f", "g", "h"], "with NaN and a number")
    }
  }

  // describe('Queries') it('can query custom types') — equality on a map of reference, geopoint, bytes, timestamp, array
  @Test func canQueryCustomTypes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      let now = Timestamp()
      let data: [String: Any] = [
        "ref": db.document("f/c"),
        "geoPoint": GeoPoint(latitude: 0, longitude: 0),
        "buffer": Data(base64Encoded: "Zm9v")!,
        "time": now,
        "array": [db.document("f/c"), GeoPoint(latitude: 0, longitude: 0), Data(base64Encoded: "Zm9v")!, now] as [Any],
      ]
      try c.addDocument(data: ["data": data])
      for _ in 0..<2 {
        #expect(try c.whereField("data", isEqualTo: data).getDocuments().count == 1)
      }
    }
  }

  // describe('Queries') it('can use filter with nested field')
  @Test func canUseFilterWithNestedField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": [:],
          "b": ["map": [String: Any]()],
          "c": ["map": ["nested": [String: Any]()]],
          "d": ["map": ["nested": "foo"]],
        ])
      _ = try c.getDocuments()
      expectIDs(c.whereField("map.nested", isEqualTo: "foo"), ["d"])
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

  private func sixDocs(_ db: Database, arrays: Bool, cField: Bool = false) throws -> CollectionReference {
    var doc3: [String: Any] = ["a": 3, "b": arrays ? [2, 7] as Any : 2 as Any]
    var doc6: [String: Any] = ["a": 2]
    if cField {
      doc3["c"] = 10
      doc6["c"] = 20
    }
    return try seed(
      db.collection("c"),
      [
        "doc1": ["a": 1, "b": arrays ? [0] as Any : 0 as Any],
        "doc2": ["b": arrays ? [1] as Any : 1 as Any],
        "doc3": doc3,
        "doc4": ["a": 1, "b": arrays ? [3, 7] as Any : 3 as Any],
        "doc5": ["a": 1],
        "doc6": doc6,
      ])
  }

  // describe('OR Queries') it('can use query overloads') — both variants (lru and emulator)
  @Test func orQueriesCanUseQueryOverloads() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fiveABDocs(db)
      expectIDs(c.whereField("a", isEqualTo: 1), ["doc1", "doc4", "doc5"], "a == 1")
      expectIDs(c.whereField("a", isEqualTo: 1).whereField("b", isEqualTo: 3), ["doc4"], "implicit AND")
      expectIDs(
        c.whereFilter(Filter.andFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 3)])),
        ["doc4"], "explicit AND")
      expectIDs(c.whereField("a", isEqualTo: 1).limit(to: 2), ["doc1", "doc4"], "a == 1, limit 2")
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 1)]))
          .limit(to: 2),
        ["doc1", "doc2"], "a == 1 || b == 1, limit 2")
      expectIDs(c.limit(to: 2), ["doc1", "doc2"], "only limit 2")
      expectIDs(c.limit(to: 2).order(by: "b", descending: true), ["doc4", "doc3"], "limit 2, order by b desc")
      expectIDs(
        c.whereField("a", isEqualTo: 1).limit(to: 2).order(by: "b", descending: true), ["doc4", "doc5"],
        "a == 1, limit 2, b desc")
    }
  }

  // describe('OR Queries') it('supports using in with array contains') — array-contains 3, not array-contains-any
  @Test func orQueriesSupportUsingInWithArrayContains() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true)
      expectIDs(
        c.whereFilter(
          Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContains: 3)])),
        ["doc3", "doc4", "doc6"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContains: 7)])),
        ["doc3"])
      expectIDs(
        c.whereFilter(
          Filter.orFilter([
            Filter.whereField("a", in: [2, 3]),
            Filter.andFilter([Filter.whereField("b", arrayContains: 3), Filter.whereField("a", isEqualTo: 1)]),
          ])),
        ["doc3", "doc4", "doc6"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([
            Filter.whereField("a", in: [2, 3]),
            Filter.orFilter([Filter.whereField("b", arrayContains: 7), Filter.whereField("a", isEqualTo: 1)]),
          ])),
        ["doc3"])
    }
  }

  // describe('OR Queries') it('can use or queries with not-in') (emulator)
  @Test func orQueriesWithNotIn() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: false)
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", notIn: [2, 3])])),
        ["doc1", "doc2"])
    }
  }

  // describe('OR Queries') it('supports multiple in ops') (emulator)
  @Test func orQueriesSupportMultipleInOps() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: false)
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", in: [0, 2])]))
          .order(by: "a"),
        ["doc1", "doc6", "doc3"], "OR of two INs, order by a")
      expectIDs(
        c.whereFilter(Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", in: [0, 2])]))
          .order(by: "a"),
        ["doc3"], "AND of two INs, order by a")
      expectIDs(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("a", in: [1, 2, 3]), Filter.whereField("a", in: [0, 1, 4])])),
        ["doc1", "doc4", "doc5"], "a IN [1,2,3] && a IN [0,1,4]")
      expectIDs(
        c.whereFilter(Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("a", in: [0, 1, 4])])),
        [], "a IN [2,3] && a IN [0,1,4]")
      expectIDs(
        c.whereFilter(Filter.orFilter([Filter.whereField("a", in: [0, 3]), Filter.whereField("a", in: [0, 2])])),
        ["doc3", "doc6"], "a IN [0,3] || a IN [0,2]")
      expectIDs(
        c.whereFilter(
          Filter.andFilter([
            Filter.whereField("a", in: [1, 3]),
            Filter.orFilter([
              Filter.whereField("a", in: [0, 2]),
              Filter.andFilter([Filter.whereField("b", isGreaterThanOrEqualTo: 1), Filter.whereField("a", in: [1, 3])]),
            ]),
          ])),
        ["doc3", "doc4"], "nested composite filter on the same field")
      expectIDs(
        c.whereFilter(
          Filter.andFilter([
            Filter.whereField("b", in: [0, 3]),
            Filter.orFilter([
              Filter.whereField("b", in: [1]),
              Filter.andFilter([Filter.whereField("b", in: [2, 3]), Filter.whereField("a", in: [1, 3])]),
            ]),
          ])),
        ["doc4"], "nested composite filter on different fields")
    }
  }

  // describe('OR Queries') it('supports using in with array contains any') (emulator)
  @Test func orQueriesSupportUsingInWithArrayContainsAny() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try sixDocs(db, arrays: true, cField: true)
      expectIDs(
        c.whereFilter(
          Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [0, 7])])),
        ["doc1", "doc3", "doc4", "doc6"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", arrayContainsAny: [0, 7])])),
        ["doc3"])
      expectIDs(
        c.whereFilter(
          Filter.orFilter([
            Filter.andFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("c", isEqualTo: 10)]),
            Filter.whereField("b", arrayContainsAny: [0, 7]),
          ])),
        ["doc1", "doc3", "doc4"])
      expectIDs(
        c.whereFilter(
          Filter.andFilter([
            Filter.whereField("a", in: [2, 3]),
            Filter.orFilter([Filter.whereField("b", arrayContainsAny: [0, 7]), Filter.whereField("c", isEqualTo: 20)]),
          ])),
        ["doc3", "doc6"])
    }
  }

  // MARK: - database.test.ts, describe('Sort unicode strings') (get parts; JS adds 你好, 你顥, 😁, 😀)

  private static let unicodeStrings: [(String, String)] = [
    ("a", "Łukasiewicz"), ("b", "Sierpiński"), ("c", "岩澤"), ("d", "🄟"), ("e", "Ｐ"), ("f", "︒"), ("g", "🐵"),
    ("h", "你好"), ("i", "你顥"), ("j", "😁"), ("k", "😀"),
  ]
  private static let unicodeExpected = ["b", "a", "h", "i", "c", "f", "e", "d", "g", "k", "j"]
  private static let unicodeKeyExpected = [
    "Sierpiński", "Łukasiewicz", "你好", "你顥", "岩澤", "︒", "Ｐ", "🄟", "🐵", "😀", "😁",
  ]

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings the same as server')
  @Test func sortsUnicodeStringsTheSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": $0.1]) }))
      expectIDs(c.order(by: "value"), Self.unicodeExpected)
    }
  }

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings in array the same  as server')
  @Test func sortsUnicodeStringsInArrayTheSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": [$0.1]]) }))
      expectIDs(c.order(by: "value"), Self.unicodeExpected)
    }
  }

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings in map the same as server')
  @Test func sortsUnicodeStringsInMapTheSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": ["foo": $0.1]]) }))
      expectIDs(c.order(by: "value"), Self.unicodeExpected)
    }
  }

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings in map key the same as server')
  @Test func sortsUnicodeStringsInMapKeyTheSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.0, ["value": [$0.1: true]]) }))
      expectIDs(c.order(by: "value"), Self.unicodeExpected)
    }
  }

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings in document key the same as server')
  @Test func sortsUnicodeStringsInDocumentKeyTheSameAsServer() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.1, ["value": true]) }))
      expectIDs(c.order(by: FieldPath.documentID()), Self.unicodeKeyExpected)
    }
  }

  // describe('Sort unicode strings') it('snapshot listener sorts unicode strings in document key the same as server with persistence')
  // — ordered by the equal field `value`, so the document key breaks the tie
  @Test func sortsUnicodeStringsInDocumentKeyWhenOrderedByAnEqualField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), Dictionary(uniqueKeysWithValues: Self.unicodeStrings.map { ($0.1, ["value": true]) }))
      expectIDs(c.order(by: "value"), Self.unicodeKeyExpected)
    }
  }

  // MARK: - test/lite/integration.test.ts, describe('Query')

  // lite describe('Query') it('supports collection groups')
  @Test func liteSupportsCollectionGroups() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = "Lt4wQ8zR1nV6bY3kP0sJ"  // Firestore uses an auto ID
      let cg = "\(coll)group"
      try db.document("\(coll)/foo/\(cg)/doc1").setData(["foo": 1])
      try db.document("\(coll)/bar/baz/boo/\(cg)/doc2").setData(["bar": 1])
      let docs = try db.collectionGroup(cg).getDocuments().documents
      #expect(docs.map { canonical($0.data()) } == [canonical(["bar": 1]), canonical(["foo": 1])])
    }
  }

  // lite describe('Query') it('validates collection groups')
  @Test func liteValidatesCollectionGroups() throws {
    try withDatabase(settings: relaxed) { db in
      expectInvalidQuery(db.collectionGroup(""), mentioning: [], "collectionGroup(\"\")")
      expectInvalidQuery(db.collectionGroup("/"), mentioning: [], "collectionGroup(\"/\")")
    }
  }
}

@Suite("Firestore port: JS SDK aggregations")
struct FirestorePortJSAggregateTests {

  private func run(_ query: AggregateQuery) throws -> AggregateQuerySnapshot {
    try query.getAggregation(source: .server)
  }

  private func number(_ value: Any?) -> NSNumber? { value as? NSNumber }

  private let authors: [(String, String, Int, Int)] = [
    ("authorA", "titleA", 100, 1980), ("authorB", "titleB", 50, 2020), ("authorC", "titleC", 100, 1980),
    ("authorD", "titleD", 50, 2020),
  ]

  /// The JS tests' book documents a, b, c, ... with the given ratings, in order.
  private func books(_ db: Database, _ ratings: [Any], authors custom: [(String, String, Int, Int)]? = nil) throws
    -> CollectionReference
  {
    let meta = custom ?? authors
    var docs: [String: [String: Any]] = [:]
    for (i, rating) in ratings.enumerated() {
      let (author, title, pages, year) = meta[i]
      let id = String(UnicodeScalar(UInt8(97 + i)))
      docs[id] = ["author": author, "title": title, "pages": pages, "year": year, "rating": rating]
    }
    return try seed(db.collection("c"), docs)
  }

  private let bbAuthors: [(String, String, Int, Int)] = [
    ("authorA", "titleA", 100, 1980), ("authorB", "titleB", 50, 2020), ("authorB", "titleB", 150, 2021),
  ]

  // describe('Count queries') it('can run count query getCountFromServer with special chars in the document path: so!@#$%^&*()_+special/sub')
  @Test func canRunCountQueryWithSpecialCharsInDocumentPath1() throws {
    try withDatabase(settings: relaxed) { db in
      let sub = db.collection("c").document("so!@#$%^&*()_+special").collection("sub")
      try sub.addDocument(data: ["foo": "bar"])
      try sub.addDocument(data: ["foo": "baz"])
      #expect(try run(sub.count).count == NSNumber(value: 2))
    }
  }

  // describe('Count queries') it('can run count query getCountFromServer with special chars in the document path: b1/so!@#$%^&*()_+special')
  @Test func canRunCountQueryWithSpecialCharsInDocumentPath2() throws {
    try withDatabase(settings: relaxed) { db in
      let sub = db.collection("c").document("b1").collection("so!@#$%^&*()_+special")
      try sub.addDocument(data: ["foo": "bar"])
      try sub.addDocument(data: ["foo": "baz"])
      #expect(try run(sub.count).count == NSNumber(value: 2))
    }
  }

  // describe('Count queries') it('count query supports collection groups')
  // (and describe('Aggregation queries') it('aggregate query supports collection groups'))
  @Test func countQuerySupportsCollectionGroups() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "aggQ7hV2nB9kLmX4pT1s"  // Firestore uses an auto ID
      let paths = [
        "\(cg)/cg-doc1", "abc/123/\(cg)/cg-doc2", "zzz\(cg)/cg-doc3", "abc/123/zzz\(cg)/cg-doc4", "abc/123/zzz/\(cg)",
      ]
      try seed(db, paths: Dictionary(uniqueKeysWithValues: paths.map { ($0, ["x": 1] as [String: Any]) }))
      #expect(try run(db.collectionGroup(cg).count).count == NSNumber(value: 2))
      #expect(
        number(try run(db.collectionGroup(cg).aggregate([AggregateField.count()])).get(AggregateField.count())) == 2)
    }
  }

  // describe('Aggregation queries - sum / average') it('can run sum query getAggregationFromServer') — ordered by pages
  @Test func canRunSumQueryOnOrderedQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [5, 4])
      let s = try run(c.order(by: "pages").aggregate([AggregateField.sum("pages")]))
      let value = s.get(AggregateField.sum("pages"))
      #expect(aggregateValue(value) == "int:150")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that results in float using getAggregationFromServer')
  @Test func performsSumThatResultsInFloat() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [5, 4.5, 3], authors: bbAuthors)
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.doubleValue == 12.5, "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum of ints and floats that results in an int using getAggregationFromServer')
  @Test func performsSumOfIntsAndFloatsThatResultsInAnInt() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [5, 4.5, 3.5], authors: bbAuthors)
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.doubleValue == 13, "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that overflows max int using getAggregationFromServer')
  // (JS's `Math.pow(2, 63) - 1` is the double 2^63)
  @Test func performsSumThatOverflowsMaxInt() throws {
    try withDatabase(settings: relaxed) { db in
      let maxLong: Double = 9_223_372_036_854_775_807.0  // JS Math.pow(2, 63) - 1 == 2^63
      let c = try books(db, [maxLong, maxLong])
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.doubleValue == maxLong + maxLong, "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that can overflow integer values during accumulation using getAggregationFromServer')
  @Test func performsSumThatCanOverflowIntegerValuesDuringAccumulation() throws {
    try withDatabase(settings: relaxed) { db in
      let maxSafe: Int64 = 9_007_199_254_740_991  // Number.MAX_SAFE_INTEGER
      let c = try books(db, [maxSafe, 1, -101])
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.int64Value == maxSafe - 100, "got \(aggregateValue(value))")
      #expect(number(value)?.doubleValue == Double(maxSafe - 100), "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that is negative using getAggregationFromServer')
  @Test func performsSumThatIsNegative() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [Int64(9_007_199_254_740_991), Int64(-9_007_199_254_740_991), -101, -10000])
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.doubleValue == -10101, "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that is positive infinity using getAggregationFromServer v2')
  @Test func performsSumThatIsPositiveInfinityV2() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [Double.greatestFiniteMagnitude, 1e293])
      let value = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(number(value)?.doubleValue == Double.infinity, "got \(aggregateValue(value))")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs sum that includes NaN using getAggregationFromServer')
  // and it('performs average that includes NaN using getAggregationFromServer')
  @Test func performsSumAndAverageThatIncludeNaN() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db, [5, 4, Double.nan, 0])
      let sum = try run(c.aggregate([AggregateField.sum("rating")])).get(AggregateField.sum("rating"))
      #expect(aggregateValue(sum) == "double:NaN")
      let avg = try run(c.aggregate([AggregateField.average("rating")])).get(AggregateField.average("rating"))
      #expect(aggregateValue(avg) == "double:NaN")
    }
  }

  // MARK: - composite_index_query.test.ts, describe('Aggregation queries - sum / average')
  // (Firestore tags these documents with a testId and filters on it; the port keeps both.)

  // describe('Aggregation queries - sum / average') it('aggregate query supports collection groups - multi-aggregate')
  @Test func aggregateQuerySupportsCollectionGroupsMultiAggregate() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "aggCg3Xk9LmQ2vB7nT0w"  // Firestore uses the test collection's auto ID
      let paths = [
        "\(cg)/cg-doc1", "abc/123/\(cg)/cg-doc2", "zzz\(cg)/cg-doc3", "abc/123/zzz\(cg)/cg-doc4", "abc/123/zzz/\(cg)",
      ]
      try seed(
        db,
        paths: Dictionary(
          uniqueKeysWithValues: paths.map { ($0, ["a": 2, "testId": compositeTestID] as [String: Any]) }))
      let s = try run(
        withTestID(db.collectionGroup(cg)).aggregate([
          AggregateField.count(), AggregateField.sum("a"), AggregateField.average("a"),
        ]))
      #expect(number(s.get(AggregateField.count())) == 2)
      #expect(number(s.get(AggregateField.sum("a")))?.doubleValue == 4)
      #expect(number(s.get(AggregateField.average("a")))?.doubleValue == 2)
    }
  }

  // describe('Aggregation queries - sum / average') it('performs aggregations on documents with all aggregated fields using getAggregationFromServer')
  // (d has no `year`: Firestore counts only documents holding every aggregated field)
  @Test func performsAggregationsOnDocumentsWithAllAggregatedFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980],
          "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020],
          "c": ["author": "authorC", "title": "titleC", "pages": 150, "year": 2021],
          "d": ["author": "authorD", "title": "titleD", "pages": 50],
        ])
      let s = try run(
        withTestID(c).aggregate([
          AggregateField.sum("pages"), AggregateField.average("pages"), AggregateField.average("year"),
          AggregateField.count(),
        ]))
      let sum = s.get(AggregateField.sum("pages"))
      let avgPages = s.get(AggregateField.average("pages"))
      let avgYear = s.get(AggregateField.average("year"))
      #expect(number(sum)?.doubleValue == 300, "totalPages: got \(aggregateValue(sum))")
      #expect(number(avgPages)?.doubleValue == 100, "averagePages: got \(aggregateValue(avgPages))")
      #expect(number(avgYear)?.doubleValue == 2007, "averageYear: got \(aggregateValue(avgYear))")
      #expect(number(s.get(AggregateField.count())) == 3, "count: got \(s.count)")
    }
  }

  // describe('Aggregation queries - sum / average') it('performs aggregates on multiple fields where one aggregate could cause short-circuit due to NaN using getAggregationFromServer')
  @Test func performsAggregatesOnMultipleFieldsWhereOneCouldShortCircuitDueToNaN() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": 5],
          "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": 4],
          "c": ["author": "authorC", "title": "titleC", "pages": 100, "year": 1980, "rating": Double.nan],
          "d": ["author": "authorD", "title": "titleD", "pages": 50, "year": 2020, "rating": 0],
        ])
      let s = try run(
        withTestID(c).aggregate([
          AggregateField.sum("rating"), AggregateField.sum("pages"), AggregateField.average("year"),
        ]))
      #expect(aggregateValue(s.get(AggregateField.sum("rating"))) == "double:NaN")
      #expect(number(s.get(AggregateField.sum("pages")))?.doubleValue == 300)
      #expect(number(s.get(AggregateField.average("year")))?.doubleValue == 2000)
    }
  }
}

@Suite("Firestore port: JS SDK query validation")
struct FirestorePortJSQueryValidationTests {

  // describe('Validation:') describe('Queries') it('with null or NaN inequalities fail')
  @Test func withNullOrNaNInequalitiesFail() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("test")
      expectInvalidQuery(c.whereField("a", isGreaterThan: NSNull()), mentioning: ["null"])
      expectInvalidQuery(c.whereField("a", isGreaterThan: Double.nan), mentioning: ["NaN"])
    }
  }

  // describe('Validation:') describe('Queries') it('must be non-empty strings or references when filtering by document ID')
  // — the `>=` forms, the collection-group ID 'foo', and array-contains-any on the document ID
  @Test func mustBeNonEmptyStringsOrReferencesWhenFilteringByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("test")
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, isGreaterThanOrEqualTo: ""), mentioning: ["empty"])
      expectInvalidQuery(c.whereField(id, isGreaterThanOrEqualTo: "foo/bar/baz"), mentioning: ["'foo/bar/baz'"])
      expectInvalidQuery(c.whereField(id, isGreaterThanOrEqualTo: 1))
      expectInvalidQuery(
        db.collectionGroup("foo").whereField(id, isGreaterThanOrEqualTo: "foo"), mentioning: ["'foo'", "odd number"])
      expectInvalidQuery(c.whereField(id, arrayContains: 1))
      expectInvalidQuery(c.whereField(id, arrayContainsAny: [1]))
    }
  }

  // describe('Validation:') describe('Queries') it('using IN and document id must have proper document references in array')
  // — the accepted case: the collection's own path ("test") is a plain document ID
  @Test func usingInAndDocumentIDAcceptsAPlainID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("test")
      expectIDs(c.whereField(FieldPath.documentID(), in: [c.path]), [])
      expectInvalidQuery(
        db.collectionGroup("foo").whereField(FieldPath.documentID(), in: ["foo"]), mentioning: ["'foo'"])
    }
  }

}

// database.test.ts, apiDescribe('Queries are validated client-side'): each query must be
// accepted (here: runs without error on an empty collection). Only the combinations that
// FirestorePortValidationTests.testQueryInequalityFieldWithMultipleOrderByFields lacks.
@Suite("Firestore port: JS SDK queries validated client-side")
struct FirestorePortJSQueriesValidatedClientSideTests {

  private func expectAccepted(
    _ query: Query, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try query.getDocuments()
    } catch {
      Issue.record("\(comment): expected a valid query, got \(error)", sourceLocation: sourceLocation)
    }
  }

  // it('inequality on multiple fields works')
  @Test func inequalityOnMultipleFieldsWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(
        coll.whereField("x", isGreaterThanOrEqualTo: 32).whereField("y", isNotEqualTo: "cat"), "x >= 32, y != cat")
    }
  }

  // it('inequality with key fields works')
  @Test func inequalityWithKeyFieldsWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(
        coll.whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: "aa").whereField(
          "x", isGreaterThanOrEqualTo: 32),
        "__name__ >= aa, x >= 32")
    }
  }

  // it('multiple inequality and array-contains on different fields works')
  // it('multiple inequality and array-contains-any on different fields works')
  // it('multiple inequality and IN on different fields works')
  // it('inequality and NOT IN on different fields works')
  // it('multiple inequality and NOT IN on different fields works')
  @Test func multipleInequalityWithMembershipFiltersWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let base = db.collection("c").whereField("x", isGreaterThanOrEqualTo: 32)
      expectAccepted(
        base.whereField("y", arrayContains: "cat").whereField("z", isLessThanOrEqualTo: 42), "array-contains")
      expectAccepted(
        base.whereField("y", arrayContainsAny: [1, 2]).whereField("z", isLessThanOrEqualTo: 42), "array-contains-any")
      expectAccepted(base.whereField("y", in: [1, 2]).whereField("z", isLessThanOrEqualTo: 42), "in")
      expectAccepted(base.whereField("y", notIn: [1, 2]), "not-in")
      expectAccepted(base.whereField("y", notIn: [1, 2]).whereField("z", isLessThanOrEqualTo: 42), "not-in + z <= 42")
    }
  }

  // it('!= same as orderBy works.')
  @Test func notEqualSameAsOrderByWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(coll.whereField("x", isNotEqualTo: 32).order(by: "x"), "x != 32 order by x")
      expectAccepted(coll.order(by: "x").whereField("x", isNotEqualTo: 32), "order by x, x != 32")
    }
  }

  // it('inequality different than orderBy works.') — the orderBy('z') and orderBy('y'), orderBy('x') forms
  @Test func inequalityDifferentThanOrderByWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(coll.whereField("x", isGreaterThan: 32).order(by: "y").order(by: "z"), "x > 32 order by y, z")
      expectAccepted(
        coll.order(by: "y").whereField("x", isGreaterThan: 32).order(by: "x"), "order by y, x > 32, order by x")
    }
  }

  // it('multiple inequality different from orderBy works.')
  @Test func multipleInequalityDifferentFromOrderByWorks() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(
        coll.whereField("x", isGreaterThan: 32).whereField("y", isNotEqualTo: "cat").order(by: "z"), "filters then z")
      expectAccepted(
        coll.order(by: "z").whereField("x", isGreaterThan: 32).whereField("y", isNotEqualTo: "cat"), "z then filters")
    }
  }

  // it('IN different than orderBy works') and it('array-contains-any different than orderBy works')
  @Test func inAndArrayContainsAnyDifferentThanOrderByWork() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      expectAccepted(coll.order(by: "x").whereField("y", in: [1, 2]), "in")
      expectAccepted(coll.order(by: "x").whereField("y", arrayContainsAny: [1, 2]), "array-contains-any")
    }
  }

  // MARK: - The SDK's filters against the backend's (a listener against a get)

  /// `checkOnlineAndOfflineResultsMatch`: the query's IDs from a get and from a listener's
  /// first snapshot (Hearth's listener matches documents itself, as the SDK's cache does)
  /// both `expected`.
  private func checkResultsMatch(
    _ query: Query, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    expectIDs(query, expected, sourceLocation: sourceLocation)
    let events = EventRecorder<QuerySnapshot> { describeSnapshot($0) }
    let registration = query.addSnapshotListener(events.handler)
    defer { registration.remove() }
    #expect(events.next()?.documents.map(\.documentID) == expected, sourceLocation: sourceLocation)
  }

  private static var zips: [String: [String: Any]] {
    [
      "a": ["zip": Double.nan], "b": ["zip": 91102], "c": ["zip": 98101], "d": ["zip": "98101"],
      "e": ["zip": [98101]], "f": ["zip": [98101, 98102]], "g": ["zip": ["98101", ["zip": 98101]] as [Any]],
      "h": ["zip": ["code": 500]], "i": ["zip": NSNull()], "j": ["code": 500],
    ]
  }

  // query.test.ts 'sdk uses != filter same as backend'
  @Test func sdkUsesNotEqualFilterSameAsBackend() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = try seed(db.collection("c"), Self.zips)
      try checkResultsMatch(coll.whereField("zip", isNotEqualTo: 98101), ["a", "b", "d", "e", "f", "g", "h"])
      try checkResultsMatch(coll.whereField("zip", isNotEqualTo: Double.nan), ["b", "c", "d", "e", "f", "g", "h"])
      try checkResultsMatch(
        coll.whereField("zip", isNotEqualTo: NSNull()), ["a", "b", "c", "d", "e", "f", "g", "h"])
    }
  }

  // query.test.ts 'sdk uses not-in filter same as backend'
  @Test func sdkUsesNotInFilterSameAsBackend() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = try seed(db.collection("c"), Self.zips)
      try checkResultsMatch(
        coll.whereField("zip", notIn: [98101, 98103, [98101, 98102]]), ["a", "b", "d", "e", "g", "h"])
      try checkResultsMatch(coll.whereField("zip", notIn: [NSNull()]), [])
    }
  }
}
