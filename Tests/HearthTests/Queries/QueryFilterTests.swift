import Foundation
import Hearth
import HearthTestSupport
import Testing

// Every `whereField` operator on every type class, as docs/semantics.md ("Queries", "Values")
// describes it; many cases follow Firestore's own integration tests (FIRQueryTests.mm,
// FIRCursorTests.mm), with the expected results re-derived for Hearth's contract.

@Suite("Query filters: operators and type classes")
struct QueryFilterTests {

  // MARK: - Numbers

  @Test func equalityComparesIntegersAndDoublesByValue() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("numbers"),
        [
          "a": ["n": 1], "b": ["n": 1.0], "c": ["n": 2], "d": ["n": -0.0], "e": ["n": 0],
          "f": ["n": "1"], "g": ["n": true], "h": [:], "i": ["n": [1]], "j": ["n": 1.5],
        ])
      expectIDs(c.whereField("n", isEqualTo: 1), ["a", "b"], "1 == 1.0")
      expectIDs(c.whereField("n", isEqualTo: 1.0), ["a", "b"], "1.0 == 1")
      expectIDs(c.whereField("n", isEqualTo: Int64(1)), ["a", "b"], "Int64 operand")
      expectIDs(c.whereField("n", isEqualTo: Int32(1)), ["a", "b"], "Int32 operand")
      expectIDs(c.whereField("n", isEqualTo: Float(1)), ["a", "b"], "Float operand")
      expectIDs(c.whereField("n", isEqualTo: 0), ["d", "e"], "-0.0 == 0")
      expectIDs(c.whereField("n", isEqualTo: -0.0), ["d", "e"], "-0.0 == 0")
      expectIDs(c.whereField("n", isEqualTo: 1.5), ["j"])
      expectIDs(c.whereField("n", isEqualTo: "1"), ["f"], "a string never equals a number")
      expectIDs(c.whereField("n", isEqualTo: true), ["g"], "a boolean never equals a number")
      expectIDs(c.whereField("n", isEqualTo: [1]), ["i"])
      expectIDs(c.whereField("n", isEqualTo: 3), [])
    }
  }

  @Test func numbersCompareExactlyWithoutRoundingThroughDouble() throws {
    try withDatabase(settings: relaxed) { db in
      let twoTo53 = Int64(1) << 53
      let c = try seed(
        db.collection("big"),
        [
          "max": ["n": Int64.max],
          "twoTo63": ["n": Double(Int64.max)],  // 2^63 as a double, above every Int64
          "odd": ["n": twoTo53 + 1],  // not representable as a double
          "even": ["n": Double(twoTo53)],
          "min": ["n": Int64.min],
          "minDouble": ["n": Double(Int64.min)],  // exactly -2^63
        ])
      expectIDs(c.whereField("n", isEqualTo: twoTo53 + 1), ["odd"], "2^53+1 is not 2^53")
      expectIDs(c.whereField("n", isEqualTo: Double(twoTo53)), ["even"])
      expectIDs(c.whereField("n", isEqualTo: Int64.max), ["max"], "Int64.max is below 2^63")
      expectIDs(c.whereField("n", isGreaterThan: Int64.max), ["twoTo63"])
      expectIDs(c.whereField("n", isGreaterThan: twoTo53), ["odd", "max", "twoTo63"])
      expectIDs(c.whereField("n", isEqualTo: Int64.min), ["min", "minDouble"], "-2^63 is both an Int64 and a double")
      expectIDs(c.whereField("n", isLessThan: Double(twoTo53)), ["min", "minDouble"])
    }
  }

  @Test func rangesOnNumbersMatchOnlyNumbersAndNeverNaN() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("ranges"),
        [
          "a": ["n": -Double.infinity], "b": ["n": -1], "c": ["n": 0], "d": ["n": 1.5], "e": ["n": 2],
          "f": ["n": 3], "g": ["n": Double.infinity], "h": ["n": Double.nan], "i": ["n": "5"], "j": ["n": NSNull()],
          "k": ["other": 1], "l": ["n": true], "m": ["n": [1]], "n": ["n": Timestamp(seconds: 10, nanoseconds: 0)],
        ])
      expectIDs(c.whereField("n", isGreaterThan: 1), ["d", "e", "f", "g"])
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: 2), ["e", "f", "g"])
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: 2.0), ["e", "f", "g"])
      expectIDs(c.whereField("n", isLessThan: 1), ["a", "b", "c"], "NaN, null, booleans are not numbers in range")
      expectIDs(c.whereField("n", isLessThanOrEqualTo: 2), ["a", "b", "c", "d", "e"], "<= 2 does not return NaN")
      expectIDs(c.whereField("n", isGreaterThan: 5), ["g"], "> 5 never matches the string \"5\"")
      expectIDs(c.whereField("n", isLessThan: Double.infinity), ["a", "b", "c", "d", "e", "f"])
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: -Double.infinity), ["a", "b", "c", "d", "e", "f", "g"])
      expectIDs(c.whereField("n", isGreaterThan: -1).whereField("n", isLessThan: 3), ["c", "d", "e"])
      expectIDs(c.whereField("n", isGreaterThan: 3).whereField("n", isLessThan: 3), [], "an empty range")
    }
  }

  @Test func equalityOnNaNAndInfinity() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("special"),
        [
          "a": ["inf": Double.infinity, "nan": Double.nan], "b": ["inf": -Double.infinity, "nan": 0],
          "c": ["nan": Double.nan, "null": NSNull()], "d": ["null": NSNull(), "nan": Double.nan],
          "e": ["null": false, "nan": Double.nan],
        ])
      expectIDs(c.whereField("inf", isEqualTo: Double.infinity), ["a"])
      expectIDs(c.whereField("inf", isEqualTo: -Double.infinity), ["b"])
      expectIDs(c.whereField("nan", isEqualTo: Double.nan), ["a", "c", "d", "e"], "== NaN matches NaN")
      expectIDs(c.whereField("null", isEqualTo: NSNull()), ["c", "d"], "== null matches null")
      expectIDs(
        c.whereField("null", isEqualTo: NSNull()).whereField("nan", isEqualTo: Double.nan), ["c", "d"],
        "Firestore's unary filter test")
    }
  }

  // MARK: - != and not-in

  /// The documents of Firestore's `testQueriesCanUseNotEqualFilters` and `NotInFilters`.
  private func zipCodes(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("zips"),
      [
        "a": ["zip": Double.nan],
        "b": ["zip": 91102],
        "c": ["zip": 98101],
        "d": ["zip": 98103],
        "e": ["zip": [98101]],
        "f": ["zip": [98101, 98102]],
        "g": ["zip": ["98101", ["zip": 98101]] as [Any]],
        "h": ["zip": ["code": 500]],
        "i": ["zip": NSNull()],
        "j": ["code": 500],
      ])
  }

  @Test func notEqualExcludesMissingAndNullFieldsAndOrdersByTheField() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipCodes(db)
      // != is an inequality: results are ordered by zip (NaN first, numbers, arrays, maps).
      expectIDs(c.whereField("zip", isNotEqualTo: 98101), ["a", "b", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", isNotEqualTo: 98101.0), ["a", "b", "d", "e", "f", "g", "h"], "98101.0 == 98101")
      expectIDs(c.whereField("zip", isNotEqualTo: ["code": 500]), ["a", "b", "c", "d", "e", "f", "g"])
      expectIDs(c.whereField("zip", isNotEqualTo: [NSNull()]), ["a", "b", "c", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", isNotEqualTo: Double.nan), ["b", "c", "d", "e", "f", "g", "h"], "NaN equals NaN")
      expectIDs(
        c.whereField("zip", isNotEqualTo: NSNull()), ["a", "b", "c", "d", "e", "f", "g", "h"],
        "!= null: every existing non-null value")
      expectIDs(c.whereField("zip", isNotEqualTo: "98101"), ["a", "b", "c", "d", "e", "f", "g", "h"])
    }
  }

  @Test func notInExcludesMissingAndNullAndMatchesNothingWithNullInTheList() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try zipCodes(db)
      expectIDs(c.whereField("zip", notIn: [98101, 98103, [98101, 98102]]), ["a", "b", "e", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [["code": 500]]), ["a", "b", "c", "d", "e", "f", "g"])
      expectIDs(c.whereField("zip", notIn: [NSNull()]), [], "a null in the list matches nothing")
      expectIDs(c.whereField("zip", notIn: [98101, NSNull()]), [], "a null in the list matches nothing")
      expectIDs(c.whereField("zip", notIn: [Double.nan]), ["b", "c", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [Double.nan, 98101]), ["b", "d", "e", "f", "g", "h"])
      expectIDs(c.whereField("zip", notIn: [98101.0, 91102.0]), ["a", "d", "e", "f", "g", "h"], "3 == 3.0 in not-in")
    }
  }

  // MARK: - in

  @Test func inMatchesWholeValuesIncludingArraysAndMaps() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("zips"),
        [
          "a": ["zip": 98101],
          "b": ["zip": 91102],
          "c": ["zip": 98103],
          "d": ["zip": [98101]],
          "e": ["zip": ["98101", ["zip": 98101]] as [Any]],
          "f": ["zip": ["code": 500]],
          "g": ["zip": [98101, 98102]],
          "h": ["zip": NSNull()],
          "i": ["zip": Double.nan],
        ])
      expectIDs(c.whereField("zip", in: [98101, 98103, [98101, 98102]]), ["a", "c", "g"], "arrays as values")
      expectIDs(c.whereField("zip", in: [["code": 500]]), ["f"])
      expectIDs(c.whereField("zip", in: [NSNull()]), [], "in [null] matches nothing")
      expectIDs(c.whereField("zip", in: [98101, NSNull()]), ["a"], "in [98101, null] matches only 98101")
      expectIDs(c.whereField("zip", in: [Double.nan]), [], "in [NaN] matches nothing")
      expectIDs(c.whereField("zip", in: [Double.nan, 98101]), ["a"])
      expectIDs(c.whereField("zip", in: [98101.0]), ["a"], "3 == 3.0 in in")
      expectIDs(c.whereField("zip", in: [[98101.0]]), ["d"], "[98101] == [98101.0]")
      expectIDs(c.whereField("zip", in: [98101, 98101]), ["a"], "duplicates in the list return a document once")
      expectIDs(c.whereField("zip", in: ["98101"]), [])
    }
  }

  // MARK: - array-contains, array-contains-any

  @Test func arrayContainsNeverMatchesNullOrNaN() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("arrays"),
        [
          "a": ["array": [42]],
          "b": ["array": ["a", 42, "c"] as [Any]],
          "c": ["array": [41.999, "42", ["a": [42]]] as [Any]],
          "d": ["array": [42], "array2": ["bingo"]],
          "e": ["array": [NSNull()]],
          "f": ["array": [Double.nan]],
          "g": ["array": 42],
          "h": ["array": [42, 42]],
        ])
      expectIDs(c.whereField("array", arrayContains: 42), ["a", "b", "d", "h"], "a non-array field never matches")
      expectIDs(c.whereField("array", arrayContains: 42.0), ["a", "b", "d", "h"], "42 == 42.0")
      expectIDs(c.whereField("array", arrayContains: NSNull()), [], "null operand matches nothing")
      expectIDs(c.whereField("array", arrayContains: Double.nan), [], "NaN operand matches nothing")
      expectIDs(c.whereField("array", arrayContains: "42"), ["c"])
      expectIDs(c.whereField("array", arrayContains: ["a": [42]]), ["c"], "maps as elements")
      expectIDs(c.whereField("array2", arrayContains: "bingo"), ["d"])
      expectIDs(c.whereField("array", arrayContains: 43), [])
    }
  }

  @Test func arrayContainsAnyNeverMatchesNullOrNaNAndReturnsEachDocumentOnce() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("arrays"),
        [
          "a": ["array": [42]],
          "b": ["array": ["a", 42, "c"] as [Any]],
          "c": ["array": [41.999, "42", ["a": [42]]] as [Any]],
          "d": ["array": [42], "array2": ["bingo"]],
          "e": ["array": [43]],
          "f": ["array": [["a": 42]]],
          "g": ["array": 42],
          "h": ["array": [NSNull()]],
          "i": ["array": [Double.nan]],
        ])
      expectIDs(c.whereField("array", arrayContainsAny: [42, 43]), ["a", "b", "d", "e"])
      expectIDs(c.whereField("array", arrayContainsAny: [["a": 42]]), ["f"])
      expectIDs(c.whereField("array", arrayContainsAny: [NSNull()]), [])
      expectIDs(c.whereField("array", arrayContainsAny: [NSNull(), 43]), ["e"])
      expectIDs(c.whereField("array", arrayContainsAny: [Double.nan]), [])
      expectIDs(c.whereField("array", arrayContainsAny: [Double.nan, 43]), ["e"])
      expectIDs(
        c.whereField("array", arrayContainsAny: [42, "a", "c"]), ["a", "b", "d"], "b matches thrice, once returned")
      expectIDs(c.whereField("array", arrayContainsAny: [43.0]), ["e"], "43 == 43.0")
    }
  }

  @Test func arrayContainsIsANDedWithInButNotWithAnotherArrayFilter() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("tags"),
        [
          "a": ["tags": ["x", "y"], "n": 1], "b": ["tags": ["x"], "n": 2], "c": ["tags": ["y", "z", "x"], "n": 3],
          "d": ["tags": ["z"], "n": 4],
        ])
      // Firestore's backend refuses a second array-contains in one conjunction (Google's
      // emulator: INVALID_ARGUMENT, this message); the SDKs stopped checking it client-side
      // in 2023 (firebase-ios-sdk Firestore/core/src/api/query_core.cc ConflictingOps,
      // firebase-js-sdk packages/firestore/src/lite-api/query.ts conflictingOps), so the
      // query builds and its run fails.
      let limit = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
      let twice = c.whereField("tags", arrayContains: "x").whereField("tags", arrayContains: "y")
      #expect(expectInvalidQuery(twice, mentioning: [limit])?.message == limit)
      // in and array-contains on the same field (Firestore's testQueriesCanUseInWithArrayContain).
      expectIDs(c.whereField("tags", arrayContains: "x").whereField("tags", in: [["x"], ["x", "y"]]), ["a", "b"])
      // in and array-contains-any on different fields.
      expectIDs(c.whereField("n", in: [1, 3, 4]).whereField("tags", arrayContainsAny: ["z", "q"]), ["c", "d"])
      // Two in filters on different fields.
      expectIDs(c.whereField("n", in: [1, 2, 3]).whereField("tags", in: [["x"], ["z"]]), ["b"])
    }
  }

  // MARK: - Strings

  @Test func stringsCompareByUTF8Bytes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("strings"),
        [
          "empty": ["s": ""], "upper": ["s": "B"], "a": ["s": "a"], "ab": ["s": "ab"], "eacute": ["s": "\u{E9}"],
          "replacement": ["s": "\u{FFFD}"], "smiley": ["s": "\u{1F600}"], "number": ["s": 5],
          "decomposed": ["s": "e\u{301}"],
        ])
      // Code point order (UTF-8 bytes): U+FFFD sorts before U+1F600 though UTF-16 puts the
      // surrogate pair first; "e\u{301}" (decomposed) is not "\u{E9}" and sorts before it.
      expectIDs(
        c.order(by: "s"), ["number", "empty", "upper", "a", "ab", "decomposed", "eacute", "replacement", "smiley"])
      expectIDs(
        c.whereField("s", isGreaterThanOrEqualTo: "a"), ["a", "ab", "decomposed", "eacute", "replacement", "smiley"])
      expectIDs(c.whereField("s", isLessThan: "a"), ["empty", "upper"])
      expectIDs(c.whereField("s", isGreaterThan: "\u{FFFD}"), ["smiley"])
      expectIDs(c.whereField("s", isEqualTo: "\u{E9}"), ["eacute"], "no Unicode normalisation")
      expectIDs(c.whereField("s", isEqualTo: "e\u{301}"), ["decomposed"], "no Unicode normalisation")
      expectIDs(
        c.whereField("s", isGreaterThanOrEqualTo: "a").whereField("s", isLessThan: "a\u{F8FF}"), ["a", "ab"],
        "prefix range")
      expectIDs(c.whereField("s", isGreaterThan: 4), ["number"], "a number operand matches only numbers")
      expectIDs(
        c.whereField("s", isGreaterThanOrEqualTo: ""),
        ["empty", "upper", "a", "ab", "decomposed", "eacute", "replacement", "smiley"])
    }
  }

  // MARK: - Timestamps

  private static func micros(_ seconds: Int64, _ micros: Int32) -> Timestamp {
    Timestamp(seconds: seconds, nanoseconds: micros * 1000)
  }

  @Test func timestampRangesAndOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("times"),
        [
          "a": ["t": Self.micros(100, 7)], "b": ["t": Self.micros(100, 4)], "c": ["t": Self.micros(100, 8)],
          "d": ["t": Self.micros(100, 5)], "e": ["t": Self.micros(100, 6)], "f": ["t": 100],
          "g": ["t": "100"], "h": ["t": Self.micros(-1, 999_999)],
        ])
      expectIDs(
        c.whereField("t", isGreaterThanOrEqualTo: Self.micros(100, 5)).whereField("t", isLessThan: Self.micros(100, 8)),
        ["d", "e", "a"])
      expectIDs(c.whereField("t", isLessThan: Self.micros(100, 0)), ["h"], "before the epoch")
      expectIDs(c.whereField("t", isGreaterThan: 0), ["f"], "a number never matches a timestamp")
      expectIDs(c.whereField("t", isEqualTo: Self.micros(100, 6)), ["e"])
      expectIDs(c.order(by: "t"), ["f", "h", "b", "d", "e", "a", "c", "g"], "numbers < timestamps < strings")
    }
  }

  @Test func timestampOperandsAreTruncatedToMicroseconds() throws {
    try withDatabase(settings: relaxed) { db in
      let nanos = Timestamp(seconds: 0, nanoseconds: 123_456_789)
      let micros = Timestamp(seconds: 0, nanoseconds: 123_456_000)
      let millis = Timestamp(seconds: 0, nanoseconds: 123_000_000)
      let c = try seed(db.collection("times"), ["a": ["t": nanos]])
      expectIDs(c.whereField("t", isEqualTo: nanos), ["a"], "both sides truncated")
      expectIDs(c.whereField("t", isEqualTo: micros), ["a"])
      expectIDs(c.whereField("t", isEqualTo: millis), [])
      expectIDs(c.whereField("t", isEqualTo: Timestamp(seconds: 0, nanoseconds: 123_456_999)), ["a"])
      expectIDs(
        c.whereField("t", isGreaterThan: Timestamp(seconds: 0, nanoseconds: 123_456_001)), [], "> truncates too")
      expectIDs(c.whereField("t", isLessThanOrEqualTo: Timestamp(seconds: 0, nanoseconds: 123_456_500)), ["a"])
      expectIDs(c.whereField("t", in: [Timestamp(seconds: 0, nanoseconds: 123_456_789)]), ["a"])
    }
  }

  @Test func datesAreTimestampsInFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("dates"),
        [
          "a": ["t": Date(timeIntervalSince1970: 100)], "b": ["t": Timestamp(seconds: 200, nanoseconds: 0)],
          "c": ["t": Date(timeIntervalSince1970: 300)],
        ])
      expectIDs(c.whereField("t", isEqualTo: Timestamp(seconds: 100, nanoseconds: 0)), ["a"])
      expectIDs(c.whereField("t", isEqualTo: Date(timeIntervalSince1970: 200)), ["b"])
      expectIDs(c.whereField("t", isGreaterThan: Date(timeIntervalSince1970: 150)), ["b", "c"])
    }
  }

  // MARK: - Booleans, null

  @Test func booleansAreTheirOwnTypeClass() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("bools"),
        ["a": ["b": true], "b": ["b": false], "c": ["b": 1], "d": ["b": 0], "e": ["b": "true"], "f": ["b": NSNull()]])
      expectIDs(c.whereField("b", isEqualTo: true), ["a"])
      expectIDs(c.whereField("b", isEqualTo: false), ["b"])
      expectIDs(c.whereField("b", isEqualTo: 1), ["c"], "1 is not true")
      expectIDs(c.whereField("b", isGreaterThan: false), ["a"])
      expectIDs(c.whereField("b", isLessThan: true), ["b"])
      expectIDs(c.whereField("b", isLessThanOrEqualTo: true), ["b", "a"])
      expectIDs(c.whereField("b", isNotEqualTo: false), ["a", "d", "c", "e"], "true < numbers < strings")
      expectIDs(c.whereField("b", in: [true, 0]), ["a", "d"])
    }
  }

  @Test func nullMatchesOnlyEqualityToNull() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nulls"),
        ["a": ["v": NSNull()], "b": ["w": 1], "c": ["v": 0], "d": ["v": false], "e": ["v": ""], "f": ["v": [NSNull()]]])
      expectIDs(c.whereField("v", isEqualTo: NSNull()), ["a"], "a missing field is not null")
      expectIDs(c.whereField("v", isNotEqualTo: NSNull()), ["d", "c", "e", "f"])
      expectIDs(c.whereField("v", in: [NSNull()]), [])
      expectIDs(c.whereField("v", notIn: [NSNull()]), [])
      expectIDs(c.whereField("v", isEqualTo: [NSNull()]), ["f"])
      expectIDs(c.whereField("v", arrayContains: NSNull()), [], "array-contains null matches nothing")
    }
  }

  // MARK: - Maps and arrays as values

  @Test func mapsCompareKeyByKey() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("maps"),
        [
          "a": ["m": ["x": 1]], "b": ["m": ["x": 1.0]], "c": ["m": ["x": 2]], "d": ["m": ["x": 1, "y": 0]],
          "e": ["m": [String: Any]()], "f": ["m": ["y": 0]], "g": ["m": "str"], "h": ["m": ["x": ["z": 1]]],
        ])
      expectIDs(c.whereField("m", isEqualTo: ["x": 1]), ["a", "b"], "{x:1} == {x:1.0}")
      expectIDs(c.whereField("m", isEqualTo: [String: Any]()), ["e"])
      // Maps: keys sorted; compare key, then value, pair by pair; then size.
      expectIDs(c.whereField("m", isGreaterThan: ["x": 1]), ["d", "c", "h", "f"])
      expectIDs(c.whereField("m", isLessThan: ["x": 1]), ["e"])
      expectIDs(c.whereField("m.x", isEqualTo: 1), ["a", "b", "d"], "a nested field path")
      expectIDs(c.whereField(FieldPath(["m", "x"]), isEqualTo: 1), ["a", "b", "d"])
      expectIDs(c.whereField("m.x", isGreaterThan: 1), ["c"])
      expectIDs(c.whereField("m.x.z", isEqualTo: 1), ["h"])
      expectIDs(c.whereField("m", notIn: [["x": 1], "str"]), ["e", "d", "c", "h", "f"])
    }
  }

  @Test func arraysCompareElementByElementThenByLength() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("arrays"),
        [
          "a": ["arr": [1, 2]], "b": ["arr": [1]], "c": ["arr": [1.0, 2.0]], "d": ["arr": [2]], "e": ["arr": [Any]()],
          "f": ["arr": [1, "a"] as [Any]], "g": ["arr": "x"],
        ])
      expectIDs(c.whereField("arr", isEqualTo: [1, 2]), ["a", "c"], "[1, 2] == [1.0, 2.0]")
      expectIDs(c.whereField("arr", isGreaterThan: [1]), ["a", "c", "f", "d"])
      expectIDs(c.whereField("arr", isLessThan: [1]), ["e"])
      expectIDs(c.whereField("arr", in: [[1], [2]]), ["b", "d"])
      expectIDs(c.whereField("arr", isEqualTo: [Any]()), ["e"])
    }
  }

  @Test func referencesBytesAndGeoPointsFilterAndOrder() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("things"),
        [
          "r1": ["v": db.document("x/b")], "r2": ["v": db.document("x/a")], "r3": ["v": db.document("y/a")],
          "r4": ["v": db.document("x/a/sub/c")],
          "b1": ["v": Data([2])], "b2": ["v": Data([1, 0])], "b3": ["v": Data([1])], "b4": ["v": Data()],
          "g1": ["v": GeoPoint(latitude: 0, longitude: 1)], "g2": ["v": GeoPoint(latitude: 0, longitude: 0)],
          "g3": ["v": GeoPoint(latitude: -1, longitude: 5)], "g4": ["v": GeoPoint(latitude: 1, longitude: -180)],
        ])
      // bytes < references < geopoints; within each, their own order.
      expectIDs(c.order(by: "v"), ["b4", "b3", "b2", "b1", "r2", "r4", "r1", "r3", "g3", "g2", "g1", "g4"])
      expectIDs(c.whereField("v", isEqualTo: db.document("x/a")), ["r2"])
      expectIDs(c.whereField("v", isGreaterThan: db.document("x/a")), ["r4", "r1", "r3"])
      expectIDs(c.whereField("v", isEqualTo: Data([1, 0])), ["b2"])
      expectIDs(c.whereField("v", isLessThan: Data([1, 0])), ["b4", "b3"])
      expectIDs(c.whereField("v", isEqualTo: GeoPoint(latitude: 0, longitude: 0)), ["g2"])
      expectIDs(c.whereField("v", isGreaterThan: GeoPoint(latitude: 0, longitude: 0)), ["g1", "g4"])
      expectIDs(c.whereField("v", in: [db.document("y/a"), Data([2])]), ["b1", "r3"])
    }
  }

  // MARK: - Field paths

  @Test func dottedStringsAreNestedPathsAndFieldPathNamesAreLiteral() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("paths"),
        ["x": ["a.b": 1], "y": ["a": ["b": 1]], "z": ["a": ["b": 2], "a.b": 2]])
      expectIDs(c.whereField("a.b", isEqualTo: 1), ["y"])
      expectIDs(c.whereField(FieldPath(["a.b"]), isEqualTo: 1), ["x"])
      expectIDs(c.whereField(FieldPath(["a", "b"]), isGreaterThan: 0), ["y", "z"])
      expectIDs(c.whereField(FieldPath(["a.b"]), isGreaterThan: 0), ["x", "z"])
      expectIDs(c.order(by: FieldPath(["a.b"]), descending: true), ["z", "x"])
    }
  }

  @Test func everyOperatorTakesAFieldPath() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("fp"),
        ["a": ["v": 1, "t": ["x"]], "b": ["v": 2, "t": ["y"]], "c": ["v": 3, "t": ["x", "y"]]])
      let v = FieldPath(["v"])
      let t = FieldPath(["t"])
      expectIDs(c.whereField(v, isEqualTo: 2), ["b"])
      expectIDs(c.whereField(v, isNotEqualTo: 2), ["a", "c"])
      expectIDs(c.whereField(v, isLessThan: 2), ["a"])
      expectIDs(c.whereField(v, isLessThanOrEqualTo: 2), ["a", "b"])
      expectIDs(c.whereField(v, isGreaterThan: 2), ["c"])
      expectIDs(c.whereField(v, isGreaterThanOrEqualTo: 2), ["b", "c"])
      expectIDs(c.whereField(t, arrayContains: "y"), ["b", "c"])
      expectIDs(c.whereField(t, arrayContainsAny: ["x", "z"]), ["a", "c"])
      expectIDs(c.whereField(v, in: [1, 3]), ["a", "c"])
      expectIDs(c.whereField(v, notIn: [1, 3]), ["b"])
    }
  }

  @Test func equalityFiltersOnSeveralFieldsAreANDed() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("and"),
        ["a": ["x": 1, "y": 1], "b": ["x": 1, "y": 2], "c": ["x": 2, "y": 2], "d": ["x": 1], "e": ["y": 2]])
      expectIDs(c.whereField("x", isEqualTo: 1).whereField("y", isEqualTo: 2), ["b"])
      expectIDs(c.whereField("x", isEqualTo: 1).whereField("x", isEqualTo: 2), [], "contradictory equalities")
      expectIDs(c.whereField("x", isEqualTo: 1).whereField("y", isGreaterThan: 0), ["a", "b"])
      expectIDs(c.whereField("y", isEqualTo: 2).whereField("x", isNotEqualTo: 1), ["c"])
      expectIDs(c.whereField("x", isNotEqualTo: 2).whereField("y", in: [1, 2]), ["a", "b"])
    }
  }

  @Test func filtersSeeOnlyTheCollectionsDirectChildren() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "c/a": ["v": 1], "c/b": ["v": 2], "c/a/c/x": ["v": 1], "other/y": ["v": 1], "c2/z": ["v": 1],
          "c/b/sub/w": ["v": 1],
        ])
      expectPaths(db.collection("c").whereField("v", isEqualTo: 1), ["c/a"])
      expectPaths(db.collection("c/a/c").whereField("v", isEqualTo: 1), ["c/a/c/x"])
      expectPaths(db.collection("c").whereField("v", isGreaterThan: 0), ["c/a", "c/b"])
    }
  }

  @Test func longValuesFilterAndOrderExactly() throws {
    try withDatabase(settings: relaxed) { db in
      // Longer than any index key: results must stay exact however values are indexed.
      let prefix = String(repeating: "x", count: 3000)
      let bytes = Data(repeating: 7, count: 3000)
      let c = try seed(
        db.collection("long"),
        [
          "p1": ["s": prefix + "a", "b": bytes + Data([1]), "tags": [prefix + "a"], "m": ["k": prefix + "a"]],
          "p2": [
            "s": prefix + "b", "b": bytes + Data([2]), "tags": [prefix + "b", "short"], "m": ["k": prefix + "b"],
          ],
          "p3": ["s": prefix + "c", "b": bytes, "tags": [prefix], "m": ["k": prefix]],
          "p4": ["s": prefix, "b": bytes + Data([0]), "tags": ["short"], "m": ["k": prefix + "c"]],
        ])
      expectIDs(c.whereField("s", isEqualTo: prefix + "b"), ["p2"])
      expectIDs(c.whereField("s", isEqualTo: prefix), ["p4"])
      expectIDs(c.whereField("s", isGreaterThan: prefix + "a"), ["p2", "p3"])
      expectIDs(c.whereField("s", isLessThanOrEqualTo: prefix + "a"), ["p4", "p1"])
      expectIDs(c.order(by: "s", descending: true), ["p3", "p2", "p1", "p4"])
      expectIDs(c.whereField("s", in: [prefix + "c", prefix]), ["p3", "p4"])
      expectIDs(c.whereField("s", notIn: [prefix + "c", prefix]), ["p1", "p2"])
      expectIDs(c.whereField("s", isNotEqualTo: prefix + "a"), ["p4", "p2", "p3"])
      expectIDs(c.whereField("b", isEqualTo: bytes), ["p3"])
      expectIDs(c.order(by: "b"), ["p3", "p4", "p1", "p2"])
      expectIDs(c.whereField("tags", arrayContains: prefix + "b"), ["p2"])
      expectIDs(c.whereField("tags", arrayContains: prefix), ["p3"])
      expectIDs(c.whereField("tags", arrayContainsAny: [prefix + "a", prefix]), ["p1", "p3"])
      expectIDs(c.whereField("m", isEqualTo: ["k": prefix + "b"]), ["p2"])
      expectIDs(c.whereField("m.k", isGreaterThan: prefix), ["p1", "p2", "p4"])
      expectIDs(c.order(by: "m", descending: true).limit(to: 2), ["p4", "p2"])
      // Cursors among values that share a prefix longer than any index key.
      expectIDs(c.order(by: "s").start(after: [prefix + "a"]), ["p2", "p3"])
      expectIDs(c.order(by: "s").start(at: [prefix + "a"]).limit(to: 2), ["p1", "p2"])
      expectIDs(c.order(by: "s", descending: true).start(after: [prefix + "c"]).end(at: [prefix + "a"]), ["p2", "p1"])
      expectIDs(c.order(by: "s").limit(toLast: 2), ["p2", "p3"])
      expectIDs(c.order(by: "s").limit(to: 1), ["p4"])
      expectIDs(c.order(by: "s", descending: true).limit(to: 1), ["p3"])
      expectIDs(c.order(by: "s", descending: true).limit(toLast: 1), ["p4"])
      let p2 = try c.document("p2").getDocument()
      expectIDs(c.order(by: "s").start(afterDocument: p2), ["p3"])
      expectIDs(c.order(by: "s", descending: true).start(afterDocument: p2), ["p1", "p4"])
      let p1 = try c.document("p1").getDocument()
      let p4 = try c.document("p4").getDocument()
      expectIDs(c.order(by: "s", descending: true).start(atDocument: p1), ["p1", "p4"])
      expectIDs(c.order(by: "s").start(afterDocument: p4), ["p1", "p2", "p3"])
      expectIDs(c.order(by: "s").end(atDocument: p1), ["p4", "p1"])
      expectIDs(c.order(by: "s", descending: true).end(beforeDocument: p4), ["p3", "p2", "p1"])
      expectIDs(c.whereField("s", isGreaterThan: prefix).order(by: "s", descending: true).limit(to: 2), ["p3", "p2"])
    }
  }

  @Test func longDocumentIDsFilterAndOrderExactly() throws {
    try withDatabase(settings: relaxed) { db in
      // Hearth stores IDs up to 256 bytes (ResourcePath.maxIDBytes; Firestore: 1,500).
      let prefix = String(repeating: "i", count: 250)
      let c = try seed(
        db.collection("longIDs"),
        [prefix + "b": ["v": 1], prefix + "a": ["v": 1], prefix: ["v": 2], prefix + "c": ["v": 1]])
      expectIDs(c, [prefix, prefix + "a", prefix + "b", prefix + "c"])
      expectIDs(
        c.whereField("v", isEqualTo: 1).order(by: FieldPath.documentID(), descending: true),
        [prefix + "c", prefix + "b", prefix + "a"])
      expectIDs(c.whereField(FieldPath.documentID(), isGreaterThan: prefix + "a"), [prefix + "b", prefix + "c"])
      expectIDs(c.whereField(FieldPath.documentID(), isEqualTo: prefix), [prefix])
    }
  }

  @Test func unusualFieldNamesWork() throws {
    try withDatabase(settings: relaxed) { db in
      let names = ["a`b", "ü", "\u{1F600}", "with space", "a.b", "__x", "0", "-", "a\\b"]
      var documents: [String: [String: Any]] = [:]
      for (i, name) in names.enumerated() {
        documents["d\(i)"] = [name: i, "n": ["inner": [name: i]]]
      }
      let c = try seed(db.collection("names"), documents)
      for (i, name) in names.enumerated() {
        expectIDs(c.whereField(FieldPath([name]), isEqualTo: i), ["d\(i)"], "field \(name)")
        expectIDs(c.whereField(FieldPath([name]), isGreaterThanOrEqualTo: 0), ["d\(i)"], "range on \(name)")
        expectIDs(c.whereField(FieldPath(["n", "inner", name]), isEqualTo: i), ["d\(i)"], "nested \(name)")
        expectIDs(c.order(by: FieldPath([name])), ["d\(i)"], "order by \(name)")
      }
    }
  }

  @Test func writesInBatchesAndTransactionsAreVisibleToQueries() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("writes"), ["a": ["v": 1], "b": ["v": 2], "c": ["v": 3]])
      let batch = db.batch()
      batch.setData(["v": 2], forDocument: c.document("d"))
      batch.deleteDocument(c.document("b"))
      batch.updateData(["v": 2], forDocument: c.document("c"))
      try batch.commit()
      expectIDs(c.whereField("v", isEqualTo: 2), ["c", "d"])
      _ = try db.runTransaction { transaction -> Int in
        _ = try transaction.getDocument(c.document("a"))
        transaction.setData(["v": 2, "w": true], forDocument: c.document("a"))
        transaction.deleteDocument(c.document("d"))
        return 0
      }
      expectIDs(c.whereField("v", isEqualTo: 2), ["a", "c"])
      expectIDs(c.whereField("w", isEqualTo: true), ["a"])
      try c.document("a").setData(["v": 5], merge: true)
      expectIDs(c.whereField("w", isEqualTo: true), ["a"], "a merge keeps the other fields")
      try c.document("a").setData(["v": 5])
      expectIDs(c.whereField("w", isEqualTo: true), [], "a replacing set drops the other fields")
      try c.document("c").collection("sub").document("x").setData(["v": 2])
      try db.recursiveDelete(c.document("c"))
      expectIDs(c.whereField("v", isEqualTo: 2), [])
      expectIDs(db.collectionGroup("sub"), [])
    }
  }

  @Test func signedZerosAndTinyNumbersInRanges() throws {
    try withDatabase(settings: relaxed) { db in
      let tiny = Double.leastNonzeroMagnitude
      let c = try seed(
        db.collection("zeros"),
        [
          "minusZero": ["n": -0.0], "zero": ["n": 0], "zeroDouble": ["n": 0.0], "minusTiny": ["n": -tiny],
          "tiny": ["n": tiny], "minusOne": ["n": -1], "one": ["n": 1],
        ])
      expectIDs(c.whereField("n", isLessThan: 0), ["minusOne", "minusTiny"])
      expectIDs(c.whereField("n", isLessThan: -0.0), ["minusOne", "minusTiny"], "-0.0 is 0 in ranges")
      expectIDs(c.whereField("n", isGreaterThanOrEqualTo: 0), ["minusZero", "zero", "zeroDouble", "tiny", "one"])
      expectIDs(c.whereField("n", isGreaterThan: -0.0), ["tiny", "one"])
      expectIDs(
        c.whereField("n", isLessThanOrEqualTo: 0.0), ["minusOne", "minusTiny", "minusZero", "zero", "zeroDouble"])
      expectIDs(c.whereField("n", isNotEqualTo: 0), ["minusOne", "minusTiny", "tiny", "one"])
      expectIDs(c.whereField("n", in: [-0.0]), ["minusZero", "zero", "zeroDouble"])
      expectIDs(c.whereField("n", notIn: [0]), ["minusOne", "minusTiny", "tiny", "one"])
      expectIDs(
        c.order(by: "n", descending: true), ["one", "tiny", "zeroDouble", "zero", "minusZero", "minusTiny", "minusOne"])
      expectIDs(c.order(by: "n").start(after: [0]), ["tiny", "one"])
      expectIDs(c.order(by: "n").end(before: [-0.0]), ["minusOne", "minusTiny"])
    }
  }

  @Test func stringsWithNULAndBytesWithExtremeValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nul"),
        [
          "s1": ["v": "a"], "s2": ["v": "a\u{0}"], "s3": ["v": "a\u{0}b"], "s4": ["v": "ab"], "s5": ["v": "\u{0}"],
          "s6": ["v": "a\u{7F}"], "s7": ["v": "a\u{80}"],
          "b1": ["v": Data([0])], "b2": ["v": Data([0, 0])], "b3": ["v": Data([0xFF])], "b4": ["v": Data([0xFF, 0])],
          "b5": ["v": Data([0x7F, 0xFF])],
        ])
      // "\0" < "a" < "a\0" < "a\0b" < "ab" < "a\u{7F}" < "a\u{80}" (UTF-8: 61 C2 80).
      expectIDs(c.order(by: "v"), ["s5", "s1", "s2", "s3", "s4", "s6", "s7", "b1", "b2", "b5", "b3", "b4"])
      expectIDs(c.whereField("v", isEqualTo: "a\u{0}"), ["s2"])
      expectIDs(c.whereField("v", isEqualTo: "a"), ["s1"])
      expectIDs(c.whereField("v", isGreaterThan: "a").whereField("v", isLessThan: "ab"), ["s2", "s3"])
      expectIDs(c.whereField("v", isGreaterThan: "ab").whereField("v", isLessThan: "b"), ["s6", "s7"])
      expectIDs(c.whereField("v", isGreaterThanOrEqualTo: "a\u{0}").limit(to: 2), ["s2", "s3"])
      expectIDs(c.whereField("v", isEqualTo: Data([0, 0])), ["b2"])
      expectIDs(c.whereField("v", isGreaterThan: Data([0xFF])), ["b4"])
      expectIDs(c.whereField("v", isLessThan: Data([0xFF])), ["b1", "b2", "b5"])
      expectIDs(c.order(by: "v", descending: true).limit(to: 3), ["b4", "b3", "b5"])
    }
  }

  @Test func extremeTimestampsAndReferencePaths() throws {
    try withDatabase(settings: relaxed) { db in
      let first = Timestamp(seconds: -62_135_596_800, nanoseconds: 0)  // 0001-01-01
      let last = Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000)  // 9999-12-31
      let c = try seed(
        db.collection("extremes"),
        [
          "first": ["t": first, "r": db.document("k/a-b")],
          "epochMinus": ["t": Timestamp(seconds: -1, nanoseconds: 999_999_000), "r": db.document("k/a/c/d")],
          "epoch": ["t": Timestamp(seconds: 0, nanoseconds: 0), "r": db.document("k/a")],
          "last": ["t": last, "r": db.document("k/a/c/d/e/f")],
          "nanos": ["t": Timestamp(seconds: 0, nanoseconds: 1000), "r": db.document("ka/b")],
        ])
      expectIDs(c.order(by: "t"), ["first", "epochMinus", "epoch", "nanos", "last"])
      expectIDs(c.whereField("t", isLessThan: Timestamp(seconds: 0, nanoseconds: 0)), ["first", "epochMinus"])
      expectIDs(c.whereField("t", isGreaterThan: Timestamp(seconds: 0, nanoseconds: 0)), ["nanos", "last"])
      expectIDs(c.whereField("t", isEqualTo: last), ["last"])
      expectIDs(c.whereField("t", isEqualTo: first), ["first"])
      // References compare segment by segment: k/a < k/a/c/d < k/a/c/d/e/f < k/a-b < ka/b,
      // though the path strings put "k/a-b" before "k/a/c/d" ('-' < '/').
      expectIDs(c.order(by: "r"), ["epoch", "epochMinus", "last", "first", "nanos"])
      expectIDs(c.whereField("r", isGreaterThan: db.document("k/a/c/d")), ["last", "first", "nanos"])
      expectIDs(c.whereField("r", isLessThan: db.document("k/a-b")), ["epoch", "epochMinus", "last"])
    }
  }

  @Test func sameFieldValuesInOtherCollectionsStayOut() throws {
    try withDatabase(settings: relaxed) { db in
      try seed(
        db,
        paths: [
          "users/alice/posts/p1": ["v": 1, "tags": ["x"]], "users/bob/posts/p1": ["v": 1, "tags": ["x"]],
          "users/bob/posts/p2": ["v": 2, "tags": ["x"]], "users/alice/posts/p3": ["v": 3, "tags": ["y"]],
          "posts/p1": ["v": 1, "tags": ["x"]], "users/alice/posts2/p1": ["v": 1, "tags": ["x"]],
          "users/alice/post/p1": ["v": 1, "tags": ["x"]], "users/alice": ["v": 1, "tags": ["x"]],
          "users/alice/posts/p1/posts/q": ["v": 1, "tags": ["x"]],
        ])
      let alice = db.collection("users/alice/posts")
      expectPaths(alice.whereField("v", isEqualTo: 1), ["users/alice/posts/p1"])
      expectPaths(alice.whereField("v", isGreaterThan: 0), ["users/alice/posts/p1", "users/alice/posts/p3"])
      expectPaths(alice.whereField("tags", arrayContains: "x"), ["users/alice/posts/p1"])
      expectPaths(alice.order(by: "v", descending: true), ["users/alice/posts/p3", "users/alice/posts/p1"])
      expectPaths(db.collection("users").whereField("v", isEqualTo: 1), ["users/alice"])
      expectPaths(
        db.collectionGroup("posts").whereField("v", isEqualTo: 1),
        ["posts/p1", "users/alice/posts/p1", "users/alice/posts/p1/posts/q", "users/bob/posts/p1"])
      expectPaths(
        db.collectionGroup("posts").whereField("tags", arrayContains: "x").order(by: "v", descending: true).limit(
          to: 2),
        ["users/bob/posts/p2", "users/bob/posts/p1"])
    }
  }

  @Test func resultsCarryTheDocumentsData() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("data"),
        ["a": ["n": 1, "s": "x", "m": ["k": 1.5]], "b": ["n": 2, "s": "y", "m": ["k": 2.5]]])
      let snapshot = try c.whereField("n", isGreaterThan: 1).getDocuments()
      let documents = snapshot.documents
      try #require(documents.count == 1)
      expectSame(documents[0].data(), ["n": 2, "s": "y", "m": ["k": 2.5]])
      let path = documents[0].reference.path
      #expect(path == "data/b")
      let exists = documents[0].exists
      #expect(exists)
    }
  }
}
