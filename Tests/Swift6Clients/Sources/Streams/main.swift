// `snapshots()` consumed in a `Task` from top-level code, and from a `@MainActor` class.
import Foundation
import Hearth

let db = try Database(path: CommandLine.arguments[1])
let reader = Task {
  var sizes: [Int] = []
  for try await snapshot in db.collection("posts").snapshots() {
    sizes.append(snapshot.count)
    if snapshot.count == 2 { break }
  }
  return sizes
}

@MainActor final class Feed {
  var latest: String?
  func follow(_ db: Database) -> Task<Void, Error> {
    Task {
      for try await snapshot in db.document("posts/b").snapshots() where snapshot.exists {
        latest = snapshot["title"] as? String
        return
      }
    }
  }
}
let feed = Feed()
let following = feed.follow(db)

try await Task.sleep(nanoseconds: 100_000_000)
try db.document("posts/a").setData(["title": "a"])
try db.document("posts/b").setData(["title": "b"])
let sizes = try await reader.value
try await following.value
print("sizes", sizes.last ?? -1)
print("feed", feed.latest ?? "-")
