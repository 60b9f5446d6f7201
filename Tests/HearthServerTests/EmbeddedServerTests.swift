import Foundation
import Hearth
import HearthEmulator
import HearthTestSupport
import Synchronization
import Testing

/// `Database.serve`: a Swift program serves the database it has open, so Google's own
/// Python client drives the app's data while the app's listeners see the writes.
@Suite(.timeLimit(.minutes(5))) struct EmbeddedServerTests {
  @Test func googlesClientAndTheAppShareTheDatabase() async throws {
    try await withDatabase { db in
      try await db.collection("cities").document("SF").setData(["name": "San Francisco"])
      let seen = Mutex<[[String]]>([])
      let registration = db.collection("cities").addSnapshotListener { snapshot, _ in
        guard let snapshot else { return }
        seen.withLock { $0.append(snapshot.documents.map(\.documentID).sorted()) }
      }
      defer { registration.remove() }
      let server = try db.serve(port: 0)
      #expect(server.address == "127.0.0.1:\(server.port)")
      do {
        let lines = try await PythonClient.run(
          """
          os.environ["FIRESTORE_EMULATOR_HOST"] = target
          from google.cloud import firestore
          # Any project name reaches the one database served.
          client = firestore.Client(project="any-project")
          say("read", client.document("cities/SF").get().get("name"))
          client.document("cities/LA").set({"name": "Los Angeles"})
          say("cities", sorted(d.id for d in client.collection("cities").stream()))
          """, port: server.port)
        #expect(lines == ["read San Francisco", "cities ['LA', 'SF']"])
      } catch {
        await server.stop()
        throw error
      }
      await server.stop()
      #expect(try await db.collection("cities").document("LA").getDocument().get("name") as? String == "Los Angeles")
      // The app's listener saw the client's write as one of its own.
      let deadline = ContinuousClock.now + .seconds(20)
      while seen.withLock({ $0.last }) != ["LA", "SF"], ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(seen.withLock { $0.first } == ["SF"])
      #expect(seen.withLock { $0.last } == ["LA", "SF"])
      // The database stays open after the server stops.
      try await db.collection("cities").document("NY").setData(["name": "New York"])
    }
  }

  @Test func aBusyPortIsUnavailable() async throws {
    try await withDatabase { db in
      let first = try db.serve(port: 0)
      // Stopped however the check ends.
      let refused = Result { try db.serve(port: first.port) }
      await first.stop()
      if case .success(let second) = refused { await second.stop() }
      let error = try #require(throws: HearthError.self) { try refused.get() }
      #expect(error.code == .unavailable)
    }
  }
}
