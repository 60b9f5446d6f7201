import Foundation
import Hearth
import HearthTestSupport
import Testing

// `collectionGroup(_:)`: every document whose parent collection ID is the group's, at any
// depth — not `cgx`/`xcg` decoys, not a document named like the group — ordered by full
// path by default; filters, order, limits and cursors on groups (FIRQueryTests.mm,
// FIRCountTests.mm).

@Suite("Query collection groups")
struct QueryCollectionGroupTests {

  /// Firestore's testCollectionGroupQueries paths, with the group named `cg`.
  private static let decoyPaths = [
    "abc/123/cg/cg-doc1", "abc/123/cg/cg-doc2", "cg/cg-doc3", "cg/cg-doc4", "def/456/cg/cg-doc5",
    "cg/virtual-doc/nested-coll/not-cg-doc", "xcg/not-cg-doc", "cgx/not-cg-doc", "abc/123/cgx/not-cg-doc",
    "abc/123/xcg/not-cg-doc", "abc/cg",
  ]

  private func seedDecoys(_ db: Database) throws {
    var documents: [String: [String: Any]] = [:]
    for (i, path) in Self.decoyPaths.enumerated() {
      documents[path] = ["x": 1, "i": i]
    }
    try seed(db, paths: documents)
  }

  @Test func groupsMatchEveryDepthAndNoDecoys() throws {
    try withDatabase(settings: relaxed) { db in
      try seedDecoys(db)
      expectPaths(
        db.collectionGroup("cg"),
        ["abc/123/cg/cg-doc1", "abc/123/cg/cg-doc2", "cg/cg-doc3", "cg/cg-doc4", "def/456/cg/cg-doc5"])
      expectIDs(db.collectionGroup("cgx"), ["not-cg-doc", "not-cg-doc"])
      expectPaths(db.collectionGroup("nested-coll"), ["cg/virtual-doc/nested-coll/not-cg-doc"])
      expectPaths(db.collectionGroup("abc"), ["abc/cg"], "the document named like the group belongs to `abc`")
      expectIDs(db.collectionGroup("nothing"), [])
    }
  }

  @Test func aCollectionQuerySeesOnlyDirectChildren() throws {
    try withDatabase(settings: relaxed) { db in
      try seedDecoys(db)
      expectPaths(db.collection("cg"), ["cg/cg-doc3", "cg/cg-doc4"])
      expectPaths(db.collection("abc/123/cg"), ["abc/123/cg/cg-doc1", "abc/123/cg/cg-doc2"])
      expectPaths(db.collection("cg").whereField("x", isEqualTo: 1), ["cg/cg-doc3", "cg/cg-doc4"])
    }
  }

  @Test func defaultOrderIsByFullPathSegmentBySegment() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "a-b/c/posts/p1": ["n": 1], "a/b/posts/p2": ["n": 2], "a/b/c/d/posts/p3": ["n": 3], "posts/p4": ["n": 4],
          "a/b/posts/p0": ["n": 5], "A/z/posts/p5": ["n": 6],
        ])
      // Segment order: "A" < "a" < "a-b" ("a" is a prefix), though the string "a-b/..." sorts
      // before "a/..." ('-' < '/').
      expectPaths(
        db.collectionGroup("posts"),
        ["A/z/posts/p5", "a/b/c/d/posts/p3", "a/b/posts/p0", "a/b/posts/p2", "a-b/c/posts/p1", "posts/p4"])
    }
  }

  /// Without a group index, a group is read collection by collection. Ordered by name
  /// alone, the collections are read one after another in path order (so a limit reads no
  /// more documents than it returns); a collection under a document of another
  /// interleaves its documents with that one's, and the collections are merged instead.
  /// Both give the same order, every way the results can be walked.
  @Test func collectionsReadInSequenceKeepPathOrder() throws {
    let flat = [
      "posts/e", "posts/f", "users/u1/posts/a", "users/u1/posts/b", "users/u10/posts/d", "users/u2/posts/c",
      "z/1/posts/g",
    ]
    var nested = flat
    nested.insert("users/u1/posts/a/posts/x", at: 3)
    for paths in [flat, nested] {
      try withDatabase(settings: relaxed) { db in
        let draft = "users/u10/posts/d"
        try seed(
          db,
          paths: Dictionary(
            uniqueKeysWithValues: paths.map { ($0, ["kind": $0 == draft ? "draft" : "post", "tags": ["a", "b"]]) }))
        let group = db.collectionGroup("posts")
        let b = try db.document("users/u1/posts/b").getDocument()
        let byName = group.order(by: FieldPath.documentID())
        let byNameDescending = group.order(by: FieldPath.documentID(), descending: true)
        let label = paths.count == flat.count ? "flat" : "nested"
        expectPaths(group, paths, label)
        let posts = paths.filter { $0 != draft }
        expectPaths(group.whereField("kind", isEqualTo: "post"), posts, label)
        expectPaths(group.whereField("kind", isEqualTo: "post").limit(to: 5), Array(posts.prefix(5)), label)
        expectPaths(group.whereField("tags", arrayContains: "b"), paths, label)
        expectPaths(group.whereField("kind", in: ["post", "draft"]), paths, label)
        expectPaths(group.whereField("kind", isNotEqualTo: "post"), [draft], label)
        expectPaths(group.limit(to: 3), Array(paths.prefix(3)), label)
        expectPaths(byName.limit(toLast: 2), Array(paths.suffix(2)), label)
        expectPaths(byNameDescending, paths.reversed(), label)
        expectPaths(byNameDescending.limit(to: 2), Array(paths.reversed().prefix(2)), label)
        expectPaths(byNameDescending.limit(toLast: 2), Array(paths.prefix(2).reversed()), label)
        let afterB = paths.firstIndex(of: "users/u1/posts/b")! + 1
        expectPaths(group.start(afterDocument: b), Array(paths[afterB...]), label)
        expectPaths(byName.end(beforeDocument: b).limit(toLast: 2), Array(paths[afterB - 3..<afterB - 1]), label)
        expectPaths(byNameDescending.start(atDocument: b), Array(paths[..<afterB].reversed()), label)
        let e = try db.document("posts/e").getDocument()
        let u2 = try db.document("users/u2/posts/c").getDocument()
        expectPaths(group.start(atDocument: e), paths, label)
        expectPaths(byNameDescending.start(afterDocument: e), [], label)
        expectPaths(byName.start(at: ["users/u1"]), Array(paths.drop { !$0.hasPrefix("users/") }), label)
        expectPaths(
          byName.start(at: ["users/u1/posts/a/posts/w"]), Array(paths.drop { $0 <= "users/u1/posts/a" }), label)
        expectPaths(byNameDescending.start(afterDocument: u2), Array(paths.reversed().drop { $0 >= "users/u2" }), label)
        // `__name__` ranges, bounds in other collections than a document's own: those
        // collections are read from the bound's ancestor on, or not at all.
        let name = FieldPath.documentID()
        let x = paths.filter { $0.hasPrefix("users/u1/posts/a/") }
        let users1 = group.whereField(name, isGreaterThanOrEqualTo: "users/u1").whereField(
          name, isLessThan: "users/u1~")
        expectPaths(users1, ["users/u1/posts/a"] + x + ["users/u1/posts/b", "users/u10/posts/d"], label)
        expectPaths(
          group.whereField(name, isGreaterThan: "users/u1/posts/a").whereField(
            name, isLessThanOrEqualTo: "users/u2/posts/c"),
          x + ["users/u1/posts/b", "users/u10/posts/d", "users/u2/posts/c"], label)
        expectPaths(group.whereField(name, isLessThan: "posts/f"), ["posts/e"], label)
        let listed = ["users/u2/posts/c", "posts/e", "users/u1/posts/b"]
        expectPaths(group.whereField(name, in: listed), ["posts/e", "users/u1/posts/b", "users/u2/posts/c"], label)
        expectPaths(group.whereField(name, notIn: listed), paths.filter { !listed.contains($0) }, label)
        expectPaths(
          group.whereField(name, isGreaterThanOrEqualTo: "users/u1/posts/a/posts/w"),
          x + ["users/u1/posts/b", "users/u10/posts/d", "users/u2/posts/c", "z/1/posts/g"], label)
        expectPaths(
          group.whereField(name, isLessThanOrEqualTo: "users/u1/posts/a/posts/w"),
          ["posts/e", "posts/f", "users/u1/posts/a"], label)
        expectPaths(
          db.collection("users/u1/posts").whereField(name, isLessThan: db.document("users/u1/posts/a/posts/w")),
          ["users/u1/posts/a"], label)
        if paths.count == flat.count {
          #expect(try users1.explain().documentsRead == 3)
          let explanation = try group.limit(to: 2).explain()
          #expect(explanation.documentsRead == 2, "\(explanation)")
          // A page after a cursor reads the cursor's document (to step past it) and its own.
          let page = try group.start(afterDocument: b).limit(to: 2).explain()
          #expect(page.documentsRead == 3, "\(page)")
          let pageBack = try byNameDescending.start(afterDocument: u2).limit(to: 2).explain()
          #expect(pageBack.documentsRead == 3, "\(pageBack)")
        }
      }
    }
  }

  /// An aggregation without a limit reads a group's collections one after another in any
  /// order; over an inequality, with collections nested in each other's documents, it
  /// sees each matching document once.
  @Test func aggregationsReadAGroupsCollectionsInAnyOrder() throws {
    try withDatabase(settings: relaxed) { db in
      var documents: [String: [String: Any]] = [:]
      for user in 0..<6 {
        for post in 0..<4 { documents["users/u\(user)/posts/p\(post)"] = ["n": user * 4 + post] }
      }
      documents["users/u1/posts/p2/posts/q"] = ["n": 100.5]
      documents["posts/top"] = ["n": "not a number"]
      documents["posts/none"] = ["other": 1]
      try seed(db, paths: documents)
      let group = db.collectionGroup("posts")
      // n > 9: the integers 10…23 (14, summing to 231) and 100.5; the string is not a number.
      let snapshot = try group.whereField("n", isGreaterThan: 9).aggregate([
        AggregateField.count(), AggregateField.sum("n"), AggregateField.average("n"),
      ]).getAggregation(source: .server)
      #expect(snapshot.count.intValue == 15)
      #expect(aggregateValue(snapshot.get(AggregateField.sum("n"))) == "double:331.5")
      #expect(aggregateValue(snapshot.get(AggregateField.average("n"))) == "double:22.1")
      // Every document with n, a string among them; the limit takes the 3 smallest numbers.
      #expect(try group.count.getAggregation(source: .server).count.intValue == 27)
      let limited = try group.limit(to: 3).aggregate([AggregateField.sum("n")]).getAggregation(source: .server)
      #expect(aggregateValue(limited.get(AggregateField.sum("n"))) == "int:3")
    }
  }

  @Test func filtersAndOrderOnGroupsBreakTiesByFullPath() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "users/alice/posts/p1": ["likes": 5, "tag": "a"], "users/bob/posts/p1": ["likes": 5, "tag": "b"],
          "users/alice/posts/p2": ["likes": 9, "tag": "a"], "posts/p9": ["likes": 1, "tag": "a"],
          "users/carol/posts/p3": ["tag": "a"], "users/alice/drafts/p4": ["likes": 100, "tag": "a"],
        ])
      let group = db.collectionGroup("posts")
      expectPaths(
        group.whereField("likes", isGreaterThanOrEqualTo: 5),
        ["users/alice/posts/p1", "users/bob/posts/p1", "users/alice/posts/p2"])
      expectPaths(
        group.order(by: "likes", descending: true),
        ["users/alice/posts/p2", "users/bob/posts/p1", "users/alice/posts/p1", "posts/p9"], "ties by full path desc")
      expectPaths(
        group.whereField("tag", isEqualTo: "a"),
        ["posts/p9", "users/alice/posts/p1", "users/alice/posts/p2", "users/carol/posts/p3"])
      expectPaths(
        group.whereField("tag", isEqualTo: "a").order(by: "likes").limit(to: 2), ["posts/p9", "users/alice/posts/p1"])
      expectPaths(group.order(by: "likes").limit(toLast: 2), ["users/bob/posts/p1", "users/alice/posts/p2"])
      expectPaths(
        group.whereFilter(
          Filter.orFilter([Filter.whereField("tag", isEqualTo: "b"), Filter.whereField("likes", isEqualTo: 9)])),
        ["users/alice/posts/p2", "users/bob/posts/p1"])
    }
  }

  @Test func cursorsOnGroupsUseFullPaths() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "users/alice/posts/p1": ["likes": 5], "users/bob/posts/p1": ["likes": 5],
          "users/alice/posts/p2": ["likes": 9],
          "posts/p9": ["likes": 1],
        ])
      let group = db.collectionGroup("posts")
      let alice = try db.document("users/alice/posts/p1").getDocument()
      // likes asc, full path asc: posts/p9, alice/p1, bob/p1, alice/p2.
      expectPaths(group.order(by: "likes").start(afterDocument: alice), ["users/bob/posts/p1", "users/alice/posts/p2"])
      expectPaths(group.order(by: "likes").end(beforeDocument: alice), ["posts/p9"])
      expectPaths(group.start(afterDocument: alice), ["users/alice/posts/p2", "users/bob/posts/p1"])
      expectPaths(
        group.order(by: "likes").order(by: FieldPath.documentID()).start(at: [5, "users/bob/posts/p1"]).limit(to: 5),
        ["users/bob/posts/p1", "users/alice/posts/p2"], "a full path as the __name__ cursor value")
    }
  }

  @Test func countOnAGroup() throws {
    try withDatabase(settings: relaxed) { db in
      try seedDecoys(db)
      let count = try db.collectionGroup("cg").count.getAggregation(source: .server).count
      #expect(count.intValue == 5)
      let filtered = try db.collectionGroup("cg").whereField("i", isGreaterThan: 2).count.getAggregation(
        source: .server)
      #expect(filtered.count.intValue == 2)
    }
  }

  /// A collection-group index names documents by path; collections whose IDs differ only
  /// by Unicode normalisation ("é" and "e" + U+0301) are different collections, and each
  /// result must be its own document.
  @Test func aGroupIndexTellsApartCollectionsThatLookAlike() throws {
    try withDatabase(settings: relaxed) { db in
      try db.declareIndexes(
        json: """
          {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
            "fields": [{"fieldPath": "kind", "order": "ASCENDING"}, {"fieldPath": "n", "order": "ASCENDING"}]}]}
          """)
      for (user, spelling) in [("\u{E9}", "composed"), ("e\u{301}", "decomposed")] {
        for n in 0..<3 {
          try db.document("users/\(user)/posts/p\(n)").setData(["kind": "post", "n": n, "spelling": spelling])
        }
      }
      let query = db.collectionGroup("posts").whereField("kind", isEqualTo: "post").order(by: "n")
      #expect(try query.explain().plan.contains("collection-group index"))
      let documents = try query.getDocuments().documents
      #expect(documents.count == 6)
      for document in documents {
        let user = document.reference.parent.parent!.documentID
        #expect(document["spelling"] as? String == (user.unicodeScalars.count == 1 ? "composed" : "decomposed"))
      }
    }
  }

  @Test func invalidGroupIDsAreRejected() throws {
    try withDatabase(settings: relaxed) { db in
      expectInvalidQuery(db.collectionGroup(""), mentioning: ["empty"])
      expectInvalidQuery(db.collectionGroup("a/b"), mentioning: ["a/b"])
      expectInvalidQuery(db.collectionGroup("").whereField("x", isEqualTo: 1), mentioning: ["empty"])
    }
  }

  /// Group indexes on `posts` by `tag`, then `n` descending and ascending: names stored
  /// both ways.
  private static let tagThenN = """
    {"indexes": [
      {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
       "fields": [{"fieldPath": "tag", "order": "ASCENDING"}, {"fieldPath": "n", "order": "DESCENDING"}]},
      {"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
       "fields": [{"fieldPath": "tag", "order": "ASCENDING"}, {"fieldPath": "n", "order": "ASCENDING"}]}
    ]}
    """

  /// Under an equality, a group walk names each entry's document by the bytes of the last
  /// entry's collection when they match: a collection nested in a document of that one,
  /// a collection whose parent's ID extends the last's, an ID with an escaped zero byte
  /// and a return to the first collection, in a row, ascending and descending.
  @Test func consecutiveEntriesOfOneCollectionNameTheirDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      try db.declareIndexes(json: Self.tagThenN)
      let inOrder = [
        "users/al/posts/p1", "users/al/posts/p1/posts/q1", "users/al/posts/p2", "users/ali/posts/p3",
        "users/al/posts/p\u{0}4", "users/al/posts/p5", "users/al/posts/p6", "users/a/posts/p7",
      ]
      var documents: [String: [String: Any]] = [:]
      for (n, path) in inOrder.enumerated() { documents[path] = ["tag": "a", "n": n] }
      documents["users/al/posts/other"] = ["tag": "b", "n": 3]
      try seed(db, paths: documents)
      let posts = db.collectionGroup("posts")
      let group = posts.whereField("tag", isEqualTo: "a")
      for _ in 0..<2 {
        expectPaths(group.order(by: "n"), inOrder)
        expectPaths(group.order(by: "n", descending: true), inOrder.reversed())
        expectPaths(
          posts.whereField("tag", in: ["a", "b"]).order(by: "n"),
          inOrder.prefix(3) + ["users/al/posts/other"] + inOrder.dropFirst(3))
      }
    }
  }

  /// Collection-group index entries name their collection by its path's bytes, which the
  /// registry looks up (`CollectionRegistry.collection(named:)`): cold and warm, names
  /// stored ascending and descending, IDs with an escaped zero byte (decoded whole), at
  /// any depth, the results are the documents' own paths.
  @Test func groupIndexEntriesNameTheirDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      try db.declareIndexes(json: Self.tagThenN)
      try seed(
        db,
        paths: [
          "users/al\u{0}ice/posts/p1": ["tag": "a", "n": 1], "users/alice/posts/p\u{0}2": ["tag": "a", "n": 2],
          "users/alice/posts/p3": ["tag": "b", "n": 3], "posts/p4": ["tag": "a", "n": 4],
          "a/b/c/d/posts/p5": ["tag": "b", "n": 5], "users/bob/posts/p6": ["tag": "a", "n": 6],
        ])
      let group = db.collectionGroup("posts")
      let newest = group.whereField("tag", isEqualTo: "a").order(by: "n", descending: true)
      let oldest = group.whereField("tag", isEqualTo: "a").order(by: "n")
      let both = group.whereField("tag", in: ["a", "b"]).order(by: "n")
      for query in [newest, oldest, both] {
        #expect(try query.explain().plan.contains("collection-group index"))
      }
      for _ in 0..<2 {
        expectPaths(
          newest, ["users/bob/posts/p6", "posts/p4", "users/alice/posts/p\u{0}2", "users/al\u{0}ice/posts/p1"])
        expectPaths(
          oldest, ["users/al\u{0}ice/posts/p1", "users/alice/posts/p\u{0}2", "posts/p4", "users/bob/posts/p6"])
        expectPaths(
          both,
          [
            "users/al\u{0}ice/posts/p1", "users/alice/posts/p\u{0}2", "users/alice/posts/p3", "posts/p4",
            "a/b/c/d/posts/p5", "users/bob/posts/p6",
          ])
      }
    }
  }
}
