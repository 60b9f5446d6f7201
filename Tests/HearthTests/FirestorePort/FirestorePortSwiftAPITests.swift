import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's Swift API tests not covered by the other ports, ported case by case with their data
// and expected results unchanged: AsyncAwaitIntegrationTests.swift and LargeDocIntegrationTests.swift
// (Firestore/Swift/Tests/Integration), BasicCompileTests.swift (Firestore/Swift/Tests/API) and
// FSTSmokeTests.mm (Firestore/Example/Tests/Integration). Bundles, terminate, the persistent
// cache index manager, network toggles, persistence and settings are left out, and so are the
// large-document cases that write 15.9 MB documents (docs/semantics.md: a document is at most 1 MiB).
// Firebase's fire-and-forget writes (`docRef.setData(data)`) are `try docRef.setData(data)` here,
// as docs/api.md's porting note says.

@Suite("Firestore port: AsyncAwaitIntegrationTests")
struct FirestorePortAsyncAwaitTests {

  /// FSTIntegrationTestCase's `collectionRef`.
  private func collectionRef(_ db: Database) -> CollectionReference {
    db.collection("test-collection-\(db.collection("c").document().documentID)")
  }

  // AsyncAwaitIntegrationTests.testAddData
  @Test func testAddData() async throws {
    try await withDatabase { db in
      let collection = collectionRef(db)
      let document = try await collection.addDocument(data: [:])
      let snapshot = try await document.getDocument()
      #expect(snapshot.exists)
    }
  }

  // AsyncAwaitIntegrationTests.testRunTransactionDoesNotCrashOnNilSuccess
  @Test func testRunTransactionDoesNotCrashOnNilSuccess() async throws {
    try await withDatabase { db in
      let value = try await db.runTransaction { transact, error in
        nil  // should not crash
      }

      #expect(value == nil, "value should be nil on success")
    }
  }

  // AsyncAwaitIntegrationTests.testQuery
  @Test func testQuery() async throws {
    try await withDatabase { db in
      let collRef = try seed(
        collectionRef(db),
        [
          "doc1": ["a": 1, "b": 0],
          "doc2": ["a": 2, "b": 1],
          "doc3": ["a": 3, "b": 2],
          "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1],
        ])

      // Two equalities: a==1 || b==1.
      let filter = Filter.orFilter(
        [
          Filter.whereField("a", isEqualTo: 1),
          Filter.whereField("b", isEqualTo: 1),
        ]
      )
      let query = collRef.whereFilter(filter)
      let snapshot = try await query.getDocuments(source: FirestoreSource.server)
      #expect(snapshot.documents.map(\.documentID) == ["doc1", "doc2", "doc4", "doc5"])
    }
  }
}

@Suite("Firestore port: LargeDocIntegrationTests")
struct FirestorePortLargeDocTests {

  private func generateString(sizeInBytes: Int, character: Character = "a") -> String {
    return String(repeating: character, count: sizeInBytes)
  }

  // LargeDocIntegrationTests.testOversizedPayloadRejection
  @Test func testOversizedPayloadRejection() async throws {
    try await withDatabase { db in
      let docRef = db.collection("test-collection").document("temp_oversized_doc")
      let targetBytes = (16 * 1024 * 1024) + 102_400
      let largePayload = generateString(sizeInBytes: targetBytes)

      do {
        try await docRef.setData(["largeField": largePayload])
        Issue.record("Setting a document exceeding the 16MB limit should fail.")
      } catch {
        let nsError = error as NSError
        #expect(nsError.domain == FirestoreErrorDomain)
        // Must map to standard InvalidArgument error, not a crash.
        #expect(nsError.code == FirestoreErrorCode.invalidArgument.rawValue)
      }
    }
  }
}

@Suite("Firestore port: FSTSmokeTests")
struct FirestorePortSmokeTests {

  private func chatMessage() -> [String: Any] {
    ["name": "Patryk", "message": "We are actually writing data!"]
  }

  // FSTSmokeTests.testCanWriteASingleDocument
  @Test func testCanWriteASingleDocument() throws {
    try withDatabase { db in
      let ref = db.collection("test-collection").document()
      try ref.setData(chatMessage())
    }
  }

  // FSTSmokeTests.testCanReadAWrittenDocument
  @Test func testCanReadAWrittenDocument() throws {
    try withDatabase { db in
      let data = chatMessage()

      let ref = db.collection("test-collection").document()
      try ref.setData(data)

      let doc = try ref.getDocument()
      expectSame(doc.data(), data)
    }
  }

  // FSTSmokeTests.testGetCollectionQuery
  @Test func testGetCollectionQuery() throws {
    try withDatabase { db in
      let testDocs: [String: [String: Any]] = [
        "1": ["name": "Patryk", "message": "Real data, yo!"],
        "2": ["name": "Gil", "message": "Yep!"],
        "3": ["name": "Jonny", "message": "Back to work!"],
      ]

      let docs = try seed(db.collection("test-collection-\(db.collection("c").document().documentID)"), testDocs)
      let result = try docs.getDocuments()
      expectSame(result.documents.map { $0.data() }, [testDocs["1"]!, testDocs["2"]!, testDocs["3"]!])
    }
  }

  // The listener cases' reader and writer are two Firestore instances, two clients of one
  // backend; Hearth's counterpart, two processes on one database, is
  // CrossProcessListenerTests' (HearthShellTests), so here one database reads and writes.

  // FSTSmokeTests.testObservesExistingDocument
  @Test func testObservesExistingDocument() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let ref = db.collection("test-collection").document()
      try ref.setData(chatMessage())
      let events = EventRecorder<DocumentSnapshot> { describeDocument($0) }
      let registration = ref.addSnapshotListener(events.handler)
      defer { registration.remove() }
      let doc = events.next("snapshot")
      #expect(doc.map { type(of: $0) == DocumentSnapshot.self } == true)
      expectSame(doc?.data(), chatMessage())
    }
  }

  // FSTSmokeTests.testObservesNewDocument
  @Test func testObservesNewDocument() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let ref = db.collection("test-collection").document()
      let events = EventRecorder<DocumentSnapshot> { describeDocument($0) }
      let registration = ref.addSnapshotListener(events.handler)
      defer { registration.remove() }
      #expect(events.next("null snapshot")?.exists == false)
      try ref.setData(chatMessage())
      let doc2 = events.next("full snapshot")
      #expect(doc2.map { type(of: $0) == DocumentSnapshot.self } == true)
      expectSame(doc2?.data(), chatMessage())
    }
  }

  // FSTSmokeTests.testWillFireValueEventsForEmptyCollections
  @Test func testWillFireValueEventsForEmptyCollections() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let events = EventRecorder<QuerySnapshot> { describeSnapshot($0) }
      let registration = db.collection("empty-collection").addSnapshotListener(events.handler)
      defer { registration.remove() }
      #expect(events.next("empty query snapshot")?.count == 0)
    }
  }
}

// MARK: - BasicCompileTests.swift: the code that must compile
//
// As in Firebase, these functions are compiled, never run (`makeQuery` combines filters that
// Firestore rejects): the test target does not build if Hearth drifts from Firebase's spelling.

private func basicCompileMain() throws {
  let db = basicInitializeDb()

  let (collectionRef, documentRef) = basicMakeRefs(database: db)

  let query = basicMakeQuery(collection: collectionRef)

  try basicWriteDocument(at: documentRef)

  try basicWriteDocuments(at: documentRef, database: db)

  try basicAddDocument(to: collectionRef)

  basicReadDocument(at: documentRef)
  basicReadDocumentWithSource(at: documentRef)

  basicReadDocuments(matching: query)
  basicReadDocumentsWithSource(matching: query)

  basicListenToDocument(at: documentRef)
  basicListenToDocumentWithMetadataChanges(at: documentRef)

  basicListenToDocuments(matching: query)
  basicListenToQueryDiffs(onQuery: query)
  basicListenToQueryDiffsWithMetadata(onQuery: query)

  basicTypes()
}

private func basicInitializeDb() -> Firestore {
  // Initialize with ProjectID.
  let firestore = Firestore.firestore()
  return firestore
}

private func basicMakeRefs(database db: Firestore) -> (CollectionReference, DocumentReference) {
  var collectionRef = db.collection("my-collection")

  var documentRef: DocumentReference
  documentRef = collectionRef.document("my-doc")
  // or
  documentRef = db.document("my-collection/my-doc")

  // deeper collection (my-collection/my-doc/some/deep/collection)
  collectionRef = documentRef.collection("some/deep/collection")

  // parent doc (my-collection/my-doc/some/deep)
  documentRef = collectionRef.parent!

  // print paths.
  print("Collection: \(collectionRef.path), document: \(documentRef.path)")

  return (collectionRef, documentRef)
}

private func basicMakeQuery(collection collectionRef: CollectionReference) -> Query {
  var query = collectionRef.whereField(FieldPath(["name"]), isEqualTo: "Fred")
    .whereField("age", isGreaterThanOrEqualTo: 24)
    .whereField("tags", arrayContains: "active")
    .whereField(FieldPath(["tags"]), arrayContains: "active")
    .whereField("tags", arrayContainsAny: ["active", "squat"])
    .whereField(FieldPath(["tags"]), arrayContainsAny: ["active", "squat"])
    .whereField("tags", in: ["active", "squat"])
    .whereField(FieldPath(["tags"]), in: ["active", "squat"])
    .whereField("tags", notIn: ["active", "squat"])
    .whereField(FieldPath(["tags"]), notIn: ["active", "squat"])
    .whereField(FieldPath.documentID(), isEqualTo: "fred")
    .whereField(FieldPath.documentID(), isNotEqualTo: "fred")
    .whereField(FieldPath(["name"]), isEqualTo: "fred")
    .order(by: FieldPath(["age"]))
    .order(by: "name", descending: true)
    .limit(to: 10)
    .limit(toLast: 10)

  query = collectionRef.firestore.collectionGroup("collection")

  return query
}

private func basicWriteDocument(at docRef: DocumentReference) throws {
  let setData =
    [
      "foo": 42,
      "bar": [
        "baz": "Hello world!"
      ],
    ] as [String: Any]

  let updateData =
    [
      "bar.baz": 42,
      FieldPath(["foobar"]): 42,
      "server_timestamp": FieldValue.serverTimestamp(),
      "array_union": FieldValue.arrayUnion(["a", "b"]),
      "array_remove": FieldValue.arrayRemove(["a", "b"]),
      "field_delete": FieldValue.delete(),
    ] as [AnyHashable: Any]

  try docRef.setData(setData)

  // Completion callback (via trailing closure syntax).
  docRef.setData(setData) { error in
    if let error {
      print("Uh oh! \(error)")
      return
    }

    print("Set complete!")
  }

  // merge
  try docRef.setData(setData, merge: true)
  docRef.setData(setData, merge: true) { error in
    if let error {
      print("Uh oh! \(error)")
      return
    }

    print("Set complete!")
  }

  try docRef.updateData(updateData)
  try docRef.delete()

  docRef.delete { error in
    if let error {
      print("Uh oh! \(error)")
      return
    }

    print("Set complete!")
  }
}

private func basicWriteDocuments(at docRef: DocumentReference, database db: Firestore) throws {
  var batch: WriteBatch

  batch = db.batch()
  batch.setData(["a": "b"], forDocument: docRef)
  batch.setData(["a": "b"], forDocument: docRef, merge: true)
  batch.setData(["c": "d"], forDocument: docRef)
  // commit without completion callback.
  try batch.commit()
  print("Batch write without completion complete!")

  batch = db.batch()
  batch.setData(["a": "b"], forDocument: docRef)
  batch.setData(["c": "d"], forDocument: docRef)
  // commit with completion callback via trailing closure syntax.
  batch.commit { error in
    if let error {
      print("Uh oh! \(error)")
      return
    }
    print("Batch write callback complete!")
  }
  print("Batch write with completion complete!")
}

private func basicAddDocument(to collectionRef: CollectionReference) throws {
  _ = try collectionRef.addDocument(data: ["foo": 42])
  // or
  try collectionRef.document().setData(["foo": 42])
}

private func basicReadDocument(at docRef: DocumentReference) {
  // Trailing closure syntax.
  docRef.getDocument { document, error in
    if let document {
      // Note that both document and document.data() is nullable.
      if let data = document.data() {
        print("Read document: \(data)")
      }
      if let data = document.data(with: .estimate) {
        print("Read document: \(data)")
      }
      if let foo = document.get("foo") {
        print("Field: \(foo)")
      }
      if let foo = document.get("foo", serverTimestampBehavior: .previous) {
        print("Field: \(foo)")
      }
      // Fields can also be read via subscript notation.
      if let foo = document["foo"] {
        print("Field: \(foo)")
      }
    } else if let error {
      // New way to handle errors.
      // (left out: `switch error { case FirestoreErrorCode.unavailable: ... }` does not compile:
      // Firebase's error codes match an `Error` through its Objective-C bridging, and Hearth
      // defines no `~=` between an error and a code.)

      // Old way to handle errors.
      let nsError = error as NSError
      guard nsError.domain == FirestoreErrorDomain else {
        print("Unknown error!")
        return
      }

      // Option 1: try to initialize the error code enum.
      if let errorCode = FirestoreErrorCode.Code(rawValue: nsError.code) {
        switch errorCode {
        case .unavailable:
          print("Can't read document due to being offline!")
        default:
          print("Failed to read.")
        }
      }

      // Option 2: switch on the code and compare against raw values.
      switch nsError.code {
      case FirestoreErrorCode.unavailable.rawValue:
        print("Can't read document due to being offline!")
      default:
        print("Failed to read.")
      }
    } else {
      print("No error or document. Thanks, ObjC.")
    }
  }
}

private func basicReadDocumentWithSource(at docRef: DocumentReference) {
  docRef.getDocument(source: FirestoreSource.default) { _, _ in
  }
  docRef.getDocument(source: .server) { _, _ in
  }
  docRef.getDocument(source: FirestoreSource.cache) { _, _ in
  }
}

private func basicReadDocuments(matching query: Query) {
  query.getDocuments { querySnapshot, _ in
    for document in querySnapshot!.documents {
      print(document.data())
    }
  }
}

private func basicReadDocumentsWithSource(matching query: Query) {
  query.getDocuments(source: FirestoreSource.default) { _, _ in
  }
  query.getDocuments(source: .server) { _, _ in
  }
  query.getDocuments(source: FirestoreSource.cache) { _, _ in
  }
}

// BasicCompileTests' listenToDocument, listenToDocumentWithMetadataChanges,
// listenToDocuments, listenToQueryDiffs and listenToQueryDiffsWithMetadata: a listener on a
// document and on a query, with and without metadata changes, reading what a snapshot and
// its changes hold, then removed.

private func basicListenToDocument(at docRef: DocumentReference) {
  let listener = docRef.addSnapshotListener { document, error in
    if let error {
      print("Listen canceled: \(error)")
      return
    }
    guard let document else { return }
    // `data()` is nil for a missing document.
    if let data: [String: Any] = document.data() { print("Current document: \(data)") }
    print(document.metadata.isFromCache ? "From Cache" : "From Server")
  }
  listener.remove()
}

private func basicListenToDocumentWithMetadataChanges(at docRef: DocumentReference) {
  let listener = docRef.addSnapshotListener(includeMetadataChanges: true) { document, _ in
    if document?.metadata.hasPendingWrites == true { print("Has pending writes") }
  }
  listener.remove()
}

private func basicListenToDocuments(matching query: Query) {
  let listener = query.addSnapshotListener { snap, error in
    if let error {
      print("Listen canceled: \(error)")
      return
    }
    guard let snap else { return }
    print("New snapshot (empty=\(snap.isEmpty) count=\(snap.count))")
    // A query's documents exist: their `data()` is not optional.
    for document in snap.documents {
      let data: [String: Any] = document.data()
      print("Doc: ", data)
    }
  }
  listener.remove()
}

private func basicPrint(_ changes: [DocumentChange]) {
  for change in changes {
    switch change.type {
    case .added: print("New document: \(change.document.data())")
    case .modified: print("Modified document: \(change.document.data())")
    case .removed: print("Removed document: \(change.document.data())")
    }
  }
}

private func basicListenToQueryDiffs(onQuery query: Query) {
  let listener = query.addSnapshotListener { snap, _ in
    if let snap { basicPrint(snap.documentChanges) }
  }
  listener.remove()
}

private func basicListenToQueryDiffsWithMetadata(onQuery query: Query) {
  let listener = query.addSnapshotListener(includeMetadataChanges: true) { snap, _ in
    if let snap { basicPrint(snap.documentChanges(includeMetadataChanges: true)) }
  }
  listener.remove()
}

private func basicTransactions() {
  let db = Firestore.firestore()

  let collectionRef = db.collection("cities")
  let accA = collectionRef.document("accountA")
  let accB = collectionRef.document("accountB")
  let amount = 20.0

  db.runTransaction(
    { transaction, errorPointer -> Any? in
      do {
        let balanceA = try transaction.getDocument(accA)["balance"] as! Double
        let balanceB = try transaction.getDocument(accB)["balance"] as! Double

        if balanceA < amount {
          errorPointer?.pointee = NSError(domain: "Foo", code: 123, userInfo: nil)
          return nil
        }
        transaction.updateData(["balance": balanceA - amount], forDocument: accA)
        transaction.updateData(["balance": balanceB + amount], forDocument: accB)
      } catch let error as NSError {
        print("Uh oh! \(error)")
      }
      return 0
    },
    completion: { _, _ in
      // handle result.
    })
}

private func basicTypes() {
  let _: CollectionReference
  let _: DocumentChange
  let _: DocumentReference
  let _: DocumentSnapshot
  let _: FieldPath
  let _: FieldValue
  let _: Firestore
  let _: FirestoreSettings
  let _: GeoPoint
  let _: Timestamp
  let _: ListenerRegistration
  let _: Query
  let _: QuerySnapshot
  let _: SnapshotMetadata
  let _: Transaction
  let _: WriteBatch
}

private func basicTestAsyncAwait(database db: Firestore) async throws {
  _ = try await db.runTransaction { _, _ in
    0
  }

  let batch = db.batch()
  try await batch.commit()

  let collection = db.collection("coll")
  try await collection.getDocuments()
  try await collection.getDocuments(source: FirestoreSource.default)

  let document = try await collection.addDocument(data: [:])

  try await document.setData([:])
  try await document.setData([:], merge: true)
  try await document.setData([:], mergeFields: [])
  try await document.updateData([:])
  try await document.delete()
  try await document.getDocument()
  try await document.getDocument(source: FirestoreSource.default)
}

private actor BasicRegression12666 {
  func getUser() async throws {
    _ = try await Firestore.firestore().collection("users").getDocuments()
  }
}
