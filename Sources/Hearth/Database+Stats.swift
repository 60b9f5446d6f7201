import HearthCore

/// Counts and sizes of a database (beyond Firestore, for tools such as the doc shell's
/// `stats`), read cheaply: documents and index entries are LMDB's entry counts of their
/// tables, collections are found with one seek each; nothing is decoded, so `stats()`
/// takes about the same time on any database.
public struct DatabaseStats: Sendable, Equatable {
  /// Documents stored.
  public var documents: Int
  /// Collections holding at least one document directly (subcollections count on their
  /// own; an emptied collection does not count).
  public var collections: Int
  /// The database's size: the used part of its `data.mdb` file, that is the pages up to
  /// the highest in use × `pageSize` (LMDB's `me_last_pgno` and `ms_psize`). Free pages
  /// inside it, which LMDB reuses for later writes, count; `backup(to:)` writes a
  /// compacted copy that can be smaller.
  public var bytes: Int
  /// Entries of every index: the automatic single-field ones and the declared ones.
  public var indexEntries: Int
  /// Declared indexes: composite ones and collection-group single-field ones (see
  /// `declaredIndexesJSON()`).
  public var declaredIndexes: Int
  /// The memory map's present size: what the database can grow to before the map grows
  /// (it grows by itself, as data arrives).
  public var mapSize: Int
  /// LMDB's page size.
  public var pageSize: Int
  /// Reader slots held by the processes that have the database open, this one included
  /// (a process keeps a slot for each read it can run at once, idle ones too).
  public var readers: Int
  /// The most reader slots there can be at once.
  public var maxReaders: Int
  /// The processes that have the database open (each holds a reader slot), this one
  /// included.
  public var processes: Int
}

extension Database {
  /// The database's counts and sizes (see `DatabaseStats`), from one consistent snapshot.
  ///
  /// ```swift
  /// let stats = try db.stats()
  /// print("\(stats.documents) documents in \(stats.collections) collections, \(stats.bytes) bytes")
  /// ```
  ///
  /// - Throws: as every read, `failedPrecondition` (closed) or `dataLoss` (damaged file).
  public func stats() throws -> DatabaseStats {
    let statistics = try engine().statistics()
    return DatabaseStats(
      documents: statistics.documents, collections: statistics.collections, bytes: statistics.usedBytes,
      indexEntries: statistics.indexEntries, declaredIndexes: statistics.declaredIndexes,
      mapSize: statistics.mapSize, pageSize: statistics.pageSize, readers: statistics.readers,
      maxReaders: statistics.maxReaders, processes: statistics.processes)
  }
}
