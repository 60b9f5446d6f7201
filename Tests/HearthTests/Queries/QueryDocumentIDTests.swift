import Foundation
import Hearth
import HearthTestSupport
import Testing

// Filters, order and cursors on `FieldPath.documentID()` (`__name__`), with plain IDs,
// DocumentReferences and, on collection groups, full paths; and the values Firestore
// rejects there (FIRQueryTests.mm, FIRValidationTests.mm, FIRCursorTests.mm).

@Suite("Query on document IDs")
struct QueryDocumentIDTests {

  private func fourDocuments(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("ids"),
      ["aa": ["key": "aa"], "ab": ["key": "ab"], "ba": ["key": "ba"], "bb": ["key": "bb"]])
  }

  @Test func equalityOnDocumentIDWithStringsAndReferences() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: "ab"), ["ab"])
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: c.document("ab")), ["ab"])
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: "zz"), [])
      expectIDs(
        c.whereField(FieldPath.documentID(), isEqualTo: db.collection("elsewhere").document("ab")), [],
        "a reference outside the collection matches nothing")
      expectIDs(c.whereFilter(Filter.whereField(FieldPath.documentID(), isEqualTo: "ba")), ["ba"])
    }
  }

  @Test func rangesOnDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectIDs(c.whereField(id, isGreaterThan: "aa").whereField(id, isLessThanOrEqualTo: "ba"), ["ab", "ba"])
      expectIDs(
        c.whereField(id, isGreaterThan: c.document("aa")).whereField(id, isLessThanOrEqualTo: c.document("ba")),
        ["ab", "ba"])
      expectIDs(c.whereField(id, isGreaterThanOrEqualTo: "b"), ["ba", "bb"])
      expectIDs(c.whereField(id, isLessThan: "b"), ["aa", "ab"])
      expectIDs(c.whereField(id, isLessThan: "b").order(by: id, descending: true), ["ab", "aa"])
      expectIDs(c.whereField(id, isNotEqualTo: "aa"), ["ab", "ba", "bb"])
      expectIDs(c.whereField(id, isNotEqualTo: c.document("bb")), ["aa", "ab", "ba"])
    }
  }

  @Test func inAndNotInOnDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectIDs(c.whereField(id, in: ["aa", "ab"]), ["aa", "ab"])
      expectIDs(c.whereField(id, in: ["bb", "aa", "zz"]), ["aa", "bb"], "results in document order")
      expectIDs(c.whereField(id, in: [c.document("ba"), "ab"]), ["ab", "ba"], "strings and references mixed")
      expectIDs(c.whereField(id, notIn: ["aa", "ab"]), ["ba", "bb"])
      expectIDs(c.whereField(id, notIn: [c.document("aa")]), ["ab", "ba", "bb"])
    }
  }

  @Test func documentIDFiltersCombineWithFieldFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("mixed"),
        ["a": ["v": 1], "b": ["v": 2], "c": ["v": 1], "d": ["v": 1]])
      let id = FieldPath.documentID()
      expectIDs(c.whereField("v", isEqualTo: 1).whereField(id, isGreaterThan: "a"), ["c", "d"])
      expectIDs(c.whereField("v", isEqualTo: 1).whereField(id, in: ["a", "b", "d"]), ["a", "d"])
      expectIDs(c.whereField("v", isEqualTo: 1).whereField(id, isEqualTo: "c"), ["c"])
    }
  }

  @Test func orderByDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      expectIDs(c.order(by: FieldPath.documentID()), ["aa", "ab", "ba", "bb"])
      expectIDs(c.order(by: FieldPath.documentID(), descending: true), ["bb", "ba", "ab", "aa"])
      expectIDs(c.order(by: FieldPath.documentID(), descending: true).limit(to: 2), ["bb", "ba"])
    }
  }

  @Test func documentIDsOrderByUTF8Bytes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("unicode"),
        [
          "\u{1F600}": ["n": 1], "\u{FFFD}": ["n": 2], "Z": ["n": 3], "a": ["n": 4], "\u{E9}": ["n": 5], "10": ["n": 6],
          "9": ["n": 7],
        ])
      expectIDs(c, ["10", "9", "Z", "a", "\u{E9}", "\u{FFFD}", "\u{1F600}"])
      expectIDs(c.whereField(FieldPath.documentID(), isGreaterThan: "\u{FFFD}"), ["\u{1F600}"])
    }
  }

  @Test func cursorsOnDocumentID() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("parent/p/sub"),
        ["a": ["k": "a"], "b": ["k": "b"], "c": ["k": "c"], "d": ["k": "d"], "e": ["k": "e"]])
      let byID = c.order(by: FieldPath.documentID())
      expectIDs(byID.start(at: ["b"]).end(before: ["d"]), ["b", "c"], "Firestore's testCanBeCreatedUsingDocumentId")
      expectIDs(byID.start(after: ["b"]).end(at: ["d"]), ["c", "d"])
      expectIDs(byID.start(at: [c.document("c")]), ["c", "d", "e"], "a DocumentReference as the cursor value")
      expectIDs(byID.start(after: ["bb"]), ["c", "d", "e"], "a cursor between documents")
      expectIDs(
        c.order(by: FieldPath.documentID(), descending: true).start(after: ["d"]).end(at: ["b"]), ["c", "b"])
    }
  }

  @Test func collectionGroupDocumentIDFiltersTakeFullPaths() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "a/a/cg/cg-doc1": ["x": 1], "a/b/a/b/cg/cg-doc2": ["x": 1], "a/b/cg/cg-doc3": ["x": 1],
          "a/b/c/d/cg/cg-doc4": ["x": 1], "a/c/cg/cg-doc5": ["x": 1], "cg/cg-doc6": ["x": 1], "a/b/nope/nope": ["x": 1],
        ])
      let group = db.collectionGroup("cg")
      let id = FieldPath.documentID()
      // Full-path order: a/a/cg, a/b/a/b/cg, a/b/c/d/cg, a/b/cg, a/c/cg, cg.
      expectIDs(group, ["cg-doc1", "cg-doc2", "cg-doc4", "cg-doc3", "cg-doc5", "cg-doc6"])
      expectIDs(
        group.whereField(id, isGreaterThanOrEqualTo: "a/b").whereField(id, isLessThan: "a/b/cg/cg-doc3"),
        ["cg-doc2", "cg-doc4"])
      expectIDs(
        group.order(by: id).start(after: ["a/b"]).end(before: ["a/b/cg/cg-doc3"]), ["cg-doc2", "cg-doc4"],
        "Firestore's testCollectionGroupQueriesWithStartAtEndAtWithArbitraryDocumentIDs")
      expectIDs(group.whereField(id, isEqualTo: "a/b/cg/cg-doc3"), ["cg-doc3"])
      expectIDs(group.whereField(id, isEqualTo: db.document("cg/cg-doc6")), ["cg-doc6"])
      expectIDs(group.whereField(id, in: ["cg/cg-doc6", "a/a/cg/cg-doc1"]), ["cg-doc1", "cg-doc6"])
      expectIDs(group.whereField(id, isEqualTo: "a/b/nope/nope"), [], "a document outside the group")
      expectIDs(group.order(by: id, descending: true).limit(to: 2), ["cg-doc6", "cg-doc5"])
    }
  }

  // MARK: - Invalid document-ID values

  @Test func documentIDValuesMustBeStringsOrReferences() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, isEqualTo: 1), mentioning: ["string or DocumentReference"])
      expectInvalidQuery(c.whereField(id, isGreaterThan: 1.5), mentioning: ["string or DocumentReference"])
      expectInvalidQuery(c.whereField(id, isEqualTo: true), mentioning: ["string or DocumentReference"])
      expectInvalidQuery(c.whereField(id, isEqualTo: NSNull()), mentioning: ["document ID"])
      expectInvalidQuery(c.whereField(id, in: ["aa", 2]), mentioning: ["string or DocumentReference"])
      expectInvalidQuery(c.whereField(id, notIn: [["aa"]]), mentioning: ["string or DocumentReference"])
    }
  }

  @Test func documentIDValuesMustNotBeEmpty() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, isEqualTo: ""), mentioning: ["empty string"])
      expectInvalidQuery(c.whereField(id, isLessThan: ""), mentioning: ["empty string"])
      expectInvalidQuery(c.whereField(id, in: ["aa", ""]), mentioning: ["empty string"])
      expectInvalidQuery(db.collectionGroup("ids").whereField(id, isEqualTo: ""), mentioning: ["empty string"])
    }
  }

  @Test func documentIDValuesOnACollectionMustBePlainIDs() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, isEqualTo: "foo/bar/baz"), mentioning: ["foo/bar/baz", "'/'"])
      expectInvalidQuery(c.whereField(id, isEqualTo: "ids/aa"), mentioning: ["ids/aa"])
      expectInvalidQuery(c.whereField(id, in: ["aa", "foo/bar/baz"]), mentioning: ["foo/bar/baz"])
      expectInvalidQuery(c.whereField(id, isNotEqualTo: "a/b"), mentioning: ["a/b"])
    }
  }

  @Test func documentIDValuesOnACollectionGroupMustBeDocumentPaths() throws {
    try withDatabase(settings: relaxed) { db in
      let group = db.collectionGroup("collection")
      let id = FieldPath.documentID()
      expectInvalidQuery(group.whereField(id, isEqualTo: "foo/bar/baz"), mentioning: ["foo/bar/baz", "odd number"])
      expectInvalidQuery(group.whereField(id, in: ["foo"]), mentioning: ["foo", "odd number"])
      expectInvalidQuery(group.whereField(id, isGreaterThan: "foo"), mentioning: ["odd number"])
    }
  }

  @Test func arrayOperatorsOnDocumentIDAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let id = FieldPath.documentID()
      expectInvalidQuery(c.whereField(id, arrayContains: "aa"), mentioning: ["document ID", "not arrays"])
      expectInvalidQuery(c.whereField(id, arrayContainsAny: ["aa"]), mentioning: ["document ID", "not arrays"])
      expectInvalidQuery(
        c.whereFilter(
          Filter.orFilter([Filter.whereField(id, arrayContains: "aa"), Filter.whereField("key", isEqualTo: "x")])),
        mentioning: ["not arrays"], "inside a composite filter")
    }
  }

  @Test func documentIDCursorValuesAreChecked() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourDocuments(db)
      let byID = c.order(by: FieldPath.documentID())
      expectInvalidQuery(byID.start(at: [1]), mentioning: ["document ID"], "a number")
      expectInvalidQuery(byID.start(at: ["foo/bar"]), mentioning: ["foo/bar"], "a slash on a collection query")
      expectInvalidQuery(byID.end(before: [""]), mentioning: [], "an empty ID")
      let group = db.collectionGroup("collection").order(by: FieldPath.documentID())
      expectInvalidQuery(group.start(at: ["foo"]), mentioning: ["foo", "odd number"], "not a full path on a group")
      expectInvalidQuery(group.end(at: ["a/b/c"]), mentioning: ["odd number"])
    }
  }
}
