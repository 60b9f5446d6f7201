import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Queries read index ranges, not collections: checked with `explain()` counts on
/// 100,000 documents (issue 3, acceptance 2). Counts, not timings.
@Suite(.serialized) struct IndexEfficiencyTests {
  static let owners = 1000
  static let count = 100_000

  /// A database with `feed`: 100,000 posts by 1,000 owners, unique `createdAt` and `likes`,
  /// and the composite index the feed query needs.
  static let feed: Database = {
    let settings = Settings()
    settings.durability = .relaxed
    let db = try! Database.temporary(settings: settings)
    try! db.declareIndexes(
      json: """
        {"indexes": [{"collectionGroup": "feed", "queryScope": "COLLECTION",
          "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, {"fieldPath": "createdAt", "order": "DESCENDING"}]}]}
        """)
    for first in stride(from: 0, to: count, by: 5000) {
      let batch = db.batch()
      for index in first..<first + 5000 {
        batch.setData(
          [
            "ownerId": "o\(index % owners)",
            "createdAt": Timestamp(seconds: 1_700_000_000 + Int64(index), nanoseconds: 0),
            "likes": (index * 7919) % count,
          ], forDocument: db.collection("feed").document(String(format: "p%06d", index)))
      }
      try! batch.commit()
    }
    return db
  }()

  @Test func equalityOrderAndLimitReadsOnlyWhatItReturns() throws {
    let query = Self.feed.collection("feed").whereField("ownerId", isEqualTo: "o7").order(
      by: "createdAt", descending: true
    )
    .limit(to: 20)
    let explanation = try query.explain()
    #expect(explanation.resultsReturned == 20)
    #expect(explanation.indexEntriesRead <= 21, "\(explanation)")
    #expect(explanation.documentsRead <= 20, "\(explanation)")
    let ids = try query.getDocuments().documents.map(\.documentID)
    #expect(ids.first == "p099007")
    #expect(ids == (0..<20).map { String(format: "p%06d", 99_007 - $0 * 1000) })
  }

  @Test func pagingWithACursorReadsNothingBeforeIt() throws {
    let query = Self.feed.collection("feed").whereField("ownerId", isEqualTo: "o7").order(
      by: "createdAt", descending: true
    )
    .limit(to: 20)
    let first = try query.getDocuments()
    let next = query.start(afterDocument: first.documents.last!)
    let explanation = try next.explain()
    #expect(explanation.indexEntriesRead <= 21, "\(explanation)")
    #expect(explanation.documentsRead <= 21, "\(explanation)")
    #expect(
      try next.getDocuments().documents.map(\.documentID)
        == (20..<40).map { String(format: "p%06d", 99_007 - $0 * 1000) })
  }

  /// `in` reads one range a value on the composite index and merges them: a limit of 20
  /// over five owners reads at most 20 entries plus one a range, from either end, and
  /// only the documents it returns (the merge orders the ranges by their entries).
  @Test func anInQueryMergesItsRangesAndStopsAtTheLimit() throws {
    let owners = [3, 500, 1, 42, 9]
    let query = Self.feed.collection("feed").whereField("ownerId", in: owners.map { "o\($0)" })
      .order(by: "createdAt", descending: true)
    let inOrder = (0..<Self.count).reversed().filter { owners.contains($0 % Self.owners) }
      .map { String(format: "p%06d", $0) }
    for (limited, expected) in [
      (query.limit(to: 20), Array(inOrder.prefix(20))), (query.limit(toLast: 20), Array(inOrder.suffix(20))),
    ] {
      let explanation = try limited.explain()
      #expect(explanation.resultsReturned == 20)
      #expect(explanation.indexEntriesRead <= 25, "\(explanation)")
      #expect(explanation.documentsRead == 20, "\(explanation)")
      #expect(try limited.getDocuments().documents.map(\.documentID) == expected)
    }
  }

  /// `array-contains-any` merges one range a value by document name; a document met under
  /// several values is read once, and only the documents returned are read.
  @Test func anArrayContainsAnyReadsEachDocumentReturnedOnce() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for index in 0..<200 {
        batch.setData(
          ["tags": ["t\(index % 5)", "t\((index + 1) % 5)"]],
          forDocument: db.document(String(format: "tagged/d%03d", index)))
      }
      try batch.commit()
      let query = db.collection("tagged").whereField("tags", arrayContainsAny: ["t1", "t2", "t3"]).limit(to: 10)
      let expected = (0..<200).filter { $0 % 5 != 4 }.prefix(10).map { String(format: "d%03d", $0) }
      let explanation = try query.explain()
      #expect(explanation.resultsReturned == 10)
      #expect(explanation.documentsRead == 10, "\(explanation)")
      #expect(try query.getDocuments().documents.map(\.documentID) == expected)
    }
  }

  @Test func aRangeWithALimitReadsOneEntryPastIt() throws {
    let query = Self.feed.collection("feed").whereField("likes", isGreaterThanOrEqualTo: 500)
      .whereField("likes", isLessThan: 5000).limit(to: 50)
    let explanation = try query.explain()
    #expect(explanation.resultsReturned == 50)
    #expect(explanation.indexEntriesRead <= 51, "\(explanation)")
    let likes = try query.getDocuments().documents.map { $0.get("likes") as? Int64 ?? -1 }
    #expect(likes == Array(500..<550).map(Int64.init))
  }

  @Test func anEqualityReadsOnlyItsEntries() throws {
    let explanation = try Self.feed.collection("feed").whereField("ownerId", isEqualTo: "o42").explain()
    #expect(explanation.resultsReturned == 100)
    #expect(explanation.indexEntriesRead == 100, "\(explanation)")
    #expect(explanation.documentsRead == 100, "\(explanation)")
  }

  @Test func aCollectionGroupQueryReadsOnlyThatGroupsEntries() throws {
    try withDatabase { db in
      try db.declareIndexes(
        json: """
          {"fieldOverrides": [{"collectionGroup": "posts", "fieldPath": "ownerId",
            "indexes": [{"order": "ASCENDING", "queryScope": "COLLECTION"}, {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}]}]}
          """)
      let batch = db.batch()
      for user in 0..<200 {
        for post in 0..<5 {
          batch.setData(["ownerId": "u\(user % 20)"], forDocument: db.document("users/u\(user)/posts/p\(post)"))
          batch.setData(["ownerId": "u\(user % 20)"], forDocument: db.document("users/u\(user)/postsx/p\(post)"))
        }
      }
      try batch.commit()
      let query = db.collectionGroup("posts").whereField("ownerId", isEqualTo: "u7")
      let explanation = try query.explain()
      #expect(explanation.resultsReturned == 50)
      #expect(explanation.indexEntriesRead == 50, "\(explanation)")
      #expect(explanation.plan.contains("collection-group index"), "\(explanation)")
      let paths = try query.getDocuments().documents.map(\.reference.path)
      #expect(paths == paths.sorted())
      #expect(paths.allSatisfy { $0.contains("/posts/") })
    }
  }

  @Test func declaringAnIndexFillsItFromExistingDocuments() throws {
    try withDatabase { db in
      for index in 0..<300 {
        try db.collection("items").document("i\(index)").setData(["group": index % 3, "rank": index])
      }
      let query = db.collection("items").whereField("group", isEqualTo: 1).order(by: "rank", descending: true).limit(
        to: 5)
      let before = try query.explain()
      #expect(!before.plan.contains("composite"), "\(before)")
      try db.declareIndexes(
        json: """
          {"indexes": [{"collectionGroup": "items", "fields": [{"fieldPath": "group", "order": "ASCENDING"},
            {"fieldPath": "rank", "order": "DESCENDING"}]}]}
          """)
      let after = try query.explain()
      #expect(after.plan.contains("composite"), "\(after)")
      #expect(after.indexEntriesRead <= 6, "\(after)")
      #expect(try query.getDocuments().documents.map(\.documentID) == ["i298", "i295", "i292", "i289", "i286"])
      #expect(try db.declaredIndexesJSON().contains("\"rank\""))
      // Later writes keep it current.
      try db.collection("items").document("top").setData(["group": 1, "rank": 1000])
      try db.collection("items").document("i298").delete()
      #expect(try query.getDocuments().documents.map(\.documentID) == ["top", "i295", "i292", "i289", "i286"])
    }
  }

  @Test func requireIndexesRefusesWhatProductionWouldAndNamesTheIndex() throws {
    let settings = Settings()
    settings.requireIndexes = true
    try withDatabase(settings: settings) { db in
      try db.collection("posts").document("a").setData(["ownerId": "x", "likes": 3])
      let query = db.collection("posts").whereField("ownerId", isEqualTo: "x").order(by: "likes")
      let error = try #require(throws: HearthError.self) { try query.getDocuments() }
      #expect(error.code == .failedPrecondition)
      #expect(error.message.contains(#""fieldPath":"ownerId""#), "\(error.message)")
      #expect(error.message.contains(#""fieldPath":"likes""#), "\(error.message)")
      // Equalities alone, and one field filtered and ordered, need no composite index.
      #expect(try db.collection("posts").whereField("ownerId", isEqualTo: "x").getDocuments().count == 1)
      #expect(
        try db.collection("posts").whereField("likes", isGreaterThan: 1).order(by: "likes").getDocuments().count == 1)
      #expect(try db.collection("posts").whereField("likes", in: [3, 4]).order(by: "likes").getDocuments().count == 1)
      let json = String(error.message[error.message.range(of: "{")!.lowerBound...])
      try db.declareIndexes(json: json)
      #expect(try query.getDocuments().count == 1)
      // The same index serves `in` over its equality field (one range a value).
      #expect(
        try db.collection("posts").whereField("ownerId", in: ["x", "y"]).order(by: "likes").getDocuments().count == 1)
      // A collection-group query needs a collection-group index.
      let group = db.collectionGroup("posts").whereField("ownerId", isEqualTo: "x")
      let groupError = try #require(throws: HearthError.self) { try group.getDocuments() }
      #expect(groupError.message.contains("COLLECTION_GROUP"))
    }
  }
}
