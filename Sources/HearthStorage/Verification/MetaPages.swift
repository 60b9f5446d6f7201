import Foundation

/// One of the two meta pages: the start of one commit's snapshot.
struct MetaPage: Equatable {
  var index: Int
  var pageSize: Int
  var mapSize: UInt64
  var freeList: TreeRecord
  var main: TreeRecord
  var lastPage: UInt64
  var transactionID: UInt64
}

/// Both meta pages, read with plain reads and checked against each other and against the
/// file's size, before LMDB maps the file.
///
/// LMDB reads the two meta pages itself when it opens a file, but it then trusts the one
/// with the higher transaction ID: a file shorter than the pages that meta page uses is
/// mapped anyway, and the first read past the file's end is a `SIGBUS`.
struct MetaPages: Equatable {
  var fileSize: Int
  var pageSize = 0
  var pages: [MetaPage] = []
  /// Damage to the meta pages themselves.
  var damage: [DamagedPage] = []
  /// The file is shorter than the newest commit's pages (its meta pages are sound: the
  /// pages still in the file can be walked, to tell what was lost).
  var shortFile: DamagedPage?

  var allDamage: [DamagedPage] { damage + (shortFile.map { [$0] } ?? []) }

  /// The meta page LMDB opens (the higher transaction ID; page 0 on a tie), when both
  /// verified.
  var newest: MetaPage? {
    guard damage.isEmpty, pages.count == 2 else { return nil }
    return pages[pages[0].transactionID < pages[1].transactionID ? 1 : 0]
  }

  /// The meta page of commit `transactionID`, when both verified.
  func page(ofTransaction transactionID: Int) -> MetaPage? {
    guard damage.isEmpty else { return nil }
    return pages.first { $0.transactionID == UInt64(transactionID) }
  }

  /// Both meta pages of `file` as they settle: other processes may commit while they are
  /// read, and a commit between the reads of the two pages (or one written while it is
  /// read) can look like damage. A read that finds none is the answer; one that finds
  /// some is read again, and counts only when the next read finds the same pages, the
  /// same size and the same damage (damage stays; a commit moves on).
  static func settled(file: DataFile) throws(StorageError) -> MetaPages {
    var last = try MetaPages(file: file)
    for _ in 0..<20 where !last.allDamage.isEmpty {
      usleep(1_000)
      let next = try MetaPages(file: file)
      if next.allDamage.isEmpty || next == last { return next }
      last = next
    }
    return last
  }

  /// Reads and checks both meta pages of `file`, once.
  ///
  /// - Throws: `StorageError` when a read fails (`EIO`); damage is in `damage`.
  private init(file: DataFile) throws(StorageError) {
    fileSize = try file.size()
    guard fileSize > 0 else {
      fault(0, "data.mdb is empty (0 bytes): the database's data is gone")
      return
    }
    guard let first = try read(file, index: 0, offset: 0) else { return }
    pageSize = first.pageSize
    guard let second = try read(file, index: 1, offset: pageSize) else { return }
    pages = [first, second]
    // The size again, after the meta pages: a commit grows the file before it writes its
    // meta page, so this size covers the pages they use even while others commit.
    fileSize = try file.size()
    if second.pageSize != first.pageSize {
      fault(1, "its page size (\(second.pageSize)) differs from meta page 0's (\(first.pageSize))")
    }
    for page in pages { check(page) }
    checkTransactionIDs(first.transactionID, second.transactionID)
    // A commit only adds pages at the file's end (LMDB 0.9 never shrinks it).
    let (older, newer) = first.transactionID < second.transactionID ? (first, second) : (second, first)
    if older.lastPage > newer.lastPage {
      fault(older.index, "it uses \(older.lastPage + 1) pages, more than the newer meta page's \(newer.lastPage + 1)")
    }
    guard damage.isEmpty, let newest else { return }
    let needed = (Int(newest.lastPage) + 1) * pageSize
    if fileSize < needed {
      shortFile = DamagedPage(
        page: Int(newest.lastPage), area: .metaPages, role: "data file",
        problem: "data.mdb is \(fileSize) bytes, but its last commit (transaction \(newest.transactionID)) "
          + "uses \(newest.lastPage + 1) pages of \(pageSize) bytes (\(needed) bytes): the file was cut short")
    }
  }

  private mutating func fault(_ index: Int, _ problem: String) {
    damage.append(DamagedPage(page: index, area: .metaPages, role: "meta page \(index)", problem: problem))
  }

  /// The meta page at `offset`, or `nil` (with the damage recorded) when it is not one.
  private mutating func read(_ file: DataFile, index: Int, offset: Int) throws(StorageError) -> MetaPage? {
    let bytes = FileBytes(bytes: try file.read(offset: offset, count: LMDBFormat.headerSize + LMDBFormat.metaSize))
    guard bytes.count == LMDBFormat.headerSize + LMDBFormat.metaSize else {
      fault(index, "data.mdb is \(fileSize) bytes, too short to hold meta page \(index): the file was cut short")
      return nil
    }
    let meta = LMDBFormat.headerSize
    guard bytes.u64(0) == UInt64(index), bytes.u16(10) == LMDBFormat.metaPage,
      bytes.u32(meta) == LMDBFormat.magic
    else {
      fault(index, "it is not an LMDB meta page (wrong page number, flags or magic number)")
      return nil
    }
    guard bytes.u32(meta + 4) == LMDBFormat.dataVersion else {
      fault(index, "it declares LMDB data format \(bytes.u32(meta + 4)!), not \(LMDBFormat.dataVersion)")
      return nil
    }
    // The page size is the free list's `md_pad` (`mm_psize`).
    let pageSize = Int(bytes.u32(meta + LMDBFormat.metaFreeRecord)!)
    guard LMDBFormat.pageSizes.contains(pageSize), pageSize & (pageSize - 1) == 0 else {
      fault(index, "its page size (\(pageSize)) is not a power of two from 512 to 32768")
      return nil
    }
    guard bytes.u64(meta + 8) == 0 else {
      fault(index, "it asks for a fixed map address, which Hearth never uses")
      return nil
    }
    return MetaPage(
      index: index, pageSize: pageSize, mapSize: bytes.u64(meta + 16)!,
      freeList: TreeRecord(bytes, at: meta + LMDBFormat.metaFreeRecord)!,
      main: TreeRecord(bytes, at: meta + LMDBFormat.metaMainRecord)!,
      lastPage: bytes.u64(meta + LMDBFormat.metaLastPage)!,
      transactionID: bytes.u64(meta + LMDBFormat.metaTransactionID)!)
  }

  /// The fields of one meta page against each other.
  private mutating func check(_ page: MetaPage) {
    let index = page.index
    guard page.lastPage >= 1, page.lastPage < UInt64(1) << 40 else {
      fault(index, "its last page (\(page.lastPage)) is impossible")
      return
    }
    let used = (page.lastPage + 1) * UInt64(page.pageSize)
    if page.mapSize < used || page.mapSize > UInt64(1) << 46 {
      fault(index, "its map size (\(page.mapSize) bytes) does not fit the \(used) bytes it uses")
    }
    if page.freeList.flags != LMDBFormat.integerKey {
      fault(index, "the free list's flags (\(page.freeList.flags)) are not LMDB's")
    }
    if page.main.flags != 0 || page.main.pad != 0 {
      fault(index, "the table catalog's flags (\(page.main.flags)) are not Hearth's")
    }
    for (name, record) in [("free list", page.freeList), ("table catalog", page.main)] {
      if let problem = TreeRecord.problem(record, lastPage: page.lastPage) {
        fault(index, "the \(name)'s record: \(problem)")
      }
    }
  }

  /// A commit writes meta page `txnid % 2`, so the two pages hold consecutive transaction
  /// IDs (both 0 in a file no commit has written yet); anything else is a damaged ID.
  private mutating func checkTransactionIDs(_ first: UInt64, _ second: UInt64) {
    let (low, high) = (min(first, second), max(first, second))
    let newestIndex = first < second ? 1 : 0
    if high == 0 || (high - low == 1 && Int(high % 2) == newestIndex) { return }
    fault(
      newestIndex,
      "the meta pages' transaction IDs (\(first) and \(second)) are not consecutive: one of them is damaged")
  }
}

extension TreeRecord {
  /// What is impossible in a table record of a file whose last page is `lastPage`, or
  /// `nil` when nothing is.
  static func problem(_ record: TreeRecord, lastPage: UInt64) -> String? {
    if record.isEmpty {
      let counts = [record.branchPages, record.leafPages, record.overflowPages, record.entries]
      if record.depth != 0 || counts.contains(where: { $0 != 0 }) {
        return "an empty tree with a depth or entries"
      }
      return nil
    }
    if record.root < UInt64(LMDBFormat.metaPageCount) || record.root > lastPage {
      return "its root page (\(record.root)) is not a page of the file (2…\(lastPage))"
    }
    if record.depth < 1 || record.depth > LMDBFormat.maxDepth {
      return "its depth (\(record.depth)) is impossible"
    }
    if record.entries == 0 || record.leafPages == 0 {
      return "a tree with a root but no entries or leaf pages"
    }
    let pages = record.branchPages &+ record.leafPages &+ record.overflowPages
    if record.branchPages > lastPage || record.leafPages > lastPage || record.overflowPages > lastPage
      || pages > lastPage
    {
      return "it counts more pages than the file has"
    }
    return nil
  }
}
