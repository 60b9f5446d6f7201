import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The basics of listeners, end to end; `ListenerTests` replays full sequences.
@Suite struct ListenerSmokeTests {
  /// Collects a listener's snapshots; `next()` waits for the next one.
  final class Recorder<Snapshot>: @unchecked Sendable {
    private let condition = NSCondition()
    private var received: [Snapshot] = []
    private var taken = 0

    func record(_ snapshot: Snapshot?, _ error: Error?) {
      condition.lock()
      if let snapshot { received.append(snapshot) }
      condition.broadcast()
      condition.unlock()
    }

    func next(timeout: TimeInterval = 5) -> Snapshot? {
      condition.lock()
      defer { condition.unlock() }
      let deadline = Date().addingTimeInterval(timeout)
      while taken == received.count { if !condition.wait(until: deadline) { return nil } }
      taken += 1
      return received[taken - 1]
    }

    /// Whether nothing more arrives within `quiet` seconds.
    func staysQuiet(_ quiet: TimeInterval = 0.2) -> Bool { next(timeout: quiet) == nil }
  }

  func changes(_ snapshot: QuerySnapshot?) -> [String] {
    (snapshot?.documentChanges ?? []).map { change in
      let old = change.oldIndex == UInt(NSNotFound) ? -1 : Int(change.oldIndex)
      let new = change.newIndex == UInt(NSNotFound) ? -1 : Int(change.newIndex)
      return "\(change.type) \(change.document.documentID) \(old) \(new)"
    }
  }

  @Test func aQueryListenerFollowsAddsModifiesAndDeletes() throws {
    try withDatabase { db in
      let recorder = Recorder<QuerySnapshot>()
      let posts = db.collection("posts")
      try posts.document("a").setData(["n": 1])
      let registration = posts.order(by: "n").addSnapshotListener(recorder.record)
      #expect(changes(recorder.next()) == ["added a -1 0"])

      try posts.document("b").setData(["n": 2])
      #expect(changes(recorder.next()) == ["added b -1 1"])
      try posts.document("a").setData(["n": 3])
      let moved = recorder.next()
      #expect(changes(moved) == ["modified a 0 1"])
      #expect(moved?.documents.map(\.documentID) == ["b", "a"])
      try posts.document("a").setData(["n": 3])  // the same data: no snapshot
      try posts.document("b").delete()
      #expect(changes(recorder.next()) == ["removed b 0 -1"])
      try db.collection("other").document("x").setData(["n": 0])
      #expect(recorder.staysQuiet())
      registration.remove()
      try posts.document("c").setData(["n": 0])
      #expect(recorder.staysQuiet())
    }
  }

  @Test func aLimitWindowRefillsAndDocumentListenersSeeDeletes() throws {
    try withDatabase { db in
      let posts = db.collection("posts")
      let batch = db.batch()
      for (id, n) in [("a", 1), ("b", 2), ("c", 3)] { batch.setData(["n": n], forDocument: posts.document(id)) }
      try batch.commit()
      let window = Recorder<QuerySnapshot>()
      let registration = posts.order(by: "n").limit(to: 2).addSnapshotListener(window.record)
      #expect(changes(window.next()) == ["added a -1 0", "added b -1 1"])
      try posts.document("a").delete()
      #expect(changes(window.next()) == ["removed a 0 -1", "added c -1 1"])
      try posts.document("z").setData(["n": 0])
      #expect(changes(window.next()) == ["removed c 1 -1", "added z -1 0"])
      registration.remove()

      let document = Recorder<DocumentSnapshot>()
      let listener = posts.document("b").addSnapshotListener(document.record)
      #expect(document.next()?.exists == true)
      try posts.document("b").delete()
      #expect(document.next()?.exists == false)
      listener.remove()

      let count = Recorder<AggregateQuerySnapshot>()
      let live = posts.count.addSnapshotListener(count.record)
      #expect(count.next()?.count == 2)
      try posts.document("d").setData(["n": 9])
      #expect(count.next()?.count == 3)
      try posts.document("d").updateData(["n": 10])
      #expect(count.staysQuiet())
      live.remove()
    }
  }

  @Test func removingInsideTheCallbackStopsIt() throws {
    try withDatabase { db in
      let calls = Recorder<QuerySnapshot>()
      final class Holder: @unchecked Sendable { var registration: ListenerRegistration? }
      let holder = Holder()
      let lock = NSLock()
      lock.lock()
      holder.registration = db.collection("c").addSnapshotListener { snapshot, error in
        lock.lock()
        holder.registration?.remove()
        lock.unlock()
        calls.record(snapshot, error)
      }
      lock.unlock()
      #expect(calls.next() != nil)
      try db.collection("c").document("x").setData([:])
      #expect(calls.staysQuiet())
    }
  }

  @Test func snapshotsAreAnAsyncSequence() async throws {
    try await withDatabase { db in
      let collection = db.collection("c")
      var counts: [Int] = []
      for try await snapshot in collection.snapshots {  // Firebase's property form
        counts.append(snapshot.count)
        if counts.count == 3 { break }
        try await collection.addDocument(data: ["n": counts.count])
      }
      #expect(counts == [0, 1, 2])
    }
  }

  /// An import that empties the database first tells every view that everything may
  /// have changed: each reads its query again and emits the true difference.
  @Test func aReplacingImportGivesTheTrueDifference() throws {
    try withDatabase { db in
      let posts = db.collection("posts")
      try posts.document("a").setData(["n": 1])
      try posts.document("b").setData(["n": 2])
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).jsonl").path
      defer { try? FileManager.default.removeItem(atPath: file) }
      try """
      {"hearth":"export","version":1,"documents":2}
      {"path":"posts/b","fields":{"n":2}}
      {"path":"posts/c","fields":{"n":0}}
      """.write(toFile: file, atomically: true, encoding: .utf8)
      let recorder = Recorder<QuerySnapshot>()
      let registration = posts.order(by: "n").addSnapshotListener(recorder.record)
      defer { registration.remove() }
      #expect(changes(recorder.next()) == ["added a -1 0", "added b -1 1"])
      try db.import(from: file, mode: .replace)
      #expect(changes(recorder.next()) == ["removed a 0 -1", "added c -1 0"])
      #expect(recorder.staysQuiet())
    }
  }
}
