import Foundation

/// Firestore's total order and equality over values, in one place: query matching,
/// transforms and the index key codec all use it (the key codec's property test checks
/// that byte order agrees with `Value.compare`).
extension Value: Comparable, Hashable {
  /// -1, 0 or 1 as `a` sorts before, with, or after `b`.
  package static func compare(_ a: Value, _ b: Value) -> Int {
    switch (a, b) {
    case (.null, .null): return 0
    case (.boolean(let x), .boolean(let y)): return x == y ? 0 : (x ? 1 : -1)
    case (.integer(let x), .integer(let y)): return order(x, y)
    case (.double(let x), .double(let y)): return compareDoubles(x, y)
    case (.integer(let x), .double(let y)): return compareMixed(x, y)
    case (.double(let x), .integer(let y)): return -compareMixed(y, x)
    case (.timestamp(let x), .timestamp(let y)):
      return x.seconds != y.seconds ? order(x.seconds, y.seconds) : order(x.nanoseconds, y.nanoseconds)
    case (.string(let x), .string(let y)): return compareUTF8(x, y)
    case (.bytes(let x), .bytes(let y)): return compareBytes(x, y)
    case (.reference(let x), .reference(let y)): return x.compare(y)
    case (.geoPoint(let x), .geoPoint(let y)):
      let latitude = compareDoubles(x.latitude, y.latitude)
      return latitude != 0 ? latitude : compareDoubles(x.longitude, y.longitude)
    case (.array(let x), .array(let y)):
      for (left, right) in zip(x, y) {
        let result = compare(left, right)
        if result != 0 { return result }
      }
      return order(x.count, y.count)
    case (.map(let x), .map(let y)):
      switch (vectorElements(x), vectorElements(y)) {
      // Vectors order by length, then element by element (Firestore's CompareVectors).
      case (let v?, let w?): return v.count != w.count ? order(v.count, w.count) : compare(.array(v), .array(w))
      case (.some, nil): return -1
      case (nil, .some): return 1
      case (nil, nil): return compareMaps(x, y)
      }
    default: return order(a.typeOrder.rawValue, b.typeOrder.rawValue)
    }
  }

  package static func == (a: Value, b: Value) -> Bool { compare(a, b) == 0 }
  package static func < (a: Value, b: Value) -> Bool { compare(a, b) < 0 }

  /// Hashes consistently with `==`: an integral double hashes as the integer, NaN as one
  /// value, `-0.0` as `0`, and a map independently of its key order.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(typeOrder.rawValue)
    switch self {
    case .null: break
    case .boolean(let b): hasher.combine(b)
    case .integer(let i): hasher.combine(i)
    case .double(let d):
      if d.isNaN {
        hasher.combine(0x7FF8 as UInt16)
      } else if d == d.rounded(.towardZero), d >= -0x1p63, d < 0x1p63 {
        hasher.combine(Int64(d))
      } else {
        hasher.combine(d)
      }
    case .timestamp(let t): hasher.combine(t)
    case .string(let s):
      hasher.combine(s.utf8.count)
      for byte in s.utf8 { hasher.combine(byte) }
    case .bytes(let data): hasher.combine(data)
    case .reference(let key): hasher.combine(key)
    case .geoPoint(let point):
      // As `compareDoubles` sees them: every NaN one value (NaNs with other payloads or
      // signs used to hash apart though equal), and `-0.0` as `0.0`.
      for coordinate in [point.latitude, point.longitude] {
        hasher.combine(coordinate.isNaN ? Double.nan.bitPattern : (coordinate == 0 ? 0 : coordinate.bitPattern))
      }
    case .array(let values): hasher.combine(values)
    case .map(let fields):
      var combined = 0
      for (key, value) in fields {
        var entry = Hasher()
        entry.combine(key)
        entry.combine(value)
        combined = combined &+ entry.finalize()
      }
      hasher.combine(fields.count)
      hasher.combine(combined)
    }
  }

  /// Whether the two values are the same type with the same bits: `1` is not `1.0` and
  /// `-0.0` is not `0.0` here (though they are `==`). A rewrite that leaves every field
  /// identical is not a change.
  package func isIdentical(to other: Value) -> Bool {
    switch (self, other) {
    case (.null, .null): return true
    case (.boolean(let x), .boolean(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    case (.timestamp(let x), .timestamp(let y)): return x == y
    case (.string(let x), .string(let y)): return Value.compareUTF8(x, y) == 0
    case (.bytes(let x), .bytes(let y)): return x == y
    case (.reference(let x), .reference(let y)): return x == y
    case (.geoPoint(let x), .geoPoint(let y)):
      return x.latitude.bitPattern == y.latitude.bitPattern && x.longitude.bitPattern == y.longitude.bitPattern
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.isIdentical(to: $1) }
    case (.map(let x), .map(let y)): return Value.identicalFields(x, y)
    default: return false
    }
  }

  /// `isIdentical(to:)` over two field maps (two documents' data). Keys must match byte
  /// for byte, not merely as equal Swift strings.
  package static func identicalFields(_ x: [String: Value], _ y: [String: Value]) -> Bool {
    guard x.count == y.count else { return false }
    for (key, value) in x {
      guard let index = y.index(forKey: key), compareUTF8(y[index].key, key) == 0,
        value.isIdentical(to: y[index].value)
      else { return false }
    }
    return true
  }

  // MARK: - Pieces

  @inline(__always)
  static func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }

  /// Doubles with NaN equal to itself and before every other number, and `-0.0 == 0.0`.
  static func compareDoubles(_ x: Double, _ y: Double) -> Int {
    if x < y { return -1 }
    if x > y { return 1 }
    if x == y { return 0 }
    return x.isNaN ? (y.isNaN ? 0 : -1) : 1
  }

  /// An integer against a double, exactly (no rounding of the integer through Double:
  /// `2^53 + 1` is greater than `2^53` as a double).
  static func compareMixed(_ x: Int64, _ y: Double) -> Int {
    if y.isNaN { return 1 }
    if y >= 0x1p63 { return -1 }
    if y < -0x1p63 { return 1 }
    let whole = y.rounded(.towardZero)
    let truncated = Int64(whole)
    if x != truncated { return x < truncated ? -1 : 1 }
    let fraction = y - whole
    return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
  }

  /// Strings by their UTF-8 bytes (Unicode code point order), not by Swift's
  /// canonical-equivalence comparison.
  package static func compareUTF8(_ x: String, _ y: String) -> Int {
    let direct = x.utf8.withContiguousStorageIfAvailable { a in
      y.utf8.withContiguousStorageIfAvailable { b in compareRaw(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
    }
    if let direct, let result = direct { return result }
    // Strings bridged from Foundation may not be contiguous UTF-8: copy them once.
    var x = x
    var y = y
    return x.withUTF8 { a in
      y.withUTF8 { b in compareRaw(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
    }
  }

  static func compareBytes(_ x: Data, _ y: Data) -> Int {
    x.withUnsafeBytes { a in y.withUnsafeBytes { b in compareRaw(a, b) } }
  }

  /// memcmp over the common length, then the shorter first.
  static func compareRaw(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0 {
      let result = memcmp(a.baseAddress!, b.baseAddress!, common)
      if result != 0 { return result < 0 ? -1 : 1 }
    }
    return order(a.count, b.count)
  }

  /// Maps by their keys sorted in byte order: key, then value, pair by pair; then size.
  static func compareMaps(_ x: [String: Value], _ y: [String: Value]) -> Int {
    let left = sortedKeys(x)
    let right = sortedKeys(y)
    for (a, b) in zip(left, right) {
      let keys = compareUTF8(a, b)
      if keys != 0 { return keys }
      let values = compare(x[a]!, y[b]!)
      if values != 0 { return values }
    }
    return order(left.count, right.count)
  }

  /// A map's keys in byte order, the order of comparison and of encodings.
  package static func sortedKeys(_ fields: [String: Value]) -> [String] {
    fields.keys.sorted { compareUTF8($0, $1) < 0 }
  }
}
