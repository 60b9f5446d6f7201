import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firebase's Swift VectorIntegrationTests.swift (Firestore/Swift/Tests/Integration),
// ported case by case with their data and expected results unchanged; the offline half
// of testSdkOrdersVectorFieldSameWayOnlineAndOffline has no counterpart, so its queries
// run once.

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
      var ids: [String] = []
      for data in Self.docsInOrder { ids.append(try collection.addDocument(data: data).documentID) }
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

  // testSdkOrdersVectorFieldSameWayOnlineAndOffline
  @Test func testSdkOrdersVectorFieldSameWayOnlineAndOffline() throws {
    try withDatabase(settings: relaxed) { db in
      let collection = db.collection("c")
      var ids: [String] = []
      for data in Self.docsInOrder { ids.append(try collection.addDocument(data: data).documentID) }
      expectIDs(collection.order(by: "embedding"), ids)
      expectIDs(
        collection.order(by: "embedding").whereField("embedding", isLessThan: FieldValue.vector([1, 2, 100, 4, 4.0])),
        Array(ids[2...10]))
      expectIDs(
        collection.order(by: "embedding").whereField(
          "embedding", isGreaterThan: FieldValue.vector([1, 2, 100, 4, 4.0])),
        Array(ids[12...12]))
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
      #expect(try querySnap.documents[0].data(as: Model.self).embedding == VectorValue([0.1, 0.3, 0.4]))
    }
  }
}
