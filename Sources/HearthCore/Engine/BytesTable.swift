import Foundation

/// Values by byte strings: an open-addressed table keyed by a hash of the bytes, so that
/// a lookup builds no key and runs no general-purpose hasher (a `Dictionary` keyed by
/// `[UInt8]` costs an array a lookup and ~25 instructions a byte to hash). The collection
/// registry keeps collections in it by path and by the names that group index entries
/// give them; a point get makes one lookup, a group query one a result.
struct BytesTable<Value: Sendable>: Sendable {
  /// Each slot's hash, 0 when empty (`hash` never gives 0): probed without copying a slot.
  private var hashes = [UInt64](repeating: 0, count: 64)
  /// Where each slot's bytes lie in `arena`. The bytes of every entry are kept in one
  /// array rather than one each: a lookup then compares them in place, without copying
  /// (retaining and releasing) an array or reading its header first, one memory access
  /// less a group query's result.
  private var spans = [(start: Int, count: Int)](repeating: (0, 0), count: 64)
  private var values = [Value?](repeating: nil, count: 64)
  private var arena: [UInt8] = []
  private var count = 0

  /// The value kept for `bytes`, when there is one.
  func find(_ bytes: UnsafeRawBufferPointer) -> Value? {
    let hash = Self.hash(bytes)
    let mask = hashes.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while hashes[index] != 0 {
      if hashes[index] == hash, spans[index].count == bytes.count, matches(spans[index], bytes) {
        return values[index]
      }
      index = (index + 1) & mask
    }
    return nil
  }

  private func matches(_ span: (start: Int, count: Int), _ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.isEmpty
      || arena.withUnsafeBytes { memcmp($0.baseAddress! + span.start, bytes.baseAddress!, bytes.count) == 0 }
  }

  /// Adds bytes not yet in the table; the table doubles when half full.
  mutating func insert(_ bytes: UnsafeRawBufferPointer, _ value: Value) {
    let hash = Self.hash(bytes)
    if (count + 1) * 2 > hashes.count {
      let (oldHashes, oldSpans, oldValues) = (hashes, spans, values)
      hashes = [UInt64](repeating: 0, count: oldHashes.count * 2)
      spans = [(start: Int, count: Int)](repeating: (0, 0), count: oldHashes.count * 2)
      values = [Value?](repeating: nil, count: oldHashes.count * 2)
      for index in oldHashes.indices where oldHashes[index] != 0 {
        place(oldHashes[index], oldSpans[index], oldValues[index]!)
      }
    }
    place(hash, (arena.count, bytes.count), value)
    arena += bytes
    count += 1
  }

  private mutating func place(_ hash: UInt64, _ span: (start: Int, count: Int), _ value: Value) {
    let mask = hashes.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while hashes[index] != 0 { index = (index + 1) & mask }
    hashes[index] = hash
    spans[index] = span
    values[index] = value
  }

  /// A 64-bit hash of the bytes, eight at a time (multiply and fold), with their count;
  /// never 0, which marks an empty slot.
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
    let count = bytes.count
    var offset = 0
    while offset + 8 <= count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
      offset += 8
    }
    if offset < count {
      // The last eight bytes (overlapping those already mixed), or the few there are.
      var tail: UInt64 = 0
      if count >= 8 {
        tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      } else {
        for position in 0..<count { tail |= UInt64(bytes[position]) << (8 * UInt64(position)) }
      }
      hash = (hash ^ tail) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
    }
    return hash | 1
  }
}
