import Foundation
import HearthTestSupport
import Testing

@testable import HearthCore

/// The key codec's contract: for every pair of values, the unsigned byte order of their
/// encodings is `Value.compare` (reversed for the descending form), equal values encode
/// to identical bytes, and no encoding is a proper prefix of another, so concatenated
/// composite keys order like tuples.
@Suite("KeyCodec")
struct KeyCodecTests {
  // MARK: - Property tests

  static let seeds: [UInt64] = [1, 42, 0x5EED_CAFE, 0xDEAD_BEEF_F00D, 20_261_129]
  static let pairsPerSeed = 40_000
  static let poolSize = 400

  /// Random pairs across all types, half of them a value and a near relative of it
  /// (the next double, the same number as the other type, a string one byte longer, a
  /// map with one more key…), where ordering bugs hide.
  @Test("byte order agrees with Value.compare on random pairs", arguments: seeds)
  func randomPairs(seed: UInt64) {
    var generator = ValueGenerator(seed: seed)
    var failures = FailureLog(seed: seed)
    for iteration in 0..<Self.pairsPerSeed {
      let a = generator.value()
      let b = generator.next(upperBound: 2) == 0 ? generator.relative(of: a) : generator.value()
      failures.check(a, b, iteration: iteration)
      if failures.isFull { break }
    }
    failures.report()
  }

  /// Every pair of a random pool, so each value meets every other type and shape.
  @Test("byte order agrees with Value.compare on all pairs of a random pool", arguments: seeds)
  func randomPool(seed: UInt64) {
    var generator = ValueGenerator(seed: seed &+ 0x1000)
    var pool: [Value] = []
    for _ in 0..<Self.poolSize {
      let value = generator.value()
      pool.append(value)
      pool.append(generator.relative(of: value))
    }
    var failures = FailureLog(seed: seed &+ 0x1000)
    checkAllPairs(pool, failures: &failures)
    failures.report()
  }

  // MARK: - Edge cases

  static let numbers: [Value] = [
    .double(.nan), .double(-.nan), .double(Double(nan: 0x1234, signaling: false)),
    .double(Double(bitPattern: 0x7FF0_0000_0000_0001)),  // signalling NaN
    .double(-.infinity), .double(.infinity), .double(-0.0), .double(0.0), .integer(0),
    .integer(1), .double(1.0), .integer(-1), .double(-1.0), .integer(2), .integer(3), .integer(7),
    .integer(.min), .integer(.max), .integer(.min + 1), .integer(.max - 1),
    .double(Double(Int64.max)), .double(-0x1p63), .double(0x1p63.nextDown), .double(-0x1p63.nextUp),
    .double(0x1p64), .double(-0x1p64),
    .integer(1 << 53), .integer((1 << 53) + 1), .integer((1 << 53) - 1), .double(0x1p53),
    .double(0x1p53.nextUp), .double(0x1p53.nextDown),
    .integer(9_007_199_254_740_993), .double(9_007_199_254_740_992.0),
    .integer(-(1 << 53) - 1), .double(-0x1p53),
    .double(0.5), .double(-0.5), .double(1.5), .double(-1.5), .double(1.0.nextUp), .double(1.0.nextDown),
    .double(-1.0.nextUp), .double(0.1), .double(1.0 / 3.0), .double(100.25), .integer(100),
    .double(.leastNonzeroMagnitude), .double(-.leastNonzeroMagnitude),
    .double(.leastNonzeroMagnitude * 2), .double(.leastNonzeroMagnitude * 3),
    .double(.leastNormalMagnitude), .double(.leastNormalMagnitude.nextDown), .double(-.leastNormalMagnitude),
    .double(.greatestFiniteMagnitude), .double(-.greatestFiniteMagnitude),
    .double(.greatestFiniteMagnitude.nextDown), .double(1e300), .double(-1e-300),
  ]

  static let strings: [Value] = [
    .string(""), .string("a"), .string("a\u{0}"), .string("a\u{0}b"), .string("a\u{0}\u{0}"),
    .string("a\u{1}"), .string("ab"), .string("b"), .string("\u{0}"), .string("\u{0}\u{0}"),
    .string("\u{1}"), .string("\u{7F}"), .string("\u{80}"), .string("\u{FF}"), .string("ÿ"),
    .string("é"), .string("e\u{301}"), .string("\u{FFFF}"), .string("\u{10FFFF}"), .string("😀"),
    .string("a\u{10FFFF}"), .string("\u{10FFFF}\u{0}"),
  ]

  static let byteStrings: [Value] = [
    .bytes(Data()), .bytes(Data([0])), .bytes(Data([0, 0])), .bytes(Data([0, 1])), .bytes(Data([0, 0xFF])),
    .bytes(Data([1])), .bytes(Data([0xFF])), .bytes(Data([0xFF, 0])), .bytes(Data([0xFF, 0xFF])),
    .bytes(Data([0x61])), .bytes(Data([0x61, 0])), .bytes(Data([0x61, 0, 0x62])), .bytes(Data([0x61, 0x62])),
    .bytes(Data([0xFE, 0xFF, 0x00, 0x01])),
  ]

  static let timestamps: [Value] = [
    timestamp(0, 0), timestamp(0, 1), timestamp(0, 999_999_999), timestamp(1, 0), timestamp(-1, 0),
    timestamp(-1, 999_999_999), timestamp(-2, 500_000_000), timestamp(.min, 0), timestamp(.max, 999_999_999),
    timestamp(-62_135_596_800, 0), timestamp(253_402_300_799, 999_999_000), timestamp(1_764_410_400, 123_456_000),
  ]

  static let references: [Value] = [
    reference("a", "b"), reference("a", "b", "c", "d"), reference("a", "c"), reference("a", "b", "c", "e"),
    reference("a", "bc"), reference("a", "b\u{0}"), reference("ab", "a"), reference("a\u{0}", "z"),
    reference("b", "a"), reference("a", "b", "", "x"), reference("a", "\u{10FFFF}"), reference("é", "x"),
  ]

  static let geoPoints: [Value] = [
    geo(0, 0), geo(-0.0, 0), geo(0, -0.0), geo(-90, -180), geo(90, 180), geo(-90, 180), geo(1.5, -2.25),
    geo(1.5, -2.5), geo(37.7749, -122.4194), geo(.nan, 0), geo(0, .nan), geo(-.infinity, 0),
    geo(.leastNonzeroMagnitude, 0), geo(-.leastNonzeroMagnitude, 0),
  ]

  static let containers: [Value] = [
    .array([]), .array([.null]), .array([.integer(1)]), .array([.double(1.0)]), .array([.integer(1), .integer(2)]),
    .array([.integer(1), .null]), .array([.integer(2)]), .array([.string("a")]), .array([.string("a"), .string("b")]),
    .array([.string("ab")]), .array([.map([:])]), .array([.map(["a": .integer(1)])]),
    .array([.map(["a": .integer(1)]), .integer(0)]), .array([.array([])]), .array([.array([.integer(1)])]),
    .array([.array([]), .integer(1)]), .array([.double(.nan)]), .array([.double(-.infinity)]),
    .map([:]), .map(["a": .integer(1)]), .map(["a": .double(1.0)]), .map(["a": .integer(1), "b": .integer(2)]),
    .map(["b": .integer(0)]), .map(["ab": .integer(0)]), .map(["a": .integer(1), "ab": .integer(0)]),
    .map(["a\u{0}": .null]), .map(["": .null]), .map(["": .integer(1)]), .map(["a": .map([:])]),
    .map(["a": .array([])]), .map(["a": .array([.integer(1)])]), .map(["a": .null, "b": .null]),
    .map(["a": .map(["b": .integer(1)])]), .map(["a": .map(["b": .integer(1)]), "c": .null]),
    .map(["é": .null]), .map(["e\u{301}": .null]),
    vector([]), vector([.double(2), .double(2)]), vector([.integer(2), .double(2)]), vector([.double(3)]),
    vector([.double(1), .double(2), .double(3)]), vector([.integer(2), .integer(2), .double(3)]),
    vector([.double(-.infinity), .double(.nan)]), vector([.double(.nan), .double(0)]),
    .map(["__type__": .string("__vector__"), "value": .array([.string("a")])]),  // not a vector: a map
    .map(["__type__": .string("__vector__")]),
  ]

  /// Firestore's vector value as the clients write it.
  static func vector(_ elements: [Value]) -> Value {
    .map(["__type__": .string("__vector__"), "value": .array(elements)])
  }

  static let others: [Value] = [.null, .boolean(false), .boolean(true)]

  static var allEdgeCases: [Value] {
    others + numbers + timestamps + strings + byteStrings + references + geoPoints + containers
  }

  @Test("byte order agrees with Value.compare on every pair of edge cases")
  func edgeCases() {
    var failures = FailureLog(seed: nil)
    checkAllPairs(Self.allEdgeCases, failures: &failures)
    failures.report()
  }

  /// (smaller, larger): orders the property tests rely on but do not state, checked
  /// against fixed expectations so that a wrong `Value.compare` cannot go unnoticed.
  static let knownOrderPairs: [(Value, Value)] = [
    (.double(0x1p53), .integer((1 << 53) + 1)),
    (.double(9_007_199_254_740_992.0), .integer(9_007_199_254_740_993)),
    (.integer(.max), .double(0x1p63)),
    (.integer(.min), .double(-0x1p63.nextDown)),
    (.double(-0x1p63), .integer(.min + 1)),
    (.double(-.infinity), .double(-.greatestFiniteMagnitude)),
    (.double(.nan), .double(-.infinity)),
    (.double(.leastNonzeroMagnitude), .double(.leastNonzeroMagnitude * 2)),
    (.integer(0), .double(.leastNonzeroMagnitude)),
    (.double(-.leastNonzeroMagnitude), .double(-0.0)),
    (.double(0.5), .integer(1)),
    (.integer(1), .double(1.0.nextUp)),
    (.double(.greatestFiniteMagnitude), .double(.infinity)),
    (.string(""), .string("a")),
    (.string("a"), .string("a\u{0}")),
    (.string("a\u{0}"), .string("a\u{0}b")),
    (.string("a\u{0}b"), .string("ab")),
    (.string("\u{FFFF}"), .string("\u{10FFFF}")),
    (.bytes(Data([0x61, 0])), .bytes(Data([0x61, 0xFF]))),
    (.bytes(Data([0])), .bytes(Data([0xFF]))),
    (timestamp(-1, 999_999_999), timestamp(0, 0)),
    (reference("a", "b"), reference("a", "b", "c", "d")),
    (reference("a", "b", "c", "d"), reference("a", "c")),
    (reference("a", "b"), reference("a", "bc")),
    (geo(-0.0, 5), geo(0.0, 6)),
    (.array([]), .array([.null])),
    (.array([.integer(1)]), .array([.integer(1), .integer(2)])),
    (.array([.integer(1), .integer(2)]), .array([.integer(2)])),
    (.map([:]), .map(["": .null])),
    (.map(["a": .integer(1)]), .map(["a": .integer(1), "b": .integer(2)])),
    (.map(["a": .integer(1), "b": .integer(2)]), .map(["ab": .integer(0)])),
    (.map(["a": .integer(1), "b": .integer(2)]), .map(["b": .integer(0)])),
    (.null, .boolean(false)), (.boolean(true), .double(.nan)), (.double(.infinity), timestamp(.min, 0)),
    (timestamp(.max, 0), .string("")), (.string("\u{10FFFF}"), .bytes(Data())),
    (.bytes(Data([0xFF])), reference("a", "a")), (reference("z", "z"), geo(-90, -180)),
    (geo(90, 180), .array([])), (.array([.map([:])]), .map([:])),
  ]

  @Test("known orders", arguments: KeyCodecTests.knownOrderPairs)
  func knownOrders(smaller: Value, larger: Value) {
    #expect(Value.compare(smaller, larger) < 0, "Value.compare: \(show(smaller)) should sort before \(show(larger))")
    #expect(byteOrder(KeyCodec.encode(smaller), KeyCodec.encode(larger)) < 0)
    #expect(byteOrder(KeyCodec.encode(smaller, descending: true), KeyCodec.encode(larger, descending: true)) > 0)
  }

  /// Values that compare equal, in different forms.
  static let equalPairs: [(Value, Value)] = [
    (.integer(1), Value.double(1.0)),
    (.integer(-1), .double(-1.0)),
    (.integer(0), .double(0.0)),
    (.integer(0), .double(-0.0)),
    (.double(-0.0), .double(0.0)),
    (.double(.nan), .double(-.nan)),
    (.double(.nan), .double(Double(nan: 0x1234, signaling: false))),
    (.double(.nan), .double(Double(bitPattern: 0x7FF0_0000_0000_0001))),
    (.double(.nan), .double(Double(bitPattern: 0xFFFF_FFFF_FFFF_FFFF))),
    (.integer(.min), .double(-0x1p63)),
    (.integer(1 << 53), .double(0x1p53)),
    (.integer(1 << 62), .double(0x1p62)),
    (.integer(-(1 << 52) - 1), .double(-0x1p52 - 1)),
    (.map(["a": .integer(1)]), .map(["a": .double(1.0)])),
    (.array([.integer(1), .double(-0.0)]), .array([.double(1.0), .integer(0)])),
    (geo(-0.0, -0.0), geo(0.0, 0.0)),
    (geo(.nan, 1), geo(-.nan, 1)),
    (.map(["x": .array([.map(["y": .integer(3)])])]), .map(["x": .array([.map(["y": .double(3)])])])),
  ]

  @Test("equal values encode to identical bytes", arguments: KeyCodecTests.equalPairs)
  func equalValues(a: Value, b: Value) {
    #expect(Value.compare(a, b) == 0)
    #expect(KeyCodec.encode(a) == KeyCodec.encode(b), "\(show(a)) vs \(show(b))")
    #expect(KeyCodec.encode(a, descending: true) == KeyCodec.encode(b, descending: true))
  }

  @Test("the descending form is the ascending form complemented")
  func descendingIsComplement() {
    for value in Self.allEdgeCases {
      #expect(KeyCodec.encode(value, descending: true) == KeyCodec.encode(value).map { ~$0 })
    }
  }

  @Test("numbers are compact")
  func compactNumbers() {
    #expect(KeyCodec.encode(.integer(0)).count == 3)
    #expect(KeyCodec.encode(.integer(1)).count == 4)
    #expect(KeyCodec.encode(.integer(1000)).count == 4)  // 0b1_111101000: one group after the leading one
    #expect(KeyCodec.encode(.integer(1001)).count == 5)  // 0b1_111101001: two
    #expect(KeyCodec.encode(.double(.nan)).count == 3)
    #expect(KeyCodec.encode(.integer(.max)).count == 12)
    #expect(KeyCodec.encode(.double(0.1)).count == 11)
    for value in Self.numbers { #expect(KeyCodec.encode(value).count <= 12) }
  }

  @Test("labels follow the type order")
  func labels() {
    let types: [Value.TypeOrder] = [
      .null, .boolean, .number, .timestamp, .string, .bytes, .reference, .geoPoint, .array, .map,
    ]
    let labels = types.map { KeyCodec.Label($0).rawValue }
    #expect(labels == labels.sorted() && Set(labels).count == labels.count)
    #expect(labels.allSatisfy { $0 > KeyCodec.arrayEnd })
    for value in Self.allEdgeCases {
      #expect(KeyCodec.encode(value).first == KeyCodec.Label(value.typeOrder).rawValue)
    }
  }

  // MARK: - Composite keys

  /// Random tuples of two or three values, each column ascending or descending,
  /// concatenated into one key: the key order must be the column-by-column order.
  @Test("concatenated keys order like tuples", arguments: seeds)
  func compositeKeys(seed: UInt64) {
    var generator = ValueGenerator(seed: seed &+ 0x2000)
    let edgeCases = Self.allEdgeCases
    var failures = 0
    for iteration in 0..<10_000 {
      let width = 2 + generator.next(upperBound: 2)
      let directions = (0..<width).map { _ in generator.next(upperBound: 2) == 0 }
      func column(_ index: Int) -> Value {
        generator.next(upperBound: 3) == 0 ? edgeCases[generator.next(upperBound: edgeCases.count)] : generator.value()
      }
      let left = (0..<width).map(column)
      // Share a prefix of columns (often equal) so later columns decide.
      let shared = generator.next(upperBound: width + 1)
      let right = (0..<width).map { index in
        guard index < shared else { return column(index) }
        return generator.next(upperBound: 2) == 0 ? left[index] : generator.relative(of: left[index])
      }
      let expected = tupleOrder(left, right, directions)
      let actual = byteOrder(compositeKey(left, directions), compositeKey(right, directions))
      if actual != expected {
        failures += 1
        Issue.record(
          """
          seed \(seed &+ 0x2000), iteration \(iteration): composite \(left.map(show)) vs \(right.map(show)) \
          (descending \(directions)): expected \(expected), bytes say \(actual)
          """)
        if failures >= 10 { return }
      }
    }
  }

  /// Two-column keys (smaller, larger): each column's encoding must end where it should,
  /// or the next column's bytes would decide.
  static let compositePairs: [([Value], [Value])] = [
    // (1, "z") < (1.5, "a"): the number's fraction bytes must not run into the next label.
    ([.integer(1), .string("z")], [Value.double(1.5), .string("a")]),
    ([.double(1.0), .null], [.integer(1), .boolean(false)]),
    ([.integer(-1), .map([:])], [.double(-0.5), .null]),
    ([.string("a"), .string("b")], [.string("a\u{0}"), .string("a")]),
    ([.string("a"), .string("b")], [.string("ab"), .string("")]),
    ([.bytes(Data([0x61])), .integer(9)], [.bytes(Data([0x61, 0])), .integer(0)]),
    ([.array([.integer(1)]), .array([.integer(3)])], [.array([.integer(1), .integer(2)]), .array([])]),
    ([.map(["a": .integer(1)]), .string("z")], [.map(["a": .integer(1), "b": .null]), .string("a")]),
    ([.map(["a": .integer(1)]), .string("z")], [.map(["ab": .null]), .string("a")]),
    ([.map([:]), .integer(5)], [.map(["": .null]), .integer(0)]),
    ([reference("a", "b"), .integer(9)], [reference("a", "b", "c", "d"), .integer(0)]),
    ([timestamp(0, 0), .integer(9)], [timestamp(0, 1), .integer(0)]),
    ([.double(.nan), .integer(9)], [.double(-.infinity), .integer(0)]),
  ]

  @Test("explicit composite keys", arguments: KeyCodecTests.compositePairs)
  func explicitComposites(smaller: [Value], larger: [Value]) {
    #expect(tupleOrder(smaller, larger, [false, false]) < 0)
    for directions in [[false, false], [false, true], [true, false], [true, true]] {
      #expect(
        byteOrder(compositeKey(smaller, directions), compositeKey(larger, directions))
          == tupleOrder(smaller, larger, directions), "descending \(directions)")
    }
  }

  @Test("string, path and integer helpers order their key parts")
  func helpers() {
    let ids = ["", "a", "a\u{0}", "a\u{0}b", "ab", "b", "ÿ", "\u{10FFFF}"]
    for x in ids {
      for y in ids {
        let expected = Value.compareUTF8(x, y)
        // Each key part is followed by a byte above or below anything, as more parts would be.
        for (leftTail, rightTail) in [([UInt8](), [UInt8]()), ([0xFF], [0x00]), ([0x00], [0xFF])] {
          var left: [UInt8] = []
          KeyCodec.append(string: x, to: &left)
          left += leftTail
          var right: [UInt8] = []
          KeyCodec.append(string: y, to: &right)
          right += rightTail
          if expected != 0 { #expect(byteOrder(left, right) == expected, "\(show(.string(x))) vs \(show(.string(y)))") }
          var leftDown: [UInt8] = []
          KeyCodec.append(string: x, descending: true, to: &leftDown)
          var rightDown: [UInt8] = []
          KeyCodec.append(string: y, descending: true, to: &rightDown)
          #expect(byteOrder(leftDown, rightDown) == -expected)
        }
      }
    }

    let paths = [
      ["a", "b"], ["a", "b", "c", "d"], ["a", "c"], ["a", "bc"], ["a", "b", "", "d"], ["a\u{0}", "b"], ["b", "a"],
    ].map(ResourcePath.init)
    for x in paths {
      for y in paths {
        // Each key is followed by a byte above or below anything, as more key parts would be.
        var left: [UInt8] = []
        KeyCodec.append(path: x, to: &left)
        left.append(0xFF)
        var right: [UInt8] = []
        KeyCodec.append(documentKey: DocumentKey(y), to: &right)
        right.append(0x00)
        let expected = x.compare(y)
        #expect(byteOrder(left, right) == (expected == 0 ? 1 : expected), "\(x) vs \(y)")
        var leftDown: [UInt8] = []
        KeyCodec.append(path: x, descending: true, to: &leftDown)
        var rightDown: [UInt8] = []
        KeyCodec.append(path: y, descending: true, to: &rightDown)
        #expect(byteOrder(leftDown, rightDown) == -expected)
        // A reference value is the label followed by the same bytes.
        var labelled: [UInt8] = [KeyCodec.Label.reference.rawValue]
        KeyCodec.append(path: x, to: &labelled)
        #expect(labelled == KeyCodec.encode(.reference(DocumentKey(x))))
      }
    }

    let integers: [UInt64] = [0, 1, 255, 256, 1 << 32, .max - 1, .max]
    for x in integers {
      for y in integers {
        var left: [UInt8] = []
        KeyCodec.append(uint64: x, to: &left)
        var right: [UInt8] = []
        KeyCodec.append(uint64: y, to: &right)
        #expect(left.count == 8 && byteOrder(left, right) == Value.order(x, y))
        var leftDown: [UInt8] = []
        KeyCodec.append(uint64: x, descending: true, to: &leftDown)
        var rightDown: [UInt8] = []
        KeyCodec.append(uint64: y, descending: true, to: &rightDown)
        #expect(byteOrder(leftDown, rightDown) == -Value.order(x, y))
      }
    }
  }

  // MARK: - Helpers

  private func checkAllPairs(_ values: [Value], failures: inout FailureLog) {
    let ascending = values.map { KeyCodec.encode($0) }
    let descending = values.map { KeyCodec.encode($0, descending: true) }
    for i in values.indices {
      for j in i..<values.count {
        failures.check(
          values[i], values[j], ascending: (ascending[i], ascending[j]), descending: (descending[i], descending[j]))
        if failures.isFull { return }
      }
    }
  }

  /// Column by column, each reversed where `descending` says.
  private func tupleOrder(_ left: [Value], _ right: [Value], _ descending: [Bool]) -> Int {
    for index in left.indices {
      let result = Value.compare(left[index], right[index])
      if result != 0 { return descending[index] ? -result : result }
    }
    return 0
  }

  private func compositeKey(_ values: [Value], _ descending: [Bool]) -> [UInt8] {
    var key: [UInt8] = []
    for (value, down) in zip(values, descending) { KeyCodec.append(value, descending: down, to: &key) }
    return key
  }

  /// A number's key gives back its value as an average takes it (`asDouble`: a double
  /// exactly, an integer rounded to the nearest double), whether it was an integer or a
  /// double (and -0.0 as 0, which a sum does not tell apart); other bytes are not taken for
  /// a number.
  @Test func numberKeysGiveBackTheirValueAsAnAverageTakesIt() {
    var random = SplitMix64(seed: 20_261_208)
    var values: [Value] = [
      .integer(0), .integer(1), .integer(-1), .integer(7), .integer(.max), .integer(.min),
      .integer(9_007_199_254_740_993),
      .integer(-9_007_199_254_740_993), .integer(1 << 62 + 1), .double(0), .double(-0.0), .double(1), .double(0.1),
      .double(-2.5), .double(.leastNonzeroMagnitude), .double(-.leastNonzeroMagnitude), .double(.leastNormalMagnitude),
      .double(.greatestFiniteMagnitude), .double(-.greatestFiniteMagnitude), .double(.infinity), .double(-.infinity),
      .double(.nan),
    ]
    for _ in 0..<5_000 {
      values.append(.integer(Int64(bitPattern: random.next()) >> Int.random(in: 0...63, using: &random)))
      values.append(.double(Double(bitPattern: random.next())))
    }
    for value in values {
      let key = KeyCodec.encode(value)
      #expect(key[0] == KeyCodec.Label.number.rawValue)
      let decoded = key.withUnsafeBytes { KeyCodec.double(numberKey: UnsafeRawBufferPointer(rebasing: $0[1...])) }
      let expected = FieldOperations.asDouble(value)
      #expect(
        decoded.map { $0 == expected || ($0.isNaN && expected.isNaN) } == true,
        "\(show(value)): \(String(describing: decoded))")
    }
    for bytes: [UInt8] in [[], [0x08], [0x10, 0x00], [0x08, 0x35], [0x08, 0x35, 0x03], [0xFF, 0xFF, 0x00]] {
      #expect(bytes.withUnsafeBytes { KeyCodec.double(numberKey: $0) } == nil, "\(bytes)")
    }
  }
}

private func timestamp(_ seconds: Int64, _ nanoseconds: Int32) -> Value {
  .timestamp(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
}

private func reference(_ segments: String...) -> Value {
  .reference(DocumentKey(ResourcePath(segments)))
}

private func geo(_ latitude: Double, _ longitude: Double) -> Value {
  .geoPoint(GeoPoint(latitude: latitude, longitude: longitude))
}

// MARK: - Checking

/// -1, 0 or 1: memcmp over the common length, then the shorter first (LMDB's order).
private func byteOrder(_ a: [UInt8], _ b: [UInt8]) -> Int {
  for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
  return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}

/// A value written out with escapes (`"a\0"`), for failure messages.
private func show(_ value: Value) -> String {
  String(reflecting: value).replacingOccurrences(of: "HearthCore.Value.", with: ".")
}

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined(separator: " ") }

/// Checks pairs and records the first few failures, each with the seed that reproduces it.
private struct FailureLog {
  let seed: UInt64?
  var pairs = 0
  var failures = 0
  static let limit = 20

  init(seed: UInt64?) { self.seed = seed }

  var isFull: Bool { failures >= Self.limit }

  mutating func check(_ a: Value, _ b: Value, iteration: Int? = nil) {
    check(
      a, b, ascending: (KeyCodec.encode(a), KeyCodec.encode(b)),
      descending: (KeyCodec.encode(a, descending: true), KeyCodec.encode(b, descending: true)), iteration: iteration)
  }

  mutating func check(
    _ a: Value, _ b: Value, ascending: ([UInt8], [UInt8]), descending: ([UInt8], [UInt8]), iteration: Int? = nil
  ) {
    pairs += 1
    let expected = Value.compare(a, b)
    var problems: [String] = []
    if Value.compare(b, a) != -expected { problems.append("Value.compare is not antisymmetric") }
    let up = byteOrder(ascending.0, ascending.1)
    if up != expected { problems.append("ascending bytes order \(up)") }
    let down = byteOrder(descending.0, descending.1)
    if down != -expected { problems.append("descending bytes order \(down)") }
    if expected != 0, ascending.0.starts(with: ascending.1) || ascending.1.starts(with: ascending.0) {
      problems.append("one encoding is a prefix of the other")
    }
    guard !problems.isEmpty else { return }
    failures += 1
    let place = [seed.map { "seed \($0)" }, iteration.map { "iteration \($0)" }]
      .compactMap { $0 }.joined(separator: ", ")
    Issue.record(
      """
      \(place.isEmpty ? "" : place + ": ")\(show(a)) vs \(show(b)): Value.compare \(expected), \
      \(problems.joined(separator: ", "))
        a: \(hex(ascending.0))
        b: \(hex(ascending.1))
      """)
  }

  /// Fails when nothing was compared (so a broken generator cannot pass silently).
  func report() {
    #expect(pairs > 0)
  }
}

// MARK: - Random values

/// Random values of every type, biased toward what breaks order-preserving codecs:
/// numbers at precision and range boundaries, integers and doubles of equal value, NUL
/// bytes, prefixes, and nesting. It also makes values no document can hold (arrays
/// directly in arrays, NaN coordinates, empty path segments): the codec orders those too.
private struct ValueGenerator {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func next(upperBound: Int) -> Int { Int(random.next(upperBound: UInt64(upperBound))) }
  mutating func chance(_ percent: Int) -> Bool { next(upperBound: 100) < percent }
  mutating func pick<T>(_ choices: [T]) -> T { choices[next(upperBound: choices.count)] }

  mutating func value(depth: Int = 0) -> Value {
    let roll = next(upperBound: 100)
    switch roll {
    case 0..<3: return .null
    case 3..<6: return .boolean(chance(50))
    case 6..<46: return number()
    case 46..<52: return timestampValue()
    case 52..<62: return .string(string())
    case 62..<68: return .bytes(bytes())
    case 68..<74: return referenceValue()
    case 74..<80: return geoValue()
    case 80..<90 where depth < 3: return .array(array(depth: depth + 1))
    case 90..<97 where depth < 3: return .map(map(depth: depth + 1))
    case 97..<100 where depth < 3:
      // Firestore's vector: a map of a special shape, ordered by length, then elements.
      return KeyCodecTests.vector((0..<next(upperBound: 4)).map { _ in number() })
    default: return number()
    }
  }

  static let powers: [Int64] = [1 << 52, 1 << 53, 1 << 54, 1 << 62, .max, .min, 1 << 31, 1 << 32, 256, 128]

  static let specialDoubles: [Double] = [
    .nan, -.nan, .infinity, -.infinity, 0, -0.0, 1, -1, 0.5, 0x1p53, 0x1p53.nextUp, 0x1p53.nextDown, 0x1p63,
    -0x1p63, 0x1p63.nextDown, -0x1p63.nextUp, 0x1p64, .leastNonzeroMagnitude, .leastNormalMagnitude,
    .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, 1e-300, 1e300,
  ]

  mutating func number() -> Value {
    switch next(upperBound: 12) {
    case 0: return .integer(Int64(bitPattern: random.next()))
    case 1: return .integer(Int64(next(upperBound: 2001)) - 1000)
    case 2:  // near a power of two or a boundary
      let base = pick(Self.powers)
      let delta = Int64(next(upperBound: 5)) - 2
      let near = base &+ delta
      return .integer(chance(50) ? near : 0 &- near)
    case 3: return .double(Double(bitPattern: random.next()))  // any bits: NaN payloads, subnormals
    case 4: return .double(Double(Int64(next(upperBound: 2001)) - 1000))
    case 5: return .double(Double(next(upperBound: 2001) - 1000) / Double(1 << next(upperBound: 12)))
    case 6:
      let special = pick(Self.specialDoubles)
      return .double(chance(80) ? special : -special)
    case 7:  // a double near a power of two: exactly representable integers and their neighbours
      let base = Double(pick(Self.powers))
      let steps = next(upperBound: 5)
      var double = base
      for _ in 0..<steps { double = chance(50) ? double.nextUp : double.nextDown }
      return .double(chance(50) ? double : -double)
    case 8:  // any magnitude, overflowing to ±∞ and underflowing to subnormals and zero
      let significand = 1 + Double(next(upperBound: 16)) / 16
      let sign: FloatingPointSign = chance(50) ? .minus : .plus
      return .double(Double(sign: sign, exponent: next(upperBound: 2200) - 1100, significand: significand))
    case 9:  // a subnormal
      let bits = random.next() & ((1 << 52) - 1)
      return .double(Double(bitPattern: chance(50) ? bits : bits | (1 << 63)))
    case 10:  // a random integer and the closest double
      let integer = Int64(bitPattern: random.next()) >> next(upperBound: 63)
      return chance(50) ? .integer(integer) : .double(Double(integer))
    default: return .integer(Int64(next(upperBound: 10)))
    }
  }

  static let pieces = [
    "", "a", "b", "ab", "\u{0}", "\u{1}", "ÿ", "é", "e\u{301}", "\u{7F}", "\u{80}", "\u{FFFF}", "\u{10FFFF}", "😀", "z",
    "a\u{0}",
  ]

  mutating func string() -> String {
    (0..<next(upperBound: 4)).map { _ in pick(Self.pieces) }.joined()
  }

  mutating func bytes() -> Data {
    Data((0..<next(upperBound: 5)).map { _ in pick([0, 0, 1, 0x61, 0x62, 0x7F, 0x80, 0xFE, 0xFF, 0xFF]) })
  }

  mutating func timestampValue() -> Value {
    let seconds: Int64 =
      switch next(upperBound: 4) {
      case 0: pick([0, -1, 1, .min, .max, -62_135_596_800, 253_402_300_799])
      case 1: Int64(next(upperBound: 7)) - 3
      case 2: Int64(bitPattern: random.next())
      default: Int64(next(upperBound: 400_000_000_000)) - 70_000_000_000
      }
    let nanoseconds: Int32 =
      chance(50) ? pick([0, 1, 999_999_999, 500_000_000, 999_000]) : Int32(next(upperBound: 1_000_000_000))
    return .timestamp(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
  }

  static let segments = ["a", "b", "ab", "a\u{0}", "é", "x", "\u{10FFFF}", ""]

  mutating func segment() -> String { pick(Self.segments) }

  mutating func referenceValue() -> Value {
    .reference(DocumentKey(ResourcePath((0..<(2 * (1 + next(upperBound: 3)))).map { _ in segment() })))
  }

  static let coordinates: [Double] = [0, -0.0, 90, -90, 180, -180, 1.5, -1.5, .nan, .leastNonzeroMagnitude]

  mutating func coordinate() -> Double {
    chance(60) ? pick(Self.coordinates) : Double(next(upperBound: 3601)) / 10 - 180
  }

  mutating func geoValue() -> Value { .geoPoint(GeoPoint(latitude: coordinate(), longitude: coordinate())) }

  mutating func array(depth: Int) -> [Value] {
    (0..<next(upperBound: 5)).map { _ in value(depth: depth) }
  }

  static let keys = ["", "a", "ab", "b", "a\u{0}", "é", "e\u{301}", "c", "\u{10FFFF}"]

  mutating func map(depth: Int) -> [String: Value] {
    var fields: [String: Value] = [:]
    for _ in 0..<next(upperBound: 5) { fields[pick(Self.keys)] = value(depth: depth) }
    return fields
  }

  /// A value close to `value` in the order: equal in another form, a neighbour, one
  /// element or key more or less, or a small change deep inside.
  mutating func relative(of value: Value) -> Value {
    switch value {
    case .integer(let integer):
      switch next(upperBound: 5) {
      case 0: return .double(Double(integer))
      case 1: return .integer(integer &+ 1)
      case 2: return .integer(integer &- 1)
      case 3: return .double(chance(50) ? Double(integer).nextUp : Double(integer).nextDown)
      default: return .integer(integer)
      }
    case .double(let double):
      switch next(upperBound: 5) {
      case 0:
        if let exact = Int64(exactly: double.rounded()) { return .integer(exact) }
        return .double(double.isNaN ? Double(nan: UInt64(next(upperBound: 1000)), signaling: false) : -double)
      case 1: return .double(double.nextUp)
      case 2: return .double(double.nextDown)
      case 3: return .double(double == 0 ? -double : double * 2)
      default: return .integer(Int64(exactly: double.rounded(.towardZero)) ?? 0)
      }
    case .string(let string):
      switch next(upperBound: 4) {
      case 0: return .string(string + pick(Self.pieces))
      case 1: return .string(String(string.unicodeScalars.dropLast().map(Character.init)))
      case 2: return .string(pick(Self.pieces) + string)
      default: return .string(string + "\u{0}")
      }
    case .bytes(let data):
      switch next(upperBound: 3) {
      case 0: return .bytes(data + [pick([0, 0xFF, 0x61])])
      case 1: return .bytes(data.dropLast())
      default: return .bytes(Data(data.map { $0 == 0 ? 0xFF : $0 }))
      }
    case .timestamp(let timestamp):
      let delta = pick([-1, 1, 0])
      return chance(50)
        ? .timestamp(Timestamp(seconds: timestamp.seconds, nanoseconds: timestamp.nanoseconds &+ Int32(delta)))
        : .timestamp(Timestamp(seconds: timestamp.seconds &+ Int64(delta), nanoseconds: timestamp.nanoseconds))
    case .reference(let key):
      var segments = key.path.segments
      switch next(upperBound: 3) {
      case 0: segments += [segment(), segment()]
      case 1 where segments.count > 2: segments.removeLast(2)
      default: segments[segments.count - 1] = segment()
      }
      return .reference(DocumentKey(ResourcePath(segments)))
    case .geoPoint(let point):
      return chance(50)
        ? .geoPoint(GeoPoint(latitude: point.latitude, longitude: chance(50) ? coordinate() : -point.longitude))
        : .geoPoint(GeoPoint(latitude: chance(50) ? coordinate() : point.latitude.nextUp, longitude: point.longitude))
    case .array(var elements):
      switch next(upperBound: 4) {
      case 0: elements.append(self.value(depth: 2))
      case 1 where !elements.isEmpty: elements.removeLast()
      case 2 where !elements.isEmpty:
        let index = next(upperBound: elements.count)
        elements[index] = relative(of: elements[index])
      default: elements.insert(self.value(depth: 2), at: 0)
      }
      return .array(elements)
    case .map(var fields):
      switch next(upperBound: 4) {
      case 0: fields[pick(Self.keys)] = self.value(depth: 2)
      case 1 where !fields.isEmpty: fields.removeValue(forKey: fields.keys.first!)
      case 2 where !fields.isEmpty:
        let key = fields.keys.first!
        fields[key] = relative(of: fields[key]!)
      default:
        if let key = fields.keys.first { fields[key + pick(["", "\u{0}", "a"])] = .null } else { fields[""] = .null }
      }
      return .map(fields)
    case .boolean(let flag): return chance(50) ? .boolean(!flag) : .null
    case .null: return chance(50) ? .boolean(false) : .null
    }
  }
}
