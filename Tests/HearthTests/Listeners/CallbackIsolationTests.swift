import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Where callbacks run: where they were written. A listener or completion handler written
/// on the main actor runs on the main actor (Swift 6 checks that at run time and traps
/// otherwise), one written on an actor runs on that actor, and one written outside any
/// actor runs on `Settings.dispatchQueue` — the main queue by default, as in Firebase.
/// (`Swift6ClientTests` runs the same as whole programs; that streams deliver while the
/// main queue is blocked is tested only there, in `BlockedMain`: blocking this process's
/// main queue would stall every other test's main-queue callbacks while their waits hold
/// the cooperative threads the stream needs.)
@Suite struct CallbackIsolationTests {
  /// A mark on the main queue, to tell where a callback runs (on Linux the main queue
  /// need not run on the main thread).
  static let mainQueue: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Settings whose `dispatchQueue` is a queue of its own, tagged with the key returned.
  static func settingsWithAQueueOfTheirOwn() -> (Settings, DispatchSpecificKey<String>) {
    let queue = DispatchQueue(label: "test.isolation.callbacks")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "own")
    return (listenerSettings(queue: queue), key)
  }

  // FIRDatabaseTests.testListenerCallbacksHappenOnMainThread, with Firebase's default.
  @Test func callbacksOutsideAnyActorRunOnTheMainQueueByDefault() throws {
    _ = Self.mainQueue
    try withDatabase(settings: relaxed) { db in
      #expect(db.settings.dispatchQueue.label == DispatchQueue.main.label)
      let doc = db.document("c/d")
      let places = Box<[String: Bool]>([:])
      let listened = Signal()
      let registration = doc.addSnapshotListener { _, _ in
        places.value["listener"] = DispatchQueue.getSpecific(key: Self.mainQueue) == true
        listened.fire()
      }
      defer { registration.remove() }
      #expect(listened.wait())
      let completed = Signal()
      doc.setData(["a": 1]) { _ in
        places.value["completion"] = DispatchQueue.getSpecific(key: Self.mainQueue) == true
        completed.fire()
      }
      #expect(completed.wait())
      #expect(places.value == ["listener": true, "completion": true])
    }
  }

  /// Main-actor state touched without a hop, from callbacks of a database whose
  /// `dispatchQueue` is another queue: the callbacks' isolation wins, as their type says.
  @MainActor final class Screen {
    var snapshots = 0
    var completions = 0
    var registration: ListenerRegistration?

    func start(_ db: Database) {
      registration = db.collection("posts").addSnapshotListener { [self] _, _ in
        MainActor.assertIsolated()
        snapshots += 1
      }
      db.document("posts/a").setData(["n": 1]) { [self] _ in completions += 1 }
      db.document("posts/a").getDocument { [self] _, _ in completions += 1 }
      db.collection("posts").getDocuments { [self] _, _ in completions += 1 }
    }
  }

  @MainActor @Test func callbacksWrittenOnTheMainActorRunOnTheMainActor() async throws {
    let (settings, _) = Self.settingsWithAQueueOfTheirOwn()
    try await withDatabase(settings: settings) { db in
      let screen = Screen()
      screen.start(db)
      for _ in 0..<500 where screen.snapshots < 2 || screen.completions < 3 {
        try await Task.sleep(nanoseconds: 10_000_000)
      }
      screen.registration?.remove()
      #expect(screen.snapshots == 2)
      #expect(screen.completions == 3)
    }
  }

  /// An actor's listener and completions run on the actor, in commit order.
  actor Tally {
    var counts: [Int] = []
    var completions = 0
    var registration: ListenerRegistration?

    func start(_ db: Database) {
      registration = db.collection("items").addSnapshotListener { snapshot, _ in
        self.assertIsolated()
        self.counts.append(snapshot?.count ?? -1)
      }
    }

    func write(_ db: Database, _ id: String) {
      db.document("items/\(id)").setData(["id": id]) { _ in self.completions += 1 }
    }

    func stop() { registration?.remove() }
  }

  @Test func callbacksWrittenOnAnActorRunOnItInOrder() async throws {
    let (settings, _) = Self.settingsWithAQueueOfTheirOwn()
    try await withDatabase(settings: settings) { db in
      let tally = Tally()
      await tally.start(db)
      for index in 0..<20 { await tally.write(db, "i\(index)") }
      for _ in 0..<500 {
        if await tally.counts.last == 20, await tally.completions == 20 { break }
        try await Task.sleep(nanoseconds: 10_000_000)
      }
      await tally.stop()
      #expect(await tally.counts == Array(0...20))
      #expect(await tally.completions == 20)
    }
  }

  @Test func callbacksOutsideAnyActorRunOnTheDispatchQueueSet() throws {
    let (settings, key) = Self.settingsWithAQueueOfTheirOwn()
    try withDatabase(settings: settings) { db in
      let queues = Box<[String?]>([])
      let done = Signal()
      let registration = db.document("c/d").addSnapshotListener { _, _ in
        queues.value.append(DispatchQueue.getSpecific(key: key))
        db.document("c/d").getDocument { _, _ in
          queues.value.append(DispatchQueue.getSpecific(key: key))
          done.fire()
        }
      }
      defer { registration.remove() }
      #expect(done.wait())
      #expect(queues.value == ["own", "own"])
    }
  }
}
