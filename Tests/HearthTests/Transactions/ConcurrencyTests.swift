import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Readers on many threads while a writer commits batches: every read sees a committed
/// state (docs/semantics.md: "A batch or transaction commits all its writes or none";
/// "their reads see one consistent snapshot").
@Suite struct ConcurrencyTests {
  /// Runs `readers` reading threads while `writer` runs on the calling thread; returns
  /// how many reads the readers made.
  private func whileWriting(readers: Int, read: @escaping @Sendable () throws -> Void, writer: () throws -> Void) throws
    -> Int
  {
    let done = Box(false)
    let reads = Box(0)
    let failures = Box<[String]>([])
    let group = DispatchGroup()
    for _ in 0..<readers {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        var count = 0
        repeat {
          do { try read() } catch {
            failures.mutate { $0.append("\(error)") }
            break
          }
          count += 1
        } while !done.value
        reads.mutate { $0 += count }
      }
    }
    defer {
      done.value = true
      group.wait()
    }
    try writer()
    done.value = true
    group.wait()
    #expect(failures.value.isEmpty, "reader errors: \(failures.value.prefix(3))")
    return reads.value
  }

  @Test func queryReadsAlwaysSeeACommittedPairSum() throws {
    try withDatabase(settings: relaxed) { db in
      let pair = db.collection("pair")
      try db.batch()
        .setData(["value": 100], forDocument: pair.document("a"))
        .setData(["value": 0], forDocument: pair.document("b"))
        .commit()
      let violations = Box<[String]>([])
      let reads = try whileWriting(
        readers: 8,
        read: {
          let documents = try pair.getDocuments().documents
          let values = documents.map { $0.get("value") as? Int64 ?? -1 }
          if documents.count != 2 || values.reduce(0, +) != 100 {
            violations.mutate { $0.append("\(documents.map(\.documentID)) \(values)") }
          }
        },
        writer: {
          for i in 1...300 {
            let amount = Int64(i % 101)
            try db.batch()
              .setData(["value": 100 - amount, "round": i], forDocument: pair.document("a"))
              .setData(["value": amount, "round": i], forDocument: pair.document("b"))
              .commit()
          }
        })
      #expect(violations.value.isEmpty, "torn reads: \(violations.value.prefix(5))")
      #expect(reads > 8)
    }
  }

  @Test func counterAndItemsStayInStep() throws {
    try withDatabase(settings: relaxed) { db in
      let ledger = db.collection("ledger")
      try ledger.document("count").setData(["n": 0])
      let violations = Box<[String]>([])
      _ = try whileWriting(
        readers: 8,
        read: {
          let documents = try ledger.getDocuments().documents
          let counter = documents.first { $0.documentID == "count" }?.get("n") as? Int64
          let items = documents.filter { $0.documentID.hasPrefix("item-") }
          let total = items.reduce(Int64(0)) { $0 + ($1.get("amount") as? Int64 ?? 0) }
          if counter != Int64(items.count) || total != Int64(items.count) * 2 {
            violations.mutate {
              $0.append("counter \(String(describing: counter)), items \(items.count), total \(total)")
            }
          }
        },
        writer: {
          for i in 0..<200 {
            try db.batch()
              .setData(["amount": 2], forDocument: ledger.document(String(format: "item-%04d", i)))
              .updateData(["n": FieldValue.increment(1)], forDocument: ledger.document("count"))
              .commit()
          }
        })
      #expect(violations.value.isEmpty, "inconsistent reads: \(violations.value.prefix(5))")
      expectSame(try ledger.document("count").getDocument().get("n"), 200)
      #expect(try ledger.getDocuments().count == 201)
    }
  }

  @Test func transactionReadsOfTwoDocumentsAgree() throws {
    try withDatabase(settings: relaxed) { db in
      let a = db.document("accounts/a")
      let b = db.document("accounts/b")
      try db.batch().setData(["balance": 50], forDocument: a).setData(["balance": 50], forDocument: b).commit()
      let violations = Box<[Int64]>([])
      _ = try whileWriting(
        readers: 4,
        read: {
          let sum: Int64 = try db.runTransaction { transaction in
            let x = try transaction.getDocument(a).get("balance") as? Int64 ?? -1_000
            let y = try transaction.getDocument(b).get("balance") as? Int64 ?? -1_000
            return x + y
          }
          if sum != 100 { violations.mutate { $0.append(sum) } }
          let plainA = try a.getDocument().get("balance") as? Int64
          if plainA == nil { violations.mutate { $0.append(-1) } }
        },
        writer: {
          for i in 0..<100 {
            // Move money with a transaction, so the writer also reads.
            try db.runTransaction { transaction in
              let x = try transaction.getDocument(a).get("balance") as? Int64 ?? 0
              let y = try transaction.getDocument(b).get("balance") as? Int64 ?? 0
              let move: Int64 = i % 2 == 0 ? 7 : -7
              transaction.updateData(["balance": x - move], forDocument: a)
              transaction.updateData(["balance": y + move], forDocument: b)
            }
          }
        })
      #expect(violations.value.isEmpty, "sums seen: \(violations.value.prefix(5))")
      let finalA = try a.getDocument().get("balance") as? Int64
      let finalB = try b.getDocument().get("balance") as? Int64
      #expect(finalA == 50 && finalB == 50)
    }
  }

  @Test func concurrentIncrementsFromManyThreadsAllLand() throws {
    try withDatabase(settings: relaxed) { db in
      let doc = db.document("counters/shared")
      try doc.setData(["n": 0])
      let errors = Box<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { worker in
        for i in 0..<25 {
          do {
            try doc.updateData(["n": FieldValue.increment(1), "tags": FieldValue.arrayUnion(["w\(worker)-\(i)"])])
          } catch {
            errors.mutate { $0.append("\(error)") }
          }
        }
      }
      #expect(errors.value.isEmpty)
      let snapshot = try doc.getDocument()
      expectSame(snapshot.get("n"), 200)
      #expect((snapshot.get("tags") as? [Any])?.count == 200)
    }
  }

  /// A snapshot decodes its fields on the first `data()` and keeps them; threads that ask
  /// one snapshot at once all get the document's fields, whichever of them decoded first.
  @Test func oneSnapshotsDataFromManyThreadsAtOnceIsTheSame() throws {
    try withDatabase(settings: relaxed) { db in
      try db.document("posts/p").setData(["title": "Hello", "likes": 3, "tags": ["a", "b"], "owner": ["id": "u1"]])
      for _ in 0..<20 {
        let snapshot = try db.collection("posts").getDocuments().documents[0]
        let titles = Box<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
          let fields = snapshot.data()
          let summary =
            "\(fields["title"] as? String ?? "-") \(fields["likes"] as? Int ?? -1) "
            + "\((fields["tags"] as? [String]) ?? []) \((fields["owner"] as? [String: Any])?["id"] as? String ?? "-")"
          titles.mutate { $0.append(summary) }
        }
        #expect(titles.value == Array(repeating: "Hello 3 [\"a\", \"b\"] u1", count: 8))
      }
    }
  }

  /// Durable sets from eight threads at once share group commits; a listener on the
  /// collection that half of them write still sees every one of those commits alone, in
  /// order (one more document per snapshot), and every write lands with a commit time of
  /// its own.
  @Test func durableSetsFromManyThreadsAllLandAndAListenerSeesEachCommit() throws {
    try withDatabase { db in
      let counts = Box<[Int]>([])
      let registration = db.collection("feed").addSnapshotListener { snapshot, _ in
        counts.mutate { $0.append(snapshot?.count ?? -1) }
      }
      defer { registration.remove() }
      let errors = Box<[String]>([])
      let (threads, each) = (8, 20)
      let group = DispatchGroup()
      for thread in 0..<threads {
        group.enter()
        Thread.detachNewThread {
          defer { group.leave() }
          for index in 0..<each {
            let collection = thread % 2 == 0 ? "feed" : "other"
            do {
              try db.document("\(collection)/t\(thread)-\(index)").setData(["thread": thread, "index": index])
            } catch {
              errors.mutate { $0.append("\(error)") }
            }
          }
        }
      }
      group.wait()
      #expect(errors.value.isEmpty)
      let watched = threads / 2 * each
      for _ in 0..<1000 where counts.value.last != watched { usleep(10_000) }
      #expect(counts.value == Array(0...watched))
      let documents =
        try db.collection("feed").getDocuments().documents + db.collection("other").getDocuments().documents
      #expect(documents.count == threads * each)
      #expect(Set(documents.compactMap(\.updateTime)).count == threads * each)
    }
  }

  @Test func concurrentAddDocumentsGetDistinctIDs() async throws {
    try await withDatabase(settings: relaxed) { db in
      let collection = db.collection("inbox")
      let ids = try await withThrowingTaskGroup(of: String.self) { group in
        for i in 0..<8 {
          group.addTask {
            var made: [String] = []
            for j in 0..<20 { made.append(try await collection.addDocument(data: ["from": i, "n": j]).documentID) }
            return made.joined(separator: ",")
          }
        }
        var all: [String] = []
        for try await chunk in group { all += chunk.split(separator: ",").map(String.init) }
        return all
      }
      #expect(ids.count == 160)
      #expect(Set(ids).count == 160)
      let count = try await collection.getDocuments().count
      #expect(count == 160)
    }
  }
}
