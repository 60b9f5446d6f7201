import Foundation

/// The order-preserving key codec: index keys are built from these bytes, and LMDB's
/// unsigned lexicographic key order (memcmp, then the shorter first) must be exactly
/// Firestore's value order, `Value.compare`.
///
/// Three properties make that work, and the property test in `KeyCodecTests` is their
/// contract:
/// - **Order:** `compare(a, b)` equals the byte order of `encode(a)` and `encode(b)`.
/// - **Canonical:** values that compare equal encode to identical bytes (`1` and `1.0`,
///   `-0.0` and `0.0`, every NaN), so an equality lookup is one exact key.
/// - **Prefix-free:** no encoding is a proper prefix of another, so the first byte at
///   which two different encodings differ lies inside both. That is what lets several
///   values be concatenated into one composite key and still order field by field, and
///   what lets the descending variant (every byte complemented) reverse the order
///   exactly.
///
/// Nothing is ever decoded: an index entry ends with the document key and the document
/// is read back from the documents table.
///
/// ## Byte layout (ascending; descending complements every byte of the value)
///
/// ```
/// value := label payload
///
/// label  type        payload
/// 0x10   null        (none)
/// 0x18   boolean     0x00 false | 0x01 true
/// 0x20   number      header(2, big-endian) [fraction]        integers and doubles alike
/// 0x28   timestamp   seconds(8) nanoseconds(4)                big-endian, sign bit flipped
/// 0x30   string      escaped(UTF-8)
/// 0x38   bytes       escaped(bytes)
/// 0x40   reference   segment… 0x00 0x00
/// 0x48   geopoint    double(8) latitude, double(8) longitude
/// 0x50   array       value… 0x01
/// 0x54   vector      count(8) value…                           big-endian count: length first
/// 0x58   map         (escaped(key) value)… 0x00 0x00          keys in UTF-8 byte order
///
/// escaped(s) := s with each 0x00 written 0x00 0xFF, then the terminator 0x00 0x01
/// segment    := escaped(ID) | 0x00 0xFF 0xFF number(10) 0x00 0x01  (a numeric ID)
/// ```
///
/// A path's segment that is a numeric document ID (`__id7__`, `NumericID`) is its number
/// in ten bytes without a zero byte after 0x00 0xFF 0xFF, which no escaped string has:
/// it sorts before every other segment but those beginning with a zero byte.
///
/// Labels follow Firestore's type order with gaps for future types. A vector (a map of
/// the shape `Value.vectorElements` names) is its own type, between arrays and maps,
/// ordered by length and then element by element; its fixed-width count keeps it
/// prefix-free without an end marker. The array end marker 0x01 sorts below every
/// label, so an array that is a prefix of another sorts first. Reference and map
/// sequences end with 0x00 0x00, which sorts below every escaped string: escaped
/// strings start with a non-zero byte, 0x00 0xFF (a leading NUL) or 0x00 0x01 (the
/// empty string). Inside an escaped string the terminator 0x00 0x01 sorts below an
/// escaped NUL 0x00 0xFF, which sorts below every other byte: `"" < "a" < "a\0" <
/// "a\0b" < "ab"`.
///
/// **Numbers** are encoded by their exact value, a dyadic rational ±m·2^e, so an
/// integer and a double compare exactly (`2^53 + 1` is above the double `2^53`; Firestore
/// itself converts integers to doubles here and loses that). Write a finite non-zero
/// number as ±1.f × 2^E, where E is the position of its leading one bit (−1074 for the
/// smallest subnormal, 1023 for the largest double, at most 63 for an Int64) and f is
/// the at most 63 bits after it. The two header bytes order the classes and exponents:
///
/// ```
/// header 0             NaN (every payload; NaN sorts before −∞)
/// header 1             −∞
/// header 2 + (1023 − E)        negative, larger magnitude first      2 ... 2099
/// header 2100          zero (−0.0, 0.0 and integer 0)
/// header 2101 + (E + 1074)     positive                               2101 ... 4198
/// header 4199          +∞
/// ```
///
/// Finite non-zero numbers follow the header with f, left-aligned, in groups of seven
/// bits: each byte is `group << 1 | more`, where `more` is 1 when a later group is
/// non-zero; trailing zero groups are dropped, and f = 0 is the single byte 0x00. Where
/// two fractions first differ either the groups differ, or one ends (`more` = 0 and
/// only zero bits follow) where the other goes on (`more` = 1 and a non-zero bit
/// follows), so byte order is the order of f, and the groups are prefix-free. Negative
/// numbers complement the fraction bytes so that larger magnitudes sort first. An
/// integer such as 7 takes 4 bytes, an Int64 or double at most 12.
///
/// **Geopoint doubles** (and only they) use a fixed 8-byte form: the IEEE bits with the
/// sign bit set for non-negative values and all bits complemented for negative ones;
/// `-0.0` is written as `0.0` and every NaN as eight zero bytes, below −∞.
///
/// **Timestamps** are the seconds (Int64) and then the nanoseconds (Int32) with the sign
/// bit flipped, big-endian, so two's-complement order becomes unsigned byte order.
package enum KeyCodec {
  /// The first byte of every encoded value, one per type in Firestore's type order.
  package enum Label: UInt8, Sendable, CaseIterable {
    case null = 0x10
    case boolean = 0x18
    case number = 0x20
    case timestamp = 0x28
    case string = 0x30
    case bytes = 0x38
    case reference = 0x40
    case geoPoint = 0x48
    case array = 0x50
    case vector = 0x54
    case map = 0x58

    /// The label of every value of `type`: an index scan over one type (as a range query
    /// on numbers is) covers keys from `[label]` up to, not including, `[label + 1]`.
    package init(_ type: Value.TypeOrder) {
      switch type {
      case .null: self = .null
      case .boolean: self = .boolean
      case .number: self = .number
      case .timestamp: self = .timestamp
      case .string: self = .string
      case .bytes: self = .bytes
      case .reference: self = .reference
      case .geoPoint: self = .geoPoint
      case .array: self = .array
      case .vector: self = .vector
      case .map: self = .map
      }
    }
  }

  /// Ends an array: below every label, so `[1] < [1, x]` for any `x`.
  static let arrayEnd: UInt8 = 0x01

  // MARK: - Public API

  /// The key bytes of `value`; with `descending`, every byte complemented so that byte
  /// order is the reverse of value order.
  package static func encode(_ value: Value, descending: Bool = false) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    append(value, descending: descending, to: &bytes)
    return bytes
  }

  /// Appends the key bytes of `value` to `bytes`, the building block of composite keys:
  /// because encodings are prefix-free, a concatenation of several values (each
  /// ascending or descending) orders like the tuple of values.
  package static func append(_ value: Value, descending: Bool = false, to bytes: inout [UInt8]) {
    let start = bytes.count
    appendAscending(value, to: &bytes)
    if descending { complement(&bytes, from: start) }
  }

  /// Appends `string` as an escaped, terminated UTF-8 string without a type label: for
  /// key parts that are always strings (collection IDs, document IDs). Orders by UTF-8
  /// bytes and is prefix-free like a value encoding.
  package static func append(string: String, descending: Bool = false, to bytes: inout [UInt8]) {
    let start = bytes.count
    appendEscaped(string, to: &bytes)
    if descending { complement(&bytes, from: start) }
  }

  /// Appends a document ID as a path's segment is appended (`append(path:)`): escaped
  /// and terminated, or a numeric one as `NumericID` encodes it.
  package static func append(id: String, descending: Bool = false, to bytes: inout [UInt8]) {
    let start = bytes.count
    appendSegment(id, to: &bytes)
    if descending { complement(&bytes, from: start) }
  }

  /// Appends a path without a type label: its segments as escaped strings, then the end
  /// marker 0x00 0x00. Orders segment by segment, then the shorter path first, which is
  /// `ResourcePath.compare` (the `__name__` order); prefix-free.
  package static func append(path: ResourcePath, descending: Bool = false, to bytes: inout [UInt8]) {
    appendSegments(path.segments, then: nil, descending: descending, to: &bytes)
  }

  /// Appends a document key as `append(path:)` does its path (without joining it): the
  /// tail of an index entry key.
  package static func append(documentKey: DocumentKey, descending: Bool = false, to bytes: inout [UInt8]) {
    appendSegments(
      documentKey.collectionPath.segments, then: documentKey.documentID, descending: descending, to: &bytes)
  }

  /// Appends an unsigned integer as 8 big-endian bytes (fixed width, so prefix-free), for
  /// key parts such as index and collection IDs.
  package static func append(uint64 value: UInt64, descending: Bool = false, to bytes: inout [UInt8]) {
    appendBigEndian(descending ? ~value : value, to: &bytes)
  }

  // MARK: - Values

  private static func appendAscending(_ value: Value, to bytes: inout [UInt8]) {
    switch value {
    case .null:
      bytes.append(Label.null.rawValue)
    case .boolean(let flag):
      bytes.append(Label.boolean.rawValue)
      bytes.append(flag ? 1 : 0)
    case .integer(let integer):
      bytes.append(Label.number.rawValue)
      appendInteger(integer, to: &bytes)
    case .double(let double):
      bytes.append(Label.number.rawValue)
      appendDouble(double, to: &bytes)
    case .timestamp(let timestamp):
      bytes.append(Label.timestamp.rawValue)
      appendBigEndian(UInt64(bitPattern: timestamp.seconds) ^ (1 << 63), to: &bytes)
      appendBigEndian(UInt32(bitPattern: timestamp.nanoseconds) ^ (1 << 31), to: &bytes)
    case .string(let string):
      bytes.append(Label.string.rawValue)
      appendEscaped(string, to: &bytes)
    case .bytes(let data):
      bytes.append(Label.bytes.rawValue)
      data.withUnsafeBytes { raw in
        raw.withMemoryRebound(to: UInt8.self) { appendEscaped($0, to: &bytes) }
      }
    case .reference(let key):
      bytes.append(Label.reference.rawValue)
      append(documentKey: key, to: &bytes)
    case .geoPoint(let point):
      bytes.append(Label.geoPoint.rawValue)
      appendBigEndian(orderedBits(point.latitude), to: &bytes)
      appendBigEndian(orderedBits(point.longitude), to: &bytes)
    case .array(let elements):
      bytes.append(Label.array.rawValue)
      for element in elements { appendAscending(element, to: &bytes) }
      bytes.append(arrayEnd)
    case .map(let fields):
      if let elements = Value.vectorElements(fields) {
        bytes.append(Label.vector.rawValue)
        appendBigEndian(UInt64(elements.count), to: &bytes)
        for element in elements { appendAscending(element, to: &bytes) }
        return
      }
      bytes.append(Label.map.rawValue)
      // Value.compareMaps walks the keys in UTF-8 byte order: key, then value, pair by
      // pair, then size (the end marker, below any key).
      for key in Value.sortedKeys(fields) {
        appendEscaped(key, to: &bytes)
        appendAscending(fields[key]!, to: &bytes)
      }
      bytes.append(0x00)
      bytes.append(0x00)
    }
  }

  // MARK: - Numbers

  static let minExponent = -1074  // the smallest subnormal, 2^-1074
  static let maxExponent = 1023  // the largest finite double's leading bit
  static let nanHeader: UInt16 = 0
  static let negativeInfinityHeader: UInt16 = 1
  static let negativeBase: UInt16 = 2  // + (maxExponent - E)
  static let zeroHeader: UInt16 = 2100  // negativeBase + 2098 exponents
  static let positiveBase: UInt16 = 2101  // + (E - minExponent)
  static let positiveInfinityHeader: UInt16 = 4199  // positiveBase + 2098 exponents

  @inline(__always)
  private static func appendInteger(_ integer: Int64, to bytes: inout [UInt8]) {
    if integer == 0 {
      appendBigEndian(zeroHeader, to: &bytes)
    } else {
      // `magnitude` is exact even for Int64.min (2^63 fits a UInt64).
      appendFinite(magnitude: integer.magnitude, exponent: 0, negative: integer < 0, to: &bytes)
    }
  }

  @inline(__always)
  private static func appendDouble(_ double: Double, to bytes: inout [UInt8]) {
    if double.isNaN {
      appendBigEndian(nanHeader, to: &bytes)
    } else if double.isInfinite {
      appendBigEndian(double < 0 ? negativeInfinityHeader : positiveInfinityHeader, to: &bytes)
    } else if double == 0 {
      appendBigEndian(zeroHeader, to: &bytes)
    } else {
      // The value is exactly significand × 2^exponent with an integer significand.
      let stored = double.significandBitPattern
      let biased = Int(double.exponentBitPattern)
      let significand = biased == 0 ? stored : stored | (1 << 52)
      let exponent = biased == 0 ? minExponent : biased - 1075
      appendFinite(magnitude: significand, exponent: exponent, negative: double < 0, to: &bytes)
    }
  }

  /// Appends the header and fraction of ±`magnitude` × 2^`exponent` (magnitude > 0).
  /// Normalising to the leading one bit makes the representation unique, so equal values
  /// from an integer and a double produce the same bytes.
  @inline(__always)
  private static func appendFinite(magnitude: UInt64, exponent: Int, negative: Bool, to bytes: inout [UInt8]) {
    let zeros = magnitude.leadingZeroBitCount
    let leading = exponent + 63 - zeros  // E: the position of the leading one bit
    appendBigEndian(
      negative
        ? negativeBase + UInt16(maxExponent - leading)
        : positiveBase + UInt16(leading - minExponent),
      to: &bytes)
    // The bits after the leading one, left-aligned (a shift by 64 yields 0); at most 63.
    var fraction = magnitude << (zeros + 1)
    let flip: UInt8 = negative ? 0xFF : 0x00
    repeat {
      let group = UInt8(truncatingIfNeeded: fraction >> 57) << 1
      fraction <<= 7
      bytes.append((fraction == 0 ? group : group | 1) ^ flip)
    } while fraction != 0
  }

  /// The number whose key bytes (after the number label, ascending) start `bytes`, as a
  /// double: exact for a double, rounded to the nearest for an integer beyond 2^53 (as
  /// `Double(integer)` rounds it, which is what an average takes; -0.0 gives 0, which
  /// shares its key). `nil` when the bytes are not a number's key. A key keeps a number's
  /// exact value but not whether it was stored as an integer or a double (`1` and `1.0`
  /// share a key).
  static func double(numberKey bytes: UnsafeRawBufferPointer) -> Double? {
    guard bytes.count >= 2 else { return nil }
    let header = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    switch header {
    case nanHeader: return .nan
    case negativeInfinityHeader: return -.infinity
    case zeroHeader: return 0
    case positiveInfinityHeader: return .infinity
    case positiveInfinityHeader...: return nil
    default: break
    }
    let negative = header < zeroHeader
    let leading = negative ? maxExponent - Int(header - negativeBase) : Int(header - positiveBase) + minExponent
    // The fraction's groups of seven bits, left-aligned from bit 63 (at most nine).
    var fraction: UInt64 = 0
    var shift = 57
    var index = 2
    while true {
      guard index < bytes.count, shift >= 1 else { return nil }
      let byte = negative ? ~bytes[index] : bytes[index]
      fraction |= UInt64(byte >> 1) << shift
      index += 1
      shift -= 7
      if byte & 1 == 0 { break }
    }
    // 1.f × 2^E as a 64-bit significand: rounded once to 53 bits, then scaled exactly.
    let significand = 1 << 63 | fraction >> 1
    return Double(sign: negative ? .minus : .plus, exponent: leading - 63, significand: Double(significand))
  }

  /// A double as an unsigned integer in the order of `Value.compareDoubles`: NaN lowest,
  /// then −∞ … +∞, with `-0.0` the same as `0.0`.
  @inline(__always)
  static func orderedBits(_ double: Double) -> UInt64 {
    if double.isNaN { return 0 }
    let bits = (double == 0 ? 0.0 : double).bitPattern
    return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
  }

  // MARK: - Strings, bytes, paths

  /// `string`'s UTF-8 bytes, escaped and terminated.
  @inline(__always)
  private static func appendEscaped(_ string: String, to bytes: inout [UInt8]) {
    var string = string
    string.withUTF8 { appendEscaped($0, to: &bytes) }
  }

  /// `source` with each 0x00 written 0x00 0xFF, then 0x00 0x01. Copies the runs between
  /// NULs in bulk: most strings have none and are one copy.
  private static func appendEscaped(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    var runStart = 0
    for index in source.indices where source[index] == 0 {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
      bytes.append(0x00)
      bytes.append(0xFF)
      runStart = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
    bytes.append(0x00)
    bytes.append(0x01)
  }

  /// Each segment escaped, then 0x00 0x00: the end sorts below any segment (even an empty
  /// one, 0x00 0x01), so a path sorts before the paths it is a prefix of.
  /// `segments` and then `last` as escaped strings, then the end marker 0x00 0x00, all
  /// complemented when descending.
  private static func appendSegments(
    _ segments: [String], then last: String?, descending: Bool, to bytes: inout [UInt8]
  ) {
    let start = bytes.count
    for segment in segments { appendSegment(segment, to: &bytes) }
    if let last { appendSegment(last, to: &bytes) }
    bytes.append(0x00)
    bytes.append(0x00)
    if descending { complement(&bytes, from: start) }
  }

  /// A segment escaped and terminated; a numeric document ID (`__id7__`) as `NumericID`
  /// encodes it, then the terminator: it sorts before every escaped string but those
  /// that begin with a zero byte, as Firestore orders names (`NumericID.compare`).
  @inline(__always)
  private static func appendSegment(_ segment: String, to bytes: inout [UInt8]) {
    guard let number = NumericID.number(segment) else { return appendEscaped(segment, to: &bytes) }
    NumericID.append(number, to: &bytes)
    bytes.append(0x00)
    bytes.append(0x01)
  }

  // MARK: - Primitives

  @inline(__always)
  private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
  }

  /// Complements `bytes[start...]`: the descending form of what was appended since.
  private static func complement(_ bytes: inout [UInt8], from start: Int) {
    bytes.withUnsafeMutableBufferPointer { buffer in
      for index in start..<buffer.count { buffer[index] = ~buffer[index] }
    }
  }
}
