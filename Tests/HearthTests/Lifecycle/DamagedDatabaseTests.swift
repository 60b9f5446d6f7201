import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Opening a database whose `data.mdb` is truncated or empty refuses it with `dataLoss`
/// (it used to crash the process with SIGBUS, or to make a new, empty database), and
/// `Database.check(path:)` reports what is lost.
@Suite struct DamagedDatabaseTests {
  /// A database of 200 documents in `directory`/db, closed; returns its path.
  func writeDatabase(in directory: String) throws -> String {
    let path = directory + "/db"
    try withDatabase(at: path) { db in
      let batch = db.batch()
      for number in 0..<200 {
        batch.setData(
          ["n": number, "text": String(repeating: "t", count: 200)], forDocument: db.document("items/i\(number)"))
      }
      try batch.commit()
    }
    return path
  }

  func expectDataLoss(
    _ path: String, readOnly: Bool, mentioning fragment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let settings = Settings()
    settings.readOnly = readOnly
    #expect(sourceLocation: sourceLocation) {
      try Database(path: path, settings: settings)
    } throws: { error in
      guard let error = error as? HearthError, error.code == .dataLoss else { return false }
      return error.message.contains(fragment)
        && error.message.contains("restore a backup (hearth restore BACKUP, or Database.restore(from:to:))")
    }
  }

  @Test func aTruncatedFileIsRefusedWithDataLossAndChecked() throws {
    try withScratchDirectory { directory in
      let path = try writeDatabase(in: directory)
      let size = try #require(try FileManager.default.attributesOfItem(atPath: path + "/data.mdb")[.size] as? Int)
      try #require(truncate(path + "/data.mdb", off_t(size / 2)) == 0)
      for readOnly in [false, true] {
        expectDataLoss(path, readOnly: readOnly, mentioning: "data.mdb is \(size / 2) bytes")
      }
      let report = try Database.check(path: path)
      #expect(!report.ok)
      #expect(report.problems.first?.hasSuffix("(\(size) bytes): the file was cut short") == true, "\(report)")
      #expect(report.problems.contains { $0.contains("past the end of data.mdb") })
    }
  }

  @Test func anEmptyDataFileIsRefusedAndNotReplacedByANewDatabase() throws {
    try withScratchDirectory { directory in
      let path = try writeDatabase(in: directory)
      try #require(truncate(path + "/data.mdb", 0) == 0)
      for readOnly in [false, true] {
        expectDataLoss(path, readOnly: readOnly, mentioning: "data.mdb is empty (0 bytes)")
      }
      let size = try FileManager.default.attributesOfItem(atPath: path + "/data.mdb")[.size] as? Int
      #expect(size == 0, "the empty file is left for the user to restore")
      let report = try Database.check(path: path)
      #expect(report.problems.first?.contains("data.mdb is empty (0 bytes)") == true, "\(report)")
    }
  }

  @Test func checkingAMissingDatabaseSaysNotFound() throws {
    try withScratchDirectory { directory in
      #expect {
        try Database.check(path: directory + "/nothing")
      } throws: { ($0 as? HearthError)?.code == .notFound }
      #expect(!FileManager.default.fileExists(atPath: directory + "/nothing"))
    }
  }

  @Test func checkingAnIntactDatabaseByPathChecksItsDocuments() throws {
    try withScratchDirectory { directory in
      let path = try writeDatabase(in: directory)
      let report = try Database.check(path: path)
      #expect(report.ok, "\(report.problems)")
      #expect(report.documents == 200)
    }
  }
}
