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

  // The reads below are a document's decode, dozens a document. Each takes its common
  // case inline (in bounds; a varint of one byte) and leaves the rest, and every error's
  // message, to a function of its own, which kept the call and its error building out of
  // every read (12% of a post's `data()`).

  @inlinable @inline(__always) mutating func byte() throws(Malformed) -> UInt8 {
    guard offset < buffer.count else { throw endOfData() }
    let next = buffer[offset]
    offset += 1
    return next
  }

  @inlinable @inline(__always) mutating func varint() throws(Malformed) -> UInt64 {
    if offset < buffer.count {
      let first = buffer[offset]
      if first < 0x80 {
        offset += 1
        return UInt64(first)
      }
    }
    return try longVarint()
  }

  /// A varint of more than one byte, or past the end.
  @usableFromInline @inline(never) mutating func longVarint() throws(Malformed) -> UInt64 {
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
  @inlinable @inline(__always) mutating func count() throws(Malformed) -> Int {
    let value = try varint()
    guard value <= UInt64(remaining) else { throw countTooLarge(value) }
    return Int(value)
  }

  @inlinable mutating func fixed64() throws(Malformed) -> UInt64 {
    guard remaining >= 8 else { throw endOfData() }
    defer { offset += 8 }
    return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inlinable @inline(__always) mutating func bytes(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
    guard count >= 0, count <= remaining else { throw tooFewBytes(count) }
    let start = buffer.baseAddress.map { $0 + offset }
    offset += count
    return UnsafeRawBufferPointer(start: start, count: count)
  }

  @usableFromInline @inline(never) func endOfData() -> Malformed { fail("unexpected end of data") }

  @usableFromInline @inline(never) func countTooLarge(_ value: UInt64) -> Malformed {
    fail("count \(value) exceeds the remaining \(remaining) bytes")
  }

  @usableFromInline @inline(never) func tooFewBytes(_ count: Int) -> Malformed {
    fail("\(count) bytes wanted, \(remaining) left")
  }

  /// A length-prefixed string from checksummed bytes, which `ByteWriter` wrote as UTF-8:
  /// taken without a second check (damaged bytes would be repaired, never trusted).
  @inlinable mutating func trustedString() throws(Malformed) -> String {
    let raw = try bytes(try count())
    return UTF8Text.make(raw.bindMemory(to: UInt8.self))
  }
}
