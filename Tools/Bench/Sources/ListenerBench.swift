import Foundation
import Hearth

/// The listener section: write throughput with 10,000 listeners on distinct
/// `users/{u}/posts` queries beside the same writes with none (each write reaches one
/// view), and the resident memory before adding and after removing 100,000 listeners.
struct ListenerBench {
  static let names = ["listeners: single writes (relaxed)", "listeners: add and remove 100,000"]

  let root: URL
  let users = 10_000
  let writes = 5_000

  func run(selects: (String) -> Bool) throws {
    var settings = Settings()
    settings.durability = .relaxed
    let database = try Database(path: root.appendingPathComponent("listeners").path, settings: settings)
    defer { database.close() }
    print("\nlisteners: \(users) users' posts; \(writes) single writes (Durability.relaxed) to random users' posts")
    if selects(Self.names[0]) {
      let none = try measureWrites(database, round: 0)
      let registrations = (0..<users).map { user in
        database.collection("users/u\(user)/posts").order(by: "createdAt", descending: true).limit(to: 20)
          .addSnapshotListener { _, _ in }
      }
      let evaluationsBefore = database.listenerStatistics.viewEvaluations
      let with = try measureWrites(database, round: 1)
      let evaluations = database.listenerStatistics.viewEvaluations - evaluationsBefore
      for registration in registrations { registration.remove() }
      print(
        "  writes/s with no listeners \(formatRate(none)), with \(users) listeners \(formatRate(with)): "
          + String(format: "%.2f×", with / none) + "; views evaluated per write: "
          + String(format: "%.2f", Double(evaluations) / Double(writes)))
    }
    if selects(Self.names[1]) {
      let drain = { database.settings.dispatchQueue.sync {} }
      drain()
      let before = Memory.resident()
      let registrations = (0..<100_000).map { index in
        database.collection("users/u\(index % users)/posts").limit(to: 1).addSnapshotListener { _, _ in }
      }
      drain()
      let during = Memory.resident()
      for registration in registrations { registration.remove() }
      drain()
      let after = Memory.resident()
      print(
        "  100,000 listeners: resident memory \(before >> 20) MB before, \(during >> 20) MB with them, "
          + "\(after >> 20) MB after removing them (\(database.listenerStatistics.listeners) left)")
    }
  }

  /// Single writes, each to a random user's posts; returns writes per second.
  private func measureWrites(_ database: Database, round: Int) throws -> Double {
    var generator = SystemRandomNumberGenerator()
    let targets = (0..<writes).map { index in
      database.document("users/u\(Int.random(in: 0..<users, using: &generator))/posts/r\(round)-\(index)")
    }
    return try measure(writes) {
      for (index, target) in targets.enumerated() {
        try target.setData(["createdAt": Timestamp(), "title": "post \(index)", "likes": index])
      }
    }
  }
}
