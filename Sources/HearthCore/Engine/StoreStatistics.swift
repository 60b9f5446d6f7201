import HearthStorage

/// What `DocumentStore.statistics()` counts and measures. The counts come from one read
/// snapshot; the sizes and readers are the environment's at about the same moment.
package struct StoreStatistics: Sendable, Equatable {
  /// Documents stored.
  package var documents: Int
  /// Collections holding at least one document (an emptied collection stays registered
  /// but is not counted, as listings skip it).
  package var collections: Int
  /// Entries of the automatic single-field indexes and of the declared indexes.
  package var indexEntries: Int
  /// Declared indexes: composite ones and collection-group single-field ones.
  package var declaredIndexes: Int
  /// The used part of `data.mdb`: pages up to the highest in use × `pageSize`. Free
  /// pages inside it, which LMDB reuses for later writes, count; a compacted copy
  /// (`backup`) can be smaller.
  package var usedBytes: Int
  package var pageSize: Int
  /// The memory map's present size: what the database can grow to before the map grows.
  package var mapSize: Int
  /// Reader slots held by processes that have the database open, this one included.
  package var readers: Int
  /// The most reader slots LMDB allows at once.
  package var maxReaders: Int
  /// The processes holding reader slots: those that have the database open.
  package var processes: Int
}

extension DocumentStore {
  /// Counts and sizes, cheaply: LMDB keeps each table's number of entries (`mdb_stat`),
  /// so documents and index entries are counted without a scan, and collections with one
  /// cursor seek each (a collection's documents are one key range). Nothing is decoded.
  /// On a file too large for opening to have verified every page, the pages are verified
  /// first (plain reads of the whole file), since the seeks cross every table.
  ///
  /// - Throws: `dataLoss` for a damaged file.
  package func statistics() throws -> StoreStatistics {
    let (documents, collections, indexEntries, declared) = try readIntact { reader in
      (
        try reader.txn.count(tables.documents), try reader.collectionsWithDocuments(),
        try reader.txn.count(tables.indexEntries), try catalog.current(in: reader.txn).indexes.count
      )
    }
    let (facts, readers) = try guarded { (try environment.statistics(), try environment.readerTable()) }
    return StoreStatistics(
      documents: documents, collections: collections, indexEntries: indexEntries, declaredIndexes: declared,
      usedBytes: facts.usedBytes, pageSize: facts.pageSize, mapSize: facts.mapSize, readers: readers.slots,
      maxReaders: facts.maxReaders, processes: readers.processes)
  }
}

extension StoreReader {
  /// The number of collections with at least one document: the `documents` table holds
  /// each collection's documents under its number, so the walk jumps from the first key of
  /// one collection to the first key past its number.
  func collectionsWithDocuments() throws -> Int {
    let cursor = try txn.cursor(store.tables.documents)
    var count = 0
    var entry = try cursor.first()
    while let (key, _) = entry, let number = KeyLayout.readBigEndian(key) {
      count += 1
      guard number < .max else { break }
      entry = try cursor.seek(atLeast: KeyLayout.bigEndian(number + 1))
    }
    return count
  }
}
