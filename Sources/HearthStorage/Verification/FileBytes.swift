import Foundation

/// A little-endian view of bytes read from the file (a page, or a sub-page inside one),
/// whose reads never go out of bounds: a read past the view's end gives `nil`.
///
/// Views share the bytes they were read into, and nodes refer to their keys and data by
/// ranges of a view, so that walking a page copies and counts no references per node.
struct FileBytes {
  private let storage: [UInt8]
  private let base: Int
  let count: Int

  init(bytes: [UInt8]) {
    storage = bytes
    base = 0
    count = bytes.count
  }

  private init(storage: [UInt8], base: Int, count: Int) {
    self.storage = storage
    self.base = base
    self.count = count
  }

  /// The `count` bytes from `offset` (a sub-page, a table record), or `nil`.
  func view(_ range: Range<Int>) -> FileBytes? {
    guard range.lowerBound >= 0, range.upperBound <= count else { return nil }
    return FileBytes(storage: storage, base: base + range.lowerBound, count: range.count)
  }

  func contains(_ range: Range<Int>) -> Bool { range.lowerBound >= 0 && range.upperBound <= count }

  func u16(_ offset: Int) -> UInt16? {
    guard offset >= 0, offset + 2 <= count else { return nil }
    return UInt16(storage[base + offset]) | UInt16(storage[base + offset + 1]) << 8
  }

  func u32(_ offset: Int) -> UInt32? {
    guard let low = u16(offset), let high = u16(offset + 2) else { return nil }
    return UInt32(low) | UInt32(high) << 16
  }

  func u64(_ offset: Int) -> UInt64? {
    guard let low = u32(offset), let high = u32(offset + 4) else { return nil }
    return UInt64(low) | UInt64(high) << 32
  }

  /// A copy of the bytes in `range` (which must lie inside the view).
  func array(_ range: Range<Int>) -> [UInt8] { Array(storage[(base + range.lowerBound)..<(base + range.upperBound)]) }

  /// Whether the bytes in `a` sort before the bytes in `b` in LMDB's default order
  /// (`mdb_cmp_memn`: bytes as unsigned, a prefix first).
  func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    storage.withUnsafeBytes { bytes in ByteOrder.compare(view(bytes, a), view(bytes, b)) < 0 }
  }

  /// The order of the bytes in `range` against `key`: negative, zero or positive.
  func order(_ range: Range<Int>, against key: [UInt8]) -> Int {
    storage.withUnsafeBytes { bytes in key.withUnsafeBytes { ByteOrder.compare(view(bytes, range), $0) } }
  }

  /// The bytes in `range` of the view, without a bounds check (the callers' ranges lie
  /// inside it).
  private func view(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UnsafeRawBufferPointer {
    guard let start = bytes.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: start + base + range.lowerBound, count: range.count)
  }
}
