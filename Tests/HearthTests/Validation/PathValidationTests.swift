import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Collection and document paths and IDs — docs/semantics.md "Paths and names": invalid ones
/// fail with `invalidArgument` naming the path (and the limit), and write nothing.
@Suite struct PathValidationTests {
  /// Every operation of an invalid document reference fails with `invalidArgument`
  /// mentioning `fragments`; the database stays empty.
  private func expectInvalidDocument(
    _ doc: DocumentReference, _ db: Database, mentioning fragments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectHearthError(.invalidArgument, mentioning: fragments, "setData", sourceLocation: sourceLocation) {
      try doc.setData(["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "merge", sourceLocation: sourceLocation) {
      try doc.setData(["a": 1], merge: true)
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "updateData", sourceLocation: sourceLocation) {
      try doc.updateData(["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "create", sourceLocation: sourceLocation) {
      try doc.create(["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "delete", sourceLocation: sourceLocation) {
      try doc.delete()
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "getDocument", sourceLocation: sourceLocation) {
      _ = try doc.getDocument()
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "batch", sourceLocation: sourceLocation) {
      let batch = db.batch()
      batch.setData(["ok": true], forDocument: db.document("valid/doc"))
      batch.setData(["a": 1], forDocument: doc)
      try batch.commit()
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "transaction", sourceLocation: sourceLocation) {
      try db.runTransaction { transaction in
        transaction.setData(["ok": true], forDocument: db.document("valid/doc"))
        transaction.setData(["a": 1], forDocument: doc)
      }
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "as a reference value", sourceLocation: sourceLocation) {
      try db.document("valid/holder").setData(["ref": doc])
    }
    #expect((try? db.listCollections())?.isEmpty == true, "nothing was written", sourceLocation: sourceLocation)
  }

  /// Every operation of an invalid collection reference fails.
  private func expectInvalidCollection(
    _ collection: CollectionReference, _ db: Database, mentioning fragments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectHearthError(.invalidArgument, mentioning: fragments, "getDocuments", sourceLocation: sourceLocation) {
      _ = try collection.getDocuments()
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "addDocument", sourceLocation: sourceLocation) {
      try collection.addDocument(data: ["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "listDocuments", sourceLocation: sourceLocation) {
      _ = try collection.listDocuments()
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "document(id).setData", sourceLocation: sourceLocation) {
      try collection.document("x").setData(["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "document().setData", sourceLocation: sourceLocation) {
      try collection.document().setData(["a": 1])
    }
    expectHearthError(.invalidArgument, mentioning: fragments, "recursiveDelete", sourceLocation: sourceLocation) {
      try db.recursiveDelete(collection)
    }
    #expect((try? db.listCollections())?.isEmpty == true, "nothing was written", sourceLocation: sourceLocation)
  }

  // MARK: - Segment counts

  @Test func collectionPathWithAnEvenNumberOfSegments() throws {
    try withDatabase { db in
      expectInvalidCollection(db.collection("users/alice"), db, mentioning: ["users/alice"])
      expectInvalidCollection(
        db.document("users/alice").collection("posts/p1"), db, mentioning: ["users/alice/posts/p1"])
    }
  }

  @Test func documentPathWithAnOddNumberOfSegments() throws {
    try withDatabase { db in
      expectInvalidDocument(db.document("users"), db, mentioning: ["users"])
      expectInvalidDocument(db.document("users/alice/posts"), db, mentioning: ["users/alice/posts"])
      expectInvalidDocument(db.collection("users").document("alice/posts"), db, mentioning: ["users/alice/posts"])
    }
  }

  @Test func collectionMessageFollowsFirestore() throws {
    try withDatabase { db in
      expectHearthError(.invalidArgument, mentioning: ["odd number of segments", "users/alice", "2"]) {
        _ = try db.collection("users/alice").getDocuments()
      }
      expectHearthError(.invalidArgument, mentioning: ["even number of segments", "users", "1"]) {
        _ = try db.document("users").getDocument()
      }
    }
  }

  // MARK: - Empty paths and segments

  @Test func emptyPathsAndSegments() throws {
    try withDatabase { db in
      expectInvalidDocument(db.document(""), db, mentioning: ["empty"])
      expectInvalidCollection(db.collection(""), db, mentioning: ["empty"])
      expectInvalidDocument(db.document("users//alice"), db, mentioning: ["users//alice", "//"])
      expectInvalidCollection(db.collection("users//alice/posts"), db, mentioning: ["//"])
      expectInvalidDocument(db.collection("users").document(""), db, mentioning: [])
      expectInvalidCollection(db.document("users/alice").collection(""), db, mentioning: [])
      expectInvalidCollection(db.collection("/"), db, mentioning: [])
      expectInvalidDocument(db.document("//"), db, mentioning: [])
    }
  }

  @Test func oneLeadingOrTrailingSlashIsIgnored() throws {
    try withDatabase { db in
      let doc = db.document("/users/alice/")
      #expect(doc.path == "users/alice")
      #expect(doc.documentID == "alice")
      try doc.setData(["a": 1])
      expectSame(try db.document("users/alice").getDocument().data(), ["a": 1])
      #expect(db.collection("/users/").path == "users")
      #expect(db.collection("/users").collectionID == "users")
      #expect(db.collection("users").document("/alice").path == "users/alice")
      #expect(db.document(doc.path) == doc)
    }
  }

  // MARK: - Reserved IDs

  @Test func dotAndDotDotIDsAreInvalid() throws {
    try withDatabase { db in
      expectInvalidDocument(db.document("users/."), db, mentioning: ["users/."])
      expectInvalidDocument(db.document("users/.."), db, mentioning: ["users/.."])
      expectInvalidDocument(db.collection("users").document(".."), db, mentioning: [])
      expectInvalidCollection(db.collection("."), db, mentioning: [])
      expectInvalidCollection(db.collection("users/alice/.."), db, mentioning: [])
      expectInvalidDocument(db.document("./x"), db, mentioning: [])
      // Dots inside longer IDs are fine.
      try db.document("users/.hidden").setData(["a": 1])
      try db.document("users/a..b").setData(["a": 1])
      try db.document("users/...").setData(["a": 1])
      #expect(try db.collection("users").listDocuments().map(\.documentID) == ["...", ".hidden", "a..b"])
    }
  }

  @Test func underscoreDelimitedIDsAreInvalid() throws {
    try withDatabase { db in
      expectInvalidDocument(db.document("users/__x__"), db, mentioning: ["__x__"])
      expectInvalidDocument(db.document("users/__name__"), db, mentioning: ["__name__"])
      expectInvalidCollection(db.collection("__col__"), db, mentioning: ["__col__"])
      expectInvalidDocument(db.document("__col__/doc"), db, mentioning: ["__col__"])
      expectInvalidCollection(db.document("users/alice").collection("__sub__"), db, mentioning: ["__sub__"])
      // By bytes, and with something between (`__.+__`, as Google's emulator reserves).
      expectInvalidDocument(db.document("users/_____"), db, mentioning: ["_____"])
      expectInvalidDocument(db.document("users/__\u{301}__"), db, mentioning: ["reserved"])
      // Only IDs that both begin and end with `__`, with something between, are reserved.
      for id in ["__x", "x__", "_x_", "a__b__c", "__", "___", "____", "_\u{301}_x__"] {
        try db.collection("users").document(id).setData(["id": id])
      }
      #expect(try db.collection("users").getDocuments().count == 8)
    }
  }

  // MARK: - ID length

  @Test func idsUpTo256BytesWorkAndLongerOnesFailNamingTheLimit() throws {
    try withDatabase { db in
      let longest = String(repeating: "a", count: 256)
      let doc = db.collection("long").document(longest)
      try doc.setData(["n": 1])
      expectSame(try doc.getDocument().data(), ["n": 1])
      #expect(try db.collection("long").listDocuments().map(\.documentID) == [longest])
      #expect(try db.collection("long").getDocuments().documents.map(\.documentID) == [longest])

      let multibyte = String(repeating: "é", count: 128)  // 256 bytes
      try db.collection("long").document(multibyte).setData(["n": 2])
      expectSame(try db.collection("long").document(multibyte).getDocument().get("n"), 2)

      let longCollection = String(repeating: "c", count: 256)
      try db.collection(longCollection).document(longest).setData(["n": 3])
      #expect(try db.collectionGroup(longCollection).getDocuments().count == 1)

      let before = try databaseContents(db)
      for tooLong in [
        String(repeating: "a", count: 257), String(repeating: "é", count: 129), String(repeating: "x", count: 1501),
      ] {
        expectHearthError(.invalidArgument, mentioning: ["256"], "document ID of \(tooLong.utf8.count) bytes") {
          try db.collection("long").document(tooLong).setData(["n": 1])
        }
        expectHearthError(.invalidArgument, mentioning: ["256"], "collection ID of \(tooLong.utf8.count) bytes") {
          try db.collection(tooLong).document("d").setData(["n": 1])
        }
        expectHearthError(.invalidArgument, mentioning: ["256"], "subcollection ID of \(tooLong.utf8.count) bytes") {
          try db.document("long/x").collection(tooLong).addDocument(data: ["n": 1])
        }
      }
      #expect(try databaseContents(db) == before)
    }
  }

  // MARK: - Depth

  private func deepPath(collections: Int) -> String {
    // No digits in the IDs, so a "100" in a message can only be the limit.
    Array(repeating: "col/doc", count: collections).joined(separator: "/")
  }

  @Test func nestingOneHundredCollectionsWorksAndOneMoreFailsNamingTheLimit() throws {
    try withDatabase { db in
      let deepest = db.document(deepPath(collections: 100))
      try deepest.setData(["depth": 100])
      expectSame(try deepest.getDocument().data(), ["depth": 100])
      let collectionPath = (deepest.parent.path)
      #expect(try db.collection(collectionPath).getDocuments().count == 1)
      #expect(try db.collectionGroup("col").getDocuments().documents.map(\.reference.path) == [deepest.path])
      #expect(try db.document(deepPath(collections: 99)).listCollections().map(\.collectionID) == ["col"])
      #expect(try db.listCollections().map(\.collectionID) == ["col"])
      try deepest.updateData(["ref": deepest])
      #expect((try deepest.getDocument().get("ref") as? DocumentReference) == deepest)

      let before = try databaseContents(db)
      let tooDeep = deepPath(collections: 101)
      expectHearthError(.invalidArgument, mentioning: ["100"]) { try db.document(tooDeep).setData(["depth": 101]) }
      expectHearthError(.invalidArgument, mentioning: ["100"]) {
        try deepest.collection("col").addDocument(data: ["depth": 101])
      }
      expectHearthError(.invalidArgument, mentioning: ["100"]) {
        _ = try db.collection(tooDeep + "/col").getDocuments()
      }
      expectHearthError(.invalidArgument, mentioning: ["100"]) {
        try deepest.collection("col").document("doc").setData(["depth": 101])
      }
      #expect(try databaseContents(db) == before)
    }
  }

  // MARK: - Other characters

  @Test func unusualButValidIDs() throws {
    try withDatabase { db in
      let ids = ["with space", "ünïcödé", "🔥", "a.b", "a~b*c[d]", "back\\slash", "tab\tin", "#?&=", "`tick`"]
      for id in ids { try db.collection("odd").document(id).setData(["id": id]) }
      let read = try db.collection("odd").getDocuments().documents
      #expect(Set(read.map(\.documentID)) == Set(ids))
      for snapshot in read { #expect(snapshot.get("id") as? String == snapshot.documentID) }
    }
  }

  @Test func idsAreComparedByBytesNotByUnicodeEquivalence() throws {
    // Firestore IDs are byte strings: "é" (U+00E9) and "e" + U+0301 are different IDs,
    // though Swift's String == calls them equal.
    try withDatabase { db in
      let composed = "caf\u{E9}"
      let decomposed = "cafe\u{301}"
      #expect(Array(composed.utf8) != Array(decomposed.utf8))
      try db.collection("ids").document(composed).setData(["form": "composed"])
      try db.collection("ids").document(decomposed).setData(["form": "decomposed"])
      let documents = try db.collection("ids").getDocuments().documents
      #expect(documents.count == 2)
      #expect(documents.map { Array($0.documentID.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
      #expect(try db.collection("ids").document(composed).getDocument().get("form") as? String == "composed")
      #expect(try db.collection("ids").document(decomposed).getDocument().get("form") as? String == "decomposed")
      let composedRef = db.collection("ids").document(composed)
      let decomposedRef = db.collection("ids").document(decomposed)
      #expect(composedRef != decomposedRef, "references to different documents are not equal")
      #expect(Set([composedRef, decomposedRef]).count == 2)

      // Collections too: each keeps its own documents.
      try db.collection(composed).document("x").setData(["in": "composed"])
      try db.collection(decomposed).document("y").setData(["in": "decomposed"])
      let composedDocs = try db.collection(composed).getDocuments().documents.map(\.documentID)
      let decomposedDocs = try db.collection(decomposed).getDocuments().documents.map(\.documentID)
      #expect(composedDocs == ["x"])
      #expect(decomposedDocs == ["y"])
      #expect(try db.listCollections().count == 3)
      #expect(try db.collectionGroup(composed).getDocuments().documents.map(\.documentID) == ["x"])

      // And a transaction that read one as missing may update the other.
      try db.collection("t").document(composed).setData(["v": 1])
      try db.runTransaction { transaction in
        let snapshot = try transaction.getDocument(db.collection("t").document(decomposed))
        #expect(!snapshot.exists)
        transaction.updateData(["v": 2], forDocument: db.collection("t").document(composed))
      }
      #expect(try db.collection("t").document(composed).getDocument().get("v") as? Int64 == 2)
    }
  }

  @Test func longestIDsAtTheDeepestLevel() throws {
    try withDatabase { db in
      let collectionID = String(repeating: "c", count: 256)
      let documentID = String(repeating: "d", count: 256)
      let path = Array(repeating: "\(collectionID)/\(documentID)", count: 100).joined(separator: "/")
      let doc = db.document(path)
      try doc.setData(["self": doc, "n": 1])
      let snapshot = try doc.getDocument()
      #expect((snapshot.get("self") as? DocumentReference)?.path == path)
      #expect(try db.collection(doc.parent.path).listDocuments().map(\.path) == [path])
      #expect(try db.collectionGroup(collectionID).getDocuments().documents.map(\.reference.path) == [path])
      #expect(try doc.parent.parent?.listCollections().map(\.collectionID) == [collectionID])
      try db.recursiveDelete(db.collection(collectionID))
      #expect(try db.listCollections().isEmpty)
    }
  }

  @Test func collectionGroupIDValidation() throws {
    try withDatabase { db in
      expectHearthError(.invalidArgument, mentioning: ["empty"]) { _ = try db.collectionGroup("").getDocuments() }
      expectHearthError(.invalidArgument, mentioning: ["a/b"]) { _ = try db.collectionGroup("a/b").getDocuments() }
    }
  }

  @Test func referencePropertiesOfValidPaths() throws {
    try withDatabase { db in
      let posts = db.collection("users/alice/posts")
      #expect(posts.collectionID == "posts")
      #expect(posts.path == "users/alice/posts")
      #expect(posts.parent?.path == "users/alice")
      #expect(db.collection("users").parent == nil)
      let post = posts.document("p1")
      #expect(post.path == "users/alice/posts/p1")
      #expect(post.parent.path == "users/alice/posts")
      #expect(post.parent.parent?.documentID == "alice")
      #expect(post == db.document("users/alice/posts/p1"))
      #expect(post.hashValue == db.document("users/alice/posts/p1").hashValue)
      #expect(post != db.document("users/alice/posts/p2"))
      #expect(db.document("users/alice").collection("posts/p1/comments").path == "users/alice/posts/p1/comments")
      #expect(db.collection("users").document("alice/posts/p1") == post)
      #expect(post.firestore === db)
    }
  }
}
