import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Numeric document IDs (`__id7__`): Firestore accepts them though it reserves every other
/// `__.+__` ID, and orders them before every other ID, by number (Firebase's own tests
/// "sort documents by DocumentId", below as `FirestorePortQueryTests` ports them; Google's
/// emulator answers the same).
@Suite("Numeric document IDs")
struct NumericDocumentIDTests {
  /// The IDs of Firebase's tests, in Firestore's order.
  static let ordered = [
    "__id-9223372036854775808__", "__id-9223372036854775807__", "__id-2__", "__id7__", "__id12__",
    "__id9223372036854775806__", "__id9223372036854775807__", "12", "7", "A", "Aa", "__id", "__id1_", "_id1__", "a",
  ]

  func seeded(_ db: Database, _ path: String = "c", data: [String: Any] = ["a": 1]) throws -> CollectionReference {
    try seed(db.collection(path), Dictionary(uniqueKeysWithValues: Self.ordered.shuffled().map { ($0, data) }))
  }

  @Test func queriesOrderNumericIDsFirstByNumber() throws {
    try withDatabase { db in
      let c = try seeded(db)
      expectIDs(c, Self.ordered, "a collection read whole")
      expectIDs(c.order(by: FieldPath.documentID()), Self.ordered)
      expectIDs(c.order(by: FieldPath.documentID(), descending: true), Self.ordered.reversed())
      // An automatic index's entries of one value, in name order.
      expectIDs(c.whereField("a", isEqualTo: 1), Self.ordered, "entries of an automatic index")
      expectIDs(c.order(by: "a"), Self.ordered)
      expectIDs(c.order(by: "a", descending: true), Self.ordered.reversed())
      expectIDs(c.limit(to: 3), Array(Self.ordered.prefix(3)))
      expectIDs(c.order(by: FieldPath.documentID()).limit(toLast: 2), Array(Self.ordered.suffix(2)))
    }
  }

  @Test func nameRangesCursorsAndInFollowTheOrder() throws {
    try withDatabase { db in
      let c = try seeded(db)
      expectIDs(
        c.order(by: FieldPath.documentID()).whereField(FieldPath.documentID(), isGreaterThan: "__id7__")
          .whereField(FieldPath.documentID(), isLessThanOrEqualTo: "Aa"),
        ["__id12__", "__id9223372036854775806__", "__id9223372036854775807__", "12", "7", "A", "Aa"])
      expectIDs(c.whereField(FieldPath.documentID(), isLessThan: "12"), Array(Self.ordered.prefix(7)))
      expectIDs(
        c.order(by: FieldPath.documentID()).start(after: ["__id12__"]).end(at: ["12"]),
        ["__id9223372036854775806__", "__id9223372036854775807__", "12"])
      let seven = try c.document("__id7__").getDocument()
      #expect(seven.exists)
      expectIDs(c.order(by: "a").start(afterDocument: seven).limit(to: 2), ["__id12__", "__id9223372036854775806__"])
      expectIDs(
        c.whereField(FieldPath.documentID(), in: ["a", "__id12__", "7", "__id-2__"]),
        ["__id-2__", "__id12__", "7", "a"])
      expectIDs(
        c.whereField(FieldPath.documentID(), notIn: ["__id-2__", "7", "A", "__id"]),
        Self.ordered.filter { !["__id-2__", "7", "A", "__id"].contains($0) })
    }
  }

  @Test func declaredIndexesAndCollectionGroupsOrderNumericIDsFirst() throws {
    try withDatabase { db in
      try db.declareIndexes(
        json: #"""
          {"indexes": [
            {"collectionGroup": "c", "queryScope": "COLLECTION",
             "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "b", "order": "DESCENDING"}]},
            {"collectionGroup": "s", "queryScope": "COLLECTION_GROUP",
             "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "b", "order": "DESCENDING"}]}
          ]}
          """#)
      let c = try seeded(db, data: ["a": 1, "b": 2])
      // Ties follow the last order's direction (`__name__` descending here), as in Firestore.
      expectIDs(c.whereField("a", isEqualTo: 1).order(by: "b", descending: true), Self.ordered.reversed())
      expectIDs(
        c.whereField("a", isEqualTo: 1).order(by: "b", descending: true).order(by: FieldPath.documentID()), Self.ordered
      )
      try seed(
        db,
        paths: [
          "c/__id5__/s/__id-1__": ["a": 1, "b": 2], "c/__id5__/s/x": ["a": 1, "b": 2],
          "c/__id-5__/s/y": ["a": 1, "b": 2], "c/b/s/__id1__": ["a": 1, "b": 2], "c/\u{0}z/s/z": ["a": 1, "b": 2],
        ])
      let expected = [
        "c/\u{0}z/s/z", "c/__id-5__/s/y", "c/__id5__/s/__id-1__", "c/__id5__/s/x", "c/b/s/__id1__",
      ]
      expectPaths(db.collectionGroup("s"), expected)
      expectPaths(
        db.collectionGroup("s").whereField("a", isEqualTo: 1).order(by: "b", descending: true), expected.reversed())
      expectPaths(db.collectionGroup("s").order(by: "a"), expected)
      expectPaths(db.collection("c/__id5__/s"), ["c/__id5__/s/__id-1__", "c/__id5__/s/x"])
      let ids = try c.document("__id5__").listCollections().map(\.collectionID)
      #expect(ids == ["s"])
      #expect(try db.document("c/__id5__/s/__id-1__").getDocument().data()?["b"] as? Int == 2)
    }
  }

  /// Hearth's one exception to Firestore's order: keys hold IDs as their bytes, so an ID
  /// beginning with a zero byte comes before the numeric IDs (docs/semantics.md).
  @Test func anIDBeginningWithAZeroByteComesFirst() throws {
    try withDatabase { db in
      let c = try seed(
        db.collection("c"), ["\u{0}a": ["a": 1], "__id5__": ["a": 1], "\u{1}": ["a": 1], "\u{0}": ["a": 1]])
      let expected = ["\u{0}", "\u{0}a", "__id5__", "\u{1}"]
      expectIDs(c, expected)
      expectIDs(c.whereField("a", isEqualTo: 1), expected)
      expectIDs(c.whereField(FieldPath.documentID(), isGreaterThan: "\u{0}a"), ["__id5__", "\u{1}"])
    }
  }

  @Test func referencesToNumericIDsOrderFirst() throws {
    try withDatabase { db in
      let c = db.collection("c")
      let targets = ["7", "__id12__", "A", "__id-2__", "__id7__"]
      for (index, target) in targets.enumerated() {
        try c.document("r\(index)").setData(["ref": db.document("t/\(target)")])
      }
      let order = try c.order(by: "ref").getDocuments().documents.map {
        ($0.get("ref") as? DocumentReference)?.documentID ?? "?"
      }
      #expect(order == ["__id-2__", "__id7__", "__id12__", "7", "A"])
      expectIDs(c.whereField("ref", isLessThan: db.document("t/7")), ["r3", "r4", "r1"])
    }
  }

  @Test func listenersOrderNumericIDsAsQueriesDo() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seeded(db)
      let seen = Box<[String]>([])
      let registration = c.order(by: FieldPath.documentID()).addSnapshotListener { snapshot, _ in
        if let snapshot { seen.mutate { $0 = snapshot.documents.map(\.documentID) } }
      }
      defer { registration.remove() }
      #expect(waitUntil { seen.value == Self.ordered })
      try c.document("__id3__").setData(["a": 1])
      var withThree = Self.ordered
      withThree.insert("__id3__", at: 3)
      #expect(waitUntil { seen.value == withThree })
    }
  }

  /// Only canonical 64-bit integers other than zero make numeric IDs, and only for
  /// documents, as Google's emulator takes them; a collection ID or a field name stays
  /// reserved.
  @Test func otherUnderscoredNamesStayReserved() throws {
    try withDatabase { db in
      for id in ["__id0__", "__id-0__", "__id007__", "__id+5__", "__id9223372036854775808__", "__idabc__", "__id__"] {
        #expect(throws: HearthError.self, "\(id)") { try db.collection("c").document(id).setData(["a": 1]) }
      }
      #expect(throws: HearthError.self) { try db.collection("__id5__").document("a").setData(["a": 1]) }
      #expect(throws: HearthError.self) { try db.document("c/a/__id5__/b").setData(["a": 1]) }
      #expect(throws: HearthError.self) { try db.document("c/a").setData(["__id5__": 1]) }
      try db.document("c/__id-9223372036854775808__").setData(["a": 1])
      try db.collection("c").document("__id5__/s/__id6__").setData(["a": 1])
      #expect(try db.collection("c/__id5__/s").getDocuments().documents.map(\.documentID) == ["__id6__"])
    }
  }

  @Test func integrityCheckAndExportKeepNumericIDs() throws {
    try withDatabase { db in
      _ = try seeded(db)
      try db.document("c/__id5__/s/__id6__").setData(["a": 1])
      let report = try db.check()
      #expect(report.ok && report.problems.isEmpty, "\(report.problems)")
      let copy = FileManager.default.temporaryDirectory.appendingPathComponent("numeric-\(UUID()).json")
      defer { try? FileManager.default.removeItem(at: copy) }
      _ = try db.export(to: copy.path)
      try withDatabase { other in
        _ = try other.import(from: copy.path)
        expectIDs(other.collection("c"), Self.ordered)
        #expect(try other.document("c/__id5__/s/__id6__").getDocument().exists)
      }
    }
  }
}
