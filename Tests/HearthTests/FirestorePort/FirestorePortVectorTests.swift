import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firebase's Swift VectorIntegrationTests.swift (Firestore/Swift/Tests/Integration),
// ported case by case with their data and expected results unchanged; the offline half of
// the "…OnlineAndOffline" cases has no counterpart, so their queries run once.

@Suite("Firestore port: vector values")
struct FirestorePortVectorTests {
  /// The documents of the ordering cases, in the order Firestore sorts their `embedding`.
  static var docsInOrder: [[String: Any]] {
    [
      ["embedding": [1, 2, 3, 4, 5, 6]],
      ["embedding": [100]],
      ["embedding": FieldValue.vector([Double.infinity * -1])],
      ["embedding": FieldValue.vector([-100.0])],
      ["embedding": FieldValue.vector([100.0])],
      ["embedding": FieldValue.vector([Double.infinity])],
      ["embedding": FieldValue.vector([1, 2.0])],
      ["embedding": FieldValue.vector([2, 2.0])],
      ["embedding": FieldValue.vector([1, 2, 3.0])],
      ["embedding": FieldValue.vector([1, 2, 3, 4.0])],
      ["embedding": FieldValue.vector([1, 2, 3, 4, 5.0])],
      ["embedding": FieldValue.vector([1, 2, 100, 4, 4.0])],
      ["embedding": FieldValue.vector([100, 2, 3, 4, 5.0])],
      ["embedding": ["HELLO": "WORLD"]],
      ["embedding": ["hello": "world"]],
    ]
  }

  // testWriteAndReadVectorEmbeddings
  @Test func testWriteAndReadVectorEmbeddings() throws {
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      let ref = try collection.addDocument(data: [
        "vector0": FieldValue.vector([0.0]),
        "vector1": FieldValue.vector([1, 2, 3.99]),
      ])
      try ref.setData([
        "vector0": FieldValue.vector([0.0]),
        "vector1": FieldValue.vector([1, 2, 3.99]),
        "vector2": FieldValue.vector([0, 0, 0] as [Double]),
      ])
      try ref.updateData(["vector3": FieldValue.vector([-1, -200, -999] as [Double])])
      let snapshot = try ref.getDocument()
      #expect(snapshot.get("vector0") as? VectorValue == FieldValue.vector([0.0]))
      #expect(snapshot.get("vector1") as? VectorValue == FieldValue.vector([1, 2, 3.99]))
      #expect(snapshot.get("vector2") as? VectorValue == FieldValue.vector([0, 0, 0] as [Double]))
      #expect(snapshot.get("vector3") as? VectorValue == FieldValue.vector([-1, -200, -999] as [Double]))
    }
  }

  // testSdkOrdersVectorFieldSameWayAsBackend
  @Test func testSdkOrdersVectorFieldSameWayAsBackend() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collection = db.collection("c")
      let ids = try addInOrder(collection)
      let orderedQuery = collection.order(by: "embedding")
      let watched = Box<[String]?>(nil)
      let registration = orderedQuery.addSnapshotListener { snapshot, _ in
        if let snapshot { watched.mutate { $0 = snapshot.documents.map(\.documentID) } }
      }
      defer { registration.remove() }
      #expect(waitUntil { watched.value != nil })
      let got = try orderedQuery.getDocuments().documents.map(\.documentID)
      #expect(watched.value == got)
      #expect(got == ids)
    }
  }

  /// The ordering cases' documents, added in order; their IDs.
  private func addInOrder(_ collection: CollectionReference) throws -> [String] {
    try Self.docsInOrder.map { try collection.addDocument(data: $0).documentID }
  }

  // testSdkOrdersVectorFieldSameWayOnlineAndOffline
  @Test func testSdkOrdersVectorFieldSameWayOnlineAndOffline() throws {
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      let ids = try addInOrder(collection)
      expectIDs(collection.order(by: "embedding"), ids)
    }
  }

  // testSdkFiltersVectorFieldSameWayOnlineAndOffline
  @Test func testSdkFiltersVectorFieldSameWayOnlineAndOffline() throws {
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      let ids = try addInOrder(collection)
      expectIDs(
        collection.order(by: "embedding").whereField("embedding", isLessThan: FieldValue.vector([1, 2, 100, 4, 4.0])),
        Array(ids[2...10]))
      expectIDs(
        collection.order(by: "embedding")
          .whereField("embedding", isGreaterThanOrEqualTo: FieldValue.vector([1, 2, 100, 4, 4.0])),
        Array(ids[11...12]))
    }
  }

  // testQueryVectorValueWrittenByCodable
  @Test func testQueryVectorValueWrittenByCodable() throws {
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      struct Model: Codable {
        var name: String
        var embedding: VectorValue
      }
      let model = Model(name: "name", embedding: FieldValue.vector([0.1, 0.3, 0.4]))
      try collection.document().setData(from: model)
      let querySnap = try collection.whereField("embedding", isEqualTo: FieldValue.vector([0.1, 0.3, 0.4]))
        .getDocuments()
      #expect(querySnap.count == 1)
      let returnedModel = try querySnap.documents[0].data(as: Model.self)
      #expect(returnedModel.embedding == VectorValue([0.1, 0.3, 0.4]))
      #expect(returnedModel.embedding.array == [0.1, 0.3, 0.4])
    }
  }

  // testQueryVectorValueWrittenByCodableClass
  @Test func testQueryVectorValueWrittenByCodableClass() throws {
    struct Model: Codable {
      var name: String
      var embedding: VectorValue
    }
    struct ModelWithDistance: Codable {
      var name: String
      var embedding: VectorValue
      var distance: Double
    }
    struct WithDistance<T: Decodable>: Decodable {
      var distance: Double
      var data: T

      private enum CodingKeys: String, CodingKey {
        case distance
      }

      init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        distance = try container.decode(Double.self, forKey: .distance)
        data = try T(from: decoder)
      }
    }
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      let model = ModelWithDistance(name: "name", embedding: FieldValue.vector([0.1, 0.3, 0.4]), distance: 0.2)
      try collection.document().setData(from: model)
      let querySnap = try collection.getDocuments()
      #expect(querySnap.count == 1)
      let returnedModel = try querySnap.documents[0].data(as: WithDistance<Model>.self)
      #expect(returnedModel.data.embedding == VectorValue([0.1, 0.3, 0.4]))
      #expect(returnedModel.distance == 0.2)
      #expect(returnedModel.data.embedding.array == [0.1, 0.3, 0.4])
    }
  }

  // SnapshotListenerSourceTests.testListenToDocumentsWithVectors (its listener uses the
  // default source)
  @Test func testListenToDocumentsWithVectors() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let collection = db.collection("c")
      let doc = collection.document()
      let events = EventRecorder<QuerySnapshot> { describeSnapshot($0) }
      let registration = collection.whereField("purpose", isEqualTo: "vector tests")
        .addSnapshotListener(events.handler)
      defer { registration.remove() }
      func vector(_ snapshot: QuerySnapshot?, _ field: String) -> VectorValue? {
        snapshot?.documents.first?.data()[field] as? VectorValue
      }

      #expect(events.next()?.isEmpty == true)

      try doc.setData([
        "purpose": "vector tests",
        "vector0": FieldValue.vector([0.0]),
        "vector1": FieldValue.vector([1, 2, 3.99]),
      ])
      var querySnap = events.next()
      #expect(querySnap?.isEmpty == false)
      #expect(vector(querySnap, "vector0") == FieldValue.vector([0.0]))
      #expect(vector(querySnap, "vector1") == FieldValue.vector([1, 2, 3.99]))

      try doc.setData([
        "purpose": "vector tests",
        "vector0": FieldValue.vector([0.0]),
        "vector1": FieldValue.vector([1, 2, 3.99]),
        "vector2": FieldValue.vector([0.0, 0, 0]),
      ])
      querySnap = events.next()
      #expect(vector(querySnap, "vector0") == FieldValue.vector([0.0]))
      #expect(vector(querySnap, "vector1") == FieldValue.vector([1, 2, 3.99]))
      #expect(vector(querySnap, "vector2") == FieldValue.vector([0.0, 0, 0]))

      try doc.updateData(["vector3": FieldValue.vector([-1, -200, -999.0])])
      querySnap = events.next()
      #expect(vector(querySnap, "vector0") == FieldValue.vector([0.0]))
      #expect(vector(querySnap, "vector1") == FieldValue.vector([1, 2, 3.99]))
      #expect(vector(querySnap, "vector2") == FieldValue.vector([0.0, 0, 0]))
      #expect(vector(querySnap, "vector3") == FieldValue.vector([-1, -200, -999.0]))

      try doc.delete()
      #expect(events.next()?.isEmpty == true)
      events.expectNoMore()
    }
  }
}
