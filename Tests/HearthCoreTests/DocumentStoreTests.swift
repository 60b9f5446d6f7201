import Foundation
import HearthStorage
import Testing

@testable import HearthCore

@Suite struct DocumentStoreTests {
  /// Damaged bytes on disk are reported with the document's path and never returned.
  @Test func aDamagedStoredDocumentIsReportedNotReturned() throws {
    try withStore { store in
      let key = try DocumentKey(parsing: "users/alice")
      try store.commit([Write(key: key, kind: .set(["name": .string("Alice"), "age": .integer(30)]))])
      let number = try #require(try store.read { try store.registry.number(of: key.collectionPath, in: $0.txn) })
      let storageKey = KeyLayout.documentKey(number, key.documentID)
      try store.environment.write { txn in
        var bytes = Array(try #require(try txn.get(storageKey, in: store.tables.documents)))
        bytes[bytes.count - 2] ^= 0x01
        try txn.put(storageKey, bytes, in: store.tables.documents)
      }
      for read in [
        { _ = try store.read { try $0.document(key) } }, { _ = try store.read { try $0.encodedDocument(key) } },
      ] {
        let error = try #require(throws: HearthError.self) { try read() }
        #expect(error.code == .dataLoss)
        #expect(error.message.contains("users/alice"))
      }
      // A write that needs the old fields refuses too, and changes nothing.
      let patch = Write(key: key, kind: .patch(fields: ["age": .integer(31)], mask: [FieldPath(["age"])]))
      #expect(throws: HearthError.self) { try store.commit([patch]) }
    }
  }

  @Test func commitTimesIncreaseAndAreEveryWrittenDocumentsUpdateTime() throws {
    try withStore { store in
      var last = Timestamp(seconds: 0, nanoseconds: 0)
      for index in 0..<50 {
        let key = try DocumentKey(parsing: "c/d\(index % 3)")
        let result = try store.commit([Write(key: key, kind: .set(["i": .integer(Int64(index))]))])
        #expect(result.commitTime > last)
        last = result.commitTime
        #expect(try store.read { try $0.document(key)?.updateTime } == result.commitTime)
      }
    }
  }
}
