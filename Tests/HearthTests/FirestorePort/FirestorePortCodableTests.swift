import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's own Codable tests, ported case by case with their data and expected results
// unchanged: the unit tests under Firestore/Swift/Tests/Codable (FirestoreEncoderTests.swift,
// ConditionalConformanceTests.swift, CodableGeoPointTests.swift, CodableTimestampTests.swift,
// EncodableFieldValueTests.swift), Firestore/Swift/Tests/Unit/Codable/FirestoreDecoderTests.swift
// and the integration tests of Firestore/Swift/Tests/Integration/CodableIntegrationTests.swift.
//
// Firebase's encoder tests compare dictionaries as NSDictionary, where NSNumbers compare by
// value (`123 == 123.0`). The ports compare exactly (`expectSame`), so where a model's property
// is a `Double` or `Float` its expected value is written as a double (`123.0` for `123`): the
// type Firebase's encoder produces and Firestore stores. `FSTTestDocRef("abc/xyz")` becomes a
// reference of a temporary database. Left out: testServerTimestampBehavior (pending server
// timestamps while offline).

// MARK: - Helpers (FirestoreEncoderTests' assertThat subjects)

/// `EncodableSubject.encodes(to:)`
@discardableResult
private func expectEncodes<X: Encodable>(
  _ model: X, to expected: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
) -> [String: Any]? {
  do {
    let encoded = try Firestore.Encoder().encode(model)
    expectSame(encoded, expected, "encoded \(X.self)", sourceLocation: sourceLocation)
    return encoded
  } catch {
    Issue.record("Failed to encode \(X.self): error: \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// `DictionarySubject.decodes(to:)`
private func expectDecodes<X: Decodable & Equatable>(
  _ dictionary: [String: Any], in document: DocumentReference? = nil, to expected: X,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let decoded = try Firestore.Decoder().decode(X.self, from: dictionary, in: document)
    #expect(decoded == expected, sourceLocation: sourceLocation)
  } catch {
    Issue.record("Failed to decode \(X.self): \(error)", sourceLocation: sourceLocation)
  }
}

/// `CodableSubject.roundTrips(to:)`
private func expectRoundTrips<X: Codable & Equatable>(
  _ model: X, to expected: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let encoded = expectEncodes(model, to: expected, sourceLocation: sourceLocation) else { return }
  expectDecodes(encoded, to: model, sourceLocation: sourceLocation)
}

/// `DictionarySubject.failsDecoding(to:)`
private func expectFailsDecoding<X: Decodable>(
  _ dictionary: [String: Any], to type: X.Type, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
    _ = try Firestore.Decoder().decode(X.self, from: dictionary)
  }
}

/// `EncodableSubject.failsToEncode()`
private func expectFailsToEncode<X: Encodable>(_ model: X, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
    _ = try Firestore.Encoder().encode(model)
  }
}

/// `EncodableSubject.failsEncodingAtTopLevel()`: throws `EncodingError.invalidValue`.
private func expectFailsEncodingAtTopLevel<X: Encodable>(
  _ value: X, sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try Firestore.Encoder().encode(value)
    Issue.record("Failed to throw", sourceLocation: sourceLocation)
  } catch EncodingError.invalidValue(_, _) {
    return
  } catch {
    Issue.record("Unrecognized error: \(error)", sourceLocation: sourceLocation)
  }
}

/// `EncodableSubject.failsEncodingWithJSONEncoder()`. Firebase expects its
/// `FirestoreEncodingError.encodingIsNotSupported`, a type Hearth does not have; the port
/// checks that JSONEncoder throws.
private func expectFailsEncodingWithJSONEncoder<X: Encodable>(
  _ value: X, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
    _ = try JSONEncoder().encode(value)
  }
}

// MARK: - FirestoreEncoderTests.swift

@Suite("Firestore port: Firestore.Encoder")
struct FirestorePortEncoderTests {

  // FirestoreEncoderTests.testInt
  @Test func testInt() {
    struct Model: Codable, Equatable {
      let x: Int
    }
    let model = Model(x: 42)
    let dict = ["x": 42]
    expectRoundTrips(model, to: dict)
  }

  // FirestoreEncoderTests.testEmpty
  @Test func testEmpty() {
    struct Model: Codable, Equatable {}
    expectRoundTrips(Model(), to: [String: Any]())
  }

  // FirestoreEncoderTests.testString
  @Test func testString() throws {
    struct Model: Codable, Equatable {
      let s: String
    }
    expectRoundTrips(Model(s: "abc"), to: ["s": "abc"])
  }

  // FirestoreEncoderTests.testOptional
  @Test func testOptional() {
    struct Model: Codable, Equatable {
      let x: Int
      let opt: Int?
    }
    expectRoundTrips(Model(x: 42, opt: nil), to: ["x": 42])
    expectRoundTrips(Model(x: 42, opt: 7), to: ["x": 42, "opt": 7])
    expectDecodes(["x": 42, "opt": 5], to: Model(x: 42, opt: 5))
    expectFailsDecoding(["x": 42, "opt": true], to: Model.self)
    expectFailsDecoding(["x": 42, "opt": "abc"], to: Model.self)
    expectFailsDecoding(["x": 45.55, "opt": 5], to: Model.self)
    expectFailsDecoding(["opt": 5], to: Model.self)
  }

  // FirestoreEncoderTests.testEnum
  @Test func testEnum() {
    enum MyEnum: Codable, Equatable {
      case num(number: Int)
      case text(String)
      case timestamp(Timestamp)

      private enum CodingKeys: String, CodingKey {
        case num
        case text
        case timestamp
      }

      private enum DecodingError: Error {
        case decoding(String)
      }

      init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try? values.decode(Int.self, forKey: .num) {
          self = .num(number: value)
          return
        }
        if let value = try? values.decode(String.self, forKey: .text) {
          self = .text(value)
          return
        }
        if let value = try? values.decode(Timestamp.self, forKey: .timestamp) {
          self = .timestamp(value)
          return
        }
        throw DecodingError.decoding("Decoding error: \(values.allKeys)")
      }

      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .num(let number):
          try container.encode(number, forKey: .num)
        case .text(let value):
          try container.encode(value, forKey: .text)
        case .timestamp(let stamp):
          try container.encode(stamp, forKey: .timestamp)
        }
      }
    }
    struct Model: Codable, Equatable {
      let x: Int
      let e: MyEnum
    }

    expectRoundTrips(Model(x: 42, e: MyEnum.num(number: 4)), to: ["x": 42, "e": ["num": 4]])

    expectRoundTrips(Model(x: 43, e: MyEnum.text("abc")), to: ["x": 43, "e": ["text": "abc"]])

    let timestamp = Timestamp(date: Date())
    expectRoundTrips(Model(x: 43, e: MyEnum.timestamp(timestamp)), to: ["x": 43, "e": ["timestamp": timestamp]])
  }

  // FirestoreEncoderTests.testGeoPoint
  @Test func testGeoPoint() {
    struct Model: Codable, Equatable {
      let p: GeoPoint
    }
    let geopoint = GeoPoint(latitude: 1, longitude: -2)
    expectRoundTrips(Model(p: geopoint), to: ["p": geopoint])
  }

  // FirestoreEncoderTests.testDate
  @Test func testDate() {
    struct Model: Codable, Equatable {
      let date: Date
    }
    let date = Date(timeIntervalSinceReferenceDate: 0)
    expectRoundTrips(Model(date: date), to: ["date": Timestamp(date: date)])
  }

  // FirestoreEncoderTests.testTimestampCanDecodeAsDate
  @Test func testTimestampCanDecodeAsDate() {
    struct EncodingModel: Codable, Equatable {
      let date: Timestamp
    }
    struct DecodingModel: Codable, Equatable {
      let date: Date
    }

    let date = Date(timeIntervalSinceReferenceDate: 0)
    let timestamp = Timestamp(date: date)
    if let encoded = expectEncodes(EncodingModel(date: timestamp), to: ["date": timestamp]) {
      expectDecodes(encoded, to: DecodingModel(date: date))
    }
  }

  // FirestoreEncoderTests.testDocumentReference
  @Test func testDocumentReference() throws {
    struct Model: Codable, Equatable {
      let doc: DocumentReference
    }
    try withDatabase { db in
      let d = db.document("abc/xyz")
      expectRoundTrips(Model(doc: d), to: ["doc": d])
    }
  }

  // FirestoreEncoderTests.testEncodingDocumentReferenceThrowsWithJSONEncoder
  @Test func testEncodingDocumentReferenceThrowsWithJSONEncoder() throws {
    try withDatabase { db in
      expectFailsEncodingWithJSONEncoder(db.document("abc/xyz"))
    }
  }

  // FirestoreEncoderTests.testEncodingDocumentReferenceNotEmbeddedThrows
  @Test func testEncodingDocumentReferenceNotEmbeddedThrows() throws {
    try withDatabase { db in
      expectFailsEncodingAtTopLevel(db.document("abc/xyz"))
    }
  }

  // FirestoreEncoderTests.testTimestamp
  @Test func testTimestamp() {
    struct Model: Codable, Equatable {
      let timestamp: Timestamp
    }
    let t = Timestamp(date: Date())
    expectRoundTrips(Model(timestamp: t), to: ["timestamp": t])
  }

  // FirestoreEncoderTests.testBadValue
  @Test func testBadValue() {
    struct Model: Codable, Equatable {
      let x: Int
    }
    expectFailsDecoding(["x": "abc"], to: Model.self)  // Wrong type
  }

  // FirestoreEncoderTests.testValueTooBig
  @Test func testValueTooBig() {
    struct Model: Codable, Equatable {
      let x: CChar
    }
    expectRoundTrips(Model(x: 42), to: ["x": 42])
    expectFailsDecoding(["x": 12345], to: Model.self)  // Overflow
  }

  // FirestoreEncoderTests.testBeans
  @Test func testBeans() {
    struct Model: Codable, Equatable {
      let s: String
      let d: Double
      let f: Float
      let l: CLongLong
      let i: Int
      let b: Bool
      let sh: CShort
      let byte: CChar
      let uchar: CUnsignedChar
      let ai: [Int]
      let si: [String]
      let caseSensitive: String
      let casESensitive: String
      let casESensitivE: String
    }
    let model = Model(
      s: "abc",
      d: 123,
      f: -4,
      l: 1_234_567_890_123,
      i: -4444,
      b: false,
      sh: 123,
      byte: 45,
      uchar: 44,
      ai: [1, 2, 3, 4],
      si: ["abc", "def"],
      caseSensitive: "aaa",
      casESensitive: "bbb",
      casESensitivE: "ccc"
    )
    let dict =
      [
        "s": "abc",
        "d": 123.0,  // 123 in Firebase's test (NSNumber equality); a Double property
        "f": -4.0,  // -4 in Firebase's test; a Float property
        "l": Int64(1_234_567_890_123),
        "i": -4444,
        "b": false,
        "sh": 123,
        "byte": 45,
        "uchar": 44,
        "ai": [1, 2, 3, 4],
        "si": ["abc", "def"],
        "caseSensitive": "aaa",
        "casESensitive": "bbb",
        "casESensitivE": "ccc",
      ] as [String: Any]

    expectRoundTrips(model, to: dict)
  }

  // FirestoreEncoderTests.testCodingKeysCanCustomizeEncodingAndDecoding
  @Test func testCodingKeysCanCustomizeEncodingAndDecoding() throws {
    struct Model: Codable, Equatable {
      var s: String
      var ms: String = "filler"
      var d: Double
      var md: Double = 42.42

      // Use CodingKeys to only encode part of the struct.
      enum CodingKeys: String, CodingKey {
        case s
        case d
      }
    }

    if let encoded = expectEncodes(Model(s: "abc", ms: "dummy", d: 123.3, md: 0), to: ["s": "abc", "d": 123.3]) {
      expectDecodes(encoded, to: Model(s: "abc", ms: "filler", d: 123.3, md: 42.42))
    }
  }

  // FirestoreEncoderTests.testNestedObjects
  @Test func testNestedObjects() {
    struct SecondLevelNestedModel: Codable, Equatable {
      var age: Int8
      var weight: Double
    }
    struct NestedModel: Codable, Equatable {
      var group: String
      var groupList: [SecondLevelNestedModel]
      var groupMap: [String: SecondLevelNestedModel]
      var point: GeoPoint
    }
    struct Model: Codable, Equatable {
      var id: Int64
      var group: NestedModel
    }

    let model = Model(
      id: 123,
      group: NestedModel(
        group: "g1",
        groupList: [
          SecondLevelNestedModel(age: 20, weight: 80.1),
          SecondLevelNestedModel(age: 25, weight: 85.1),
        ],
        groupMap: [
          "name1": SecondLevelNestedModel(age: 30, weight: 64.2),
          "name2": SecondLevelNestedModel(age: 35, weight: 79.2),
        ],
        point: GeoPoint(latitude: 12.0, longitude: 9.1)
      )
    )

    // (`as [String: Any]` on the inner maps keeps `age` an integer: without it Swift types
    // them [String: Double].)
    let dict =
      [
        "group": [
          "group": "g1",
          "point": GeoPoint(latitude: 12.0, longitude: 9.1),
          "groupList": [
            [
              "age": 20,
              "weight": 80.1,
            ] as [String: Any],
            [
              "age": 25,
              "weight": 85.1,
            ] as [String: Any],
          ],
          "groupMap": [
            "name1": [
              "age": 30,
              "weight": 64.2,
            ] as [String: Any],
            "name2": [
              "age": 35,
              "weight": 79.2,
            ] as [String: Any],
          ],
        ] as [String: Any],
        "id": 123,
      ] as [String: Any]

    expectRoundTrips(model, to: dict)
  }

  // FirestoreEncoderTests.testCollapsingNestedObjects
  @Test func testCollapsingNestedObjects() {
    // The model is flat but the document has a nested Map.
    struct Model: Codable, Equatable {
      var id: Int64
      var name: String

      init(id: Int64, name: String) {
        self.id = id
        self.name = name
      }

      private enum CodingKeys: String, CodingKey {
        case id
        case nested
      }

      private enum NestedCodingKeys: String, CodingKey {
        case name
      }

      init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try id = container.decode(Int64.self, forKey: .id)

        let nestedContainer =
          try container
          .nestedContainer(keyedBy: NestedCodingKeys.self, forKey: .nested)
        try name = nestedContainer.decode(String.self, forKey: .name)
      }

      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var nestedContainer =
          container
          .nestedContainer(keyedBy: NestedCodingKeys.self, forKey: .nested)
        try nestedContainer.encode(name, forKey: .name)
      }
    }

    expectRoundTrips(
      Model(id: 12345, name: "ModelName"),
      to: [
        "id": 12345,
        "nested": ["name": "ModelName"],
      ])
  }

  class SuperModel: Codable, Equatable {
    var superPower: Double? = 100.0
    var superName: String? = "superName"

    init(power: Double, name: String) {
      superPower = power
      superName = name
    }

    static func == (lhs: SuperModel, rhs: SuperModel) -> Bool {
      return (lhs.superName == rhs.superName) && (lhs.superPower == rhs.superPower)
    }

    private enum CodingKeys: String, CodingKey {
      case superPower
      case superName
    }

    required init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      superPower = try container.decode(Double.self, forKey: .superPower)
      superName = try container.decode(String.self, forKey: .superName)
    }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(superPower, forKey: .superPower)
      try container.encode(superName, forKey: .superName)
    }
  }

  final class SubModel: SuperModel {
    var timestamp: Timestamp? = Timestamp(seconds: 848_483_737, nanoseconds: 23423)

    init(power: Double, name: String, seconds: Int64, nano: Int32) {
      super.init(power: power, name: name)
      timestamp = Timestamp(seconds: seconds, nanoseconds: nano)
    }

    static func == (lhs: SubModel, rhs: SubModel) -> Bool {
      return ((lhs as SuperModel) == (rhs as SuperModel)) && (lhs.timestamp == rhs.timestamp)
    }

    private enum CodingKeys: String, CodingKey {
      case timestamp
    }

    required init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      timestamp = try container.decode(Timestamp.self, forKey: .timestamp)
      try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(timestamp, forKey: .timestamp)
      try super.encode(to: container.superEncoder())
    }
  }

  // FirestoreEncoderTests.testClassHierarchy
  @Test func testClassHierarchy() {
    expectRoundTrips(
      SubModel(power: 100, name: "name", seconds: 123_456_789, nano: 654_321),
      to: [
        "super": ["superPower": 100.0, "superName": "name"] as [String: Any],  // superPower: 100 in Firebase's test
        "timestamp": Timestamp(seconds: 123_456_789, nanoseconds: 654_321),
      ])
  }

  // FirestoreEncoderTests.testEncodingEncodableArrayNotSupported
  @Test func testEncodingEncodableArrayNotSupported() {
    struct Model: Codable, Equatable {
      var name: String
    }
    expectFailsToEncode([Model(name: "1")])
  }

  // FirestoreEncoderTests.testFieldValuePassthrough
  @Test func testFieldValuePassthrough() throws {
    struct Model: Encodable {
      var fieldValue: FieldValue
    }
    expectEncodes(Model(fieldValue: FieldValue.delete()), to: ["fieldValue": FieldValue.delete()])
  }

  // FirestoreEncoderTests.testEncodingFieldValueNotEmbeddedThrows
  @Test func testEncodingFieldValueNotEmbeddedThrows() {
    let ts = FieldValue.serverTimestamp()
    expectFailsEncodingAtTopLevel(ts)
  }

  // FirestoreEncoderTests.testServerTimestamp
  @Test func testServerTimestamp() throws {
    struct Model: Codable, Equatable {
      @ServerTimestamp var timestamp: Timestamp? = nil
    }

    // Encoding a pending server timestamp
    expectEncodes(Model(), to: ["timestamp": FieldValue.serverTimestamp()])

    // Encoding a resolved server timestamp yields a timestamp; decoding
    // yields it back.
    let timestamp = Timestamp(seconds: 123_456_789, nanoseconds: 4321)
    expectRoundTrips(Model(timestamp: timestamp), to: ["timestamp": timestamp])

    // Decoding a NSNull() leads to nil.
    expectDecodes(["timestamp": NSNull()], to: Model(timestamp: nil))
  }

  // FirestoreEncoderTests.testServerTimestampOfDate
  @Test func testServerTimestampOfDate() throws {
    struct Model: Codable, Equatable {
      @ServerTimestamp var date: Date? = nil
    }

    // Encoding a pending server timestamp
    expectEncodes(Model(), to: ["date": FieldValue.serverTimestamp()])

    // Encoding a resolved server timestamp yields a timestamp; decoding
    // yields it back.
    let timestamp = Timestamp(seconds: 123_456_789, nanoseconds: 0)
    let date: Date = timestamp.dateValue()
    expectRoundTrips(Model(date: date), to: ["date": timestamp])

    // Decoding a NSNull() leads to nil.
    expectDecodes(["date": NSNull()], to: Model(date: nil))
  }

  // FirestoreEncoderTests.testServerTimestampUserType
  @Test func testServerTimestampUserType() throws {
    struct Model: Codable, Equatable {
      @ServerTimestamp var timestamp: String? = nil
    }

    // Encoding a pending server timestamp
    expectEncodes(Model(), to: ["timestamp": FieldValue.serverTimestamp()])

    // Encoding a resolved server timestamp yields a timestamp; decoding
    // yields it back.
    let timestamp = Timestamp(seconds: 1_570_484_031, nanoseconds: 122_999_906)
    expectRoundTrips(Model(timestamp: "2019-10-07T21:33:51.123Z"), to: ["timestamp": timestamp])

    expectFailsToEncode(Model(timestamp: "Invalid date"))
  }

  // FirestoreEncoderTests.testExplicitNull
  @Test func testExplicitNull() throws {
    struct Model: Codable, Equatable {
      @ExplicitNull var name: String?
    }

    expectRoundTrips(Model(name: nil), to: ["name": NSNull()])

    expectRoundTrips(Model(name: "good name"), to: ["name": "good name"])
  }

  // FirestoreEncoderTests.testAutomaticallyPopulatesDocumentIDOnDocumentReference
  @Test func testAutomaticallyPopulatesDocumentIDOnDocumentReference() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: DocumentReference?
    }
    try withDatabase { db in
      expectDecodes(["name": "abc"], in: db.document("abc/123"), to: Model(name: "abc", docId: db.document("abc/123")))
    }
  }

  // FirestoreEncoderTests.testAutomaticallyPopulatesDocumentIDOnString
  @Test func testAutomaticallyPopulatesDocumentIDOnString() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: String?
    }
    try withDatabase { db in
      expectDecodes(["name": "abc"], in: db.document("abc/123"), to: Model(name: "abc", docId: "123"))
    }
  }

  // FirestoreEncoderTests.testDocumentIDIgnoredInEncoding
  @Test func testDocumentIDIgnoredInEncoding() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: DocumentReference?
    }
    try withDatabase { db in
      _ = expectEncodes(Model(name: "abc", docId: db.document("abc/123")), to: ["name": "abc"])
    }
  }

  // FirestoreEncoderTests.testDocumentIDWithJsonEncoderThrows
  @Test func testDocumentIDWithJsonEncoderThrows() throws {
    try withDatabase { db in
      expectFailsEncodingWithJSONEncoder(DocumentID(wrappedValue: db.document("abc/xyz")))
    }
  }

  // FirestoreEncoderTests.testDecodingDocumentIDWithConflictingFieldsDoesNotThrow
  @Test func testDecodingDocumentIDWithConflictingFieldsDoesNotThrow() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: DocumentReference?
    }

    try withDatabase { db in
      _ = try Firestore.Decoder().decode(
        Model.self,
        from: ["name": "abc", "docId": "Does not cause conflict"],
        in: db.document("abc/123")
      )
    }
  }
}

/// FirestoreEncoderTests' `DateError`.
private enum DateError: Error {
  case invalidDate(String)
}

// Extends Strings to allow them to be wrapped with @ServerTimestamp. Resolved
// server timestamps will be stored in an ISO 8601 date format.
// (FirestoreEncoderTests' extension, for testServerTimestampUserType.)
extension String: ServerTimestampWrappable {
  static let firestorePortFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.calendar = Calendar(identifier: .iso8601)
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX"
    return formatter
  }()

  public static func wrap(_ timestamp: Timestamp) throws -> Self {
    return firestorePortFormatter.string(from: timestamp.dateValue())
  }

  public static func unwrap(_ value: Self) throws -> Timestamp {
    let date = firestorePortFormatter.date(from: value)
    if let date {
      return Timestamp(date: date)
    } else {
      throw DateError.invalidDate(value)
    }
  }
}

// MARK: - FirestoreDecoderTests.swift (Unit/Codable)

private struct DecoderTestModel: Decodable, Equatable {
  var name: String
  @DocumentID var docId: String?
}

private let customUserInfoKey = CodingUserInfoKey(rawValue: "FirestoreDecoderTestsKey")!

private struct UserInfoReader: Decodable {
  var value: String?

  init(from decoder: Decoder) throws {
    value = decoder.userInfo[customUserInfoKey] as? String
  }
}

@Suite("Firestore port: Firestore.Decoder")
struct FirestorePortDecoderTests {

  // FirestoreDecoderTests.reusedDecoderDoesNotReusePreviousDocumentReference
  // (Firebase expects its FirestoreDecodingError, a type Hearth does not have: any error here.)
  @Test func reusedDecoderDoesNotReusePreviousDocumentReference() throws {
    try withDatabase { db in
      let decoder = Firestore.Decoder()

      let first = try decoder.decode(DecoderTestModel.self, from: ["name": "first"], in: db.document("coll/first"))
      #expect(first == DecoderTestModel(name: "first", docId: "first"))

      // Without a reference, `@DocumentID` cannot be populated by a new decoder...
      #expect(throws: (any Error).self) {
        try Firestore.Decoder().decode(DecoderTestModel.self, from: ["name": "second"], in: nil)
      }
      // ...and a reused decoder must not populate it from the previous call's reference.
      #expect(throws: (any Error).self) {
        try decoder.decode(DecoderTestModel.self, from: ["name": "second"], in: nil)
      }
      #expect(throws: (any Error).self) {
        try decoder.decode(DecoderTestModel.self, from: ["name": "second"])
      }

      let third = try decoder.decode(DecoderTestModel.self, from: ["name": "third"], in: db.document("coll/third"))
      #expect(third == DecoderTestModel(name: "third", docId: "third"))
    }
  }

  // FirestoreDecoderTests.decodingWithDocumentReferenceDoesNotModifyUserInfo
  @Test func decodingWithDocumentReferenceDoesNotModifyUserInfo() throws {
    try withDatabase { db in
      var decoder = Firestore.Decoder()
      decoder.userInfo[customUserInfoKey] = "custom value"

      let decoded = try decoder.decode(UserInfoReader.self, from: [String: Any](), in: db.document("coll/doc"))

      #expect(decoded.value == "custom value")
      #expect(decoder.userInfo.count == 1)
      #expect(decoder.userInfo[customUserInfoKey] as? String == "custom value")
    }
  }
}

// MARK: - ConditionalConformanceTests.swift

@Suite("Firestore port: conditional conformances")
struct FirestorePortConditionalConformanceTests {

  // ConditionalConformanceTests.testBaseline
  @Test func testBaseline() {
    struct Model: Codable, Equatable, Hashable {
      let x: Int
    }

    var dict = [Model: String]()
    dict[Model(x: 42)] = "foo"
    #expect("foo" == dict[Model(x: 42)])
  }

  // ConditionalConformanceTests.testDocumentIDOfString
  @Test func testDocumentIDOfString() {
    struct Model: Codable, Equatable, Hashable {
      @DocumentID var x: String?
    }

    #expect(Model(x: "42") == Model(x: "42"))
    #expect(!(Model(x: "42") == Model(x: "1")))

    let dict: [Model: String] = [Model(x: "42"): "foo"]
    #expect("foo" == dict[Model(x: "42")])
  }

  // ConditionalConformanceTests.testDocumentIDOfDocumentReference
  @Test func testDocumentIDOfDocumentReference() throws {
    struct Model: Codable, Equatable, Hashable {
      @DocumentID var x: DocumentReference?
    }

    try withDatabase { db in
      let doc1 = db.document("abc/xyz")
      let doc2 = db.document("abc/xyz")
      let doc3 = db.document("abc/def")

      #expect(Model(x: doc1) == Model(x: doc2))
      #expect(Model(x: doc1) != Model(x: doc3))
      #expect(!(Model(x: doc1) == Model(x: doc3)))

      let dict: [Model: String] = [Model(x: doc1): "foo"]
      #expect("foo" == dict[Model(x: doc2)])
    }
  }

  // ConditionalConformanceTests.testExplicitNull
  @Test func testExplicitNull() {
    struct Model: Codable, Equatable, Hashable {
      @ExplicitNull var x: Int?
    }

    #expect(Model(x: 42) == Model(x: 42))
    #expect(!(Model(x: 42) == Model(x: 1)))

    let dict: [Model: String] = [Model(x: 42): "foo"]
    #expect("foo" == dict[Model(x: 42)])
  }

  // ConditionalConformanceTests.testServerTimestampOfTimestamp
  @Test func testServerTimestampOfTimestamp() {
    struct Model: Codable, Equatable, Hashable {
      @ServerTimestamp var x: Timestamp?
    }

    let ts1 = Timestamp(seconds: 123, nanoseconds: 456)
    let ts2 = ts1  // `ts1.copy() as! Timestamp` in Firebase: Hearth's Timestamp is a struct
    let ts3 = Timestamp(seconds: 789, nanoseconds: 0)

    #expect(Model(x: ts1) == Model(x: ts2))
    #expect(Model(x: ts1) != Model(x: ts3))
    #expect(!(Model(x: ts1) == Model(x: ts3)))

    let dict: [Model: String] = [Model(x: ts1): "foo"]
    #expect("foo" == dict[Model(x: ts2)])
  }

  // ConditionalConformanceTests.testServerTimestampOfDate
  @Test func testServerTimestampOfDate() {
    struct Model: Codable, Equatable, Hashable {
      @ServerTimestamp var x: Date?
    }

    let ts1 = Date(timeIntervalSince1970: 42.0)
    let ts2 = Date(timeIntervalSince1970: 42.0)
    let ts3 = Date(timeIntervalSince1970: 100.0)

    #expect(Model(x: ts1) == Model(x: ts2))
    #expect(Model(x: ts1) != Model(x: ts3))
    #expect(!(Model(x: ts1) == Model(x: ts3)))

    let dict: [Model: String] = [Model(x: ts1): "foo"]
    #expect("foo" == dict[Model(x: ts2)])
  }
}

// MARK: - CodableGeoPointTests.swift, CodableTimestampTests.swift, EncodableFieldValueTests.swift

@Suite("Firestore port: GeoPoint, Timestamp and FieldValue with other coders")
struct FirestorePortCodableValueTests {

  // CodableGeoPointTests.testGeoPointEncodes
  @Test func testGeoPointEncodes() throws {
    let geoPoint = GeoPoint(latitude: 37.77493, longitude: -122.41942)

    let jsonData = try JSONEncoder().encode(geoPoint)
    let json = String(data: jsonData, encoding: .utf8)!

    // The ordering of attributes in the JSON output is not guaranteed, nor is the rounding of
    // the values so just verify that each required property is present and that the value
    // starts as expected.
    #expect(json.contains("\"latitude\":37."), "\(json)")
    #expect(json.contains("\"longitude\":-122."), "\(json)")
  }

  // CodableGeoPointTests.testGeoPointDecodes
  @Test func testGeoPointDecodes() throws {
    let json = """
      {
        "latitude": 37.77493,
        "longitude": -122.41942
      }
      """
    let jsonData: Data = json.data(using: .utf8)!

    let geoPoint = try JSONDecoder().decode(GeoPoint.self, from: jsonData)
    #expect(abs(37.77493 - geoPoint.latitude) <= 0.0001)
    #expect(abs(-122.41942 - geoPoint.longitude) <= 0.0001)
  }

  // CodableGeoPointTests.testGeoPointIsHashable
  @Test func testGeoPointIsHashable() {
    let geoPoint = GeoPoint(latitude: 37.77493, longitude: -122.41942)
    let geoPoint2 = GeoPoint(latitude: 37.77493, longitude: -122.41942)
    let dictionary: [GeoPoint: String] = [geoPoint: "foo"]
    #expect("foo" == dictionary[geoPoint2])
  }

  // CodableTimestampTests.testTimestampEncodes
  @Test func testTimestampEncodes() throws {
    let timestamp = Timestamp(seconds: 37, nanoseconds: 123)

    let jsonData = try JSONEncoder().encode(timestamp)
    let json = String(data: jsonData, encoding: .utf8)!

    // The ordering of attributes in the JSON output is not guaranteed, so just verify that
    // each required property is present.
    #expect(json.contains("\"seconds\":37"), "\(json)")
    #expect(json.contains("\"nanoseconds\":123"), "\(json)")
  }

  // CodableTimestampTests.testTimestampDecodes
  @Test func testTimestampDecodes() throws {
    let json = """
      {
        "seconds": 37,
        "nanoseconds": 122
      }
      """
    let jsonData: Data = json.data(using: .utf8)!

    let timestamp = try JSONDecoder().decode(Timestamp.self, from: jsonData)
    #expect(37 == timestamp.seconds)
    #expect(122 == timestamp.nanoseconds)
  }

  // EncodableFieldValue.testFieldValueEncodeThrows
  @Test func testFieldValueEncodeThrows() {
    let fieldValue = FieldValue.delete()

    #expect(
      throws: (any Error).self, "Encoding FieldValue from encoders other than FirestoreEncoder should throw."
    ) {
      _ = try JSONEncoder().encode(fieldValue)
    }
  }
}

// MARK: - CodableIntegrationTests.swift

@Suite("Firestore port: Codable integration")
struct FirestorePortCodableIntegrationTests {
  private enum WriteFlavor {
    case docRef
    case writeBatch
    case transaction
  }

  private let allFlavors: [WriteFlavor] = [.docRef, .writeBatch, .transaction]

  private func setData<T: Encodable>(
    from value: T,
    forDocument doc: DocumentReference,
    withFlavor flavor: WriteFlavor = .docRef,
    merge: Bool? = nil,
    mergeFields: [Any]? = nil
  ) throws {
    switch flavor {
    case .docRef:
      if let merge {
        try doc.setData(from: value, merge: merge)
      } else if let mergeFields {
        try doc.setData(from: value, mergeFields: mergeFields)
      } else {
        try doc.setData(from: value)
      }
    case .writeBatch:
      if let merge {
        try doc.firestore.batch().setData(from: value, forDocument: doc, merge: merge).commit()
      } else if let mergeFields {
        try doc.firestore.batch().setData(from: value, forDocument: doc, mergeFields: mergeFields).commit()
      } else {
        try doc.firestore.batch().setData(from: value, forDocument: doc).commit()
      }
    case .transaction:
      _ = try doc.firestore.runTransaction { transaction in
        if let merge {
          try transaction.setData(from: value, forDocument: doc, merge: merge)
        } else if let mergeFields {
          try transaction.setData(from: value, forDocument: doc, mergeFields: mergeFields)
        } else {
          try transaction.setData(from: value, forDocument: doc)
        }
      }
    }
  }

  /// `documentRef()`
  private func documentRef(_ db: Database) -> DocumentReference {
    db.collection("test-collection").document()
  }

  // CodableIntegrationTests.testCodableRoundTrip
  @Test func testCodableRoundTrip() throws {
    struct Model: Codable, Equatable {
      var name: String
      var age: Int32
      var ts: Timestamp
      var geoPoint: GeoPoint
      var docRef: DocumentReference
      var vector: VectorValue
    }
    try withDatabase { db in
      let docToWrite = documentRef(db)
      let model = Model(
        name: "test",
        age: 42,
        ts: Timestamp(seconds: 987_654_321, nanoseconds: 0),
        geoPoint: GeoPoint(latitude: 45, longitude: 54),
        docRef: docToWrite,
        vector: FieldValue.vector([0.7, 0.6]))

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)

        let readAfterWrite = try docToWrite.getDocument().data(as: Model.self)

        #expect(readAfterWrite == model, "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testVectorValue
  @Test func testVectorValue() throws {
    struct Model: Codable {
      var name: String
      var embedding: VectorValue
    }
    try withDatabase { db in
      let model = Model(name: "name", embedding: VectorValue([0.1, 0.3, 0.4]))
      let docToWrite = documentRef(db)
      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)
        let data = try docToWrite.getDocument().data(as: Model.self)
        #expect(data.embedding == VectorValue([0.1, 0.3, 0.4]), "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testServerTimestamp
  @Test func testServerTimestamp() throws {
    struct Model: Codable, Equatable {
      var name: String
      @ServerTimestamp var ts: Timestamp? = nil
    }
    try withDatabase { db in
      let model = Model(name: "name")
      let docToWrite = documentRef(db)

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)

        let decoded = try docToWrite.getDocument().data(as: Model.self)

        #expect(decoded.ts != nil, "Failed with flavor \(flavor)")
        if let ts = decoded.ts {
          #expect(ts.seconds > 1_500_000_000, "Failed with flavor \(flavor)")
        } else {
          Issue.record("Expect server timestamp is set, but getting .pending")
        }
      }
    }
  }

  // CodableIntegrationTests.testFieldValue
  @Test func testFieldValue() throws {
    struct Model: Encodable {
      var name: String
      var array: FieldValue
      var intValue: FieldValue
    }
    try withDatabase { db in
      let model = Model(
        name: "name",
        array: FieldValue.arrayUnion([1, 2, 3]),
        intValue: FieldValue.increment(3 as Int64)
      )

      let docToWrite = documentRef(db)

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)

        let data = try docToWrite.getDocument()

        expectSame(data["array"], [1, 2, 3], "Failed with flavor \(flavor)")
        expectSame(data["intValue"], 3, "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testDataBlob (without the offline part)
  @Test func testDataBlob() throws {
    struct Model: Encodable {
      var name: String
      var data: Data
      var emptyData: Data
    }
    try withDatabase { db in
      let model = Model(
        name: "name",
        data: Data([1, 2, 3, 4]),
        emptyData: Data()
      )

      let docToWrite = documentRef(db)

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)

        let data = try docToWrite.getDocument()

        expectSame(data["data"], Data([1, 2, 3, 4]), "Failed with flavor \(flavor)")
        expectSame(data["emptyData"], Data(), "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testExplicitNull
  @Test func testExplicitNull() throws {
    struct Model: Encodable {
      var name: String
      @ExplicitNull var explicitNull: String?
      var optional: String?
    }
    try withDatabase { db in
      let model = Model(
        name: "name",
        explicitNull: nil,
        optional: nil
      )

      let docToWrite = documentRef(db)

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)

        let data = try docToWrite.getDocument().data()

        #expect(data?.keys.contains("explicitNull") == true, "Failed with flavor \(flavor)")
        expectSame(data?["explicitNull"], NSNull(), "Failed with flavor \(flavor)")
        #expect(data?.keys.contains("optional") == false, "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testSelfDocumentID
  @Test func testSelfDocumentID() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: DocumentReference?
    }

    try withDatabase { db in
      let docToWrite = documentRef(db)
      let model = Model(
        name: "name",
        docId: nil
      )

      try setData(from: model, forDocument: docToWrite, withFlavor: .docRef)
      let data = try docToWrite.getDocument().data()

      // "docId" is ignored during encoding
      expectSame(data, ["name": "name"])

      // Decoded result has "docId" auto-populated.
      let decoded = try docToWrite.getDocument().data(as: Model.self)
      #expect(decoded == Model(name: "name", docId: docToWrite))
    }
  }

  // CodableIntegrationTests.testSelfDocumentIDWithCustomCodable
  @Test func testSelfDocumentIDWithCustomCodable() throws {
    struct Model: Codable, Equatable {
      var name: String
      @DocumentID var docId: DocumentReference?

      enum CodingKeys: String, CodingKey {
        case name
        case docId
      }

      public init(name: String, docId: DocumentReference?) {
        self.name = name
        self.docId = docId
      }

      public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        docId = try container.decode(DocumentID<DocumentReference>.self, forKey: .docId)
          .wrappedValue
      }

      public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        // DocumentId should not be encoded when writing to Firestore; it's auto-populated when
        // reading.
      }
    }

    try withDatabase { db in
      let docToWrite = documentRef(db)
      let model = Model(
        name: "name",
        docId: nil
      )

      try setData(from: model, forDocument: docToWrite, withFlavor: .docRef)
      let data = try docToWrite.getDocument().data()

      // "docId" is ignored during encoding
      expectSame(data, ["name": "name"])

      // Decoded result has "docId" auto-populated.
      let decoded = try docToWrite.getDocument().data(as: Model.self)
      #expect(decoded == Model(name: "name", docId: docToWrite))
    }
  }

  // CodableIntegrationTests.testSetThenMerge
  @Test func testSetThenMerge() throws {
    struct Model: Codable, Equatable {
      var name: String? = nil
      var age: Int32? = nil
      var hobby: String? = nil
    }
    try withDatabase { db in
      let docToWrite = documentRef(db)
      let model = Model(
        name: "test",
        age: 42, hobby: nil)
      // 'name' will be skipped in merge because it's Optional.
      let update = Model(name: nil, age: 43, hobby: "No")

      for flavor in allFlavors {
        try setData(from: model, forDocument: docToWrite, withFlavor: flavor)
        try setData(from: update, forDocument: docToWrite, withFlavor: flavor, merge: true)

        var readAfterUpdate = try docToWrite.getDocument().data(as: Model.self)

        #expect(
          readAfterUpdate
            == Model(
              name: "test",
              age: 43, hobby: "No"), "Failed with flavor \(flavor)")

        let newUpdate = Model(name: "xxxx", age: 10, hobby: "Play")
        // Note 'name' is not updated.
        try setData(
          from: newUpdate, forDocument: docToWrite, withFlavor: flavor,
          mergeFields: ["age", FieldPath(["hobby"])])

        readAfterUpdate = try docToWrite.getDocument().data(as: Model.self)
        #expect(
          readAfterUpdate
            == Model(
              name: "test",
              age: 10,
              hobby: "Play"), "Failed with flavor \(flavor)")
      }
    }
  }

  // CodableIntegrationTests.testAddDocument
  @Test func testAddDocument() throws {
    struct Model: Codable, Equatable {
      var name: String
    }

    try withDatabase { db in
      let collection = db.collection("test-collection")
      let model = Model(name: "test")

      let added = Signal()
      let received = Box<Error?>(nil)
      let docRef = try collection.addDocument(from: model) { error in
        received.value = error
        added.fire()
      }
      #expect(added.wait())
      #expect(received.value == nil)

      let result = try docRef.getDocument().data(as: Model.self)
      #expect(model == result)
    }
  }
}
