import Foundation
import Hearth
import HearthTestSupport
import Testing

// Every rule of docs/semantics.md's "Rejected with invalidArgument" list, one test each (the
// document-ID, cursor and limit rules also have tests beside their features): building
// the query never crashes, running it throws a HearthError(.invalidArgument) whose message
// names the rule, in Firestore's words where Firestore has them (FIRValidationTests.mm,
// core/src/api/query_core.cc, FIRQuery.mm). And the combinations docs/semantics.md allows run.

@Suite("Query validation")
struct QueryValidationTests {

  private func collection(_ db: Database) throws -> CollectionReference {
    try seed(db.collection("collection"), ["doc1": ["x": 1, "y": 2, "foo": [1], "key": 42]])
  }

  @Test func moreThanOneNotEqualIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(
        c.whereField("x", isNotEqualTo: 1).whereField("x", isNotEqualTo: 2), mentioning: ["more than one", "notEqual"])
      expectInvalidQuery(
        c.whereField("x", isNotEqualTo: 1).whereField("y", isNotEqualTo: 2), mentioning: ["notEqual"],
        "on different fields")
      expectInvalidQuery(
        c.whereFilter(
          Filter.andFilter([Filter.whereField("x", isNotEqualTo: 1), Filter.whereField("y", isNotEqualTo: 2)])),
        mentioning: ["notEqual"], "inside an AND")
    }
  }

  @Test func notEqualWithNotInIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(
        c.whereField("foo", notIn: [1]).whereField("foo", isNotEqualTo: 2), mentioning: ["'notEqual'", "'notIn'"])
      expectInvalidQuery(
        c.whereField("foo", isNotEqualTo: 2).whereField("foo", notIn: [1]), mentioning: ["'notIn'", "'notEqual'"])
      expectInvalidQuery(
        c.whereField("x", isNotEqualTo: 2).whereField("y", notIn: [1]), mentioning: ["notIn", "notEqual"],
        "on different fields")
    }
  }

  @Test func notInWithInArrayContainsAnyOrAnotherNotInIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(c.whereField("foo", in: [1]).whereField("foo", notIn: [2]), mentioning: ["'notIn'", "'in'"])
      expectInvalidQuery(c.whereField("foo", notIn: [1]).whereField("foo", in: [2]), mentioning: ["'in'", "'notIn'"])
      expectInvalidQuery(
        c.whereField("foo", arrayContainsAny: [1]).whereField("foo", notIn: [2]),
        mentioning: ["'notIn'", "'arrayContainsAny'"])
      expectInvalidQuery(
        c.whereField("foo", notIn: [1]).whereField("foo", arrayContainsAny: [2]),
        mentioning: ["'arrayContainsAny'", "'notIn'"])
      expectInvalidQuery(
        c.whereField("foo", notIn: [1]).whereField("foo", notIn: [2]), mentioning: ["more than one", "'notIn'"])
      expectInvalidQuery(
        c.whereField("x", notIn: [1]).whereField("y", in: [2]), mentioning: ["notIn"], "on different fields")
      expectInvalidQuery(
        c.whereFilter(Filter.andFilter([Filter.whereField("x", notIn: [1]), Filter.whereField("y", notIn: [2])])),
        mentioning: ["notIn"], "inside an AND")
    }
  }

  @Test func emptyListsAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(c.whereField("foo", in: []), mentioning: ["non-empty array", "'in'"])
      expectInvalidQuery(c.whereField("foo", notIn: []), mentioning: ["non-empty array", "'notIn'"])
      expectInvalidQuery(
        c.whereField("foo", arrayContainsAny: []), mentioning: ["non-empty array", "'arrayContainsAny'"])
      expectInvalidQuery(c.whereField(FieldPath.documentID(), in: []), mentioning: ["non-empty array"])
      expectInvalidQuery(c.whereFilter(Filter.whereField("foo", in: [])), mentioning: ["non-empty array"])
    }
  }

  @Test func listsLongerThanTheirCapAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      // in and array-contains-any take 1–30 values, not-in 1–10; duplicates count.
      expectInvalidQuery(c.whereField("foo", in: Array(repeating: 1, count: 31)), mentioning: ["30"])
      expectInvalidQuery(c.whereField("foo", arrayContainsAny: Array(1...31)), mentioning: ["30"])
      expectInvalidQuery(c.whereField("foo", notIn: [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9]), mentioning: ["10"])
      expectIDs(c.whereField("x", notIn: Array(2...11)), ["doc1"], "ten not-in values are allowed")
      expectIDs(c.whereField("x", in: Array(1...30)), ["doc1"])
    }
  }

  @Test func arrayOperatorsOnDocumentIDAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(
        c.whereField(FieldPath.documentID(), arrayContains: 1), mentioning: ["arrayContains", "document ID"])
      expectInvalidQuery(
        c.whereField(FieldPath.documentID(), arrayContainsAny: ["doc1"]),
        mentioning: ["arrayContainsAny", "document ID"])
    }
  }

  @Test func documentIDValuesAreChecked() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, isEqualTo: ""), mentioning: ["document ID", "empty string"])
      expectInvalidQuery(c.whereField(id, isEqualTo: "foo/bar/baz"), mentioning: ["plain document ID", "foo/bar/baz"])
      expectInvalidQuery(c.whereField(id, isEqualTo: 1), mentioning: ["valid string or DocumentReference"])
      expectInvalidQuery(c.whereField(id, in: [[1, 2]]), mentioning: ["valid string or DocumentReference"])
      expectInvalidQuery(
        db.collectionGroup("collection").whereField(id, isEqualTo: "foo/bar/baz"),
        mentioning: ["collection group", "foo/bar/baz", "odd number of segments"])
      expectInvalidQuery(
        db.collectionGroup("collection").whereField(id, in: ["foo"]), mentioning: ["odd number of segments"])
      expectInvalidQuery(c.order(by: id).start(at: [1]), mentioning: ["document ID"])
      expectInvalidQuery(c.order(by: id).start(at: ["foo/bar"]), mentioning: ["foo/bar"])
      expectInvalidQuery(
        db.collectionGroup("collection").order(by: id).start(at: ["foo"]), mentioning: ["odd number of segments"])
    }
  }

  @Test func sentinelsAreNotQueryOperands() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(
        c.whereField("x", isEqualTo: FieldValue.serverTimestamp()),
        mentioning: ["FieldValue.serverTimestamp()", "can only be used with updateData() and setData()"])
      expectInvalidQuery(
        c.whereField("test", isEqualTo: ["test": FieldValue.arrayUnion([1])]),
        mentioning: ["FieldValue.arrayUnion()", "can only be used with updateData() and setData()"])
      expectInvalidQuery(
        c.whereField("test", isEqualTo: ["test": FieldValue.arrayRemove([1])]), mentioning: ["FieldValue.arrayRemove()"]
      )
      expectInvalidQuery(
        c.whereField("x", isGreaterThan: FieldValue.increment(Int64(1))), mentioning: ["FieldValue.increment()"])
      expectInvalidQuery(c.whereField("x", in: [1, FieldValue.delete()]), mentioning: ["FieldValue.delete()"])
      expectInvalidQuery(c.whereField("foo", arrayContains: FieldValue.serverTimestamp()), mentioning: ["FieldValue"])
      expectInvalidQuery(c.whereField("foo", notIn: [FieldValue.maximum(Int64(3))]), mentioning: ["FieldValue"])
      expectInvalidQuery(c.order(by: "x").start(at: [FieldValue.serverTimestamp()]), mentioning: ["FieldValue"])
      expectInvalidQuery(
        c.whereFilter(Filter.orFilter([Filter.whereField("x", isEqualTo: FieldValue.serverTimestamp())])),
        mentioning: ["FieldValue"])
    }
  }

  @Test func rangesWithNullOrNaNOperandsAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(c.whereField("x", isGreaterThan: NSNull()), mentioning: ["null"])
      expectInvalidQuery(c.whereField("x", isLessThanOrEqualTo: NSNull()), mentioning: ["null"])
      expectInvalidQuery(c.whereField("x", isLessThan: Double.nan), mentioning: ["NaN"])
      expectInvalidQuery(c.whereField("x", isGreaterThanOrEqualTo: Double.nan), mentioning: ["NaN"])
      expectInvalidQuery(c.whereFilter(Filter.whereField("x", isGreaterOrEqualTo: NSNull())), mentioning: ["null"])
    }
  }

  @Test func limitsBelowOneAndLimitToLastWithoutOrderAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      expectInvalidQuery(c.limit(to: 0), mentioning: ["Query limit (0) is invalid", "Limit must be positive"])
      expectInvalidQuery(c.limit(to: -1), mentioning: ["Query limit (-1) is invalid"])
      expectInvalidQuery(c.order(by: "x").limit(toLast: 0), mentioning: ["Limit must be positive"])
      expectInvalidQuery(c.order(by: "x").limit(toLast: -1), mentioning: ["Limit must be positive"])
      expectInvalidQuery(c.limit(toLast: 2), mentioning: ["limit(toLast:) queries require specifying at least one"])
    }
  }

  @Test func cursorRulesAreChecked() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("cursors"), ["f": ["v": "f", "nosort": 1.0]])
      let query = c.order(by: "foo")
      expectInvalidQuery(
        query.start(at: [1, 2]),
        mentioning: ["more values than were specified in the order by|too many arguments provided to start(at:)"])
      let snapshot = try c.document("f").getDocument()
      expectInvalidQuery(
        c.order(by: "sort").start(atDocument: snapshot),
        mentioning: ["field 'sort' (used as the order by) does not exist"])
      expectInvalidQuery(
        query.start(at: [1]).order(by: "bar"),
        mentioning: ["You must not specify a starting point before specifying the order by"])
      expectInvalidQuery(
        query.end(before: [1]).order(by: "bar"),
        mentioning: ["You must not specify an ending point before specifying the order by"])
    }
  }

  @Test func orderByDocumentIDMustBeTheLastOrderBy() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.order(by: id).order(by: "x"), mentioning: [], "another order-by after __name__")
      expectInvalidQuery(c.order(by: id, descending: true).order(by: "x", descending: true), mentioning: [])
      expectInvalidQuery(
        c.whereField("key", isNotEqualTo: 42).order(by: id), mentioning: [],
        "Firestore's testMultipleInequalityRejectsIfDocumentKeyIsNotTheLastOrderByField")
      expectInvalidQuery(c.order(by: id).whereField("x", isGreaterThan: 0), mentioning: [], "an inequality after")
      expectInvalidQuery(c.whereField("x", isLessThan: 5).order(by: id), mentioning: [], "an inequality before")
      // Allowed: __name__ last, an equality elsewhere, or an inequality on __name__ itself.
      expectIDs(c.order(by: "x").order(by: id), ["doc1"])
      expectIDs(c.order(by: id).whereField("x", isEqualTo: 1), ["doc1"])
      expectIDs(c.order(by: id).whereField(id, isGreaterThan: "a"), ["doc1"])
      expectIDs(c.whereField("x", isGreaterThan: 0).order(by: "x").order(by: id), ["doc1"])
    }
  }

  /// Firestore's backend refuses a field ordered twice when the query runs (the SDKs send
  /// it); Google's emulator's words, for queries, counts and listeners alike.
  @Test func aFieldOrderedTwiceIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let message = "order by clause cannot contain duplicate fields x"
      expectInvalidQuery(c.order(by: "x").order(by: "x"), mentioning: [message])
      expectInvalidQuery(c.order(by: "x").order(by: "x", descending: true), mentioning: [message], "either direction")
      expectInvalidQuery(c.order(by: "x").order(by: "y").order(by: "x"), mentioning: [message], "not adjacent")
      expectInvalidQuery(
        c.order(by: "a.b").order(by: FieldPath(["a", "b"])), mentioning: ["duplicate fields a.b"], "a nested field")
      expectInvalidQuery(
        c.whereField("x", isGreaterThan: 0).order(by: "x").order(by: "x"), mentioning: [message], "with its inequality")
      expectInvalidArgument(mentioning: [message], "count") {
        _ = try c.order(by: "x").order(by: "x").count.getAggregation(source: .server)
      }
      let signal = Signal()
      let failure = Box<Error?>(nil)
      let registration = c.order(by: "x").order(by: "x").addSnapshotListener { _, error in
        if let error, failure.value == nil {
          failure.value = error
          signal.fire()
        }
      }
      #expect(signal.wait())
      registration.remove()
      expectHearthError(failure.value, .invalidArgument, mentioning: [message])
      // Allowed: each field once, an inequality's field ordered explicitly once.
      expectIDs(c.order(by: "x").order(by: "y"), ["doc1"])
      expectIDs(c.whereField("x", isGreaterThan: 0).order(by: "x"), ["doc1"])
    }
  }

  @Test func anEqualityOnDocumentIDBesideRangesOnFieldsIsRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(
        c.whereField("key", isNotEqualTo: 42).whereField(id, isEqualTo: "doc1"), mentioning: [],
        "Firestore's testMultipleInequalityRejectsIfDocumentKeyAppearsOnlyInEqualityFilter")
      expectInvalidQuery(c.whereField("x", isGreaterThan: 0).whereField(id, isEqualTo: "doc1"), mentioning: [])
      expectInvalidQuery(
        c.whereField(id, isEqualTo: "doc1").whereField("x", isLessThan: 5).whereField("y", isGreaterThan: 0),
        mentioning: [])
      // Firestore's backend refuses it beside an equality elsewhere too (Google's emulator).
      expectInvalidQuery(
        c.whereField(id, isEqualTo: "doc1").whereField("y", isEqualTo: 2).whereField("x", isLessThan: 5),
        mentioning: ["Equality on key is not allowed if there are other inequality fields"])
      // Allowed: an equality on __name__ with equalities elsewhere, or with an inequality on
      // __name__ too.
      expectIDs(c.whereField(id, isEqualTo: "doc1").whereField("x", isEqualTo: 1), ["doc1"])
      expectIDs(c.whereField(id, in: ["doc1", "doc2"]).whereField("x", isEqualTo: 1), ["doc1"])
      expectIDs(
        c.whereField(id, in: ["doc1", "doc2"]).whereField(id, isGreaterThan: "a").whereField("x", isLessThan: 5),
        ["doc1"])
    }
  }

  @Test func invalidFieldPathsAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      for path in ["", "foo..baz", ".foo", "foo."] {
        let message =
          "Invalid field path (\(path)). Paths must not be empty, begin with '.', end with '.', or contain '..'"
        expectInvalidQuery(c.whereField(path, isEqualTo: 1), mentioning: [message])
        expectInvalidQuery(c.order(by: path), mentioning: [message])
      }
      for path in ["foo~bar", "foo*bar", "foo/bar", "foo[1", "foo]1", "foo[1]"] {
        let message = "Invalid field path (\(path)). Paths must not contain '~', '*', '/', '[', or ']'"
        expectInvalidQuery(c.whereField(path, isEqualTo: 1), mentioning: [message])
        expectInvalidQuery(c.order(by: path), mentioning: [message])
      }
      expectInvalidQuery(c.whereField(FieldPath(["a", ""]), isEqualTo: 1), mentioning: ["empty"])
      expectInvalidQuery(c.whereFilter(Filter.whereField("a..b", isEqualTo: 1)), mentioning: ["a..b"])
    }
  }

  @Test func unsupportedOperandValuesAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      struct Custom {}
      expectInvalidQuery(c.whereField("x", isEqualTo: Custom()), mentioning: ["Custom"])
      expectInvalidQuery(c.whereField("x", in: [1, Custom()]), mentioning: ["Custom"])
      expectInvalidQuery(c.whereField("x", isEqualTo: UInt64.max), mentioning: ["too large"])
      expectInvalidQuery(c.whereField("x", isEqualTo: [1, [2]] as [Any]), mentioning: ["Nested arrays"])
      // Arrays as in/not-in/array-contains-any values are whole values, not nesting.
      expectIDs(c.whereField("foo", in: [[1], [2]]), ["doc1"])
      expectIDs(c.whereField("foo", notIn: [[2]]), ["doc1"])
    }
  }

  @Test func invalidQueriesFailInEveryWayTheyRun() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let invalid = c.whereField("x", in: [])
      expectInvalidQuery(invalid, mentioning: ["non-empty"])
      expectInvalidArgument(mentioning: ["non-empty"], "count") {
        _ = try invalid.count.getAggregation(source: .server)
      }
      expectInvalidArgument(mentioning: ["non-empty"], "explain") { _ = try invalid.explain() }
      let extended = invalid.whereField("y", isEqualTo: 2).order(by: "y").limit(to: 3)
      expectInvalidQuery(extended, mentioning: ["non-empty"], "a query built on an invalid one stays invalid")
    }
  }

  @Test func invalidQueriesFailAsynchronouslyToo() async throws {
    try await withDatabase(settings: relaxed) { db in
      let c = try collection(db)
      let invalid = c.limit(to: 0)
      await expectHearthError(.invalidArgument) { _ = try await invalid.getDocuments() }
      let signal = Signal()
      let failure = Box<Error?>(nil)
      invalid.getDocuments { _, error in
        failure.value = error
        signal.fire()
      }
      #expect(signal.wait())
      expectHearthError(failure.value, .invalidArgument)
    }
  }

  /// Firestore's backend allows one `array-contains` or `array-contains-any` in each
  /// conjunction of the query's OR-of-ANDs. The client SDKs once refused a second one while
  /// building ("You cannot use more than one 'array-contains' filter."), then left the rule
  /// to the backend (firebase-ios-sdk PR #10449, Firestore/core/src/api/query_core.cc
  /// ConflictingOps; firebase-js-sdk PR #7024, packages/firestore/src/lite-api/query.ts
  /// conflictingOps: "Validations should occur in the Firestore backend"), whose refusal a
  /// run gets; the cases and the message are Google's emulator's answers.
  @Test func twoArrayFiltersInOneConjunctionAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("arrays"), ["a": ["tags": [1, 2], "labels": [2], "x": 1]])
      let limit = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
      let contains = { (field: String, value: Int) in Filter.whereField(field, arrayContains: value) }
      let refused: [(Query, String)] = [
        (c.whereField("tags", arrayContains: 1).whereField("tags", arrayContains: 2), "twice on one field"),
        (c.whereField("tags", arrayContains: 1).whereField("labels", arrayContains: 2), "on two fields"),
        (c.whereField("tags", arrayContains: 1).whereField("tags", arrayContainsAny: [2]), "with array-contains-any"),
        (c.whereField("tags", arrayContainsAny: [2]).whereField("tags", arrayContains: 1), "after array-contains-any"),
        (c.whereField("tags", arrayContainsAny: [1]).whereField("labels", arrayContainsAny: [2]), "two -any"),
        (
          c.whereField("tags", arrayContains: 1).whereField("labels", arrayContains: 2).whereField("x", notIn: [3]),
          "with not-in"
        ),
        (c.whereFilter(Filter.andFilter([contains("tags", 1), contains("labels", 2)])), "inside an AND"),
        (
          c.whereFilter(
            Filter.orFilter([
              Filter.andFilter([contains("tags", 1), contains("labels", 2)]), Filter.whereField("x", isEqualTo: 1),
            ])), "in one OR branch"
        ),
        (
          c.whereField("tags", arrayContains: 1).whereFilter(
            Filter.orFilter([contains("labels", 2), Filter.whereField("x", isEqualTo: 1)])),
          "AND with an OR branch holding one"
        ),
      ]
      for (query, comment) in refused {
        #expect(expectInvalidQuery(query, mentioning: [limit], comment)?.message == limit, "\(comment)")
      }
      // Each conjunction with at most one runs.
      expectIDs(c.whereFilter(Filter.orFilter([contains("tags", 1), contains("labels", 2)])), ["a"])
      expectIDs(
        c.whereFilter(
          Filter.orFilter([
            Filter.andFilter([contains("tags", 1), Filter.whereField("x", isEqualTo: 1)]),
            Filter.andFilter([contains("labels", 2), Filter.whereField("x", isEqualTo: 2)]),
          ])), ["a"])
      expectIDs(c.whereField("tags", arrayContains: 1).whereField("tags", in: [[1, 2]]), ["a"])
      expectIDs(c.whereField("tags", arrayContains: 1).whereField("x", notIn: [3]), ["a"])
    }
  }

  // MARK: - What docs/semantics.md allows

  @Test func combinationsFirestoreOnceRejectedNowRun() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("allowed"),
        [
          "a": ["x": 1, "y": 1, "tags": [1, 2]], "b": ["x": 2, "y": 0, "tags": [2]],
          "c": ["x": 3, "y": 5, "tags": [3]],
        ])
      // Inequalities on several fields.
      expectIDs(c.whereField("x", isGreaterThan: 0).whereField("y", isLessThan: 5), ["a", "b"])
      // An order-by on another field than the inequality.
      expectIDs(c.whereField("x", isGreaterThan: 0).order(by: "y"), ["b", "a", "c"])
      // != with in, with array-contains, and with a range elsewhere.
      expectIDs(c.whereField("x", isNotEqualTo: 2).whereField("y", in: [1, 5]), ["a", "c"])
      expectIDs(c.whereField("x", isNotEqualTo: 1).whereField("tags", arrayContains: 2), ["b"])
      expectIDs(c.whereField("x", isNotEqualTo: 1).whereField("y", isGreaterThan: 0), ["c"])
      // In with array-contains-any, and array filters in different OR branches.
      expectIDs(c.whereField("x", in: [1, 2]).whereField("tags", arrayContainsAny: [2]), ["a", "b"])
      expectIDs(
        c.whereFilter(
          Filter.orFilter([
            Filter.whereField("tags", arrayContains: 3), Filter.whereField("tags", arrayContainsAny: [1]),
          ])
        ), ["a", "c"])
      expectIDs(c.whereField("x", in: [1, 2]).whereField("y", in: [0, 5]), ["b"])
      // not-in with array-contains and with a range on another field.
      expectIDs(c.whereField("x", notIn: [1]).whereField("tags", arrayContains: 3), ["c"])
      expectIDs(c.whereField("x", notIn: [1]).whereField("y", isLessThan: 5), ["b"])
    }
  }
}
