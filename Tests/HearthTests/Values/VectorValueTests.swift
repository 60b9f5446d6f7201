import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Vector values' rules and their place among the write operations, as Google's emulator
/// applies them (found by the differential run against it).
@Suite struct VectorValueTests {
  /// A write's vectors must not stand directly in an array, be empty or hold NaN; in a
  /// map inside an array they may. Nothing of a refused write (or batch) is written.
  @Test func aWriteRefusesVectorsTheBackendRefuses() throws {
    try withDatabase { db in
      let doc = db.document("c/d")
      expectHearthError(.invalidArgument, mentioning: ["c/d", "field v", "inside an array"]) {
        try doc.setData(["v": [FieldValue.vector([1.0])]])
      }
      expectHearthError(.invalidArgument, mentioning: ["field m.v", "at least one element"]) {
        try doc.setData(["m": ["v": FieldValue.vector([])]])
      }
      expectHearthError(.invalidArgument, mentioning: ["NaN"]) { try doc.setData(["v": FieldValue.vector([.nan])]) }
      #expect(try !doc.getDocument().exists)
      try doc.setData(["v": [["x": FieldValue.vector([1.0])]], "w": FieldValue.vector([.infinity, -0.0])])
      #expect(
        ((try doc.getDocument().get("v") as? [Any])?.first as? [String: Any])?["x"] as? VectorValue
          == VectorValue([1.0]))

      // The data of every write of a batch is checked before any precondition.
      let batch = db.batch()
      batch.updateData(["n": 1], forDocument: db.document("c/missing"))
      batch.setData(["v": [FieldValue.vector([2.0])]], forDocument: db.document("c/e"))
      expectHearthError(.invalidArgument, mentioning: ["c/e"]) { try batch.commit() }
      #expect(try !db.document("c/e").getDocument().exists)
    }
  }

  /// An arrayUnion may put a vector in an array (the rules are the data's), and the
  /// document stays writable.
  @Test func transformsMayPutAVectorInAnArray() throws {
    try withDatabase { db in
      let doc = db.document("c/d")
      try doc.setData(["tags": ["a"]])
      try doc.updateData(["tags": FieldValue.arrayUnion([FieldValue.vector([1.0])])])
      try doc.updateData(["n": 1])
      let tags = try doc.getDocument().get("tags") as? [Any]
      #expect(tags?.count == 2 && tags?.last as? VectorValue == VectorValue([1.0]))
    }
  }

  /// A vector is a value of its own, not a map: a field path through it replaces it with
  /// a map, and deleting a path through it leaves it.
  @Test func aPathThroughAVectorReplacesIt() throws {
    try withDatabase { db in
      let doc = db.document("c/d")
      try doc.setData(["m": FieldValue.vector([0.0, -0.0])])
      try doc.updateData(["m.value": FieldValue.delete()])
      #expect(try doc.getDocument().get("m") as? VectorValue == VectorValue([0.0, -0.0]))
      try doc.updateData(["m.y": Double.infinity])
      expectSame(try doc.getDocument().data(), ["m": ["y": Double.infinity]])
    }
  }
}
