/// Appends the primitive pieces of Hearth's binary formats to a byte array.
struct ByteWriter {
  var bytes: [UInt8]

  init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  @inline(__always) mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// LEB128: seven bits a byte, low bits first.
  @inline(__always) mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// Zigzag then LEB128, so small negative numbers stay short.
  @inline(__always) mutating func signedVarint(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  @inline(__always) mutating func fixed32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  @inline(__always) mutating func fixed64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func bigEndian64(_ value: UInt64) {
    withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
  }

  /// A length-prefixed UTF-8 string.
  @inline(__always) mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      varint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }
}

/// Reads what `ByteWriter` wrote, checking every bound: corrupt input throws
/// `ByteReader.Malformed`, never reads outside the buffer, never allocates more than the
/// input could describe.
///
/// `@usableFromInline` so that `DocumentCodec`'s generic decoder can be specialized in
/// the modules that call it.
@usableFromInline
struct ByteReader {
  @usableFromInline
  struct Malformed: Error {
    @usableFromInline let offset: Int
    @usableFromInline let reason: String

    @usableFromInline init(offset: Int, reason: String) {
      self.offset = offset
      self.reason = reason
    }
  }

  @usableFromInline let buffer: UnsafeRawBufferPointer
  @usableFromInline var offset = 0

  @usableFromInline init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

  @inlinable var remaining: Int { buffer.count - offset }
  @inlinable var isAtEnd: Bool { offset >= buffer.count }

  @inlinable func fail(_ reason: String) -> Malformed { Malformed(offset: offset, reason: reason) }

  @inlinable mutating func byte() throws(Malformed) -> UInt8 {
    guard offset < buffer.count else { throw fail("unexpected end of data") }
    defer { offset += 1 }
    return buffer[offset]
  }

  @inlinable mutating func varint() throws(Malformed) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      if shift == 63 && next > 1 { throw fail("varint overflows 64 bits") }
      result |= UInt64(next & 0x7F) << shift
      if next < 0x80 { return result }
      shift += 7
      if shift > 63 { throw fail("varint longer than 10 bytes") }
    }
  }

  @inlinable mutating func signedVarint() throws(Malformed) -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// A count of items that each take at least one byte: no larger than what remains.
  @inlinable mutating func count() throws(Malformed) -> Int {
    let value = try varint()
    guard value <= UInt64(remaining) else { throw fail("count \(value) exceeds the remaining \(remaining) bytes") }
    return Int(value)
  }

  @inlinable mutating func fixed64() throws(Malformed) -> UInt64 {
    guard remaining >= 8 else { throw fail("unexpected end of data") }
    defer { offset += 8 }
    return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inlinable mutating func bytes(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
    guard count <= remaining else { throw fail("\(count) bytes wanted, \(remaining) left") }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
  }

  /// A length-prefixed string from checksummed bytes, which `ByteWriter` wrote as UTF-8:
  /// taken without a second check (damaged bytes would be repaired, never trusted).
  @inlinable mutating func trustedString() throws(Malformed) -> String {
    let raw = try bytes(try count())
    return String(decoding: raw.bindMemory(to: UInt8.self), as: UTF8.self)
  }
}

/// Strings from stored bytes that no checksum covers (keys), checked without the standard
/// library's generic `String(validating:as:)`, whose metadata lookups cost more than the
/// decoding itself.
public enum UTF8Text {
  /// The bytes as a string, or `nil` when they are not valid UTF-8.
  public static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
    let units = bytes.bindMemory(to: UInt8.self)
    // ASCII (most names and values) cannot need repair, so skip the full check.
    guard isASCII(units) || isValid(units) else { return nil }
    return String(decoding: units, as: UTF8.self)
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
