import HearthStorage

/// How Hearth lays out a database in LMDB: every table, its keys and its values.
///
/// ```
/// meta                 key: ASCII name           value: see `MetaKey`
///   format             UInt32 big-endian: the layout version (1)
///   nextCollection     UInt64 big-endian: the next collection number to hand out
///   lastCommit         Int64 big-endian: the last commit time, microseconds since the epoch
///
/// documents            key: collection(8) docID  value: DocumentCodec bytes
///   One collection's documents are one contiguous key range, in document-ID order
///   (UTF-8 byte order), and never include its subcollections' documents, which live
///   under their own collection numbers.
///
/// collections          key: collection(8)        value: the collection's path, UTF-8
///   Collection numbers → paths (for collection groups, listings, export).
///
/// children  (dupsort)  key: parent(8) docID      values: collection(8) collectionID
///   The subcollections registered under a document. The root's key is
///   collection number 0 with an empty document ID. Parent documents need not exist
///   (Firestore's "missing" documents): `listDocuments` and `listCollections` read this.
///
/// groups    (dupsort)  key: collectionID         values: collection(8)
///   Every collection with a given collection ID, for collection-group queries.
///
/// indexEntries (dupsort) key: index key          values: document ID
///   Automatic single-field indexes (see `FieldIndex`), kept in the same transaction as
///   the documents they index.
///
/// changes              key: sequence(8)          value: the paths a commit changed
///   The change log, for other processes' listeners (see `ChangeLog`); trimmed.
/// ```
///
/// `collection(8)` is a collection number, big-endian, handed out once per collection
/// path and never reused, so deep paths keep keys short. IDs are at most
/// `ResourcePath.maxIDBytes` (256) bytes, which keeps every key under LMDB's 511 bytes.
/// Registrations are never removed: an emptied collection keeps its number, and
/// listings skip collections with no documents below them.
enum KeyLayout {
  static let layoutVersion: UInt32 = 1

  enum TableName {
    static let meta = "meta"
    static let documents = "documents"
    static let collections = "collections"
    static let children = "children"
    static let groups = "groups"
    static let indexEntries = "indexEntries"
    static let changes = "changes"
  }

  enum MetaKey {
    static let format: [UInt8] = Array("format".utf8)
    static let nextCollection: [UInt8] = Array("nextCollection".utf8)
    static let lastCommit: [UInt8] = Array("lastCommit".utf8)
  }

  /// The key of a document: collection number, then the ID's bytes.
  static func documentKey(_ collection: CollectionNumber, _ documentID: String) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(8 + documentID.utf8.count)
    withUnsafeBytes(of: collection.rawValue.bigEndian) { key += $0 }
    key += documentID.utf8
    return key
  }

  /// The parent key of the subcollections of a document (or of root collections).
  static func parentKey(_ collection: CollectionNumber, _ documentID: String) -> [UInt8] {
    documentKey(collection, documentID)
  }

  /// The document ID in a `documents` or `children` key.
  static func documentID(inKey key: UnsafeRawBufferPointer) -> String? {
    guard key.count > 8 else { return nil }
    return UTF8Text.string(UnsafeRawBufferPointer(rebasing: key[8...]))
  }

  static func bigEndian(_ value: UInt64) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  static func readBigEndian(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
    guard bytes.count >= 8 else { return nil }
    return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
  }
}

/// The number that stands for a collection path in keys (see `KeyLayout`).
struct CollectionNumber: Hashable, Sendable {
  let rawValue: UInt64
  /// The parent of root collections.
  static let root = CollectionNumber(rawValue: 0)

  var bytes: [UInt8] { KeyLayout.bigEndian(rawValue) }

  init(rawValue: UInt64) { self.rawValue = rawValue }

  init?(_ bytes: UnsafeRawBufferPointer) {
    guard let value = KeyLayout.readBigEndian(bytes) else { return nil }
    rawValue = value
  }
}
