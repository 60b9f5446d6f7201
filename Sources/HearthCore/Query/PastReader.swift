import HearthStorage

/// Reads a snapshot as the database was at a past time (Firestore's `read_time`): the
/// current state with every document written since put back as it was then, from the
/// versions `VersionHistory` keeps. Queries still run on the indexes, which hold the
/// current state: documents written since are left out of their results and their old
/// versions matched, ordered and limited in with them.
///
/// Valid only inside the `read` closure of the `StoreReader` it came from.
package struct PastReader {
  package let reader: StoreReader
  /// The time read, in microseconds.
  package let time: Int64
  /// Whether nothing was written after `time`: the current state is the state then.
  private let isCurrent: Bool

  private var txn: ReadTransaction { reader.txn }
  private var store: DocumentStore { reader.store }

  /// - Throws: `invalidArgument` for a time after `now`; `failedPrecondition` for one
  ///   before what the database keeps (older than its retention, before versions were
  ///   kept, or before an import).
  init(reader: StoreReader, time: Timestamp, now: Timestamp) throws {
    let tables = reader.store.tables
    let last = try Committer.lastCommitTime(in: reader.txn, tables: tables)
    // Commit times may run a little ahead of the clock (they only increase): a read
    // time a read answered with is never in the future.
    guard time.microseconds <= max(now.microseconds, last) else {
      throw HearthError(.invalidArgument, "The requested 'read_time' cannot be in the future: \(RFC3339.format(time))")
    }
    self.reader = reader
    self.time = time.microseconds
    isCurrent = self.time >= last
    guard !isCurrent else { return }
    guard let retention = try VersionHistory.retention(in: reader.txn, tables: tables) else {
      throw HearthError(
        .failedPrecondition,
        "The requested 'read_time' is too old: \(RFC3339.format(time)) is before the database's last commit, and "
          + "the database at \(reader.store.path) keeps no old versions")
    }
    let from = max(try VersionHistory.readableFrom(in: reader.txn, tables: tables), now.microseconds - retention)
    guard self.time >= from else {
      throw HearthError(
        .failedPrecondition,
        "The requested 'read_time' is too old: \(RFC3339.format(time)) is before "
          + "\(RFC3339.format(Timestamp(microseconds: from))), the earliest time the database keeps versions for")
    }
  }

  /// The document at `key` as it was, or `nil` when it did not exist then.
  ///
  /// - Throws: `dataLoss` when its stored bytes are damaged.
  package func document(_ key: DocumentKey) throws -> StoredDocument? {
    let current = try reader.document(key)
    if isCurrent { return current }
    if let current, current.updateTime.microseconds <= time { return current }
    guard let number = try store.registry.number(ofCollectionOf: key, in: txn) else { return nil }
    guard let kept = try VersionHistory.version(number, key.documentID, at: time, in: txn, tables: store.tables)
    else { return current }
    return try kept.map { try DocumentCodec.decode($0, key: key) }
  }

  /// When the document at `key`, missing at `time`, was deleted (see
  /// `StoreReader.deleteTime(of:)`).
  package func deleteTime(of key: DocumentKey) throws -> Timestamp? {
    try reader.deleteTime(of: key, atOrBefore: time)
  }

  /// The documents written after `time`, each as it was then (`nil`: it did not exist),
  /// by their `documents` keys.
  private func changes() throws -> [[UInt8]: (key: DocumentKey, version: StoredDocument?)] {
    guard !isCurrent else { return [:] }
    var changes: [[UInt8]: (key: DocumentKey, version: StoredDocument?)] = [:]
    for write in try VersionHistory.writes(after: time, in: txn, tables: store.tables) {
      let located: (CollectionNumber, String)? = write.storageKey.withUnsafeBytes { bytes in
        guard let number = CollectionNumber(bytes), let id = KeyLayout.documentID(inKey: bytes) else { return nil }
        return (number, id)
      }
      guard let (number, id) = located else {
        throw HearthError.dataLoss("A key of the version history is damaged")
      }
      let key = DocumentKey(collection: try store.registry.path(of: number, in: txn), id: id)
      let kept = try VersionHistory.version(number, id, at: time, in: txn, tables: store.tables)
      changes[write.storageKey] = (key, try kept?.map { try DocumentCodec.decode($0, key: key) } ?? nil)
    }
    return changes
  }

  /// The query's results as they were, in query order, within its cursors and limit.
  ///
  /// - Throws: as `StoreReader.run`.
  package func run(_ query: QueryModel, requireIndexes: Bool = false) throws -> [StoredDocument] {
    let changes = try changes()
    let changedKeys = Set(changes.values.map(\.key))
    let inScope = changes.values.filter { query.isInScope($0.key) }
    var current = query
    // Up to one current result per document written since is left out: read past them.
    if let limit = query.limit { current.limit = limit + inScope.count }
    let order = QueryOrder(query.orderBys)
    var documents = try reader.run(current, requireIndexes: requireIndexes).documents.map(\.stored).filter {
      !changedKeys.contains($0.key)
    }
    for change in inScope {
      guard let version = change.version,
        query.matches(QueryDocument(key: version.key, fields: version.fields), order: order)
      else { continue }
      documents.append(version)
    }
    documents.sort {
      order.compare(QueryDocument(key: $0.key, fields: $0.fields), QueryDocument(key: $1.key, fields: $1.fields)) < 0
    }
    guard let limit = query.limit else { return documents }
    return query.limitType == .last ? Array(documents.suffix(limit)) : Array(documents.prefix(limit))
  }

  /// The IDs of the subcollections of `parent` (root collections when `nil`) that held a
  /// document somewhere below them, in UTF-8 byte order.
  package func collectionIDs(under parent: DocumentKey?) throws -> [String] {
    if isCurrent { return try reader.collectionIDs(under: parent) }
    let parentKey: [UInt8]
    if let parent {
      guard let number = try store.registry.number(ofCollectionOf: parent, in: txn) else { return [] }
      parentKey = KeyLayout.parentKey(number, parent.documentID)
    } else {
      parentKey = KeyLayout.parentKey(.root, "")
    }
    let changes = try changes()
    // Registrations are never removed: every collection that held a document then is here.
    return try store.registry.children(under: parentKey, in: txn)
      .filter { try hasDocuments(below: $0.number, changes) }
      .map(\.id)
      .sorted { Value.compareUTF8($0, $1) < 0 }
  }

  /// The IDs in the collection at `path` as it was: its documents, and missing documents
  /// whose subcollections held documents, in document-ID order.
  package func documentIDs(inCollection path: ResourcePath) throws -> [String] {
    if isCurrent { return try reader.documentIDs(inCollection: path) }
    guard let number = try store.registry.number(of: path, in: txn) else { return [] }
    let changes = try changes()
    var ids = try documentIDs(in: number, changes)
    let existing = Set(ids)
    for (id, children) in try reader.parentsWithChildren(in: number) where !existing.contains(id) {
      if try children.contains(where: { try hasDocuments(below: $0, changes) }) { ids.append(id) }
    }
    return ids.sorted { NumericID.compare($0, $1) < 0 }
  }

  /// The keys of the documents that may have existed at or below `key` (the document and
  /// every collection under it): a superset, which `document(_:)` settles.
  package func candidateKeys(inTreeOf key: DocumentKey) throws -> [DocumentKey] {
    try candidates(try reader.documentKeys(inTreeOf: key, limit: .max), below: key.path)
  }

  /// As `candidateKeys(inTreeOf:)`, for a collection and everything below it.
  package func candidateKeys(inTreeOf path: ResourcePath) throws -> [DocumentKey] {
    try candidates(try reader.documentKeys(inTreeOf: path, limit: .max), below: path)
  }

  /// `current` (the keys there now) and those written since below `path`.
  private func candidates(_ current: [DocumentKey], below path: ResourcePath) throws -> [DocumentKey] {
    let known = Set(current)
    return current + (try changes().values.map(\.key).filter { path.isPrefix(of: $0.path) && !known.contains($0) })
  }

  /// The IDs of the documents that existed in collection `number`.
  private func documentIDs(
    in number: CollectionNumber, _ changes: [[UInt8]: (key: DocumentKey, version: StoredDocument?)]
  ) throws -> [String] {
    let prefix = number.bytes
    var ids: [String] = []
    let cursor = try txn.cursor(store.tables.documents)
    var entry = try cursor.seek(atLeast: prefix)
    while let (key, _) = entry, key.starts(with: prefix) {
      if changes[Array(key)] == nil, let id = KeyLayout.documentID(inKey: key) { ids.append(id) }
      entry = try cursor.next()
    }
    for (storageKey, change) in changes where change.version != nil && storageKey.starts(with: prefix) {
      ids.append(change.key.documentID)
    }
    return ids
  }

  /// Whether collection `number`, or one below it, held a document.
  private func hasDocuments(
    below number: CollectionNumber, _ changes: [[UInt8]: (key: DocumentKey, version: StoredDocument?)]
  ) throws -> Bool {
    let prefix = number.bytes
    if changes.contains(where: { $0.value.version != nil && $0.key.starts(with: prefix) }) { return true }
    let cursor = try txn.cursor(store.tables.documents)
    var entry = try cursor.seek(atLeast: prefix)
    while let (key, _) = entry, key.starts(with: prefix) {
      if changes[Array(key)] == nil { return true }
      entry = try cursor.next()
    }
    for (_, children) in try reader.parentsWithChildren(in: number) {
      if try children.contains(where: { try hasDocuments(below: $0, changes) }) { return true }
    }
    return false
  }
}

extension StoreReader {
  /// The time of the last commit this snapshot sees (`nil` before the first): a read of
  /// this snapshot stands for any time from then until the next commit.
  package var lastCommitTime: Timestamp? {
    get throws {
      let last = try Committer.lastCommitTime(in: txn, tables: store.tables)
      return last == .min ? nil : Timestamp(microseconds: last)
    }
  }

  /// Whether the database keeps old versions, so that it can be read as it was.
  package var keepsVersions: Bool {
    get throws { try VersionHistory.retention(in: txn, tables: store.tables) != nil }
  }

  /// This snapshot as the database was at `time`.
  ///
  /// - Throws: `invalidArgument` for a time after `now`; `failedPrecondition` for one
  ///   before what the database keeps (see `DocumentStore.keepVersions(for:)`).
  package func past(at time: Timestamp, now: Timestamp = Timestamp()) throws -> PastReader {
    try PastReader(reader: self, time: time, now: now)
  }
}
