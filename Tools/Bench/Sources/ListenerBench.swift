import Foundation
import Hearth

/// The listener section: write throughput with 10,000 listeners on distinct
/// `users/{u}/posts` queries beside the same writes with none (each write reaches one
/// view), and the resident memory before adding and after removing 100,000 listeners.
struct ListenerBench {
  static let names = [
    "listeners: single writes", "listeners: add and remove 100,000",
  ]

  let root: URL
  let users = 10_000

  func run(selects: (String) -> Bool) throws {
    let settings = Settings()
    settings.durability = .relaxed
    // The bench waits on its main thread: callbacks run on a queue of their own.
    settings.dispatchQueue = DispatchQueue(label: "hearth-bench.callbacks")
    let database = try Database(path: root.appendingPathComponent("listeners").path, settings: settings)
    defer { database.close() }
    print("\nlisteners: \(users) users' posts, single writes to random users' posts, in 10 alternating rounds")
    if selects(Self.names[0]) {
      // Two databases, one with 10,000 listeners, written in alternating rounds so that
      // the machine's drift falls on both alike. Durable writes (the default) first, then
      // relaxed ones, where the listeners' share of each write is largest.
      for (durability, name, perRound) in [
        (Durability.full, "Durability.full", 30), (.relaxed, "Durability.relaxed", 500),
      ] {
        let settings = Settings()
        settings.durability = durability
        settings.dispatchQueue = DispatchQueue(label: "hearth-bench.callbacks")
        let plain = try Database(path: root.appendingPathComponent("plain-\(name)").path, settings: settings)
        let watched = try Database(path: root.appendingPathComponent("watched-\(name)").path, settings: settings)
        defer {
          plain.close()
          watched.close()
        }
        let registrations = (0..<users).map { user in
          watched.collection("users/u\(user)/posts").order(by: "createdAt", descending: true).limit(to: 20)
            .addSnapshotListener { _, _ in }
        }
        let evaluationsBefore = watched.listenerStatistics.viewEvaluations
        var seconds = (plain: 0.0, watched: 0.0)
        let rounds = 10
        for round in 0..<rounds {
          seconds.plain += Double(perRound) / (try measureWrites(plain, count: perRound, round: round))
          seconds.watched += Double(perRound) / (try measureWrites(watched, count: perRound, round: round))
        }
        let evaluations = Double(watched.listenerStatistics.viewEvaluations - evaluationsBefore)
        for registration in registrations { registration.remove() }
        let writes = Double(perRound * rounds)
        print(
          "  \(Int(writes)) writes, \(name): \(formatRate(writes / seconds.plain)) with no listeners, "
            + "\(formatRate(writes / seconds.watched)) with \(users) ("
            + String(format: "%.2f×", seconds.plain / seconds.watched) + "); views evaluated per write: "
            + String(format: "%.2f", evaluations / writes))
      }
    }
    if selects(Self.names[1]) {
      let drain = { database.settings.dispatchQueue.sync {} }
      /// Resident memory once freed memory is handed back to the system (glibc keeps
      /// freed blocks otherwise, which would look like a leak).
      func settled() -> Int {
        drain()
        #if os(Linux)
          _ = trimMalloc(0)
        #endif
        return Memory.resident()
      }
      let before = settled()
      var during = 0
      var after: [Int] = []
      for _ in 0..<2 {
        var registrations = (0..<100_000).map { index in
          database.collection("users/u\(index % users)/posts").limit(to: 1).addSnapshotListener { _, _ in }
        }
        during = max(during, settled())
        for registration in registrations { registration.remove() }
        registrations.removeAll()
        after.append(settled())
      }
      print(
        "  100,000 listeners, added and removed twice: resident memory \(before >> 20) MB before, "
          + "\(during >> 20) MB with them, \(after.map { "\($0 >> 20) MB" }.joined(separator: " and ")) after "
          + "(\(database.listenerStatistics.listeners) left)")
    }
  }

  /// Single writes, each to a random user's posts; returns writes per second.
  private func measureWrites(_ database: Database, count: Int, round: Int) throws -> Double {
    var generator = SystemRandomNumberGenerator()
    let targets = (0..<count).map { index in
      database.document("users/u\(Int.random(in: 0..<users, using: &generator))/posts/r\(round)-\(index)")
    }
    return try measure(count) {
      for (index, target) in targets.enumerated() {
        try target.setData(["createdAt": Timestamp(), "title": "post \(index)", "likes": index])
      }
    }
  }
}

#if os(Linux)
  /// glibc's `malloc_trim`, which Swift's Glibc module does not export.
  @_silgen_name("malloc_trim") func trimMalloc(_ pad: Int) -> Int32
#endif
