import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Firebase's read options compile and read the committed data.
@Suite struct FirebaseCompatibilityTests {
  struct Note: Codable {
    @DocumentID var id: String?
    var text: String
    @ServerTimestamp var savedAt: Timestamp?
  }

  @Test func sourcesAndServerTimestampBehavioursReadTheCommittedData() async throws {
    try await withDatabase { db in
      let ref = db.collection("notes").document("n1")
      try await ref.setData(["text": "hi", "savedAt": FieldValue.serverTimestamp()])
      let snapshot = try await ref.getDocument(source: .server)
      let stamp = try #require(snapshot.updateTime?.truncatedToMilliseconds)
      #expect(snapshot.data(with: .estimate)?["savedAt"] as? Timestamp == stamp)
      #expect(snapshot.get("savedAt", serverTimestampBehavior: .previous) as? Timestamp == stamp)
      #expect(try snapshot.data(as: Note.self, with: .none).savedAt == stamp)
      #expect(try await ref.getDocument(source: .cache).exists)
      let documents = try await db.collection("notes").getDocuments(source: .default).documents
      #expect(documents.map { $0.data(with: .estimate)["text"] as? String } == ["hi"])
      #expect(try await db.collection("notes").getDocuments(source: .server).count == 1)
    }
  }

  /// Firebase code checks errors as `NSError`s against its domain and code constants.
  @Test func errorsCheckAsFirebaseChecksThem() throws {
    try withDatabase { db in
      do {
        try db.document("notes/missing").updateData(["text": "x"])
        Issue.record("an update of a missing document succeeded")
      } catch {
        let error = error as NSError
        #expect(error.domain == FirestoreErrorDomain)
        #expect(error.code == FirestoreErrorCode.notFound.rawValue)
        #expect(FirestoreErrorCode.Code(rawValue: error.code) == .notFound)
      }
      do {
        try db.document("notes/a").create(["text": "x"])
        try db.document("notes/a").create(["text": "y"])
        Issue.record("a second create succeeded")
      } catch let error as FirestoreErrorCode {
        #expect(error.code == FirestoreErrorCode.alreadyExists)
      }
    }
  }
}
