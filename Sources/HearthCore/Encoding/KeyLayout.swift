import HearthStorage

/// How Hearth lays out a database in LMDB: every table, its keys and its values. This
/// is the one description of the layout; the code that reads and writes each table
/// points here.
///
/// A database is a directory holding LMDB's `data.mdb` (the tables) and `lock.mdb` (its
/// reader table, and Hearth's open lock, `OpenLock`), the storage layer's journal and
/// checkpoint (`journal-0.hearth`, `journal-1.hearth`, `checkpoint.hearth`:
/// `Environment+Journal.swift`), and,
/// when the user puts one there, a `firestore.indexes.json` declared again at each open
/// for writing. `data.mdb` holds
/// nine named tables (`TableName`; `Tables` holds their handles):
///
/// ```
/// meta                 key: ASCII name (MetaKey)   value: by key, below
///   format             8 bytes, big-endian: the layout version, `layoutVersion` (1); a
///                      value past 32 bits is damage, another version is refused
///   nextCollection     8 bytes, big-endian: the next collection number to hand out
///                      (absent: 1)
///   lastCommit         8 bytes, big-endian: the last commit time, an Int64's bits,
///                      microseconds since the epoch (absent: no commit yet); commit
///                      times only increase, across processes
///   indexVersion       8 bytes, big-endian: bumped by every change of the catalog, so a
///                      transaction learns with one small read whether its cached
///                      catalog is current (absent: 0, nothing declared)
///   indexCatalog       UTF-8 JSON: the declared indexes with their numbers and the field
///                      overrides (`IndexSet.serialized`):
///                      {"next": N, "indexes": [{"number": n, "collectionGroup": …,
///                       "queryScope": …, "fields": […]}…], "fieldOverrides": […]}
///                      in firestore.indexes.json's own words; numbers are never reused
///   versionRetention   8 bytes, big-endian: how long old versions are kept, microseconds
///                      (absent: none are; `VersionHistory`)
///   versionsFrom       8 bytes, big-endian, an Int64's bits: reads at a past time are
///                      exact from this commit time on (absent: from any time)
///
/// documents            key: collection(8) docID    value: DocumentCodec bytes
///   One collection's documents are one contiguous key range, in document-ID order
///   (UTF-8 byte order; a numeric ID, `__id7__`, is `NumericID`'s 13 bytes, which sort
///   before every ID but those beginning with a zero byte), and never include its
///   subcollections' documents, which live under their own collection numbers. The
///   value's format is `DocumentCodec`'s.
///
/// collections          key: collection(8)          value: the collection's canonical
///                                                         path, UTF-8
///   Collection numbers → paths (for collection groups, listings, export).
///
/// children  (dupsort)  key: parent(8) docID        values: collection(8) collectionID
///   The subcollections registered under a document: `parent` is the number of the
///   document's collection. The root's key is collection number 0 with an empty
///   document ID. Parent documents need not exist (Firestore's "missing" documents):
///   `listDocuments` and `listCollections` read this.
///
/// groups    (dupsort)  key: collectionID           values: collection(8)
///   Every collection with a given collection ID, for collection-group queries.
///
/// indexEntries (dupsort) key: kind(1) …            values: a document, by kind
///   Every index entry, kept in the same transaction as the documents it indexes. The
///   first byte says which index:
///
///   kind 1, 2: automatic single-field indexes (`FieldIndex`), at collection scope
///     key   := kind(1) collection(8) path value
///     path  := escaped(segment)… 0x00 0x00  (the field path, as KeyCodec's paths)
///     value := KeyCodec bytes, ascending    (a descending order walks backwards)
///     data  := the document ID (`idBytes`) (the documents with that value, by ID)
///     kind  := 1 the field's value | 2 one element of the array field
///     A field whose path so encoded is longer than `FieldIndex.maxPathBytes` (200) is
///     not indexed; an override (`fieldOverrides`) may drop kind 1 or 2 for a field.
///
///   kind 3: declared indexes (`CompositeIndex`): composite ones, and collection-group
///     single-field ones
///     key   := 3 index(4) [collection(8)] value…
///     index := the index's number in the catalog, big-endian
///     [collection(8)]: for COLLECTION scope only
///     value := one KeyCodec value a field, in the index's field order; a descending
///              field's complemented; an arrayConfig field gives one entry per
///              distinct element (ascending)
///     data  := escaped(document ID) for COLLECTION scope, or the document's path as
///              KeyCodec writes paths (escaped(segment)… 0x00 0x00) for
///              COLLECTION_GROUP scope; complemented when the last ordered field is
///              descending, so that ties walk in that direction
///     A document is in an index only when it has every indexed field (and an array
///     where the index has arrayConfig), as in Firestore.
///
///   Every key of every kind is cut at `FieldIndex.maxKeyBytes` (511, LMDB's largest
///   key): a cut key may stand for several values sharing its first bytes, so queries
///   re-check and re-sort the documents under it. `escaped` is KeyCodec's: each 0x00
///   written 0x00 0xFF, then 0x00 0x01.
///
/// changes              key: sequence(8)            value: flags(1) count paths
///   The change log (`ChangeLog`), for other processes' listeners: every commit appends
///   the paths it changed under the next sequence number (big-endian, from 1), in the
///   commit's own transaction; the oldest entries past `ChangeLog.maxEntries` (10,000)
///   are removed, once `ChangeLog.trimBatch` (64) more have gathered.
///     flags := bit 0: everything may have changed (an import that emptied the
///              database)
///     count := LEB128 varint, the number of paths
///     paths := each a LEB128 varint length and the document's canonical path, UTF-8
///   Missing in a database written before the change log, opened read-only.
///
/// versions             key: collection(8) escaped(docID) time(8)
///                      value: DocumentCodec bytes, or empty
///   The undo log of `VersionHistory`, kept only while `versionRetention` is set: the
///   version of a document that the write at `time` replaced (empty: it did not exist).
///   `time` is the commit time in microseconds, sign bit flipped, big-endian.
///
/// versionTimes         key: time(8) collection(8) docID   value: empty
///   The same writes in time order, for queries at a past time and for trimming the
///   versions past the retention.
///   Both are missing in a database written before them, opened read-only.
/// ```
///
/// `collection(8)` is a collection number, big-endian, handed out once per collection
/// path and never reused, so deep paths keep keys short. IDs are at most
/// `ResourcePath.maxIDBytes` (256) bytes, which keeps the keys of `documents`,
/// `children` and `groups` under LMDB's 511 bytes (index keys are cut, above).
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
    static let versions = "versions"
    static let versionTimes = "versionTimes"
  }

  enum MetaKey {
    static let format: [UInt8] = Array("format".utf8)
    static let nextCollection: [UInt8] = Array("nextCollection".utf8)
    static let lastCommit: [UInt8] = Array("lastCommit".utf8)
    static let indexVersion: [UInt8] = Array("indexVersion".utf8)
    static let indexCatalog: [UInt8] = Array("indexCatalog".utf8)
    static let versionRetention: [UInt8] = Array("versionRetention".utf8)
    static let versionsFrom: [UInt8] = Array("versionsFrom".utf8)
  }

  /// The key of a document: collection number, then the ID's bytes.
  static func documentKey(_ collection: CollectionNumber, _ documentID: String) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(8 + max(documentID.utf8.count, NumericID.encodedCount))
    withUnsafeBytes(of: collection.rawValue.bigEndian) { key += $0 }
    appendID(documentID, to: &key)
    return key
  }

  /// A document ID as keys and automatic index entries hold it: its UTF-8 bytes, or a
  /// numeric ID's `NumericID` bytes (no UTF-8 text has them), which sort before every
  /// ID but those beginning with a zero byte.
  static func idBytes(_ documentID: String) -> [UInt8] {
    var bytes: [UInt8] = []
    appendID(documentID, to: &bytes)
    return bytes
  }

  private static func appendID(_ documentID: String, to bytes: inout [UInt8]) {
    if let number = NumericID.number(documentID) {
      NumericID.append(number, to: &bytes)
    } else {
      bytes += documentID.utf8
    }
  }

  /// The ID `idBytes` made `bytes`; `nil` when they are neither.
  static func documentID(_ bytes: UnsafeRawBufferPointer) -> String? {
    if bytes.first == 0, let number = NumericID.decode(bytes) { return NumericID.id(number) }
    return UTF8Text.string(bytes)
  }

  /// Calls `body` with `documentKey(collection, documentID)` built on the stack: a read by
  /// key (one per query result) allocates nothing for its key.
  static func withDocumentKey<R>(
    _ collection: CollectionNumber, _ documentID: String, _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    if NumericID.number(documentID) != nil { return try documentKey(collection, documentID).withUnsafeBytes(body) }
    var id = documentID
    return try id.withUTF8 { utf8 in
      try withUnsafeTemporaryAllocation(byteCount: 8 + utf8.count, alignment: 1) { buffer in
        withUnsafeBytes(of: collection.rawValue.bigEndian) { buffer.copyMemory(from: $0) }
        UnsafeMutableRawBufferPointer(rebasing: buffer[8...]).copyMemory(from: UnsafeRawBufferPointer(utf8))
        return try body(UnsafeRawBufferPointer(buffer))
      }
    }
  }

  /// The parent key of the subcollections of a document (or of root collections).
  static func parentKey(_ collection: CollectionNumber, _ documentID: String) -> [UInt8] {
    documentKey(collection, documentID)
  }

  /// The document ID in a `documents` or `children` key.
  static func documentID(inKey key: UnsafeRawBufferPointer) -> String? {
    guard key.count > 8 else { return nil }
    return documentID(UnsafeRawBufferPointer(rebasing: key[8...]))
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

  /// Appends `bytes` to a key being built, without the array `bytes` makes (~200
  /// instructions a query plan that builds a prefix).
  func append(to key: inout [UInt8]) { withUnsafeBytes(of: rawValue.bigEndian) { key += $0 } }

  init(rawValue: UInt64) { self.rawValue = rawValue }

  init?(_ bytes: UnsafeRawBufferPointer) {
    guard let value = KeyLayout.readBigEndian(bytes) else { return nil }
    rawValue = value
  }
}
