import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Listeners keep their views up to date from the documents each commit changed; after
/// any sequence of random writes, every listener's latest snapshot must hold exactly
/// what running its query gives, in the same order.
@Suite struct ListenerConsistencyTests {
  final class Latest: @unchecked Sendable {
    var ids: [String] = []
    var errors: [String] = []
  }

  @Test(arguments: [1, 2, 3])
  func viewsMatchTheirQueriesAfterRandomWrites(seed: UInt64) throws {
    let queue = DispatchQueue(label: "listener-consistency")
    try withDatabase(settings: listenerSettings(queue: queue)) { db in
      let items = db.collection("shops/s1/items")
      let queries: [(String, Query)] = [
        ("all", items),
        ("order n limit 3", items.order(by: "n").limit(to: 3)),
        ("order n desc limit 4", items.order(by: "n", descending: true).limit(to: 4)),
        ("limitToLast 3", items.order(by: "n").limit(toLast: 3)),
        ("filter tag == a order n", items.whereField("tag", isEqualTo: "a").order(by: "n").limit(to: 5)),
        ("range n [3, 8)", items.whereField("n", isGreaterThanOrEqualTo: 3).whereField("n", isLessThan: 8)),
        ("cursor start at 4 limit 3", items.order(by: "n").start(at: [4]).limit(to: 3)),
        ("cursor end before 6 limitToLast 2", items.order(by: "n").end(before: [6]).limit(toLast: 2)),
        (
          "or", items.whereFilter(.orFilter([.whereField("tag", isEqualTo: "b"), .whereField("n", isGreaterThan: 7)]))
        ),
        ("group order n limit 5", db.collectionGroup("items").order(by: "n").limit(to: 5)),
        ("array-contains x", items.whereField("tags", arrayContains: "x")),
      ]
      let latest = queries.map { _ in Latest() }
      let registrations = zip(queries, latest).map { entry, record in
        entry.1.addSnapshotListener { snapshot, error in
          if let snapshot { record.ids = snapshot.documents.map(\.reference.path) }
          if let error { record.errors.append("\(error)") }
        }
      }
      defer { for registration in registrations { registration.remove() } }

      var random = SplitMix64(seed: seed)
      let paths = (0..<12).map { "shops/s1/items/i\($0)" } + (0..<4).map { "shops/s2/items/j\($0)" }
      for step in 0..<150 {
        let path = paths[Int(random.next() % UInt64(paths.count))]
        let reference = db.document(path)
        switch random.next() % 6 {
        case 0: try reference.delete()
        case 1: try reference.setData(["n": Int(random.next() % 10)], merge: true)
        case 2: try reference.setData(["other": "x"])  // no n: leaves ordered views
        default:
          var fields: [String: Any] = ["n": Int(random.next() % 10), "tag": ["a", "b", "c"][Int(random.next() % 3)]]
          if random.next() % 2 == 0 { fields["tags"] = ["x", "y"] }
          if random.next() % 4 == 0 { fields["n"] = Double(random.next() % 10) + 0.5 }
          try reference.setData(fields)
        }
        if step % 5 == 4 || step == 149 {
          queue.sync {}
          for ((name, query), record) in zip(queries, latest) {
            let expected = try query.getDocuments().documents.map(\.reference.path)
            let actual = queue.sync { record.ids }
            #expect(actual == expected, "seed \(seed), step \(step), \(name)")
            #expect(queue.sync { record.errors }.isEmpty, "\(name)")
          }
        }
      }
    }
  }
}

extension ListenerConsistencyTests {
  /// Live aggregations, kept from the changed documents, equal a fresh aggregation after
  /// random writes (integers, doubles, NaN, missing and non-numeric fields).
  @Test(arguments: [4, 5])
  func liveAggregationsMatchFreshOnes(seed: UInt64) throws {
    let queue = DispatchQueue(label: "aggregation-consistency")
    try withDatabase(settings: listenerSettings(queue: queue)) { db in
      let items = db.collection("shops/s1/items")
      let aggregations: [(String, AggregateQuery)] = [
        ("count", items.count),
        ("count where tag == a", items.whereField("tag", isEqualTo: "a").count),
        ("sum and average n", items.aggregate([.count(), .sum("n"), .average("n")])),
        ("sum n ordered by tag", items.order(by: "tag").aggregate([.sum("n"), .average("n")])),
        ("group sum n", db.collectionGroup("items").aggregate([.sum("n")])),
        ("count limit 3", items.order(by: "n").limit(to: 3).count),
      ]
      final class Latest: @unchecked Sendable { var values: [String] = [] }
      func describe(_ snapshot: AggregateQuerySnapshot, _ query: AggregateQuery) -> [String] {
        ["\(snapshot.count)"] + [AggregateField.sum("n"), .average("n")].map { "\(snapshot.get($0) ?? "-")" }
      }
      let latest = aggregations.map { _ in Latest() }
      let registrations = zip(aggregations, latest).map { entry, record in
        entry.1.addSnapshotListener { snapshot, _ in
          if let snapshot { record.values = describe(snapshot, entry.1) }
        }
      }
      defer { for registration in registrations { registration.remove() } }

      var random = SplitMix64(seed: seed)
      let paths = (0..<10).map { "shops/s1/items/i\($0)" } + ["shops/s2/items/j0", "shops/s2/items/j1"]
      for step in 0..<120 {
        let reference = db.document(paths[Int(random.next() % UInt64(paths.count))])
        let tag = ["a", "b"][Int(random.next() % 2)]
        switch random.next() % 7 {
        case 0: try reference.delete()
        case 1: try reference.setData(["tag": tag])  // no n
        case 2: try reference.setData(["n": "text", "tag": tag])
        case 3: try reference.setData(["n": Double(random.next() % 1000) / 7, "tag": tag])
        case 4: try reference.setData(["n": random.next() % 50 == 0 ? Double.nan : 0.1, "tag": tag])
        default: try reference.setData(["n": Int(random.next() % 100) - 50, "tag": tag])
        }
        if step % 4 == 3 {
          queue.sync {}
          for ((name, aggregation), record) in zip(aggregations, latest) {
            let expected = describe(try aggregation.getAggregation(), aggregation)
            #expect(queue.sync { record.values } == expected, "seed \(seed), step \(step), \(name)")
          }
        }
      }
    }
  }
}
