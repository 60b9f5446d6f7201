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
struct ByteReader {
  struct Malformed: Error {
    let offset: Int
    let reason: String
  }

  let buffer: UnsafeRawBufferPointer
  var offset = 0

  init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

  var remaining: Int { buffer.count - offset }
  var isAtEnd: Bool { offset >= buffer.count }

  func fail(_ reason: String) -> Malformed { Malformed(offset: offset, reason: reason) }

  @inline(__always) mutating func byte() throws(Malformed) -> UInt8 {
    guard offset < buffer.count else { throw fail("unexpected end of data") }
    defer { offset += 1 }
    return buffer[offset]
  }

  @inline(__always) mutating func varint() throws(Malformed) -> UInt64 {
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

  @inline(__always) mutating func signedVarint() throws(Malformed) -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// A count of items that each take at least one byte: no larger than what remains.
  @inline(__always) mutating func count() throws(Malformed) -> Int {
    let value = try varint()
    guard value <= UInt64(remaining) else { throw fail("count \(value) exceeds the remaining \(remaining) bytes") }
    return Int(value)
  }

  @inline(__always) mutating func fixed64() throws(Malformed) -> UInt64 {
    guard remaining >= 8 else { throw fail("unexpected end of data") }
    defer { offset += 8 }
    return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  mutating func bytes(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
    guard count <= remaining else { throw fail("\(count) bytes wanted, \(remaining) left") }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
  }

  /// A length-prefixed string, which must be valid UTF-8.
  @inline(__always) mutating func string() throws(Malformed) -> String {
    let length = try count()
    let raw = try bytes(length)
    guard let string = String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) else {
      throw Malformed(offset: offset - length, reason: "invalid UTF-8 in a string")
    }
    return string
  }
}
