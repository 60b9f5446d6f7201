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
  /// Collection numbers by the bytes of their paths (`withKey`).
  private let numbers = Mutex(BytesTable<CollectionNumber>())
  private let paths = Mutex<[CollectionNumber: ResourcePath]>([:])
  /// Collections by the bytes that name them in collection-group index entries (see
  /// `collection(named:)`): one a collection a group query met, as `numbers` holds.
  private let entryNames = Mutex(BytesTable<(path: ResourcePath, number: CollectionNumber)>())

  init(tables: Tables) { self.tables = tables }

  /// The number of the collection at `path`, or `nil` when nothing was ever written there.
  func number(of path: ResourcePath, in txn: ReadTransaction) throws -> CollectionNumber? {
    if let cached = cachedNumber(of: path) { return cached }
    guard let (parentKey, collectionID) = try parentKey(of: path, in: txn) else { return nil }
    guard let found = try findChild(collectionID, under: parentKey, in: txn) else { return nil }
    if !(txn is WriteTransaction) { remember([(path, found)]) }
    return found
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
    if let cached = entryNames.withLock({ $0.find(bytes) }) { return cached }
    guard let path = decoding(), let number = try number(of: path, in: txn) else { return nil }
    // Only committed registrations are kept (see the type's comment).
    if !(txn is WriteTransaction) {
      entryNames.withLock { names in
        if names.find(bytes) == nil { names.insert(bytes, (path, number)) }
      }
    }
    return (path, number)
  }

  /// The number of the collection at `path`, registering the collection (and its
  /// ancestors) when new. What it resolves is appended to `resolved`; pass that to
  /// `remember` once the transaction has committed.
  func register(
    _ path: ResourcePath, in txn: WriteTransaction, resolved: inout [(ResourcePath, CollectionNumber)]
  ) throws -> CollectionNumber {
    if let cached = cachedNumber(of: path) { return cached }
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
    for (path, number) in registrations {
      CollectionRegistry.withKey(path) { key in
        numbers.withLock { cache in if cache.find(key) == nil { cache.insert(key, number) } }
      }
    }
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

  /// The cached number of the collection at `path`: a hash of its bytes and one probe,
  /// which builds no key object and runs no general-purpose hasher (a `Dictionary` keyed
  /// by the path's segments cost a point get 1.6k instructions, a tenth of it).
  private func cachedNumber(of path: ResourcePath) -> CollectionNumber? {
    CollectionRegistry.withKey(path) { key in numbers.withLock { $0.find(key) } }
  }

  /// Calls `body` with the cache's key of `path`: its segments' UTF-8 bytes, each
  /// followed by 0xFF (a byte no UTF-8 text holds, so two paths never share a key), in a
  /// temporary buffer.
  private static func withKey<R>(_ path: ResourcePath, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    let count = path.segments.reduce(0) { $0 + $1.utf8.count + 1 }
    return withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer in
      var offset = 0
      for segment in path.segments {
        // Native strings hold contiguous UTF-8: one copy (stepping the UTF-8 view costs
        // an index step a byte).
        let copied: Void? = segment.utf8.withContiguousStorageIfAvailable { bytes in
          UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(from: UnsafeRawBufferPointer(bytes))
        }
        if copied == nil {
          for (position, byte) in segment.utf8.enumerated() { buffer[offset + position] = byte }
        }
        offset += segment.utf8.count
        buffer[offset] = 0xFF
        offset += 1
      }
      return body(UnsafeRawBufferPointer(buffer))
    }
  }

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
