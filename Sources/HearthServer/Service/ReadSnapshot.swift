import HearthCore

/// What one read sees: the latest snapshot, or the database as it was at the request's
/// `read_time` (`past`), which the served databases answer from the versions they keep
/// (`ServedDatabases.versionRetention`, 7 days unless told otherwise).
struct ReadSnapshot {
  let reader: StoreReader
  let past: PastReader?
  /// The time the snapshot stands for, the read time of the answer: the past time read,
  /// or now, in microseconds as all of Firestore's times (a client may send it back as
  /// a `read_time`), and never before the last commit it sees.
  let time: Timestamp
  /// Refuse queries that need an index not declared (`FirestoreService.requireIndexes`).
  let requireIndexes: Bool

  func document(_ key: DocumentKey) throws -> StoredDocument? {
    if let past { return try past.document(key) }
    return try reader.document(key)
  }

  /// When the document at `key`, missing in this snapshot, was deleted, if the versions
  /// kept tell.
  func deleteTime(of key: DocumentKey) throws -> Timestamp? {
    if let past { return try past.deleteTime(of: key) }
    return try reader.deleteTime(of: key)
  }

  /// The query's documents in order, within its cursors and limit.
  func run(_ model: QueryModel) throws -> [StoredDocument] {
    if let past { return try past.run(model, requireIndexes: requireIndexes) }
    return try reader.run(model, requireIndexes: requireIndexes).documents.map(\.stored)
  }

  func collectionIDs(under parent: DocumentKey?) throws -> [String] {
    if let past { return try past.collectionIDs(under: parent) }
    return try reader.collectionIDs(under: parent)
  }

  func documentIDs(inCollection path: ResourcePath) throws -> [String] {
    if let past { return try past.documentIDs(inCollection: path) }
    return try reader.documentIDs(inCollection: path)
  }

  /// The keys of the documents in a collection's tree; at a past time a superset, which
  /// `document(_:)` settles.
  func documentKeys(inTreeOf path: ResourcePath) throws -> [DocumentKey] {
    if let past { return try past.candidateKeys(inTreeOf: path) }
    return try reader.documentKeys(inTreeOf: path, limit: .max)
  }

  /// The keys of a document and the documents below it; at a past time a superset, which
  /// `document(_:)` settles.
  func documentKeys(inTreeOf key: DocumentKey) throws -> [DocumentKey] {
    if let past { return try past.candidateKeys(inTreeOf: key) }
    return try reader.documentKeys(inTreeOf: key, limit: .max)
  }
}

extension FirestoreService {
  /// The time now, in microseconds (Firestore's precision).
  static var now: Timestamp { Timestamp(microseconds: Timestamp().microseconds) }

  /// Runs `body` on one snapshot of `database`: the latest, or as it was at `time`.
  ///
  /// - Throws: `invalidArgument` for a time in the future or finer than microseconds
  ///   (Firestore's precision); `failedPrecondition` for one before the versions kept.
  func read<R>(_ database: DatabaseName, at time: Timestamp?, _ body: (ReadSnapshot) throws -> R) throws -> R {
    if let time, time.nanoseconds % 1000 != 0 {
      throw HearthError(
        .invalidArgument, "read_time \(RFC3339.format(time)): timestamp cannot have more than microseconds precision")
    }
    let store = try databases.store(database)
    return try store.read { reader in
      let past = try time.map { try reader.past(at: $0) }
      let now = FirestoreService.now
      let current = try reader.lastCommitTime.map { max($0, now) } ?? now
      return try body(
        ReadSnapshot(reader: reader, past: past, time: time ?? current, requireIndexes: requireIndexes))
    }
  }
}
