import Foundation

/// Walks the trees of one commit's snapshot with plain reads (`pread`), verifying every
/// page before following anything in it, so that damage is found and named instead of
/// being dereferenced by LMDB.
///
/// Per page it verifies: the page number (inside the file, and met once: no page
/// belongs to two trees or twice to one), the header's page number and flags (a branch
/// page above the tree's depth, a leaf at it), `lower` and `upper`, the number of keys,
/// every node's offset, key size and data size (inside the page), the keys' order
/// (ascending, and between the parent's separators), each branch node's child page,
/// each overflow chain (its header, its page count for the value's size, inside the
/// file), and each leaf node's flags for its tree: named tables in the table catalog,
/// duplicate values in sub-pages or sub-trees, free-list records of valid page numbers.
/// Every table record's counts (depth, pages, entries) must match its tree, and no page
/// may be both in use and listed as free.
struct PageWalk {
  /// What a tree holds, which decides the flags and sizes its leaf nodes may have.
  enum Tree: Equatable {
    case freeList
    case catalog
    case table(String, duplicateSorted: Bool)
    /// The sub-tree of one key's values in a duplicate-sorted table.
    case duplicates(String, of: [UInt8])

    var area: DamagedPage.Area {
      switch self {
      case .freeList: return .freeList
      case .catalog: return .tableCatalog
      case .table(let name, _), .duplicates(let name, _): return .table(name)
      }
    }

    var valuesOf: [UInt8]? {
      if case .duplicates(_, let key) = self { return key }
      return nil
    }
  }

  /// Where a reference came from, to name the page that holds a bad reference.
  struct Holder {
    var page: Int
    var role: String
    var area: DamagedPage.Area
  }

  /// What a walk counted in one tree, to compare with its table record.
  struct Counts: Equatable {
    var branchPages: UInt64 = 0
    var leafPages: UInt64 = 0
    var overflowPages: UInt64 = 0
    var entries: UInt64 = 0
  }

  let file: DataFile
  let fileSize: Int
  let pageSize: Int
  let lastPage: Int
  let contextTables: Set<String>
  private(set) var damage: [DamagedPage] = []
  private(set) var pagesVerified = 0
  private(set) var contextEntries: [String: [PageVerification.Entry]] = [:]
  private var used: [UInt64]
  /// Pages the free list lists, with the free-list page that lists them.
  private var freed: [(page: UInt64, listedOn: Int)] = []
  /// The named tables' records, from the catalog's leaves.
  private var tables: [(name: String, record: TreeRecord, holder: Holder)] = []
  /// Entries read for a context table in the tree walked now.
  private var collecting: [PageVerification.Entry]?

  init(file: DataFile, fileSize: Int, pageSize: Int, lastPage: Int, contextTables: Set<String>) {
    self.file = file
    self.fileSize = fileSize
    self.pageSize = pageSize
    self.lastPage = lastPage
    self.contextTables = contextTables
    used = [UInt64](repeating: 0, count: (lastPage + 64) / 64)
  }

  /// Verifies the snapshot of `meta`: every tree (`everyTree`), or only the table
  /// catalog and the named tables' records.
  mutating func run(_ meta: MetaPage, everyTree: Bool) throws(StorageError) {
    let metaHolder = Holder(page: meta.index, role: "meta page \(meta.index)", area: .metaPages)
    if everyTree { try walkTree(meta.freeList, .freeList, heldBy: metaHolder) }
    try walkTree(meta.main, .catalog, heldBy: metaHolder)
    for table in tables {
      let sorted = table.record.flags == LMDBFormat.duplicateSort
      guard table.record.flags == 0 || sorted else {
        report(table.holder, "the record of table '\(table.name)' has flags \(table.record.flags), not Hearth's")
        continue
      }
      if let problem = TreeRecord.problem(table.record, lastPage: UInt64(lastPage)) {
        report(table.holder, "the record of table '\(table.name)': \(problem)")
        continue
      }
      if everyTree { try walkTree(table.record, .table(table.name, duplicateSorted: sorted), heldBy: table.holder) }
    }
    if everyTree { checkFreedPages() }
  }

  // MARK: - Trees

  /// Walks the tree of `record`; returns whether it verified intact.
  @discardableResult
  private mutating func walkTree(_ record: TreeRecord, _ tree: Tree, heldBy holder: Holder) throws(StorageError)
    -> Bool
  {
    if let problem = TreeRecord.problem(record, lastPage: UInt64(lastPage)) {
      report(holder, "the record of \(describe(tree)): \(problem)")
      return false
    }
    if record.isEmpty { return true }
    var collects = false
    if case .table(let name, _) = tree { collects = contextTables.contains(name) }
    if collects { collecting = [] }
    defer { if collects { collecting = nil } }
    let before = damage.count
    var counts = Counts()
    try visit(
      page: Int(record.root), level: 1, depth: record.depth, tree: tree, lower: nil, upper: nil, counts: &counts)
    guard damage.count == before else { return false }
    let expected = Counts(
      branchPages: record.branchPages, leafPages: record.leafPages, overflowPages: record.overflowPages,
      entries: record.entries)
    guard counts == expected else {
      report(
        holder,
        "the record of \(describe(tree)) counts \(record.entries) entries in \(record.branchPages) branch, "
          + "\(record.leafPages) leaf and \(record.overflowPages) overflow pages, but its tree holds "
          + "\(counts.entries) entries in \(counts.branchPages), \(counts.leafPages) and \(counts.overflowPages)")
      return false
    }
    if case .table(let name, _) = tree, let entries = collecting { contextEntries[name] = entries }
    return true
  }

  private func describe(_ tree: Tree) -> String {
    switch tree {
    case .freeList: return "the free list"
    case .catalog: return "the table catalog"
    case .table(let name, _): return "table '\(name)'"
    case .duplicates(let name, _): return "a key's values in table '\(name)'"
    }
  }

  /// Verifies page `page` at `level` (1: the root) of a tree `depth` pages deep, whose
  /// keys must lie in `lower..<upper`, then what it refers to.
  private mutating func visit(
    page: Int, level: Int, depth: Int, tree: Tree, lower: [UInt8]?, upper: [UInt8]?, counts: inout Counts
  ) throws(StorageError) {
    let isLeaf = level == depth
    var damaged = DamagedPage(
      page: page, area: tree.area, role: isLeaf ? "leaf page" : "branch page", problem: "", lowerKey: lower,
      upperKey: upper, valuesOf: tree.valuesOf)
    func fail(_ problem: String, keys: [[UInt8]] = []) {
      damaged.problem = problem
      damaged.keys = keys
      damage.append(damaged)
    }
    if let problem = claim(page, count: 1) { return fail(problem) }
    let bytes = FileBytes(bytes: try file.read(offset: page * pageSize, count: pageSize))
    guard bytes.count == pageSize else { return fail("it lies past the end of data.mdb: the file was cut short") }
    pagesVerified += 1
    guard bytes.u64(0) == UInt64(page) else { return fail("its header names page \(bytes.u64(0)!)") }
    let flags = bytes.u16(10)!
    let expected = isLeaf ? LMDBFormat.leafPage : LMDBFormat.branchPage
    guard flags == expected else {
      return fail(
        "its flags are 0x\(String(flags, radix: 16)) where the tree's depth (\(depth)) calls for a "
          + (isLeaf ? "leaf page (0x2)" : "branch page (0x1)"))
    }
    let nodes: [PageNode]
    switch PageNode.read(bytes, isLeaf: isLeaf) {
    case .failure(let fault): return fail(fault.problem, keys: fault.keys)
    case .success(let read): nodes = read
    }
    // LMDB keeps at least two children under a branch page (it asserts so), except
    // for a moment in the free list's.
    let least = isLeaf || tree == .freeList ? 1 : 2
    guard nodes.count >= least else {
      return fail("it holds \(nodes.count) keys; a \(isLeaf ? "leaf" : "branch") page holds at least \(least)")
    }
    if let problem = orderProblem(nodes, in: bytes, isLeaf: isLeaf, tree: tree, lower: lower, upper: upper) {
      return fail(problem, keys: nodes.map { bytes.array($0.key) })
    }
    if isLeaf {
      counts.leafPages += 1
      for (index, node) in nodes.enumerated() {
        if let problem = try leafProblem(node, in: bytes, index: index, page: page, tree: tree, counts: &counts) {
          return fail(problem, keys: nodes.map { bytes.array($0.key) })
        }
      }
      return
    }
    counts.branchPages += 1
    for (index, node) in nodes.enumerated() {
      let child = node.child
      guard child >= UInt64(LMDBFormat.metaPageCount), child <= UInt64(lastPage) else {
        return fail("node \(index) points to page \(child), which is not a page of the file (2…\(lastPage))")
      }
    }
    for (index, node) in nodes.enumerated() {
      let low = index == 0 ? lower : bytes.array(node.key)
      let high = index + 1 < nodes.count ? bytes.array(nodes[index + 1].key) : upper
      try visit(
        page: Int(node.child), level: level + 1, depth: depth, tree: tree, lower: low, upper: high, counts: &counts)
    }
  }

  /// Takes `count` pages from `first` for the tree being walked; the problem when one is
  /// past the file's end, or already taken.
  private mutating func claim(_ first: Int, count: Int) -> String? {
    if (first + count) * pageSize > fileSize {
      return "it lies past the end of data.mdb (\(fileSize) bytes): the file was cut short"
    }
    for page in first..<first + count where used[page / 64] & (1 << UInt64(page % 64)) != 0 {
      return "page \(page) is reached twice (a damaged page number, or a loop)"
    }
    for page in first..<first + count { used[page / 64] |= 1 << UInt64(page % 64) }
    return nil
  }

  /// Keys ascending (a branch page's first key is not used), and inside the parent's range.
  private func orderProblem(
    _ nodes: [PageNode], in bytes: FileBytes, isLeaf: Bool, tree: Tree, lower: [UInt8]?, upper: [UInt8]?
  ) -> String? {
    let first = isLeaf ? 0 : 1
    guard first < nodes.count else { return nil }
    if tree == .freeList {
      // Transaction IDs, compared as numbers (`MDB_INTEGERKEY`).
      var numbers: [UInt64] = []
      for node in nodes[first...] {
        guard node.key.count == 8, let id = bytes.u64(node.key.lowerBound) else {
          return "a key is not a transaction ID (8 bytes)"
        }
        numbers.append(id)
      }
      let bound = { (key: [UInt8]?) in key.flatMap { FileBytes(bytes: $0).u64(0) } }
      if let low = bound(lower), numbers[0] < low { return "its first key sorts before its parent's range" }
      if let high = bound(upper), numbers[numbers.count - 1] >= high {
        return "its last key sorts after its parent's range"
      }
      for index in 1..<max(1, numbers.count) where numbers[index - 1] >= numbers[index] {
        return "its keys are out of order at node \(first + index)"
      }
      return nil
    }
    if let lower, bytes.order(nodes[first].key, against: lower) < 0 {
      return "node \(first)'s key sorts before the range its parent page gives this page"
    }
    if let upper, bytes.order(nodes[nodes.count - 1].key, against: upper) >= 0 {
      return "node \(nodes.count - 1)'s key sorts after the range its parent page gives this page"
    }
    for index in (first + 1)..<max(first + 1, nodes.count) where !bytes.precedes(nodes[index - 1].key, nodes[index].key)
    {
      return "its keys are out of order at node \(index)"
    }
    return nil
  }

  /// Checks one leaf node for its tree and follows its overflow chain, sub-page or
  /// sub-tree; the problem, or `nil`.
  private mutating func leafProblem(
    _ node: PageNode, in bytes: FileBytes, index: Int, page: Int, tree: Tree, counts: inout Counts
  ) throws(StorageError) -> String? {
    // Computed only for a message: most nodes need none.
    var name: String { "node \(index)" }
    var holder: Holder { Holder(page: page, role: "leaf page", area: tree.area) }
    switch tree {
    case .freeList:
      guard node.key.count == 8 else { return "\(name)'s key is \(node.key.count) bytes, not a transaction ID" }
      guard node.flags & ~LMDBFormat.bigData == 0 else { return "\(name) has flags 0x\(hex(node.flags))" }
      var problem: String?
      let value = try value(of: node, in: bytes, index: index, wanted: true, counts: &counts) { problem = $0 }
      guard let value else { return problem }
      counts.entries += 1
      return freeListProblem(value, index: index, page: page)
    case .catalog:
      guard node.flags == LMDBFormat.subData, node.dataSize == LMDBFormat.tableRecordSize,
        let record = bytes.view(node.data).flatMap({ TreeRecord($0, at: 0) })
      else { return "\(name) is not a table record (flags 0x\(hex(node.flags)), \(node.dataSize) bytes)" }
      guard let tableName = String(validating: bytes.array(node.key), as: UTF8.self) else {
        return "\(name)'s table name is not UTF-8"
      }
      counts.entries += 1
      tables.append((tableName, record, holder))
      return nil
    case .table(let table, duplicateSorted: false):
      guard node.flags & ~LMDBFormat.bigData == 0 else { return "\(name) has flags 0x\(hex(node.flags))" }
      var problem: String?
      let wanted = collecting != nil
      let value = try value(of: node, in: bytes, index: index, wanted: wanted, counts: &counts) { problem = $0 }
      if let problem { return problem }
      counts.entries += 1
      if let value, collecting != nil, contextTables.contains(table) {
        collecting?.append(PageVerification.Entry(key: bytes.array(node.key), value: value))
      }
      return nil
    case .table(let table, duplicateSorted: true):
      switch node.flags {
      case 0:
        counts.entries += 1
      case LMDBFormat.duplicateData:
        switch SubPage.count(bytes.view(node.data)!) {
        case .failure(let fault): return "\(name)'s values (a sub-page): \(fault.problem)"
        case .success(let values): counts.entries += UInt64(values)
        }
      case LMDBFormat.duplicateData | LMDBFormat.subData:
        guard node.dataSize == LMDBFormat.tableRecordSize,
          let record = bytes.view(node.data).flatMap({ TreeRecord($0, at: 0) })
        else { return "\(name)'s values are not a sub-table record (\(node.dataSize) bytes)" }
        guard record.flags == 0 else { return "\(name)'s sub-table has flags 0x\(hex(record.flags))" }
        if try walkTree(record, .duplicates(table, of: bytes.array(node.key)), heldBy: holder) {
          counts.entries += record.entries
        }
      default:
        return "\(name) has flags 0x\(hex(node.flags))"
      }
      return nil
    case .duplicates:
      guard node.flags == 0, node.dataSize == 0 else {
        return "\(name) is not a duplicate value (flags 0x\(hex(node.flags)), \(node.dataSize) bytes of data)"
      }
      counts.entries += 1
      return nil
    }
  }

  /// Verifies a plain or overflow value, and returns it when `wanted` (by the free list,
  /// a context table); `nil` when not wanted or on a problem, which `problem` receives.
  private mutating func value(
    of node: PageNode, in bytes: FileBytes, index: Int, wanted: Bool, counts: inout Counts,
    problem: (String) -> Void
  ) throws(StorageError) -> [UInt8]? {
    var name: String { "node \(index)" }
    guard node.flags & LMDBFormat.bigData != 0 else { return wanted ? bytes.array(node.data) : nil }
    guard node.data.count == 8, let first = bytes.u64(node.data.lowerBound) else {
      problem("\(name)'s overflow page number runs past the end of the page")
      return nil
    }
    guard first >= UInt64(LMDBFormat.metaPageCount), first <= UInt64(lastPage) else {
      problem("\(name) points to overflow page \(first), which is not a page of the file (2…\(lastPage))")
      return nil
    }
    let header = FileBytes(bytes: try file.read(offset: Int(first) * pageSize, count: LMDBFormat.headerSize))
    guard header.count == LMDBFormat.headerSize else {
      problem("\(name)'s overflow page \(first) lies past the end of data.mdb: the file was cut short")
      return nil
    }
    let needed = LMDBFormat.overflowPages(forValueOf: node.dataSize, pageSize: pageSize)
    let pages = Int(header.u32(12)!)
    guard header.u64(0) == first, header.u16(10) == LMDBFormat.overflowPage, pages >= needed,
      Int(first) + pages - 1 <= lastPage
    else {
      problem(
        "\(name)'s overflow page \(first) is not the start of \(needed) overflow pages "
          + "(header: page \(header.u64(0)!), flags 0x\(hex(header.u16(10)!)), \(pages) pages)")
      return nil
    }
    if let fault = claim(Int(first), count: pages) {
      problem("\(name)'s overflow pages from \(first): \(fault)")
      return nil
    }
    pagesVerified += pages
    counts.overflowPages += UInt64(pages)
    guard wanted else { return nil }
    return try file.read(offset: Int(first) * pageSize + LMDBFormat.headerSize, count: node.dataSize)
  }

  /// A free-list record: a count, then that many page numbers of the file.
  private mutating func freeListProblem(_ value: [UInt8], index: Int, page: Int) -> String? {
    var name: String { "node \(index)" }
    let bytes = FileBytes(bytes: value)
    guard let count = bytes.u64(0), count < UInt64(value.count / 8) else {
      return "\(name) is not a list of page numbers"
    }
    for slot in 0..<Int(count) {
      let freedPage = bytes.u64((slot + 1) * 8)!
      guard freedPage >= UInt64(LMDBFormat.metaPageCount), freedPage <= UInt64(lastPage) else {
        return "\(name) lists page \(freedPage) as free, which is not a page of the file (2…\(lastPage))"
      }
      freed.append((freedPage, page))
    }
    return nil
  }

  /// No page is both in use and free, or free twice (LMDB would hand it out twice).
  private mutating func checkFreedPages() {
    var seen = Set<UInt64>()
    for (freedPage, listedOn) in freed {
      let holder = Holder(page: listedOn, role: "leaf page", area: .freeList)
      if used[Int(freedPage) / 64] & (1 << (freedPage % 64)) != 0 {
        report(holder, "it lists page \(freedPage) as free, but that page is in use")
        return
      }
      if !seen.insert(freedPage).inserted {
        report(holder, "it lists page \(freedPage) as free twice")
        return
      }
    }
  }

  private mutating func report(_ holder: Holder, _ problem: String) {
    damage.append(DamagedPage(page: holder.page, area: holder.area, role: holder.role, problem: problem))
  }

  private func hex(_ value: UInt16) -> String { String(value, radix: 16) }
}
