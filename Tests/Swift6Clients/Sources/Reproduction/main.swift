// swift-format-ignore-file
// Issue 13's reproduction, as written there (so not in this project's style) but for the
// database path, the first argument, and a wait of 2 s instead of 0.3 s (a loaded test
// machine): top-level code, whose closures are main-actor isolated.
import Hearth

let db = try Database(path: CommandLine.arguments[1])
let registration = db.collection("posts").addSnapshotListener { snapshot, error in
  snapshot?.documentChanges.forEach { diff in print(diff.type, diff.document.documentID) }
}
try db.collection("posts").addDocument(data: ["title": "hi"])
try await Task.sleep(nanoseconds: 2_000_000_000)
