// A SwiftUI-style view model: a `@MainActor` class whose listener updates its state.
import Foundation
import Hearth

@MainActor final class PostsViewModel {
  private(set) var titles: [String] = []
  private(set) var updates = 0
  private var registration: ListenerRegistration?
  private let db: Database

  init(db: Database) { self.db = db }

  func start() {
    registration = db.collection("posts").order(by: "title").addSnapshotListener { [weak self] snapshot, error in
      guard let self, let snapshot else { return }
      // Main-actor state, touched without a hop: the closure runs on the main actor.
      titles = snapshot.documents.compactMap { $0["title"] as? String }
      updates += 1
    }
  }

  func add(_ title: String) throws {
    try db.collection("posts").addDocument(data: ["title": title])
  }

  func stop() { registration?.remove() }
}

let model = PostsViewModel(db: try Database(path: CommandLine.arguments[1]))
model.start()
try model.add("b")
try model.add("a")
for _ in 0..<600 where model.titles.count < 2 { try await Task.sleep(nanoseconds: 50_000_000) }
model.stop()
print("titles", model.titles)
print("updated", model.updates > 0)
