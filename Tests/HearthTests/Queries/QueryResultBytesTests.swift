import Dispatch
import Foundation
import Hearth
import HearthTestSupport
import Synchronization
import Testing

// A query's results share one buffer of bytes, which the database reuses for a later
// query once no snapshot holds it (see `ResultBuffers`): results kept while other queries
// run, on this thread or others, keep their data.

@Suite("Query result bytes")
struct QueryResultBytesTests {
  /// 40 documents of ~200 bytes each in `shelf`, each holding its own number.
  private func fill(_ db: Database) throws -> CollectionReference {
    var documents: [String: [String: Any]] = [:]
    for number in 0..<40 {
      documents[String(format: "b%02d", number)] = [
        "n": number, "title": String(repeating: "t\(number % 10)", count: 90), "shelf": number % 4,
      ]
    }
    return try seed(db.collection("shelf"), documents)
  }

  /// Whether a result's data is that of the document its ID names.
  private func holdsItsOwnData(_ document: QueryDocumentSnapshot) -> Bool {
    guard let number = Int(document.documentID.dropFirst()) else { return false }
    let data = document.data()
    return (data["n"] as? Int) == number
      && (data["title"] as? String) == String(repeating: "t\(number % 10)", count: 90)
  }

  @Test func resultsKeptWhileLaterQueriesRunKeepTheirData() throws {
    try withDatabase(settings: relaxed) { db in
      let shelf = try fill(db)
      let kept = try shelf.order(by: "n").limit(to: 20).getDocuments()
      for round in 0..<50 {
        let other = try shelf.order(by: "n", descending: true).limit(to: 20).getDocuments()
        #expect(other.documents.allSatisfy(holdsItsOwnData), "round \(round)")
      }
      #expect(kept.documents.map(\.documentID) == (0..<20).map { String(format: "b%02d", $0) })
      #expect(kept.documents.allSatisfy(holdsItsOwnData))
      // Snapshots released one query ago, then again: each query's results stay right.
      for shelfNumber in [0, 1, 2, 3, 0, 1] {
        let page = try shelf.whereField("shelf", isEqualTo: shelfNumber).getDocuments()
        #expect(page.count == 10)
        #expect(page.documents.allSatisfy(holdsItsOwnData))
      }
      // A snapshot kept on its own keeps its query's bytes after the query snapshot goes.
      var single: QueryDocumentSnapshot?
      do { single = try shelf.order(by: "n").limit(to: 20).getDocuments().documents[7] }
      for _ in 0..<10 { _ = try shelf.order(by: "n", descending: true).limit(to: 20).getDocuments() }
      #expect(single.map(holdsItsOwnData) == true)
    }
  }

  @Test func resultsReadOnManyThreadsKeepTheirData() throws {
    try withDatabase(settings: relaxed) { db in
      let shelf = try fill(db)
      let wrong = Atomic<Int>(0)
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { worker in
        for round in 0..<40 {
          do {
            let query = shelf.whereField("shelf", isEqualTo: (worker + round) % 4).order(by: "n")
            let snapshot = try query.getDocuments()
            if snapshot.count != 10 || !snapshot.documents.allSatisfy(holdsItsOwnData) {
              wrong.add(1, ordering: .relaxed)
            }
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
      }
      #expect(failures.withLock { $0 } == [])
      #expect(wrong.load(ordering: .relaxed) == 0)
    }
  }
}
