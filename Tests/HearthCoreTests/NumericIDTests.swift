import Foundation
import Testing

@testable import HearthCore

/// Numeric document IDs' rule and key bytes (`NumericID`).
@Suite struct NumericIDTests {
  @Test func onlyCanonicalNonZeroInt64sAreNumericIDs() {
    #expect(NumericID.number("__id7__") == 7)
    #expect(NumericID.number("__id-2__") == -2)
    #expect(NumericID.number("__id9223372036854775807__") == .max)
    #expect(NumericID.number("__id-9223372036854775808__") == .min)
    for id in [
      "__id0__", "__id-0__", "__id007__", "__id+5__", "__id9223372036854775808__", "__id__", "__idx__", "_id7__",
      "__id7_", "__Id7__", "__id7__\u{301}", "__id\u{301}7__", "__id7\u{301}__", "7", "",
    ] {
      #expect(NumericID.number(id) == nil, "\(id.debugDescription)")
    }
  }

  /// The key bytes decode back, hold no zero byte after the marker, and order as the
  /// numbers do.
  @Test func keyBytesRoundTripAndOrderAsTheNumbers() {
    var generator = SystemRandomNumberGenerator()
    var numbers: [Int64] = [.min, .min + 1, -(1 << 56), -129, -128, -1, 1, 127, 128, 1 << 56, .max - 1, .max]
    numbers += (0..<500).map { _ in Int64.random(in: .min ... .max, using: &generator) }
    numbers = Array(Set(numbers.filter { $0 != 0 })).sorted()
    let encoded = numbers.map { number -> [UInt8] in
      var bytes: [UInt8] = []
      NumericID.append(number, to: &bytes)
      return bytes
    }
    for (number, bytes) in zip(numbers, encoded) {
      #expect(bytes.count == NumericID.encodedCount)
      #expect(!bytes.dropFirst(3).contains(0))
      #expect(bytes.withUnsafeBytes { NumericID.decode($0) } == number)
    }
    #expect(zip(encoded, encoded.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    // After every escaped string that begins with a zero byte, before every other.
    #expect([0x00, 0xFF, 0xF4, 0x00, 0x01].lexicographicallyPrecedes(encoded[0]))
    #expect(encoded.last!.lexicographicallyPrecedes([0x01, 0x00, 0x01]))
  }

  @Test func namesOrderNumericIDsFirst() {
    let ordered = ["\u{0}", "\u{0}a", "__id-3__", "__id5__", "__id100__", "\u{1}", "5", "A", "__id", "a"]
    for (i, a) in ordered.enumerated() {
      for (j, b) in ordered.enumerated() {
        #expect(
          NumericID.compare(a, b) == (i < j ? -1 : (i > j ? 1 : 0)), "\(a.debugDescription) vs \(b.debugDescription)")
      }
    }
    // Firestore's own order, in memory alone, puts the numeric IDs before the zero byte too.
    #expect(NumericID.compare("__id5__", "\u{0}a", zeroByteFirst: false) == -1)
  }
}
