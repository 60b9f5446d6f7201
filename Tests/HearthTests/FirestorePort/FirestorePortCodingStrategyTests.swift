import Foundation
import Hearth
import Testing

// The strategy tests of Firebase's FirebaseDataEncoder (FirebaseSharedSwift/Tests/third_party/
// DataEncoderTests.swift, from Foundation's TestJSONEncoder, and FirebaseSharedSwift/Tests/Codable/
// FirebaseDataEncoderTests.swift), ported case by case with their data and expected results
// unchanged, run through `Firestore.Encoder` and `Firestore.Decoder`, which take the same
// strategies.
//
// Differences of form: Hearth's encoder needs a keyed container at the top (a document is a
// map), so a value that Firebase's tests encode alone is encoded as the one field `value`
// (`Field`), and its expected structure is that field's value. Firebase's tests run with
// FirebaseDataEncoder's own defaults (`.deferredToDate`, `.base64`, `.throw`), which the
// ports set explicitly, since Firestore's encoder defaults to `.timestamp`, `.blob` and (in
// Hearth) `.allow`. Expected numbers are compared exactly, so a double is written `1000.0`
// where Firebase's NSNumber comparison let it write `1000`. Closures that counted calls in a
// captured `var` count in a `Box` (strategy closures are `@Sendable` here). Left out: the
// cases about JSON text and top-level values, which Hearth's encoder does not produce.

/// The strategies of one round trip, defaulting to FirebaseDataEncoder's own.
private struct Strategies {
  var dateEncoding = Firestore.Encoder.DateEncodingStrategy.deferredToDate
  var dateDecoding = Firestore.Decoder.DateDecodingStrategy.deferredToDate
  var dataEncoding = Firestore.Encoder.DataEncodingStrategy.base64
  var dataDecoding = Firestore.Decoder.DataDecodingStrategy.base64
  var floatEncoding = Firestore.Encoder.NonConformingFloatEncodingStrategy.throw
  var floatDecoding = Firestore.Decoder.NonConformingFloatDecodingStrategy.throw

  var encoder: Firestore.Encoder {
    var encoder = Firestore.Encoder()
    encoder.dateEncodingStrategy = dateEncoding
    encoder.dataEncodingStrategy = dataEncoding
    encoder.nonConformingFloatEncodingStrategy = floatEncoding
    return encoder
  }

  var decoder: Firestore.Decoder {
    var decoder = Firestore.Decoder()
    decoder.dateDecodingStrategy = dateDecoding
    decoder.dataDecodingStrategy = dataDecoding
    decoder.nonConformingFloatDecodingStrategy = floatDecoding
    return decoder
  }
}

/// `_testRoundTrip(of:expected:…)`: `value` encodes to `expected` and decodes back.
private func expectRoundTrip<T: Codable & Equatable>(
  of value: T, expected: Any, _ strategies: Strategies = Strategies(),
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let encoded = try strategies.encoder.encode(Field(value: value))
    expectSame(
      encoded["value"], expected, "Produced structure not identical to expected structure.",
      sourceLocation: sourceLocation)
    let decoded = try strategies.decoder.decode(Field<T>.self, from: encoded)
    #expect(decoded.value == value, "\(T.self) did not round-trip to an equal value.", sourceLocation: sourceLocation)
  } catch {
    Issue.record("Failed to round-trip \(T.self): \(error)", sourceLocation: sourceLocation)
  }
}

/// `_testEncodeFailure(of:)`
private func expectEncodeFailure<T: Codable & Equatable>(
  of value: T, _ strategies: Strategies = Strategies(), sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(throws: EncodingError.self, "Encode of \(T.self) was expected to fail.", sourceLocation: sourceLocation) {
    try strategies.encoder.encode(Field(value: value))
  }
}

private struct FloatNaNPlaceholder: Codable, Equatable {
  init() {}
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Float.nan)
  }
  init(from decoder: any Decoder) throws {
    let float = try decoder.singleValueContainer().decode(Float.self)
    if !float.isNaN {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Couldn't decode NaN."))
    }
  }
  static func == (_: FloatNaNPlaceholder, _: FloatNaNPlaceholder) -> Bool { true }
}

private struct DoubleNaNPlaceholder: Codable, Equatable {
  init() {}
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Double.nan)
  }
  init(from decoder: any Decoder) throws {
    let double = try decoder.singleValueContainer().decode(Double.self)
    if !double.isNaN {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Couldn't decode NaN."))
    }
  }
  static func == (_: DoubleNaNPlaceholder, _: DoubleNaNPlaceholder) -> Bool { true }
}

// MARK: - Date strategies

@Suite("Firestore port: date and data strategies")
struct FirestorePortDateDataStrategyTests {
  // DataEncoderTests.testEncodingDate
  @Test func testEncodingDate() {
    // A date that failed to round-trip through JSON text; exact here.
    let knownBadDate = Date(timeIntervalSinceReferenceDate: 0.0021413276231263384)
    expectRoundTrip(of: knownBadDate, expected: 0.0021413276231263384)
    expectRoundTrip(of: Optional(knownBadDate), expected: 0.0021413276231263384)
  }

  // DataEncoderTests.testEncodingDateSecondsSince1970
  @Test func testEncodingDateSecondsSince1970() {
    // Cannot encode an arbitrary number of seconds since we've lost precision since 1970.
    let seconds = 1000.0
    let expected = 1000.0
    var strategies = Strategies()
    strategies.dateEncoding = .secondsSince1970
    strategies.dateDecoding = .secondsSince1970
    expectRoundTrip(of: Date(timeIntervalSince1970: seconds), expected: expected, strategies)
    // Optional dates should encode the same way.
    expectRoundTrip(of: Optional(Date(timeIntervalSince1970: seconds)), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDateMillisecondsSince1970
  @Test func testEncodingDateMillisecondsSince1970() {
    let seconds = 1000.0
    let expected = 1_000_000.0
    var strategies = Strategies()
    strategies.dateEncoding = .millisecondsSince1970
    strategies.dateDecoding = .millisecondsSince1970
    expectRoundTrip(of: Date(timeIntervalSince1970: seconds), expected: expected, strategies)
    expectRoundTrip(of: Optional(Date(timeIntervalSince1970: seconds)), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDateISO8601
  @Test func testEncodingDateISO8601() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = .withInternetDateTime
    let timestamp = Date(timeIntervalSince1970: 1000)
    let expected = "\(formatter.string(from: timestamp))"
    var strategies = Strategies()
    strategies.dateEncoding = .iso8601
    strategies.dateDecoding = .iso8601
    expectRoundTrip(of: timestamp, expected: expected, strategies)
    expectRoundTrip(of: Optional(timestamp), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDateFormatted
  @Test func testEncodingDateFormatted() {
    let formatter = DateFormatter()
    formatter.dateStyle = .full
    formatter.timeStyle = .full
    let timestamp = Date(timeIntervalSince1970: 1000)
    let expected = "\(formatter.string(from: timestamp))"
    var strategies = Strategies()
    strategies.dateEncoding = .formatted(formatter)
    strategies.dateDecoding = .formatted(formatter)
    expectRoundTrip(of: timestamp, expected: expected, strategies)
    expectRoundTrip(of: Optional(timestamp), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDateCustom
  @Test func testEncodingDateCustom() {
    let timestamp = Date()
    // We'll encode a number instead of a date.
    var strategies = Strategies()
    strategies.dateEncoding = .custom { _, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(42)
    }
    strategies.dateDecoding = .custom { _ in timestamp }
    let expected = 42
    expectRoundTrip(of: timestamp, expected: expected, strategies)
    expectRoundTrip(of: Optional(timestamp), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDateCustomEmpty
  @Test func testEncodingDateCustomEmpty() {
    let timestamp = Date()
    // Encoding nothing should encode an empty keyed container ({}).
    var strategies = Strategies()
    strategies.dateEncoding = .custom { _, _ in }
    strategies.dateDecoding = .custom { _ in timestamp }
    let expected: [String: String] = [:]
    expectRoundTrip(of: timestamp, expected: expected, strategies)
    expectRoundTrip(of: Optional(timestamp), expected: expected, strategies)
  }

  // MARK: - Data strategies

  // DataEncoderTests.testEncodingData
  @Test func testEncodingData() {
    let data = Data([0xDE, 0xAD, 0xBE, 0xEF])
    let expected = [222, 173, 190, 239]
    var strategies = Strategies()
    strategies.dataEncoding = .deferredToData
    strategies.dataDecoding = .deferredToData
    expectRoundTrip(of: data, expected: expected, strategies)
    expectRoundTrip(of: Optional(data), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDataBase64
  @Test func testEncodingDataBase64() {
    let data = Data([0xDE, 0xAD, 0xBE, 0xEF])
    let expected = "3q2+7w=="
    expectRoundTrip(of: data, expected: expected)
    expectRoundTrip(of: Optional(data), expected: expected)
  }

  // DataEncoderTests.testEncodingDataBlob
  @Test func testEncodingDataBlob() {
    let data = Data([0xDE, 0xAD, 0xBE, 0xEF])
    var strategies = Strategies()
    strategies.dataEncoding = .blob
    strategies.dataDecoding = .blob
    expectRoundTrip(of: data, expected: data, strategies)
    expectRoundTrip(of: Optional(data), expected: data, strategies)
  }

  // DataEncoderTests.testEncodingData2Blob
  @Test func testEncodingData2Blob() {
    let string = "abcdef"
    let data = string.data(using: .utf8)!
    var strategies = Strategies()
    strategies.dataEncoding = .blob
    strategies.dataDecoding = .blob
    expectRoundTrip(of: data, expected: data, strategies)
    expectRoundTrip(of: Optional(data), expected: data, strategies)
  }

  // DataEncoderTests.testEncodingDataCustom
  @Test func testEncodingDataCustom() {
    // We'll encode a number instead of data.
    var strategies = Strategies()
    strategies.dataEncoding = .custom { _, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(42)
    }
    strategies.dataDecoding = .custom { _ in Data() }
    let expected = 42
    expectRoundTrip(of: Data(), expected: expected, strategies)
    expectRoundTrip(of: Optional(Data()), expected: expected, strategies)
  }

  // DataEncoderTests.testEncodingDataCustomEmpty
  @Test func testEncodingDataCustomEmpty() {
    // Encoding nothing should encode an empty keyed container ({}).
    var strategies = Strategies()
    strategies.dataEncoding = .custom { _, _ in }
    strategies.dataDecoding = .custom { _ in Data() }
    expectRoundTrip(of: Data(), expected: [:] as [String: String], strategies)
    expectRoundTrip(of: Optional(Data()), expected: [:] as [String: String], strategies)
  }

  // DataEncoderTests.testDecodingBase64StringAsBlobData
  @Test func testDecodingBase64StringAsBlobData() throws {
    let inputString = "abcdef"
    let data = inputString.data(using: .utf8)!
    let base64String = "YWJjZGVm"

    var encoder = Firestore.Encoder()
    encoder.dataEncodingStrategy = .base64
    let payload = try encoder.encode(Field(value: data))
    #expect(payload["value"] as? String == base64String)

    var decoder = Firestore.Decoder()
    decoder.dataDecodingStrategy = .blob
    let decoded = try decoder.decode(Field<Data>.self, from: payload)
    #expect(String(data: decoded.value, encoding: .utf8) == inputString)
  }

  // MARK: - Non-conforming floating point strategies

  // DataEncoderTests.testEncodingNonConformingFloats
  @Test func testEncodingNonConformingFloats() {
    expectEncodeFailure(of: Float.infinity)
    expectEncodeFailure(of: -Float.infinity)
    expectEncodeFailure(of: Float.nan)
    expectEncodeFailure(of: Double.infinity)
    expectEncodeFailure(of: -Double.infinity)
    expectEncodeFailure(of: Double.nan)
    // Optional Floats/Doubles should encode the same way.
    expectEncodeFailure(of: Optional(Float.infinity))
    expectEncodeFailure(of: Optional(-Float.infinity))
    expectEncodeFailure(of: Optional(Float.nan))
    expectEncodeFailure(of: Optional(Double.infinity))
    expectEncodeFailure(of: Optional(-Double.infinity))
    expectEncodeFailure(of: Optional(Double.nan))
  }

  // DataEncoderTests.testEncodingNonConformingFloatStrings
  @Test func testEncodingNonConformingFloatStrings() {
    var strategies = Strategies()
    strategies.floatEncoding = .convertToString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
    strategies.floatDecoding = .convertFromString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")

    expectRoundTrip(of: Float.infinity, expected: "INF", strategies)
    expectRoundTrip(of: -Float.infinity, expected: "-INF", strategies)
    // Since Float.nan != Float.nan, we have to use a placeholder that'll encode NaN but actually round-trip.
    expectRoundTrip(of: FloatNaNPlaceholder(), expected: "NaN", strategies)

    expectRoundTrip(of: Double.infinity, expected: "INF", strategies)
    expectRoundTrip(of: -Double.infinity, expected: "-INF", strategies)
    expectRoundTrip(of: DoubleNaNPlaceholder(), expected: "NaN", strategies)

    // Optional Floats and Doubles should encode the same way.
    expectRoundTrip(of: Optional(Float.infinity), expected: "INF", strategies)
    expectRoundTrip(of: Optional(-Float.infinity), expected: "-INF", strategies)
    expectRoundTrip(of: Optional(Double.infinity), expected: "INF", strategies)
    expectRoundTrip(of: Optional(-Double.infinity), expected: "-INF", strategies)
  }

  // MARK: - Encoder and decoder state

  // DataEncoderTests.testEncoderStateThrowOnEncodeCustomDate
  @Test func testEncoderStateThrowOnEncodeCustomDate() {
    // The closure needs to push a container before throwing an error to trigger.
    enum CustomError: Error { case foo }
    var encoder = Firestore.Encoder()
    encoder.dateEncodingStrategy = .custom { _, encoder in
      _ = encoder.unkeyedContainer()
      throw CustomError.foo
    }
    #expect(throws: CustomError.foo) { try encoder.encode(ReferencingEncoderWrapper(Date())) }
  }

  // DataEncoderTests.testEncoderStateThrowOnEncodeCustomData
  @Test func testEncoderStateThrowOnEncodeCustomData() {
    enum CustomError: Error { case foo }
    var encoder = Firestore.Encoder()
    encoder.dataEncodingStrategy = .custom { _, encoder in
      _ = encoder.unkeyedContainer()
      throw CustomError.foo
    }
    #expect(throws: CustomError.foo) { try encoder.encode(ReferencingEncoderWrapper(Data())) }
  }

  // DataEncoderTests.testDecoderStateThrowOnDecodeCustomDate
  @Test func testDecoderStateThrowOnDecodeCustomDate() throws {
    // We fail because our closure throws an error, not because we hit a type mismatch.
    var decoder = Firestore.Decoder()
    decoder.dateDecodingStrategy = .custom { _ in
      enum CustomError: Error { case foo }
      throw CustomError.foo
    }
    let input = 1
    let decoded = try decoder.decode(Field<EitherDecodable<Date, Int>>.self, from: ["value": input])
    #expect(decoded.value == .u(1), "the closure threw, so the fallback Int decodes")
  }

  // DataEncoderTests.testDecoderStateThrowOnDecodeCustomData
  @Test func testDecoderStateThrowOnDecodeCustomData() throws {
    var decoder = Firestore.Decoder()
    decoder.dataDecodingStrategy = .custom { _ in
      enum CustomError: Error { case foo }
      throw CustomError.foo
    }
    let input = 1
    let decoded = try decoder.decode(Field<EitherDecodable<Data, Int>>.self, from: ["value": input])
    #expect(decoded.value == .u(1), "the closure threw, so the fallback Int decodes")
  }
}

// MARK: - Key strategies

@Suite("Firestore port: key strategies")
struct FirestorePortKeyStrategyTests {
  private struct EncodeMe: Encodable {
    var keyName: String
    func encode(to coder: any Encoder) throws {
      var c = coder.container(keyedBy: TestKey.self)
      try c.encode("test", forKey: TestKey(stringValue: keyName)!)
    }
  }

  // DataEncoderTests.testEncodingKeyStrategySnake
  @Test func testEncodingKeyStrategySnake() throws {
    let toSnakeCaseTests = [
      ("simpleOneTwo", "simple_one_two"),
      ("myURL", "my_url"),
      ("singleCharacterAtEndX", "single_character_at_end_x"),
      ("thisIsAnXMLProperty", "this_is_an_xml_property"),
      ("single", "single"),  // no underscore
      ("", ""),  // don't die on empty string
      ("a", "a"),  // single character
      ("aA", "a_a"),  // two characters
      ("version4Thing", "version4_thing"),  // numerics
      ("partCAPS", "part_caps"),  // only insert underscore before first all caps
      ("partCAPSLowerAGAIN", "part_caps_lower_again"),  // switch back and forth caps.
      ("manyWordsInThisThing", "many_words_in_this_thing"),  // simple lowercase + underscore + more
      ("asdfĆqer", "asdf_ćqer"),
      ("already_snake_case", "already_snake_case"),
      ("dataPoint22", "data_point22"),
      ("dataPoint22Word", "data_point22_word"),
      ("_oneTwoThree", "_one_two_three"),
      ("oneTwoThree_", "one_two_three_"),
      ("__oneTwoThree", "__one_two_three"),
      ("oneTwoThree__", "one_two_three__"),
      ("_oneTwoThree_", "_one_two_three_"),
      ("__oneTwoThree", "__one_two_three"),
      ("__oneTwoThree__", "__one_two_three__"),
      ("_test", "_test"),
      ("_test_", "_test_"),
      ("__test", "__test"),
      ("test__", "test__"),
      ("m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "m͉̟̹y̦̳_g͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖_u͇̝̠r͙̻̥͓̣l̥̖͎͓̪̫ͅ_r̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ"),  // because Itai wanted to test this
      ("🐧🐟", "🐧🐟"),  // fishy emoji example?
    ]
    for test in toSnakeCaseTests {
      let expected = ["\(test.1)": "test"]
      var encoder = Firestore.Encoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      let result = try encoder.encode(EncodeMe(keyName: test.0))
      expectSame(result, expected, test.0)
    }
  }

  // DataEncoderTests.testEncodingKeyStrategyCustom
  @Test func testEncodingKeyStrategyCustom() throws {
    let expected = ["QQQhello": "test"]
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .custom { path in TestKey(stringValue: "QQQ" + path.last!.stringValue)! }
    expectSame(try encoder.encode(EncodeMe(keyName: "hello")), expected)
  }

  // DataEncoderTests.testEncodingDictionaryStringKeyConversionUntouched
  @Test func testEncodingDictionaryStringKeyConversionUntouched() throws {
    let toEncode = ["leaveMeAlone": "test"]
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    expectSame(try encoder.encode(toEncode), toEncode)
  }

  private struct EncodeFailure: Encodable {
    var someValue: Double
  }

  private struct EncodeFailureNested: Encodable {
    var nestedValue: EncodeFailure
  }

  /// Snake case and, as FirebaseDataEncoder's default, `.throw` for NaN.
  private var snakeAndThrow: Firestore.Encoder {
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.nonConformingFloatEncodingStrategy = .throw
    return encoder
  }

  // DataEncoderTests.testEncodingDictionaryFailureKeyPath
  @Test func testEncodingDictionaryFailureKeyPath() {
    let toEncode: [String: EncodeFailure] = ["key": EncodeFailure(someValue: Double.nan)]
    do {
      _ = try snakeAndThrow.encode(toEncode)
      Issue.record("the NaN should have been refused")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["key", "someValue"])
    } catch {
      Issue.record("Unexpected error: \(String(describing: error))")
    }
  }

  // DataEncoderTests.testEncodingDictionaryFailureKeyPathNested
  @Test func testEncodingDictionaryFailureKeyPathNested() {
    let toEncode: [String: [String: EncodeFailureNested]] = [
      "key": ["sub_key": EncodeFailureNested(nestedValue: EncodeFailure(someValue: Double.nan))]
    ]
    do {
      _ = try snakeAndThrow.encode(toEncode)
      Issue.record("the NaN should have been refused")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["key", "sub_key", "nestedValue", "someValue"])
    } catch {
      Issue.record("Unexpected error: \(String(describing: error))")
    }
  }

  private struct EncodeNested: Encodable {
    let nestedValue: EncodeMe
  }

  private struct EncodeNestedNested: Encodable {
    let outerValue: EncodeNested
  }

  // DataEncoderTests.testEncodingKeyStrategyPath
  @Test func testEncodingKeyStrategyPath() throws {
    // Make sure a more complex path shows up the way we want
    // Make sure the path reflects keys in the Swift, not the resulting ones in the structure
    let expected = ["QQQouterValue": ["QQQnestedValue": ["QQQhelloWorld": "test"]]]
    let encoded = EncodeNestedNested(outerValue: EncodeNested(nestedValue: EncodeMe(keyName: "helloWorld")))
    let paths = Box<[[String]]>([])
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .custom { path in
      // This should be called three times:
      // 1. to convert 'outerValue' to something
      // 2. to convert 'nestedValue' to something
      // 3. to convert 'helloWorld' to something
      paths.mutate { $0.append(path.map(\.stringValue)) }
      return TestKey(stringValue: "QQQ" + path.last!.stringValue)!
    }
    expectSame(try encoder.encode(encoded), expected)
    #expect(
      paths.value == [["outerValue"], ["outerValue", "nestedValue"], ["outerValue", "nestedValue", "helloWorld"]])
  }

  private struct DecodeMe: Decodable {
    let found: Bool
    init(from coder: any Decoder) throws {
      let c = try coder.container(keyedBy: TestKey.self)
      // Get the key that we expect to be passed in (camel case)
      let camelCaseKey = try c.decode(String.self, forKey: TestKey(stringValue: "camelCaseKey")!)
      // Use the camel case key to decode from the structure. The decoder should convert it to snake case to find it.
      found = try c.decode(Bool.self, forKey: TestKey(stringValue: camelCaseKey)!)
    }
  }

  // DataEncoderTests.testDecodingKeyStrategyCamel
  @Test func testDecodingKeyStrategyCamel() throws {
    let fromSnakeCaseTests = [
      ("", ""),  // don't die on empty string
      ("a", "a"),  // single character
      ("ALLCAPS", "ALLCAPS"),  // If no underscores, we leave the word as-is
      ("ALL_CAPS", "allCaps"),  // Conversion from screaming snake case
      ("single", "single"),  // do not capitalize anything with no underscore
      ("snake_case", "snakeCase"),  // capitalize a character
      ("one_two_three", "oneTwoThree"),  // more than one word
      ("one_2_three", "one2Three"),  // numerics
      ("one2_three", "one2Three"),  // numerics, part 2
      ("snake_Ćase", "snakeĆase"),  // do not further modify a capitalized diacritic
      ("snake_ćase", "snakeĆase"),  // capitalize a diacritic
      ("alreadyCamelCase", "alreadyCamelCase"),  // do not modify already camel case
      ("__this_and_that", "__thisAndThat"),
      ("_this_and_that", "_thisAndThat"),
      ("this__and__that", "thisAndThat"),
      ("this_and_that__", "thisAndThat__"),
      ("this_aNd_that", "thisAndThat"),
      ("_one_two_three", "_oneTwoThree"),
      ("one_two_three_", "oneTwoThree_"),
      ("__one_two_three", "__oneTwoThree"),
      ("one_two_three__", "oneTwoThree__"),
      ("_one_two_three_", "_oneTwoThree_"),
      ("__one_two_three", "__oneTwoThree"),
      ("__one_two_three__", "__oneTwoThree__"),
      ("_test", "_test"),
      ("_test_", "_test_"),
      ("__test", "__test"),
      ("test__", "test__"),
      ("_", "_"),
      ("__", "__"),
      ("___", "___"),
      ("m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ"),  // because Itai wanted to test this
      ("🐧_🐟", "🐧🐟"),  // fishy emoji example?
    ]
    for test in fromSnakeCaseTests {
      // This structure contains the camel case key that the test object should decode with, then it uses the snake case key (test.0) as the actual key for the boolean value.
      let input = ["camelCaseKey": "\(test.1)", "\(test.0)": true] as [String: Any]
      var decoder = Firestore.Decoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let result = try decoder.decode(DecodeMe.self, from: input)
      #expect(result.found, "\(test.0)")
    }
  }

  private struct DecodeMe2: Decodable { var hello: String }

  // DataEncoderTests.testDecodingKeyStrategyCustom
  @Test func testDecodingKeyStrategyCustom() throws {
    let input = ["----hello": "test"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .custom { path in
      // This converter removes the first 4 characters from the start of all string keys, if it has more than 4 characters
      let string = path.last!.stringValue
      guard string.count > 4 else { return path.last! }
      return TestKey(stringValue: String(string.dropFirst(4)))!
    }
    #expect(try decoder.decode(DecodeMe2.self, from: input).hello == "test")
  }

  // DataEncoderTests.testDecodingDictionaryStringKeyConversionUntouched
  @Test func testDecodingDictionaryStringKeyConversionUntouched() throws {
    let input = ["leave_me_alone": "test"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try decoder.decode([String: String].self, from: input) == ["leave_me_alone": "test"])
  }

  // DataEncoderTests.testDecodingDictionaryFailureKeyPath
  @Test func testDecodingDictionaryFailureKeyPath() {
    let input = ["leave_me_alone": "test"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    do {
      _ = try decoder.decode([String: Int].self, from: input)
      Issue.record("the string should not decode as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["leave_me_alone"])
    } catch {
      Issue.record("Unexpected error: \(String(describing: error))")
    }
  }

  private struct DecodeFailure: Decodable {
    var intValue: Int
  }

  private struct DecodeFailureNested: Decodable {
    var nestedValue: DecodeFailure
  }

  // DataEncoderTests.testDecodingDictionaryFailureKeyPathNested
  @Test func testDecodingDictionaryFailureKeyPathNested() {
    let input = ["top_level": ["sub_level": ["nested_value": ["int_value": "not_an_int"]]]]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    do {
      _ = try decoder.decode([String: [String: DecodeFailureNested]].self, from: input)
      Issue.record("the string should not decode as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["top_level", "sub_level", "nestedValue", "intValue"])
    } catch {
      Issue.record("Unexpected error: \(String(describing: error))")
    }
  }

  private struct DecodeMe3: Codable {
    var thisIsCamelCase: String
  }

  // DataEncoderTests.testEncodingKeyStrategySnakeGenerated
  @Test func testEncodingKeyStrategySnakeGenerated() throws {
    // Test that this works with a struct that has automatically generated keys
    let input = ["this_is_camel_case": "test"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try decoder.decode(DecodeMe3.self, from: input).thisIsCamelCase == "test")
  }

  // DataEncoderTests.testDecodingKeyStrategyCamelGenerated
  @Test func testDecodingKeyStrategyCamelGenerated() throws {
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    expectSame(try encoder.encode(DecodeMe3(thisIsCamelCase: "test")), ["this_is_camel_case": "test"])
  }

  // DataEncoderTests.testKeyStrategySnakeGeneratedAndCustom
  @Test func testKeyStrategySnakeGeneratedAndCustom() throws {
    // Test that this works with a struct that has automatically generated keys
    struct DecodeMe4: Codable {
      var thisIsCamelCase: String
      var thisIsCamelCaseToo: String
      private enum CodingKeys: String, CodingKey {
        case thisIsCamelCase = "fooBar"
        case thisIsCamelCaseToo
      }
    }

    // Decoding
    let input = ["foo_bar": "test", "this_is_camel_case_too": "test2"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let decodingResult = try decoder.decode(DecodeMe4.self, from: input)
    #expect(decodingResult.thisIsCamelCase == "test")
    #expect(decodingResult.thisIsCamelCaseToo == "test2")

    // Encoding
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let encodingResult = try encoder.encode(DecodeMe4(thisIsCamelCase: "test", thisIsCamelCaseToo: "test2"))
    expectSame(encodingResult, ["foo_bar": "test", "this_is_camel_case_too": "test2"])
  }

  // DataEncoderTests.testKeyStrategyDuplicateKeys
  @Test func testKeyStrategyDuplicateKeys() throws {
    // This test is mostly to make sure we don't assert on duplicate keys
    struct DecodeMe5: Codable {
      var oneTwo: String
      var numberOfKeys: Int

      enum CodingKeys: String, CodingKey {
        case oneTwo
        case oneTwoThree
      }

      init() {
        oneTwo = "test"
        numberOfKeys = 0
      }

      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        oneTwo = try container.decode(String.self, forKey: .oneTwo)
        numberOfKeys = container.allKeys.count
      }

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(oneTwo, forKey: .oneTwo)
        try container.encode("test2", forKey: .oneTwoThree)
      }
    }

    // Decoding
    // This input has a dictionary with two keys, but only one will end up in the container
    let input = ["unused key 1": "test1", "unused key 2": "test2"]
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .custom { _ in TestKey(stringValue: "oneTwo")! }  // All keys are the same!
    #expect(try decoder.decode(DecodeMe5.self, from: input).numberOfKeys == 1)

    // Encoding
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .custom { _ in TestKey(stringValue: "oneTwo")! }
    // There will be only one value in the result (the second one encoded)
    expectSame(try encoder.encode(DecodeMe5()), ["oneTwo": "test2"])
  }

  // FirebaseDataEncoderTests.testCaseConversion
  @Test func testCaseConversion() throws {
    struct Model: Codable, Equatable {
      let snakeCase: Int
    }
    let model = Model(snakeCase: 42)
    let dict = ["snake_case": 42]
    var encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let encoded = try encoder.encode(model)
    expectSame(encoded, dict)
    #expect(try decoder.decode(Model.self, from: encoded) == model)
  }
}
