import HearthStorage

/// Reads documents and collections from one snapshot: a read transaction, or the write
/// transaction of a commit (where it sees the state the commit's writes apply to).
/// Valid only inside the closure that received it.
package struct StoreReader {
  let store: DocumentStore
  let txn: ReadTransaction

  private var tables: Tables { store.tables }
  private var registry: CollectionRegistry { store.registry }

  /// The document at `key`, or `nil` when it does not exist.
  ///
  /// - Throws: `dataLoss` when its stored bytes are damaged.
  package func document(_ key: DocumentKey) throws -> StoredDocument? {
    try withDocumentBytes(key) { try DocumentCodec.decode($0, key: key) }
  }

  /// When the document at `key`, missing at `time` (microseconds; now by default), was
  /// deleted: the time of its last write that the database's versions still hold (`nil`
  /// when it keeps none, or none of it).
  package func deleteTime(of key: DocumentKey, atOrBefore time: Int64 = .max) throws -> Timestamp? {
    guard let number = try registry.number(ofCollectionOf: key, in: txn) else { return nil }
    return try VersionHistory.lastWriteTime(number, key.documentID, atOrBefore: time, in: txn, tables: tables)
      .map(Timestamp.init(microseconds:))
  }

  /// Calls `body` with the stored bytes of the document at `key` (valid only inside
  /// `body`), so callers can decode them into what they need; `nil` when it does not
  /// exist.
  package func withDocumentBytes<R>(_ key: DocumentKey, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
    guard let number = try registry.number(ofCollectionOf: key, in: txn) else { return nil }
    return try withDocumentBytes(key, number, body)
  }

  /// `withDocumentBytes`, where `hint` remembers the collection's number for the next
  /// read of a reference.
  package func withDocumentBytes<R>(
    _ key: DocumentKey, hint: borrowing CollectionHint, _ body: (UnsafeRawBufferPointer) throws -> R
  ) throws -> R? {
    if let known = hint.number { return try withDocumentBytes(key, known, body) }
    guard let found = try registry.number(ofCollectionOf: key, in: txn) else { return nil }
    if !(txn is WriteTransaction) { hint.remember(found) }
    return try withDocumentBytes(key, found, body)
  }

  private func withDocumentBytes<R>(
    _ key: DocumentKey, _ number: CollectionNumber, _ body: (UnsafeRawBufferPointer) throws -> R
  ) throws -> R? {
    try KeyLayout.withDocumentKey(number, key.documentID) { storageKey in
      try txn.get(storageKey, in: tables.documents).map(body)
    }
  }

  /// The document at `key` as verified bytes, decoded later by whoever reads it, or `nil`
  /// when it does not exist.
  ///
  /// - Throws: `dataLoss` when its stored bytes are damaged.
  package func encodedDocument(_ key: DocumentKey) throws -> EncodedDocument? {
    try withDocumentBytes(key) { try EncodedDocument(key: key, verifying: $0) }
  }

  /// `encodedDocument`, where `hint` remembers the collection's number for the next read
  /// of a reference.
  package func encodedDocument(_ key: DocumentKey, hint: borrowing CollectionHint) throws -> EncodedDocument? {
    try withDocumentBytes(key, hint: hint) { try EncodedDocument(key: key, verifying: $0) }
  }

  /// Calls `body` with the key and stored bytes (valid only inside `body`) of each
  /// document of the collection at `path`, in document-ID order, until it returns `false`.
  package func forEachDocumentBytes(
    inCollection path: ResourcePath, _ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Bool
  ) throws {
    guard let number = try registry.number(of: path, in: txn) else { return }
    let prefix = number.bytes
    let cursor = try txn.cursor(tables.documents)
    var entry = try cursor.seek(atLeast: prefix)
    while let (key, value) = entry, key.starts(with: prefix) {
      guard let id = KeyLayout.documentID(inKey: key) else {
        throw HearthError.dataLoss("A document key in collection \(path) is not valid UTF-8")
      }
      if try !body(DocumentKey(collection: path, id: id), value) { return }
      entry = try cursor.next()
    }
  }

  /// The IDs of the subcollections of `parent` (root collections when `nil`) that hold
  /// at least one document somewhere below them, sorted in UTF-8 byte order.
  package func collectionIDs(under parent: DocumentKey?) throws -> [String] {
    let parentKey: [UInt8]
    if let parent {
      guard let number = try registry.number(ofCollectionOf: parent, in: txn) else { return [] }
      parentKey = KeyLayout.parentKey(number, parent.documentID)
    } else {
      parentKey = KeyLayout.parentKey(.root, "")
    }
    return try registry.children(under: parentKey, in: txn)
      .filter { try hasDocuments(below: $0.number) }
      .map(\.id)
      .sorted { Value.compareUTF8($0, $1) < 0 }
  }

  /// The IDs in the collection at `path`: its documents, and the IDs of missing
  /// documents that have subcollections with documents (Firestore's `listDocuments`),
  /// in document-ID order.
  package func documentIDs(inCollection path: ResourcePath) throws -> [String] {
    guard let number = try registry.number(of: path, in: txn) else { return [] }
    var ids: [String] = []
    let prefix = number.bytes
    let documents = try txn.cursor(tables.documents)
    var entry = try documents.seek(atLeast: prefix)
    while let (key, _) = entry, key.starts(with: prefix) {
      if let id = KeyLayout.documentID(inKey: key) { ids.append(id) }
      entry = try documents.next()
    }
    let existing = Set(ids)
    for (id, childNumbers) in try parentsWithChildren(in: number) where !existing.contains(id) {
      if try childNumbers.contains(where: hasDocuments(below:)) { ids.append(id) }
    }
    return ids.sorted { NumericID.compare($0, $1) < 0 }
  }

  /// Whether the collection, or any collection below it, holds a document.
  func hasDocuments(below number: CollectionNumber) throws -> Bool {
    let prefix = number.bytes
    let documents = try txn.cursor(tables.documents)
    if let (key, _) = try documents.seek(atLeast: prefix), key.starts(with: prefix) { return true }
    for (_, childNumbers) in try parentsWithChildren(in: number) {
      if try childNumbers.contains(where: hasDocuments(below:)) { return true }
    }
    return false
  }

  /// The documents of a collection (existing or not) that have subcollections, with
  /// their subcollections' numbers.
  func parentsWithChildren(in number: CollectionNumber) throws -> [(id: String, children: [CollectionNumber])] {
    let prefix = number.bytes
    let cursor = try txn.cursor(tables.children)
    var result: [(String, [CollectionNumber])] = []
    var entry = try cursor.seek(atLeast: prefix)
    while let (key, value) = entry, key.starts(with: prefix) {
      if let id = KeyLayout.documentID(inKey: key), let child = CollectionNumber(value) {
        if result.last?.0 == id {
          result[result.count - 1].1.append(child)
        } else {
          result.append((id, [child]))
        }
      }
      entry = try cursor.next()
    }
    return result
  }

  /// The numbers and paths of every collection whose ID is `collectionID`, at any depth.
  func collectionGroup(_ collectionID: String) throws -> [(number: CollectionNumber, path: ResourcePath)] {
    try registry.group(collectionID, in: txn).map { ($0, try registry.path(of: $0, in: txn)) }
  }
}
