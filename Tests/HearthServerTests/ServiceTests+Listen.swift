import Foundation
import HearthCore
import Synchronization
import Testing

@testable import HearthServer

extension ServiceTests {
  /// A Listen stream on the test database, and what it has sent since the last call of
  /// `taken`, in order: each response's kind, a target change by its type and a document
  /// change by its document's ID.
  func recordingStream(_ service: FirestoreService) throws -> (stream: ListenStream, taken: () -> [String]) {
    let sent = Mutex<[String]>([])
    let store = try service.databases.store(Self.database)
    let stream = ListenStream(database: Self.database, store: store, requireIndexes: false) { bytes in
      let shown: String
      switch try? FirestoreV1.ListenResponse(protobuf: bytes, database: Self.database) {
      case .targetChange(let change)?: shown = "\(change.targetChangeType)"
      case .documentChange(let change)?: shown = "change \(change.document.key.documentID)"
      case let other?: shown = "\(other)"
      case nil: shown = "undecodable"
      }
      sent.withLock { $0.append(shown) }
      return true
    }
    let taken = {
      sent.withLock { sent in
        defer { sent.removeAll() }
        return sent
      }
    }
    return (stream, taken)
  }

  /// What a Listen stream sends for `target` when it is added (`recordingStream`).
  func listened(_ service: FirestoreService, _ target: FirestoreV1.Target) throws -> [String] {
    let (stream, taken) = try recordingStream(service)
    defer { stream.close() }
    try stream.add(target)
    // The first snapshot is sent when the target is added, before `add` returns.
    return taken()
  }

  /// A target resumed from an earlier stream is reset, then sent whole, so that the
  /// client drops what it held (a document deleted meanwhile leaves its view).
  @Test func aResumedListenTargetIsResetThenSentWhole() throws {
    try withService { service in
      _ = try commit(service, [Write(key: try key("c/a"), kind: .set([:]))])
      let fresh = try listened(service, FirestoreV1.Target(kind: .query(query("c")), targetID: 1))
      #expect(fresh == ["add", "change a", "current", "noChange"])
      let token = ListenStream.resumeToken(FirestoreService.now)
      let resumed = try listened(
        service, FirestoreV1.Target(kind: .query(query("c")), resume: .resumeToken(token), targetID: 2))
      #expect(resumed == ["add", "reset", "change a", "current", "noChange"])
      let atTime = try listened(
        service,
        FirestoreV1.Target(kind: .documents([try key("c/a")]), resume: .readTime(FirestoreService.now), targetID: 3))
      #expect(atTime == ["add", "reset", "change a", "current", "noChange"])
    }
  }
}
