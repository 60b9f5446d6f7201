import Foundation
import Testing

@testable import HearthCore

@Suite struct ValueOrderTests {
  /// One value of each type, in Firestore's type order.
  let typeOrdered: [Value] = [
    .null, .boolean(false), .integer(-1), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .string(""),
    .bytes(Data()), .reference(DocumentKey(ResourcePath(["a", "b"]))), .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
    .array([.integer(9), .integer(9), .integer(9)]), vector([]), .map([:]),
  ]

  static func vector(_ elements: [Value]) -> Value {
    .map(["__type__": .string("__vector__"), "value": .array(elements)])
  }

  /// Firestore's vectors (a map of a special shape) sort as their own type, between
  /// arrays and maps, by length first and then element by element (Firebase's
  /// `CompareVectors`, and Google's system test `test_create_document_w_vector`).
  @Test func vectorsOrderByLengthThenElements() {
    let ordered = [
      Self.vector([]), Self.vector([.double(9)]), Self.vector([.double(2), .double(2)]),
      Self.vector([.double(1), .double(2), .double(3)]), Self.vector([.integer(2), .integer(2), .double(3)]),
    ]
    for (i, a) in ordered.enumerated() {
      for (j, b) in ordered.enumerated() {
        #expect(Value.compare(a, b) == (i < j ? -1 : (i == j ? 0 : 1)), "\(a) vs \(b)")
      }
    }
    #expect(Self.vector([.integer(2)]) == Self.vector([.double(2)]))
    #expect(Self.vector([.integer(1)]).typeOrder == .vector)
    let notAVector = Value.map(["__type__": .string("__vector__"), "value": .array([.string("x")])])
    #expect(notAVector.typeOrder == .map)
  }

  @Test func typesOrderAsFirestoreDoes() {
    for (i, a) in typeOrdered.enumerated() {
      for (j, b) in typeOrdered.enumerated() {
        #expect(Value.compare(a, b) == (i < j ? -1 : (i == j ? 0 : 1)), "\(a) vs \(b)")
      }
    }
  }

  @Test func numbersCompareExactlyAcrossIntegersAndDoubles() {
    let ascending: [Value] = [
      .double(.nan), .double(-.infinity), .integer(.min), .double(-0x1p63.nextDown), .double(-1.5), .integer(-1),
      .double(-0.5), .integer(0), .double(Double.leastNonzeroMagnitude), .double(0.5), .integer(1),
      .integer(9_007_199_254_740_992), .integer(9_007_199_254_740_993), .double(9_007_199_254_740_994),
      .integer(.max), .double(0x1p63), .double(.infinity),
    ]
    for (i, a) in ascending.enumerated() {
      for (j, b) in ascending.enumerated() {
        #expect(Value.compare(a, b) == (i < j ? -1 : (i == j ? 0 : 1)), "\(a) vs \(b)")
      }
    }
    #expect(Value.integer(1) == .double(1.0))
    #expect(Value.double(-0.0) == .double(0.0))
    #expect(Value.double(-0.0) == .integer(0))
    #expect(Value.double(.nan) == .double(-.nan))
    #expect(Value.integer(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
    #expect(Value.integer(.max) != .double(0x1p63))
  }

  @Test func equalValuesHashEqually() {
    let pairs: [(Value, Value)] = [
      (.integer(3), .double(3.0)), (.double(-0.0), .integer(0)), (.double(.nan), .double(-.nan)),
      (.map(["a": .integer(1), "b": .integer(2)]), .map(["b": .double(2), "a": .double(1)])),
      (.array([.integer(1)]), .array([.double(1)])),
    ]
    for (a, b) in pairs {
      #expect(a == b)
      #expect(a.hashValue == b.hashValue)
    }
  }

  @Test func identityIsStricterThanEquality() {
    #expect(!Value.integer(1).isIdentical(to: .double(1)))
    #expect(!Value.double(-0.0).isIdentical(to: .double(0.0)))
    #expect(Value.double(.nan).isIdentical(to: .double(.nan)))
    #expect(Value.map(["a": .array([.integer(1)])]).isIdentical(to: .map(["a": .array([.integer(1)])])))
  }

  @Test func stringsCompareByUTF8BytesNotSwiftOrder() {
    // U+FFFF is EF BF BF; 😀 is F0 9F 98 80: byte order puts U+FFFF first (UTF-16 would not).
    #expect(Value.compare(.string("\u{FFFF}"), .string("😀")) == -1)
    // Canonically equivalent but different bytes: different values, unlike Swift's `==`.
    #expect(Value.compare(.string("\u{E9}"), .string("e\u{301}")) != 0)
    #expect(Value.compare(.string("a"), .string("a\u{0}")) == -1)
    #expect(Value.compare(.string("B"), .string("a")) == -1)
  }

  @Test func containersCompareElementWiseThenBySize() {
    #expect(Value.compare(.array([.integer(1)]), .array([.integer(1), .integer(0)])) == -1)
    #expect(Value.compare(.array([.integer(2)]), .array([.integer(1), .integer(9)])) == 1)
    #expect(Value.compare(.map(["a": .integer(1)]), .map(["a": .integer(1), "b": .null])) == -1)
    #expect(Value.compare(.map(["b": .integer(0)]), .map(["a": .integer(9)])) == 1)
    #expect(Value.compare(.map(["a": .integer(2)]), .map(["a": .integer(1), "b": .null])) == 1)
    let short = DocumentKey(ResourcePath(["a", "b"]))
    let long = DocumentKey(ResourcePath(["a", "b", "c", "d"]))
    #expect(Value.compare(.reference(short), .reference(long)) == -1)
    #expect(
      Value.compare(.geoPoint(GeoPoint(latitude: 1, longitude: 5)), .geoPoint(GeoPoint(latitude: 2, longitude: 0)))
        == -1)
    #expect(Value.compare(.bytes(Data([1])), .bytes(Data([1, 0]))) == -1)
    #expect(
      Value.compare(
        .timestamp(Timestamp(seconds: 1, nanoseconds: 5)), .timestamp(Timestamp(seconds: 1, nanoseconds: 6))) == -1)
  }
}

@Suite struct PathTests {
  @Test func parsingFollowsTheSwiftSDK() throws {
    #expect(try ResourcePath.parse("/users/alice/").segments == ["users", "alice"])
    for bad in ["", "/", "users//alice", "users/./x", "users/../x", "users/__x__", "//"] {
      let error = try #require(throws: HearthError.self) { try ResourcePath.parse(bad) }
      #expect(error.code == .invalidArgument)
    }
    #expect(try ResourcePath.parse("users/__").segments == ["users", "__"])
    #expect(throws: HearthError.self) { try DocumentKey(parsing: "users") }
    #expect(try DocumentKey(parsing: "users/alice/posts/p1").collectionGroup == "posts")
  }

  @Test func limitsAreTestedAtTheEdge() throws {
    let longest = String(repeating: "é", count: ResourcePath.maxIDBytes / 2)
    #expect(try DocumentKey(parsing: "users/\(longest)").documentID == longest)
    let error = try #require(throws: HearthError.self) { try DocumentKey(parsing: "users/\(longest)x") }
    #expect(error.message.contains("257 bytes"))
    #expect(error.message.contains("256"))
    let deepest = (0..<100).map { "c\($0)/d" }.joined(separator: "/")
    #expect(try DocumentKey(parsing: deepest).path.count == 200)
    #expect(throws: HearthError.self) { try DocumentKey(parsing: deepest + "/c/d") }
  }

  @Test func fieldPathsParseAndPrintCanonically() throws {
    #expect(try FieldPath.parse(dotted: "a.b.c").segments == ["a", "b", "c"])
    for bad in ["", ".a", "a.", "a..b", "a~b", "a*b", "a/b", "a[b", "a]b"] {
      #expect(throws: HearthError.self, "\(bad)") { try FieldPath.parse(dotted: bad) }
    }
    #expect(FieldPath(["a.b", "c", "d-e", "`x`", "_ok1"]).canonical == "`a.b`.c.`d-e`.`\\`x\\``._ok1")
    // Read and written by scalars: an accent after a backtick, a backslash or a dot is
    // one `Character` with it, and must not hide it.
    #expect(try FieldPath.parse(canonical: "`\u{301}__x__`").segments == ["\u{301}__x__"])
    #expect(try FieldPath.parse(canonical: "a.\u{301}b.`c`").segments == ["a", "\u{301}b", "c"])
    let joined = FieldPath(["`\u{301}", "\\\u{301}", ".\u{301}", "\u{301}`"])
    #expect(try FieldPath.parse(canonical: joined.canonical) == joined, "\(joined.canonical)")
    #expect(throws: HearthError.self) { try FieldPath([]).validate() }
    #expect(throws: HearthError.self) { try FieldPath(["a", ""]).validate() }
  }

  @Test func timestampsFormatAndParseRFC3339() throws {
    let samples = [
      Timestamp(seconds: 0, nanoseconds: 0), Timestamp(seconds: -62_135_596_800, nanoseconds: 0),
      Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999),
      Timestamp(seconds: 1_795_000_000, nanoseconds: 123_456_000),
      Timestamp(seconds: -1, nanoseconds: 500_000_000),
    ]
    for sample in samples {
      #expect(RFC3339.parse(sample.rfc3339) == sample, "\(sample.rfc3339)")
    }
    #expect(Timestamp(seconds: 0, nanoseconds: 0).rfc3339 == "1970-01-01T00:00:00Z")
    #expect(Timestamp(seconds: 0, nanoseconds: 120_000_000).rfc3339 == "1970-01-01T00:00:00.120Z")
    #expect(
      RFC3339.parse("2026-11-29T10:00:00.123456+01:00") == Timestamp(seconds: 1_795_942_800, nanoseconds: 123_456_000))
    #expect(RFC3339.parse("2026-02-30T00:00:00Z") == nil)
    #expect(RFC3339.parse("2026-11-29 10:00") == nil)
    #expect(Timestamp(microseconds: -1) == Timestamp(seconds: -1, nanoseconds: 999_999_000))
    #expect(Timestamp(seconds: -1, nanoseconds: 999_999_000).microseconds == -1)
  }
}
