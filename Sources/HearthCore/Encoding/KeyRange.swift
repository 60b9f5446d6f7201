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
    raisingLower(to: other.lower, other.lowerInclusive).loweringUpper(to: other.upper, other.upperInclusive)
  }

  /// This range, starting at `key` instead when that is the tighter lower end.
  func raisingLower(to key: [UInt8], _ inclusive: Bool) -> KeyRange {
    let order = Self.compare(key, lower)
    guard order > 0 || (order == 0 && !inclusive) else { return self }
    var result = self
    result.lower = key
    result.lowerInclusive = inclusive
    return result
  }

  /// This range, ending at `key` instead when that is the tighter upper end.
  func loweringUpper(to key: [UInt8], _ inclusive: Bool) -> KeyRange {
    let order = Self.compare(key, upper)
    guard order < 0 || (order == 0 && !inclusive) else { return self }
    var result = self
    result.upper = key
    result.upperInclusive = inclusive
    return result
  }

  static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in Value.compareRaw(x, y) } }
  }

  /// The keys in ascending order, each once: sorted and compared in place (a `Set` of an
  /// `in`'s five keys hashed every byte, ~4k instructions).
  static func sortedUnique(_ keys: [[UInt8]]) -> [[UInt8]] {
    var sorted = keys.sorted { compare($0, $1) < 0 }
    var kept = 0
    for index in sorted.indices where kept == 0 || compare(sorted[kept - 1], sorted[index]) != 0 {
      sorted.swapAt(kept, index)
      kept += 1
    }
    sorted.removeSubrange(kept...)
    return sorted
  }
}
