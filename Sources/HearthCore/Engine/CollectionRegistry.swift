import Foundation
import HearthStorage
import Synchronization

/// Hands out and remembers collection numbers (see `KeyLayout`): the `collections`,
/// `children` and `groups` tables, with an in-memory cache in front of them.
///
/// Numbers are never reused or removed, so a cached number stays right for the life of
/// the process, even when other processes write. Only committed registrations enter the
/// cache: what a write transaction finds or hands out reaches it after the commit
/// (`remember`), so an aborted commit, whose numbers will be handed out again, leaves no
/// trace.
final class CollectionRegistry: Sendable {
  private let tables: Tables
  private let numbers = Mutex<[PathKey: CollectionNumber]>([:])
  private let paths = Mutex<[CollectionNumber: ResourcePath]>([:])
  /// Collections by the bytes that name them in collection-group index entries (see
  /// `collection(named:)`): one a collection a group query met, as `numbers` holds.
  private let entryNames = Mutex(EntryNames())

  init(tables: Tables) { self.tables = tables }

  /// The number of the collection at `path`, or `nil` when nothing was ever written there.
  func number(of path: ResourcePath, in txn: ReadTransaction) throws -> CollectionNumber? {
    try number(of: PathKey(path.segments[...]), in: txn)
  }

  /// The number of the collection holding the document at `key` (a key holds its
  /// collection's path, so none is built).
  func number(ofCollectionOf key: DocumentKey, in txn: ReadTransaction) throws -> CollectionNumber? {
    try number(of: key.collectionPath, in: txn)
  }

  /// The collection that a collection-group index entry names by `bytes` (its path's
  /// escaped segments, `CompositeIndex.groupNames`) and its number; `nil` when nothing
  /// was ever written there. Known names cost a hash of their bytes: the entries of a
  /// group query, each from any collection of the group, build no path and hash no
  /// strings. `decoding` gives the path of a name not yet known.
  func collection(
    named bytes: UnsafeRawBufferPointer, in txn: ReadTransaction, decoding: () -> ResourcePath?
  ) throws -> (path: ResourcePath, number: CollectionNumber)? {
    let hash = EntryNames.hash(bytes)
    if let cached = entryNames.withLock({ $0.find(bytes, hash: hash) }) { return cached }
    guard let path = decoding(), let number = try number(of: path, in: txn) else { return nil }
    // Only committed registrations are kept (see the type's comment).
    if !(txn is WriteTransaction) {
      entryNames.withLock { names in
        if names.find(bytes, hash: hash) == nil { names.insert([UInt8](bytes), hash: hash, (path, number)) }
      }
    }
    return (path, number)
  }

  private func number(of pathKey: PathKey, in txn: ReadTransaction) throws -> CollectionNumber? {
    if let cached = numbers.withLock({ $0[pathKey] }) { return cached }
    let path = ResourcePath(Array(pathKey.segments))
    guard let (parentKey, collectionID) = try parentKey(of: path, in: txn) else { return nil }
    guard let found = try findChild(collectionID, under: parentKey, in: txn) else { return nil }
    if !(txn is WriteTransaction) { remember([(path, found)]) }
    return found
  }

  /// The number of the collection at `path`, registering the collection (and its
  /// ancestors) when new. What it resolves is appended to `resolved`; pass that to
  /// `remember` once the transaction has committed.
  func register(
    _ path: ResourcePath, in txn: WriteTransaction, resolved: inout [(ResourcePath, CollectionNumber)]
  ) throws -> CollectionNumber {
    if let cached = numbers.withLock({ $0[PathKey(path.segments[...])] }) { return cached }
    let collectionID = path.last!
    let parentKey: [UInt8]
    if path.count == 1 {
      parentKey = KeyLayout.parentKey(.root, "")
    } else {
      let parentDocument = path.parent!
      let grandparent = try register(parentDocument.parent!, in: txn, resolved: &resolved)
      parentKey = KeyLayout.parentKey(grandparent, parentDocument.last!)
    }
    if let found = try findChild(collectionID, under: parentKey, in: txn) {
      resolved.append((path, found))
      return found
    }

    let next = try txn.get(KeyLayout.MetaKey.nextCollection, in: tables.meta).flatMap(KeyLayout.readBigEndian) ?? 1
    guard next < .max else { throw HearthError.dataLoss("The next collection number in the meta table is damaged") }
    let number = CollectionNumber(rawValue: next)
    try txn.put(KeyLayout.MetaKey.nextCollection, KeyLayout.bigEndian(next + 1), in: tables.meta)
    try txn.put(number.bytes, Array(path.canonical.utf8), in: tables.collections)
    try txn.put(parentKey, number.bytes + Array(collectionID.utf8), in: tables.children)
    try txn.put(Array(collectionID.utf8), number.bytes, in: tables.groups)
    resolved.append((path, number))
    return number
  }

  /// Adds committed registrations to the cache.
  func remember(_ registrations: [(ResourcePath, CollectionNumber)]) {
    guard !registrations.isEmpty else { return }
    numbers.withLock { cache in for (path, number) in registrations { cache[PathKey(path.segments[...])] = number } }
    paths.withLock { cache in for (path, number) in registrations { cache[number] = path } }
  }

  /// The path of a collection number.
  ///
  /// - Throws: `dataLoss` when the number is not registered, or its stored path is not a
  ///   valid collection path (damaged bytes: a document path, an empty segment), which
  ///   the code that walks up from a collection to its parents must never meet.
  func path(of number: CollectionNumber, in txn: ReadTransaction) throws -> ResourcePath {
    if let cached = paths.withLock({ $0[number] }) { return cached }
    guard let raw = try txn.get(number.bytes, in: tables.collections),
      let text = UTF8Text.string(raw)
    else {
      throw HearthError.dataLoss("Collection number \(number.rawValue) is not registered in the collections table")
    }
    guard let path = try? ResourcePath.parse(text), path.count % 2 == 1 else {
      throw HearthError.dataLoss(
        "Collection number \(number.rawValue) has a damaged path in the collections table ('\(text)' is not a "
          + "collection path)")
    }
    if !(txn is WriteTransaction) { paths.withLock { $0[number] = path } }
    return path
  }

  /// The subcollections registered under a parent key (a document, or the root): their
  /// collection IDs and numbers, in the order stored (by number).
  func children(under parentKey: [UInt8], in txn: ReadTransaction) throws -> [(id: String, number: CollectionNumber)] {
    let cursor = try txn.cursor(tables.children)
    var result: [(String, CollectionNumber)] = []
    var entry = try cursor.seek(exactly: parentKey)
    while let (_, value) = entry {
      if let number = CollectionNumber(value),
        let id = UTF8Text.string(UnsafeRawBufferPointer(rebasing: value[8...]))
      {
        result.append((id, number))
      }
      entry = try cursor.nextDuplicate()
    }
    return result
  }

  /// Every collection number registered under the collection ID `collectionID`.
  func group(_ collectionID: String, in txn: ReadTransaction) throws -> [CollectionNumber] {
    let cursor = try txn.cursor(tables.groups)
    var result: [CollectionNumber] = []
    var entry = try cursor.seek(exactly: Array(collectionID.utf8))
    while let (_, value) = entry {
      if let number = CollectionNumber(value) { result.append(number) }
      entry = try cursor.nextDuplicate()
    }
    return result
  }

  // MARK: - Private

  /// The `children` key of a collection's parent and the collection's ID, or `nil` when
  /// the parent's own collection was never registered.
  /// A path that is not a collection's (only damaged bytes can make one) has none.
  private func parentKey(of path: ResourcePath, in txn: ReadTransaction) throws -> ([UInt8], String)? {
    guard path.count % 2 == 1, let collectionID = path.last else { return nil }
    if path.count == 1 { return (KeyLayout.parentKey(.root, ""), collectionID) }
    guard let parentDocument = path.parent, let grandparentPath = parentDocument.parent,
      let documentID = parentDocument.last
    else { return nil }
    guard let grandparent = try number(of: grandparentPath, in: txn) else { return nil }
    return (KeyLayout.parentKey(grandparent, documentID), collectionID)
  }

  private func findChild(_ collectionID: String, under parentKey: [UInt8], in txn: ReadTransaction) throws
    -> CollectionNumber?
  {
    try children(under: parentKey, in: txn).first { Value.compareUTF8($0.id, collectionID) == 0 }?.number
  }
}

/// A collection path as the cache's key: a slice of any path's segments (so a document's
/// key can look up its collection without building a new path), compared and hashed by
/// the segments' UTF-8 bytes.
private struct PathKey: Hashable, @unchecked Sendable {
  // @unchecked: an immutable slice of immutable strings.
  let segments: ArraySlice<String>

  init(_ segments: ArraySlice<String>) { self.segments = segments }

  static func == (a: PathKey, b: PathKey) -> Bool {
    a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy { Value.compareUTF8($0, $1) == 0 }
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(segments.count)
    for segment in segments {
      if segment.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
        for byte in segment.utf8 { hasher.combine(byte) }
      }
      hasher.combine(0xFF as UInt8)  // a separator no UTF-8 byte equals
    }
  }
}

/// Remembers, for one reference, the number of its document's collection, so that
/// repeated reads through the same reference skip the registry. Holds only committed
/// numbers (set from read transactions), which never change. Stored inside the reference
/// (not a class of its own): a query's results make one reference each, and an object
/// more each would cost an allocation and a release per result.
package struct CollectionHint: ~Copyable, Sendable {
  private let stored = Atomic<UInt64>(0)

  package init() {}

  var number: CollectionNumber? {
    let raw = stored.load(ordering: .relaxed)
    return raw == 0 ? nil : CollectionNumber(rawValue: raw)
  }

  func remember(_ number: CollectionNumber) { stored.store(number.rawValue, ordering: .relaxed) }
}

/// Collections by the bytes that name them in collection-group index entries: an
/// open-addressed table keyed by a hash of the bytes, so that a lookup (a group query
/// makes one a result) builds no key and runs no general-purpose hasher (a `Dictionary`
/// keyed by `[UInt8]` costs an array a lookup and ~25 instructions a byte to hash).
private struct EntryNames {
  private struct Slot {
    let bytes: [UInt8]
    let collection: (path: ResourcePath, number: CollectionNumber)
  }
  /// Each slot's hash, 0 when empty (`hash` never gives 0): probed without copying a slot.
  private var hashes = [UInt64](repeating: 0, count: 64)
  private var slots = [Slot?](repeating: nil, count: 64)
  private var count = 0

  /// The collection named by `bytes` (whose hash is `hash`), when known.
  func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> (path: ResourcePath, number: CollectionNumber)? {
    let mask = hashes.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while hashes[index] != 0 {
      if hashes[index] == hash, let slot = slots[index], slot.bytes.count == bytes.count,
        slot.bytes.isEmpty
          || slot.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
      {
        return slot.collection
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// Adds a name not yet in the table; the table doubles when half full.
  mutating func insert(
    _ bytes: [UInt8], hash: UInt64, _ collection: (path: ResourcePath, number: CollectionNumber)
  ) {
    if (count + 1) * 2 > hashes.count {
      let (oldHashes, oldSlots) = (hashes, slots)
      hashes = [UInt64](repeating: 0, count: oldHashes.count * 2)
      slots = [Slot?](repeating: nil, count: oldHashes.count * 2)
      for (hash, slot) in zip(oldHashes, oldSlots) where hash != 0 { place(slot!, hash) }
    }
    place(Slot(bytes: bytes, collection: collection), hash)
    count += 1
  }

  private mutating func place(_ slot: Slot, _ hash: UInt64) {
    let mask = hashes.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while hashes[index] != 0 { index = (index + 1) & mask }
    hashes[index] = hash
    slots[index] = slot
  }

  /// A 64-bit hash of the bytes, eight at a time (multiply and fold), with their count;
  /// never 0, which marks an empty slot.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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
