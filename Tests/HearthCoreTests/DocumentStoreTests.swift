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

  @Test func eachWriteReportsItsUpdateTimeAndTransformResults() throws {
    try withStore { store in
      let a = try DocumentKey(parsing: "c/a")
      let b = try DocumentKey(parsing: "c/b")
      try store.commit([Write(key: a, kind: .set(["n": .integer(1)]))])
      let result = try store.commit([
        Write(
          key: a, kind: .patch(fields: [:], mask: []),
          transforms: [
            FieldTransform(path: FieldPath(["n"]), operation: .increment(.integer(2))),
            FieldTransform(path: FieldPath(["t"]), operation: .serverTimestamp),
          ]),
        Write(key: b, kind: .delete),
      ])
      #expect(result.writeResults.count == 2)
      #expect(result.writeResults[0].updateTime == result.commitTime)
      #expect(
        result.writeResults[0].transformResults.map { $0.isIdentical(to: .integer(3)) } == [true, false])
      #expect(result.writeResults[0].transformResults.last == .timestamp(result.commitTime.truncatedToMilliseconds))
      #expect(result.writeResults[1].updateTime == nil)
      #expect(result.writeResults[1].transformResults.isEmpty)
    }
  }

  @Test func aWriteThatChangesNothingKeepsTheUpdateTime() throws {
    try withStore { store in
      let key = try DocumentKey(parsing: "c/a")
      let first = try store.commit([Write(key: key, kind: .set(["n": .integer(1), "d": .double(-0.0)]))])
      // The same data again, by set, by patch and by an increment of zero: Firestore
      // keeps the version, so a client's update-time precondition still holds.
      for write in [
        Write(key: key, kind: .set(["n": .integer(1), "d": .double(-0.0)])),
        Write(key: key, kind: .patch(fields: ["n": .integer(1)], mask: [FieldPath(["n"])])),
        Write(
          key: key, kind: .patch(fields: [:], mask: []),
          transforms: [FieldTransform(path: FieldPath(["n"]), operation: .increment(.integer(0)))]),
      ] {
        let result = try store.commit([write])
        #expect(result.writeResults.first?.updateTime == first.commitTime)
        #expect(try store.read { try $0.document(key)?.updateTime } == first.commitTime)
      }
      // 0.0 is not -0.0, nor 1.0 the integer 1: those are changes.
      let changed = try store.commit([Write(key: key, kind: .set(["n": .double(1), "d": .double(-0.0)]))])
      #expect(changed.writeResults.first?.updateTime == changed.commitTime)
      #expect(try store.read { try $0.document(key)?.updateTime } == changed.commitTime)
      #expect(try store.read { try $0.document(key)?.createTime } == first.commitTime)
    }
  }

  @Test func anUpdateTimePreconditionWritesOnlyOverThatVersion() throws {
    try withStore { store in
      let key = try DocumentKey(parsing: "c/a")
      let missing = try DocumentKey(parsing: "c/missing")
      let first = try store.commit([Write(key: key, kind: .set(["n": .integer(1)]))])
      let stale = Timestamp(microseconds: first.commitTime.microseconds - 1)
      let later = Timestamp(microseconds: first.commitTime.microseconds + 1)
      let invalid = try #require(throws: HearthError.self) {
        try store.commit([Write(key: key, kind: .delete, precondition: .updateTime(later))])
      }
      #expect(invalid.code == .invalidArgument, "no version of the document has a later time")
      for (target, time) in [(key, stale), (missing, first.commitTime)] {
        for kind in [Write.Kind.set(["n": .integer(2)]), .delete] {
          let error = try #require(throws: HearthError.self) {
            try store.commit([Write(key: target, kind: kind, precondition: .updateTime(time))])
          }
          #expect(error.code == .failedPrecondition)
          #expect(error.message.contains(target.description))
        }
      }
      #expect(try store.read { try $0.document(key)?.fields } == ["n": .integer(1)])
      #expect(try store.read { try $0.document(missing) } == nil)
      let second = try store.commit([
        Write(key: key, kind: .set(["n": .integer(2)]), precondition: .updateTime(first.commitTime))
      ])
      #expect(try store.read { try $0.document(key)?.updateTime } == second.commitTime)
    }
  }

  @Test func aVectorIsTheOneMapWithAReservedFieldName() throws {
    try withStore { store in
      let key = try DocumentKey(parsing: "c/v")
      let vector = Value.map(["__type__": .string("__vector__"), "value": .array([.double(1), .double(2.5)])])
      try store.commit([Write(key: key, kind: .set(["embedding": vector]))])
      #expect(try store.read { try $0.document(key)?.fields["embedding"] } == vector)
      for notVector in [
        Value.map(["__type__": .string("__other__"), "value": .array([.double(1)])]),
        .map(["__type__": .string("__vector__"), "value": .array([.string("x")])]),
        .map(["__type__": .string("__vector__")]),
      ] {
        let error = try #require(throws: HearthError.self) {
          try store.commit([Write(key: key, kind: .set(["embedding": notVector]))])
        }
        #expect(error.message.contains("cannot begin and end with"))
      }
    }
  }
}
