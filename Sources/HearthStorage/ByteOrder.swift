import Foundation

/// The order of byte strings: unsigned bytes over their common length, then the shorter
/// first. It is LMDB's default key order (`mdb_cmp_memn`). (HearthCore orders values and
/// keys by the same rule in `Value.compareRaw`, inlined where a query compares them.)
enum ByteOrder {
  /// -1, 0 or 1 as `a` sorts before, with or after `b`.
  static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0 {
      let order = memcmp(a.baseAddress!, b.baseAddress!, common)
      if order != 0 { return order < 0 ? -1 : 1 }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }
}
