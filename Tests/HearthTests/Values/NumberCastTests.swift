import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Numbers read back as `NSNumber`s, as Firebase hands them back on Apple platforms, so
/// that tutorial code's `data()["likes"] as? Int` works on Linux too, and every cast gives
/// what Foundation's exact `NSNumber` casts give (SE-0170): the same on Linux and Apple
/// platforms. Booleans read back as Swift `Bool`s, so `true as? Int` is `nil` (Firebase's
/// `kCFBooleanTrue` would give 1); an integer 0 or 1 casts to `Bool`, as Firebase's do.
@Suite struct NumberCastTests {
  /// What each cast of one stored value gives.
  struct Casts: CustomStringConvertible, Sendable {
    var int: Int?
    var int64: Int64?
    var int32: Int32?
    var double: Double?
    var float: Float?
    var bool: Bool?

    init(_ value: Any?) {
      int = value as? Int
      int64 = value as? Int64
      int32 = value as? Int32
      double = value as? Double
      float = value as? Float
      bool = value as? Bool
    }

    init(int: Int?, int64: Int64?, int32: Int32?, double: Double?, float: Float?, bool: Bool?) {
      (self.int, self.int64, self.int32, self.double, self.float, self.bool) = (int, int64, int32, double, float, bool)
    }

    /// An integer's casts: every integer type it fits, `Double` and `Float` when exact.
    static func integer(_ i: Int64, bool: Bool? = nil) -> Casts {
      Casts(
        int: Int(exactly: i), int64: i, int32: Int32(exactly: i), double: Double(exactly: i),
        float: Float(exactly: i), bool: bool)
    }

    /// A double's casts: the integer types when it is whole and fits, `Float` when exact.
    static func double(_ d: Double, bool: Bool? = nil) -> Casts {
      Casts(
        int: Int(exactly: d), int64: Int64(exactly: d), int32: Int32(exactly: d), double: d,
        float: d.isNaN ? .nan : Float(exactly: d), bool: bool)
    }

    /// Same values, NaN equal to NaN and `-0.0` told from `0.0`.
    func matches(_ other: Casts) -> Bool {
      int == other.int && int64 == other.int64 && int32 == other.int32 && bool == other.bool
        && double?.bitPattern == other.double?.bitPattern && float?.bitPattern == other.float?.bitPattern
    }

    var description: String {
      "Int \(int.map { "\($0)" } ?? "nil"), Int64 \(int64.map { "\($0)" } ?? "nil"), "
        + "Int32 \(int32.map { "\($0)" } ?? "nil"), Double \(double.map { "\($0)" } ?? "nil"), "
        + "Float \(float.map { "\($0)" } ?? "nil"), Bool \(bool.map { "\($0)" } ?? "nil")"
    }
  }

  /// Every numeric kind, with the casts written out where the rule is the point.
  static let cases: [(name: String, stored: any Sendable, expected: Casts)] = [
    ("42", 42, Casts(int: 42, int64: 42, int32: 42, double: 42, float: 42, bool: nil)),
    ("0", 0, Casts(int: 0, int64: 0, int32: 0, double: 0, float: 0, bool: false)),
    ("1", 1, Casts(int: 1, int64: 1, int32: 1, double: 1, float: 1, bool: true)),
    ("-1", -1, .integer(-1)),
    (
      "3_000_000_000", 3_000_000_000,
      Casts(int: 3_000_000_000, int64: 3_000_000_000, int32: nil, double: 3e9, float: 3e9, bool: nil)
    ),
    ("Int64.max", Int64.max, Casts(int: Int(Int64.max), int64: .max, int32: nil, double: nil, float: nil, bool: nil)),
    (
      "Int64.min", Int64.min,
      Casts(int: Int(Int64.min), int64: .min, int32: nil, double: -0x1p63, float: -0x1p63, bool: nil)
    ),
    (
      "2^53 + 1", Int64(1 << 53) + 1,
      Casts(int: (1 << 53) + 1, int64: (1 << 53) + 1, int32: nil, double: nil, float: nil, bool: nil)
    ),
    ("2.5", 2.5, Casts(int: nil, int64: nil, int32: nil, double: 2.5, float: 2.5, bool: nil)),
    ("0.1", 0.1, Casts(int: nil, int64: nil, int32: nil, double: 0.1, float: nil, bool: nil)),
    ("2.0", 2.0, Casts(int: 2, int64: 2, int32: 2, double: 2, float: 2, bool: nil)),
    ("1.0", 1.0, .double(1, bool: true)),
    ("1e300", 1e300, Casts(int: nil, int64: nil, int32: nil, double: 1e300, float: nil, bool: nil)),
    ("NaN", Double.nan, Casts(int: nil, int64: nil, int32: nil, double: .nan, float: .nan, bool: nil)),
    ("0.0", 0.0, Casts(int: 0, int64: 0, int32: 0, double: 0.0, float: 0.0, bool: false)),
    ("-0.0", -0.0, Casts(int: 0, int64: 0, int32: 0, double: -0.0, float: -0.0, bool: false)),
    (
      "infinity", Double.infinity,
      Casts(int: nil, int64: nil, int32: nil, double: .infinity, float: .infinity, bool: nil)
    ),
    ("-infinity", -Double.infinity, .double(-.infinity)),
    ("true", true, Casts(int: nil, int64: nil, int32: nil, double: nil, float: nil, bool: true)),
    ("false", false, Casts(int: nil, int64: nil, int32: nil, double: nil, float: nil, bool: false)),
    // The edges of the integers `data()` shares rather than makes (0 to 1,023); last, so
    // that the indices the tests below name stay put.
    ("1023", 1023, .integer(1023)),
    ("1024", 1024, .integer(1024)),
  ]

  @Test func theTableAgreesWithItsRules() {
    // The written-out rows say what the helpers compute (and Foundation does).
    for (name, stored, expected) in Self.cases {
      switch stored {
      case let b as Bool: #expect(!expected.matches(.integer(b ? 1 : 0)), "\(name)")
      case let i as Int: #expect(expected.matches(.integer(Int64(i), bool: expected.bool)), "\(name)")
      case let i as Int64: #expect(expected.matches(.integer(i, bool: expected.bool)), "\(name)")
      case let d as Double: #expect(expected.matches(.double(d, bool: expected.bool)), "\(name)")
      default: Issue.record("unexpected case \(name)")
      }
    }
  }

  @Test func everyReadGivesTheCasts() throws {
    try withDatabase { db in
      let docs = db.collection("numbers")
      for (index, (_, stored, _)) in Self.cases.enumerated() {
        try docs.document("n\(index)").setData([
          "v": stored, "m": ["v": stored], "a": [stored], "am": [["v": stored]] as [Any], "i": index,
        ])
      }
      let queried = try docs.getDocuments().documents
      for (index, (name, _, expected)) in Self.cases.enumerated() {
        let snapshot = try docs.document("n\(index)").getDocument()
        let data = try #require(snapshot.data())
        let fromQuery = try #require(queried.first { $0.documentID == "n\(index)" })
        let reads: [(String, Any?)] = [
          ("data()", data["v"]), ("get(\"v\")", snapshot.get("v")), ("subscript", snapshot["v"]),
          ("get(FieldPath)", snapshot.get(FieldPath(["v"]))), ("nested map", snapshot.get("m.v")),
          ("array element", (data["a"] as? [Any])?.first),
          ("map in array", ((data["am"] as? [Any])?.first as? [String: Any])?["v"]),
          ("query snapshot", fromQuery.data()["v"]),
        ]
        for (how, read) in reads {
          let casts = Casts(read)
          #expect(casts.matches(expected), "\(name) via \(how): \(casts), expected \(expected)")
          let number = read as? NSNumber
          #expect(number != nil, "\(name) via \(how) casts to NSNumber")
          if let double = expected.double, !(Self.cases[index].stored is Bool) {
            #expect(number?.doubleValue.bitPattern == double.bitPattern || number?.doubleValue.isNaN == true)
          }
        }
      }
    }
  }

  @Test func int64StaysExact() throws {
    try withDatabase { db in
      let doc = db.document("numbers/exact")
      let values: [Int64] = [.max, .min, .max - 1, (1 << 53) + 1, -(1 << 53) - 1]
      try doc.setData(["values": values])
      let read = try #require(try doc.getDocument().get("values") as? [Any])
      #expect(read.map { $0 as? Int64 } == values)
      #expect(read.map { ($0 as? NSNumber)?.int64Value } == values)
      // Read, then written again: still the same integers (not doubles).
      try doc.setData(try #require(try doc.getDocument().data()))
      expectSame(try doc.getDocument().get("values"), values)
      #expect(try docsWhere(db, "values", arrayContains: Int64.max - 1) == ["exact"])
    }
  }

  private func docsWhere(_ db: Database, _ field: String, arrayContains value: Any) throws -> [String] {
    try db.collection("numbers").whereField(field, arrayContains: value).getDocuments().documents.map(\.documentID)
  }

  @Test func whatIsReadCanBeWrittenAndQueriedAsItWas() throws {
    try withDatabase { db in
      let original = db.document("numbers/original")
      var data: [String: Any] = [:]
      for (index, (_, stored, _)) in Self.cases.enumerated() { data["f\(index)"] = stored }
      data["nested"] = ["list": Self.cases.map { $0.stored as Any }]
      try original.setData(data)

      let read = try #require(try original.getDocument().data())
      let copy = db.document("numbers/copy")
      try copy.setData(read)
      expectSame(
        try copy.getDocument().data(), data, "kinds survive a read and a write: ints, doubles, -0.0, NaN, bools")
      try copy.updateData(["f0": try original.getDocument()["f0"] as Any])
      expectSame(try copy.getDocument().get("f0"), 42)

      // A value read back finds its document, as an operand and in a transform.
      for key in ["f0", "f5", "f8", "f15", "f18"] {
        let value = try #require(read[key])
        let found = try db.collection("numbers").whereField(key, isEqualTo: value).getDocuments()
        #expect(found.documents.map(\.documentID) == ["copy", "original"], "\(key) \(canonical(value))")
      }
      try copy.updateData(["nested.list": FieldValue.arrayRemove([read["f0"]!, read["f8"]!, read["f18"]!])])
      let left = try #require(try copy.getDocument().get("nested.list") as? [Any])
      #expect(left.count == Self.cases.count - 3)
    }
  }

  @Test func firebaseStyleDecodingFromData() throws {
    struct Stats: Codable, Equatable {
      var likes: Int
      var views: Int64
      var rank: Int32
      var score: Double
      var ratio: Float
      var whole: Double
      var done: Bool
    }
    try withDatabase { db in
      let doc = db.document("numbers/stats")
      try doc.setData([
        "likes": 42, "views": Int64.max, "rank": -3, "score": 2.5, "ratio": 0.5, "whole": 7, "done": true,
      ])
      let data = try #require(try doc.getDocument().data())
      let decoded = try Firestore.Decoder().decode(Stats.self, from: data, in: doc)
      #expect(decoded == Stats(likes: 42, views: .max, rank: -3, score: 2.5, ratio: 0.5, whole: 7, done: true))

      // The decoder's rules hold for NSNumbers as for stored values: a boolean only from
      // a boolean, an integer type only from a whole number that fits.
      struct Flag: Decodable { var done: Bool }
      struct Count: Decodable { var likes: Int8 }
      struct Whole: Decodable { var score: Int }
      #expect(throws: DecodingError.self) { try Firestore.Decoder().decode(Flag.self, from: ["done": data["likes"]!]) }
      #expect(throws: DecodingError.self) {
        try Firestore.Decoder().decode(Count.self, from: ["likes": data["views"]!])
      }
      #expect(throws: DecodingError.self) {
        try Firestore.Decoder().decode(Whole.self, from: ["score": data["score"]!])
      }
      #expect(try Firestore.Decoder().decode(Whole.self, from: ["score": data["whole"]!]).score == 7)
    }
  }
}
