/// Strings from stored bytes that no checksum covers (keys), checked without the standard
/// library's generic `String(validating:as:)`, whose metadata lookups cost more than the
/// decoding itself.
///
/// `@usableFromInline` so that `ByteReader`'s inlinable string read can call `make`.
@usableFromInline
package enum UTF8Text {
  /// The bytes as a string, or `nil` when they are not valid UTF-8.
  package static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
    let units = bytes.bindMemory(to: UInt8.self)
    // ASCII (most names and values) cannot need repair, so skip the full check.
    guard isASCII(units) || isValid(units) else { return nil }
    return make(units)
  }

  /// The bytes as a string, repaired where they are not UTF-8, as `String(decoding:as:)`
  /// makes it. Up to 15 bytes (most IDs, field names and short values) it is built in
  /// place as a small string, which the standard library checks as ASCII by a mask
  /// instead of running its repairing decoder (~100 instructions more a string).
  @inlinable package static func make(_ units: UnsafeBufferPointer<UInt8>) -> String {
    guard units.count <= 15 else { return String(decoding: units, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: units.count) { buffer in
      var index = 0
      while index < units.count {
        buffer[index] = units[index]
        index += 1
      }
      return index
    }
  }

  static func isASCII(_ units: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let raw = UnsafeRawBufferPointer(units)
    while index + 8 <= units.count {
      if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
      index += 8
    }
    while index < units.count {
      if units[index] >= 0x80 { return false }
      index += 1
    }
    return true
  }

  /// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
  static func isValid(_ units: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = units.count
    while index < count {
      let lead = units[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return false
      }
      guard index + length <= count else { return false }
      let second = units[index + 1]
      guard second >= low && second <= high else { return false }
      for offset in 2..<length where units[index + offset] & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }
}
