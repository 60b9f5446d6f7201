import CLMDB
import Foundation

/// The floor any LMDB-based design can reach for the query section's questions: the same
/// posts stored by hand through LMDB's C API, with one index per query shape whose keys are
/// order-preserving bytes built for exactly these queries. Each query is one read
/// transaction, one cursor seek, a walk over exactly the index entries it returns, and one
/// `mdb_get` per result whose path and bytes are copied out (as the SQLite subject copies
/// each row's path and JSON text). No query planning, no general value encoding, no
/// checksums, no per-query objects: what Hearth spends beyond this is the price of being a
/// general database, and no design on LMDB can go below it.
///
/// The layout, one environment (durable commits and `MDB_NOTLS`, as Hearth's), one LMDB
/// database per index so that each tree holds only its own entries:
/// - `documents`: the path's bytes → the post's JSON text (the text SQLite stores, so that
///   the copied values are the same size);
/// - `parent_owner_created`: parent path, 0, ownerId, 0, createdAt, path → empty
///   (`ownerId == X order by createdAt desc` in one user's collection);
/// - `group_owner_created`: collection ID, 0, ownerId, 0, createdAt, path → empty (the
///   same over the collection group; `ownerId in [...]` merges one walk per owner);
/// - `group_likes`: collection ID, 0, likes, path → empty;
/// - `group_tags`: collection ID, 0, tag, 0, path → empty, one entry per distinct tag;
/// - `parent_published`, `group_published`: scope, 0, published (one byte), path → empty;
/// - `parent_likes`: parent path, 0, likes, path → empty.
///
/// Integers are 8 bytes big-endian with the sign bit flipped, so their bytes order as the
/// numbers do; strings end with a 0 byte (the workload's have none inside), so a shorter
/// one orders before its extensions. The trailing path makes each key unique and orders
/// ties by path, as SQLite's `ORDER BY ..., path`. Descending orders walk the index
/// backwards (the result is newest first, ties by path descending, as SQLite's `DESC`).
final class RawLMDBQuerySubject {
  /// How each query gets its read transaction.
  enum Transactions {
    /// One handle kept across queries, `mdb_txn_renew` before and `mdb_txn_reset` after
    /// (what Hearth does, and what a careful expert does): the reader slot is kept.
    case renewed
    /// `mdb_txn_begin` and `mdb_txn_abort` per query.
    case begun
  }

  let workload: QueryWorkload
  private let env: OpaquePointer?
  private let documents: MDB_dbi
  private let parentOwnerCreated: MDB_dbi
  private let groupOwnerCreated: MDB_dbi
  private let groupLikes: MDB_dbi
  private let groupTags: MDB_dbi
  private let parentPublished: MDB_dbi
  private let groupPublished: MDB_dbi
  private let parentLikes: MDB_dbi
  /// The kept read transaction of `.renewed`, reset between queries; begun on first use.
  private var reader: OpaquePointer?

  init(directory: String, workload: QueryWorkload) throws {
    self.workload = workload
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var env: OpaquePointer?
    check(mdb_env_create(&env), "mdb_env_create")
    check(mdb_env_set_maxdbs(env, 9), "mdb_env_set_maxdbs")
    check(mdb_env_set_mapsize(env, 8 << 30), "mdb_env_set_mapsize")
    check(mdb_env_open(env, directory, UInt32(MDB_NOTLS), 0o600), "mdb_env_open")
    self.env = env
    var txn: OpaquePointer?
    check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
    func open(_ name: String) -> MDB_dbi {
      var dbi = MDB_dbi()
      check(mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &dbi), "mdb_dbi_open \(name)")
      return dbi
    }
    documents = open("documents")
    parentOwnerCreated = open("parent_owner_created")
    groupOwnerCreated = open("group_owner_created")
    groupLikes = open("group_likes")
    groupTags = open("group_tags")
    parentPublished = open("parent_published")
    groupPublished = open("group_published")
    parentLikes = open("parent_likes")
    check(mdb_txn_commit(txn), "mdb_txn_commit")
  }

  // MARK: - Loading

  /// Puts every post and its index entries, 1,000 posts per durable commit: the same
  /// batches as the other subjects' loads. The files are fresh, so no post has an earlier
  /// version whose entries a set would remove (nor has it in the other subjects' loads).
  func load() throws {
    let rows = workload.rows
    for start in stride(from: 0, to: rows.count, by: 1000) {
      var txn: OpaquePointer?
      check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
      for row in rows[start..<min(start + 1000, rows.count)] {
        let path = Array(row.path.utf8)
        put(txn, documents, path, Array(row.json.utf8), flags: UInt32(MDB_NOOVERWRITE))
        put(txn, parentOwnerCreated, Key().string(row.parent).string(row.ownerId).integer(row.createdAt).path(path))
        put(
          txn, groupOwnerCreated, Key().string(row.collectionID).string(row.ownerId).integer(row.createdAt).path(path))
        put(txn, groupLikes, Key().string(row.collectionID).integer(row.likes).path(path))
        // A tag twice in one post puts the same key twice: still one entry.
        for tag in row.tags { put(txn, groupTags, Key().string(row.collectionID).string(tag).path(path)) }
        put(txn, parentPublished, Key().string(row.parent).boolean(row.published).path(path))
        put(txn, groupPublished, Key().string(row.collectionID).boolean(row.published).path(path))
        put(txn, parentLikes, Key().string(row.parent).integer(row.likes).path(path))
      }
      check(mdb_txn_commit(txn), "mdb_txn_commit")
    }
  }

  private func put(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8] = [], flags: UInt32 = 0) {
    key.withUnsafeBytes { k in
      value.withUnsafeBytes { v in
        var mk = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
        var mv = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
        check(mdb_put(txn, dbi, &mk, &mv, flags), "mdb_put")
      }
    }
  }

  private func put(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ key: Key) { put(txn, dbi, key.bytes) }

  // MARK: - Querying

  /// Runs one query, copying each result's path and JSON text into new arrays; returns
  /// the number of results (the count, for a count).
  func run(_ kind: QueryKind, _ choice: Int, _ transactions: Transactions = .renewed) -> Int {
    var bytes = 0
    var decoder = PostDecoder()
    let results = query(kind, choice, transactions) { path, value in
      let pathCopy = [UInt8](UnsafeRawBufferPointer(start: path.mv_data, count: path.mv_size))
      let valueCopy = [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
      bytes += pathCopy.count + valueCopy.count
      decoder.materialise(kind, path: pathCopy, json: valueCopy)
    }
    precondition(kind.isCount || results == 0 || bytes > 0)
    return results
  }

  /// The results' paths in order (the count, for a count), to compare with SQLite's.
  func results(_ kind: QueryKind, _ choice: Int) -> [String] {
    var paths: [String] = []
    let results = query(kind, choice, .renewed) { path, _ in
      paths.append(String(decoding: UnsafeRawBufferPointer(start: path.mv_data, count: path.mv_size), as: UTF8.self))
    }
    return kind.isCount ? ["count \(results)"] : paths
  }

  /// One query in its own read transaction: hands each result's path and document bytes
  /// (valid only inside the call) to `visit`, in order; returns the number of results, or
  /// for a count the number of index entries in its range (no document is read).
  private func query(
    _ kind: QueryKind, _ choice: Int, _ transactions: Transactions, _ visit: (MDB_val, MDB_val) -> Void
  ) -> Int {
    let txn = beginRead(transactions)
    defer { endRead(txn, transactions) }
    let group = "posts"
    switch kind.question {
    case .pointGet:
      var path = workload.paths[choice]
      return path.withUTF8 { bytes in
        var key = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        var value = MDB_val()
        let rc = mdb_get(txn, documents, &key, &value)
        if rc == MDB_NOTFOUND { return 0 }
        check(rc, "mdb_get")
        visit(key, value)
        return 1
      }
    case .userFeed:
      let owner = workload.owners[choice]
      let prefix = Key().string("users/\(owner)/posts").string(owner)
      return walk(txn, parentOwnerCreated, prefix.range, backwards: true, pathAt: prefix.count + 8, limit: 20, visit)
    case .groupFeed:
      let prefix = Key().string(group).string(workload.owners[choice])
      return walk(txn, groupOwnerCreated, prefix.range, backwards: true, pathAt: prefix.count + 8, limit: 20, visit)
    case .range:
      let (low, high) = workload.likeRanges[choice]
      let prefix = Key().string(group)
      let range = (prefix.integer(low).bytes, prefix.integer(high).bytes)
      return walk(txn, groupLikes, range, backwards: false, pathAt: prefix.count + 8, limit: 50, visit)
    case .inOwners:
      let prefixes = workload.ownerSets[choice].map { Key().string(group).string($0) }
      return mergeNewestFirst(txn, groupOwnerCreated, prefixes, limit: 20, visit)
    case .arrayContains:
      let prefix = Key().string(group).string(workload.tags[choice])
      return walk(txn, groupTags, prefix.range, backwards: false, pathAt: prefix.count, limit: 20, visit)
    case .countUser:
      let prefix = Key().string("users/\(workload.owners[choice])/posts").boolean(true)
      return count(txn, parentPublished, prefix.range)
    case .countGroup:
      return count(txn, groupPublished, Key().string(group).boolean(true).range)
    case .countRangeUser:
      let prefix = Key().string("users/\(workload.owners[choice])/posts")
      return count(txn, parentLikes, (prefix.integer(workload.likeFloors[choice]).bytes, prefix.range.1))
    case .countRangeGroup:
      let prefix = Key().string(group)
      return count(txn, groupLikes, (prefix.integer(workload.likeFloors[choice]).bytes, prefix.range.1))
    case .countCompositeUser:
      let owner = workload.owners[choice]
      let prefix = Key().string("users/\(owner)/posts").string(owner)
      return count(txn, parentOwnerCreated, (prefix.integer(workload.createdFloorMicros(choice)).bytes, prefix.range.1))
    case .countCompositeGroup:
      let prefix = Key().string(group).string(workload.owners[choice])
      return count(txn, groupOwnerCreated, (prefix.integer(workload.createdFloorMicros(choice)).bytes, prefix.range.1))
    case .feedData, .feedCodable, .tagData, .rangeData:
      preconditionFailure("a materialised row asks its question")
    }
  }

  private func beginRead(_ transactions: Transactions) -> OpaquePointer? {
    var txn: OpaquePointer?
    if transactions == .renewed, let reader {
      check(mdb_txn_renew(reader), "mdb_txn_renew")
      return reader
    }
    check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin")
    if transactions == .renewed { reader = txn }
    return txn
  }

  private func endRead(_ txn: OpaquePointer?, _ transactions: Transactions) {
    switch transactions {
    case .renewed: mdb_txn_reset(txn)
    case .begun: mdb_txn_abort(txn)
    }
  }

  /// Walks the index entries in `range` (low inclusive, high exclusive) in key order, or
  /// backwards; reads the document of each of the first `limit` (its path is the key from
  /// byte `pathAt` on).
  private func walk(
    _ txn: OpaquePointer?, _ dbi: MDB_dbi, _ range: ([UInt8], [UInt8]), backwards: Bool, pathAt: Int, limit: Int,
    _ visit: (MDB_val, MDB_val) -> Void
  ) -> Int {
    var walk = IndexWalk(txn, dbi, range, backwards: backwards)
    defer { walk.close() }
    var results = 0
    while results < limit, walk.advance() {
      read(txn, path: walk.key, from: pathAt, visit)
      results += 1
    }
    return results
  }

  /// `ownerId in [...] order by createdAt desc`: one backward walk per owner, merged by
  /// the keys' tails (createdAt, then path), greatest first.
  private func mergeNewestFirst(
    _ txn: OpaquePointer?, _ dbi: MDB_dbi, _ prefixes: [Key], limit: Int, _ visit: (MDB_val, MDB_val) -> Void
  ) -> Int {
    var walks = prefixes.map { IndexWalk(txn, dbi, $0.range, backwards: true) }
    defer { for index in walks.indices { walks[index].close() } }
    var live = walks.indices.map { walks[$0].advance() }
    var results = 0
    while results < limit {
      var best: Int?
      for index in walks.indices where live[index] {
        if let current = best,
          compare(walks[index].key, from: prefixes[index].count, walks[current].key, from: prefixes[current].count) <= 0
        {
          continue
        }
        best = index
      }
      guard let best else { break }
      read(txn, path: walks[best].key, from: prefixes[best].count + 8, visit)
      results += 1
      live[best] = walks[best].advance()
    }
    return results
  }

  /// The number of index entries in `range`: an LMDB tree keeps no counts of key ranges,
  /// so a count walks its entries (without reading any document). (A duplicate-sorted
  /// index, key = scope and value, one duplicate per path, would answer an equality count
  /// from its sub-tree's entry count, `mdb_cursor_count`, without a walk; the table keeps
  /// to the one shape of index for every query.)
  private func count(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ range: ([UInt8], [UInt8])) -> Int {
    var walk = IndexWalk(txn, dbi, range, backwards: false)
    defer { walk.close() }
    var entries = 0
    while walk.advance() { entries += 1 }
    return entries
  }

  /// Reads the document whose path is `key`'s bytes from `offset` on.
  private func read(_ txn: OpaquePointer?, path key: MDB_val, from offset: Int, _ visit: (MDB_val, MDB_val) -> Void) {
    var path = MDB_val(mv_size: key.mv_size - offset, mv_data: key.mv_data! + offset)
    var value = MDB_val()
    check(mdb_get(txn, documents, &path, &value), "mdb_get (an index entry without its document)")
    visit(path, value)
  }

  func close() {
    if let reader { mdb_txn_abort(reader) }
    reader = nil
    mdb_env_close(env)
  }
}

/// An index key under construction: fields appended in order, each encoded so that bytes
/// compare as the values do.
private struct Key {
  private(set) var bytes: [UInt8] = []

  var count: Int { bytes.count }

  /// The keys that start with this one: from it (inclusive) to it with its last byte one
  /// higher (exclusive). Every prefix here ends with a string's 0 or a boolean's byte, so
  /// the increment never carries.
  var range: ([UInt8], [UInt8]) {
    var high = bytes
    high[high.count - 1] += 1
    return (bytes, high)
  }

  func string(_ text: String) -> Key {
    var key = self
    key.bytes.append(contentsOf: text.utf8)
    key.bytes.append(0)
    return key
  }

  /// Big-endian with the sign bit flipped: negative numbers before positive ones.
  func integer(_ value: Int64) -> Key {
    var key = self
    withUnsafeBytes(of: (UInt64(bitPattern: value) ^ (1 << 63)).bigEndian) { key.bytes.append(contentsOf: $0) }
    return key
  }

  func boolean(_ value: Bool) -> Key {
    var key = self
    key.bytes.append(value ? 1 : 0)
    return key
  }

  func path(_ path: [UInt8]) -> [UInt8] { bytes + path }
}

/// A cursor over the index entries in `[low, high)`, in key order or backwards.
private struct IndexWalk {
  private var cursor: OpaquePointer?
  private let low: [UInt8]
  private let high: [UInt8]
  private let backwards: Bool
  private var started = false
  /// The current entry's key (valid until the transaction ends).
  private(set) var key = MDB_val()

  init(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ range: ([UInt8], [UInt8]), backwards: Bool) {
    check(mdb_cursor_open(txn, dbi, &cursor), "mdb_cursor_open")
    (low, high) = range
    self.backwards = backwards
  }

  /// Moves to the next entry in the walk's direction (the first, on the first call);
  /// returns false past the range's end.
  mutating func advance() -> Bool {
    var value = MDB_val()
    var rc: Int32
    if started {
      rc = mdb_cursor_get(cursor, &key, &value, backwards ? MDB_PREV : MDB_NEXT)
    } else {
      started = true
      // Forwards: the first key at or after `low`. Backwards: the last key before
      // `high`, the one before the first at or after it (or the very last key).
      rc = (backwards ? high : low).withUnsafeBytes { bound in
        key = MDB_val(mv_size: bound.count, mv_data: UnsafeMutableRawPointer(mutating: bound.baseAddress))
        return mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
      }
      if backwards && (rc == 0 || rc == MDB_NOTFOUND) {
        rc = mdb_cursor_get(cursor, &key, &value, rc == MDB_NOTFOUND ? MDB_LAST : MDB_PREV)
      }
    }
    if rc == MDB_NOTFOUND { return false }
    check(rc, "mdb_cursor_get")
    return backwards ? compare(key, from: 0, low) >= 0 : compare(key, from: 0, high) < 0
  }

  mutating func close() {
    mdb_cursor_close(cursor)
    cursor = nil
  }
}

/// LMDB's default key order (bytewise; a prefix before its extensions) between `a` and
/// `b` from the given offsets on.
private func compare(_ a: MDB_val, from aOffset: Int, _ b: MDB_val, from bOffset: Int) -> Int32 {
  let aCount = a.mv_size - aOffset
  let bCount = b.mv_size - bOffset
  let order = memcmp(a.mv_data! + aOffset, b.mv_data! + bOffset, min(aCount, bCount))
  if order != 0 { return order }
  return aCount < bCount ? -1 : aCount > bCount ? 1 : 0
}

private func compare(_ key: MDB_val, from offset: Int, _ bound: [UInt8]) -> Int32 {
  bound.withUnsafeBytes { b in
    compare(
      key, from: offset, MDB_val(mv_size: b.count, mv_data: UnsafeMutableRawPointer(mutating: b.baseAddress)), from: 0)
  }
}

private func check(_ rc: Int32, _ operation: @autoclosure () -> String) {
  if rc != 0 { preconditionFailure("\(operation()): \(String(cString: mdb_strerror(rc)))") }
}
