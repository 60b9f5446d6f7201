/// What is wrong with a page's nodes, with the keys read before the fault.
struct NodeFault: Error {
  var problem: String
  var keys: [[UInt8]] = []
}

/// One node of a branch or leaf page, read only once its whole extent (header, key and,
/// for a leaf, its data or overflow page number) was found inside the page. Its key and
/// data are ranges of the page's bytes.
struct PageNode {
  var key: Range<Int>
  var flags: UInt16
  /// A leaf's value size (the whole value's, for an overflow value).
  var dataSize: Int
  /// A leaf's data in the page: the value, a table record, a sub-page, or (overflow) the
  /// first overflow page's number.
  var data: Range<Int>
  /// A branch node's child page.
  var child: UInt64

  /// The nodes of the page in `bytes` (a whole page, or a sub-page's bytes), in order.
  static func read(_ bytes: FileBytes, isLeaf: Bool) -> Result<[PageNode], NodeFault> {
    let size = bytes.count
    guard let lower = bytes.u16(12).map(Int.init), let upper = bytes.u16(14).map(Int.init),
      lower >= LMDBFormat.headerSize, (lower - LMDBFormat.headerSize) % 2 == 0, lower <= upper, upper <= size
    else {
      return .failure(
        NodeFault(
          problem: "its free-space bounds (lower \(bytes.u16(12) ?? 0), upper \(bytes.u16(14) ?? 0)) are "
            + "impossible in \(size) bytes"))
    }
    var nodes: [PageNode] = []
    nodes.reserveCapacity((lower - LMDBFormat.headerSize) / 2)
    for index in 0..<(lower - LMDBFormat.headerSize) / 2 {
      func fault(_ problem: String) -> Result<[PageNode], NodeFault> {
        .failure(NodeFault(problem: "node \(index)'s \(problem)", keys: nodes.map { bytes.array($0.key) }))
      }
      let offset = Int(bytes.u16(LMDBFormat.headerSize + 2 * index)!)
      guard offset >= upper, offset % 2 == 0, offset + LMDBFormat.nodeHeaderSize <= size else {
        return fault("offset (\(offset)) is outside the page's node area (\(upper)…\(size))")
      }
      let low = UInt64(bytes.u16(offset)!)
      let high = UInt64(bytes.u16(offset + 2)!)
      let flags = bytes.u16(offset + 4)!
      let keySize = Int(bytes.u16(offset + 6)!)
      let keyStart = offset + LMDBFormat.nodeHeaderSize
      let key = keyStart..<(keyStart + keySize)
      guard keySize <= LMDBFormat.maxKeySize, bytes.contains(key) else {
        return fault("key (\(keySize) bytes) runs past the end of the page")
      }
      guard isLeaf else {
        let child = low | high << 16 | UInt64(flags) << 32
        nodes.append(PageNode(key: key, flags: 0, dataSize: 0, data: key.upperBound..<key.upperBound, child: child))
        continue
      }
      let dataSize = Int(low | high << 16)
      let inPage = flags & LMDBFormat.bigData != 0 ? 8 : dataSize
      let data = key.upperBound..<(key.upperBound + inPage)
      guard bytes.contains(data) else {
        return fault("value (\(inPage) bytes in the page) runs past the end of the page")
      }
      nodes.append(PageNode(key: key, flags: flags, dataSize: dataSize, data: data, child: 0))
    }
    return .success(nodes)
  }
}

/// The sub-page in which a duplicate-sorted table keeps a key's few values: a leaf page
/// without a page of its own, inside the key's node, whose keys are the values.
enum SubPage {
  /// `P_DIRTY` is written on sub-pages too (LMDB sets it when it makes one).
  private static let dirty: UInt16 = 0x10

  /// The number of values in the sub-page `bytes`, or what is wrong with it.
  static func count(_ bytes: FileBytes) -> Result<Int, NodeFault> {
    guard bytes.count >= LMDBFormat.headerSize,
      bytes.u16(10)! & ~dirty == LMDBFormat.leafPage | LMDBFormat.subPage
    else { return .failure(NodeFault(problem: "it is not a sub-page of values")) }
    let nodes: [PageNode]
    switch PageNode.read(bytes, isLeaf: true) {
    case .failure(let fault): return .failure(fault)
    case .success(let read): nodes = read
    }
    guard !nodes.isEmpty else { return .failure(NodeFault(problem: "it holds no values")) }
    for (index, node) in nodes.enumerated() {
      guard node.flags == 0, node.dataSize == 0 else {
        return .failure(NodeFault(problem: "value \(index) has flags 0x\(String(node.flags, radix: 16)) or data"))
      }
      if index > 0, !bytes.precedes(nodes[index - 1].key, node.key) {
        return .failure(NodeFault(problem: "its values are out of order at value \(index)"))
      }
    }
    return .success(nodes.count)
  }
}
