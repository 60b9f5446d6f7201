import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own listen-source integration tests, ported case by case with their data and
// expected results: FIRSnapshotListenerSourceTests.mm (Firestore/Example/Tests/Integration/API),
// through `SnapshotListenOptions` and `addSnapshotListener(options:listener:)`. Hearth has no
// cache: a listener sourced from the cache listens to the database, as `getDocuments(source:)`
// reads it, so the `isFromCache` and `hasPendingWrites` assertions are left out (they are
// always false in Hearth), `readDocumentSetForRef` ("populate the cache") reads nothing the
// listener needs, and so are the cases whose expectation is the cache's own behaviour: an empty
// cache before a default listener fills it (testCanListenToCacheSourceFirstAndThenDefault),
// events only a server acknowledgement raises (testWillNotGetMetadataOnlyUpdatesIfListeningToCacheOnly,
// testWillHaveSynceMetadataUpdatesWhenListeningToBothCacheAndDefaultSource), writes a
// transaction hides from the cache (testWillNotBeTriggeredByTransactionsWhileListeningToCache),
// and the network (testListenToCacheShouldNotBeAffectedByOnlineStatusChange).

@Suite("Firestore port: FIRSnapshotListenerSourceTests")
struct FirestorePortListenSourceTests {
  private let optionsWithSourceFromCache = SnapshotListenOptions().withSource(.cache)

  private func data(_ pairs: [(String, Int)]) -> [String] { pairs.map { canonical(["k": $0.0, "sort": $0.1]) } }

  // FIRSnapshotListenerSourceTests.testCanRaiseSnapshotFromCacheForQuery
  @Test func testCanRaiseSnapshotFromCacheForQuery() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a"]])
      _ = try collRef.getDocuments()  // populate the cache.
      let eventAccumulator = QueryRecorder()
      let registration = collRef.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      #expect(eventAccumulator.next().map(describeData) == [canonical(["k": "a"])])
      eventAccumulator.expectNoMore()
      registration.remove()
      eventAccumulator.expectNoErrors()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanRaiseSnapshotFromCacheForDocumentReference
  @Test func testCanRaiseSnapshotFromCacheForDocumentReference() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let docRef = db.collection("test-collection").document()
      try docRef.setData(["k": "a"])
      _ = try docRef.getDocument()  // populate the cache.
      let eventAccumulator = DocumentRecorder()
      let registration = docRef.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      #expect(eventAccumulator.next().map { canonical($0.data()) } == canonical(["k": "a"]))
      eventAccumulator.expectNoMore()
      registration.remove()
      eventAccumulator.expectNoErrors()
    }
  }

  // FIRSnapshotListenerSourceTests.testMultipleListenersSourcedFromCacheCanWorkIndependently
  @Test func testMultipleListenersSourcedFromCacheCanWorkIndependently() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      _ = try collRef.getDocuments()  // populate the cache.
      let query = collRef.whereField("sort", isGreaterThan: 0).order(by: "sort")
      let eventAccumulator = QueryRecorder()
      let registration1 = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      let registration2 = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      var expected = data([("b", 1)])
      #expect(eventAccumulator.next().map(describeData) == expected)
      #expect(eventAccumulator.next().map(describeData) == expected)

      // Do a local mutation
      try collRef.addDocument(data: ["k": "c", "sort": 2])
      expected = data([("b", 1), ("c", 2)])
      #expect(eventAccumulator.next().map(describeData) == expected)
      #expect(eventAccumulator.next().map(describeData) == expected)

      // Detach one listener, and do a local mutation. The other listener
      // should not be affected.
      registration1.remove()
      try collRef.addDocument(data: ["k": "d", "sort": 3])
      #expect(eventAccumulator.next().map(describeData) == data([("b", 1), ("c", 2), ("d", 3)]))
      eventAccumulator.expectNoMore()
      registration2.remove()
      eventAccumulator.expectNoErrors()
    }
  }

  // FIRSnapshotListenerSourceTests.testListenUnlistenRelistenToMirrorQueriesFromCache
  @Test func testListenUnlistenRelistenToMirrorQueriesFromCache() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(
        db.collection("c"),
        ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1]])
      _ = try collRef.getDocuments()  // populate the cache.

      // Setup a `limit` query.
      let limit = collRef.order(by: "sort", descending: false).limit(to: 2)
      let limitAccumulator = QueryRecorder()
      var limitRegistration = limit.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: limitAccumulator.handler)
      // Setup a mirroring `limitToLast` query.
      let limitToLast = collRef.order(by: "sort", descending: true).limit(toLast: 2)
      let limitToLastAccumulator = QueryRecorder()
      var limitToLastRegistration = limitToLast.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: limitToLastAccumulator.handler)

      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("a", 0), ("b", 1)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("b", 1), ("a", 0)]))

      // Un-listen then re-listen to the limit query.
      limitRegistration.remove()
      limitRegistration = limit.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: limitAccumulator.handler)
      #expect(limitAccumulator.next().map(describeData) == data([("a", 0), ("b", 1)]))

      // Add a document that would change the result set.
      try collRef.addDocument(data: ["k": "d", "sort": -1])
      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("d", -1), ("a", 0)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("a", 0), ("d", -1)]))

      // Un-listen to limitToLast, update a doc, then re-listen to limitToLast
      limitToLastRegistration.remove()
      try collRef.document("a").updateData(["k": "a", "sort": -2])
      limitToLastRegistration = limitToLast.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: limitToLastAccumulator.handler)

      // Verify both queries get expected result.
      #expect(limitAccumulator.next().map(describeData) == data([("a", -2), ("d", -1)]))
      #expect(limitToLastAccumulator.next().map(describeData) == data([("d", -1), ("a", -2)]))
      limitRegistration.remove()
      limitToLastRegistration.remove()
      limitAccumulator.expectNoErrors()
      limitToLastAccumulator.expectNoErrors()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanListenToDefaultSourceFirstAndThenCache
  @Test func testCanListenToDefaultSourceFirstAndThenCache() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      let query = collRef.whereField("sort", isGreaterThanOrEqualTo: 1).order(by: "sort")

      // Listen to the query with default options, which will also populates the cache
      let defaultAccumulator = QueryRecorder()
      let defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      #expect(defaultAccumulator.next().map(describeData) == data([("b", 1)]))

      // Listen to the same query from cache
      let cacheAccumulator = QueryRecorder()
      let cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      #expect(cacheAccumulator.next().map(describeData) == data([("b", 1)]))

      defaultAccumulator.expectNoMore()
      cacheAccumulator.expectNoMore()
      defaultRegistration.remove()
      cacheRegistration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanUnlistenToDefaultSourceWhileStillListeningToCache
  @Test func testCanUnlistenToDefaultSourceWhileStillListeningToCache() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      let query = collRef.whereField("sort", isNotEqualTo: 0).order(by: "sort")

      // Listen to the query with both source options
      let defaultAccumulator = QueryRecorder()
      let defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      _ = defaultAccumulator.next()
      let cacheAccumulator = QueryRecorder()
      let cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      _ = cacheAccumulator.next()

      // Un-listen to the default listener.
      defaultRegistration.remove()

      // Add a document and verify listener to cache works as expected
      try collRef.addDocument(data: ["k": "c", "sort": -1])
      defaultAccumulator.expectNoMore()
      #expect(cacheAccumulator.next().map(describeData) == data([("c", -1), ("b", 1)]))
      cacheAccumulator.expectNoMore()
      cacheRegistration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanUnlistenToCacheSourceWhileStillListeningToServer
  @Test func testCanUnlistenToCacheSourceWhileStillListeningToServer() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      let query = collRef.whereField("sort", isNotEqualTo: 0).order(by: "sort")

      // Listen to the query with both source options
      let defaultAccumulator = QueryRecorder()
      let defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      _ = defaultAccumulator.next()
      let cacheAccumulator = QueryRecorder()
      let cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      _ = cacheAccumulator.next()

      // Un-listen to cache.
      cacheRegistration.remove()

      // Add a document and verify listener to server works as expected.
      try collRef.addDocument(data: ["k": "c", "sort": -1])
      cacheAccumulator.expectNoMore()
      #expect(defaultAccumulator.next().map(describeData) == data([("c", -1), ("b", 1)]))
      defaultAccumulator.expectNoMore()
      defaultRegistration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanListenUnlistenRelistenToSameQueryWithDifferentSourceOptions
  @Test func testCanListenUnlistenRelistenToSameQueryWithDifferentSourceOptions() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      let query = collRef.whereField("sort", isGreaterThan: 0).order(by: "sort")

      // Listen to the query with default options, which will also populates the cache
      let defaultAccumulator = QueryRecorder()
      var defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      var expected = data([("b", 1)])
      #expect(defaultAccumulator.next().map(describeData) == expected)

      // Listen to the same query from cache
      let cacheAccumulator = QueryRecorder()
      var cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      #expect(cacheAccumulator.next().map(describeData) == expected)

      // Un-listen to the default listener, add a doc and re-listen.
      defaultRegistration.remove()
      try collRef.addDocument(data: ["k": "c", "sort": 2])
      expected = data([("b", 1), ("c", 2)])
      #expect(cacheAccumulator.next().map(describeData) == expected)
      defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      #expect(defaultAccumulator.next().map(describeData) == expected)

      // Un-listen to cache, update a doc, then re-listen to cache.
      cacheRegistration.remove()
      try collRef.document("b").updateData(["k": "b", "sort": 3])
      expected = data([("c", 2), ("b", 3)])
      #expect(defaultAccumulator.next().map(describeData) == expected)
      cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      #expect(cacheAccumulator.next().map(describeData) == expected)

      defaultAccumulator.expectNoMore()
      cacheAccumulator.expectNoMore()
      defaultRegistration.remove()
      cacheRegistration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanListenToCompositeIndexQueriesFromCache
  @Test func testCanListenToCompositeIndexQueriesFromCache() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      _ = try collRef.getDocuments()  // populate the cache.
      let query = collRef.whereField("k", isLessThanOrEqualTo: "a").whereField("sort", isGreaterThanOrEqualTo: 0)
      let eventAccumulator = QueryRecorder()
      let registration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      #expect(eventAccumulator.next().map(describeData) == data([("a", 0)]))
      eventAccumulator.expectNoMore()
      registration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testCanRaiseInitialSnapshotFromCachedEmptyResults
  @Test func testCanRaiseInitialSnapshotFromCachedEmptyResults() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), [:])
      // Populate the cache with empty query result.
      #expect(try collRef.getDocuments().documents.isEmpty)
      // Add a snapshot listener whose first event should be raised from cache.
      let eventAccumulator = QueryRecorder()
      let registration = collRef.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: eventAccumulator.handler)
      #expect(eventAccumulator.next().map(describeData) == [])
      registration.remove()
    }
  }

  // FIRSnapshotListenerSourceTests.testSharesServerSideUpdatesWhenListeningToBothCacheAndDefault
  @Test func testSharesServerSideUpdatesWhenListeningToBothCacheAndDefault() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collRef = try seed(db.collection("c"), ["a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1]])
      let query = collRef.whereField("sort", isGreaterThan: 0).order(by: "sort")

      // Listen to the query with default options, which will also populates the cache
      let defaultAccumulator = QueryRecorder()
      let defaultRegistration = query.addSnapshotListener(defaultAccumulator.handler)
      #expect(defaultAccumulator.next().map(describeData) == data([("b", 1)]))

      // Listen to the same query from cache
      let cacheAccumulator = QueryRecorder()
      let cacheRegistration = query.addSnapshotListener(
        options: optionsWithSourceFromCache, listener: cacheAccumulator.handler)
      #expect(cacheAccumulator.next().map(describeData) == data([("b", 1)]))

      // Use a transaction to mock server side updates
      let docRef = collRef.document()
      try db.runTransaction { (transaction: Transaction) -> Void in
        transaction.setData(["k": "c", "sort": 2], forDocument: docRef)
      }

      // Default listener receives the server update
      let expected = data([("b", 1), ("c", 2)])
      #expect(defaultAccumulator.next().map(describeData) == expected)
      // Cache listener raises snapshot as well
      #expect(cacheAccumulator.next().map(describeData) == expected)

      defaultAccumulator.expectNoMore()
      cacheAccumulator.expectNoMore()
      defaultRegistration.remove()
      cacheRegistration.remove()
    }
  }

  /// The options build as Firebase's do, each step keeping the other setting.
  @Test func snapshotListenOptionsBuildAsFirebasesDo() {
    let options = SnapshotListenOptions()
    #expect(options.source == .default && !options.includeMetadataChanges)
    let both = options.withSource(.cache).withIncludeMetadataChanges(true)
    #expect(both.source == .cache && both.includeMetadataChanges)
    #expect(both.withSource(.default).includeMetadataChanges)
    #expect(options.source == .default, "building makes new options")
  }

  /// Nothing is ever pending: each form of `waitForPendingWrites` returns at once.
  @Test func waitForPendingWritesReturnsAtOnce() throws {
    try withDatabase(settings: listenerSettings()) { db in
      try db.collection("c").document("a").setData(["n": 1])
      db.waitForPendingWrites()
      let done = Signal()
      let failure = Box<Error?>(nil)
      db.waitForPendingWrites { error in
        failure.value = error
        done.fire()
      }
      #expect(done.wait())
      #expect(failure.value == nil)
    }
  }

  @Test func waitForPendingWritesAwaitsNothing() async throws {
    try await withDatabase(settings: listenerSettings()) { db in
      try await db.collection("c").document("a").setData(["n": 1])
      try await db.waitForPendingWrites()
      #expect(try await db.collection("c").document("a").getDocument().exists)
    }
  }
}
