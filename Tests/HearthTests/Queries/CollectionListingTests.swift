import Foundation
import Hearth
import HearthTestSupport
import Testing

/// listCollections, listDocuments, collection reads in document-ID order, collection
/// groups and recursive deletes (docs/semantics.md "Queries": collection queries see direct
/// children; a collection group sees every collection with that ID).
@Suite struct CollectionListingTests {
  @Test func listCollectionsAtTheRootAndUnderADocument() throws {
    try withDatabase { db in
      #expect(try db.listCollections().isEmpty)
      try db.document("users/alice").setData(["a": 1])
      try db.document("users/alice/posts/p1").setData(["t": 1])
      try db.document("users/alice/likes/l1").setData(["t": 1])
      try db.document("rooms/r1").setData(["r": 1])
      try db.document("Zeta/z").setData([:])
      try db.document("_under/u").setData([:])
      // Only through a missing document: still a collection with documents below.
      try db.document("orphans/ghost/kids/k1").setData(["k": 1])

      #expect(try db.listCollections().map(\.collectionID) == ["Zeta", "_under", "orphans", "rooms", "users"])
      #expect(try db.listCollections().map(\.path) == ["Zeta", "_under", "orphans", "rooms", "users"])
      #expect(try db.document("users/alice").listCollections().map(\.collectionID) == ["likes", "posts"])
      #expect(
        try db.document("users/alice").listCollections().map(\.path) == ["users/alice/likes", "users/alice/posts"])
      #expect(try db.document("orphans/ghost").listCollections().map(\.collectionID) == ["kids"])
      #expect(try db.document("users/nobody").listCollections().isEmpty)
      #expect(try db.document("rooms/r1").listCollections().isEmpty)
    }
  }

  @Test func collectionsWithoutDocumentsBelowAreNotListed() throws {
    try withDatabase { db in
      try db.document("users/alice/posts/p1").setData(["t": 1])
      try db.document("users/alice").setData(["a": 1])
      try db.document("temp/t").setData([:])
      try db.document("temp/t").delete()
      try db.document("users/alice/posts/p1").delete()
      #expect(try db.listCollections().map(\.collectionID) == ["users"])
      #expect(try db.document("users/alice").listCollections().isEmpty)
      try db.document("users/alice").delete()
      #expect(try db.listCollections().isEmpty)
      #expect(try db.collection("users").listDocuments().isEmpty)
      // Writing again brings them back.
      try db.document("temp/t2").setData([:])
      #expect(try db.listCollections().map(\.collectionID) == ["temp"])
    }
  }

  @Test func listDocumentsIncludesMissingParentsWithSubcollections() throws {
    try withDatabase { db in
      try db.document("users/carol").setData(["c": 1])
      try db.document("users/alice/posts/p1").setData(["t": 1])  // alice itself missing
      try db.document("users/bob/a/b/c/d").setData(["deep": 1])  // bob missing, and b missing
      try db.document("users/dave/empty/x").setData([:])
      try db.document("users/dave/empty/x").delete()  // dave: nothing left below
      let listed = try db.collection("users").listDocuments()
      #expect(listed.map(\.documentID) == ["alice", "bob", "carol"])
      #expect(listed.map(\.path) == ["users/alice", "users/bob", "users/carol"])
      #expect(try db.collection("users/bob/a").listDocuments().map(\.documentID) == ["b"])
      // A query returns existing documents only.
      #expect(try db.collection("users").getDocuments().documents.map(\.documentID) == ["carol"])
      #expect(try db.collection("users/bob/a").getDocuments().isEmpty)
      #expect(try db.collection("nothing").listDocuments().isEmpty)
    }
  }

  @Test func getDocumentsReturnsDirectChildrenInUTF8ByteOrder() throws {
    try withDatabase { db in
      let ids = ["é", "a", "B", "b", "A", "10", "9", "_", "Z", "😀", "aa", "a b", "\u{FF}x", "~"]
      for id in ids.shuffled() { try db.collection("items").document(id).setData(["id": id]) }
      try db.document("items/a/sub/child").setData(["nested": true])
      try db.document("items2/x").setData(["other": true])
      try db.document("item/x").setData(["other": true])
      let expected = ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      #expect(expected.prefix(4) == ["10", "9", "A", "B"])
      let snapshot = try db.collection("items").getDocuments()
      #expect(snapshot.documents.map(\.documentID) == expected)
      #expect(snapshot.count == ids.count)
      #expect(!snapshot.isEmpty)
      for document in snapshot.documents {
        #expect(document.get("id") as? String == document.documentID)
        #expect(document.exists)
        #expect(document.reference.parent.path == "items")
      }
      #expect(try db.collection("items").listDocuments().map(\.documentID) == expected)
      // "B" < "a" < "é": byte order, not Swift's String order or case-insensitive order.
      let order = snapshot.documents.map(\.documentID)
      let positions = ["B", "a", "é"].compactMap { order.firstIndex(of: $0) }
      #expect(positions == positions.sorted())
    }
  }

  @Test func queryDocumentChangesOfAOneTimeRead() throws {
    try withDatabase { db in
      try db.document("c/a").setData([:])
      try db.document("c/b").setData([:])
      let snapshot = try db.collection("c").getDocuments()
      #expect(snapshot.documentChanges.map(\.type) == [.added, .added])
      #expect(snapshot.documentChanges.map(\.newIndex) == [0, 1])
      #expect(snapshot.documentChanges.map(\.oldIndex) == [UInt(NSNotFound), UInt(NSNotFound)])
      #expect(!snapshot.metadata.hasPendingWrites && !snapshot.metadata.isFromCache)
    }
  }

  @Test func collectionGroupFindsEveryCollectionWithThatIDAndNothingElse() throws {
    try withDatabase { db in
      let wanted = [
        "posts/p0", "users/u1/posts/p1", "users/u1/posts/p1/comments/c1/posts/p2",
        "groups/g/sub/s/posts/p3", "users/u2/posts/a", "users/u2/posts/b",
      ]
      for path in wanted { try db.document(path).setData(["path": path]) }
      let unwanted = [
        "posts_x/p", "xposts/p", "Posts/p", "users/u1/things/posts", "users/u1/post/p",
        "users/u1/posts/p1/comments/c1",
      ]
      for path in unwanted { try db.document(path).setData(["path": path]) }
      // A missing document in a posts collection is not a result.
      try db.document("users/u3/posts/missing/replies/r").setData([:])

      let found = try db.collectionGroup("posts").getDocuments().documents
      let expected = wanted.sorted { lhs, rhs in
        let l = lhs.split(separator: "/").map { Array($0.utf8) }
        let r = rhs.split(separator: "/").map { Array($0.utf8) }
        for (a, b) in zip(l, r) where a != b { return a.lexicographicallyPrecedes(b) }
        return l.count < r.count
      }
      #expect(found.map(\.reference.path) == expected)
      for document in found { #expect(document.get("path") as? String == document.reference.path) }
      #expect(
        try db.collectionGroup("comments").getDocuments().documents.map(\.reference.path) == [
          "users/u1/posts/p1/comments/c1"
        ])
      #expect(try db.collectionGroup("nothing").getDocuments().isEmpty)

      try db.document("users/u2/posts/a").delete()
      #expect(try db.collectionGroup("posts").getDocuments().count == wanted.count - 1)
    }
  }

  @Test func recursiveDeleteOfADocumentRemovesEverythingBelowIt() throws {
    try withDatabase { db in
      let alice = db.document("users/alice")
      try alice.setData(["a": 1])
      try alice.collection("posts").document("p1").setData(["t": 1])
      try alice.collection("posts").document("p1").collection("comments").document("c1").setData(["t": 1])
      try alice.collection("likes").document("l1").setData(["t": 1])
      try db.document("users/alice/x/missing/y/deep").setData(["t": 1])
      try db.document("users/alicia/posts/p").setData(["keep": true])
      try db.document("users/bob").setData(["keep": true])
      try db.document("users/bob/posts/p").setData(["keep": true])

      try db.recursiveDelete(alice)
      #expect(try !alice.getDocument().exists)
      #expect(try alice.listCollections().isEmpty)
      #expect(try db.collectionGroup("comments").getDocuments().isEmpty)
      #expect(try db.collectionGroup("likes").getDocuments().isEmpty)
      #expect(try db.collectionGroup("y").getDocuments().isEmpty)
      #expect(try db.collection("users").listDocuments().map(\.documentID) == ["alicia", "bob"])
      #expect(
        try db.collectionGroup("posts").getDocuments().documents.map(\.reference.path) == [
          "users/alicia/posts/p", "users/bob/posts/p",
        ])
      expectSame(try db.document("users/bob").getDocument().data(), ["keep": true])

      // A missing document with subcollections, and a document with nothing at all.
      try db.recursiveDelete(db.document("users/alicia"))
      try db.recursiveDelete(db.document("users/nobody"))
      #expect(try db.collection("users").listDocuments().map(\.documentID) == ["bob"])
    }
  }

  @Test func recursiveDeleteOfACollectionRemovesEverythingBelowIt() throws {
    try withDatabase { db in
      try db.document("users/alice").setData(["a": 1])
      try db.document("users/alice/posts/p1").setData(["t": 1])
      try db.document("users/ghost/posts/p2").setData(["t": 1])
      try db.document("users2/keep").setData(["keep": true])
      try db.document("user/keep").setData(["keep": true])
      try db.document("rooms/r/users/u").setData(["nested": true])

      try db.recursiveDelete(db.collection("users"))
      #expect(try db.collection("users").getDocuments().isEmpty)
      #expect(try db.collection("users").listDocuments().isEmpty)
      #expect(try db.collectionGroup("posts").getDocuments().isEmpty)
      #expect(try db.listCollections().map(\.collectionID) == ["rooms", "user", "users2"])
      #expect(try db.collectionGroup("users").getDocuments().documents.map(\.reference.path) == ["rooms/r/users/u"])

      try db.recursiveDelete(db.collection("rooms/r/users"))
      #expect(try db.listCollections().map(\.collectionID) == ["user", "users2"])
      try db.recursiveDelete(db.collection("never"))

      // The collection works normally afterwards.
      try db.document("users/new").setData(["n": 1])
      #expect(try db.collection("users").getDocuments().documents.map(\.documentID) == ["new"])
    }
  }

  @Test func recursiveDeleteOfALargeTree() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for i in 0..<300 {
        batch.setData(["i": i], forDocument: db.document("big/d\(i)"))
        batch.setData(["i": i], forDocument: db.document("big/d\(i)/sub/s"))
      }
      try batch.commit()
      try db.recursiveDelete(db.collection("big"))
      #expect(try db.listCollections().isEmpty)
      #expect(try db.collectionGroup("sub").getDocuments().isEmpty)
    }
  }
}
