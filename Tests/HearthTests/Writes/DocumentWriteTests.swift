import Foundation
import Hearth
import HearthTestSupport
import Testing

/// setData (replace, merge, mergeFields), updateData, create, delete, getDocument, the
/// document times and automatic IDs — docs/semantics.md "Writes", checked by reading back.
@Suite struct DocumentWriteTests {
  static var initial: [String: Any] {
    [
      "desc": "Description",
      "owner": ["name": "Jonny", "email": "abc@xyz.com"] as [String: Any],
    ]
  }

  // MARK: - setData

  @Test func setDataReplacesTheWholeDocument() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      try doc.setData(Self.initial)
      try doc.setData(["desc": "NewDescription"])
      let snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      expectSame(snapshot.data(), ["desc": "NewDescription"])
    }
  }

  @Test func setDataCreatesAMissingDocumentAndAnEmptyOne() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document("empty")
      try doc.setData([:])
      let snapshot = try doc.getDocument()
      #expect(snapshot.exists)
      expectSame(snapshot.data(), [String: Any]())
      #expect(try db.collection("rooms").getDocuments().count == 1)
    }
  }

  @Test func setDataKeysAreLiteralFieldNames() throws {
    try withDatabase { db in
      let doc = db.document("rooms/dots")
      try doc.setData(["a.b": 1, "x": ["y.z": "deep"] as [String: Any]])
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), ["a.b": 1, "x": ["y.z": "deep"] as [String: Any]])
      expectSame(snapshot.get(FieldPath(["a.b"])), 1)
      expectSame(snapshot.get(FieldPath(["x", "y.z"])), "deep")
      #expect(snapshot.get("a") == nil, "a dot in a set key must not create a nested map")
      #expect(snapshot.get("a.b") == nil, "the dotted string a.b is the path a → b, which does not exist")
    }
  }

  // MARK: - merge: true

  @Test func mergeMergesNestedMapsAndKeepsOtherFields() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      try doc.setData(Self.initial)
      try doc.setData(["updated": true, "owner": ["name": "Sebastian"] as [String: Any]], merge: true)
      expectSame(
        try doc.getDocument().data(),
        [
          "desc": "Description", "updated": true,
          "owner": ["name": "Sebastian", "email": "abc@xyz.com"] as [String: Any],
        ])
    }
  }

  @Test func mergeTreatsDotsInKeysAsLiteralNames() throws {
    try withDatabase { db in
      let doc = db.document("rooms/dotted")
      try doc.setData([
        "desc": "Description", "owner.data": ["name": "Jonny", "email": "abc@xyz.com"] as [String: Any],
      ])
      try doc.setData(["updated": true, "owner.data": ["name": "Sebastian"] as [String: Any]], merge: true)
      let snapshot = try doc.getDocument()
      expectSame(
        snapshot.data(),
        [
          "desc": "Description", "updated": true,
          "owner.data": ["name": "Sebastian", "email": "abc@xyz.com"] as [String: Any],
        ])
      #expect(snapshot.get("owner") == nil)
    }
  }

  @Test func mergeWithAnEmptyMapSetsAnEmptyMap() throws {
    try withDatabase { db in
      let doc = db.document("rooms/empty-maps")
      try doc.setData(["a": ["x": 1] as [String: Any], "keep": 1])
      try doc.setData(["a": [String: Any](), "b": [String: Any]()], merge: true)
      expectSame(try doc.getDocument().data(), ["a": [String: Any](), "b": [String: Any](), "keep": 1])
      // A nested empty map is a leaf too.
      try doc.setData(["c": ["d": [String: Any]()] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().get("c"), ["d": [String: Any]()])
    }
  }

  @Test func mergeOfNothingCreatesAnEmptyDocumentOrKeepsTheFields() throws {
    try withDatabase { db in
      let missing = db.document("rooms/new")
      try missing.setData([:], merge: true)
      let created = try missing.getDocument()
      #expect(created.exists)
      expectSame(created.data(), [String: Any]())

      let existing = db.document("rooms/old")
      try existing.setData(["a": 1])
      try existing.setData([:], merge: true)
      expectSame(try existing.getDocument().data(), ["a": 1])
    }
  }

  @Test func mergeDeletesFieldsWithFieldValueDelete() throws {
    try withDatabase { db in
      let doc = db.document("rooms/deletes")
      try doc.setData([
        "untouched": true, "foo": "bar", "nested": ["untouched": true, "foo": "bar"] as [String: Any],
      ])
      try doc.setData(
        ["foo": FieldValue.delete(), "nested": ["foo": FieldValue.delete()] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().data(), ["untouched": true, "nested": ["untouched": true]])
    }
  }

  @Test func mergeReplacesArraysWholesale() throws {
    try withDatabase { db in
      let doc = db.document("rooms/arrays")
      try doc.setData([
        "untouched": true, "data": "old", "topLevel": ["old", "old"],
        "mapInArray": [["data": "old"] as [String: Any]],
      ])
      try doc.setData(
        ["data": "new", "topLevel": ["new"], "mapInArray": [["data": "new"] as [String: Any]]], merge: true)
      expectSame(
        try doc.getDocument().data(),
        ["untouched": true, "data": "new", "topLevel": ["new"], "mapInArray": [["data": "new"]]])
    }
  }

  @Test func mergeReplacesAScalarWithAMapAndAMapWithAScalar() throws {
    try withDatabase { db in
      let doc = db.document("rooms/shapes")
      try doc.setData(["a": "scalar", "b": ["x": 1] as [String: Any]])
      try doc.setData(["a": ["y": 2] as [String: Any], "b": 3], merge: true)
      expectSame(try doc.getDocument().data(), ["a": ["y": 2], "b": 3])
    }
  }

  @Test func mergeCreatesAMissingDocument() throws {
    try withDatabase { db in
      let doc = db.document("rooms/fresh")
      try doc.setData(["a": ["b": 1] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().data(), ["a": ["b": 1]])
    }
  }

  // MARK: - mergeFields

  @Test func mergeFieldsWritesOnlyTheListedFields() throws {
    try withDatabase { db in
      let doc = db.document("rooms/mask")
      try doc.setData(Self.initial)
      try doc.setData(["desc": "NewDescription", "owner": "Sebastian"], mergeFields: ["owner"])
      expectSame(try doc.getDocument().data(), ["desc": "Description", "owner": "Sebastian"])
    }
  }

  @Test func mergeFieldsTakesNestedStringAndFieldPathPaths() throws {
    try withDatabase { db in
      let doc = db.document("rooms/nested-mask")
      try doc.setData(["owner": ["name": "Jonny", "email": "abc@xyz.com", "phone": "1"] as [String: Any], "n": 1])
      let data: [String: Any] = [
        "owner": ["name": "Sebastian", "email": "new@xyz.com", "phone": "2"] as [String: Any], "n": 2,
      ]
      try doc.setData(data, mergeFields: ["owner.name", FieldPath(["owner", "email"])])
      expectSame(
        try doc.getDocument().data(),
        ["owner": ["name": "Sebastian", "email": "new@xyz.com", "phone": "1"] as [String: Any], "n": 1])
    }
  }

  @Test func mergeFieldsMayRepeatOrContainOneAnotherAndTheWiderWins() throws {
    try withDatabase { db in
      for fields: [Any] in [
        ["owner.name", "owner", "owner"], ["owner", "owner.name"], [FieldPath(["owner"]), "owner.name"],
      ] {
        let doc = db.collection("rooms").document()
        try doc.setData(["desc": "Description", "owner": ["name": "Jonny", "phone": "1"] as [String: Any]])
        try doc.setData(
          ["desc": "NewDescription", "owner": ["name": "Sebastian", "email": "new@xyz.com"] as [String: Any]],
          mergeFields: fields)
        // `owner` is listed, so the whole map is replaced: `phone` goes, `email` comes.
        expectSame(
          try doc.getDocument().data(),
          ["desc": "Description", "owner": ["name": "Sebastian", "email": "new@xyz.com"] as [String: Any]],
          "mergeFields \(fields)")
      }
    }
  }

  @Test func mergeFieldsIgnoresValuesAndSentinelsOutsideTheMask() throws {
    try withDatabase { db in
      let doc = db.document("rooms/outside")
      try doc.setData(["desc": "Description", "count": 1, "tags": ["a"], "owner": "Jonny"])
      try doc.setData(
        [
          "desc": FieldValue.delete(), "count": FieldValue.increment(5), "tags": FieldValue.arrayUnion(["b"]),
          "stamp": FieldValue.serverTimestamp(), "extra": "ignored", "owner": "Sebastian",
        ],
        mergeFields: ["owner"])
      expectSame(
        try doc.getDocument().data(), ["desc": "Description", "count": 1, "tags": ["a"], "owner": "Sebastian"])
    }
  }

  @Test func mergeFieldsCanDeleteFieldsAndApplyTransformsInsideTheMask() throws {
    try withDatabase { db in
      let doc = db.document("rooms/mask-sentinels")
      try doc.setData([
        "untouched": true, "foo": "bar",
        "inner": ["removed": true, "foo": "bar"] as [String: Any],
        "nested": ["untouched": true, "foo": "bar"] as [String: Any],
      ])
      try doc.setData(
        [
          "foo": FieldValue.delete(),
          "inner": ["foo": FieldValue.delete()] as [String: Any],
          "nested": ["untouched": FieldValue.delete(), "foo": FieldValue.delete()] as [String: Any],
        ],
        mergeFields: ["foo", "inner", "nested.foo"])
      expectSame(
        try doc.getDocument().data(),
        ["untouched": true, "inner": [String: Any](), "nested": ["untouched": true]])

      try doc.setData(
        ["stamp": FieldValue.serverTimestamp(), "inner": ["n": FieldValue.increment(2)] as [String: Any]],
        mergeFields: ["stamp", "inner.n"])
      let snapshot = try doc.getDocument()
      #expect(snapshot.get("stamp") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)
      expectSame(snapshot.get("inner"), ["n": 2])
    }
  }

  @Test func mergeFieldsWithAnEmptyListChangesNothing() throws {
    try withDatabase { db in
      let doc = db.document("rooms/nothing")
      try doc.setData(Self.initial)
      try doc.setData(["desc": FieldValue.serverTimestamp(), "owner": "Sebastian"], mergeFields: [])
      expectSame(try doc.getDocument().data(), Self.initial)
    }
  }

  @Test func mergeFieldsWithADottedFieldName() throws {
    try withDatabase { db in
      let doc = db.document("rooms/dotted-mask")
      try doc.setData(["a.b": 1, "a": ["b": 2] as [String: Any]])
      try doc.setData(["a.b": 10, "a": ["b": 20] as [String: Any]], mergeFields: [FieldPath(["a.b"])])
      expectSame(try doc.getDocument().data(), ["a.b": 10, "a": ["b": 2]])
    }
  }

  @Test func mergeFieldsMissingFromTheDataIsInvalidAndWritesNothing() throws {
    try withDatabase { db in
      let doc = db.document("rooms/missing-mask")
      try doc.setData(Self.initial)
      let before = try doc.getDocument()
      expectHearthError(.invalidArgument, mentioning: ["foo", "rooms/missing-mask"]) {
        try doc.setData(["desc": "changed"], mergeFields: ["desc", "foo"])
      }
      expectHearthError(.invalidArgument, mentioning: ["owner.phone"]) {
        try doc.setData(["owner": ["name": "x"] as [String: Any]], mergeFields: [FieldPath(["owner", "phone"])])
      }
      expectHearthError(.invalidArgument, mentioning: ["foo"]) { try doc.setData([:], mergeFields: ["foo"]) }
      let after = try doc.getDocument()
      expectSame(after.data(), Self.initial)
      #expect(after.updateTime == before.updateTime)

      let absent = db.document("rooms/never")
      expectHearthError(.invalidArgument) { try absent.setData([:], mergeFields: ["foo"]) }
      #expect(try !absent.getDocument().exists)
    }
  }

  @Test func mergeFieldsEntriesMustBeStringsOrFieldPaths() throws {
    try withDatabase { db in
      let doc = db.document("rooms/bad-mask")
      expectHearthError(.invalidArgument) { try doc.setData(["a": 1], mergeFields: [1]) }
      let snapshot = try doc.getDocument()
      #expect(!snapshot.exists)
    }
  }

  // MARK: - updateData

  @Test func updateDataWithDottedPathsKeepsSiblings() throws {
    try withDatabase { db in
      let doc = db.document("rooms/eros")
      try doc.setData(Self.initial)
      try doc.updateData(["desc": "NewDescription", "owner.email": "new@xyz.com"])
      expectSame(
        try doc.getDocument().data(),
        ["desc": "NewDescription", "owner": ["name": "Jonny", "email": "new@xyz.com"] as [String: Any]])
    }
  }

  @Test func updateDataWithFieldPathKeysThatContainDots() throws {
    try withDatabase { db in
      let doc = db.document("rooms/fieldpaths")
      try doc.setData(["a.b": 1, "a": ["b": 2, "c": 3] as [String: Any]])
      try doc.updateData([FieldPath(["a.b"]): 10, FieldPath(["a", "c"]): 30])
      expectSame(try doc.getDocument().data(), ["a.b": 10, "a": ["b": 2, "c": 30]])
    }
  }

  @Test func updateDataMapValueReplacesTheMap() throws {
    try withDatabase { db in
      let doc = db.document("rooms/replace-map")
      try doc.setData(Self.initial)
      try doc.updateData(["owner": ["name": "Sebastian"]])
      expectSame(try doc.getDocument().data(), ["desc": "Description", "owner": ["name": "Sebastian"]])
    }
  }

  @Test func updateDataDeletesTopLevelAndNestedFields() throws {
    try withDatabase { db in
      let doc = db.document("rooms/delete-fields")
      try doc.setData(Self.initial)
      try doc.updateData(["owner.email": FieldValue.delete()])
      expectSame(try doc.getDocument().data(), ["desc": "Description", "owner": ["name": "Jonny"]])
      try doc.updateData(["desc": FieldValue.delete(), "gone": FieldValue.delete()])
      expectSame(try doc.getDocument().data(), ["owner": ["name": "Jonny"]])
    }
  }

  @Test func updateDataCreatesIntermediateMapsAndReplacesNonMaps() throws {
    try withDatabase { db in
      let doc = db.document("rooms/deep")
      try doc.setData(["s": "text"])
      try doc.updateData(["a.b.c": 1, "s.t": 2])
      expectSame(try doc.getDocument().data(), ["a": ["b": ["c": 1]], "s": ["t": 2]])
    }
  }

  @Test func updateDataOfAMissingDocumentIsNotFoundAndWritesNothing() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document("ghost")
      expectHearthError(.notFound, mentioning: ["rooms/ghost"]) { try doc.updateData(["owner": "abc"]) }
      let snapshot = try doc.getDocument()
      #expect(!snapshot.exists)
      #expect(try db.collection("rooms").listDocuments().isEmpty)
      #expect(try db.listCollections().isEmpty)
      // FieldValue sentinels do not make it succeed either.
      expectHearthError(.notFound) { try doc.updateData(["n": FieldValue.increment(1)]) }
      #expect(try !doc.getDocument().exists)
    }
  }

  @Test func updateDataErrorIsCatchableAsFirestoreErrorCode() throws {
    try withDatabase { db in
      var caught = false
      do {
        try db.document("rooms/none").updateData(["a": 1])
      } catch let error as FirestoreErrorCode where error.code == .notFound {
        caught = true
        #expect((error as NSError).domain == "FIRFirestoreErrorDomain")
        #expect((error as NSError).code == FirestoreErrorCode.Code.notFound.rawValue)
        #expect(error.code.rawValue == 5)
      }
      #expect(caught)
    }
  }

  // MARK: - create, delete, get

  @Test func createFailsWithAlreadyExistsAndLeavesTheDocument() throws {
    try withDatabase { db in
      let doc = db.document("rooms/once")
      try doc.create(["v": 1])
      let first = try doc.getDocument()
      expectSame(first.data(), ["v": 1])
      expectHearthError(.alreadyExists, mentioning: ["rooms/once"]) { try doc.create(["v": 2]) }
      let second = try doc.getDocument()
      expectSame(second.data(), ["v": 1])
      #expect(second.updateTime == first.updateTime)
    }
  }

  @Test func createWorksAgainAfterDelete() throws {
    try withDatabase { db in
      let doc = db.document("rooms/again")
      try doc.create(["v": 1])
      try doc.delete()
      try doc.create(["v": 2])
      expectSame(try doc.getDocument().data(), ["v": 2])
    }
  }

  @Test func deleteOfAMissingDocumentSucceeds() throws {
    try withDatabase { db in
      try db.document("rooms/never").delete()
      try db.document("nowhere/never/deeper/none").delete()
      #expect(try !db.document("rooms/never").getDocument().exists)
      #expect(try db.listCollections().isEmpty)
    }
  }

  @Test func deleteRemovesTheDocumentButNeverItsSubcollections() throws {
    try withDatabase { db in
      let user = db.document("users/alice")
      try user.setData(["name": "Alice"])
      try user.collection("posts").document("p1").setData(["title": "Hi"])
      try user.collection("posts").document("p1").collection("comments").document("c1").setData(["t": "c"])
      try user.delete()
      #expect(try !user.getDocument().exists)
      expectSame(try user.collection("posts").document("p1").getDocument().data(), ["title": "Hi"])
      expectSame(try db.document("users/alice/posts/p1/comments/c1").getDocument().data(), ["t": "c"])
      #expect(try db.collection("users").getDocuments().isEmpty)
      #expect(try db.collection("users").listDocuments().map(\.documentID) == ["alice"])
      #expect(try user.listCollections().map(\.collectionID) == ["posts"])
    }
  }

  @Test func getDocumentOfAMissingDocument() throws {
    try withDatabase { db in
      let doc = db.collection("rooms").document("missing")
      let snapshot = try doc.getDocument()
      #expect(!snapshot.exists)
      #expect(snapshot.data() == nil)
      #expect(snapshot.get("foo") == nil)
      #expect(snapshot["foo"] == nil)
      #expect(snapshot.createTime == nil)
      #expect(snapshot.updateTime == nil)
      #expect(snapshot.documentID == "missing")
      #expect(snapshot.reference == doc)
      #expect(!snapshot.metadata.hasPendingWrites)
      #expect(!snapshot.metadata.isFromCache)
    }
  }

  @Test func snapshotGetAndSubscriptReadFieldPaths() throws {
    try withDatabase { db in
      let doc = db.document("rooms/get")
      try doc.setData(["a": ["b": ["c": 1]] as [String: Any], "x.y": 2, "list": [1, 2]])
      let snapshot = try doc.getDocument()
      expectSame(snapshot.get("a.b.c"), 1)
      expectSame(snapshot.get(FieldPath(["a", "b"])), ["c": 1])
      expectSame(snapshot["a.b.c"], 1)
      expectSame(snapshot[FieldPath(["x.y"])], 2)
      expectSame(snapshot.get("list"), [1, 2])
      #expect(snapshot.get("a.b.c.d") == nil)
      #expect(snapshot.get("list.0") == nil)
      #expect(snapshot.get("nope") == nil)
    }
  }

  // MARK: - Times

  @Test func createTimeStaysAndUpdateTimeAdvancesWithEachCommit() throws {
    try withDatabase { db in
      let doc = db.document("rooms/times")
      let start = Timestamp()
      try doc.setData(["v": 1])
      let first = try doc.getDocument()
      let created = try #require(first.createTime)
      let updated1 = try #require(first.updateTime)
      #expect(created == updated1)
      #expect(created.seconds >= start.seconds - 1)
      #expect(created.nanoseconds % 1000 == 0, "commit times have microsecond precision")

      try doc.updateData(["v": 2])
      let second = try doc.getDocument()
      #expect(second.createTime == created)
      let updated2 = try #require(second.updateTime)
      #expect(updated2 > updated1)

      try doc.setData(["v": 3])
      let third = try doc.getDocument()
      #expect(third.createTime == created, "a replacing set keeps the create time")
      let updated3 = try #require(third.updateTime)
      #expect(updated3 > updated2)

      try doc.setData(["w": 1], merge: true)
      #expect(try doc.getDocument().createTime == created)

      // Reading does not change the times.
      let again = try doc.getDocument()
      let onceMore = try doc.getDocument()
      #expect(again.updateTime == onceMore.updateTime)

      // A delete and a new write start a new life.
      try doc.delete()
      try doc.setData(["v": 4])
      let reborn = try doc.getDocument()
      let rebornCreated = try #require(reborn.createTime)
      #expect(rebornCreated > created)
      #expect(reborn.createTime == reborn.updateTime)
    }
  }

  @Test func updateTimeIsTheCommitTimeAndServerTimestamp() throws {
    try withDatabase { db in
      let doc = db.document("rooms/commit-time")
      try doc.setData(["at": FieldValue.serverTimestamp()])
      let snapshot = try doc.getDocument()
      #expect(snapshot.get("at") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)
      #expect(snapshot.createTime == snapshot.updateTime)

      // Every document of one batch gets the same update time.
      let batch = db.batch()
      batch.setData(["n": 1], forDocument: db.document("rooms/b1"))
      batch.setData(["n": 2], forDocument: db.document("rooms/b2"))
      batch.updateData(["later": true], forDocument: doc)
      try batch.commit()
      let t1 = try db.document("rooms/b1").getDocument().updateTime
      let t2 = try db.document("rooms/b2").getDocument().updateTime
      let t3 = try doc.getDocument().updateTime
      #expect(t1 != nil)
      #expect(t1 == t2)
      #expect(t2 == t3)
      let batchTime = try #require(t3)
      let firstTime = try #require(snapshot.updateTime)
      #expect(batchTime > firstTime)
    }
  }

  // MARK: - Automatic IDs

  @Test func addDocumentUsesDistinctTwentyCharacterAutoIDs() throws {
    try withDatabase { db in
      let collection = db.collection("rooms")
      var ids: Set<String> = []
      for i in 0..<50 {
        let ref = try collection.addDocument(data: ["i": i])
        #expect(isAutoID(ref.documentID), "auto ID \(ref.documentID)")
        #expect(ref.path == "rooms/\(ref.documentID)")
        #expect(ref.parent.path == "rooms")
        ids.insert(ref.documentID)
        expectSame(try ref.getDocument().data(), ["i": i])
      }
      #expect(ids.count == 50)
      #expect(try collection.getDocuments().count == 50)

      var references: Set<String> = []
      for _ in 0..<500 {
        let ref = collection.document()
        #expect(isAutoID(ref.documentID))
        references.insert(ref.documentID)
      }
      #expect(references.count == 500)
      // document() alone writes nothing.
      #expect(try collection.getDocuments().count == 50)

      // Every character of the alphabet shows up, and nothing else.
      let seen = Set(references.joined())
      #expect(seen.isSubset(of: autoIDAlphabet))
      #expect(seen.count > 55, "500 random IDs should use nearly all 62 characters; saw \(seen.count)")
    }
  }

  @Test func subcollectionAddDocument() throws {
    try withDatabase { db in
      let posts = db.document("users/alice").collection("posts")
      let ref = try posts.addDocument(data: ["title": "Hello"])
      #expect(ref.path == "users/alice/posts/\(ref.documentID)")
      expectSame(try db.document(ref.path).getDocument().data(), ["title": "Hello"])
      #expect(try !db.document("users/alice").getDocument().exists)
    }
  }
}
