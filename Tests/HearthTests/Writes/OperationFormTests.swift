import Foundation
import Hearth
import HearthTestSupport
import Testing

/// The three forms of each operation (docs/api.md, "Forms of each operation"): synchronous,
/// `async`, and `completion:` delivered on `Settings.dispatchQueue`.
@Suite struct OperationFormTests {
  // MARK: - async

  @Test func asyncDocumentOperations() async throws {
    try await withDatabase { db in
      let doc = db.document("forms/async")
      try await doc.setData(["a": 1, "m": ["x": 1] as [String: Any]])
      try await doc.setData(["m": ["y": 2] as [String: Any]], merge: true)
      try await doc.setData(["b": 2, "c": 3], mergeFields: ["b"])
      try await doc.updateData(["a": FieldValue.increment(1), "m.x": FieldValue.delete()])
      let snapshot = try await doc.getDocument()
      expectSame(snapshot.data(), ["a": 2, "b": 2, "m": ["y": 2]])

      await expectHearthError(.notFound) { try await db.document("forms/none").updateData(["a": 1]) }
      await expectHearthError(.invalidArgument) { try await doc.setData(["bad": FieldValue.delete()]) }

      let created = db.document("forms/created")
      try await created.create(["v": 1])
      await expectHearthError(.alreadyExists) { try await created.create(["v": 2]) }
      try await created.delete()
      let gone = try await created.getDocument()
      #expect(!gone.exists)

      let added = try await db.collection("forms").addDocument(data: ["added": true])
      #expect(isAutoID(added.documentID))
      let addedSnapshot = try await added.getDocument()
      expectSame(addedSnapshot.data(), ["added": true])

      let all = try await db.collection("forms").getDocuments()
      #expect(all.documents.map(\.documentID).sorted() == ["async", added.documentID].sorted())
    }
  }

  // MARK: - completion

  /// A database whose callbacks run on a queue tagged so the tests can tell.
  private static func taggedSettings() -> (Settings, DispatchSpecificKey<String>) {
    let queue = DispatchQueue(label: "test.forms.callbacks")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "settings-queue")
    let settings = Settings()
    settings.dispatchQueue = queue
    return (settings, key)
  }

  /// Calls `start` with a completion, waits for it, returns the error and the queue tag.
  private func awaitCompletion(
    _ key: DispatchSpecificKey<String>, sourceLocation: SourceLocation = #_sourceLocation,
    _ start: (@escaping (Error?) -> Void) -> Void
  ) -> (error: Error?, queue: String?) {
    let signal = Signal()
    let box = Box<(error: Error?, queue: String?)>((nil, nil))
    start { error in
      box.value = (error, DispatchQueue.getSpecific(key: key))
      signal.fire()
    }
    #expect(signal.wait(), "the completion handler ran", sourceLocation: sourceLocation)
    #expect(box.value.queue == "settings-queue", "delivered on Settings.dispatchQueue", sourceLocation: sourceLocation)
    return box.value
  }

  @Test func completionFormsDeliverOnTheSettingsQueue() throws {
    let (settings, key) = Self.taggedSettings()
    try withDatabase(settings: settings) { db in
      let doc = db.document("forms/completion")
      let result1 = awaitCompletion(key) { doc.setData(["a": 1], completion: $0) }
      #expect(result1.error == nil)
      let result2 = awaitCompletion(key) { doc.setData(["b": 2], merge: true, completion: $0) }
      #expect(result2.error == nil)
      let result3 = awaitCompletion(key) { doc.setData(["c": 3, "d": 4], mergeFields: ["c"], completion: $0) }
      #expect(result3.error == nil)
      let result4 = awaitCompletion(key) { doc.updateData(["a": FieldValue.increment(1)], completion: $0) }
      #expect(result4.error == nil)
      expectSame(try doc.getDocument().data(), ["a": 2, "b": 2, "c": 3])

      let missing = awaitCompletion(key) { db.document("forms/missing").updateData(["a": 1], completion: $0) }
      expectHearthError(missing.error, .notFound)
      let missingSnapshot = try db.document("forms/missing").getDocument()
      #expect(!missingSnapshot.exists)

      let invalid = awaitCompletion(key) { doc.setData(["x": FieldValue.delete()], completion: $0) }
      expectHearthError(invalid.error, .invalidArgument)

      let created = db.document("forms/created")
      let result5 = awaitCompletion(key) { created.create(["v": 1], completion: $0) }
      #expect(result5.error == nil)
      let duplicate = awaitCompletion(key) { created.create(["v": 2], completion: $0) }
      expectHearthError(duplicate.error, .alreadyExists)
      let result6 = awaitCompletion(key) { created.delete(completion: $0) }
      #expect(result6.error == nil)
      let deletedSnapshot = try created.getDocument()
      #expect(!deletedSnapshot.exists)

      let batch = db.batch().setData(["batched": true], forDocument: db.document("forms/batched"))
      let result7 = awaitCompletion(key) { batch.commit(completion: $0) }
      #expect(result7.error == nil)
      let batchedSnapshot = try db.document("forms/batched").getDocument()
      #expect(batchedSnapshot.exists)
      let again = awaitCompletion(key) { batch.commit(completion: $0) }
      expectHearthError(again.error, .failedPrecondition)
    }
  }

  @Test func completionFormsOfReads() throws {
    let (settings, key) = Self.taggedSettings()
    try withDatabase(settings: settings) { db in
      try db.document("forms/a").setData(["v": 1])
      try db.document("forms/b").setData(["v": 2])

      let signal = Signal()
      let snapshotBox = Box<(DocumentSnapshot?, Error?, String?)>((nil, nil, nil))
      db.document("forms/a").getDocument { snapshot, error in
        snapshotBox.value = (snapshot, error, DispatchQueue.getSpecific(key: key))
        signal.fire()
      }
      #expect(signal.wait())
      #expect(snapshotBox.value.1 == nil)
      #expect(snapshotBox.value.2 == "settings-queue")
      expectSame(snapshotBox.value.0?.data(), ["v": 1])

      let querySignal = Signal()
      let queryBox = Box<(QuerySnapshot?, Error?, String?)>((nil, nil, nil))
      db.collection("forms").getDocuments { snapshot, error in
        queryBox.value = (snapshot, error, DispatchQueue.getSpecific(key: key))
        querySignal.fire()
      }
      #expect(querySignal.wait())
      #expect(queryBox.value.1 == nil)
      #expect(queryBox.value.2 == "settings-queue")
      #expect(queryBox.value.0?.documents.map(\.documentID) == ["a", "b"])

      let errorSignal = Signal()
      let errorBox = Box<(DocumentSnapshot?, Error?)>((nil, nil))
      db.document("odd").getDocument { snapshot, error in
        errorBox.value = (snapshot, error)
        errorSignal.fire()
      }
      #expect(errorSignal.wait())
      #expect(errorBox.value.0 == nil)
      expectHearthError(errorBox.value.1, .invalidArgument)

      let addSignal = Signal()
      let addBox = Box<Error?>(nil)
      let ref = db.collection("forms").addDocument(data: ["added": 1]) { error in
        addBox.value = error
        addSignal.fire()
      }
      #expect(addSignal.wait())
      #expect(addBox.value == nil)
      #expect(isAutoID(ref.documentID))
      expectSame(try ref.getDocument().data(), ["added": 1])
    }
  }

  @Test func completionFormsDoNotBlockOnABusyCallbackQueue() throws {
    // Firebase runs the work regardless of the callback queue; the queue only receives the
    // callback. Here the queue is blocked until after the write has been checked.
    let (settings, key) = Self.taggedSettings()
    try withDatabase(settings: settings) { db in
      let release = DispatchSemaphore(value: 0)
      settings.dispatchQueue.async { release.wait() }
      let doc = db.document("forms/busy")
      let done = Signal()
      doc.setData(["v": 1]) { _ in done.fire() }
      // The write is visible before its callback could run.
      let deadline = Date().addingTimeInterval(5)
      var written = false
      while !written && Date() < deadline {
        written = (try? doc.getDocument().exists) == true
        if !written { Thread.sleep(forTimeInterval: 0.01) }
      }
      #expect(written)
      release.signal()
      #expect(done.wait())
      _ = key
    }
  }
}
