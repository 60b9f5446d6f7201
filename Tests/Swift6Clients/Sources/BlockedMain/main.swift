// A command-line tool whose top-level code blocks its main thread instead of awaiting.
// Its streams still deliver (they need no actor); its main-actor listener waits for the
// main queue, and Hearth says so on standard error; once the tool runs the main run
// loop, the listener's snapshots arrive.
import Foundation
import Hearth

let db = try Database(path: CommandLine.arguments[1])
try db.document("posts/a").setData(["title": "a"])

let streamed = DispatchSemaphore(value: 0)
Task.detached {
  for try await snapshot in db.collection("posts").snapshots() where snapshot.count == 1 {
    streamed.signal()
    return
  }
}
print("stream while main blocks", streamed.wait(timeout: .now() + 10) == .success)

let documentStreamed = DispatchSemaphore(value: 0)
Task.detached {
  for try await snapshot in db.document("posts/a").snapshots() where snapshot.exists {
    documentStreamed.signal()
    return
  }
}
print("document stream while main blocks", documentStreamed.wait(timeout: .now() + 10) == .success)

var seen = 0
let registration = db.collection("posts").addSnapshotListener { snapshot, _ in seen = snapshot?.count ?? -1 }
Thread.sleep(forTimeInterval: 9)  // well past Hearth's patience (5 s), even on a loaded machine
print("listener while main blocks", seen)
let deadline = Date().addingTimeInterval(30)
while seen == 0, Date() < deadline { _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05)) }
print("listener once the run loop runs", seen)
registration.remove()
