/// The bytes of an LMDB 0.9 data file (`data.mdb`) on a 64-bit little-endian machine, as
/// the page verifier reads them with plain file reads. Learned from `mdb.c` of the
/// liblmdb that Debian ships (0.9.24); LMDB does not publish this layout, so it is
/// written down here once.
///
/// ```
/// page header (16 bytes)   pgno u64 | pad u16 | flags u16 | lower u16 | upper u16
///                          (an overflow page keeps its page count, u32, where lower and
///                           upper are; a LEAF2 page's pad is its fixed key size)
/// branch and leaf pages    after the header, `(lower - 16) / 2` node offsets (u16, from
///                          the page's start); the nodes themselves lie between `upper`
///                          and the page's end
/// node (8 + key + data)    lo u16 | hi u16 | flags u16 | key size u16 | key | data
///                          leaf: data size = lo | hi << 16; flags BIGDATA (the data is
///                          the u64 number of its first overflow page), SUBDATA (the
///                          data is a 48-byte table record), DUPDATA (the key's values
///                          are a sub-page in the data, or a sub-table with SUBDATA)
///                          branch: child page = lo | hi << 16 | flags << 32, no data
/// table record (48 bytes)  pad u32 | flags u16 | depth u16 | branch pages u64 |
///                          leaf pages u64 | overflow pages u64 | entries u64 | root u64
/// meta page (0 and 1)      header, then magic u32 | version u32 | address u64 |
///                          map size u64 | free-list record | main record |
///                          last page u64 | transaction ID u64
/// ```
///
/// Pages 0 and 1 are the meta pages; a commit writes its meta page (`txnid % 2`) last,
/// and LMDB reads the one with the higher transaction ID. The main table holds one
/// SUBDATA node per named table; the free list (keys: transaction IDs, `u64`) holds,
/// per commit, the pages it freed as a count followed by page numbers (`u64` each).
enum LMDBFormat {
  static let headerSize = 16
  static let nodeHeaderSize = 8
  static let tableRecordSize = 48
  static let metaPageCount = 2

  static let magic: UInt32 = 0xBEEF_C0DE
  static let dataVersion: UInt32 = 1
  /// The largest page size LMDB 0.9 writes (`MAX_PAGESIZE`), and the smallest sensible.
  static let pageSizes = 512...32_768
  /// Keys are at most 511 bytes (`MDB_MAXKEYSIZE`), in every tree and for every value of
  /// a duplicate-sorted table.
  static let maxKeySize = 511
  /// A cursor keeps at most 32 pages from the root to a leaf (`CURSOR_STACK`).
  static let maxDepth = 32
  /// `P_INVALID`: the root of an empty tree.
  static let noPage = UInt64.max

  // Page flags (`mp_flags`).
  static let branchPage: UInt16 = 0x01
  static let leafPage: UInt16 = 0x02
  static let overflowPage: UInt16 = 0x04
  static let metaPage: UInt16 = 0x08
  static let subPage: UInt16 = 0x40

  // Node flags (`mn_flags`, leaf nodes).
  static let bigData: UInt16 = 0x01
  static let subData: UInt16 = 0x02
  static let duplicateData: UInt16 = 0x04

  // Table flags (`md_flags`).
  static let duplicateSort: UInt16 = 0x04
  static let integerKey: UInt16 = 0x08

  // Offsets inside a meta page, after the page header.
  static let metaFreeRecord = 24
  static let metaMainRecord = 72
  static let metaLastPage = 120
  static let metaTransactionID = 128
  static let metaSize = 136

  /// The number of overflow pages a value of `size` bytes takes (`OVPAGES`).
  static func overflowPages(forValueOf size: Int, pageSize: Int) -> Int {
    (headerSize - 1 + size) / pageSize + 1
  }
}

/// A table record (`MDB_db`): where a tree's root is and what it holds.
struct TreeRecord: Equatable {
  var pad: UInt32
  var flags: UInt16
  var depth: Int
  var branchPages: UInt64
  var leafPages: UInt64
  var overflowPages: UInt64
  var entries: UInt64
  var root: UInt64

  init?(_ bytes: FileBytes, at offset: Int) {
    guard let pad = bytes.u32(offset), let flags = bytes.u16(offset + 4), let depth = bytes.u16(offset + 6),
      let branch = bytes.u64(offset + 8), let leaf = bytes.u64(offset + 16), let overflow = bytes.u64(offset + 24),
      let entries = bytes.u64(offset + 32), let root = bytes.u64(offset + 40)
    else { return nil }
    self.pad = pad
    self.flags = flags
    self.depth = Int(depth)
    branchPages = branch
    leafPages = leaf
    overflowPages = overflow
    self.entries = entries
    self.root = root
  }

  var isEmpty: Bool { root == LMDBFormat.noPage }
}
