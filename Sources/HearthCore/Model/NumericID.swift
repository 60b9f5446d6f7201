/// A numeric document ID, `__id<integer>__` (`__id7__`, `__id-2__`): the IDs Datastore
/// gives entities, which Firestore accepts as document IDs though it reserves every other
/// `__.+__` name, and orders before every other ID, by their numbers. The integer is a
/// 64-bit one written as `Int64.description` writes it (no `+`, no leading zeros), and not
/// zero: Google's emulator reserves `__id0__`, `__id-0__`, `__id007__` and `__id+5__`, and
/// refuses `__id9223372036854775808__` as not a 64-bit integer. Collection IDs and field
/// names stay reserved.
///
/// Hearth orders names as Firestore does with one exception: an ID that begins with a
/// zero byte (U+0000) comes before the numeric IDs, where Firestore puts it after. Keys
/// hold IDs as their UTF-8 bytes, so a numeric ID's key is a zero byte and bytes no
/// UTF-8 text has (`append`): no ID's key can equal it, and only IDs beginning with a
/// zero byte sort below it.
package enum NumericID {
  /// The number of a numeric ID, or `nil` for any other ID.
  @inline(__always)
  package static func number(_ id: String) -> Int64? {
    // Nearly every ID fails at its first byte.
    guard id.utf8.first == UInt8(ascii: "_") else { return nil }
    return parse(id)
  }

  /// Compared by bytes, as names are (a `Character` comparison would join an accent to
  /// an underscore or a digit).
  private static func parse(_ id: String) -> Int64? {
    var id = id
    return id.withUTF8 { bytes -> Int64? in
      guard bytes.count > 6, bytes.count <= 26, bytes.prefix(4).elementsEqual("__id".utf8),
        bytes.suffix(2).elementsEqual("__".utf8)
      else { return nil }
      let digits = String(decoding: bytes[4..<bytes.count - 2], as: UTF8.self)
      guard let number = Int64(digits), number != 0, String(number) == digits else { return nil }
      return number
    }
  }

  /// The ID of `number`.
  package static func id(_ number: Int64) -> String { "__id\(number)__" }

  /// The bytes a numeric ID begins with in keys: a zero byte, then two bytes UTF-8 never
  /// holds. Escaped strings (`KeyCodec`) begin with a non-zero byte or 0x00 0xFF and a
  /// byte of the string's (never 0xFF), so this sorts after every one that begins with a
  /// zero byte and before every other.
  static let marker: [UInt8] = [0x00, 0xFF, 0xFF]
  /// The marker and the number's ten bytes.
  static let encodedCount = 13

  /// Appends the marker and `number` in ten bytes of seven bits each, the most
  /// significant first, each with its top bit set: in numeric order byte by byte, and
  /// without a zero byte, which scanners of escaped strings stop at.
  static func append(_ number: Int64, to bytes: inout [UInt8]) {
    bytes += marker
    let biased = UInt64(bitPattern: number) ^ (1 << 63)
    for group in (0..<10).reversed() {
      bytes.append(0x80 | UInt8(truncatingIfNeeded: biased >> (7 * group)) & 0x7F)
    }
  }

  /// The number `bytes` (marker and ten bytes, ascending) encode, or `nil`.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    // The first of the ten bytes holds the number's top bit alone.
    guard bytes.count == encodedCount, isMarked(bytes), bytes[3] & 0x7E == 0 else { return nil }
    var biased: UInt64 = 0
    for index in 3..<encodedCount {
      let byte = bytes[index]
      guard byte & 0x80 != 0 else { return nil }
      biased = biased << 7 | UInt64(byte & 0x7F)
    }
    return Int64(bitPattern: biased ^ (1 << 63))
  }

  /// Whether `bytes` begin with the marker.
  static func isMarked(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 3 && bytes[0] == 0x00 && bytes[1] == 0xFF && bytes[2] == 0xFF
  }

  /// -1, 0 or 1: two IDs (or other segments of a path) in Firestore's order: numeric IDs
  /// first, by number, then the rest by their UTF-8 bytes; but an ID beginning with a
  /// zero byte before the numeric ones, as keys order them, unless `zeroByteFirst` is
  /// false (for names ordered in memory alone).
  package static func compare(_ a: String, _ b: String, zeroByteFirst: Bool = true) -> Int {
    switch (number(a), number(b)) {
    case (nil, nil): return Value.compareUTF8(a, b)
    case (let x?, let y?): return x < y ? -1 : (x > y ? 1 : 0)
    case (.some, nil): return zeroByteFirst && b.utf8.first == 0 ? 1 : -1
    case (nil, .some): return zeroByteFirst && a.utf8.first == 0 ? -1 : 1
    }
  }
}
