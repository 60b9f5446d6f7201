import Foundation
import HearthStorage

/// Applies the writes of one commit inside its LMDB write transaction: preconditions,
/// plain writes, transforms at the commit time, validation, encoding.
struct Committer {
  let store: DocumentStore
  let txn: WriteTransaction

  private var tables: Tables { store.tables }

  /// - Parameter keepingDocuments: also return each written document as stored (for the
  ///   store's follower, which then need not read them again).
  /// - Throws: `notFound` / `alreadyExists` for failed preconditions, `invalidArgument`
  ///   for a document that breaks the rules; the caller aborts the transaction.
  func apply(
    _ writes: [Write], resolved: inout [(ResourcePath, CollectionNumber)], keepingDocuments: Bool = false
  ) throws -> CommitResult {
    guard !writes.isEmpty else { return CommitResult(commitTime: Timestamp(), changedKeys: [], writeResults: []) }
    // Every write's data is checked before any is applied, as the backend checks a
    // request: a bad vector in the last write fails the commit as invalid even where an
    // earlier write's precondition fails too.
    for write in writes {
      switch write.kind {
      case .set(let data), .patch(let data, _): try DocumentValidation.validateVectors(data, of: write.key)
      case .delete: break
      }
    }
    let commitTime = try nextCommitTime()
    let indexes = try store.catalog.current(in: txn)
    var history = try VersionHistory(txn: txn, tables: tables)
    var documents: [DocumentKey: CommittedDocument?] = [:]
    var writeResults: [WriteResult] = []
    writeResults.reserveCapacity(writes.count)
    for write in writes {
      let (stored, writeResult) = try apply(
        write, at: commitTime, indexes: indexes, history: &history, resolved: &resolved)
      writeResults.append(writeResult)
      if keepingDocuments { documents[write.key] = .some(stored) }
    }
    try history?.trim(now: commitTime.microseconds)
    let keys = writes.map(\.key)
    var result = CommitResult(commitTime: commitTime, changedKeys: keys, writeResults: writeResults)
    if keepingDocuments { result.documents = documents }
    if let changes = tables.changes {
      result.logSequence = try ChangeLog.append(CommitChanges(keys: keys), in: txn, table: changes)
    }
    return result
  }

  /// The wall clock in microseconds, but always after the last commit of any process, so
  /// commit times are unique and increasing.
  func nextCommitTime() throws -> Timestamp {
    let now = Timestamp().microseconds
    let last = try lastCommitTime()
    guard last < .max else { throw HearthError.dataLoss("The last commit time in the meta table is damaged") }
    let time = now > last ? now : last + 1
    try setLastCommitTime(time)
    return Timestamp(microseconds: time)
  }

  /// The last commit time in microseconds (`Int64.min` before the first commit).
  func lastCommitTime() throws -> Int64 {
    try Self.lastCommitTime(in: txn, tables: tables)
  }

  static func lastCommitTime(in txn: ReadTransaction, tables: Tables) throws -> Int64 {
    try txn.get(KeyLayout.MetaKey.lastCommit, in: tables.meta)
      .flatMap(KeyLayout.readBigEndian).map { Int64(bitPattern: $0) } ?? .min
  }

  func setLastCommitTime(_ microseconds: Int64) throws {
    try txn.put(KeyLayout.MetaKey.lastCommit, KeyLayout.bigEndian(UInt64(bitPattern: microseconds)), in: tables.meta)
  }

  /// Applies one write; returns the document it leaves (`nil`: none) and its result.
  private func apply(
    _ write: Write, at commitTime: Timestamp, indexes: IndexSet, history: inout VersionHistory?,
    resolved: inout [(ResourcePath, CollectionNumber)]
  ) throws -> (CommittedDocument?, WriteResult) {
    let key = write.key
    let number: CollectionNumber
    if case .delete = write.kind {
      guard let known = try store.registry.number(ofCollectionOf: key, in: txn) else {
        try check(write.precondition, existing: nil, key: key)
        return (nil, WriteResult(updateTime: nil, transformResults: []))
      }
      number = known
    } else {
      number = try store.registry.register(key.collectionPath, in: txn, resolved: &resolved)
    }
    let storageKey = KeyLayout.documentKey(number, key.documentID)
    let existingBytes = try txn.get(storageKey, in: tables.documents)
    // The old fields are needed to patch them and to remove their index entries.
    let existing = try existingBytes.map { try DocumentCodec.decode($0, key: key) }
    try check(write.precondition, existing: existing, key: key)

    var fields: [String: Value]
    switch write.kind {
    case .delete:
      if let existing {
        try history?.keep(
          existingBytes, storageKey: storageKey, number: number, documentID: key.documentID,
          at: commitTime.microseconds)
        try txn.delete(storageKey, in: tables.documents)
        try updateIndexes(indexes, key, number, old: existing.fields, new: nil)
      }
      return (nil, WriteResult(updateTime: nil, transformResults: []))
    case .set(let newFields):
      fields = newFields
    case .patch(let patch, let mask):
      fields = existing?.fields ?? [:]
      FieldOperations.apply(patch: patch, mask: mask, to: &fields)
    }
    var transformResults: [Value] = []
    for transform in write.transforms {
      let previous = FieldOperations.value(at: transform.path, in: fields)
      let result = FieldOperations.transform(transform.operation, previous: previous, commitTime: commitTime)
      FieldOperations.set(result, at: transform.path, in: &fields)
      transformResults.append(result)
    }
    try DocumentValidation.validate(fields, of: key)
    // A write that leaves the document as it was changes nothing, its update time
    // included, as in Firestore (a client that writes over the version it read still
    // finds that version).
    if let existing, let existingBytes, Value.identicalFields(existing.fields, fields) {
      let unchanged = EncodedDocument(key: key, encoded: Array(existingBytes))
      return (
        CommittedDocument(unchanged, fields: fields),
        WriteResult(updateTime: existing.updateTime, transformResults: transformResults)
      )
    }
    try history?.keep(
      existingBytes, storageKey: storageKey, number: number, documentID: key.documentID, at: commitTime.microseconds)
    let document = StoredDocument(
      key: key, fields: fields, createTime: existing?.createTime ?? commitTime, updateTime: commitTime)
    let stored = try put(document, at: storageKey, number, indexes: indexes, replacing: existing?.fields)
    return (
      CommittedDocument(stored, fields: fields), WriteResult(updateTime: commitTime, transformResults: transformResults)
    )
  }

  /// Stores a validated document as it is, times included (what an import does),
  /// replacing the document at its key. `mayExist` false skips looking for one: the
  /// fast path of an import into an empty database.
  func store(
    _ document: StoredDocument, indexes: IndexSet, mayExist: Bool, resolved: inout [(ResourcePath, CollectionNumber)]
  ) throws {
    let number = try store.registry.register(document.key.collectionPath, in: txn, resolved: &resolved)
    let storageKey = KeyLayout.documentKey(number, document.key.documentID)
    let existing =
      try mayExist
      ? txn.get(storageKey, in: tables.documents).map { try DocumentCodec.decode($0, key: document.key).fields } : nil
    _ = try put(document, at: storageKey, number, indexes: indexes, replacing: existing)
  }

  /// Writes the document's bytes and brings its index entries from `old` to its fields;
  /// returns the document as stored.
  private func put(
    _ document: StoredDocument, at storageKey: [UInt8], _ number: CollectionNumber, indexes: IndexSet,
    replacing old: [String: Value]?
  ) throws -> EncodedDocument {
    let bytes = DocumentCodec.encode(document)
    try bytes.withUnsafeBytes { encoded in
      try storageKey.withUnsafeBytes { try txn.put($0, encoded, in: tables.documents) }
    }
    try updateIndexes(indexes, document.key, number, old: old, new: document.fields)
    return EncodedDocument(key: document.key, encoded: bytes)
  }

  /// Brings the document's automatic and declared index entries from `old` to `new`.
  private func updateIndexes(
    _ indexes: IndexSet, _ key: DocumentKey, _ number: CollectionNumber, old: [String: Value]?,
    new: [String: Value]?
  ) throws {
    let overrides = indexes.modes(key.collectionGroup)
    try FieldIndex.replace(
      old.map { FieldIndex.keys(number, $0, overrides) } ?? [],
      with: new.map { FieldIndex.keys(number, $0, overrides) } ?? [],
      documentID: key.documentID, in: txn, table: tables.indexEntries)
    try CompositeIndex.update(indexes.indexes, key, number, old: old, new: new, in: txn, table: tables.indexEntries)
  }

  private func check(_ precondition: Write.Precondition, existing: StoredDocument?, key: DocumentKey) throws {
    switch precondition {
    case .none: return
    case .exists(true) where existing == nil:
      throw HearthError(.notFound, "No document to update: \(key)")
    case .exists(false) where existing != nil:
      throw HearthError(.alreadyExists, "Document already exists: \(key)")
    case .exists: return
    case .updateTime(let required):
      guard let existing else {
        // Firestore keeps versions as microseconds since the epoch and gives a missing
        // document version 0: Google's emulator takes the epoch itself as its version.
        if required == Timestamp(seconds: 0, nanoseconds: 0) { return }
        throw HearthError(
          .failedPrecondition,
          "Document \(key) does not exist, so it was not last updated at \(RFC3339.format(required))")
      }
      // A time after the document's last update is no version it ever had: Firestore
      // (and its emulator) call that invalid, not a failed precondition.
      if required > existing.updateTime {
        throw HearthError(
          .invalidArgument,
          "Invalid update-time precondition for \(key): \(RFC3339.format(required)) is after the document's "
            + "last update, \(RFC3339.format(existing.updateTime))")
      }
      guard existing.updateTime == required else {
        throw HearthError(
          .failedPrecondition,
          "Document \(key) was last updated at \(RFC3339.format(existing.updateTime)), "
            + "not at the required \(RFC3339.format(required))")
      }
    }
  }
}
