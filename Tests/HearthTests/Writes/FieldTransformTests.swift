import Foundation
import Hearth
import HearthTestSupport
import Testing

/// FieldValue transforms: serverTimestamp, increment, arrayUnion, arrayRemove, minimum,
/// maximum — docs/semantics.md "Writes" (transforms), Firestore's transform_operation.cc.
@Suite struct FieldTransformTests {
  /// Writes `initial` (when given), applies `update` with updateData, returns the field.
  private func updated(_ initial: Any?, _ transform: FieldValue, in db: Database) throws -> Any? {
    let doc = db.collection("t").document()
    var data: [String: Any] = ["other": "kept"]
    if let initial { data["f"] = initial }
    try doc.setData(data)
    try doc.updateData(["f": transform])
    let snapshot = try doc.getDocument()
    expectSame(snapshot.get("other"), "kept")
    return snapshot.get("f")
  }

  // MARK: - serverTimestamp

  /// Firestore's REQUEST_TIME has millisecond precision (google/firestore/v1/write.proto),
  /// as Google's emulator gives it: the commit time, cut to the millisecond.
  @Test func serverTimestampIsTheCommitTimeToTheMillisecondForEveryFieldOfTheCommit() throws {
    try withDatabase { db in
      let before = Timestamp()
      let doc = db.document("t/stamps")
      try doc.setData([
        "a": FieldValue.serverTimestamp(),
        "nested": ["b": FieldValue.serverTimestamp(), "plain": 1] as [String: Any],
        "c": FieldValue.serverTimestamp(),
      ])
      let after = Timestamp()
      let snapshot = try doc.getDocument()
      let a = try #require(snapshot.get("a") as? Timestamp)
      #expect(snapshot.get("nested.b") as? Timestamp == a)
      #expect(snapshot.get("c") as? Timestamp == a)
      #expect(snapshot.updateTime?.truncatedToMilliseconds == a)
      #expect(snapshot.createTime?.truncatedToMilliseconds == a)
      #expect(snapshot.updateTime.map { $0 >= a } == true)
      expectSame(snapshot.get("nested.plain"), 1)
      #expect(a.seconds >= before.seconds - 1 && a.seconds <= after.seconds + 1, "the commit time is now")
      #expect(a.nanoseconds % 1_000_000 == 0)
    }
  }

  @Test func serverTimestampIsTheSameAcrossTheDocumentsOfOneBatch() throws {
    try withDatabase { db in
      let existing = db.document("t/existing")
      try existing.setData(["x": 1])
      let batch = db.batch()
      batch.setData(["at": FieldValue.serverTimestamp()], forDocument: db.document("t/one"))
      batch.setData(["at": FieldValue.serverTimestamp()], forDocument: db.document("u/two"), merge: true)
      batch.updateData(["at": FieldValue.serverTimestamp()], forDocument: existing)
      try batch.commit()
      let snapshots = try ["t/one", "u/two", "t/existing"].map { try db.document($0).getDocument() }
      let stamps = snapshots.map { $0.get("at") as? Timestamp }
      #expect(stamps[0] != nil)
      #expect(Set(stamps).count == 1, "one commit, one time: \(stamps)")
      for snapshot in snapshots { #expect(snapshot.updateTime?.truncatedToMilliseconds == stamps[0]) }
    }
  }

  /// Two commits within one millisecond have the same server timestamp, as in Firestore.
  @Test func serverTimestampNeverGoesBackBetweenCommits() throws {
    try withDatabase { db in
      let doc = db.document("t/advance")
      try doc.setData(["at": FieldValue.serverTimestamp()])
      let first = try #require(try doc.getDocument().get("at") as? Timestamp)
      try doc.updateData(["at": FieldValue.serverTimestamp()])
      let snapshot = try doc.getDocument()
      let second = try #require(snapshot.get("at") as? Timestamp)
      #expect(second >= first)
      #expect(second == snapshot.updateTime?.truncatedToMilliseconds)
    }
  }

  @Test func serverTimestampInMergeUpdateAndTransaction() throws {
    try withDatabase { db in
      let doc = db.document("t/forms")
      try doc.setData(["updated": false])
      try doc.setData(
        ["time": FieldValue.serverTimestamp(), "nested": ["time": FieldValue.serverTimestamp()] as [String: Any]],
        merge: true)
      var snapshot = try doc.getDocument()
      expectSame(snapshot.get("updated"), false)
      #expect(snapshot.get("time") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)
      #expect(snapshot.get("nested.time") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)

      try doc.updateData(["nested.other": FieldValue.serverTimestamp()])
      snapshot = try doc.getDocument()
      #expect(snapshot.get("nested.other") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)
      let earlier = try #require(snapshot.get("nested.time") as? Timestamp)
      let latest = try #require(snapshot.updateTime)
      #expect(earlier < latest)

      try db.runTransaction { transaction in
        _ = try transaction.getDocument(doc)
        transaction.updateData(["txTime": FieldValue.serverTimestamp()], forDocument: doc)
      }
      snapshot = try doc.getDocument()
      #expect(snapshot.get("txTime") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)
    }
  }

  // MARK: - increment

  @Test func incrementIntegerByIntegerStaysInteger() throws {
    try withDatabase { db in
      expectSame(try updated(1, FieldValue.increment(Int64(2)), in: db), 3)
      expectSame(try updated(1, FieldValue.increment(2), in: db), 3)
      expectSame(try updated(-5, FieldValue.increment(-10), in: db), -15)
      expectSame(try updated(Int64(1) << 53, FieldValue.increment(1), in: db), (Int64(1) << 53) + 1)
    }
  }

  @Test func incrementSaturatesAtInt64Bounds() throws {
    try withDatabase { db in
      expectSame(try updated(Int64.max - 1, FieldValue.increment(5), in: db), Int64.max)
      expectSame(try updated(Int64.max, FieldValue.increment(Int64.max), in: db), Int64.max)
      expectSame(try updated(Int64.min + 1, FieldValue.increment(-5), in: db), Int64.min)
      expectSame(try updated(Int64.min, FieldValue.increment(Int64.min), in: db), Int64.min)
      expectSame(try updated(Int64.max, FieldValue.increment(-1), in: db), Int64.max - 1)
    }
  }

  @Test func incrementWithADoubleMakesADouble() throws {
    try withDatabase { db in
      expectSame(try updated(1, FieldValue.increment(0.5), in: db), 1.5)
      expectSame(try updated(1.5, FieldValue.increment(1), in: db), 2.5)
      expectSame(try updated(1.5, FieldValue.increment(Int64(1)), in: db), 2.5)
      expectSame(try updated(0.5, FieldValue.increment(0.25), in: db), 0.75)
      expectSame(try updated(2, FieldValue.increment(1.0), in: db), 3.0, "int + 1.0 is the double 3.0")
      let nan = try updated(1, FieldValue.increment(Double.nan), in: db)
      #expect((nan as? Double)?.isNaN == true)
    }
  }

  @Test func incrementOfAMissingOrNonNumericFieldIsTheOperand() throws {
    try withDatabase { db in
      expectSame(try updated(nil, FieldValue.increment(7), in: db), 7)
      expectSame(try updated(nil, FieldValue.increment(7.5), in: db), 7.5)
      expectSame(try updated("text", FieldValue.increment(3), in: db), 3)
      expectSame(try updated(true, FieldValue.increment(3), in: db), 3)
      expectSame(try updated(NSNull(), FieldValue.increment(1.5), in: db), 1.5)
      expectSame(try updated(["a": 1] as [String: Any], FieldValue.increment(2), in: db), 2)
      expectSame(try updated([1, 2], FieldValue.increment(2), in: db), 2)
      expectSame(try updated(Timestamp(seconds: 5, nanoseconds: 0), FieldValue.increment(2), in: db), 2)
    }
  }

  @Test func incrementInSetMergeUpdateAndNestedPaths() throws {
    try withDatabase { db in
      let doc = db.document("t/counters")
      // A plain set replaces the document first, so the field starts missing.
      try doc.setData(["n": 10, "stats": ["likes": 1, "views": 5] as [String: Any]])
      try doc.setData(["n": FieldValue.increment(1)])
      expectSame(try doc.getDocument().data(), ["n": 1])

      try doc.setData(["n": 10, "stats": ["likes": 1, "views": 5] as [String: Any]])
      try doc.setData(["stats": ["likes": FieldValue.increment(1)] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().data(), ["n": 10, "stats": ["likes": 2, "views": 5]])

      try doc.updateData(["stats.likes": FieldValue.increment(10), "n": FieldValue.increment(-1)])
      expectSame(try doc.getDocument().data(), ["n": 9, "stats": ["likes": 12, "views": 5]])

      try doc.updateData([FieldPath(["stats", "new"]): FieldValue.increment(0.5)])
      expectSame(try doc.getDocument().get("stats"), ["likes": 12, "views": 5, "new": 0.5] as [String: Any])
    }
  }

  /// mergeFields and transforms, as the Swift SDK sends them: every listed path goes into
  /// the update mask (`ParsedSetData::ToMutation` → `PatchMutation(key, data, user mask,
  /// transforms)`; `Serializer::EncodeMutation` encodes that mask unfiltered), and the
  /// backend applies the masked update, then the transforms, in order (`Write.update_transforms`:
  /// "equivalent to performing update and transform to the same document atomically and
  /// in order"). A listed path whose value is only a transform is therefore cleared first.
  @Test func mergeFieldsClearsEachListedPathBeforeItsTransforms() throws {
    try withDatabase { db in
      let doc = db.document("t/merge-fields-transforms")
      try doc.setData(["n": 9, "h": ["old": 1, "g": 5] as [String: Any], "e": 0])
      // A listed map holding only a transform is replaced (conformance test
      // "set-merge: non-leaf merge field with ServerTimestamp alone": mask [h], transform h.g).
      try doc.setData(["h": ["g": FieldValue.serverTimestamp()] as [String: Any], "e": 7], mergeFields: ["h"])
      var snapshot = try doc.getDocument()
      let stamp = try #require(snapshot.updateTime?.truncatedToMilliseconds)
      expectSame(snapshot.data(), ["n": 9, "h": ["g": stamp] as [String: Any], "e": 0])

      // A listed map with a plain value and a transform: replaced, transform on the new map.
      try doc.setData(["h": ["f": 5, "g": FieldValue.increment(1)] as [String: Any]], mergeFields: ["h"])
      snapshot = try doc.getDocument()
      expectSame(snapshot.get("h"), ["f": 5, "g": 1])

      // A listed leaf that is itself a transform stays out of the mask, so the increment
      // starts from the stored value, as with `merge: true` (Firestore's cross-SDK
      // conformance test "set-merge: If no ordinary values in Merge, no write"; the Swift
      // SDK alone would clear `n` first and give 100).
      try doc.setData(["n": FieldValue.increment(100)], mergeFields: ["n"])
      expectSame(try doc.getDocument().get("n"), 109)
    }
  }

  @Test func transformsThroughANonMapReplaceIt() throws {
    try withDatabase { db in
      let doc = db.document("t/through")
      try doc.setData(["s": "text", "list": [1, 2], "n": 5])
      try doc.updateData([
        "s.count": FieldValue.increment(1), "list.x": FieldValue.arrayUnion(["a"]), "n.m": FieldValue.maximum(3),
      ])
      expectSame(try doc.getDocument().data(), ["s": ["count": 1], "list": ["x": ["a"]], "n": ["m": 3]])
    }
  }

  @Test func incrementsOfOneDocumentInOneBatchAccumulate() throws {
    try withDatabase { db in
      let doc = db.document("t/batch-counter")
      try doc.setData(["n": 0])
      let batch = db.batch()
      for _ in 0..<5 { batch.updateData(["n": FieldValue.increment(2)], forDocument: doc) }
      try batch.commit()
      expectSame(try doc.getDocument().get("n"), 10)
    }
  }

  @Test func sequentialIncrementsAddUp() throws {
    try withDatabase { db in
      let doc = db.document("t/sequential")
      try doc.setData(["sum": 0])
      for value in [1, 2, 3, 4] { try doc.updateData(["sum": FieldValue.increment(value)]) }
      try doc.updateData(["sum": FieldValue.increment(0.5)])
      expectSame(try doc.getDocument().get("sum"), 10.5)
    }
  }

  // MARK: - arrayUnion

  @Test func arrayUnionOfAMissingOrNonArrayFieldStartsFromEmpty() throws {
    try withDatabase { db in
      expectSame(try updated(nil, FieldValue.arrayUnion([1, 2]), in: db), [1, 2])
      expectSame(try updated("text", FieldValue.arrayUnion(["a"]), in: db), ["a"])
      expectSame(try updated(5, FieldValue.arrayUnion([5]), in: db), [5])
      expectSame(try updated(["k": 1] as [String: Any], FieldValue.arrayUnion([]), in: db), [Any]())
      expectSame(try updated(nil, FieldValue.arrayUnion([]), in: db), [Any]())
    }
  }

  @Test func arrayUnionAppendsOnlyMissingElementsInOrder() throws {
    try withDatabase { db in
      expectSame(try updated([1, 2, 3], FieldValue.arrayUnion([3, 4, 2, 5]), in: db), [1, 2, 3, 4, 5])
      expectSame(
        try updated(["c", "a"], FieldValue.arrayUnion(["b", "a", "d"]), in: db), ["c", "a", "b", "d"])
      // Duplicates in the operand: the first only.
      expectSame(try updated([Any](), FieldValue.arrayUnion([1, 2, 1, 2, 3, 1]), in: db), [1, 2, 3])
      // Duplicates already stored are kept.
      expectSame(try updated([1, 1], FieldValue.arrayUnion([2, 1]), in: db), [1, 1, 2])
      // Maps, nulls, NaN and other types compare by value.
      expectSame(
        try updated(
          [["a": 1] as [String: Any], NSNull()],
          FieldValue.arrayUnion([["a": 1] as [String: Any], NSNull(), ["a": 2] as [String: Any]]), in: db),
        [["a": 1], NSNull(), ["a": 2]])
      let nans = try #require(try updated([Double.nan], FieldValue.arrayUnion([Double.nan, 1.0]), in: db) as? [Any])
      #expect(nans.count == 2, "NaN equals NaN for arrayUnion: \(nans)")
      expectSame(
        try updated(
          [Timestamp(seconds: 1, nanoseconds: 0)], FieldValue.arrayUnion([Timestamp(seconds: 1, nanoseconds: 0), "x"]),
          in: db),
        [Timestamp(seconds: 1, nanoseconds: 0), "x"])
    }
  }

  @Test func arrayUnionTreatsIntegerAndEqualDoubleAsEqual() throws {
    // docs/semantics.md: equality for arrayUnion follows the comparison, so 3 == 3.0.
    // (Firestore's SDK compares numbers strictly there; docs/semantics.md wins.)
    try withDatabase { db in
      expectSame(try updated([3], FieldValue.arrayUnion([3.0]), in: db), [3])
      expectSame(try updated([3.0], FieldValue.arrayUnion([3]), in: db), [3.0])
      expectSame(try updated([Any](), FieldValue.arrayUnion([3, 3.0, 4.5]), in: db), [3, 4.5] as [Any])
    }
  }

  @Test func arrayUnionInSetMergeAndNestedField() throws {
    try withDatabase { db in
      let doc = db.document("t/union-forms")
      try doc.setData(["tags": FieldValue.arrayUnion(["a", "b"])])
      expectSame(try doc.getDocument().data(), ["tags": ["a", "b"]])
      try doc.setData(["profile": ["tags": FieldValue.arrayUnion(["x"])] as [String: Any]], merge: true)
      try doc.updateData(["profile.tags": FieldValue.arrayUnion(["y", "x"])])
      expectSame(try doc.getDocument().data(), ["tags": ["a", "b"], "profile": ["tags": ["x", "y"]]])
    }
  }

  // MARK: - arrayRemove

  @Test func arrayRemoveRemovesEveryEqualElement() throws {
    try withDatabase { db in
      expectSame(try updated([1, 2, 1, 3, 2], FieldValue.arrayRemove([1, 2]), in: db), [3])
      expectSame(try updated(["a", "b", "c"], FieldValue.arrayRemove(["z"]), in: db), ["a", "b", "c"])
      expectSame(
        try updated(
          [["a": 1] as [String: Any], ["a": 2] as [String: Any], ["a": 1] as [String: Any]],
          FieldValue.arrayRemove([["a": 1] as [String: Any]]), in: db),
        [["a": 2]])
      expectSame(try updated([NSNull(), 1, NSNull()], FieldValue.arrayRemove([NSNull()]), in: db), [1])
      expectSame(try updated([Double.nan, 1.5, Double.nan], FieldValue.arrayRemove([Double.nan]), in: db), [1.5])
      expectSame(try updated([1, 2], FieldValue.arrayRemove([]), in: db), [1, 2])
    }
  }

  @Test func arrayRemoveTreatsIntegerAndEqualDoubleAsEqual() throws {
    // docs/semantics.md: `3 == 3.0` for arrayRemove.
    try withDatabase { db in
      expectSame(try updated([3, 4, 3.0] as [Any], FieldValue.arrayRemove([3.0]), in: db), [4])
      expectSame(try updated([3.0, 5] as [Any], FieldValue.arrayRemove([3]), in: db), [5])
    }
  }

  @Test func arrayRemoveOfAMissingOrNonArrayFieldIsEmpty() throws {
    try withDatabase { db in
      expectSame(try updated(nil, FieldValue.arrayRemove([1]), in: db), [Any]())
      expectSame(try updated("text", FieldValue.arrayRemove(["text"]), in: db), [Any]())
      expectSame(try updated(7, FieldValue.arrayRemove([7]), in: db), [Any]())
    }
  }

  @Test func arrayUnionAndRemoveOnDifferentFieldsOfOneUpdate() throws {
    try withDatabase { db in
      let doc = db.document("t/both")
      try doc.setData(["likes": ["a", "b"], "blocks": ["c"]])
      try doc.updateData(["likes": FieldValue.arrayRemove(["a"]), "blocks": FieldValue.arrayUnion(["a"])])
      expectSame(try doc.getDocument().data(), ["likes": ["b"], "blocks": ["c", "a"]])
    }
  }

  // MARK: - minimum / maximum

  @Test func minimumAndMaximumOfAMissingOrNonNumericFieldIsTheOperand() throws {
    try withDatabase { db in
      expectSame(try updated(nil, FieldValue.minimum(5), in: db), 5)
      expectSame(try updated(nil, FieldValue.maximum(5.5), in: db), 5.5)
      expectSame(try updated("a", FieldValue.minimum(Int64(3)), in: db), 3)
      expectSame(try updated(true, FieldValue.maximum(-2), in: db), -2)
      expectSame(try updated(NSNull(), FieldValue.maximum(1.25), in: db), 1.25)
      expectSame(try updated([1], FieldValue.minimum(0), in: db), 0)
    }
  }

  @Test func minimumAndMaximumKeepTheExtremeWithItsOwnType() throws {
    try withDatabase { db in
      expectSame(try updated(5, FieldValue.minimum(3), in: db), 3)
      expectSame(try updated(5, FieldValue.minimum(7), in: db), 5)
      expectSame(try updated(5, FieldValue.maximum(7), in: db), 7)
      expectSame(try updated(5, FieldValue.maximum(3), in: db), 5)
      expectSame(try updated(5, FieldValue.minimum(3.5), in: db), 3.5)
      expectSame(try updated(5, FieldValue.maximum(3.5), in: db), 5)
      expectSame(try updated(5.5, FieldValue.maximum(6), in: db), 6)
      expectSame(try updated(5.5, FieldValue.minimum(6), in: db), 5.5)
      expectSame(try updated(Int64.min, FieldValue.maximum(-Double.infinity), in: db), Int64.min)
      expectSame(try updated(Int64.max, FieldValue.minimum(Double.infinity), in: db), Int64.max)
      expectSame(try updated(-Double.infinity, FieldValue.minimum(Int64.min), in: db), -Double.infinity)
      // Exact comparison: 2^53 + 1 is greater than the double 2^53.
      expectSame(
        try updated((Int64(1) << 53) + 1, FieldValue.maximum(9007199254740992.0), in: db), (Int64(1) << 53) + 1)
    }
  }

  @Test func minimumAndMaximumNaNWins() throws {
    try withDatabase { db in
      for transform in [
        FieldValue.minimum(1), FieldValue.maximum(1), FieldValue.minimum(1.5), FieldValue.maximum(-1.5),
      ] {
        let kept = try updated(Double.nan, transform, in: db)
        #expect((kept as? Double)?.isNaN == true, "a NaN field stays NaN")
      }
      for initial: Any in [1, 2.5, Int64.max, -Double.infinity] {
        let min = try updated(initial, FieldValue.minimum(Double.nan), in: db)
        #expect((min as? Double)?.isNaN == true, "minimum(NaN) of \(initial)")
        let max = try updated(initial, FieldValue.maximum(Double.nan), in: db)
        #expect((max as? Double)?.isNaN == true, "maximum(NaN) of \(initial)")
      }
    }
  }

  @Test func minimumAndMaximumOfAnEqualValueLeaveTheFieldUnchanged() throws {
    try withDatabase { db in
      expectSame(try updated(1, FieldValue.maximum(1.0), in: db), 1, "stays an integer")
      expectSame(try updated(1, FieldValue.minimum(1.0), in: db), 1, "stays an integer")
      expectSame(try updated(1.0, FieldValue.maximum(1), in: db), 1.0, "stays a double")
      expectSame(try updated(1.0, FieldValue.minimum(Int64(1)), in: db), 1.0, "stays a double")
      expectSame(try updated(-0.0, FieldValue.maximum(0.0), in: db), -0.0, "keeps the sign of zero")
      expectSame(try updated(0.0, FieldValue.minimum(-0.0), in: db), 0.0, "keeps the sign of zero")
      expectSame(try updated(-0.0, FieldValue.minimum(0), in: db), -0.0)
    }
  }

  @Test func minimumAndMaximumOnNestedFieldsInMergeAndUpdate() throws {
    try withDatabase { db in
      let doc = db.document("t/extremes")
      try doc.setData(["score": ["best": 10, "worst": 10] as [String: Any]])
      try doc.updateData(["score.best": FieldValue.maximum(12), "score.worst": FieldValue.minimum(4)])
      expectSame(try doc.getDocument().get("score"), ["best": 12, "worst": 4])
      try doc.setData(
        ["score": ["best": FieldValue.maximum(11), "worst": FieldValue.minimum(5)] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().get("score"), ["best": 12, "worst": 4])
      try doc.setData(["score": ["best": FieldValue.maximum(13)] as [String: Any]])
      expectSame(try doc.getDocument().data(), ["score": ["best": 13]])
    }
  }

  // MARK: - Mixed

  @Test func transformsApplyAfterThePlainFieldsOfTheSameWrite() throws {
    try withDatabase { db in
      let doc = db.document("t/order")
      try doc.setData(["n": 100, "list": ["z"]])
      // The plain value and the transform target different fields; both land.
      try doc.updateData(["plain": "x", "n": FieldValue.increment(1), "list": FieldValue.arrayUnion(["a"])])
      expectSame(try doc.getDocument().data(), ["n": 101, "list": ["z", "a"], "plain": "x"])
      // A merge sets a map and transforms a field inside it in the same write.
      try doc.setData(["m": ["k": 1, "count": FieldValue.increment(1)] as [String: Any]], merge: true)
      expectSame(try doc.getDocument().get("m"), ["k": 1, "count": 1])
    }
  }

  @Test func transformsInTransactionsSeeTheCommittedValue() throws {
    try withDatabase { db in
      let doc = db.document("t/tx")
      try doc.setData(["n": 1, "tags": ["a"]])
      try db.runTransaction { transaction in
        let current = try transaction.getDocument(doc)
        #expect(current.get("n") as? Int64 == 1)
        transaction.updateData(["n": FieldValue.increment(5), "tags": FieldValue.arrayUnion(["b"])], forDocument: doc)
      }
      expectSame(try doc.getDocument().data(), ["n": 6, "tags": ["a", "b"]])
    }
  }
}
