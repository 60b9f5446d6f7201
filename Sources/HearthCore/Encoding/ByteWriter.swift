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
