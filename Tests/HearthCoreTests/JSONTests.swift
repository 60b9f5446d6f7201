import Foundation
import HearthTestSupport
import Testing

@testable import HearthCore

// The JSON parser and writer, and extended JSON over them: exact round trips of every
// value type and edge value, and errors with positions (never a crash) for bad input.

// MARK: - Helpers

/// The parse error for `text`, recording an issue when it parses.
private func parseError(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParseError? {
  do {
    let value = try JSONParser.parse(text, maxDepth: maxDepth)
    Issue.record("expected a parse error for \(text.debugDescription), got \(value)")
    return nil
  } catch {
    return error
  }
}

/// Value → extended JSON text (compact and pretty) → Value, checked identical.
private func expectRoundTrip(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
  for pretty in [false, true] {
    let text = ExtendedJSONCodec.json(from: value).serialized(pretty: pretty)
    let back = try ExtendedJSONCodec.value(fromText: text)
    #expect(back.isIdentical(to: value), "\(value) → \(text) → \(back)", sourceLocation: sourceLocation)
  }
}

private func expectInvalidArgument(
  _ text: String, mentioning fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let value = try ExtendedJSONCodec.value(fromText: text)
    Issue.record("expected an error for \(text), got \(value)", sourceLocation: sourceLocation)
  } catch let error as HearthError {
    #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
    for fragment in fragments {
      #expect(error.message.contains(fragment), "\(error.message) lacks \(fragment)", sourceLocation: sourceLocation)
    }
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
  }
}

// MARK: - Parser

@Suite struct JSONParserTests {
  @Test func parsesEveryType() throws {
    let value = try JSONParser.parse(
      #" {"s": "x", "i": -12, "d": 1.5, "e": 1e3, "t": true, "f": false, "n": null, "a": [1, [2]], "o": {}} "#)
    #expect(
      value
        == .object([
          ("s", .string("x")), ("i", .integer(-12)), ("d", .double(1.5)), ("e", .double(1000)),
          ("t", .bool(true)), ("f", .bool(false)), ("n", .null), ("a", .array([.integer(1), .array([.integer(2)])])),
          ("o", .object([])),
        ]))
  }

  @Test func keepsIntegersApartFromDoubles() throws {
    #expect(try JSONParser.parse("2") == .integer(2))
    #expect(try JSONParser.parse("2.0") == .double(2))
    #expect(try JSONParser.parse("2e0") == .double(2))
    #expect(try JSONParser.parse("-0") == .integer(0))
    #expect(try JSONParser.parse("-0.0") == .double(-0.0))
    #expect(try JSONParser.parse("-0.0") != .double(0.0))
  }

  @Test func integersAreExactInt64() throws {
    #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
    #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
    #expect(try JSONParser.parse("9007199254740993") == .integer(9_007_199_254_740_993))
    let tooBig = parseError("[1, 9223372036854775808]")
    #expect(tooBig?.column == 5)
    #expect(tooBig?.message.contains("does not fit in 64 bits") == true)
    #expect(parseError("-9223372036854775809")?.message.contains("64 bits") == true)
    #expect(parseError(String(repeating: "9", count: 400)) != nil)
  }

  @Test func doublesParseToTheNearestDouble() throws {
    #expect(try JSONParser.parse("0.1") == .double(0.1))
    #expect(try JSONParser.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    #expect(try JSONParser.parse("4.9e-324") == .double(.leastNonzeroMagnitude))
    #expect(try JSONParser.parse("1E+2") == .double(100))
  }

  @Test func keepsObjectKeyOrder() throws {
    guard case .object(let members) = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#) else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["z", "a", "m"])
  }

  @Test func decodesEveryEscape() throws {
    #expect(try JSONParser.parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
    #expect(try JSONParser.parse(#""\u0041\u00e9\u4E2D\u0000""#) == .string("Aé中\u{0}"))
    // A surrogate pair is one scalar beyond the BMP.
    #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try JSONParser.parse(#""😀 raw""#) == .string("😀 raw"))
  }

  @Test func reportsLineColumnAndOffset() throws {
    let error = try #require(parseError(#"{"name": "Alice" "age": 3}"#))
    #expect(error.line == 1)
    #expect(error.column == 18)
    #expect(error.offset == 17)
    #expect(error.description == #"line 1, column 18: expected ',' or '}', found '"'"#)

    let multiline = try #require(parseError("{\n  \"a\": 1,\n  \"é\": tru\n}"))
    #expect(multiline.line == 3)
    #expect(multiline.column == 8)  // columns count characters, not bytes
    #expect(multiline.message.contains("'tru'"))
  }

  @Test(arguments: [
    ("", "empty input"),
    ("   ", "found end of input"),
    ("{", "expected a key"),
    (#"{"a""#, "expected ':'"),
    (#"{"a":"#, "found end of input"),
    (#"{"a": 1"#, "expected ',' or '}'"),
    ("[1, 2", "expected ',' or ']'"),
    (#""abc"#, "unterminated string"),
    ("\"a\nb\"", "line break inside a string"),
    ("\"a\u{1}b\"", "control character U+0001"),
    (#""\x""#, "invalid escape '\\x'"),
    (#""\u12""#, "expected 4 hex digits"),
    (#""\uZZZZ""#, "expected 4 hex digits"),
    (#""\uD800""#, "lone high surrogate \\uD800"),
    (#""\uD800x""#, "lone high surrogate"),
    (#""\uD800\u0041""#, "not a low surrogate"),
    (#""\uDC00""#, "lone low surrogate \\uDC00"),
    ("[1, 2,]", "trailing comma"),
    (#"{"a": 1,}"#, "trailing comma"),
    ("01", "leading zeros"),
    ("-01", "leading zeros"),
    ("1.", "expected a digit after the decimal point"),
    ("1.e5", "expected a digit after the decimal point"),
    (".5", "found '.'"),
    ("+1", "found '+'"),
    ("-", "expected a digit after '-'"),
    ("1e", "expected a digit in the exponent"),
    ("1e+", "expected a digit in the exponent"),
    ("1e400", "too large for a double"),
    ("-1e99999999999999999999", "too large for a double"),
    ("NaN", "found 'NaN'"),
    ("Infinity", "found 'Infinity'"),
    ("nul", "found 'nul'"),
    ("truex", "found 'truex'"),
    ("'a'", "double quotes"),
    ("{'a': 1}", "double quotes"),
    (#"{"a": 1, "a": 2}"#, "duplicate key \"a\""),
    ("[1] [2]", "after the JSON value"),
    ("1 2", "after the JSON value"),
    ("// c\n1", "found '/'"),
    ("{a: 1}", "expected a key in double quotes, found 'a'"),
  ])
  func rejectsMalformedInput(text: String, fragment: String) throws {
    let error = try #require(parseError(text))
    #expect(error.message.contains(fragment), "\(text.debugDescription): \(error)")
    #expect(error.line >= 1 && error.column >= 1 && error.offset >= 0 && error.offset <= text.utf8.count)
  }

  @Test func limitsNesting() throws {
    let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(throws: Never.self) { try JSONParser.parse(ok) }
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    let error = try #require(parseError(deep))
    #expect(error.message.contains("nested more than 64 levels"))
    #expect(error.column == 65)
    // Hostile depth ends quickly, without exhausting the stack.
    let hostile = String(repeating: #"{"a":"#, count: 100_000)
    #expect(parseError(hostile)?.message.contains("nested") == true)
    #expect(parseError("[[1]]", maxDepth: 1) != nil)
  }

  @Test func validatesUTF8Bytes() throws {
    #expect(try JSONParser.parse(utf8: Array(#"{"é": 1}"#.utf8)) == .object([("é", .integer(1))]))
    do {
      _ = try JSONParser.parse(utf8: [0x22, 0x61, 0xFF, 0x22])
      Issue.record("invalid UTF-8 parsed")
    } catch {
      #expect(error.offset == 2)
      #expect(error.message.contains("invalid UTF-8"))
    }
    // A leading byte-order mark is allowed.
    #expect(try JSONParser.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("1".utf8)) == .integer(1))
  }

  /// Truncated JSON fails cleanly, and so do random bytes unless they are JSON. Every proper
  /// prefix of an object fails (an object ends only at its closing brace); of a scalar,
  /// exactly the prefixes that are JSON themselves parse (`12` of `123`). Random bytes
  /// either fail with a parse error or parse to a value that reads back the same from what
  /// the writer makes of it.
  @Test func neverCrashesOnTruncatedOrRandomInput() {
    let text = #"{"a": [1, -2.5e-3, "x\u00e9\uD83D\uDE00\n", true, null, {"b": {}}], "c": false}"#
    #expect((try? JSONParser.parse(text)) != nil, "the whole text is JSON")
    for end in text.indices {
      let prefix = String(text[..<end])
      #expect(throws: JSONParseError.self, "the prefix \(prefix)") { try JSONParser.parse(prefix) }
    }
    let scalars: [(text: String, validPrefixes: [String])] = [
      ("123", ["1", "12"]), ("-12.5e-3", ["-1", "-12", "-12.5"]), ("true", []), ("null", []),
      (#""ab\n""#, []), ("[1, 2]", []),
    ]
    for (text, validPrefixes) in scalars {
      let parsed = text.indices.map { String(text[..<$0]) }.filter { (try? JSONParser.parse($0)) != nil }
      #expect(parsed == validPrefixes, "the prefixes of \(text) that parse")
    }

    var generator = SplitMix64(seed: 7)
    let alphabet = Array(#"{}[]":,.-+eE0123456789 \truefalsn\u"#.utf8)
    var accepted = 0
    for _ in 0..<2000 {
      let length = Int(generator.next() % 24)
      let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      for input in [bytes, bytes.map { $0 ^ UInt8(truncatingIfNeeded: generator.next()) }] {
        guard let value = try? JSONParser.parse(utf8: input) else { continue }
        accepted += 1
        let written = value.serialized()
        #expect(
          (try? JSONParser.parse(written)) == value,
          "\(String(decoding: input, as: UTF8.self)) parses, but what the writer makes of it, \(written), does not read back the same"
        )
      }
    }
    // The alphabet makes numbers and literals often enough that acceptance is checked too.
    #expect(accepted > 0)
  }
}

// MARK: - Writer

@Suite struct JSONWriterTests {
  @Test func writesCompactJSON() {
    let value = JSONValue.object([
      ("b", .array([.integer(1), .double(2), .null, .bool(true)])), ("a", .string("x\"y")), ("e", .object([])),
      ("f", .array([])),
    ])
    #expect(value.serialized() == #"{"b":[1,2.0,null,true],"a":"x\"y","e":{},"f":[]}"#)
  }

  @Test func writesPrettyJSONWithTwoSpaces() {
    let value = JSONValue.object([
      ("name", .string("Alice")),
      ("address", .object([("city", .string("Madrid")), ("zip", .string("28001"))])),
      ("tags", .array([.string("a"), .string("b")])),
      ("when", .object([("$timestamp", .string("2026-11-29T10:00:00Z"))])),
      ("nested", .array([.object([("a", .integer(1))])])),
    ])
    #expect(
      value.serialized(pretty: true) == """
        {
          "name": "Alice",
          "address": {
            "city": "Madrid",
            "zip": "28001"
          },
          "tags": ["a", "b"],
          "when": {"$timestamp": "2026-11-29T10:00:00Z"},
          "nested": [
            {"a": 1}
          ]
        }
        """)
  }

  @Test func colorsTokensAndStillParsesWithoutColors() throws {
    let value = JSONValue.object([("k", .array([.string("s"), .integer(1), .bool(false), .null]))])
    let colored = value.serialized(pretty: true, colored: true)
    #expect(colored.contains("\u{1B}[1;34m\"k\"\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[32m\"s\"\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[36m1\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[35mfalse\u{1B}[0m"))
    var stripped = ""
    var scalars = colored.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        while let next = scalars.next(), next != "m" {}
      } else {
        stripped.unicodeScalars.append(scalar)
      }
    }
    #expect(!stripped.contains("\u{1B}"))
    #expect(try JSONParser.parse(stripped) == value)
  }

  @Test func writesDoublesThatReadBackExactly() throws {
    let doubles: [Double] = [
      0, -0.0, 2, -2, 0.1, 1.0 / 3, 1e16, 1e-5, 123_456_789, 1e21, 1e22, .leastNonzeroMagnitude,
      .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0x1p53 + 2,
      0x1p63, Double.pi, (0.1).nextUp, -(1.0).nextDown,
    ]
    for double in doubles {
      let text = try #require(JSONWriter.format(double))
      guard case .double(let back) = try JSONParser.parse(text) else {
        Issue.record("\(double) was written as \(text), which does not read back as a double")
        continue
      }
      #expect(back.bitPattern == double.bitPattern, "\(double) → \(text) → \(back)")
    }
    #expect(JSONWriter.format(2) == "2.0")
    #expect(JSONWriter.format(-0.0) == "-0.0")
    #expect(JSONWriter.format(.nan) == nil)
    #expect(JSONValue.double(.infinity).serialized() == "null")
  }

  @Test func escapesStringsSoTheyReadBack() throws {
    let strings = [
      "", "plain", "quote \" backslash \\ slash /", "\n\r\t\u{08}\u{0C}", "\u{0}\u{1}\u{1B}[31m\u{1F}\u{7F}",
      "é中😀", "\u{2028}\u{2029}", "a.b`c`", String(repeating: "x", count: 10_000),
    ]
    for string in strings {
      let text = JSONWriter.quoted(string)
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "raw control character in \(text)")
      #expect(try JSONParser.parse(text) == .string(string))
    }
    #expect(JSONWriter.quoted("\u{1B}") == #""\u001b""#)
  }

  @Test func roundTripsParsedDocuments() throws {
    let text = #"{"z":[1,-2,3.25,"é\u0000",{"q":null}],"a":{"b":{"c":[]}},"m":-0.0,"big":-9223372036854775808}"#
    let value = try JSONParser.parse(text)
    #expect(value.serialized() == text.replacingOccurrences(of: "\\u0000", with: "\\u0000"))
    #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
  }
}

// MARK: - Extended JSON

@Suite struct ExtendedJSONCodecTests {
  let timestamp = Timestamp(seconds: 1_795_946_400, nanoseconds: 123_456_000)

  @Test func roundTripsEveryType() throws {
    let values: [Value] = [
      .null, .boolean(true), .boolean(false), .integer(0), .integer(-1), .integer(.max), .integer(.min),
      .integer(9_007_199_254_740_993), .double(0), .double(-0.0), .double(2), .double(-2.5), .double(.nan),
      .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
      .double(9_007_199_254_740_992), .double(0.1),
      .timestamp(timestamp), .timestamp(Timestamp(seconds: 0, nanoseconds: 1000)),
      .timestamp(Timestamp(seconds: -62_135_596_800, nanoseconds: 0)),
      .timestamp(Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000)),
      .string(""), .string("é中😀\u{0}"), .bytes(Data()), .bytes(Data([0, 0, 1, 0, 255])),
      .reference(try DocumentKey(parsing: "users/alice")), .reference(try DocumentKey(parsing: "a/b/c/d")),
      .geoPoint(GeoPoint(latitude: 40.4, longitude: -3.7)), .geoPoint(GeoPoint(latitude: -90, longitude: 180)),
      .geoPoint(GeoPoint(latitude: -0.0, longitude: 0)),
      .array([]), .array([.integer(1), .double(1), .string("1")]), .map([:]),
      .map(["a.b": .integer(1), "`x`": .integer(2), "ключ": .string("значение"), "": .null, "$": .integer(3)]),
      .map(["$only": .integer(1)]), .map(["$ref": .string("not a reference")]),
      .map(["$literal": .map(["$x": .integer(1)])]),
      .map(["outer": .map(["$timestamp": .string("a string, not a time")])]),
    ]
    for value in values { try expectRoundTrip(value) }
  }

  @Test func roundTripsDeepNesting() throws {
    var value = Value.map(["leaf": .array([.integer(1), .map(["x": .double(-0.0)])])])
    for level in 0..<19 { value = .map(["l\(level)": value, "$tag": .integer(Int64(level))]) }
    try expectRoundTrip(value)
  }

  @Test func writesTheDocumentedForms() throws {
    let fields: [String: Value] = [
      "when": .timestamp(timestamp), "friend": .reference(try DocumentKey(parsing: "users/bob")),
      "where": .geoPoint(GeoPoint(latitude: 40.4, longitude: -3.7)), "raw": .bytes(Data([0, 1, 2])),
      "nan": .double(.nan), "inf": .double(.infinity), "ninf": .double(-.infinity), "two": .double(2),
      "int": .integer(2), "negzero": .double(-0.0), "lit": .map(["$x": .integer(1)]),
    ]
    #expect(
      ExtendedJSONCodec.json(fields: fields).serialized()
        == #"{"friend":{"$ref":"users/bob"},"inf":{"$double":"Infinity"},"int":2,"lit":{"$literal":{"$x":1}},"#
        + #""nan":{"$double":"NaN"},"negzero":-0.0,"ninf":{"$double":"-Infinity"},"raw":{"$bytes":"AAEC"},"#
        + #""two":2.0,"when":{"$timestamp":"2026-11-29T10:00:00.123456Z"},"where":{"$geo":[40.4,-3.7]}}"#)
  }

  @Test func readsTheInputForms() throws {
    let fields = try ExtendedJSONCodec.fields(
      fromText: #"""
        {"d": {"$double": 2}, "dd": {"$double": 2.5}, "nz": {"$double": "-0.0"}, "g": {"$geo": [1, 2]},
         "t": {"$timestamp": "2026-11-29T11:00:00.123456+01:00"}, "two": {"$a": 1, "$b": 2}}
        """#)
    #expect(fields["d"]!.isIdentical(to: .double(2)))
    #expect(fields["dd"]!.isIdentical(to: .double(2.5)))
    #expect(fields["nz"]!.isIdentical(to: .double(-0.0)))
    #expect(fields["g"]!.isIdentical(to: .geoPoint(GeoPoint(latitude: 1, longitude: 2))))
    #expect(fields["t"]!.isIdentical(to: .timestamp(timestamp)))
    // Only one-key objects are tags.
    #expect(fields["two"]!.isIdentical(to: .map(["$a": .integer(1), "$b": .integer(2)])))
    // Inside a $literal, values are still decoded.
    let literal = try ExtendedJSONCodec.value(fromText: #"{"$literal": {"$ref": {"$ref": "a/b"}}}"#)
    #expect(literal.isIdentical(to: .map(["$ref": .reference(try DocumentKey(parsing: "a/b"))])))
  }

  @Test func rejectsBadTagsNamingTheFieldAndTheProblem() {
    expectInvalidArgument(#"{"a": {"$time": "x"}}"#, mentioning: ["Unknown tag \"$time\"", "field a", "$literal"])
    expectInvalidArgument(
      #"{"a": {"b": [0, {"$timestamp": "yesterday"}]}}"#, mentioning: ["$timestamp", "a.b[1]", "RFC 3339"])
    expectInvalidArgument(#"{"t": {"$timestamp": 5}}"#, mentioning: ["found a number"])
    expectInvalidArgument(#"{"t": {"$timestamp": "2026-02-30T00:00:00Z"}}"#, mentioning: ["not an RFC 3339"])
    expectInvalidArgument(#"{"r": {"$ref": "users"}}"#, mentioning: ["$ref", "field r", "even number"])
    expectInvalidArgument(#"{"r": {"$ref": "users//a"}}"#, mentioning: ["$ref", "//"])
    expectInvalidArgument(#"{"r": {"$ref": 1}}"#, mentioning: ["$ref", "document path"])
    expectInvalidArgument(#"{"g": {"$geo": [1]}}"#, mentioning: ["$geo", "[latitude, longitude]"])
    expectInvalidArgument(#"{"g": {"$geo": ["1", 2]}}"#, mentioning: ["$geo"])
    expectInvalidArgument(
      #"{"g": {"$geo": [91, 0]}}"#, mentioning: ["latitude value in the range of [-90, 90]", "91.0"])
    expectInvalidArgument(
      #"{"g": {"$geo": [0, -180.5]}}"#, mentioning: ["longitude value in the range of [-180, 180]", "-180.5"])
    expectInvalidArgument(#"{"b": {"$bytes": "***"}}"#, mentioning: ["$bytes", "base64"])
    expectInvalidArgument(#"{"b": {"$bytes": [0]}}"#, mentioning: ["$bytes", "found an array"])
    expectInvalidArgument(#"{"d": {"$double": "nan"}}"#, mentioning: ["$double", "\"NaN\""])
    expectInvalidArgument(#"{"d": {"$double": true}}"#, mentioning: ["$double", "found a boolean"])
    expectInvalidArgument(#"{"l": {"$literal": 1}}"#, mentioning: ["$literal", "expected an object"])
    expectInvalidArgument(#"{"odd.key": {"$x": 1}}"#, mentioning: ["in field `odd.key`"])
  }

  @Test func documentsMustBeObjects() throws {
    for text in ["[]", "1", "null", #"{"$timestamp": "2026-11-29T10:00:00Z"}"#] {
      do {
        _ = try ExtendedJSONCodec.fields(fromText: text)
        Issue.record("\(text) was accepted as document fields")
      } catch let error as HearthError {
        #expect(error.message.contains("expected a JSON object of fields"), "\(error)")
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
    #expect(try ExtendedJSONCodec.fields(fromText: #"{"$literal": {"$x": 1}}"#).count == 1)
  }

  @Test func reportsSyntaxErrorsWithPosition() {
    expectInvalidArgument("{\"a\": 1,\n \"b\" 2}", mentioning: ["Invalid JSON at line 2, column 6", "expected ':'"])
  }
}
