import HearthStorage

/// A range of keys in one table, each end inclusive or not. Keys compare as LMDB orders
/// them: unsigned bytes, then the shorter first.
struct KeyRange: Sendable, Equatable {
  var lower: [UInt8]
  var lowerInclusive: Bool
  var upper: [UInt8]
  var upperInclusive: Bool

  static func exact(_ key: [UInt8]) -> KeyRange {
    KeyRange(lower: key, lowerInclusive: true, upper: key, upperInclusive: true)
  }

  /// Every key that starts with `prefix`.
  static func prefixed(_ prefix: [UInt8]) -> KeyRange {
    KeyRange(
      lower: prefix, lowerInclusive: true, upper: Cursor.successor(of: prefix) ?? [UInt8](repeating: 0xFF, count: 512),
      upperInclusive: false)
  }

  var isExact: Bool { lowerInclusive && upperInclusive && lower == upper }

  var isEmpty: Bool {
    let order = Self.compare(lower, upper)
    return order > 0 || (order == 0 && !(lowerInclusive && upperInclusive))
  }

  func isAboveLower(_ key: UnsafeRawBufferPointer) -> Bool {
    let order = lower.withUnsafeBytes { Value.compareRaw(key, $0) }
    return lowerInclusive ? order >= 0 : order > 0
  }

  func isBelowUpper(_ key: UnsafeRawBufferPointer) -> Bool {
    let order = upper.withUnsafeBytes { Value.compareRaw(key, $0) }
    return upperInclusive ? order <= 0 : order < 0
  }

  /// The overlap of two ranges.
  func intersection(_ other: KeyRange) -> KeyRange {
    var result = self
    let lowers = Self.compare(other.lower, lower)
    if lowers > 0 || (lowers == 0 && !other.lowerInclusive) {
      result.lower = other.lower
      result.lowerInclusive = other.lowerInclusive
    }
    let uppers = Self.compare(other.upper, upper)
    if uppers < 0 || (uppers == 0 && !other.upperInclusive) {
      result.upper = other.upper
      result.upperInclusive = other.upperInclusive
    }
    return result
  }

  static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in Value.compareRaw(x, y) } }
  }
}
