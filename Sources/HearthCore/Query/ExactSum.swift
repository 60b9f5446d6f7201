/// A sum of doubles kept without rounding, then rounded once. Firestore sums
/// with compensation (Google's emulator answers `sum` of ten 0.1s with 1.0 and of 1e16, 1
/// and 1 with 10000000000000002, where adding in turn gives 0.9999999999999999 and 1e16);
/// the exact sum rounded once gives those answers too, and, unlike any order of additions,
/// does not depend on the order the documents are read in. (The emulator's compensated
/// sum does, where huge values cancel: 1e308, 1e308 and -1e308 make 1e308 or infinity
/// there as its internal order has them; here always 1e308.)
///
/// The total is a two's-complement fixed-point number whose lowest bit weighs 2^-1074 (the
/// smallest double): every double is a whole number of such units, and 2,176 bits hold
/// the sum of 2^63 of the largest. NaN, and infinities of both signs,
/// make the sum NaN; infinities of one sign make it that infinity.
struct ExactSum {
  private static let wordCount = 34
  /// The bit that weighs 2^0.
  private static let unit = 1074

  private var words = [UInt64](repeating: 0, count: wordCount)
  private var isNaN = false
  private var positiveInfinity = false
  private var negativeInfinity = false

  mutating func add(_ value: Double) {
    guard value.isFinite else {
      if value.isNaN {
        isNaN = true
      } else if value < 0 {
        negativeInfinity = true
      } else {
        positiveInfinity = true
      }
      return
    }
    let (significand, position) = Self.units(value)
    add(significand, at: position, negative: value.sign == .minus)
  }

  /// Adds `value` `count` times (`count` > 0) as one product: an average taken from index
  /// keys adds each distinct value once with the number of its entries.
  mutating func add(_ value: Double, times count: Int) {
    guard value.isFinite, count > 1 else {
      if count > 0 { add(value) }
      return
    }
    let (significand, position) = Self.units(value)
    // At most 53 + 63 bits: the low word at the value's position, the high one 64 above.
    let (high, low) = significand.multipliedFullWidth(by: UInt64(count))
    add(low, at: position, negative: value.sign == .minus)
    add(high, at: position + 64, negative: value.sign == .minus)
  }

  /// A finite double's magnitude as an integer significand and the position of its lowest
  /// bit in the total: a normal double is (2^52 + fraction) × 2^(exponent − 1075), a
  /// subnormal one fraction × 2^−1074.
  private static func units(_ value: Double) -> (significand: UInt64, position: Int) {
    let bits = value.bitPattern
    let exponent = Int((bits >> 52) & 0x7FF)
    let fraction = bits & ((1 << 52) - 1)
    return (exponent == 0 ? fraction : fraction | (1 << 52), max(exponent - 1, 0))
  }

  /// The sum rounded to the nearest double (ties to even); an exact zero is +0.
  var value: Double {
    if isNaN || (positiveInfinity && negativeInfinity) { return .nan }
    if positiveInfinity { return .infinity }
    if negativeInfinity { return -.infinity }
    var magnitude = words
    let negative = words[Self.wordCount - 1] >> 63 == 1
    if negative { Self.negate(&magnitude) }
    guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return 0 }
    let highest = top * 64 + 63 - magnitude[top].leadingZeroBitCount
    let sign: FloatingPointSign = negative ? .minus : .plus
    // 53 bits or fewer from the lowest: a double holds them exactly.
    guard highest > 52 else { return Double(sign: sign, exponent: -Self.unit, significand: Double(magnitude[0])) }
    let dropped = highest - 52
    var significand = Self.bits(magnitude, from: dropped)
    let half = Self.bit(magnitude, dropped - 1)
    if half && (significand & 1 == 1 || Self.anyBit(magnitude, below: dropped - 1)) { significand += 1 }
    return Double(sign: sign, exponent: dropped - Self.unit, significand: Double(significand))
  }

  /// Adds (or subtracts) `magnitude` × 2^(`position` − 1074): its two words (a double's 53
  /// bits, shifted), then the carry (or borrow) on up.
  private mutating func add(_ magnitude: UInt64, at position: Int, negative: Bool) {
    guard magnitude != 0 else { return }
    let word = position >> 6
    let shift = position & 63
    var carry = add(magnitude << shift, at: word, negative: negative, carry: false)
    carry = add(shift == 0 ? 0 : magnitude >> (64 - shift), at: word + 1, negative: negative, carry: carry)
    var index = word + 2
    while carry, index < Self.wordCount {
      carry = add(0, at: index, negative: negative, carry: true)
      index += 1
    }
  }

  /// Adds (or subtracts) `part` and the carry (or borrow) to word `index`; returns the
  /// carry (or borrow) out.
  private mutating func add(_ part: UInt64, at index: Int, negative: Bool, carry: Bool) -> Bool {
    let (first, out) =
      negative ? words[index].subtractingReportingOverflow(part) : words[index].addingReportingOverflow(part)
    let (second, outAgain) =
      negative
      ? first.subtractingReportingOverflow(carry ? 1 : 0) : first.addingReportingOverflow(carry ? 1 : 0)
    words[index] = second
    return out || outAgain
  }

  private static func negate(_ words: inout [UInt64]) {
    var carry = true
    for index in words.indices {
      let (sum, overflowed) = (~words[index]).addingReportingOverflow(carry ? 1 : 0)
      words[index] = sum
      carry = overflowed
    }
  }

  /// The 53 bits from bit `low` up.
  private static func bits(_ words: [UInt64], from low: Int) -> UInt64 {
    let word = low >> 6
    let shift = low & 63
    var value = words[word] >> shift
    if shift != 0, word + 1 < words.count { value |= words[word + 1] << (64 - shift) }
    return value & ((1 << 53) - 1)
  }

  private static func bit(_ words: [UInt64], _ index: Int) -> Bool {
    (words[index >> 6] >> (index & 63)) & 1 == 1
  }

  /// Whether any bit below bit `index` is set.
  private static func anyBit(_ words: [UInt64], below index: Int) -> Bool {
    let word = index >> 6
    if words[..<word].contains(where: { $0 != 0 }) { return true }
    let mask: UInt64 = (1 << (index & 63)) &- 1
    return words[word] & mask != 0
  }
}
