import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Every value type written through `[String: Any]` reads back as Firebase returns it:
/// integer and double `NSNumber`s, String, Bool, NSNull, Timestamp, Data, GeoPoint,
/// DocumentReference, [Any], [String: Any] (docs/semantics.md, "Swift values in and out"). `canonical` tells an
/// integer `NSNumber` from a double one (NumberCastTests has the casts they allow).
@Suite struct ValueRoundTripTests {
  private func roundTrip(_ value: Any, in db: Database) throws -> Any? {
    let doc = db.collection("values").document()
    try doc.setData(["v": value])
    let viaGet = try doc.getDocument().get("v")
    let viaData = try doc.getDocument().data()?["v"]
    #expect(canonical(viaGet) == canonical(viaData), "get() and data() agree")
    return viaGet
  }

  @Test func nullAndBooleans() throws {
    try withDatabase { db in
      #expect(try roundTrip(NSNull(), in: db) is NSNull)
      let t = try roundTrip(true, in: db)
      #expect(t as? Bool == true)
      #expect(!(t is Int64), "a Bool must not come back as an integer")
      #expect(canonical(t) == "bool:true")
      #expect((try roundTrip(false, in: db)) as? Bool == false)
    }
  }

  @Test func integersOfEverySwiftTypeReadBackAsIntegers() throws {
    try withDatabase { db in
      let cases: [(Any, Int64)] = [
        (0, 0), (42, 42), (-42, -42), (Int.max, Int64(Int.max)), (Int.min, Int64(Int.min)),
        (Int64.max, .max), (Int64.min, .min), (Int32.max, Int64(Int32.max)), (Int32.min, Int64(Int32.min)),
        (Int16.min, Int64(Int16.min)), (Int8.min, -128), (UInt8.max, 255), (UInt8(0), 0),
        (UInt16.max, 65535), (UInt32.max, 4_294_967_295), (UInt64(Int64.max), .max), (UInt(12), 12),
      ]
      for (input, expected) in cases {
        let read = try roundTrip(input, in: db)
        #expect(canonical(read) == "int:\(expected)", "\(type(of: input)) \(input) reads back as \(canonical(read))")
        #expect(read as? Int64 == expected, "\(type(of: input)) \(input)")
      }
    }
  }

  @Test func doublesKeepEveryBit() throws {
    try withDatabase { db in
      let cases: [Double] = [
        0.0, -0.0, 1.0, -1.5, 0.1, .pi, .infinity, -.infinity, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 9007199254740993.0, 1e300,
      ]
      for input in cases {
        let read = try roundTrip(input, in: db)
        let double = try #require(read as? Double, "\(input) reads back as \(type(of: read as Any))")
        #expect(double.bitPattern == input.bitPattern, "\(input): got \(double)")
      }
      let negativeZero = try #require(try roundTrip(-0.0, in: db) as? Double)
      #expect(negativeZero == 0 && negativeZero.sign == .minus, "-0.0 keeps its sign bit")
      let nan = try #require(try roundTrip(Double.nan, in: db) as? Double)
      #expect(nan.isNaN)
      // A whole-valued double stays a double.
      #expect(canonical(try roundTrip(2.0, in: db)).hasPrefix("double:"))
    }
  }

  @Test func floatsAreStoredAsDoubles() throws {
    try withDatabase { db in
      let read = try roundTrip(Float(1.5), in: db)
      #expect(read as? Double == 1.5)
      let tenth = try roundTrip(Float(0.1), in: db)
      #expect(tenth as? Double == Double(Float(0.1)))
    }
  }

  @Test func timestampsAreTruncatedToMicroseconds() throws {
    try withDatabase { db in
      let cases: [(Timestamp, Timestamp)] = [
        (Timestamp(seconds: 1, nanoseconds: 123_456_789), Timestamp(seconds: 1, nanoseconds: 123_456_000)),
        (Timestamp(seconds: 0, nanoseconds: 999), Timestamp(seconds: 0, nanoseconds: 0)),
        (Timestamp(seconds: -1, nanoseconds: 999_999_999), Timestamp(seconds: -1, nanoseconds: 999_999_000)),
        (Timestamp(seconds: 1_700_000_000, nanoseconds: 1_000), Timestamp(seconds: 1_700_000_000, nanoseconds: 1_000)),
        // The ends of Firestore's range (0001-01-01 and 9999-12-31T23:59:59.999999).
        (Timestamp(seconds: -62_135_596_800, nanoseconds: 0), Timestamp(seconds: -62_135_596_800, nanoseconds: 0)),
        (
          Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999),
          Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000)
        ),
      ]
      for (input, expected) in cases {
        let read = try roundTrip(input, in: db)
        #expect(read as? Timestamp == expected, "\(input) read back as \(String(describing: read))")
      }
    }
  }

  @Test func datesBecomeTimestamps() throws {
    try withDatabase { db in
      let read = try roundTrip(Date(timeIntervalSince1970: 1.5), in: db)
      #expect(read as? Timestamp == Timestamp(seconds: 1, nanoseconds: 500_000_000))
      let precise = Date(timeIntervalSince1970: 1_700_000_000.123456)
      let stamp = try #require(try roundTrip(precise, in: db) as? Timestamp)
      #expect(stamp.seconds == 1_700_000_000)
      #expect(stamp.nanoseconds % 1000 == 0)
      #expect(abs(Int(stamp.nanoseconds) - 123_456_000) <= 1000)
      let before = try #require(try roundTrip(Date(timeIntervalSince1970: -0.25), in: db) as? Timestamp)
      #expect(before == Timestamp(seconds: -1, nanoseconds: 750_000_000))
    }
  }

  @Test func stringsKeepTheirExactUTF8() throws {
    try withDatabase { db in
      let cases = [
        "", "plain", "héllo wörld", "日本語", "🌍👩‍👩‍👧", "nul\u{0}inside\u{0}", "\u{0}",
        "e\u{301}", "\u{e9}", "\u{FFFF}", "tab\tnew\nline", String(repeating: "x", count: 10_000),
      ]
      for input in cases {
        let read = try #require(try roundTrip(input, in: db) as? String)
        #expect(
          Array(read.utf8) == Array(input.utf8), "\(input.debugDescription) came back as \(read.debugDescription)")
      }
    }
  }

  @Test func bytesKeepZerosAndLength() throws {
    try withDatabase { db in
      for input in [Data(), Data([0]), Data([0, 0, 1, 0, 255, 0]), Data((0..<1024).map { UInt8($0 % 256) })] {
        let read = try roundTrip(input, in: db)
        #expect(read as? Data == input, "\(Array(input.prefix(8))) (\(input.count) bytes)")
      }
    }
  }

  @Test func geoPoints() throws {
    try withDatabase { db in
      for point in [
        GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 40.4168, longitude: -3.7038),
        GeoPoint(latitude: -90, longitude: -180), GeoPoint(latitude: 90, longitude: 180),
      ] {
        let read = try roundTrip(point, in: db)
        #expect(read as? GeoPoint == point)
      }
    }
  }

  @Test func documentReferences() throws {
    try withDatabase { db in
      let target = db.document("users/alice/posts/p1")
      let read = try #require(try roundTrip(target, in: db) as? DocumentReference)
      #expect(read == target)
      #expect(read.path == "users/alice/posts/p1")
      #expect(read.documentID == "p1")
      #expect(read.firestore === db)
      try target.setData(["x": 1])
      expectSame(try read.getDocument().data(), ["x": 1])
    }
  }

  @Test func arraysAndMapsNest() throws {
    try withDatabase { db in
      let doc = db.document("values/nested")
      let data: [String: Any] = [
        "empty": [Any](), "emptyMap": [String: Any](),
        "mixed": [
          1, "a", true, NSNull(), 2.5, ["k": [1, 2]] as [String: Any], Data([0]), Timestamp(seconds: 3, nanoseconds: 0),
        ] as [Any],
        "map": [
          "a": ["b": ["c": [1, ["d": "e"] as [String: Any]] as [Any]] as [String: Any]] as [String: Any], "n": -1,
        ] as [String: Any],
        "strings": ["x", "y"], "doubles": [1.0, -0.0],
      ]
      try doc.setData(data)
      let read = try #require(try doc.getDocument().data())
      expectSame(read, data)
      #expect(read["mixed"] is [Any])
      #expect(read["map"] is [String: Any])
      let mixed = try #require(read["mixed"] as? [Any])
      #expect(canonical(mixed[0]) == "int:1")
    }
  }

  /// Typed arrays and maps, as `[String: Any]` literals make them (`"tags": ["a", "b"]`
  /// is a `[String]`): read by their exact type (UserDataReader's `Shape`), they store
  /// what their elements as `Any` would, and are refused for what those would be.
  @Test func typedArraysAndMapsReadBackAsTheirElements() throws {
    try withDatabase { db in
      let doc = db.document("values/typed")
      let data: [String: Any] = [
        "strings": ["b", "a", "é"], "integers": [3, -1, Int.max], "doubles": [2.5, -0.0, .infinity],
        "booleans": [true, false], "maps": [["k": 1], ["k": [1, 2]]] as [[String: Any]],
        "stringValues": ["x": "1"], "integerValues": ["x": 1], "doubleValues": ["x": 1.5],
        "booleanValues": ["x": true], "emptyStrings": [String](), "emptyValues": [String: Int](),
      ]
      try doc.setData(data)
      let read = try #require(try doc.getDocument().data())
      expectSame(read, data)
      #expect(canonical((read["integers"] as? [Any])?.first) == "int:3")
      #expect(canonical((read["doubles"] as? [Any])?.first) == canonical(2.5))
      #expect(canonical((read["integerValues"] as? [String: Any])?["x"]) == "int:1")
      let posts = db.collection("values")
      #expect(try posts.whereField("integers", arrayContains: -1.0).getDocuments().count == 1)
      #expect(try posts.whereField("strings", arrayContains: "é").getDocuments().count == 1)
      #expect(try posts.whereField("stringValues.x", isEqualTo: "1").getDocuments().count == 1)

      // A map's keys are field names still, and an array's maps may hold no sentinel.
      #expect(throws: HearthError.self) { try doc.setData(["bad": ["": "v"] as [String: String]]) }
      #expect(throws: HearthError.self) {
        try doc.setData(["bad": [["at": FieldValue.serverTimestamp()]] as [[String: Any]]])
      }
      expectSame(try doc.getDocument().data(), data)
    }
  }

  @Test func nsNumbersMapToTheirTypes() throws {
    try withDatabase { db in
      let five = try roundTrip(NSNumber(value: 5), in: db)
      #expect(five as? Int64 == 5)
      let minimum = try roundTrip(NSNumber(value: Int64.min), in: db)
      #expect(minimum as? Int64 == .min)
      let half = try roundTrip(NSNumber(value: 2.5), in: db)
      #expect(half as? Double == 2.5)
      let yes = try roundTrip(NSNumber(value: true), in: db)
      #expect(yes as? Bool == true)
      let largest = try roundTrip(NSNumber(value: UInt64(Int64.max)), in: db)
      #expect(largest as? Int64 == .max)
    }
  }

  @Test func everyTypeInOneDocumentReadsBackExactly() throws {
    try withDatabase { db in
      let doc = db.document("values/all")
      let data: [String: Any] = [
        "null": NSNull(), "bool": true, "int": Int64.min, "double": -0.0, "nan": Double.nan,
        "inf": Double.infinity, "ts": Timestamp(seconds: 1_234_567_890, nanoseconds: 123_456_000),
        "string": "ß\u{0}🙂", "bytes": Data([0, 1, 0]), "geo": GeoPoint(latitude: 1.5, longitude: -2.5),
        "ref": db.document("a/b"), "array": [1, "two", 3.0], "map": ["inner": ["deep": 1] as [String: Any]],
      ]
      try doc.setData(data)
      expectSame(try doc.getDocument().data(), data)
    }
  }
}
