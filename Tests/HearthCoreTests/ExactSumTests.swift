import Foundation
import HearthTestSupport
import Testing

@testable import HearthCore

/// Sums and averages round the exact sum once; the values below are Google's emulator's
/// answers (its compensated sum agrees with the exact one but where huge values cancel,
/// which it answers as its internal order of the documents has them).
@Suite struct ExactSumTests {
  func sum(_ values: [Value]) -> Value { AggregateFunction.sum(values) }

  func average(_ numbers: [Double]) -> Value {
    let documents = numbers.enumerated().map { index, number in
      QueryDocument(key: DocumentKey(ResourcePath(["c", "d\(index)"])), fields: ["v": .double(number)])
    }
    return AggregateFunction.average(FieldPath(["v"])).result(over: documents)
  }

  @Test func sumsAndAveragesAsGooglesEmulatorAnswers() {
    #expect(sum(Array(repeating: .double(0.1), count: 10)) == .double(1.0))
    #expect(average(Array(repeating: 0.1, count: 10)) == .double(0.1))
    #expect(sum([.double(0.1), .double(0.2), .double(0.3)]) == .double(0.6))
    #expect(average([0.1, 0.2, 0.3]) == .double(0.19999999999999998))
    #expect(sum([.double(1e16), .double(1), .double(1)]) == .double(1.0000000000000002e16))
    #expect(average([1e16, 1, 1]) == .double(3333333333333334.0))
    #expect(sum([.double(1e308), .double(1e308), .double(-1e308)]) == .double(1e308))
    #expect(sum([.double(1e308), .double(1e308)]) == .double(.infinity))
    #expect(sum([.integer(1), .double(1e100), .integer(1), .double(-1e100)]) == .double(2.0))
    #expect(average([1, 1e100, 1, -1e100]) == .double(0.5))
    let cycle = (0..<450).map { Value.double(Double($0 % 5) * 0.1) }
    #expect(sum(cycle) == .double(90.00000000000001))
  }

  @Test func integersStayIntegersUntilTheyOverflow() {
    #expect(sum([.integer(.max), .integer(1), .integer(-2)]) == .integer(.max - 1))
    #expect(sum([.integer(.max), .integer(.max)]) == .double(18446744073709551614.0))
    #expect(sum([.integer(.min), .integer(-1)]) == .double(-9223372036854775809.0))
    #expect(sum([]) == .integer(0))
    #expect(sum([.integer(3), .double(-0.0)]) == .double(3.0))
    // Beside a double, an integer is taken as a double on its own, as Google's emulator
    // takes it: 2^53 + 1 is 2^53.
    #expect(sum([.integer(9_007_199_254_740_993), .double(1.0)]) == .double(9_007_199_254_740_992.0))
  }

  func isNaN(_ value: Value) -> Bool {
    if case .double(let double) = value { return double.isNaN }
    return false
  }

  @Test func specialValues() {
    #expect(isNaN(sum([.double(1), .double(.nan)])))
    #expect(isNaN(sum([.double(.infinity), .double(-.infinity)])))
    #expect(sum([.double(.infinity), .double(-1e308), .double(-1e308)]) == .double(.infinity))
    #expect(sum([.double(-.infinity), .integer(5)]) == .double(-.infinity))
    #expect(sum([.double(-0.0), .double(0.0)]) == .double(0.0))
    let tiny = Double.leastNonzeroMagnitude
    #expect(sum([.double(tiny), .double(tiny)]) == .double(2 * tiny))
    #expect(sum([.double(tiny), .double(-tiny)]) == .double(0.0))
    #expect(
      sum([.double(.greatestFiniteMagnitude), .double(-.greatestFiniteMagnitude), .double(tiny)]) == .double(tiny))
  }

  /// Two doubles' sum is IEEE 754's `a + b`, rounded once; `a + b − a` is `b` exactly.
  @Test func randomSumsMatchIEEEAddition() {
    var generator = SystemRandomNumberGenerator()
    func random() -> Double {
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        return Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
          * (Bool.random() ? 1 : -1)
      case 1: return Double.random(in: -1...1, using: &generator)
      case 2: return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator))
      default: return Double.random(in: -1e-300...1e-300, using: &generator)
      }
    }
    for _ in 0..<20_000 {
      let a = random()
      let b = random()
      #expect(sum([.double(a), .double(b)]) == .double(a + b), "\(a) + \(b)")
      #expect(sum([.double(a), .double(b), .double(-a)]) == .double(b), "\(a) + \(b) - \(a)")
      let i = Int64.random(in: -(1 << 53)...(1 << 53), using: &generator)
      #expect(sum([.integer(i), .double(b)]) == .double(Double(i) + b), "\(i) + \(b)")
    }
  }

  /// A value added `count` times at once (an average from index keys: a distinct value and
  /// its number of entries) is the same sum as adding it that many times.
  @Test func addingAValueManyTimesAtOnceIsAddingItInTurn() {
    var random = SplitMix64(seed: 20_261_208)
    let specials: [Double] = [
      0.1, -0.1, 1, 2.5, 1e308, -1e308, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 4_503_599_627_370_497,
      -0.0, .infinity, -.infinity, .nan,
    ]
    for round in 0..<200 {
      var atOnce = ExactSum()
      var inTurn = ExactSum()
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let value =
          round < specials.count
          ? specials[round] : Double(bitPattern: random.next()).isNaN ? 1.5 : Double(bitPattern: random.next())
        let count = Int.random(in: 1...300, using: &random)
        atOnce.add(value, times: count)
        for _ in 0..<count { inTurn.add(value) }
      }
      let (a, b) = (atOnce.value, inTurn.value)
      #expect(a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN), "round \(round): \(a) vs \(b)")
    }
  }
}
