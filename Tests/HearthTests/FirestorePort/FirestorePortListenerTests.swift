import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own snapshot-listener integration tests, ported with their data and expected
// results: FIRListenerRegistrationTests.mm, the listener cases of FIRDatabaseTests.mm and
// FIRQueryTests.mm (Firestore/Example/Tests/Integration/API), and of the JS SDK's
// query.test.ts and database.test.ts. Offline, cache, network and `source:` cases are left out.
// Hearth has no server: every write is committed when it returns, so there is no
// latency-compensated event followed by an acknowledged one, `hasPendingWrites` and
// `isFromCache` are always false, and with `includeMetadataChanges: true` a write raises one
// snapshot, not two. Where the original counts on that double event, the port expects one
// and says so. Callbacks arrive asynchronously on `Settings.dispatchQueue`, so where the
// original checks a counter right after a write, the port waits for the snapshot.

@Suite("Firestore port: listeners")
struct FirestorePortListenerTests {

  // MARK: - FIRListenerRegistrationTests.mm

  // FIRListenerRegistrationTests.testCanBeRemoved
  @Test func testCanBeRemoved() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collectionRef = db.collection("c")
      let docRef = collectionRef.document()
      let callbacks = Box(0)
      let errors = Box(0)
      let one = collectionRef.addSnapshotListener { _, error in
        if error != nil { errors.mutate { $0 += 1 } }
        callbacks.mutate { $0 += 1 }
      }
      let two = collectionRef.addSnapshotListener { _, error in
        if error != nil { errors.mutate { $0 += 1 } }
        callbacks.mutate { $0 += 1 }
      }
      // Wait for initial events
      #expect(waitUntil { callbacks.value == 2 })
      // Trigger new events
      try docRef.setData(["foo": "bar"])
      // Write events should have triggered
      #expect(waitUntil { callbacks.value == 4 })
      // No more events should occur
      one.remove()
      two.remove()
      try docRef.setData(["foo": "new-bar"])
      Thread.sleep(forTimeInterval: listenerQuietPeriod)
      // Assert no further events occurred
      #expect(callbacks.value == 4)
      #expect(errors.value == 0)
    }
  }

  // FIRListenerRegistrationTests.testCanBeRemovedTwice
  @Test func testCanBeRemovedTwice() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collectionRef = db.collection("c")
      let docRef = collectionRef.document()
      let one = collectionRef.addSnapshotListener { _, _ in }
      let two = docRef.addSnapshotListener { _, _ in }
      one.remove()
      one.remove()
      two.remove()
      two.remove()
    }
  }

  // FIRListenerRegistrationTests.testCanBeRemovedIndependently
  @Test func testCanBeRemovedIndependently() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collectionRef = db.collection("c")
      let docRef = collectionRef.document()
      let callbacksOne = Box(0)
      let callbacksTwo = Box(0)
      let errors = Box(0)
      let one = collectionRef.addSnapshotListener { _, error in
        if error != nil { errors.mutate { $0 += 1 } }
        callbacksOne.mutate { $0 += 1 }
      }
      let two = collectionRef.addSnapshotListener { _, error in
        if error != nil { errors.mutate { $0 += 1 } }
        callbacksTwo.mutate { $0 += 1 }
      }
      // Wait for initial events
      #expect(waitUntil { callbacksOne.value == 1 && callbacksTwo.value == 1 })
      // Trigger new events
      try docRef.setData(["foo": "bar"])
      // Write events should have triggered
      #expect(waitUntil { callbacksOne.value == 2 && callbacksTwo.value == 2 })
      // Should leave "two" unaffected
      one.remove()
      try docRef.setData(["foo": "new-bar"])
      // Assert only events for "two" actually occurred
      #expect(waitUntil { callbacksTwo.value == 3 })
      // The same data again: no event for "two" either (the original writes it without checking).
      try docRef.setData(["foo": "new-bar"])
      Thread.sleep(forTimeInterval: listenerQuietPeriod)
      #expect(callbacksOne.value == 2)
      #expect(callbacksTwo.value == 3)
      #expect(errors.value == 0)
      // No more events should occur
      two.remove()
    }
  }

  // FIRListenerRegistrationTests.testCanOutliveDocumentReference
  @Test func testCanOutliveDocumentReference() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collectionRef = db.collection("c")
      let seen = Signal()
      let registration: ListenerRegistration
      let documentID: String
      do {
        let docRef = collectionRef.document()
        documentID = docRef.documentID
        registration = docRef.addSnapshotListener { snapshot, _ in
          if snapshot?.exists == true { seen.fire() }
        }
      }
      let docRef2 = collectionRef.document(documentID)
      try docRef2.setData(["foo": "bar"])
      #expect(seen.wait(), "seen document")
      registration.remove()
    }
  }

  // MARK: - FIRDatabaseTests.mm and database.test.ts

  // FIRDatabaseTests.testCanMergeEmptyObject
  @Test func testCanMergeEmptyObject() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let doc = db.collection("rooms").document()
      let accumulator = DocumentRecorder()
      let listenerRegistration = doc.addSnapshotListener(accumulator.handler)
      // Hearth: the first snapshot says the new document is missing; the original does not wait
      // for it, because its local write may be raised first.
      expectDocument(accumulator.next("Snapshot"), path: doc.path, data: nil, "before the first write")

      try doc.setData([:])
      expectDocument(accumulator.next("Snapshot"), path: doc.path, data: [:])

      try doc.setData(["a": [String: Any]()], mergeFields: ["a"])
      expectDocument(accumulator.next("Snapshot"), path: doc.path, data: ["a": [String: Any]()])

      try doc.setData(["b": [String: Any]()], merge: true)
      expectDocument(accumulator.next("Snapshot"), path: doc.path, data: ["a": [String: Any](), "b": [String: Any]()])

      expectSame(try doc.getDocument().data(), ["a": [String: Any](), "b": [String: Any]()])
      listenerRegistration.remove()
      accumulator.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testSnapshotsInSyncListenerFiresAfterListenersInSync
  @Test func testSnapshotsInSyncListenerFiresAfterListenersInSync() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = db.collection("collection")
      let ref = try coll.addDocument(data: ["foo": 1])
      let events = Box<[String]>([])
      let gotInitialSnapshot = Signal()
      let setupComplete = Box(false)
      let docRegistration = ref.addSnapshotListener { _, error in
        #expect(error == nil)
        events.mutate { $0.append("doc") }
        // Wait for the initial event so that we know we'll get exactly one snapshot event
        // for our write below.
        if !setupComplete.value {
          setupComplete.value = true
          gotInitialSnapshot.fire()
        }
      }
      defer { docRegistration.remove() }
      #expect(gotInitialSnapshot.wait())
      events.mutate { $0.removeAll() }

      let done = Signal()
      let inSync = db.addSnapshotsInSyncListener {
        events.mutate { $0.append("snapshots-in-sync") }
        if events.value.count == 3 {
          // An initial snapshots-in-sync event, then a snapshot event for the write, then
          // another event to say they are in sync again.
          #expect(events.value == ["snapshots-in-sync", "doc", "snapshots-in-sync"])
          done.fire()
        }
      }
      defer { inSync.remove() }
      try ref.setData(["foo": 3])
      #expect(done.wait(), "SnapshotsInSyncListenerDone")
    }
  }

  // FIRDatabaseTests.testSnapshotsInSyncRemoveIsIdempotent
  @Test func testSnapshotsInSyncRemoveIsIdempotent() throws {
    try withDatabase(settings: listenerSettings()) { db in
      // Calling remove multiple times doesn't explode.
      let listener = db.addSnapshotsInSyncListener {}
      listener.remove()
      listener.remove()
    }
  }

  // FIRDatabaseTests.testListenCanBeCalledMultipleTimes; database.test.ts 'Listen can be
  // called multiple times'
  @Test func testListenCanBeCalledMultipleTimes() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = db.collection("collection")
      let doc = coll.document()
      let completed = Signal()
      let resultingData = Box<[String: Any]?>(nil)
      let registrations = Box<[ListenerRegistration]>([])
      let outerCalls = Box(0)
      try doc.setData(["foo": "bar"])
      let errors = Box(0)
      let outer = doc.addSnapshotListener { _, error2 in
        if error2 != nil { errors.mutate { $0 += 1 } }
        outerCalls.mutate { $0 += 1 }
        guard outerCalls.value == 1 else { return }
        let inner = doc.addSnapshotListener { snapshot3, error3 in
          if error3 != nil { errors.mutate { $0 += 1 } }
          resultingData.value = snapshot3?.data()
          completed.fire()
        }
        registrations.mutate { $0.append(inner) }
      }
      #expect(completed.wait(), "multiple addSnapshotListeners")
      expectSame(resultingData.value, ["foo": "bar"])
      #expect(errors.value == 0)
      outer.remove()
      for registration in registrations.value { registration.remove() }
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_nonExistent; database.test.ts
  // 'DocumentSnapshot events for non existent document'
  @Test func testDocumentSnapshotEvents_nonExistent() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(recorder.handler)
      let snapshot = recorder.next("snapshot")
      #expect(snapshot != nil)
      #expect(snapshot?.exists == false)
      #expect(snapshot?.data() == nil)
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forAdd
  @Test func testDocumentSnapshotEvents_forAdd() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(recorder.handler)
      let empty = recorder.next("empty snapshot")
      #expect(empty != nil)
      #expect(empty?.exists == false)
      try docRef.setData(["a": 1])
      // The original expects hasPendingWrites == YES (latency compensation); Hearth: NO.
      expectDocument(recorder.next("data snapshot"), path: docRef.path, data: ["a": 1])
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forAddIncludingMetadata; database.test.ts
  // 'DocumentSnapshot events for add data to document'
  @Test func testDocumentSnapshotEvents_forAddIncludingMetadata() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(includeMetadataChanges: true, listener: recorder.handler)
      let empty = recorder.next("empty snapshot")
      #expect(empty?.exists == false)
      #expect(empty?.data() == nil)
      try docRef.setData(["a": 1])
      // The original gets two snapshots of {a: 1}, pending then acknowledged; Hearth one,
      // committed.
      expectDocument(recorder.next("data snapshot"), path: docRef.path, data: ["a": 1])
      recorder.expectNoMore("no acknowledgement event: the write was committed when it returned")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forChange
  @Test func testDocumentSnapshotEvents_forChange() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let initialData: [String: Any] = ["a": 1]
      let changedData: [String: Any] = ["b": 2]
      try docRef.setData(initialData)
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(recorder.handler)
      expectDocument(recorder.next("initial data"), path: docRef.path, data: initialData)
      try docRef.setData(changedData)
      expectDocument(recorder.next("listen for changed data"), path: docRef.path, data: changedData)
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forChangeIncludingMetadata; database.test.ts
  // 'DocumentSnapshot events for change data in document'
  @Test func testDocumentSnapshotEvents_forChangeIncludingMetadata() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let initialData: [String: Any] = ["a": 1]
      let changedData: [String: Any] = ["b": 2]
      try docRef.setData(initialData)
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(includeMetadataChanges: true, listener: recorder.handler)
      // The original gets the initial data twice (from cache, then from the server); Hearth once.
      expectDocument(recorder.next("initial data"), path: docRef.path, data: initialData)
      try docRef.setData(changedData)
      // The original gets the change twice (pending, then acknowledged); Hearth once.
      expectDocument(recorder.next("listen for changed data"), path: docRef.path, data: changedData)
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forDelete
  @Test func testDocumentSnapshotEvents_forDelete() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let initialData: [String: Any] = ["a": 1]
      try docRef.setData(initialData)
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(recorder.handler)
      // The original expects isFromCache == YES for the first snapshot; Hearth has no cache.
      expectDocument(recorder.next("initial data"), path: docRef.path, data: initialData)
      try docRef.delete()
      let deleted = recorder.next("listen for changed data")
      #expect(deleted?.exists == false)
      expectDocument(deleted, path: docRef.path, data: nil)
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testDocumentSnapshotEvents_forDeleteIncludingMetadata; database.test.ts
  // 'DocumentSnapshot events for delete data in document'
  @Test func testDocumentSnapshotEvents_forDeleteIncludingMetadata() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("rooms").document()
      let initialData: [String: Any] = ["a": 1]
      try docRef.setData(initialData)
      let recorder = DocumentRecorder()
      let listenerRegistration = docRef.addSnapshotListener(includeMetadataChanges: true, listener: recorder.handler)
      expectDocument(recorder.next("initial data"), path: docRef.path, data: initialData)
      try docRef.delete()
      let deleted = recorder.next("listen for changed data")
      #expect(deleted?.exists == false)
      #expect(deleted?.data() == nil)
      #expect(deleted?.metadata.hasPendingWrites == false)
      #expect(deleted?.metadata.isFromCache == false)
      recorder.expectNoMore("Should not have received this callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testQuerySnapshotEvents_forAdd
  @Test func testQuerySnapshotEvents_forAdd() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let roomsRef = db.collection("rooms")
      let docRef = roomsRef.document()
      let newData: [String: Any] = ["a": 1]
      let recorder = QueryRecorder()
      let listenerRegistration = roomsRef.addSnapshotListener(recorder.handler)
      let empty = recorder.next("empty snapshot")
      #expect(empty?.count == 0)
      try docRef.setData(newData)
      let changed = recorder.next("changed snapshot")
      #expect(changed?.count == 1)
      expectSame(changed?.documents.first?.data(), newData)
      #expect(changed?.documents.first?.metadata.hasPendingWrites == false, "the original expects YES")
      recorder.expectNoMore("Should not have received a third callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testQuerySnapshotEvents_forChange
  @Test func testQuerySnapshotEvents_forChange() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let roomsRef = db.collection("rooms")
      let docRef = roomsRef.document()
      let initialData: [String: Any] = ["a": 1]
      let changedData: [String: Any] = ["b": 2]
      try docRef.setData(initialData)
      let recorder = QueryRecorder()
      let listenerRegistration = roomsRef.addSnapshotListener(recorder.handler)
      let initial = recorder.next("initial data")
      #expect(initial?.count == 1)
      expectSame(initial?.documents.first?.data(), initialData)
      #expect(initial?.documents.first?.metadata.hasPendingWrites == false)
      try docRef.setData(changedData)
      let changed = recorder.next("listen for changed data")
      #expect(changed?.count == 1)
      expectSame(changed?.documents.first?.data(), changedData)
      #expect(changed?.documents.first?.metadata.hasPendingWrites == false, "the original expects YES")
      recorder.expectNoMore("Should not have received a third callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testQuerySnapshotEvents_forDelete
  @Test func testQuerySnapshotEvents_forDelete() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let roomsRef = db.collection("rooms")
      let docRef = roomsRef.document()
      let initialData: [String: Any] = ["a": 1]
      try docRef.setData(initialData)
      let recorder = QueryRecorder()
      let listenerRegistration = roomsRef.addSnapshotListener(recorder.handler)
      let initial = recorder.next("initial data")
      #expect(initial?.count == 1)
      expectSame(initial?.documents.first?.data(), initialData)
      #expect(initial?.documents.first?.metadata.hasPendingWrites == false)
      try docRef.delete()
      let deleted = recorder.next("listen for changed data")
      #expect(deleted?.count == 0)
      recorder.expectNoMore("Should not have received a third callback")
      listenerRegistration.remove()
      recorder.expectNoErrors()
    }
  }

  // database.test.ts 'Metadata only changes are not fired when no options provided'
  @Test func testMetadataOnlyChangesAreNotFiredWhenNoOptionsProvided() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("c").document()
      let recorder = DocumentRecorder()
      let unlisten = docRef.addSnapshotListener(recorder.handler)
      // Hearth: wait for the first (missing) snapshot; the original's first event is its own
      // latency-compensated write.
      expectDocument(recorder.next(), path: docRef.path, data: nil)
      try docRef.setData(["a": 1])
      try docRef.setData(["b": 1])
      expectDocument(recorder.next(), path: docRef.path, data: ["a": 1])
      expectDocument(recorder.next("secondUpdateFound"), path: docRef.path, data: ["b": 1])
      recorder.expectNoMore()
      unlisten.remove()
      recorder.expectNoErrors()
    }
  }

  // FIRDatabaseTests.testCanRemoveListenerAfterTermination; database.test.ts 'can unlisten
  // queries after termination' (Hearth: after close())
  @Test func testCanRemoveListenerAfterTermination() throws {
    let db = try Database.temporary(settings: listenerSettings())
    let doc = db.collection("rooms").document()
    let accumulator = DocumentRecorder()
    try doc.setData([:])
    let listenerRegistration = doc.addSnapshotListener(accumulator.handler)
    _ = accumulator.next("Snapshot")
    db.close()
    // This should proceed without error.
    listenerRegistration.remove()
    // Multiple calls should proceed as well.
    listenerRegistration.remove()
    accumulator.expectNoMore("no snapshot after close")
  }

  // FIRDatabaseTests.testListenerCallbackBlocksRemove: remove() waits for a callback that is
  // running, so that the caller may free what the callback uses once remove() returns.
  @Test func testListenerCallbackBlocksRemove() throws {
    let userQueue = DispatchQueue(label: "firestore.test.user")
    try withDatabase(settings: listenerSettings(queue: userQueue)) { db in
      let running = Signal()
      let allowCompletion = Signal()
      let removing = Signal()
      let removed = Signal()
      let steps = Box("")
      let doc = db.collection("c").document()
      try doc.setData(["foo": "bar"])
      let firstTime = Box(true)
      let listener = doc.addSnapshotListener { _, _ in
        var first = false
        firstTime.mutate {
          first = $0
          $0 = false
        }
        guard first else { return }
        steps.mutate { $0 += "1" }
        running.fire()
        _ = allowCompletion.wait()
        steps.mutate { $0 += "3" }
      }
      let listenerBox = Box<ListenerRegistration?>(listener)
      // Call remove asynchronously to avoid blocking the test thread.
      DispatchQueue(label: "firestore.async").async {
        _ = running.wait()
        steps.mutate { $0 += "2" }
        removing.fire()
        listenerBox.value?.remove()
        steps.mutate { $0 += "4" }
        removed.fire()
      }
      // Perform a write to `doc` which will trigger the listener callback. Don't wait for
      // completion though (the original's write is asynchronous): Hearth's write is made on
      // another thread.
      let setData = Signal()
      let setDataError = Box<String?>(nil)
      DispatchQueue.global().async {
        do { try doc.setData(["foo": "bar2"]) } catch { setDataError.value = "\(error)" }
        setData.fire()
      }
      #expect(removing.wait())
      // remove() waits for the running callback: it does not return in a short quiet period.
      #expect(!removed.wait(seconds: listenerQuietPeriod), "remove() returned while the callback was running")
      allowCompletion.fire()
      #expect(removed.wait())
      #expect(steps.value == "1234")
      #expect(setData.wait(), "setData")
      #expect(setDataError.value == nil)
    }
  }

  // FIRDatabaseTests.testListenerCallbackCanCallRemoveWithoutBlocking
  @Test func testListenerCallbackCanCallRemoveWithoutBlocking() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let removed = Signal()
      let steps = Box("")
      let doc = db.collection("c").document()
      try doc.setData(["foo": "bar"])
      let listener = Box<ListenerRegistration?>(nil)
      let ready = DispatchSemaphore(value: 0)
      let registration = doc.addSnapshotListener { _, _ in
        _ = ready.wait(timeout: .now() + listenerEventTimeout)
        ready.signal()
        steps.mutate { $0 += "1" }
        // This test is successful if this method does not block.
        listener.value?.remove()
        steps.mutate { $0 += "2" }
        removed.fire()
      }
      listener.value = registration
      ready.signal()
      // Perform a write to `doc` which will trigger the listener callback.
      try doc.setData(["foo": "bar2"])
      #expect(removed.wait(), "listener removed")
      #expect(steps.value == "12")
    }
  }

  // FIRDatabaseTests.testListenerCallbacksHappenOnMainThread, with Settings.dispatchQueue
  // set to another queue: callbacks written outside any actor run there. (With the
  // default, the main queue, as in Firebase: CallbackIsolationTests.)
  @Test func testListenerCallbacksHappenOnTheDispatchQueue() throws {
    let queue = DispatchQueue(label: "listener-port.callbacks")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    try withDatabase(settings: listenerSettings(queue: queue)) { db in
      let doc = db.collection("c").document()
      try doc.setData(["foo": "bar"])
      let invoked = Signal()
      let onQueue = Box<Bool?>(nil)
      let registration = doc.addSnapshotListener { _, _ in
        if onQueue.value == nil { onQueue.value = DispatchQueue.getSpecific(key: key) == 7 }
        invoked.fire()
      }
      #expect(invoked.wait(), "listener invoked")
      #expect(onQueue.value == true, "the listener callback was expected on Settings.dispatchQueue")
      registration.remove()
    }
  }

  // MARK: - FIRQueryTests.mm and query.test.ts

  // FIRQueryTests.testListenUnlistenRelistenSequenceOfMirrorQueries; query.test.ts 'can
  // listen/unlisten/relisten to mirror queries'
  @Test func testListenUnlistenRelistenSequenceOfMirrorQueries() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(
        db.collection("c"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      func data(_ pairs: [(String, Int)]) -> [String] { pairs.map { canonical(["k": $0.0, "sort": $0.1]) } }

      // Setup a `limit` query.
      let limit = collRef.order(by: "sort", descending: false).limit(to: 2)
      let limitAccumulator = QueryRecorder()
      var limitRegistration = limit.addSnapshotListener(limitAccumulator.handler)
      // Setup a mirroring `limitToLast` query.
      let limitToLast = collRef.order(by: "sort", descending: true).limit(toLast: 2)
      let limitToLastAccumulator = QueryRecorder()
      var limitToLastRegistration = limitToLast.addSnapshotListener(limitToLastAccumulator.handler)

      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("a", 0), ("b", 1)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("b", 1), ("a", 0)]))

      // Unlisten then re-listen limit query.
      limitRegistration.remove()
      limitRegistration = limit.addSnapshotListener(limitAccumulator.handler)
      // Verify limit query still works.
      #expect(limitAccumulator.next().map(describeData) == data([("a", 0), ("b", 1)]))

      // Add a document that would change the result set.
      try collRef.addDocument(data: ["k": "e", "sort": -1])
      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("e", -1), ("a", 0)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("a", 0), ("e", -1)]))

      // Unlisten to limitToLast, update a doc, then relisten to limitToLast
      limitToLastRegistration.remove()
      try collRef.document("a").updateData(["k": "a", "sort": -2])
      limitToLastRegistration = limitToLast.addSnapshotListener(limitToLastAccumulator.handler)

      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("a", -2), ("e", -1)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("e", -1), ("a", -2)]))
      limitAccumulator.expectNoMore()
      limitToLastAccumulator.expectNoMore()
      limitRegistration.remove()
      limitToLastRegistration.remove()
      limitAccumulator.expectNoErrors()
      limitToLastAccumulator.expectNoErrors()
    }
  }

  // query.test.ts 'can listen to limitToLast queries'
  @Test func testCanListenToLimitToLastQueries() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collection = try seed(
        db.collection("c"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      let storeEvent = QueryRecorder()
      let registration = collection.order(by: "sort", descending: true).limit(toLast: 2)
        .addSnapshotListener(storeEvent.handler)
      defer { registration.remove() }
      #expect(
        storeEvent.next().map(describeData) == [canonical(["k": "b", "sort": 1]), canonical(["k": "a", "sort": 0])])
      try collection.addDocument(data: ["k": "e", "sort": -1])
      #expect(
        storeEvent.next().map(describeData) == [canonical(["k": "a", "sort": 0]), canonical(["k": "e", "sort": -1])])
      storeEvent.expectNoErrors()
    }
  }

  // FIRQueryTests.testDocumentChangesUseNSNotFound
  @Test func testDocumentChangesUseNSNotFound() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collection = try seed(db.collection("c"), ["a": ["foo": 1]])
      let eventAccumulator = QueryRecorder()
      let registration = collection.addSnapshotListener(eventAccumulator.handler)

      let querySnap = eventAccumulator.next("initial event")
      #expect(querySnap?.documentChanges.count == 1)
      var change = querySnap?.documentChanges.first
      #expect(change?.oldIndex == UInt(NSNotFound))
      #expect(change?.newIndex == 0)

      if let doc = change?.document.reference { try doc.delete() }
      let deleted = eventAccumulator.next("delete")
      #expect(deleted?.documentChanges.count == 1)
      change = deleted?.documentChanges.first
      #expect(change?.oldIndex == 0)
      #expect(change?.newIndex == UInt(NSNotFound))
      registration.remove()
      eventAccumulator.expectNoErrors()
    }
  }

  // query.test.ts 'will not get metadata only updates'
  @Test func testWillNotGetMetadataOnlyUpdates() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = try seed(db.collection("c"), ["a": ["v": "a"], "b": ["v": "b"]])
      try coll.document("a").setData(["v": "a"])
      try coll.document("b").setData(["v": "b"])
      let storeEvent = QueryRecorder()
      let unlisten = coll.addSnapshotListener(storeEvent.handler)
      #expect(storeEvent.next().map(describeData) == [canonical(["v": "a"]), canonical(["v": "b"])])
      try coll.document("a").setData(["v": "a1"])
      #expect(storeEvent.next().map(describeData) == [canonical(["v": "a1"]), canonical(["v": "b"])])
      storeEvent.expectNoMore()
      unlisten.remove()
      storeEvent.expectNoErrors()
    }
  }

  // query.test.ts 'maintains correct DocumentChange indices'
  @Test func testMaintainsCorrectDocumentChangeIndices() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = try seed(db.collection("c"), ["a": ["order": 1], "b": ["order": 2], "c": ["order": 3]])
      let accumulator = QueryRecorder()
      let unlisten = coll.order(by: "order").addSnapshotListener(accumulator.handler)
      #expect(accumulator.next().map { describeChanges($0) } == ["added a -/0", "added b -/1", "added c -/2"])
      try coll.document("b").setData(["order": 4])
      #expect(accumulator.next().map { describeChanges($0) } == ["modified b 1/2"])
      try coll.document("c").delete()
      #expect(accumulator.next().map { describeChanges($0) } == ["removed c 1/-"])
      unlisten.remove()
      accumulator.expectNoErrors()
    }
  }

  // query.test.ts 'can listen for the same query with different options'
  @Test func testCanListenForTheSameQueryWithDifferentOptions() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let coll = try seed(db.collection("c"), ["a": ["v": "a"], "b": ["v": "b"]])
      let storeEvent = QueryRecorder()
      let storeEventFull = QueryRecorder()
      let unlisten1 = coll.addSnapshotListener(storeEvent.handler)
      let unlisten2 = coll.addSnapshotListener(includeMetadataChanges: true, listener: storeEventFull.handler)
      let ab = [canonical(["v": "a"]), canonical(["v": "b"])]
      #expect(storeEvent.next().map(describeData) == ab)
      let full = storeEventFull.next()
      #expect(full.map(describeData) == ab)
      #expect(full?.metadata.isFromCache == false, "no cache: no extra event after the first")

      try coll.document("a").setData(["v": "a1"])
      // The original expects two events with metadata (pending, then acknowledged); Hearth one.
      let a1b = [canonical(["v": "a1"]), canonical(["v": "b"])]
      let fullA1 = storeEventFull.next()
      #expect(fullA1.map(describeData) == a1b)
      #expect(fullA1?.documents.first?.metadata.hasPendingWrites == false)
      // Expect only one event for the write.
      #expect(storeEvent.next().map(describeData) == a1b)
      storeEvent.expectNoMore()
      storeEventFull.expectNoMore()

      try coll.document("b").setData(["v": "b1"])
      let a1b1 = [canonical(["v": "a1"]), canonical(["v": "b1"])]
      // Expect only one event from the second write
      #expect(storeEvent.next().map(describeData) == a1b1)
      #expect(storeEventFull.next().map(describeData) == a1b1)
      storeEvent.expectNoMore()
      storeEventFull.expectNoMore()
      unlisten1.remove()
      unlisten2.remove()
      storeEvent.expectNoErrors()
      storeEventFull.expectNoErrors()
    }
  }

  // query.test.ts 'can listen for QueryMetadata changes': a listener added from inside
  // another listener's callback
  @Test func testCanListenForQueryMetadataChanges() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let testDocs: [String: [String: Any]] = [
        "1": ["sort": 1, "filter": true, "key": "1"],
        "2": ["sort": 2, "filter": true, "key": "2"],
        "3": ["sort": 2, "filter": true, "key": "3"],
        "4": ["sort": 3, "filter": false, "key": "4"],
      ]
      let coll = try seed(db.collection("c"), testDocs)
      let expected = ["1", "2", "3"].map { canonical(testDocs[$0]) }
      let accum = QueryRecorder()
      let outerResults = Box<[[String]]>([])
      let unlisten2 = Box<ListenerRegistration?>(nil)
      let unlisten1 = coll.whereField("key", isLessThan: "4").addSnapshotListener { result, _ in
        outerResults.mutate { $0.append(result.map(describeData) ?? []) }
        guard unlisten2.value == nil else { return }
        unlisten2.value = coll.whereField("filter", isEqualTo: true)
          .addSnapshotListener(includeMetadataChanges: true, listener: accum.handler)
      }
      // The original gets two events (from cache, then from the server); Hearth one.
      let results1 = accum.next()
      #expect(results1.map(describeData) == expected)
      #expect(results1?.metadata.isFromCache == false)
      accum.expectNoMore("no server event after a cache event")
      #expect(outerResults.value == [expected])
      unlisten1.remove()
      unlisten2.value?.remove()
      accum.expectNoErrors()
    }
  }

  // query.test.ts 'can listen for metadata changes'
  @Test func testCanListenForMetadataChanges() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let initialDoc: [String: Any] = ["a": "b", "v": 1]
      let modifiedDoc: [String: Any] = ["a": "b", "v": 2]
      let coll = try seed(db.collection("c"), ["foo": initialDoc])
      let accum = QueryRecorder()
      let unlisten = coll.addSnapshotListener(includeMetadataChanges: true, listener: accum.handler)
      #expect(accum.next().map(describeData) == [canonical(initialDoc)])
      try coll.document("foo").setData(modifiedDoc)
      let results1 = accum.next()
      #expect(results1.map(describeData) == [canonical(modifiedDoc)])
      #expect(results1?.documentChanges.map { canonical($0.document.data()) } == [canonical(modifiedDoc)])
      #expect(
        results1?.documentChanges(includeMetadataChanges: true).map { canonical($0.document.data()) } == [
          canonical(modifiedDoc)
        ])
      // The original's second event carries only the acknowledgement (no changes, one metadata
      // change); Hearth raises none.
      accum.expectNoMore("no acknowledgement event")
      unlisten.remove()
      accum.expectNoErrors()
    }
  }

  // query.test.ts 'can query custom types': listen and unlisten twice to a query on a map
  // holding a reference, a geopoint, bytes and timestamps.
  @Test func testCanListenToQueriesOnCustomTypes() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let ref = db.collection("c")
      let now = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000)
      let bytes = Data(base64Encoded: "Zm9v")!
      let data: [String: Any] = [
        "ref": db.document("f/c"),
        "geoPoint": GeoPoint(latitude: 0, longitude: 0),
        "buffer": bytes,
        "time": now,
        "array": [db.document("f/c"), GeoPoint(latitude: 0, longitude: 0), bytes, now],
      ]
      try ref.addDocument(data: ["data": data])
      let query1 = ref.whereField("data", isEqualTo: data)
      for i in 0..<2 {
        let recorder = QueryRecorder()
        let unsubscribe = query1.addSnapshotListener(recorder.handler)
        #expect(recorder.next("listen \(i)")?.count == 1)
        unsubscribe.remove()
        recorder.expectNoErrors()
      }
    }
  }

  // MARK: - Swift SDK: the async snapshot sequence

  // The Swift SDK's `snapshots()` (AsyncThrowingStream) as its integration tests use it:
  // the first element is the current state, and leaving the loop ends the listen.
  @Test func testSnapshotsSequenceYieldsTheCurrentStateFirst() async throws {
    try await withDatabase(settings: listenerSettings()) { db in
      let collection = try seed(db.collection("c"), ["a": ["v": "a"], "b": ["v": "b"]])
      let first = try await withTimeout(seconds: streamTimeout) { () -> [String] in
        for try await snapshot in collection.snapshots(includeMetadataChanges: true) {
          return describeData(snapshot)
        }
        return []
      }
      #expect(first == [canonical(["v": "a"]), canonical(["v": "b"])])
      let document = try await withTimeout(seconds: streamTimeout) { () -> String in
        for try await snapshot in collection.document("a").snapshots() {
          return describeDocument(snapshot)
        }
        return "ended"
      }
      #expect(document == "c/a " + canonical(["v": "a"]))
    }
  }
}
