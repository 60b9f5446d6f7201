// Completion handlers written on the main actor (top-level code and a `@MainActor` class),
// on another actor, and outside any actor (with `Settings.dispatchQueue` set): each runs
// where it was written.
import Foundation
import Hearth

let db = try Database(path: CommandLine.arguments[1])
let document = db.document("posts/one")
var finished: [String] = []

document.setData(["title": "one", "likes": 1]) { error in
  finished.append("setData \(error == nil)")  // main-actor state: a top-level variable
  document.getDocument { snapshot, error in
    finished.append("getDocument \(snapshot?["title"] as? String ?? "-")")
  }
}
db.collection("posts").getDocuments { snapshot, error in finished.append("getDocuments \(snapshot?.count ?? -1)") }
let batch = db.batch()
batch.updateData(["likes": FieldValue.increment(Int64(1))], forDocument: document)
batch.commit { error in finished.append("commit \(error == nil)") }
db.runTransaction(
  { transaction, errorPointer in
    transaction.updateData(["likes": FieldValue.increment(Int64(1))], forDocument: document)
    return nil
  },
  completion: { _, error in finished.append("runTransaction \(error == nil)") })
document.getDocument(as: Post.self) { result in
  finished.append("getDocument(as:) \((try? result.get())?.title ?? "-")")
}

struct Post: Codable { var title: String }

@MainActor final class Screen {
  var status = "waiting"
  func load(_ db: Database) {
    db.document("posts/one").getDocument { [self] snapshot, _ in status = "loaded \(snapshot?.exists ?? false)" }
  }
}
let screen = Screen()
screen.load(db)

actor Counter {
  var calls = 0
  func load(_ db: Database) async {
    db.document("posts/one").getDocument { _, _ in self.calls += 1 }  // actor state, no await
    while calls == 0 { try? await Task.sleep(nanoseconds: 10_000_000) }
  }
}
let counter = Counter()
await counter.load(db)
print("actor", await counter.calls)

/// Outside any actor, completions run on `Settings.dispatchQueue`.
nonisolated func loadOutsideAnyActor(_ path: String) -> Bool {
  let key = DispatchSpecificKey<String>()
  let queue = DispatchQueue(label: "client.callbacks")
  queue.setSpecific(key: key, value: "client")
  let settings = Settings()
  settings.dispatchQueue = queue
  let other = try! Database(path: path, settings: settings)
  let done = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var onQueue = false
  other.document("posts/one").getDocument { _, _ in
    onQueue = DispatchQueue.getSpecific(key: key) == "client"
    done.signal()
  }
  done.wait()
  return onQueue
}
print("dispatchQueue", loadOutsideAnyActor(CommandLine.arguments[1] + "-other"))

for _ in 0..<1000 where finished.count < 6 || screen.status == "waiting" {
  try await Task.sleep(nanoseconds: 20_000_000)
}
for line in finished.sorted() { print(line) }
print("screen", screen.status)
