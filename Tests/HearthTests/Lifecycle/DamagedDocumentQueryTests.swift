import Foundation
import Hearth
import HearthTestSupport
import Testing

/// A query that meets a damaged document fails with `dataLoss` naming it, whether it
/// decodes fields of the documents it reads or only copies them out (whose checksums are
/// checked as they are copied, `QueryExecution.checksOnCopy`); one that reads only sound
/// documents answers.
@Suite struct DamagedDocumentQueryTests {
  @Test func aQueryReturningADamagedDocumentIsDataLossNamingIt() throws {
    try withScratchDirectory { directory in
      let path = directory + "/db"
      // users/a and users/c damaged; users/b sound.
      try DamagedDocuments.write(at: path)
      try withDatabase(at: path) { db in
        let users = db.collection("users")
        expectHearthError(.dataLoss, mentioning: ["users/a", "checksum"]) { _ = try users.getDocuments() }
        let byName = users.order(by: FieldPath.documentID())
        expectHearthError(.dataLoss, mentioning: ["users/c", "checksum"]) {
          _ = try byName.limit(toLast: 1).getDocuments()
        }
        expectHearthError(.dataLoss, mentioning: ["users/c", "checksum"]) {
          _ = try byName.start(after: ["b"]).getDocuments()
        }
        // Fields decoded (a filter the `__name__` range does not prove): checked before.
        expectHearthError(.dataLoss, mentioning: ["users/a", "checksum"]) {
          _ = try users.whereField("s", isNotEqualTo: "other").getDocuments()
        }
        // Only the sound document read: no error.
        let sound = try byName.start(at: ["b"]).end(at: ["b"]).getDocuments()
        #expect(sound.documents.map(\.documentID) == ["b"])
        #expect(sound.documents.first?.data()["s"] as? String == "fine")
      }
    }
  }
}
