import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The social app's feed queries, end to end.
@Suite struct FeedQueryTests {
  @Test func newestPostsOfAnAuthorWithPaging() throws {
    try withDatabase { db in
      let posts = db.collection("posts")
      let batch = db.batch()
      for index in 0..<30 {
        batch.setData(
          [
            "ownerId": index % 3 == 0 ? "alice" : "bob",
            "createdAt": Timestamp(seconds: Int64(1000 + index), nanoseconds: 0),
            "likes": index, "tags": index % 2 == 0 ? ["swift"] : ["lmdb"],
          ],
          forDocument: posts.document(String(format: "p%02d", index)))
      }
      try batch.commit()
      let feed = posts.whereField("ownerId", isEqualTo: "alice").order(by: "createdAt", descending: true).limit(to: 4)
      let first = try feed.getDocuments()
      #expect(first.documents.map(\.documentID) == ["p27", "p24", "p21", "p18"])
      let next = try feed.start(afterDocument: first.documents.last!).getDocuments()
      #expect(next.documents.map(\.documentID) == ["p15", "p12", "p09", "p06"])
      let range = try posts.whereField("likes", isGreaterThanOrEqualTo: 10).whereField("likes", isLessThan: 13)
        .getDocuments()
      #expect(range.documents.map(\.documentID) == ["p10", "p11", "p12"])
      let tagged = try posts.whereField("tags", arrayContains: "lmdb").whereField("likes", isLessThan: 6).getDocuments()
      #expect(tagged.documents.map(\.documentID) == ["p01", "p03", "p05"])
      let count = try posts.whereField("ownerId", isEqualTo: "bob").count.getAggregation().count
      #expect(count == 20)
      let sums = try posts.whereField("ownerId", isEqualTo: "alice").aggregate([.sum("likes"), .average("likes")])
        .getAggregation()
      #expect(sums.get(.sum("likes")) as? NSNumber == NSNumber(value: 135))
      #expect(sums.get(.average("likes")) as? NSNumber == NSNumber(value: 13.5))
      let last = try posts.order(by: "likes").limit(toLast: 2).getDocuments()
      #expect(last.documents.map(\.documentID) == ["p28", "p29"])
      let either = try posts.whereFilter(
        .orFilter([.whereField("likes", isEqualTo: 1), .whereField("likes", in: [2, 3])])
      )
      .getDocuments()
      #expect(either.documents.map(\.documentID) == ["p01", "p02", "p03"])
      let error = try #require(throws: HearthError.self) { try posts.limit(toLast: 2).getDocuments() }
      #expect(error.code == .invalidArgument)
    }
  }
}
