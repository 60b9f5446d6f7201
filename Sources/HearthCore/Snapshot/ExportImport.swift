import HearthStorage

/// How an import treats what the database already holds.
public enum ImportMode: Sendable {
  /// Set each document of the file (replacing a document at the same path); keep the rest.
  case merge
  /// Empty the database first, then load the file.
  case replace
}

/// Told about each document an export in salvage mode leaves out: its key, and the
/// `dataLoss` error that reading it threw.
package typealias DamagedDocumentHandler = (_ key: DocumentKey, _ error: HearthError) -> Void

extension DocumentStore {
  /// Writes every document to `path` (`-`: standard output) in the export format
  /// (`ExportFormat`), in path order, from one consistent read snapshot; returns the
  /// number of documents written. Memory stays constant however large the database; a
  /// regular file is only put in place once it is whole (see `LineWriter`).
  ///
  /// - Parameter damaged: the salvage mode: when given, a document whose stored bytes do
  ///   not decode (`dataLoss`) is left out and handed to it, and the export goes on;
  ///   without it, the export stops with that error.
  package func export(to path: String, progress: ProgressHandler? = nil, damaged: DamagedDocumentHandler? = nil)
    throws -> Int
  {
    let writer = try LineWriter(path: path)
    do {
      let count = try export(into: writer.write(line:), progress: progress, damaged: damaged)
      try writer.finish()
      return count
    } catch {
      writer.abandon()
      throw error
    }
  }

  /// Hands the export's lines (without line breaks), header first, to `write`.
  ///
  /// In the salvage mode (`damaged` given) the header's document count is `null`: which
  /// documents are readable is known only at the end. On a file too large for opening to
  /// have verified every page, its pages are verified first (`readIntact`).
  package func export(
    into write: (String) throws -> Void, progress: ProgressHandler? = nil, damaged: DamagedDocumentHandler? = nil
  ) throws -> Int {
    try readIntact { reader in
      let total = try reader.txn.count(tables.documents)
      try write(ExportFormat.header(exportedAt: Timestamp(), documents: damaged == nil ? total : nil))
      var done = 0
      var visited = 0
      try reader.forEachDocumentInPathOrder { key, bytes in
        visited += 1
        if visited % 1000 == 0 {
          try progress?(done, total)
          environment.releaseMappedPages()
        }
        let document: StoredDocument
        do {
          document = try DocumentCodec.decode(bytes, key: key)
        } catch let error as HearthError where error.code == .dataLoss && damaged != nil {
          damaged?(key, error)
          return
        }
        try write(ExportFormat.line(document))
        done += 1
      }
      try progress?(done, total)
      return done
    }
  }

  /// Loads an export from `path` (`-`: standard input); returns the number of documents.
  ///
  /// The whole input is read once to validate it: a bad line (not JSON, a bad path or
  /// value, a repeated path, a header that is missing or whose count disagrees) throws
  /// `invalidArgument` naming the line, and nothing is written. Then the documents are
  /// written with their create and update times, in atomic chunks of `importChunk`
  /// documents (one transaction for a smaller input), their index entries built as they
  /// go. `.replace` empties the database in the first chunk's transaction.
  ///
  /// Into an empty database, documents are written without looking for old ones (the
  /// fast path), for as long as no other commit comes between two chunks.
  package func importDocuments(from path: String, mode: ImportMode, progress: ProgressHandler? = nil) throws -> Int {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(self.path) is open read-only")
    }
    let input = try ImportValidation(path: path)
    defer { input.removeCopy() }
    var importer = Importer(store: self, mode: mode)
    if let documents = input.documents {
      try importer.apply(documents)
    } else {
      let reader = try LineReader(path: input.source)
      // Past the header, validated (blank lines before it included).
      while let (text, _) = try reader.nextLine(), ImportValidation.isBlank(text) {}
      var chunk: [ImportedDocument] = []
      while let (text, _) = try reader.nextLine() {
        if ImportValidation.isBlank(text) { continue }
        chunk.append(try ExportFormat.document(from: text))
        if chunk.count == Self.importChunk {
          try importer.apply(chunk)
          chunk.removeAll(keepingCapacity: true)
          try? progress?(importer.written, input.count)
        }
      }
      if !chunk.isEmpty { try importer.apply(chunk) }
    }
    if importer.isFirst { try importer.apply([]) }  // `.replace` with an empty file
    try? progress?(importer.written, input.count)
    return importer.written
  }

  /// Documents per import transaction: large enough to make an import fast, small enough
  /// to keep its memory low.
  static let importChunk = 1000
}

/// Writes an import's chunks, one transaction each.
private struct Importer {
  let store: DocumentStore
  let mode: ImportMode
  private(set) var written = 0
  private(set) var isFirst = true
  /// The last commit time our previous chunk left, while the fast path holds.
  private var fastPathMark: Int64?

  init(store: DocumentStore, mode: ImportMode) {
    self.store = store
    self.mode = mode
  }

  mutating func apply(_ documents: [ImportedDocument]) throws {
    let (first, replace, mark) = (isFirst, isFirst && mode == .replace, fastPathMark)
    let tables = store.tables
    var resolved: [(ResourcePath, CollectionNumber)] = []
    let (mayExist, lastCommit, _) = try store.guarded {
      try store.environment.write(
        durable: store.options.durable,
        afterCommit: { [store] outcome in
          store.committed(
            CommitChanges(keys: documents.map(\.key), everything: replace), logSequence: outcome.sequence)
        }
      ) { txn -> (mayExist: Bool, latest: Int64, sequence: UInt64) in
        resolved.removeAll()
        if replace {
          try txn.empty(tables.documents)
          try txn.empty(tables.indexEntries)
        }
        let committer = Committer(store: store, txn: txn)
        let mayExist: Bool
        if first {
          mayExist = try txn.count(tables.documents) > 0
        } else {
          mayExist = try mark == nil || committer.lastCommitTime() != mark
        }
        let commitTime = try committer.nextCommitTime()
        let indexes = try store.catalog.current(in: txn)
        var latest = commitTime.microseconds
        for (position, document) in documents.enumerated() {
          // Pages read through the map count as resident until released (see
          // `Environment.releaseMappedPages`); the index updates of a few hundred
          // documents touch pages all over a large database.
          if position % 25 == 24 { store.environment.releaseMappedPages() }
          let updateTime = document.updateTime ?? commitTime
          latest = max(latest, updateTime.microseconds)
          let stored = StoredDocument(
            key: document.key, fields: document.fields, createTime: document.createTime ?? updateTime,
            updateTime: updateTime)
          try committer.store(stored, indexes: indexes, mayExist: mayExist, resolved: &resolved)
        }
        // Later commits must come after every imported update time.
        try committer.setLastCommitTime(latest)
        // An import keeps no versions of what it replaces: reads before it would be wrong.
        if try VersionHistory.retention(in: txn, tables: tables) != nil {
          try VersionHistory.setReadableFrom(latest, in: txn, tables: tables)
        }
        let sequence = try tables.changes.map { log in
          try ChangeLog.append(CommitChanges(keys: documents.map(\.key), everything: replace), in: txn, table: log)
        }
        return (mayExist, latest, sequence ?? 0)
      }
    }
    store.registry.remember(resolved)
    fastPathMark = mayExist ? nil : lastCommit
    isFirst = false
    written += documents.count
  }
}
