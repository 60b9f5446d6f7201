import Foundation
import Hearth
import Testing

// The structured-type, encoder-feature and state tests of Firebase's FirebaseDataEncoder
// (FirebaseSharedSwift/Tests/third_party/DataEncoderTests.swift, from Foundation's
// TestJSONEncoder) and FirebaseDataEncoderTests.testNullDecodesAsNil
// (FirebaseSharedSwift/Tests/Codable/FirebaseDataEncoderTests.swift), ported case by case
// with their data and expected results unchanged, run through `Firestore.Encoder` and
// `Firestore.Decoder`.
//
// Differences of form:
// - A keyed value (Address, Person, Company, Employee, the empty struct, the nested-container
//   types) is encoded as the document itself, as Firebase encodes it at the top. A value that
//   Firebase's tests encode or decode alone (a URL, the arrays of testTypeCoercion, the
//   `[1, 2, 3]` of testDecoderStateThrowOnDecode, the `NSNull` of testNullDecodesAsNil) is
//   the one field `value` of a document (`Field`), since Hearth's encoder needs a keyed
//   container at the top (a document is a map); its expected structure is that field's value.
// - Firebase's tests run with FirebaseDataEncoder's own defaults (`.deferredToDate`,
//   `.base64`, `.throw`), which the ports set explicitly, since Firestore's encoder defaults
//   to `.timestamp`, `.blob` and (in Hearth) `.allow`.
// - Structures are compared exactly (`expectSame`) where Firebase cast them (`as? [String:
//   String]`).
// - testEncoderStateThrowOnEncode's wrapper asks for a keyed container and a nested unkeyed
//   one under `value` where Firebase's asked for an unkeyed container at the top (the rest,
//   the super-encoder and its nested unkeyed container, is unchanged). Firebase's test only
//   checked that encoding did not crash (`try?`); the port also checks the
//   `EncodingError` that FirebaseDataEncoder's `.throw` gives for the infinity.
// - testDecoderStateThrowOnDecode's `try!` becomes a `try` and a check of the decoded value
//   (`.u([1, 2, 3])`, the only one it can be).
// - `expectEqualPaths` records an `Issue` where it called `XCTFail`.
// - The support types are private to this file (Numbers and NestedContainersTestType were
//   internal); the types not used by the ported cases are left out.
//
// The other cases of these files are not part of this port (the strategy cases are in
// FirestorePortCodingStrategyTests.swift).

/// `FirebaseDataEncoder()`: Hearth's encoder with FirebaseDataEncoder's own defaults.
private func firebaseDataEncoder() -> Firestore.Encoder {
  var encoder = Firestore.Encoder()
  encoder.dateEncodingStrategy = .deferredToDate
  encoder.dataEncodingStrategy = .base64
  encoder.nonConformingFloatEncodingStrategy = .throw
  encoder.keyEncodingStrategy = .useDefaultKeys
  return encoder
}

/// `FirebaseDataDecoder()`: Hearth's decoder with FirebaseDataDecoder's own defaults.
private func firebaseDataDecoder() -> Firestore.Decoder {
  var decoder = Firestore.Decoder()
  decoder.dateDecodingStrategy = .deferredToDate
  decoder.dataDecodingStrategy = .base64
  decoder.nonConformingFloatDecodingStrategy = .throw
  decoder.keyDecodingStrategy = .useDefaultKeys
  return decoder
}

/// `_testRoundTrip(of:expected:)` of a keyed value: `value` encodes as a document (equal to
/// `expected` when given) and decodes back to an equal value.
private func expectRoundTrip<T: Codable & Equatable>(
  of value: T, expected: Any? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  let payload: [String: Any]
  do {
    payload = try firebaseDataEncoder().encode(value)
  } catch {
    Issue.record("Failed to encode \(T.self): \(error)", sourceLocation: sourceLocation)
    return
  }
  if let expected {
    expectSame(
      payload, expected, "Produced structure not identical to expected structure.", sourceLocation: sourceLocation)
  }
  do {
    let decoded = try firebaseDataDecoder().decode(T.self, from: payload)
    #expect(decoded == value, "\(T.self) did not round-trip to an equal value.", sourceLocation: sourceLocation)
  } catch {
    Issue.record("Failed to decode \(T.self): \(error)", sourceLocation: sourceLocation)
  }
}

/// `_testRoundTrip(of:expected:)` of a value Firebase encodes alone, as the field `value`.
private func expectFieldRoundTrip<T: Codable & Equatable>(
  of value: T, expected: Any, sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let payload = try firebaseDataEncoder().encode(Field(value: value))
    expectSame(
      payload["value"], expected, "Produced structure not identical to expected structure.",
      sourceLocation: sourceLocation)
    let decoded = try firebaseDataDecoder().decode(Field<T>.self, from: payload)
    #expect(decoded.value == value, "\(T.self) did not round-trip to an equal value.", sourceLocation: sourceLocation)
  } catch {
    Issue.record("Failed to round-trip \(T.self): \(error)", sourceLocation: sourceLocation)
  }
}

/// `_testRoundTripTypeCoercionFailure(of:as:)`: encoding `value` and decoding it as `type`
/// throws.
private func expectTypeCoercionFailure<T: Codable & Equatable, U: Codable & Equatable>(
  of value: T, as type: U.Type, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    throws: (any Error).self, "Coercion from \(T.self) to \(U.self) was expected to fail.",
    sourceLocation: sourceLocation
  ) {
    let data = try firebaseDataEncoder().encode(Field(value: value))
    _ = try firebaseDataDecoder().decode(Field<U>.self, from: data)
  }
}

/// `expectEqualPaths(_:_:_:)`
private func expectEqualPaths(
  _ lhs: [any CodingKey], _ rhs: [any CodingKey], _ prefix: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if lhs.count != rhs.count {
    Issue.record("\(prefix) [CodingKey].count mismatch: \(lhs.count) != \(rhs.count)", sourceLocation: sourceLocation)
    return
  }
  for (key1, key2) in zip(lhs, rhs) {
    switch (key1.intValue, key2.intValue) {
    case (.none, .none): break
    case (.some(let i1), .none):
      Issue.record(
        "\(prefix) CodingKey.intValue mismatch: \(type(of: key1))(\(i1)) != nil", sourceLocation: sourceLocation)
      return
    case (.none, .some(let i2)):
      Issue.record(
        "\(prefix) CodingKey.intValue mismatch: nil != \(type(of: key2))(\(i2))", sourceLocation: sourceLocation)
      return
    case (.some(let i1), .some(let i2)):
      guard i1 == i2 else {
        Issue.record(
          "\(prefix) CodingKey.intValue mismatch: \(type(of: key1))(\(i1)) != \(type(of: key2))(\(i2))",
          sourceLocation: sourceLocation)
        return
      }
    }
    #expect(
      key1.stringValue == key2.stringValue,
      "\(prefix) CodingKey.stringValue mismatch: \(type(of: key1))('\(key1.stringValue)') != \(type(of: key2))('\(key2.stringValue)')",
      sourceLocation: sourceLocation)
  }
}

// MARK: - Test types

private struct EmptyStruct: Codable, Equatable {
  static func == (_: EmptyStruct, _: EmptyStruct) -> Bool { true }
}

/// A simple address type that encodes as a dictionary of values.
private struct Address: Codable, Equatable {
  let street: String
  let city: String
  let state: String
  let zipCode: Int
  let country: String

  static var testValue: Address {
    Address(street: "1 Infinite Loop", city: "Cupertino", state: "CA", zipCode: 95014, country: "United States")
  }
}

/// A simple person class that encodes as a dictionary of values.
private class Person: Codable, Equatable {
  let name: String
  let email: String
  let website: URL?

  init(name: String, email: String, website: URL? = nil) {
    self.name = name
    self.email = email
    self.website = website
  }

  func isEqual(_ other: Person) -> Bool {
    name == other.name && email == other.email && website == other.website
  }

  static func == (_ lhs: Person, _ rhs: Person) -> Bool { lhs.isEqual(rhs) }

  class var testValue: Person { Person(name: "Johnny Appleseed", email: "appleseed@apple.com") }
}

/// A class which shares its encoder and decoder with its superclass.
private class Employee: Person {
  let id: Int

  init(name: String, email: String, website: URL? = nil, id: Int) {
    self.id = id
    super.init(name: name, email: email, website: website)
  }

  enum CodingKeys: String, CodingKey {
    case id
  }

  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    try super.init(from: decoder)
  }

  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try super.encode(to: encoder)
  }

  override func isEqual(_ other: Person) -> Bool {
    if let employee = other as? Employee {
      guard id == employee.id else { return false }
    }
    return super.isEqual(other)
  }

  override class var testValue: Employee {
    Employee(name: "Johnny Appleseed", email: "appleseed@apple.com", id: 42)
  }
}

/// A simple company struct which encodes as a dictionary of nested values.
private struct Company: Codable, Equatable {
  let address: Address
  var employees: [Employee]

  static var testValue: Company { Company(address: Address.testValue, employees: [Employee.testValue]) }
}

/// Checks the coding paths of the encoder, its containers and their nested containers.
private struct NestedContainersTestType: Encodable {
  let testSuperEncoder: Bool

  init(testSuperEncoder: Bool = false) {
    self.testSuperEncoder = testSuperEncoder
  }

  enum TopLevelCodingKeys: Int, CodingKey {
    case a
    case b
    case c
  }

  enum IntermediateCodingKeys: Int, CodingKey {
    case one
    case two
  }

  func encode(to encoder: any Encoder) throws {
    if testSuperEncoder {
      var topLevelContainer = encoder.container(keyedBy: TopLevelCodingKeys.self)
      expectEqualPaths(encoder.codingPath, [], "Top-level Encoder's codingPath changed.")
      expectEqualPaths(topLevelContainer.codingPath, [], "New first-level keyed container has non-empty codingPath.")

      let superEncoder = topLevelContainer.superEncoder(forKey: .a)
      expectEqualPaths(encoder.codingPath, [], "Top-level Encoder's codingPath changed.")
      expectEqualPaths(topLevelContainer.codingPath, [], "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        superEncoder.codingPath, [TopLevelCodingKeys.a], "New superEncoder had unexpected codingPath.")
      testNestedContainers(in: superEncoder, baseCodingPath: [TopLevelCodingKeys.a])
    } else {
      testNestedContainers(in: encoder, baseCodingPath: [])
    }
  }

  func testNestedContainers(in encoder: any Encoder, baseCodingPath: [any CodingKey]) {
    expectEqualPaths(encoder.codingPath, baseCodingPath, "New encoder has non-empty codingPath.")

    // codingPath should not change upon fetching a non-nested container.
    var firstLevelContainer = encoder.container(keyedBy: TopLevelCodingKeys.self)
    expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
    expectEqualPaths(
      firstLevelContainer.codingPath, baseCodingPath, "New first-level keyed container has non-empty codingPath.")

    // Nested Keyed Container
    do {
      // Nested container for key should have a new key pushed on.
      var secondLevelContainer = firstLevelContainer.nestedContainer(keyedBy: IntermediateCodingKeys.self, forKey: .a)
      expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath, "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.a],
        "New second-level keyed container had unexpected codingPath.")

      // Inserting a keyed container should not change existing coding paths.
      let thirdLevelContainerKeyed = secondLevelContainer.nestedContainer(
        keyedBy: IntermediateCodingKeys.self, forKey: .one)
      expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath, "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.a],
        "Second-level keyed container's codingPath changed.")
      expectEqualPaths(
        thirdLevelContainerKeyed.codingPath, baseCodingPath + [TopLevelCodingKeys.a, IntermediateCodingKeys.one],
        "New third-level keyed container had unexpected codingPath.")

      // Inserting an unkeyed container should not change existing coding paths.
      let thirdLevelContainerUnkeyed = secondLevelContainer.nestedUnkeyedContainer(forKey: .two)
      expectEqualPaths(encoder.codingPath, baseCodingPath + [], "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath + [], "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.a],
        "Second-level keyed container's codingPath changed.")
      expectEqualPaths(
        thirdLevelContainerUnkeyed.codingPath, baseCodingPath + [TopLevelCodingKeys.a, IntermediateCodingKeys.two],
        "New third-level unkeyed container had unexpected codingPath.")
    }

    // Nested Unkeyed Container
    do {
      // Nested container for key should have a new key pushed on.
      var secondLevelContainer = firstLevelContainer.nestedUnkeyedContainer(forKey: .b)
      expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath, "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.b],
        "New second-level keyed container had unexpected codingPath.")

      // Appending a keyed container should not change existing coding paths.
      let thirdLevelContainerKeyed = secondLevelContainer.nestedContainer(keyedBy: IntermediateCodingKeys.self)
      expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath, "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.b],
        "Second-level unkeyed container's codingPath changed.")
      expectEqualPaths(
        thirdLevelContainerKeyed.codingPath, baseCodingPath + [TopLevelCodingKeys.b, TestKey(index: 0)],
        "New third-level keyed container had unexpected codingPath.")

      // Appending an unkeyed container should not change existing coding paths.
      let thirdLevelContainerUnkeyed = secondLevelContainer.nestedUnkeyedContainer()
      expectEqualPaths(encoder.codingPath, baseCodingPath, "Top-level Encoder's codingPath changed.")
      expectEqualPaths(
        firstLevelContainer.codingPath, baseCodingPath, "First-level keyed container's codingPath changed.")
      expectEqualPaths(
        secondLevelContainer.codingPath, baseCodingPath + [TopLevelCodingKeys.b],
        "Second-level unkeyed container's codingPath changed.")
      expectEqualPaths(
        thirdLevelContainerUnkeyed.codingPath, baseCodingPath + [TopLevelCodingKeys.b, TestKey(index: 1)],
        "New third-level unkeyed container had unexpected codingPath.")
    }
  }
}

// MARK: - Tests

@Suite("Firestore port: FirebaseDataEncoder structured types and features")
struct FirestorePortDataEncoderTests {

  // MARK: Encoding top-level empty types

  // DataEncoderTests.testEncodingTopLevelEmptyStruct
  @Test func testEncodingTopLevelEmptyStruct() {
    let empty = EmptyStruct()
    expectRoundTrip(of: empty, expected: [String: String]())
  }

  // MARK: Encoding top-level structured types

  // DataEncoderTests.testEncodingTopLevelStructuredStruct
  @Test func testEncodingTopLevelStructuredStruct() {
    // Address is a struct type with multiple fields.
    let address = Address.testValue
    expectRoundTrip(of: address)
  }

  // DataEncoderTests.testEncodingTopLevelStructuredClass
  @Test func testEncodingTopLevelStructuredClass() {
    // Person is a class with multiple fields.
    let expected = ["name": "Johnny Appleseed", "email": "appleseed@apple.com"]
    let person = Person.testValue
    expectRoundTrip(of: person, expected: expected)
  }

  // DataEncoderTests.testEncodingTopLevelDeepStructuredType
  @Test func testEncodingTopLevelDeepStructuredType() {
    // Company is a type with fields which are Codable themselves.
    let company = Company.testValue
    expectRoundTrip(of: company)
  }

  // DataEncoderTests.testEncodingClassWhichSharesEncoderWithSuper
  @Test func testEncodingClassWhichSharesEncoderWithSuper() {
    // Employee is a type which shares its encoder & decoder with its superclass, Person.
    let employee = Employee.testValue
    expectRoundTrip(of: employee)
  }

  // DataEncoderTests.testEncodingMultipleNestedContainersWithTheSameTopLevelKey
  @Test func testEncodingMultipleNestedContainersWithTheSameTopLevelKey() {
    struct Model: Codable, Equatable {
      let first: String
      let second: String

      init(from coder: Decoder) throws {
        let container = try coder.container(keyedBy: TopLevelCodingKeys.self)
        let firstNestedContainer = try container.nestedContainer(keyedBy: FirstNestedCodingKeys.self, forKey: .top)
        first = try firstNestedContainer.decode(String.self, forKey: .first)
        let secondNestedContainer = try container.nestedContainer(keyedBy: SecondNestedCodingKeys.self, forKey: .top)
        second = try secondNestedContainer.decode(String.self, forKey: .second)
      }

      func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TopLevelCodingKeys.self)
        var firstNestedContainer = container.nestedContainer(keyedBy: FirstNestedCodingKeys.self, forKey: .top)
        try firstNestedContainer.encode(first, forKey: .first)
        var secondNestedContainer = container.nestedContainer(keyedBy: SecondNestedCodingKeys.self, forKey: .top)
        try secondNestedContainer.encode(second, forKey: .second)
      }

      init(first: String, second: String) {
        self.first = first
        self.second = second
      }

      static var testValue: Model { Model(first: "Johnny Appleseed", second: "appleseed@apple.com") }

      enum TopLevelCodingKeys: String, CodingKey { case top }
      enum FirstNestedCodingKeys: String, CodingKey { case first }
      enum SecondNestedCodingKeys: String, CodingKey { case second }
    }
    let expected = ["top": ["first": "Johnny Appleseed", "second": "appleseed@apple.com"]]
    expectRoundTrip(of: Model.testValue, expected: expected)
  }

  // DataEncoderTests.testDecodingConcreteTypeParameter
  @Test func testDecodingConcreteTypeParameter() throws {
    let value = try firebaseDataEncoder().encode(Employee.testValue)
    let decoded = try firebaseDataDecoder().decode(Employee.self as Person.Type, from: value)
    #expect(
      type(of: decoded) == Employee.self,
      "Expected decoded value to be of type \(Employee.self); got \(type(of: decoded)) instead.")
  }

  // MARK: Encoder features

  // DataEncoderTests.testNestedContainerCodingPaths
  @Test func testNestedContainerCodingPaths() {
    do {
      _ = try firebaseDataEncoder().encode(NestedContainersTestType())
    } catch {
      Issue.record("Caught error during encoding nested container types: \(error)")
    }
  }

  // DataEncoderTests.testSuperEncoderCodingPaths
  @Test func testSuperEncoderCodingPaths() {
    do {
      _ = try firebaseDataEncoder().encode(NestedContainersTestType(testSuperEncoder: true))
    } catch {
      Issue.record("Caught error during encoding nested container types: \(error)")
    }
  }

  // DataEncoderTests.testInterceptURL
  @Test func testInterceptURL() {
    // Want to make sure the encoder writes out single-value URLs, not the keyed encoding.
    let expected = "http://swift.org"
    let url = URL(string: "http://swift.org")!
    expectFieldRoundTrip(of: url, expected: expected)

    // Optional URLs should encode the same way.
    expectFieldRoundTrip(of: Optional(url), expected: expected)
  }

  // MARK: Type coercion

  // DataEncoderTests.testTypeCoercion
  @Test func testTypeCoercion() {
    expectTypeCoercionFailure(of: [false, true], as: [Int].self)
    expectTypeCoercionFailure(of: [false, true], as: [Int8].self)
    expectTypeCoercionFailure(of: [false, true], as: [Int16].self)
    expectTypeCoercionFailure(of: [false, true], as: [Int32].self)
    expectTypeCoercionFailure(of: [false, true], as: [Int64].self)
    expectTypeCoercionFailure(of: [false, true], as: [UInt].self)
    expectTypeCoercionFailure(of: [false, true], as: [UInt8].self)
    expectTypeCoercionFailure(of: [false, true], as: [UInt16].self)
    expectTypeCoercionFailure(of: [false, true], as: [UInt32].self)
    expectTypeCoercionFailure(of: [false, true], as: [UInt64].self)
    expectTypeCoercionFailure(of: [false, true], as: [Float].self)
    expectTypeCoercionFailure(of: [false, true], as: [Double].self)
    expectTypeCoercionFailure(of: [0, 1] as [Int], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [Int8], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [Int16], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [Int32], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [Int64], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [UInt], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [UInt8], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [UInt16], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [UInt32], as: [Bool].self)
    expectTypeCoercionFailure(of: [0, 1] as [UInt64], as: [Bool].self)
    expectTypeCoercionFailure(of: [0.0, 1.0] as [Float], as: [Bool].self)
    expectTypeCoercionFailure(of: [0.0, 1.0] as [Double], as: [Bool].self)
  }

  // MARK: Encoder state

  // DataEncoderTests.testEncoderStateThrowOnEncode
  @Test func testEncoderStateThrowOnEncode() {
    // The structure that would be encoded here looks like
    //
    //   ["value": [[[Float.infinity]]]]
    //
    // which, under FirebaseDataEncoder's `.throw`, is refused rather than crashing the encoder.
    #expect(throws: EncodingError.self) {
      try firebaseDataEncoder().encode(ReferencingEncoderWrapper([Float.infinity]))
    }
  }

  // MARK: Decoder state

  // DataEncoderTests.testDecoderStateThrowOnDecode
  @Test func testDecoderStateThrowOnDecode() throws {
    // Decoding [1, 2, 3] as [String] fails on 1; the decoder must then decode the same value as [Int].
    let input = [1, 2, 3]
    let decoded = try firebaseDataDecoder().decode(
      Field<EitherDecodable<[String], [Int]>>.self, from: ["value": input])
    #expect(decoded.value == .u([1, 2, 3]))
  }

  // MARK: FirebaseDataEncoderTests

  // FirebaseDataEncoderTests.testNullDecodesAsNil
  @Test func testNullDecodesAsNil() throws {
    let opt = try firebaseDataDecoder().decode(Field<Int?>.self, from: ["value": NSNull()])
    #expect(opt.value == nil)
  }
}
