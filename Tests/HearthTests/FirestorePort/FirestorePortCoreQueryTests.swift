import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's C++ core unit tests for query matching and ordering, ported case by case with
// their data and expectations unchanged, through the public API (write documents, run the
// query, compare the result):
// - Firestore/core/test/unit/core/query_test.cc (QueryTest.*)
// - Firestore/core/test/unit/core/filter_test.cc (FilterTest.*, the observable case)
// - Firestore/core/test/unit/local/query_engine_test.cc (QueryEngineTest.*, the OR / IN /
//   array-membership cases that check which documents a query returns)
//
// A Firestore `Matches(doc)` check becomes: write that document alone into the collection, run
// the query, expect it back (or nothing). Where Firestore's test writes several documents
// with distinct keys, they are written together and the whole result is checked, in the order
// Firestore's normalised order-by gives (explicit order-bys, then inequality fields, then
// `__name__`). Where a Firestore test checks `order_bys()` (normalisation), the port writes
// documents whose result order depends on exactly that normalised order.
//
// Left out (not observable through the public API): QueryTest.Equality, UniqueIds,
// CanonicalIDs, MatchesAllDocuments (an internal flag), FilterTest.Equality,
// CompositeFilterMembers and CompositeFilterNestedChecks (filter object structure),
// QueryEngineTest cases about target mappings, limbo documents and pending server timestamps.
// QueryEngineTest.InAndNotInFiltersWithObjectValues is left out because its data nests an
// array directly inside an array (`[1, [2, 3]]`), which docs/semantics.md forbids.

/// Firestore's `EXPECT_THAT(query, Matches(doc))` / `Not(Matches(doc))`: writes `data` at `id`
/// as the only document of the collection the query reads, checks that the query returns it
/// (`matches`) or returns nothing, and deletes it again.
private func expectMatch(
  _ query: Query, _ collection: CollectionReference, _ id: String, _ data: [String: Any], _ matches: Bool,
  _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let ref = collection.document(id)
  try ref.setData(data)
  expectIDs(query, matches ? [id] : [], comment, sourceLocation: sourceLocation)
  try ref.delete()
}

/// Documents for checking a normalised order-by list through result order. `fields` are the
/// normalised order-by fields in Firestore's order, each with a base value that passes the
/// query's filters (and whose successor does too). Document `base` holds every base value;
/// document `p<i>` holds them too except field `i`, which is one higher. Sorting these by the
/// fields in a given order yields a different sequence for every order of the fields.
private func lexicographicDocs(_ fields: [(String, Int)]) -> [String: [String: Any]] {
  func document(bumping bumped: Int?) -> [String: Any] {
    var data: [String: Any] = [:]
    for (i, (field, base)) in fields.enumerated() { data[field] = base + (i == bumped ? 1 : 0) }
    return data
  }
  var docs: [String: [String: Any]] = ["base": document(bumping: nil)]
  for i in fields.indices { docs["p\(i)"] = document(bumping: i) }
  return docs
}

@Suite("Firestore port: core query matching")
struct FirestorePortCoreQueryTests {

  // MARK: - query_test.cc

  // QueryTest.Constructor (a query with no order-by is ordered by key, ascending)
  @Test func constructor() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("rooms/Firestore/messages"),
        ["0002": ["length": 1], "0001": ["length": 2], "0003": ["length": 0]])
      expectIDs(c, ["0001", "0002", "0003"])
    }
  }

  // QueryTest.OrderBy (order by length desc is normalised to [length desc, __name__ desc])
  @Test func orderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("rooms/Firestore/messages"),
        ["0001": ["length": 2], "0002": ["length": 2], "0003": ["length": 5], "0004": ["length": 1]])
      expectIDs(c.order(by: "length", descending: true), ["0003", "0002", "0001", "0004"])
    }
  }

  // QueryTest.MatchesBasedOnDocumentKey (Firestore's document query on
  // rooms/eros/messages/1; ported as a key filter and as a document read)
  @Test func matchesBasedOnDocumentKey() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "rooms/eros/messages/1": ["text": "msg1"],
          "rooms/eros/messages/2": ["text": "msg2"],
          "rooms/other/messages/1": ["text": "msg3"],
        ])
      expectPaths(
        db.collection("rooms/eros/messages").whereField(FieldPath.documentID(), isEqualTo: "1"),
        ["rooms/eros/messages/1"])
      expectPaths(
        db.collectionGroup("messages").whereField(
          FieldPath.documentID(), isEqualTo: db.document("rooms/eros/messages/1")),
        ["rooms/eros/messages/1"])
      let snapshot = try db.document("rooms/eros/messages/1").getDocument()
      #expect(snapshot.exists)
      #expect(snapshot.get("text") as? String == "msg1")
    }
  }

  // QueryTest.MatchesShallowAncestorQuery
  @Test func matchesShallowAncestorQuery() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "rooms/eros/messages/1": ["text": "msg1"],
          "rooms/eros/messages/1/meta/1": ["meta": "mv"],
          "rooms/eros/messages/2": ["text": "msg2"],
          "rooms/other/messages/1": ["text": "msg3"],
        ])
      expectPaths(db.collection("rooms/eros/messages"), ["rooms/eros/messages/1", "rooms/eros/messages/2"])
    }
  }

  // QueryTest.EmptyFieldsAreAllowedForQueries
  @Test func emptyFieldsAreAllowedForQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("rooms/eros/messages"), ["1": ["text": "msg1"], "2": [:]])
      expectIDs(c.whereField("text", isEqualTo: "msg1"), ["1"])
    }
  }

  // QueryTest.OrQuery
  @Test func orQuery() throws {
    try withDatabase(settings: relaxed) { db in
      try expectOrQueryResults(try abDocs(db))
    }
  }

  /// QueryTest.OrQuery's queries on `abDocs`.
  private func expectOrQueryResults(_ c: CollectionReference) throws {
    // Two equalities: a==1 || b==1.
    expectIDs(
      c.whereFilter(.orFilter([.whereField("a", isEqualTo: 1), .whereField("b", isEqualTo: 1)])),
      ["1", "2", "4", "5"], "a==1 || b==1")
    // With one inequality: a>2 || b==1 (implicitly ordered by a).
    expectIDs(
      c.whereFilter(.orFilter([.whereField("a", isGreaterThan: 2), .whereField("b", isEqualTo: 1)])),
      ["5", "2", "3"], "a>2 || b==1")
    // (a==1 && b==0) || (a==3 && b==2)
    expectIDs(
      c.whereFilter(
        .orFilter([
          .andFilter([.whereField("a", isEqualTo: 1), .whereField("b", isEqualTo: 0)]),
          .andFilter([.whereField("a", isEqualTo: 3), .whereField("b", isEqualTo: 2)]),
        ])),
      ["1", "3"], "(a==1 && b==0) || (a==3 && b==2)")
    // a==1 && (b==0 || b==3).
    expectIDs(
      c.whereFilter(
        .andFilter([
          .whereField("a", isEqualTo: 1),
          .orFilter([.whereField("b", isEqualTo: 0), .whereField("b", isEqualTo: 3)]),
        ])),
      ["1", "4"], "a==1 && (b==0 || b==3)")
    // (a==2 || b==2) && (a==3 || b==3)
    expectIDs(
      c.whereFilter(
        .andFilter([
          .orFilter([.whereField("a", isEqualTo: 2), .whereField("b", isEqualTo: 2)]),
          .orFilter([.whereField("a", isEqualTo: 3), .whereField("b", isEqualTo: 3)]),
        ])),
      ["3"], "(a==2 || b==2) && (a==3 || b==3)")
  }

  // QueryTest.PrimitiveValueFilter
  @Test func primitiveValueFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("collection"),
        [
          "1": ["sort": 1], "2": ["sort": 2], "3": ["sort": 3], "4": ["sort": false], "5": ["sort": "string"],
          "6": [:],
        ])
      expectIDs(c.whereField("sort", isGreaterThanOrEqualTo: 2), ["2", "3"], "sort >= 2")
      expectIDs(c.whereField("sort", isLessThanOrEqualTo: 2), ["1", "2"], "sort <= 2")
    }
  }

  // QueryTest.NullFilter
  @Test func nullFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      // Firestore's doc2 and doc3 share the key collection/2; each is checked on its own.
      let docs: [(String, [String: Any])] = [
        ("1", ["sort": NSNull()]), ("2", ["sort": 2]), ("2", ["sort": 3.1]), ("4", ["sort": false]),
        ("5", ["sort": "string"]), ("6", ["sort": Double.nan]),
      ]
      let equal = c.whereField("sort", isEqualTo: NSNull())
      for (i, (id, data)) in docs.enumerated() {
        try expectMatch(equal, c, id, data, i == 0, "sort == null, doc\(i + 1)")
      }
      let notEqual = c.whereField("sort", isNotEqualTo: NSNull())
      for (i, (id, data)) in docs.enumerated() {
        try expectMatch(notEqual, c, id, data, i != 0, "sort != null, doc\(i + 1)")
      }
    }
  }

  // QueryTest.NanFilter
  @Test func nanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("collection"),
        [
          "1": ["sort": Double.nan], "2": ["sort": 2], "3": ["sort": 3.1], "4": ["sort": false],
          "5": ["sort": "string"], "6": ["sort": NSNull()],
        ])
      expectIDs(c.whereField("sort", isEqualTo: Double.nan), ["1"], "sort == NaN")
      // != is an inequality: ordered by sort (false < numbers < strings), then by key.
      expectIDs(c.whereField("sort", isNotEqualTo: Double.nan), ["4", "2", "3", "5"], "sort != NaN")
    }
  }

  // QueryTest.ArrayContainsFilter
  @Test func arrayContainsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("array", arrayContains: 42)
      try expectMatch(query, c, "1", ["array": 1], false, "not an array")
      try expectMatch(query, c, "1", ["array": [Any]()], false, "empty array")
      try expectMatch(
        query, c, "1", ["array": [41, "42", ["a": 42, "b": [42]] as [String: Any]] as [Any], "different": [42]],
        false, "array without element (nor in a nested field or a different field)")
      try expectMatch(
        query, c, "1", ["array": [1, "2", 42, ["a": 1]] as [Any]], true, "array with element")
    }
  }

  // QueryTest.ArrayContainsFilterWithObjectValues
  @Test func arrayContainsFilterWithObjectValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("array", arrayContains: ["a": [42]])
      try expectMatch(
        query, c, "1",
        [
          "array": [
            ["a": 42], ["a": [42, 43]], ["b": [42]], ["a": [42], "b": 42] as [String: Any],
          ] as [Any]
        ], false, "array without element")
      try expectMatch(
        query, c, "1", ["array": [1, "2", 42, ["a": [42]]] as [Any]], true, "array with element")
    }
  }

  // QueryTest.InFilters
  @Test func inFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", in: [12345])
      try expectMatch(query, c, "1", ["zip": 12345], true, "match")
      try expectMatch(query, c, "1", ["zip": [12345]], false, "value matches in array")
      try expectMatch(query, c, "1", ["zip": "12345"], false, "non-type match")
      try expectMatch(query, c, "1", ["zip": ["12345", ["zip": 12345]] as [Any]], false, "nested match")
    }
  }

  // QueryTest.InFiltersWithObjectValues
  @Test func inFiltersWithObjectValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", in: [["a": [42]]])
      try expectMatch(query, c, "1", ["zip": [["a": [42]]]], false, "containing object in array")
      try expectMatch(query, c, "1", ["zip": ["a": [42]]], true, "containing object")
    }
  }

  // QueryTest.NotInFilters
  @Test func notInFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", notIn: [12345])
      try expectMatch(query, c, "1", ["zip": 23456], true, "no match")
      try expectMatch(query, c, "1", ["zip": [12345]], true, "value matches in array")
      try expectMatch(query, c, "1", ["zip": "12345"], true, "non-type match")
      try expectMatch(query, c, "1", ["zip": ["12345", ["zip": 12345]] as [Any]], true, "nested match")
      try expectMatch(query, c, "1", ["zip": NSNull()], false, "null match")
      try expectMatch(query, c, "1", ["zip": Double.nan], true, "NaN match")
      try expectMatch(query, c, "1", ["zip": 12345], false, "direct match")
      try expectMatch(query, c, "1", ["chip": 23456], false, "field not set")
    }
  }

  // QueryTest.NotInFiltersWithObjectValues
  @Test func notInFiltersWithObjectValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", notIn: [["a": [42]]])
      try expectMatch(query, c, "1", ["zip": [["a": [42]]]], true, "containing object in array")
      try expectMatch(query, c, "1", ["zip": ["a": [42]]], false, "containing object")
    }
  }

  // QueryTest.ArrayContainsAnyFilters
  @Test func arrayContainsAnyFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", arrayContainsAny: [12345])
      try expectMatch(query, c, "1", ["zip": [12345]], true, "match")
      try expectMatch(query, c, "1", ["zip": 12345], false, "value matches in non-array")
      try expectMatch(query, c, "1", ["zip": ["12345"]], false, "non-type match")
      try expectMatch(query, c, "1", ["zip": ["12345", ["zip": [12345]]] as [Any]], false, "nested match")
    }
  }

  // QueryTest.ArrayContainsAnyFiltersWithObjectValues
  @Test func arrayContainsAnyFiltersWithObjectValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("collection")
      let query = c.whereField("zip", arrayContainsAny: [["a": [42]]])
      try expectMatch(query, c, "1", ["zip": [["a": [42]]]], true, "containing object in array")
      try expectMatch(query, c, "1", ["zip": ["a": [42]]], false, "containing object")
    }
  }

  // QueryTest.DoesNotMatchComplexObjectsForFilters
  @Test func doesNotMatchComplexObjectsForFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("collection"),
        [
          "1": ["sort": 2], "2": ["sort": [Any]()], "3": ["sort": [1]], "4": ["sort": ["foo": 2]],
          "5": ["sort": ["foo": "bar"]], "6": ["sort": [String: Any]()], "7": ["sort": [3, 1]],
        ])
      expectIDs(c.whereField("sort", isLessThanOrEqualTo: 2), ["1"], "sort <= 2")
      expectIDs(c.whereField("sort", isGreaterThanOrEqualTo: 2), ["1"], "sort >= 2")
    }
  }

  // QueryTest.DoesntRemoveComplexObjectsWithOrderBy
  @Test func doesntRemoveComplexObjectsWithOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("collection"),
        [
          "1": ["sort": 2], "2": ["sort": [Any]()], "3": ["sort": [1]], "4": ["sort": ["foo": 2]],
          "5": ["sort": ["foo": "bar"]], "6": [:],
        ])
      // number < arrays ([] < [1]) < maps ({foo: 2} < {foo: "bar"}); doc 6 lacks the field.
      expectIDs(c.order(by: "sort"), ["1", "2", "3", "4", "5"])
    }
  }

  // QueryTest.FiltersBasedOnArrayValue
  @Test func filtersBasedOnArrayValue() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("collection"), ["doc": ["tags": ["foo", 1, true] as [Any]]])
      expectIDs(c.whereField("tags", isEqualTo: ["foo", 1, true] as [Any]), ["doc"], "tags == [foo, 1, true]")
      expectIDs(c.whereField("tags", isEqualTo: "foo"), [], "tags == foo")
      expectIDs(c.whereField("tags", isEqualTo: ["foo", 1] as [Any]), [], "tags == [foo, 1]")
      expectIDs(c.whereField("tags", isEqualTo: ["foo", true, 1] as [Any]), [], "tags == [foo, true, 1]")
    }
  }

  // QueryTest.FiltersBasedOnObjectValue
  @Test func filtersBasedOnObjectValue() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("collection"),
        ["doc": ["tags": ["foo": "foo", "a": 0, "b": true, "c": Double.nan] as [String: Any]]])
      expectIDs(
        c.whereField("tags", isEqualTo: ["foo": "foo", "a": 0, "b": true, "c": Double.nan] as [String: Any]), ["doc"],
        "tags == {foo, a, b, c: NaN}")
      expectIDs(
        c.whereField("tags", isEqualTo: ["b": true, "a": 0, "foo": "foo", "c": Double.nan] as [String: Any]), ["doc"],
        "tags == {b, a, foo, c: NaN}")
      expectIDs(c.whereField("tags.foo", isEqualTo: "foo"), ["doc"], "tags.foo == foo")
      expectIDs(c.whereField("tags", isEqualTo: "foo"), [], "tags == foo")
      expectIDs(
        c.whereField("tags", isEqualTo: ["foo": "foo", "a": 0, "b": true] as [String: Any]), [],
        "tags == {foo, a, b}")
    }
  }

  // QueryTest.SortsDocumentsInTheCorrectOrder
  // Firestore gives every document whose sort value differs the key collection/1; here they
  // get distinct IDs. The three that tie on sort == 1 keep collection/1, /2, /3. Firestore's
  // Ref("project", "collection/id1") is a reference to collection/id1 in this database.
  @Test func sortsDocumentsInTheCorrectOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let docs: [(String, Any)] = [
        ("1-null", NSNull()), ("1-false", false), ("1-true", true), ("1", 1), ("2", 1), ("3", 1), ("1-1.9", 1.9),
        ("1-2", 2), ("1-2.1", 2.1), ("1-empty", ""), ("1-a", "a"), ("1-ab", "ab"), ("1-b", "b"),
        ("1-ref", db.document("collection/id1")),
      ]
      let c = try seed(
        db.collection("collection"), Dictionary(uniqueKeysWithValues: docs.map { ($0.0, ["sort": $0.1]) }))
      expectIDs(c.order(by: "sort"), docs.map(\.0))
    }
  }

  // QueryTest.SortsDocumentsUsingMultipleFields
  // Distinct IDs stand in for Firestore's repeated collection/1; the documents that tie on
  // both fields keep IDs in Firestore's key order (1 < 2 < 3).
  @Test func sortsDocumentsUsingMultipleFields() throws {
    try withDatabase(settings: relaxed) { db in
      let docs: [(String, Int, Int)] = [
        ("1-11", 1, 1), ("1a", 1, 2), ("2a", 1, 2), ("3a", 1, 2), ("1-13", 1, 3), ("1-21", 2, 1), ("1b", 2, 2),
        ("2b", 2, 2), ("3b", 2, 2), ("1-23", 2, 3),
      ]
      let c = try seed(
        db.collection("collection"),
        Dictionary(uniqueKeysWithValues: docs.map { ($0.0, ["sort1": $0.1, "sort2": $0.2]) }))
      expectIDs(c.order(by: "sort1").order(by: "sort2"), docs.map(\.0))
    }
  }

  // QueryTest.SortsDocumentsWithDescendingToo
  @Test func sortsDocumentsWithDescendingToo() throws {
    try withDatabase(settings: relaxed) { db in
      let docs: [(String, Int, Int)] = [
        ("1-23", 2, 3), ("3b", 2, 2), ("2b", 2, 2), ("1b", 2, 2), ("1-21", 2, 1), ("1-13", 1, 3), ("3a", 1, 2),
        ("2a", 1, 2), ("1a", 1, 2), ("1-11", 1, 1),
      ]
      let c = try seed(
        db.collection("collection"),
        Dictionary(uniqueKeysWithValues: docs.map { ($0.0, ["sort1": $0.1, "sort2": $0.2]) }))
      expectIDs(c.order(by: "sort1", descending: true).order(by: "sort2", descending: true), docs.map(\.0))
    }
  }

  // QueryTest.ImplicitOrderBy
  @Test func implicitOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("foo"),
        [
          "a": ["foo": 1, "bar": 1], "b": ["foo": 1, "bar": 1], "c": ["foo": 0, "bar": 0], "d": ["foo": 1, "bar": 2],
          "e": ["foo": 7, "bar": 0],
        ])
      // Default is ascending: [__name__ asc].
      expectIDs(c, ["a", "b", "c", "d", "e"], "no order-by")
      // Explicit key ordering is respected.
      expectIDs(c.order(by: FieldPath.documentID()), ["a", "b", "c", "d", "e"], "__name__ asc")
      expectIDs(c.order(by: FieldPath.documentID(), descending: true), ["e", "d", "c", "b", "a"], "__name__ desc")
      expectIDs(
        c.order(by: "foo").order(by: FieldPath.documentID()), ["c", "a", "b", "d", "e"], "foo asc, __name__ asc")
      expectIDs(
        c.order(by: "foo").order(by: FieldPath.documentID(), descending: true), ["c", "d", "b", "a", "e"],
        "foo asc, __name__ desc")
      // Inequality filters add order-bys: [foo asc, __name__ asc].
      expectIDs(c.whereField("foo", isLessThan: 5), ["c", "a", "b", "d"], "foo < 5")
      // Descending order-by applies to implicit key ordering: [foo desc, __name__ desc].
      expectIDs(c.order(by: "foo", descending: true), ["e", "d", "b", "a", "c"], "foo desc")
      // [foo asc, bar desc, __name__ desc]
      expectIDs(c.order(by: "foo").order(by: "bar", descending: true), ["c", "d", "b", "a", "e"], "foo asc, bar desc")
      // [foo desc, bar asc, __name__ asc]
      expectIDs(c.order(by: "foo", descending: true).order(by: "bar"), ["e", "a", "b", "d", "c"], "foo desc, bar asc")
    }
  }

  // QueryTest.ImplicitOrderByInMultipleInequality
  // Firestore checks the normalised order-by list; the port checks the result order it implies,
  // with documents (see lexicographicDocs) whose order differs for every order of the fields.
  // The cases whose filters contradict each other (a < 5 with a >= 5; a number `a` with a
  // nested `a.a` or `a.z`) match nothing, so only that the query runs and returns nothing is
  // observable.
  @Test func implicitOrderByInMultipleInequality() throws {
    try withDatabase(settings: relaxed) { db in
      let contradictory = try seed(
        db.collection("contradictory"),
        [
          "x": ["a": 4, "aa": 6, "b": 5, "A": 5, "_a": 6],
          "y": ["a": ["a": 5, "z": 6], "aa": 6, "_a": 6, "a.a": 5],
        ])
      expectIDs(
        contradictory.whereField("a", isLessThan: 5).whereField("a", isGreaterThanOrEqualTo: 5)
          .whereField("aa", isGreaterThan: 5).whereField("b", isLessThanOrEqualTo: 5)
          .whereField("A", isGreaterThanOrEqualTo: 5), [], "a<5, a>=5, aa>5, b<=5, A>=5")
      // nested fields: [a, a.a, aa, __name__]
      expectIDs(
        contradictory.whereField("a", isLessThan: 5).whereField("aa", isGreaterThan: 5)
          .whereField("a.a", isLessThanOrEqualTo: 5), [], "nested fields")
      // special characters: [_a, a, a.a, __name__]
      expectIDs(
        contradictory.whereField("a", isLessThan: 5).whereField("_a", isGreaterThan: 5)
          .whereField("a.a", isLessThanOrEqualTo: 5), [], "special characters")
      // field name with dot: [a, a.z, `a.a`, __name__]
      expectIDs(
        contradictory.whereField("a", isLessThan: 5).whereField("a.z", isGreaterThan: 5)
          .whereField(FieldPath(["a.a"]), isLessThanOrEqualTo: 5), [], "field name with dot")

      // numbers: [1, 19, 2, a, __name__]
      let numbers = try seed(
        db.collection("numbers"),
        lexicographicDocs([("1", 6), ("19", 4), ("2", 5), ("a", 3)]))
      expectIDs(
        numbers.whereField("a", isLessThan: 5).whereField("1", isGreaterThan: 5)
          .whereField("19", isLessThanOrEqualTo: 5).whereField("2", isGreaterThanOrEqualTo: 5),
        ["base", "p3", "p2", "p1", "p0"], "numbers")

      // composite filter: [a, b, c, d, __name__]
      let composite = try seed(
        db.collection("composite"),
        lexicographicDocs([("a", 3), ("b", 1), ("c", -1), ("d", 4)]))
      expectIDs(
        composite.whereField("a", isLessThan: 5).whereFilter(
          .andFilter([
            .orFilter([.whereField("b", isGreaterThanOrEqualTo: 1), .whereField("c", isLessThanOrEqualTo: 0)]),
            .orFilter([.whereField("d", isGreaterThan: 3), .whereField("e", isEqualTo: 2)]),
          ])),
        ["base", "p3", "p2", "p1", "p0"], "composite filter")

      // OrderBy: [z, a, b, __name__]
      let orderBy = try seed(
        db.collection("orderBy"),
        lexicographicDocs([("z", 4), ("a", 6), ("b", 3)]))
      expectIDs(
        orderBy.whereField("b", isLessThan: 5).whereField("a", isGreaterThan: 5).whereField("z", isLessThanOrEqualTo: 5)
          .order(by: "z"),
        ["base", "p2", "p1", "p0"], "OrderBy")

      // last explicit order by direction: [z desc, a desc, b desc, __name__ desc]
      let lastDirection = try seed(
        db.collection("lastDirection"),
        lexicographicDocs([("z", 4), ("a", 6), ("b", 3)]))
      expectIDs(
        lastDirection.whereField("b", isLessThan: 5).whereField("a", isGreaterThan: 5).order(
          by: "z", descending: true),
        ["p0", "p1", "p2", "base"], "last explicit order by direction")

      // [z desc, c asc, a asc, b asc, __name__ asc]
      let mixed = try seed(
        db.collection("mixed"),
        lexicographicDocs([
          ("z", 4), ("c", 0), ("a", 6), ("b", 3),
        ]))
      expectIDs(
        mixed.whereField("b", isLessThan: 5).whereField("a", isGreaterThan: 5).order(by: "z", descending: true)
          .order(by: "c"),
        ["p0", "base", "p3", "p2", "p1"], "z desc, c asc")
    }
  }

  // QueryTest.OrderByForAggregateAndNonAggregate (the query is ordered [foo asc, __name__ asc];
  // the aggregation counts the same documents)
  @Test func orderByForAggregateAndNonAggregate() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"), ["a": ["foo": 3], "b": ["foo": 2], "c": ["foo": 1], "d": ["foo": 2], "e": ["bar": 5]])
      let query1 = c.whereField("foo", isGreaterThan: 1)
      let query2 = c.whereField("foo", isGreaterThan: 1)
      #expect(try query1.count.getAggregation().count.intValue == 3)
      expectIDs(query2, ["b", "d", "a"])
    }
  }

  // QueryTest.GeneratedOrderBysNotAffectedByPreviouslyMemoizedTargets
  @Test func generatedOrderBysNotAffectedByPreviouslyMemoizedTargets() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"), ["a": ["foo": 3], "b": ["foo": 2], "c": ["foo": 1], "d": ["foo": 2], "e": ["bar": 5]])
      let query1 = c.whereField("foo", isGreaterThan: 1)
      let query2 = c.whereField("foo", isGreaterThan: 1)
      // query1: first aggregate, then the documents.
      #expect(try query1.count.getAggregation().count.intValue == 3)
      expectIDs(query1, ["b", "d", "a"], "query1")
      // query2: first the documents, then aggregate.
      expectIDs(query2, ["b", "d", "a"], "query2")
      #expect(try query2.count.getAggregation().count.intValue == 3)
    }
  }

  // MARK: - filter_test.cc

  // FilterTest.CanonicalIdOfFlatConjunctions (the two forms are the same query: same results)
  @Test func canonicalIdOfFlatConjunctions() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("col"), ["a": ["name": "A"], "b": ["name": "B"], "c": ["name": "C"], "d": ["name": "D"]])
      let a = Filter.whereField("name", isEqualTo: "A")
      let b = Filter.whereField("name", isEqualTo: "B")
      let cc = Filter.whereField("name", isEqualTo: "C")
      let query1 = c.whereFilter(a).whereFilter(b).whereFilter(cc)
      let query2 = c.whereFilter(.andFilter([a, b, cc]))
      expectIDs(query1, [], "A && B && C as three filters")
      expectIDs(query2, [], "andFilter([A, B, C])")
      // Each filter on its own, both ways.
      expectIDs(c.whereFilter(a), ["a"])
      expectIDs(c.whereFilter(.andFilter([a])), ["a"])
      expectIDs(c.whereFilter(.orFilter([a, b, cc])), ["a", "b", "c"])
    }
  }

  // MARK: - query_engine_test.cc (local)

  private func abDocs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("coll"),
      [
        "1": ["a": 1, "b": 0], "2": ["a": 2, "b": 1], "3": ["a": 3, "b": 2], "4": ["a": 1, "b": 3],
        "5": ["a": 1, "b": 1],
      ])
  }

  private func missingFieldDocs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("coll"),
      [
        "1": ["a": 1, "b": 0], "2": ["b": 1], "3": ["a": 3, "b": 2], "4": ["a": 1, "b": 3], "5": ["a": 1],
        "6": ["a": 2],
      ])
  }

  private func arrayDocs(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("coll"),
      [
        "1": ["a": 1, "b": [0]], "2": ["b": [1]], "3": ["a": 3, "b": [2, 7], "c": 10], "4": ["a": 1, "b": [3, 7]],
        "5": ["a": 1], "6": ["a": 2, "c": 20],
      ])
  }

  // QueryEngineTest.CanPerformOrQueriesUsingFullCollectionScan1: the same documents and
  // queries as QueryTest.OrQuery (Firestore tests them on two layers; through the public
  // API they are one test).
  @Test func canPerformOrQueriesUsingFullCollectionScan1() throws {
    try withDatabase(settings: relaxed) { db in
      try expectOrQueryResults(try abDocs(db))
    }
  }

  // QueryEngineTest.CanPerformOrQueriesUsingFullCollectionScan2
  @Test func canPerformOrQueriesUsingFullCollectionScan2() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try abDocs(db)
      // (a==1) || (b > 0) LIMIT 2 (implicit order by b asc)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 1), .whereField("b", isGreaterThan: 0)])).limit(to: 2),
        ["1", "2"], "query6")
      // (a==1) || (b > 0) ORDER BY b LIMIT_TO_LAST 2
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 1), .whereField("b", isGreaterThan: 0)])).order(by: "b")
          .limit(toLast: 2),
        ["3", "4"], "query7")
      // (a==2) || (b == 1) LIMIT 1 ORDER BY a
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", isEqualTo: 1)])).limit(to: 1)
          .order(by: "a"),
        ["5"], "query8")
      // (a==2) || (b == 1) LIMIT_TO_LAST 1 ORDER BY a
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", isEqualTo: 1)])).limit(toLast: 1)
          .order(by: "a"),
        ["2"], "query9")
      // (a==2) || (b == 1) LIMIT 1 (__name__ is the tie breaker)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", isEqualTo: 1)])).limit(to: 1),
        ["2"], "query10")
    }
  }

  // QueryEngineTest.OrQueryDoesNotIncludeDocumentsWithMissingFields
  @Test func orQueryDoesNotIncludeDocumentsWithMissingFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try missingFieldDocs(db)
      let aOrB = Filter.orFilter([.whereField("a", isEqualTo: 1), .whereField("b", isEqualTo: 1)])
      // doc2 lacks 'a', which is ordered by.
      expectIDs(c.whereFilter(aOrB).order(by: "a"), ["1", "4", "5"], "a==1 || b==1 order by a")
      // doc5 lacks 'b', which is ordered by.
      expectIDs(c.whereFilter(aOrB).order(by: "b"), ["1", "2", "4"], "a==1 || b==1 order by b")
      // Implicit order by a: doc2 lacks 'a'.
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isGreaterThan: 2), .whereField("b", isEqualTo: 1)])), ["3"],
        "a>2 || b==1")
      // doc6 lacks 'b', doc2 lacks 'a'.
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isGreaterThan: 1), .whereField("b", isEqualTo: 1)])).order(by: "a")
          .order(by: "b"),
        ["3"], "a>1 || b==1 order by a, b")
      // No order-by: a document matching one disjunct may lack the other field.
      expectIDs(c.whereFilter(aOrB), ["1", "2", "4", "5"], "a==1 || b==1")
    }
  }

  // QueryEngineTest.OrQueryWithInAndNotIn
  @Test func orQueryWithInAndNotIn() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try missingFieldDocs(db)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", in: [2, 3])])), ["3", "4", "6"],
        "a==2 || b in [2,3]")
      // a==2 || (b != 2 && b != 3): implicit order by b, so doc6 (no b) is left out.
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", notIn: [2, 3])])), ["1", "2"],
        "a==2 || b not-in [2,3]")
    }
  }

  // QueryEngineTest.OrQueryWithArrayMembership
  @Test func orQueryWithArrayMembership() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        [
          "1": ["a": 1, "b": [0]], "2": ["b": [1]], "3": ["a": 3, "b": [2, 7]], "4": ["a": 1, "b": [3, 7]],
          "5": ["a": 1], "6": ["a": 2],
        ])
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", arrayContains: 7)])),
        ["3", "4", "6"], "a==2 || b array-contains 7")
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", isEqualTo: 2), .whereField("b", arrayContainsAny: [0, 3])])),
        ["1", "4", "6"], "a==2 || b array-contains-any [0,3]")
    }
  }

  // QueryEngineTest.QueryWithMultipleInsOnTheSameField
  @Test func queryWithMultipleInsOnTheSameField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try missingFieldDocs(db)
      expectIDs(
        c.whereFilter(.andFilter([.whereField("a", in: [1, 2, 3]), .whereField("a", in: [0, 1, 4])])),
        ["1", "4", "5"], "a in [1,2,3] && a in [0,1,4]")
      expectIDs(
        c.whereFilter(.andFilter([.whereField("a", in: [2, 3]), .whereField("a", in: [0, 1, 4])])), [],
        "a in [2,3] && a in [0,1,4]")
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", in: [0, 3]), .whereField("a", in: [0, 2])])), ["3", "6"],
        "a in [0,3] || a in [0,2]")
    }
  }

  // QueryEngineTest.QueryWithMultipleInsOnDifferentFields
  @Test func queryWithMultipleInsOnDifferentFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try missingFieldDocs(db)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", in: [2, 3]), .whereField("b", in: [0, 2])])), ["1", "3", "6"],
        "a in [2,3] || b in [0,2]")
      expectIDs(
        c.whereFilter(.andFilter([.whereField("a", in: [2, 3]), .whereField("b", in: [0, 2])])), ["3"],
        "a in [2,3] && b in [0,2]")
    }
  }

  // QueryEngineTest.QueryInWithArrayContainsAny
  @Test func queryInWithArrayContainsAny() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try arrayDocs(db)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", in: [2, 3]), .whereField("b", arrayContainsAny: [0, 7])])),
        ["1", "3", "4", "6"], "query1")
      expectIDs(
        c.whereFilter(.andFilter([.whereField("a", in: [2, 3]), .whereField("b", arrayContainsAny: [0, 7])])),
        ["3"], "query2")
      expectIDs(
        c.whereFilter(
          .orFilter([
            .andFilter([.whereField("a", in: [2, 3]), .whereField("c", isEqualTo: 10)]),
            .whereField("b", arrayContainsAny: [0, 7]),
          ])),
        ["1", "3", "4"], "query3")
      expectIDs(
        c.whereFilter(
          .andFilter([
            .whereField("a", in: [2, 3]),
            .orFilter([.whereField("b", arrayContainsAny: [0, 7]), .whereField("c", isEqualTo: 20)]),
          ])),
        ["3", "6"], "query4")
    }
  }

  // QueryEngineTest.QueryInWithArrayContains
  @Test func queryInWithArrayContains() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try arrayDocs(db)
      expectIDs(
        c.whereFilter(.orFilter([.whereField("a", in: [2, 3]), .whereField("b", arrayContains: 3)])),
        ["3", "4", "6"], "query1")
      expectIDs(
        c.whereFilter(.andFilter([.whereField("a", in: [2, 3]), .whereField("b", arrayContains: 7)])), ["3"],
        "query2")
      expectIDs(
        c.whereFilter(
          .orFilter([
            .whereField("a", in: [2, 3]),
            .andFilter([.whereField("b", arrayContains: 3), .whereField("a", isEqualTo: 1)]),
          ])),
        ["3", "4", "6"], "query3")
      expectIDs(
        c.whereFilter(
          .andFilter([
            .whereField("a", in: [2, 3]),
            .orFilter([.whereField("b", arrayContains: 7), .whereField("a", isEqualTo: 1)]),
          ])),
        ["3"], "query4")
    }
  }

  // QueryEngineTest.OrderByEquality
  @Test func orderByEquality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try arrayDocs(db)
      expectIDs(c.whereField("a", isEqualTo: 1).order(by: "a"), ["1", "4", "5"], "a==1 order by a")
      expectIDs(c.whereField("a", in: [2, 3]).order(by: "a"), ["6", "3"], "a in [2,3] order by a")
    }
  }
}

// Firestore's index manager unit tests (Firestore/core/test/unit/local/leveldb_index_manager_test.cc,
// LevelDbIndexManagerTest.*): documents and queries whose results Firestore checks against
// its client-side indexes (AdvancedQueries: against results from the server). The index
// declarations are not ported (Hearth runs every valid query). Firestore compares the keys
// in index-scan order; the port expects them in query order (the normalised order-by), which
// is the same except where noted.
// Left out: IndexVectorValueFields (vector values; docs/semantics.md has no vector type),
// AddsDocuments (no query), and the index bookkeeping tests (CreateReadFieldsIndexes,
// PersistsIndexOffset, IndexTypeForOrQueries, ...).
@Suite("Firestore port: index manager query results")
struct FirestorePortIndexManagerQueryTests {

  private func singleValue(_ db: Database) throws -> CollectionReference {
    try seed(db.collection("coll"), ["val1": ["count": 1], "val2": ["count": 2], "val3": ["count": 3]])
  }

  private func arrayValue(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("coll"),
      ["arr1": ["values": [1, 2, 3]], "arr2": ["values": [4, 5, 6]], "arr3": ["values": [7, 8, 9]]])
  }

  private func multipleOrderBys(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("coll"),
      [
        "val1": ["a": 1, "b": 1, "c": 3], "val2": ["a": 2, "b": 2, "c": 2], "val3": ["a": 2, "b": 2, "c": 3],
        "val4": ["a": 2, "b": 2, "c": 4], "val5": ["a": 2, "b": 2, "c": 5], "val6": ["a": 3, "b": 3, "c": 6],
      ])
  }

  // LevelDbIndexManagerTest.OrderByFilter
  @Test func orderByFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["val1": ["count": 1], "val2": ["not-count": 2], "val3": ["count": 3]])
      expectIDs(c.order(by: "count"), ["val1", "val3"])
    }
  }

  // LevelDbIndexManagerTest.OrderByKeyFilter
  @Test func orderByKeyFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["val1": ["count": 1], "val2": ["count": 1], "val3": ["count": 3]])
      expectIDs(c.order(by: "count"), ["val1", "val2", "val3"], "ASC")
      expectIDs(c.order(by: "count", descending: true), ["val3", "val2", "val1"], "DESC")
    }
  }

  // LevelDbIndexManagerTest.AscendingOrderWithLessThanFilter
  @Test func ascendingOrderWithLessThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try multipleOrderBys(db)
      let original = c.whereField("a", isEqualTo: 2).whereField("b", isEqualTo: 2).whereField("c", isLessThan: 5)
        .order(by: "c")
      expectIDs(original, ["val2", "val3", "val4"], "original")
      expectIDs(original.start(after: [1]).end(before: [6]), ["val2", "val3", "val4"], "non-restricted bound")
      expectIDs(original.start(after: [2]).end(before: [4]), ["val3"], "restricted bound")
    }
  }

  // LevelDbIndexManagerTest.DescendingOrderWithLessThanFilter
  @Test func descendingOrderWithLessThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try multipleOrderBys(db)
      let original = c.whereField("a", isEqualTo: 2).whereField("b", isEqualTo: 2).whereField("c", isLessThan: 5)
        .order(by: "c", descending: true)
      expectIDs(original, ["val4", "val3", "val2"], "original")
      expectIDs(original.start(after: [6]).end(before: [1]), ["val4", "val3", "val2"], "non-restricted bound")
      expectIDs(original.start(after: [4]).end(before: [2]), ["val3"], "restricted bound")
    }
  }

  // LevelDbIndexManagerTest.AscendingOrderWithGreaterThanFilter
  @Test func ascendingOrderWithGreaterThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try multipleOrderBys(db)
      let original = c.whereField("a", isEqualTo: 2).whereField("b", isEqualTo: 2).whereField("c", isGreaterThan: 2)
        .order(by: "c")
      expectIDs(original, ["val3", "val4", "val5"], "original")
      expectIDs(original.start(after: [2]).end(before: [6]), ["val3", "val4", "val5"], "non-restricted bound")
      expectIDs(original.start(after: [3]).end(before: [5]), ["val4"], "restricted bound")
    }
  }

  // LevelDbIndexManagerTest.DescendingOrderWithGreaterThanFilter
  @Test func descendingOrderWithGreaterThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try multipleOrderBys(db)
      let original = c.whereField("a", isEqualTo: 2).whereField("b", isEqualTo: 2).whereField("c", isGreaterThan: 2)
        .order(by: "c", descending: true)
      expectIDs(original, ["val5", "val4", "val3"], "original")
      expectIDs(original.start(after: [6]).end(before: [2]), ["val5", "val4", "val3"], "non-restricted bound")
      expectIDs(original.start(after: [5]).end(before: [3]), ["val4"], "restricted bound")
    }
  }

  // LevelDbIndexManagerTest.CursorCannotExpandResult
  @Test func cursorCannotExpandResult() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["val1": ["a": 1, "b": 1, "c": 3], "val2": ["a": 2, "b": 2, "c": 2]])
      expectIDs(c.whereField("c", isGreaterThan: 2).order(by: "c").start(at: [2]), ["val1"], "c > 2, start at 2")
      expectIDs(
        c.whereField("c", isLessThan: 3).order(by: "c", descending: true).start(at: [3]), ["val2"],
        "c < 3 desc, start at 3")
    }
  }

  // LevelDbIndexManagerTest.FiltersOnTheSameField
  @Test func filtersOnTheSameField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        ["val1": ["a": 1, "b": 1], "val2": ["a": 2, "b": 2], "val3": ["a": 3, "b": 3], "val4": ["a": 4, "b": 4]])
      expectIDs(c.whereField("a", isGreaterThan: 1).whereField("a", isEqualTo: 2), ["val2"], "a > 1, a == 2")
      expectIDs(c.whereField("a", isLessThanOrEqualTo: 1).whereField("a", isEqualTo: 2), [], "a <= 1, a == 2")
      expectIDs(
        c.whereField("a", isGreaterThan: 1).whereField("a", isEqualTo: 2).order(by: "a"), ["val2"],
        "a > 1, a == 2, order by a")
      expectIDs(
        c.whereField("a", isGreaterThan: 1).whereField("a", isEqualTo: 2).order(by: "a")
          .order(by: FieldPath.documentID(), descending: true),
        ["val2"], "a > 1, a == 2, order by a, __name__ desc")
      expectIDs(
        c.whereField("a", isGreaterThan: 1).whereField("a", isEqualTo: 3).order(by: "a").order(
          by: "b", descending: true),
        ["val3"], "a > 1, a == 3, order by a, b desc")
    }
  }

  // LevelDbIndexManagerTest.EqualityFilter
  @Test func equalityFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isEqualTo: 2), ["val2"])
    }
  }

  // LevelDbIndexManagerTest.OrderByWithNotEqualsFilter
  @Test func orderByWithNotEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["val1": ["count": 1], "val2": ["count": 2]])
      expectIDs(c.whereField("count", isNotEqualTo: 2).order(by: "count"), ["val1"])
    }
  }

  // LevelDbIndexManagerTest.NestedFieldEqualityFilter
  @Test func nestedFieldEqualityFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["doc1": ["a": ["b": 1]], "doc2": ["a": ["b": 2]]])
      expectIDs(c.whereField("a.b", isEqualTo: 2), ["doc2"])
    }
  }

  // LevelDbIndexManagerTest.NotEqualsFilter
  @Test func notEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isNotEqualTo: 2), ["val1", "val3"])
    }
  }

  // LevelDbIndexManagerTest.EqualsWithNotEqualsFilter
  @Test func equalsWithNotEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        ["val1": ["a": 1, "b": 1], "val2": ["a": 1, "b": 2], "val3": ["a": 2, "b": 1], "val4": ["a": 2, "b": 2]])
      expectIDs(c.whereField("a", isEqualTo: 1).whereField("b", isNotEqualTo: 1), ["val2"], "equal then not-equal")
      expectIDs(c.whereField("b", isNotEqualTo: 1).whereField("a", isEqualTo: 1), ["val2"], "not-equal then equal")
    }
  }

  // LevelDbIndexManagerTest.EqualsWithNotEqualsFilterSameField
  @Test func equalsWithNotEqualsFilterSameField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try singleValue(db)
      expectIDs(c.whereField("count", isGreaterThan: 1).whereField("count", isNotEqualTo: 2), ["val3"], "> then !=")
      expectIDs(c.whereField("count", isEqualTo: 1).whereField("count", isNotEqualTo: 2), ["val1"], "== then !=")
      expectIDs(
        c.whereField("count", isEqualTo: 1).whereField("count", isNotEqualTo: 1), [], "== then != on same value")
    }
  }

  // LevelDbIndexManagerTest.LessThanFilter
  @Test func lessThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isLessThan: 2), ["val1"])
    }
  }

  // LevelDbIndexManagerTest.LessThanOrEqualsFilter
  @Test func lessThanOrEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isLessThanOrEqualTo: 2), ["val1", "val2"])
    }
  }

  // LevelDbIndexManagerTest.GreaterThanOrEqualsFilter
  @Test func greaterThanOrEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isGreaterThanOrEqualTo: 2), ["val2", "val3"])
    }
  }

  // LevelDbIndexManagerTest.GreaterThanFilter
  @Test func greaterThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isGreaterThan: 2), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.RangeFilter
  @Test func rangeFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isGreaterThan: 1).whereField("count", isLessThan: 3), ["val2"])
    }
  }

  // LevelDbIndexManagerTest.StartAtFilter
  @Test func startAtFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).order(by: "count").start(at: [2]), ["val2", "val3"])
    }
  }

  // LevelDbIndexManagerTest.AppliesStartAtFilterWithNotIn
  @Test func appliesStartAtFilterWithNotIn() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(
        try singleValue(db).whereField("count", isNotEqualTo: 2).order(by: "count").start(at: [2]), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.StartAfterFilter
  @Test func startAfterFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).order(by: "count").start(after: [2]), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.EndAtFilter
  @Test func endAtFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).order(by: "count").end(at: [2]), ["val1", "val2"])
    }
  }

  // LevelDbIndexManagerTest.EndBeforeFilter
  @Test func endBeforeFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).order(by: "count").end(before: [2]), ["val1"])
    }
  }

  // LevelDbIndexManagerTest.RangeWithBoundFilter
  @Test func rangeWithBoundFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(
        try singleValue(db).whereField("count", isGreaterThanOrEqualTo: 1).whereField("count", isLessThanOrEqualTo: 3)
          .order(by: "count").start(after: [1]).end(at: [2]),
        ["val2"])
    }
  }

  // LevelDbIndexManagerTest.InFilter
  @Test func inFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", in: [1, 3]), ["val1", "val3"])
    }
  }

  // LevelDbIndexManagerTest.NotInFilter
  @Test func notInFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", notIn: [1, 2]), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.NotInWithGreaterThanFilter
  @Test func notInWithGreaterThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isGreaterThan: 1).whereField("count", notIn: [2]), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.OutOfBoundsNotInWithGreaterThanFilter
  @Test func outOfBoundsNotInWithGreaterThanFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isGreaterThan: 2).whereField("count", notIn: [1]), ["val3"])
    }
  }

  // LevelDbIndexManagerTest.ArrayContainsFilter
  @Test func arrayContainsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try arrayValue(db).whereField("values", arrayContains: 1), ["arr1"])
    }
  }

  // LevelDbIndexManagerTest.ArrayContainsWithNotEqualsFilter
  @Test func arrayContainsWithNotEqualsFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        [
          "val1": ["a": [1], "b": 1], "val2": ["a": [1], "b": 2], "val3": ["a": [2], "b": 1],
          "val4": ["a": [2], "b": 2],
        ])
      expectIDs(c.whereField("a", arrayContains: 1).whereField("b", isNotEqualTo: 1), ["val2"])
    }
  }

  // LevelDbIndexManagerTest.TestArrayContainsWithNotEqualsFilterOnSameField
  @Test func testArrayContainsWithNotEqualsFilterOnSameField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        ["val1": ["a": [1, 1]], "val2": ["a": [1, 2]], "val3": ["a": [2, 1]], "val4": ["a": [2, 2]]])
      expectIDs(c.whereField("a", arrayContains: 1).whereField("a", isNotEqualTo: [1, 2]), ["val1", "val3"])
    }
  }

  // LevelDbIndexManagerTest.EqualsWithNotEqualsOnSameField
  @Test func equalsWithNotEqualsOnSameField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try singleValue(db)
      let cases: [([Filter], [String])] = [
        ([.whereField("count", isGreaterThan: 1), .whereField("count", isNotEqualTo: 2)], ["val3"]),
        ([.whereField("count", isEqualTo: 1), .whereField("count", isNotEqualTo: 2)], ["val1"]),
        ([.whereField("count", isEqualTo: 1), .whereField("count", isNotEqualTo: 1)], []),
        ([.whereField("count", isGreaterThan: 2), .whereField("count", isNotEqualTo: 2)], ["val3"]),
        ([.whereField("count", isGreaterThanOrEqualTo: 2), .whereField("count", isNotEqualTo: 2)], ["val3"]),
        ([.whereField("count", isLessThanOrEqualTo: 2), .whereField("count", isNotEqualTo: 2)], ["val1"]),
        ([.whereField("count", isLessThanOrEqualTo: 2), .whereField("count", isNotEqualTo: 1)], ["val2"]),
        ([.whereField("count", isLessThan: 2), .whereField("count", isNotEqualTo: 2)], ["val1"]),
        ([.whereField("count", isLessThan: 2), .whereField("count", isNotEqualTo: 1)], []),
        ([.whereField("count", isGreaterThan: 2), .whereField("count", notIn: [3])], []),
        ([.whereField("count", isGreaterThanOrEqualTo: 2), .whereField("count", notIn: [3])], ["val2"]),
        ([.whereField("count", isGreaterThanOrEqualTo: 2), .whereField("count", notIn: [3, 3])], ["val2"]),
        (
          [
            .whereField("count", isGreaterThan: 1), .whereField("count", isLessThan: 3),
            .whereField("count", isNotEqualTo: 2),
          ], []
        ),
        (
          [
            .whereField("count", isGreaterThanOrEqualTo: 1), .whereField("count", isLessThan: 3),
            .whereField("count", isNotEqualTo: 2),
          ], ["val1"]
        ),
        (
          [
            .whereField("count", isGreaterThanOrEqualTo: 1), .whereField("count", isLessThanOrEqualTo: 3),
            .whereField("count", isNotEqualTo: 2),
          ], ["val1", "val3"]
        ),
        (
          [
            .whereField("count", isGreaterThan: 1), .whereField("count", isLessThanOrEqualTo: 3),
            .whereField("count", isNotEqualTo: 2),
          ], ["val3"]
        ),
      ]
      for (i, (filters, expected)) in cases.enumerated() {
        var query: Query = c
        for filter in filters { query = query.whereFilter(filter) }
        expectIDs(query, expected, "case#\(i)")
      }
    }
  }

  // LevelDbIndexManagerTest.ArrayContainsAnyFilter
  @Test func arrayContainsAnyFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try arrayValue(db).whereField("values", arrayContainsAny: [1, 2, 4]), ["arr1", "arr2"])
    }
  }

  // LevelDbIndexManagerTest.ArrayContainsDoesNotMatchNonArray
  @Test func arrayContainsDoesNotMatchNonArray() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try arrayValue(db)
      _ = try singleValue(db)
      try seed(c, ["nonmatching": ["values": 1]])
      expectIDs(c.whereField("values", arrayContainsAny: [1]), ["arr1"])
    }
  }

  // LevelDbIndexManagerTest.NoMatchingFilter (Firestore has no index for it; the query still
  // runs and matches nothing)
  @Test func noMatchingFilter() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("unknown", isEqualTo: true), [])
    }
  }

  // LevelDbIndexManagerTest.NoMatchingDocs
  @Test func noMatchingDocs() throws {
    try withDatabase(settings: relaxed) { db in
      expectIDs(try singleValue(db).whereField("count", isEqualTo: -1), [])
    }
  }

  // LevelDbIndexManagerTest.EqualityFilterWithNonMatchingType
  @Test func equalityFilterWithNonMatchingType() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"), ["boolean": ["value": true], "string": ["value": "true"], "number": ["value": 1]])
      expectIDs(c.whereField("value", isEqualTo: true), ["boolean"])
    }
  }

  // LevelDbIndexManagerTest.CollectionGroup
  @Test func collectionGroup() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "coll1/doc1": ["value": true], "coll2/doc2/coll1/doc1": ["value": true], "coll2/doc2": ["value": true],
        ])
      expectPaths(
        db.collectionGroup("coll1").whereField("value", isEqualTo: true), ["coll1/doc1", "coll2/doc2/coll1/doc1"])
    }
  }

  // LevelDbIndexManagerTest.LimitFilter
  @Test func limitFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("coll"), ["doc1": ["value": 1], "doc2": ["value": 1], "doc3": ["value": 1]])
      expectIDs(c.whereField("value", isEqualTo: 1).limit(to: 2), ["doc1", "doc2"])
    }
  }

  // LevelDbIndexManagerTest.LimitAppliesOrdering
  @Test func limitAppliesOrdering() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("coll"),
        [
          "doc1": ["value": [1, "foo"] as [Any]], "doc2": ["value": [3, "foo"] as [Any]],
          "doc3": ["value": [2, "foo"] as [Any]],
        ])
      expectIDs(c.whereField("value", arrayContains: "foo").order(by: "value").limit(to: 2), ["doc1", "doc3"])
    }
  }

  // LevelDbIndexManagerTest.IndexEntriesAreUpdated
  @Test func indexEntriesAreUpdated() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("coll")
      let query = c.order(by: "value")
      try seed(c, ["doc1": ["value": true]])
      expectIDs(query, ["doc1"], "with doc1")
      try seed(c, ["doc1": [:], "doc2": ["value": true]])
      expectIDs(query, ["doc2"], "with doc1 (non-matching) and doc2")
    }
  }

  // LevelDbIndexManagerTest.IndexEntriesAreUpdatedWithDeletedDoc
  @Test func indexEntriesAreUpdatedWithDeletedDoc() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("coll")
      let query = c.order(by: "value")
      try seed(c, ["doc1": ["value": true]])
      expectIDs(query, ["doc1"], "with doc1")
      try c.document("doc1").delete()
      expectIDs(query, [], "with deleted doc1")
    }
  }

  // LevelDbIndexManagerTest.AdvancedQueries (Firestore checked these results against the
  // Java server SDK). Document IDs are Firestore's canonical IDs of the data. Firestore lists
  // `multi in [true, 1]` in index order ({multi:true} first); a query with no inequality is
  // ordered by key, so the port expects {multi:1} first.
  @Test func advancedQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let data: [(String, [String: Any])] = [
        ("{}", [:]),
        ("{array:[1,foo],int:1}", ["array": [1, "foo"] as [Any], "int": 1]),
        ("{array:[2,foo]}", ["array": [2, "foo"] as [Any]]),
        ("{array:[3,foo],int:3}", ["array": [3, "foo"] as [Any], "int": 3]),
        ("{array:foo}", ["array": "foo"]),
        ("{array:[1]}", ["array": [1]]),
        ("{float:-0.0,string:a}", ["float": -0.0, "string": "a"]),
        ("{float:0,string:ab}", ["float": 0, "string": "ab"]),
        ("{float:0.0,string:b}", ["float": 0.0, "string": "b"]),
        ("{float:nan}", ["float": Double.nan]),
        ("{multi:true}", ["multi": true]),
        ("{multi:1}", ["multi": 1]),
        ("{multi:string}", ["multi": "string"]),
        ("{multi:[]}", ["multi": [Any]()]),
        ("{null:null}", ["null": NSNull()]),
        ("{prefix:[1,2],suffix:null}", ["prefix": [1, 2], "suffix": NSNull()]),
        ("{prefix:[1],suffix:2}", ["prefix": [1], "suffix": 2]),
        ("{map:{}}", ["map": [String: Any]()]),
        ("{map:{field:true}}", ["map": ["field": true]]),
        ("{map:{field:false}}", ["map": ["field": false]]),
        ("{a:0,b:0}", ["a": 0, "b": 0]),
        ("{a:0,b:1}", ["a": 0, "b": 1]),
        ("{a:1,b:0}", ["a": 1, "b": 0]),
        ("{a:1,b:1}", ["a": 1, "b": 1]),
        ("{a:2,b:0}", ["a": 2, "b": 0]),
        ("{a:2,b:1}", ["a": 2, "b": 1]),
      ]
      let q = try seed(db.collection("coll"), Dictionary(uniqueKeysWithValues: data))
      let floats = ["{float:-0.0,string:a}", "{float:0,string:ab}", "{float:0.0,string:b}"]
      let cases: [(Query, [String], String)] = [
        (q.order(by: "int"), ["{array:[1,foo],int:1}", "{array:[3,foo],int:3}"], "order by int"),
        (q.whereField("float", isEqualTo: Double.nan), ["{float:nan}"], "float == NaN"),
        (q.whereField("float", isEqualTo: -0.0), floats, "float == -0.0"),
        (q.whereField("float", isEqualTo: 0), floats, "float == 0"),
        (q.whereField("float", isEqualTo: 0.0), floats, "float == 0.0"),
        (q.whereField("string", isEqualTo: "a"), ["{float:-0.0,string:a}"], "string == a"),
        (q.whereField("string", isGreaterThan: "a"), ["{float:0,string:ab}", "{float:0.0,string:b}"], "string > a"),
        (q.whereField("string", isGreaterThanOrEqualTo: "a"), floats, "string >= a"),
        (q.whereField("string", isLessThan: "b"), ["{float:-0.0,string:a}", "{float:0,string:ab}"], "string < b"),
        (q.whereField("string", isLessThan: "coll"), floats, "string < coll"),
        (
          q.whereField("string", isGreaterThan: "a").whereField("string", isLessThan: "b"), ["{float:0,string:ab}"],
          "a < string < b"
        ),
        (
          q.whereField("array", arrayContains: "foo"),
          ["{array:[1,foo],int:1}", "{array:[2,foo]}", "{array:[3,foo],int:3}"], "array array-contains foo"
        ),
        (
          q.whereField("array", arrayContainsAny: [1, "foo"]),
          ["{array:[1,foo],int:1}", "{array:[1]}", "{array:[2,foo]}", "{array:[3,foo],int:3}"],
          "array array-contains-any [1, foo]"
        ),
        (q.whereField("multi", isGreaterThanOrEqualTo: true), ["{multi:true}"], "multi >= true"),
        (q.whereField("multi", isGreaterThanOrEqualTo: 0), ["{multi:1}"], "multi >= 0"),
        (q.whereField("multi", isGreaterThanOrEqualTo: ""), ["{multi:string}"], "multi >= ''"),
        (q.whereField("multi", isGreaterThanOrEqualTo: [Any]()), ["{multi:[]}"], "multi >= []"),
        (
          q.whereField("multi", isNotEqualTo: true), ["{multi:1}", "{multi:string}", "{multi:[]}"], "multi != true"
        ),
        (q.whereField("multi", in: [true, 1]), ["{multi:1}", "{multi:true}"], "multi in [true, 1]"),
        (q.whereField("multi", notIn: [true, 1]), ["{multi:string}", "{multi:[]}"], "multi not-in [true, 1]"),
        (
          q.order(by: "array").start(at: [[2]]), ["{array:[2,foo]}", "{array:[3,foo],int:3}"],
          "order by array, start at [2]"
        ),
        (
          q.order(by: "array", descending: true).start(at: [[2]]),
          ["{array:[1,foo],int:1}", "{array:[1]}", "{array:foo}"], "order by array desc, start at [2]"
        ),
        (
          q.order(by: "array", descending: true).start(at: [[2]]).limit(to: 2),
          ["{array:[1,foo],int:1}", "{array:[1]}"],
          "order by array desc, start at [2], limit 2"
        ),
        (
          q.order(by: "array").start(after: [[2]]), ["{array:[2,foo]}", "{array:[3,foo],int:3}"],
          "order by array, start after [2]"
        ),
        (
          q.order(by: "array", descending: true).start(after: [[2]]),
          ["{array:[1,foo],int:1}", "{array:[1]}", "{array:foo}"], "order by array desc, start after [2]"
        ),
        (
          q.order(by: "array", descending: true).start(after: [[2]]).limit(to: 2),
          ["{array:[1,foo],int:1}", "{array:[1]}"], "order by array desc, start after [2], limit 2"
        ),
        (
          q.order(by: "array").start(after: [[2, "foo"] as [Any]]), ["{array:[3,foo],int:3}"],
          "order by array, start after [2, foo]"
        ),
        (
          q.order(by: "array", descending: true).start(after: [[2, "foo"] as [Any]]),
          ["{array:[1,foo],int:1}", "{array:[1]}", "{array:foo}"], "order by array desc, start after [2, foo]"
        ),
        (
          q.order(by: "array", descending: true).start(after: [[2, "foo"] as [Any]]).limit(to: 2),
          ["{array:[1,foo],int:1}", "{array:[1]}"], "order by array desc, start after [2, foo], limit 2"
        ),
        (
          q.order(by: "array").end(at: [[2]]), ["{array:foo}", "{array:[1]}", "{array:[1,foo],int:1}"],
          "order by array, end at [2]"
        ),
        (
          q.order(by: "array", descending: true).end(at: [[2]]), ["{array:[3,foo],int:3}", "{array:[2,foo]}"],
          "order by array desc, end at [2]"
        ),
        (
          q.order(by: "array").end(before: [[2]]), ["{array:foo}", "{array:[1]}", "{array:[1,foo],int:1}"],
          "order by array, end before [2]"
        ),
        (
          q.order(by: "array").end(before: [[2]]).limit(to: 2), ["{array:foo}", "{array:[1]}"],
          "order by array, end before [2], limit 2"
        ),
        (
          q.order(by: "array", descending: true).end(before: [[2]]), ["{array:[3,foo],int:3}", "{array:[2,foo]}"],
          "order by array desc, end before [2]"
        ),
        (
          q.order(by: "array").end(before: [[2, "foo"] as [Any]]),
          ["{array:foo}", "{array:[1]}", "{array:[1,foo],int:1}"],
          "order by array, end before [2, foo]"
        ),
        (
          q.order(by: "array").end(before: [[2, "foo"] as [Any]]).limit(to: 2), ["{array:foo}", "{array:[1]}"],
          "order by array, end before [2, foo], limit 2"
        ),
        (
          q.order(by: "array", descending: true).end(before: [[2, "foo"] as [Any]]), ["{array:[3,foo],int:3}"],
          "order by array desc, end before [2, foo]"
        ),
        (q.order(by: "a").order(by: "b").limit(to: 1), ["{a:0,b:0}"], "a asc, b asc, limit 1"),
        (q.order(by: "a", descending: true).order(by: "b").limit(to: 1), ["{a:2,b:0}"], "a desc, b asc, limit 1"),
        (q.order(by: "a").order(by: "b", descending: true).limit(to: 1), ["{a:0,b:1}"], "a asc, b desc, limit 1"),
        (
          q.order(by: "a", descending: true).order(by: "b", descending: true).limit(to: 1), ["{a:2,b:1}"],
          "a desc, b desc, limit 1"
        ),
        (
          q.whereField("a", isGreaterThan: 0).whereField("b", isEqualTo: 1), ["{a:1,b:1}", "{a:2,b:1}"],
          "a > 0, b == 1"
        ),
        (q.whereField("a", isEqualTo: 1).whereField("b", isEqualTo: 1), ["{a:1,b:1}"], "a == 1, b == 1"),
        (
          q.whereField("a", isNotEqualTo: 0).whereField("b", isEqualTo: 1), ["{a:1,b:1}", "{a:2,b:1}"],
          "a != 0, b == 1"
        ),
        (
          q.whereField("b", isEqualTo: 1).whereField("a", isNotEqualTo: 0), ["{a:1,b:1}", "{a:2,b:1}"],
          "b == 1, a != 0"
        ),
        (q.whereField("a", notIn: [0, 1]), ["{a:2,b:0}", "{a:2,b:1}"], "a not-in [0, 1]"),
        (q.whereField("a", notIn: [0, 1]).whereField("b", isEqualTo: 1), ["{a:2,b:1}"], "a not-in [0, 1], b == 1"),
        (q.whereField("b", isEqualTo: 1).whereField("a", notIn: [0, 1]), ["{a:2,b:1}"], "b == 1, a not-in [0, 1]"),
        (q.whereField("null", isEqualTo: NSNull()), ["{null:null}"], "null == null"),
        (q.order(by: "null"), ["{null:null}"], "order by null"),
        (q.whereField("prefix", isEqualTo: [1, 2]), ["{prefix:[1,2],suffix:null}"], "prefix == [1, 2]"),
        (
          q.whereField("prefix", isEqualTo: [1]).whereField("suffix", isEqualTo: 2), ["{prefix:[1],suffix:2}"],
          "prefix == [1], suffix == 2"
        ),
        (q.whereField("map", isEqualTo: [String: Any]()), ["{map:{}}"], "map == {}"),
        (q.whereField("map", isEqualTo: ["field": true]), ["{map:{field:true}}"], "map == {field: true}"),
        (q.whereField("map.field", isEqualTo: true), ["{map:{field:true}}"], "map.field == true"),
        (q.order(by: "map"), ["{map:{}}", "{map:{field:false}}", "{map:{field:true}}"], "order by map"),
        (q.order(by: "map.field"), ["{map:{field:false}}", "{map:{field:true}}"], "order by map.field"),
      ]
      for (i, (query, expected, label)) in cases.enumerated() {
        expectIDs(query, expected, "case#\(i): \(label)")
      }
    }
  }
}
