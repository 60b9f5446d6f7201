import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's query validation tests, ported case by case: the "Query Validation" section of
// FIRValidationTests.mm and the rejection cases of FIRCompositeIndexQueryTests.mm. Firestore
// throws while the query is built; Hearth may report invalidArgument then or when the query
// runs, so each invalid query is run. Message fragments are Firestore's own wording.

@Suite("Firestore port: query validation")
struct FirestorePortValidationTests {

  /// Checks that the query runs without an error (Firestore's XCTAssertNoThrow on building).
  private func expectValid(
    _ query: Query, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try query.getDocuments()
    } catch {
      Issue.record("\(comment): expected a valid query, got \(error)", sourceLocation: sourceLocation)
    }
  }

  // FIRValidationTests.testArrayTransformsInQueriesFail
  @Test func testArrayTransformsInQueriesFail() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      expectInvalidQuery(
        c.whereField("test", isEqualTo: ["test": FieldValue.arrayUnion([1])]),
        mentioning: ["FieldValue.arrayUnion() can only be used with updateData() and setData()", "test"])
      expectInvalidQuery(
        c.whereField("test", isEqualTo: ["test": FieldValue.arrayRemove([1])]),
        mentioning: ["FieldValue.arrayRemove() can only be used with updateData() and setData()", "test"])
    }
  }

  // FIRValidationTests.testQueryWithNonPositiveLimitFails
  @Test func testQueryWithNonPositiveLimitFails() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      expectInvalidQuery(c.limit(to: 0), mentioning: ["Query limit (0) is invalid", "Limit must be positive"])
      expectInvalidQuery(c.limit(to: -1), mentioning: ["Query limit (-1) is invalid", "Limit must be positive"])
      expectInvalidQuery(c.limit(toLast: 0), mentioning: ["Query limit (0) is invalid", "Limit must be positive"])
      expectInvalidQuery(c.limit(toLast: -1), mentioning: ["Query limit (-1) is invalid", "Limit must be positive"])
    }
  }

  // FIRValidationTests.testQueryCannotBeCreatedFromDocumentsMissingSortValues
  @Test func testQueryCannotBeCreatedFromDocumentsMissingSortValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("c"), ["f": ["v": "f", "nosort": 1.0]])
      let query = c.order(by: "sort")
      let snapshot = try c.document("f").getDocument()
      #expect(snapshot.exists)
      let reason = "field 'sort' (used as the order by) does not exist"
      expectInvalidQuery(query.start(atDocument: snapshot), mentioning: [reason])
      expectInvalidQuery(query.start(afterDocument: snapshot), mentioning: [reason])
      expectInvalidQuery(query.end(beforeDocument: snapshot), mentioning: [reason])
      expectInvalidQuery(query.end(atDocument: snapshot), mentioning: [reason])
    }
  }

  // FIRValidationTests.testQueryBoundMustNotHaveMoreComponentsThanSortOrders
  @Test func testQueryBoundMustNotHaveMoreComponentsThanSortOrders() throws {
    try withDatabase(settings: relaxed) { db in
      let query = db.collection("c").order(by: "foo")
      let reason = "more values than were specified in the order by"
      expectInvalidQuery(query.start(at: [1, 2]), mentioning: [reason])
      expectInvalidQuery(query.order(by: "bar").start(at: [1, 2, 3]), mentioning: [reason])
    }
  }

  // FIRValidationTests.testQueryOrderedByKeyBoundMustBeAStringWithoutSlashes
  @Test func testQueryOrderedByKeyBoundMustBeAStringWithoutSlashes() throws {
    try withDatabase(settings: relaxed) { db in
      let query = db.collection("collection").order(by: FieldPath.documentID())
      let cgQuery = db.collectionGroup("collection").order(by: FieldPath.documentID())
      expectInvalidQuery(query.start(at: [1]), mentioning: ["Expected a string for the document ID"])
      expectInvalidQuery(
        query.start(at: ["foo/bar"]), mentioning: ["you must pass a plain document ID", "'foo/bar' contains a slash"])
      expectInvalidQuery(
        cgQuery.start(at: ["foo"]), mentioning: ["collection group", "'foo'", "odd number of segments"])
    }
  }

  // FIRValidationTests.testQueryMustNotSpecifyStartingOrEndingPointAfterOrder
  @Test func testQueryMustNotSpecifyStartingOrEndingPointAfterOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let query = db.collection("c").order(by: "foo")
      let start = "You must not specify a starting point before specifying the order by"
      expectInvalidQuery(query.start(at: [1]).order(by: "bar"), mentioning: [start])
      expectInvalidQuery(query.start(after: [1]).order(by: "bar"), mentioning: [start])
      let end = "You must not specify an ending point before specifying the order by"
      expectInvalidQuery(query.end(at: [1]).order(by: "bar"), mentioning: [end])
      expectInvalidQuery(query.end(before: [1]).order(by: "bar"), mentioning: [end])
    }
  }

  // FIRValidationTests.testQueriesFilteredByDocumentIdMustUseStringsOrDocumentReferences
  @Test func testQueriesFilteredByDocumentIdMustUseStringsOrDocumentReferences() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      let id = FieldPath.documentID()
      expectInvalidQuery(
        c.whereField(id, isEqualTo: ""),
        mentioning: ["you must provide a valid document ID, but it was an empty string"])
      expectInvalidQuery(
        c.whereField(id, isEqualTo: "foo/bar/baz"),
        mentioning: ["you must provide a plain document ID", "'foo/bar/baz' contains a '/' character"])
      expectInvalidQuery(
        c.whereField(id, isEqualTo: 1),
        mentioning: ["When querying by document ID you must provide a valid string or DocumentReference"])
      expectInvalidQuery(
        db.collectionGroup("collection").whereField(id, isEqualTo: "foo/bar/baz"),
        mentioning: ["collection group", "'foo/bar/baz'", "odd number of segments"])
      expectInvalidQuery(
        c.whereField(id, arrayContains: 1),
        mentioning: ["You can't perform arrayContains queries on document ID since document IDs are not arrays"])
    }
  }

  // FIRValidationTests.testQueriesUsingInAndDocumentIdMustHaveProperDocumentReferencesInArray
  @Test func testQueriesUsingInAndDocumentIdMustHaveProperDocumentReferencesInArray() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      let id = FieldPath.documentID()
      expectInvalidQuery(
        c.whereField(id, in: [""]), mentioning: ["you must provide a valid document ID, but it was an empty string"])
      expectInvalidQuery(
        c.whereField(id, in: ["foo/bar/baz"]),
        mentioning: ["you must provide a plain document ID", "'foo/bar/baz' contains a '/' character"])
      expectInvalidQuery(
        c.whereField(id, in: [1, 2]),
        mentioning: ["When querying by document ID you must provide a valid string or DocumentReference"])
      expectInvalidQuery(
        db.collectionGroup("collection").whereField(id, in: ["foo"]),
        mentioning: ["collection group", "'foo'", "odd number of segments"])
    }
  }

  // FIRValidationTests.testInvalidQueryFilters
  @Test func testInvalidQueryFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      let array1 = [
        Filter.andFilter([Filter.whereField("a", isEqualTo: "b"), Filter.whereField("c", in: ["d", "e"])]),
        Filter.andFilter([Filter.whereField("e", isEqualTo: "f"), Filter.whereField("g", notIn: ["h", "i"])]),
      ]
      expectInvalidQuery(
        c.whereFilter(Filter.orFilter(array1)), mentioning: ["You cannot use 'notIn' filters with 'in' filters"])
      let array2 = [
        Filter.andFilter([Filter.whereField("a", isEqualTo: "b"), Filter.whereField("c", isNotEqualTo: "d")]),
        Filter.andFilter([Filter.whereField("e", isEqualTo: "f"), Filter.whereField("g", notIn: ["h", "i"])]),
      ]
      expectInvalidQuery(
        c.whereFilter(Filter.orFilter(array2)), mentioning: ["You cannot use 'notIn' filters with 'notEqual' filters"])
      let array3 = [
        Filter.andFilter([Filter.whereField("a", isEqualTo: "b"), Filter.whereField("c", notIn: ["d", "e"])]),
        Filter.andFilter([Filter.whereField("e", isEqualTo: "f"), Filter.whereField("g", notIn: ["h", "i"])]),
      ]
      expectInvalidQuery(
        c.whereFilter(Filter.orFilter(array3)), mentioning: ["You cannot use more than one 'notIn' filter"])
      let array4 = [
        Filter.andFilter([Filter.whereField("a", isEqualTo: "b"), Filter.whereField("c", isNotEqualTo: "d")]),
        Filter.andFilter([Filter.whereField("e", isEqualTo: "f"), Filter.whereField("g", isNotEqualTo: "h")]),
      ]
      expectInvalidQuery(
        c.whereFilter(Filter.orFilter(array4)), mentioning: ["You cannot use more than one 'notEqual' filter"])
    }
  }

  // FIRValidationTests.testQueryInequalityFieldWithMultipleOrderByFields
  @Test func testQueryInequalityFieldWithMultipleOrderByFields() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("collection")
      let base = coll.whereField("x", isGreaterThanOrEqualTo: 32)
      expectValid(base.whereField("y", isLessThan: "cat"), "inequalities on two fields")
      expectValid(base.order(by: "y"), "inequality then another order by")
      expectValid(coll.order(by: "y").whereField("x", isGreaterThan: 32), "order by then inequality on another field")
      expectValid(base.order(by: "y").order(by: "x"), "order by y, x")
      expectValid(coll.order(by: "y").order(by: "x").whereField("x", isGreaterThan: 32), "order by y, x then x > 32")
      expectValid(coll.order(by: "y").whereField("x", isNotEqualTo: 32), "order by y then x != 32")
      expectValid(base.whereField("x", isLessThanOrEqualTo: "cat"), "Same inequality fields work")
      expectValid(base.whereField("y", isEqualTo: "cat"), "Inequality and equality on different fields works")
      expectValid(base.whereField("y", arrayContains: "cat"), "Inequality and array_contains on different fields works")
      expectValid(base.whereField("y", arrayContainsAny: ["cat"]), "array-contains-any on different fields works")
      expectValid(base.whereField("y", in: ["cat"]), "IN on different fields works")
      expectValid(base.order(by: "x"), "inequality same as order by works")
      expectValid(coll.order(by: "x").whereField("x", isGreaterThan: 32), "inequality same as order by works")
      expectValid(base.order(by: "x").order(by: "y"), "inequality same as first order by works.")
      expectValid(
        coll.order(by: "x").order(by: "y").whereField("x", isGreaterThan: 32),
        "inequality same as first order by works.")
      expectValid(coll.order(by: "x").whereField("y", isEqualTo: "cat"), "equality different than orderBy works.")
      expectValid(
        coll.order(by: "x").whereField("y", arrayContains: "cat"), "array_contains different than orderBy works.")
    }
  }

  // FIRValidationTests.testQueriesWithNotEqualAndNotInFiltersFail
  @Test func testQueriesWithNotEqualAndNotInFiltersFail() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("collection")
      expectInvalidQuery(
        coll.whereField("foo", notIn: [1]).whereField("foo", isNotEqualTo: 2),
        mentioning: ["You cannot use 'notEqual' filters with 'notIn' filters"])
      expectInvalidQuery(
        coll.whereField("foo", isNotEqualTo: 2).whereField("foo", notIn: [1]),
        mentioning: ["You cannot use 'notIn' filters with 'notEqual' filters"])
    }
  }

  // FIRValidationTests.testQueriesWithMultipleDisjunctiveFiltersFail
  @Test func testQueriesWithMultipleDisjunctiveFiltersFail() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("collection")
      expectInvalidQuery(
        coll.whereField("foo", notIn: [1]).whereField("foo", notIn: [2]),
        mentioning: ["You cannot use more than one 'notIn' filter"])
      expectInvalidQuery(
        coll.whereField("foo", arrayContainsAny: [1]).whereField("foo", notIn: [2]),
        mentioning: ["You cannot use 'notIn' filters with 'arrayContainsAny' filters"])
      expectInvalidQuery(
        coll.whereField("foo", notIn: [1]).whereField("foo", arrayContainsAny: [2]),
        mentioning: ["You cannot use 'arrayContainsAny' filters with 'notIn' filters"])
      expectInvalidQuery(
        coll.whereField("foo", in: [1]).whereField("foo", notIn: [2]),
        mentioning: ["You cannot use 'notIn' filters with 'in' filters"])
      expectInvalidQuery(
        coll.whereField("foo", notIn: [1]).whereField("foo", in: [2]),
        mentioning: ["You cannot use 'in' filters with 'notIn' filters"])
    }
  }

  // FIRValidationTests.testQueriesCanUseInWithArrayContain
  @Test func testQueriesCanUseInWithArrayContain() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("collection")
      expectValid(coll.whereField("foo", arrayContains: 1).whereField("foo", in: [2]), "arrayContains with IN works.")
      expectValid(coll.whereField("foo", in: [1]).whereField("foo", arrayContains: 2), "IN with arrayContains works.")
    }
  }

  // FIRValidationTests.testQueriesInAndArrayContainsAnyArrayRules
  @Test func testQueriesInAndArrayContainsAnyArrayRules() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("collection")
      expectInvalidQuery(coll.whereField("foo", in: []), mentioning: ["A non-empty array is required for 'in' filters"])
      expectInvalidQuery(
        coll.whereField("foo", notIn: []), mentioning: ["A non-empty array is required for 'notIn' filters"])
      expectInvalidQuery(
        coll.whereField("foo", arrayContainsAny: []),
        mentioning: ["A non-empty array is required for 'arrayContainsAny' filters"])
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityRejectsIfDocumentKeyIsNotTheLastOrderByField
  @Test func testMultipleInequalityRejectsIfDocumentKeyIsNotTheLastOrderByField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      expectInvalidQuery(c.whereField("key", isNotEqualTo: 42).order(by: FieldPath.documentID()))
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityRejectsIfDocumentKeyAppearsOnlyInEqualityFilter
  @Test func testMultipleInequalityRejectsIfDocumentKeyAppearsOnlyInEqualityFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      expectInvalidQuery(c.whereField("key", isNotEqualTo: 42).whereField(FieldPath.documentID(), isEqualTo: "doc1"))
    }
  }
}
