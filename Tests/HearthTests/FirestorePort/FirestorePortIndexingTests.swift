import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's index-configuration tests, FIRIndexingTests.mm (Firestore/Example/Tests/
// Integration/API), ported with their JSON unchanged: Firebase's
// `setIndexConfiguration(fromJSON:)`, which configures the local cache's indexes, is
// Hearth's `declareIndexes(json:)`, which declares the database's own. The persistent
// cache index manager's cases (auto index creation) have no counterpart.

@Suite("Firestore port: FIRIndexingTests")
struct FirestorePortIndexingTests {
  // FIRIndexingTests.testCanConfigureIndexes
  @Test func testCanConfigureIndexes() throws {
    try withDatabase { db in
      let json =
        "{\n\t\"indexes\": [{\n\t\t\t\"collectionGroup\": \"restaurants\",\n\t\t\t\"queryScope\": \"COLLECTION\",\n"
        + "\t\t\t\"fields\": [{\n\t\t\t\t\t\"fieldPath\": \"price\",\n\t\t\t\t\t\"order\": \"ASCENDING\"\n\t\t\t\t},\n"
        + "\t\t\t\t{\n\t\t\t\t\t\"fieldPath\": \"avgRating\",\n\t\t\t\t\t\"order\": \"DESCENDING\"\n\t\t\t\t}\n"
        + "\t\t\t]\n\t\t},\n\t\t{\n\t\t\t\"collectionGroup\": \"restaurants\",\n\t\t\t\"queryScope\": \"COLLECTION\",\n"
        + "\t\t\t\"fields\": [{\n\t\t\t\t\"fieldPath\": \"price\",\n\t\t\t\t\"order\": \"ASCENDING\"\n\t\t\t}]\n\t\t}\n"
        + "\t],\n\t\"fieldOverrides\": []\n}"
      try db.declareIndexes(json: json)
    }
  }

  // FIRIndexingTests.testBadJsonDoesNotCrashClient
  @Test func testBadJsonDoesNotCrashClient() throws {
    try withDatabase { db in
      expectHearthError(.invalidArgument) { try db.declareIndexes(json: "{,") }
    }
  }

  // FIRIndexingTests.testBadIndexDoesNotCrashClient
  @Test func testBadIndexDoesNotCrashClient() throws {
    try withDatabase { db in
      let json =
        "{\n\t\"indexes\": [{\n\t\t\"collectionGroup\": \"restaurants\",\n\t\t\"queryScope\": \"COLLECTION\",\n"
        + "\t\t\"fields\": [{\n\t\t\t\"fieldPath\": \"price\",\n\t\t\t\"order\": \"ASCENDING\",\n\t\t]}\n\t}],\n"
        + "\t\"fieldOverrides\": []\n}"
      expectHearthError(.invalidArgument) { try db.declareIndexes(json: json) }
    }
  }
}
