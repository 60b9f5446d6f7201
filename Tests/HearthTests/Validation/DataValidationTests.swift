import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Data Firestore refuses: bad field paths and names, unsupported types, nested arrays,
/// depth and size limits, misplaced sentinels, conflicting update paths, out-of-range
/// values. Each fails with `invalidArgument` naming the document and field, and leaves
/// the database as it was (docs/semantics.md "Values", "Writes").
@Suite struct DataValidationTests {
  struct Custom { var x = 1 }
  final class Thing {}

  static var original: [String: Any] { ["name": "Alice", "profile": ["age": 30] as [String: Any], "tags": ["a"]] }

  /// A document holding `original`, plus a check that it is unchanged afterwards.
  private func withDocument(
    _ body: (Database, DocumentReference) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try withDatabase { db in
      let doc = db.document("users/alice")
      try doc.setData(Self.original)
      let before = try doc.getDocument()
      try body(db, doc)
      let after = try doc.getDocument()
      expectSame(after.data(), Self.original, "the document is unchanged", sourceLocation: sourceLocation)
      #expect(after.updateTime == before.updateTime, "no commit happened", sourceLocation: sourceLocation)
      #expect(
        try db.listCollections().map(\.collectionID) == ["users"], "no other collection appeared",
        sourceLocation: sourceLocation)
      #expect(try db.collection("users").getDocuments().count == 1, sourceLocation: sourceLocation)
    }
  }

  // MARK: - Field paths

  @Test(arguments: ["a..b", ".a", "a.", "", ".", "a~b", "a*b", "a/b", "a[b", "a]b", "a[b]", "~", "profile..age"])
  func invalidDottedFieldPathsInUpdateAndMergeFields(_ path: String) throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, mentioning: path.isEmpty ? [] : [path], "updateData") {
        try doc.updateData([path: 1])
      }
      expectHearthError(.invalidArgument, mentioning: path.isEmpty ? [] : [path], "mergeFields") {
        try doc.setData([path: 1, "name": "x"], mergeFields: [path])
      }
      expectHearthError(.invalidArgument, "batch") {
        let batch = db.batch()
        batch.updateData([path: 1], forDocument: doc)
        try batch.commit()
      }
      expectHearthError(.invalidArgument, "transaction") {
        try db.runTransaction { transaction in _ = transaction.updateData([path: 1], forDocument: doc) }
      }
    }
  }

  @Test func invalidFieldPathObjects() throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, "FieldPath([])") { try doc.updateData([FieldPath([]): 1]) }
      expectHearthError(.invalidArgument, "FieldPath([a, ''])") { try doc.updateData([FieldPath(["a", ""]): 1]) }
      expectHearthError(.invalidArgument, "FieldPath(['']) in mergeFields") {
        try doc.setData(["a": 1], mergeFields: [FieldPath([""])])
      }
      expectHearthError(.invalidArgument, "FieldPath([]) in mergeFields") {
        try doc.setData(["a": 1], mergeFields: [FieldPath([])])
      }
      expectHearthError(.invalidArgument, "updateData key of another type") { try doc.updateData([1: "x"]) }
    }
  }

  @Test func fieldPathSegmentsMayHoldAnyCharacter() throws {
    try withDatabase { db in
      let doc = db.document("users/odd-fields")
      let names = ["a/b", "a~b", "a*b", "[x]", "with space", "a.b", "`tick`", "é"]
      var data: [String: Any] = [:]
      for (i, name) in names.enumerated() { data[name] = i }
      try doc.setData(data)
      let snapshot = try doc.getDocument()
      expectSame(snapshot.data(), data)
      for (i, name) in names.enumerated() { expectSame(snapshot.get(FieldPath([name])), i, "field \(name)") }
      try doc.updateData([FieldPath(["a/b"]): 100, FieldPath(["new", "x~y"]): 1])
      expectSame(try doc.getDocument().get(FieldPath(["a/b"])), 100)
      expectSame(try doc.getDocument().get("new"), ["x~y": 1])
    }
  }

  // MARK: - Field names

  @Test func emptyAndReservedFieldNames() throws {
    try withDocument { db, doc in
      let bad: [(String, [String: Any])] = [
        ("empty top-level name", ["": 1]),
        ("empty nested name", ["profile": ["": 1] as [String: Any]]),
        ("__x__ top-level", ["__x__": 1]),
        ("__name__", ["__name__": "x"]),
        ("__x__ nested", ["profile": ["__x__": 1] as [String: Any]]),
        ("__x__ in a map in an array", ["list": [["__x__": 1] as [String: Any]]]),
        // The Firebase SDK rejects every name that begins and ends with `__`, however short.
        ("__", ["__": 1]),
        ("___", ["___": 1]),
        // Compared by bytes, as the SDK compares: an accent on the second underscore
        // does not hide it.
        ("__\u{301}x__", ["__\u{301}x__": 1]),
      ]
      for (label, data) in bad {
        expectHearthError(.invalidArgument, label) { try doc.setData(data) }
        expectHearthError(.invalidArgument, label + " (merge)") { try doc.setData(data, merge: true) }
        expectHearthError(.invalidArgument, label + " (create)") { try db.document("users/new").create(data) }
      }
      expectHearthError(.invalidArgument, mentioning: ["__x__"]) { try doc.updateData(["profile.__x__": 1]) }
      expectHearthError(.invalidArgument, mentioning: ["__x__"]) { try doc.updateData([FieldPath(["__x__"]): 1]) }
      expectHearthError(.invalidArgument, "FieldPath.documentID()") {
        try doc.updateData([FieldPath.documentID(): "x"])
      }
      expectHearthError(.invalidArgument) { try doc.updateData(["profile": ["__x__": 1]]) }
      expectHearthError(.invalidArgument) { try doc.updateData(["profile": ["": 1]]) }
    }
    // Names that only begin or only end with `__` are fine.
    try withDatabase { db in
      let doc = db.document("users/underscores")
      try doc.setData(["__a": 1, "b__": 2, "_c_": 3])
      expectSame(try doc.getDocument().data(), ["__a": 1, "b__": 2, "_c_": 3])
    }
  }

  @Test func messageNamesTheDocumentAndTheField() throws {
    try withDocument { db, doc in
      let error = expectHearthError(.invalidArgument, mentioning: ["users/alice", "profile.avatar", "Custom"]) {
        try doc.setData(["profile": ["avatar": Custom()] as [String: Any]], merge: true)
      }
      #expect(error != nil)
      expectHearthError(.invalidArgument, mentioning: ["users/alice", "profile.score"]) {
        try doc.updateData(["profile.score": UInt64.max])
      }
      expectHearthError(.invalidArgument, mentioning: ["users/bob", "location"]) {
        try db.document("users/bob").setData(["location": GeoPoint(latitude: 91, longitude: 0)])
      }
    }
  }

  // MARK: - Types

  @Test func unsupportedSwiftTypes() throws {
    try withDocument { db, doc in
      let values: [(String, Any)] = [
        ("Custom", Custom()), ("URL", URL(string: "https://example.com")!), ("Set", Set([1, 2])),
        ("Thing", Thing()), ("Int-keyed dictionary", [1: "a"]), ("UUID", UUID()),
        ("Character", Character("c")), ("closure", { () -> Int in 1 }), ("tuple", (1, 2)),
      ]
      for (label, value) in values {
        expectHearthError(.invalidArgument, mentioning: ["payload"], label) { try doc.setData(["payload": value]) }
        expectHearthError(.invalidArgument, mentioning: ["profile.payload"], label + " nested") {
          try doc.updateData(["profile.payload": value])
        }
        expectHearthError(.invalidArgument, label + " in an array") { try doc.setData(["list": [1, value]]) }
        expectHearthError(.invalidArgument, label + " in arrayUnion") {
          try doc.updateData(["tags": FieldValue.arrayUnion([value])])
        }
        expectHearthError(.invalidArgument, label + " in a batch") {
          let batch = db.batch()
          batch.setData(["ok": 1], forDocument: db.document("users/other"))
          batch.setData(["payload": value], forDocument: db.document("users/third"))
          try batch.commit()
        }
      }
      expectHearthError(.invalidArgument, mentioning: ["Custom"]) { try doc.setData(["payload": Custom()]) }
      expectHearthError(.invalidArgument, mentioning: ["URL"]) {
        try doc.setData(["payload": URL(fileURLWithPath: "/tmp")])
      }
    }
  }

  @Test func unsignedIntegersBeyondInt64MaxAreInvalid() throws {
    try withDocument { db, doc in
      for value: Any in [UInt64(Int64.max) + 1, UInt64.max, UInt(UInt64(Int64.max) + 1), NSNumber(value: UInt64.max)] {
        expectHearthError(.invalidArgument, mentioning: ["big"], "\(type(of: value)) \(value)") {
          try doc.setData(["big": value])
        }
      }
    }
    try withDatabase { db in
      let doc = db.document("users/limit")
      try doc.setData(["big": UInt64(Int64.max)])
      expectSame(try doc.getDocument().get("big"), Int64.max)
    }
  }

  @Test func referencesToAnotherDatabaseAreInvalid() throws {
    try withDocument { db, doc in
      try withDatabase { other in
        expectHearthError(.invalidArgument, mentioning: ["friend"]) {
          try doc.updateData(["friend": other.document("users/bob")])
        }
        expectHearthError(.invalidArgument) { try doc.setData(["list": [other.document("users/bob")]], merge: true) }
        expectHearthError(.invalidArgument) {
          try doc.updateData(["tags": FieldValue.arrayUnion([other.document("users/bob")])])
        }
      }
    }
  }

  // MARK: - Arrays

  @Test func arraysDirectlyInsideArraysAreInvalid() throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, mentioning: ["Nested arrays"]) { try doc.setData(["a": [[1]]]) }
      expectHearthError(.invalidArgument, mentioning: ["Nested arrays"]) {
        try doc.setData(["a": [1, [2, 3]] as [Any]])
      }
      expectHearthError(.invalidArgument) { try doc.setData(["a": [[Any]()]]) }
      expectHearthError(.invalidArgument) { try doc.updateData(["profile.list": [["x"]]]) }
      expectHearthError(.invalidArgument) { try doc.setData(["m": ["a": [[1]]] as [String: Any]], merge: true) }
      expectHearthError(.invalidArgument, "in arrayUnion") {
        try doc.updateData(["tags": FieldValue.arrayUnion([[1]])])
      }
      expectHearthError(.invalidArgument, "in arrayRemove") {
        try doc.updateData(["tags": FieldValue.arrayRemove([["a"]])])
      }
    }
  }

  @Test func arraysInsideMapsInsideArraysAreFine() throws {
    try withDatabase { db in
      let doc = db.document("users/arrays")
      let data: [String: Any] = [
        "a": [["b": [1, 2]] as [String: Any], ["c": [["d": [3]] as [String: Any]]] as [String: Any]]
      ]
      try doc.setData(data)
      expectSame(try doc.getDocument().data(), data)
      try doc.updateData(["a": FieldValue.arrayUnion([["e": [4]] as [String: Any]])])
      expectSame(try doc.getDocument().get("a"), [["b": [1, 2]], ["c": [["d": [3]]]], ["e": [4]]])
    }
  }

  // MARK: - Depth

  /// `levels` maps nested inside each other, the innermost holding `leaf: 1`.
  private func nestedMaps(_ levels: Int) -> [String: Any] {
    var value: [String: Any] = ["leaf": 1]
    for _ in 1..<levels { value = ["m": value] }
    return value
  }

  /// Maps and arrays alternating, `levels` containers in all.
  private func alternating(_ levels: Int) -> Any {
    var value: Any = 1
    for level in 0..<levels { value = level % 2 == 0 ? [value] as [Any] : ["k": value] as [String: Any] }
    return value
  }

  @Test func nestingUpToTwentyLevelsWorksAndDeeperFails() throws {
    try withDatabase { db in
      let doc = db.document("deep/ok")
      try doc.setData(["root": nestedMaps(20)])
      let path = "root." + Array(repeating: "m", count: 19).joined(separator: ".") + ".leaf"
      expectSame(try doc.getDocument().get(path), 1)

      let alt = db.document("deep/alternating")
      try alt.setData(["root": alternating(20)])
      expectSame(try alt.getDocument().get("root"), alternating(20))

      let before = try databaseContents(db)
      expectHearthError(.invalidArgument, mentioning: ["20"], "21 nested maps") {
        try db.document("deep/bad").setData(["root": nestedMaps(21)])
      }
      expectHearthError(.invalidArgument, mentioning: ["20"], "21 alternating levels") {
        try db.document("deep/bad").setData(["root": alternating(21)])
      }
      expectHearthError(.invalidArgument, mentioning: ["20"], "update that nests one level deeper") {
        try doc.updateData([path: ["too": "deep"]])
      }
      expectHearthError(.invalidArgument, mentioning: ["20"], "merge that nests one level deeper") {
        try doc.setData(["root": nestedMaps(21)], merge: true)
      }
      #expect(try databaseContents(db) == before)
    }
  }

  // MARK: - Size

  @Test func documentsUpToOneMebibyteWorkAndLargerOnesFail() throws {
    try withDatabase { db in
      // Size of big/doc with string fields "s" of n bytes and "u" of 500,000 (one value
      // may hold at most 1,048,487), by Firestore's rules: name (16 + "big"+1 + "doc"+1)
      // + field names ("s"+1, "u"+1) + values (n+1, 500,001) + 32 = n + 500,062.
      let limit = 1_048_576
      let other = String(repeating: "u", count: 500_000)
      let exact = String(repeating: "x", count: limit - 500_062)
      let doc = db.document("big/doc")
      try doc.setData(["s": exact, "u": other])
      #expect((try doc.getDocument().get("s") as? String)?.utf8.count == limit - 500_062)

      let before = try doc.getDocument()
      expectHearthError(.invalidArgument, mentioning: ["big/doc"], "one byte over") {
        try doc.setData(["s": exact + "x", "u": other])
      }
      expectHearthError(.invalidArgument, mentioning: ["big/doc"], "an update that adds a field") {
        try doc.updateData(["t": true])
      }
      expectHearthError(.invalidArgument, mentioning: ["big/doc"], "an arrayUnion that grows it") {
        try doc.updateData(["list": FieldValue.arrayUnion([1])])
      }
      let after = try doc.getDocument()
      #expect(after.updateTime == before.updateTime)
      #expect((after.get("s") as? String)?.utf8.count == limit - 500_062)

      expectHearthError(.invalidArgument, mentioning: ["big/other"]) {
        try db.document("big/other").setData(["blob": Data(count: limit)])
      }
      #expect(try !db.document("big/other").getDocument().exists)
      // Shrinking a full document works.
      try doc.updateData(["s": "small", "t": true])
      expectSame(try doc.getDocument().data(), ["s": "small", "t": true, "u": other])
    }
  }

  @Test func sizeCountsMultibyteCharactersAndNestedFieldNames() throws {
    try withDatabase { db in
      // "é" is two bytes: 400,000 of them in "s" (800,001 bytes) beside "u" of n bytes
      // make name 24 + "s"+1 + 800,001 + "u"+1 + (n+1) + 32 = n + 800,062.
      let doc = db.document("big/doc")
      let accents = String(repeating: "é", count: 400_000)
      let rest = String(repeating: "x", count: 1_048_576 - 800_062)
      try doc.setData(["s": accents, "u": rest])
      expectHearthError(.invalidArgument) { try doc.setData(["s": accents + "é", "u": rest]) }
      // A nested map: name 24 + "m"+1 + "s"+1 + 600,001 + "t"+1 + (n+1) + 32 = n + 600,064.
      let nested = String(repeating: "y", count: 600_000)
      try doc.setData(["m": ["s": nested, "t": String(repeating: "y", count: 1_048_576 - 600_064)] as [String: Any]])
      expectHearthError(.invalidArgument) {
        try doc.setData(["m": ["s": nested, "t": String(repeating: "y", count: 1_048_576 - 600_063)] as [String: Any]])
      }
    }
  }

  @Test func sizeRulesForEveryValueType() throws {
    try withDatabase { db in
      let doc = db.document("big/doc")  // name: 16 + ("big" + 1) + ("doc" + 1) = 24
      let target = db.document("a/b")  // as a value: 16 + 2 + 2 = 20
      // Field names count their bytes + 1; values by type (docs/semantics.md "Values").
      let fixed: [String: Any] = [
        "n": NSNull(),  // 2 + 1
        "t": true,  // 2 + 1
        "i": 7,  // 2 + 8
        "d": 1.5,  // 2 + 8
        "ts": Timestamp(seconds: 1, nanoseconds: 0),  // 3 + 8
        "g": GeoPoint(latitude: 1, longitude: 2),  // 2 + 16
        "r": target,  // 2 + 20
        "b": Data([1, 2, 3]),  // 2 + 3
        "l": [1, "ab"] as [Any],  // 2 + 8 + 3
        "m": ["k": "v"] as [String: Any],  // 2 + (2 + 2)
      ]
      let fixedSize = 3 + 3 + 10 + 10 + 11 + 18 + 22 + 5 + 13 + 6
      // The padding string "s": 2 + (n + 1); the document: 24 + fields + 32.
      // The padding strings "s" (2 + (n + 1)) and "s2" (3 + 500,001): one value may hold
      // at most 1,048,487 bytes. The document: 24 + fields + 32.
      let padding = 1_048_576 - 24 - 32 - fixedSize - 2 - 1 - 500_004
      var data = fixed
      data["s2"] = String(repeating: "q", count: 500_000)
      data["s"] = String(repeating: "p", count: padding)
      try doc.setData(data)
      #expect((try doc.getDocument().get("s") as? String)?.count == padding)
      data["s"] = String(repeating: "p", count: padding + 1)
      expectHearthError(.invalidArgument, mentioning: ["big/doc"], "one byte over the limit") { try doc.setData(data) }

      // Bytes count their length (no + 1): name 16 + 4 + 5 = 25, + ("b" 2) + 600,000
      // + ("c" 2) + n + 32.
      let blob = db.document("big/blob")
      try blob.setData(["b": Data(count: 600_000), "c": Data(count: 1_048_576 - 600_061)])
      expectHearthError(.invalidArgument) {
        try blob.setData(["b": Data(count: 600_000), "c": Data(count: 1_048_576 - 600_060)])
      }
    }
  }

  /// One string or bytes value holds at most 1,048,487 bytes (1 MiB − 89), Firestore's
  /// limit for a field's value, however small the rest of the document; the error names
  /// the field.
  @Test func oneValueHoldsAtMostTheFieldValueLimit() throws {
    try withDatabase { db in
      let doc = db.document("c/d")
      let limit = 1_048_487
      try doc.setData(["s": String(repeating: "x", count: limit)])
      #expect((try doc.getDocument().get("s") as? String)?.utf8.count == limit)
      let before = try doc.getDocument().updateTime
      expectHearthError(.invalidArgument, mentioning: ["c/d", "field s", "1048487"]) {
        try doc.setData(["s": String(repeating: "x", count: limit + 1)])
      }
      expectHearthError(.invalidArgument, mentioning: ["field b", "1048487"]) {
        try doc.setData(["b": Data(count: limit + 1)])
      }
      expectHearthError(.invalidArgument, mentioning: ["field m.s"]) {
        try doc.setData(["m": ["s": String(repeating: "é", count: limit / 2 + 1)]])
      }
      expectHearthError(.invalidArgument, mentioning: ["field a"]) {
        try doc.setData(["a": [String(repeating: "x", count: limit + 1)]])
      }
      #expect(try doc.getDocument().updateTime == before)
      try doc.setData(["b": Data(count: limit)])
    }
  }

  // MARK: - Sentinels in the wrong place

  @Test func deleteInAPlainSetIsInvalid() throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()", "name"]) {
        try doc.setData(["name": FieldValue.delete()])
      }
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()", "profile.age"]) {
        try doc.setData(["profile": ["age": FieldValue.delete()] as [String: Any]])
      }
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()"]) {
        try db.document("users/new").create(["x": FieldValue.delete()])
      }
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()"]) {
        try db.collection("users").addDocument(data: ["x": FieldValue.delete()])
      }
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()"]) {
        try db.batch().setData(["name": FieldValue.delete()], forDocument: doc).commit()
      }
    }
  }

  @Test func deleteNestedInsideAnUpdateValueIsInvalid() throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, mentioning: ["FieldValue.delete()", "profile.age"]) {
        try doc.updateData(["profile": ["age": FieldValue.delete()]])
      }
      expectHearthError(.invalidArgument) {
        try doc.updateData(["name": "Bob", "profile": ["x": ["y": FieldValue.delete()] as [String: Any]]])
      }
    }
  }

  @Test func sentinelsInsideArraysAreInvalid() throws {
    try withDocument { db, doc in
      let sentinels: [FieldValue] = [
        .delete(), .serverTimestamp(), .increment(1), .arrayUnion([1]), .arrayRemove([1]), .minimum(1), .maximum(1),
      ]
      for sentinel in sentinels {
        expectHearthError(.invalidArgument, mentioning: ["arrays"]) { try doc.setData(["a": [sentinel]]) }
        expectHearthError(.invalidArgument) { try doc.setData(["a": [1, ["m": sentinel] as [String: Any]] as [Any]]) }
        expectHearthError(.invalidArgument) {
          try doc.updateData(["tags": [["m": ["deep": sentinel]] as [String: Any]]])
        }
        expectHearthError(.invalidArgument) {
          try doc.setData(["tags": [["m": sentinel] as [String: Any]]], mergeFields: ["tags"])
        }
        expectHearthError(.invalidArgument) { try doc.updateData(["tags": [sentinel]]) }
        expectHearthError(.invalidArgument) { try doc.setData(["tags": [sentinel]], merge: true) }
        expectHearthError(.invalidArgument, "inside arrayUnion") {
          try doc.updateData(["tags": FieldValue.arrayUnion([sentinel])])
        }
        expectHearthError(.invalidArgument, "inside arrayRemove") {
          try doc.updateData(["tags": FieldValue.arrayRemove(["a", sentinel])])
        }
      }
    }
  }

  // MARK: - Conflicting update paths

  @Test func conflictingUpdatePathsAreInvalid() throws {
    try withDocument { db, doc in
      let conflicts: [[AnyHashable: Any]] = [
        ["profile": ["x": 1], "profile.age": 2],
        ["profile.age": 1, FieldPath(["profile", "age"]): 2],
        ["name": 1, FieldPath(["name"]): 2],
        ["a.b": 1, "a.b.c": 2],
        ["profile": FieldValue.delete(), "profile.age": 3],
        ["profile.age": FieldValue.increment(1), "profile": ["age": 1]],
      ]
      for update in conflicts {
        expectHearthError(.invalidArgument, "\(update.keys.map { "\($0.base)" })") { try doc.updateData(update) }
      }
    }
    // Paths that share a prefix of characters but not of segments do not conflict.
    try withDatabase { db in
      let doc = db.document("users/fine")
      try doc.setData(["x": 0])
      try doc.updateData(["a": 1, "ab": 2, "c.d": 3, "c.de": 4, FieldPath(["c.d"]): 5])
      expectSame(try doc.getDocument().data(), ["x": 0, "a": 1, "ab": 2, "c": ["d": 3, "de": 4], "c.d": 5])
    }
  }

  // MARK: - Ranges

  @Test func geoPointsOutOfRange() throws {
    try withDocument { db, doc in
      for point in [
        GeoPoint(latitude: 90.000001, longitude: 0), GeoPoint(latitude: -91, longitude: 0),
        GeoPoint(latitude: 0, longitude: 180.5), GeoPoint(latitude: 0, longitude: -181),
        GeoPoint(latitude: .nan, longitude: 0), GeoPoint(latitude: 0, longitude: .infinity),
      ] {
        expectHearthError(.invalidArgument, mentioning: ["where"], "\(point)") { try doc.setData(["where": point]) }
        expectHearthError(.invalidArgument, "\(point) in an array") { try doc.updateData(["tags": [point]]) }
      }
    }
  }

  @Test func timestampsOutOfRange() throws {
    try withDocument { db, doc in
      let bad: [Any] = [
        Timestamp(seconds: -62_135_596_801, nanoseconds: 999_999_999),  // year 0
        Timestamp(seconds: 253_402_300_800, nanoseconds: 0),  // year 10000
        Timestamp(seconds: Int64.max, nanoseconds: 0), Timestamp(seconds: Int64.min, nanoseconds: 0),
        Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -62_135_596_801),
        Date.distantFuture.addingTimeInterval(1e12),
      ]
      for value in bad {
        expectHearthError(.invalidArgument, mentioning: ["when"], "\(value)") { try doc.setData(["when": value]) }
        expectHearthError(.invalidArgument, "\(value) via arrayUnion") {
          try doc.updateData(["tags": FieldValue.arrayUnion([value])])
        }
      }
    }
  }

  // MARK: - All or nothing

  @Test func aBatchWithOneBadWriteWritesNothing() throws {
    try withDocument { db, doc in
      let batch = db.batch()
      batch.setData(["a": 1], forDocument: db.document("users/first"))
      batch.updateData(["name": "Changed"], forDocument: doc)
      batch.setData(["bad": Custom()], forDocument: db.document("users/second"))
      batch.setData(["a": 3], forDocument: db.document("users/third"))
      expectHearthError(.invalidArgument, mentioning: ["users/second", "bad"]) { try batch.commit() }

      // A problem only visible at commit time (size after a transform) also aborts all.
      let late = db.batch()
      late.setData(["a": 1], forDocument: db.document("users/first"))
      late.updateData(["name": "Changed"], forDocument: doc)
      late.setData(["s": String(repeating: "x", count: 1_048_000)], forDocument: db.document("users/big"))
      late.updateData(
        ["t": FieldValue.arrayUnion([String(repeating: "y", count: 1000)])], forDocument: db.document("users/big"))
      expectHearthError(.invalidArgument, mentioning: ["users/big"]) { try late.commit() }
    }
  }

  @Test func aTransactionWithOneBadWriteWritesNothing() throws {
    try withDocument { db, doc in
      expectHearthError(.invalidArgument, mentioning: ["Custom"]) {
        try db.runTransaction { transaction in
          _ = try transaction.getDocument(doc)
          transaction.updateData(["name": "Changed"], forDocument: doc)
          transaction.setData(["ok": true], forDocument: db.document("users/first"))
          transaction.setData(["bad": Custom()], forDocument: db.document("users/second"))
        }
      }
    }
  }
}
