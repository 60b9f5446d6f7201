import HearthCore

/// How `import(from:mode:)` treats what the database already holds: `.merge` sets each
/// document of the file and keeps the rest; `.replace` empties the database first.
public typealias ImportMode = HearthCore.ImportMode

/// What `export(to:)` wrote.
public struct ExportSummary: Sendable, Equatable {
  /// The number of documents written.
  public var documents: Int
  /// The documents left out because they could not be read, in path order; only an
  /// export with `skipDamaged: true` leaves any out (without it, the first one stops the
  /// export).
  public var damaged: [DamagedDocument] = []
}

/// A document that an export with `skipDamaged: true` left out: its stored bytes fail
/// their checksum or do not decode (`check()` reports the same).
public struct DamagedDocument: Sendable, Equatable, CustomStringConvertible {
  /// The document's path (`users/alice`).
  public var path: String
  /// What is wrong with it (`its checksum is 0x… but its bytes sum to 0x…`).
  public var reason: String

  /// `users/alice: its checksum is …`, as `check()` and the doc shell print it.
  public var description: String { "\(path): \(reason)" }

  /// The error reading `key` threw, without the path its message starts with.
  init(_ key: DocumentKey, _ error: HearthError) {
    path = key.description
    let prefix = "Document \(path) is damaged: "
    reason = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
  }
}

/// What `import(from:mode:)` loaded.
public struct ImportSummary: Sendable, Equatable {
  /// The number of documents written.
  public var documents: Int
}

/// What `backup(to:)` copied, as its manifest records it.
public typealias BackupManifest = HearthCore.BackupManifest

extension Database {
  /// Writes a consistent, compacted copy of the database into the new directory
  /// `directory` while the database stays in use (readers and writers, in this process
  /// and others, go on), with a `manifest.json` that `restore(from:to:)` checks.
  ///
  /// - Throws: `alreadyExists` when `directory` exists and is not empty;
  ///   `permissionDenied` when it cannot be created; `resourceExhausted` when the disk is
  ///   full; `failedPrecondition` when the database is closed; `dataLoss` when its file is
  ///   damaged. A failed backup leaves nothing it created.
  @discardableResult
  public func backup(to directory: String) throws -> BackupManifest {
    try engine().backup(to: directory)
  }

  /// Like `backup(to:)`, reporting progress (bytes copied, the database's size; the
  /// compacted copy may end smaller) as it goes. When `progress` throws, the backup
  /// stops with its error and leaves no copy.
  ///
  /// - Throws: what `progress` throws; and as `backup(to:)`: `alreadyExists`,
  ///   `permissionDenied`, `resourceExhausted`, `failedPrecondition` or `dataLoss`.
  @discardableResult
  public func backup(to directory: String, progress: @escaping (Int, Int?) throws -> Void) throws -> BackupManifest {
    try engine().backup(to: directory, progress: progress)
  }

  /// Replaces the database at `path` with the backup in `backup`, after checking the
  /// backup against its manifest. The replacement is atomic: a crash midway leaves the
  /// old database or the new one. `path` may be missing, empty, or a database directory.
  ///
  /// - Parameters:
  ///   - backup: the directory `backup(to:)` wrote.
  ///   - path: the database directory to replace or fill.
  ///   - force: restore even while another process has the database open (it keeps its
  ///     old copy until it reopens, and what it writes meanwhile is lost).
  /// - Throws: `failedPrecondition` while a process has the database open (this process
  ///   always counts: close the `Database` first), or for a backup of another format;
  ///   `notFound` when there is no `backup`; `dataLoss` for a damaged backup (its size,
  ///   CRC-32 or document count differ from the manifest's); `invalidArgument` when
  ///   `backup` is not a backup or `path` holds other files and no database;
  ///   `permissionDenied` when `path` cannot be created or written.
  public static func restore(from backup: String, to path: String, force: Bool = false) throws {
    try DocumentStore.restore(from: backup, to: path, force: force)
  }

  /// Writes every document to `file` as JSON Lines (docs/file-formats.md, "Exports"), in path
  /// order, from one consistent snapshot; `-` writes to standard output. Memory stays
  /// constant however large the database. A regular `file` is replaced only once the
  /// export is whole (a failed export leaves the old file); a FIFO or a device is written
  /// into as it is, never replaced; a symbolic link is followed to its target.
  ///
  /// A damaged document (one whose stored bytes fail their checksum) stops the export with
  /// `dataLoss` naming it, and leaves no file. `skipDamaged: true` is the salvage mode:
  /// every readable document is written, the damaged ones are left out and listed in the
  /// summary's `damaged`, and the header's document count is `null`. For example:
  ///
  /// ```swift
  /// let summary = try db.export(to: "rescued.jsonl", skipDamaged: true)
  /// for document in summary.damaged { print("lost \(document.path): \(document.reason)") }
  /// ```
  ///
  /// Damage to the database's own structure (its B-tree pages) still stops the export;
  /// `check()` tells what is damaged.
  ///
  /// - Throws: `dataLoss` for a damaged document (without `skipDamaged`) or damaged
  ///   pages; `invalidArgument` when `file` is a directory; `notFound`,
  ///   `permissionDenied` or `resourceExhausted` (a full disk) when the file cannot be
  ///   written; `failedPrecondition` when the database is closed.
  @discardableResult
  public func export(to file: String, skipDamaged: Bool = false) throws -> ExportSummary {
    try exporting(skipDamaged) { try engine().export(to: file, damaged: $0) }
  }

  /// Like `export(to:skipDamaged:)`, reporting progress (documents written, total) as it
  /// goes. When `progress` throws, the export stops with its error and leaves no file.
  ///
  /// - Throws: what `progress` throws; and as `export(to:skipDamaged:)`: `dataLoss`,
  ///   `invalidArgument`, `notFound`, `permissionDenied`, `resourceExhausted` or
  ///   `failedPrecondition`.
  @discardableResult
  public func export(
    to file: String, skipDamaged: Bool = false, progress: @escaping (Int, Int?) throws -> Void
  ) throws -> ExportSummary {
    try exporting(skipDamaged) { try engine().export(to: file, progress: progress, damaged: $0) }
  }

  /// Hands the export's lines (without line breaks), header first, to `write`: for
  /// streaming an export somewhere other than a file. `skipDamaged` as for
  /// `export(to:skipDamaged:)`.
  ///
  /// - Throws: what `write` or `progress` throws (the export stops there); `dataLoss`
  ///   for a damaged document (without `skipDamaged`) or damaged pages;
  ///   `failedPrecondition` when the database is closed.
  @discardableResult
  public func export(
    into write: (String) throws -> Void, skipDamaged: Bool = false, progress: ((Int, Int?) throws -> Void)? = nil
  ) throws -> ExportSummary {
    try exporting(skipDamaged) { try engine().export(into: write, progress: progress, damaged: $0) }
  }

  /// Runs an export, collecting the damaged documents when `skipDamaged`.
  private func exporting(_ skipDamaged: Bool, _ body: (DamagedDocumentHandler?) throws -> Int) throws
    -> ExportSummary
  {
    var damaged: [DamagedDocument] = []
    let documents = try body(skipDamaged ? { damaged.append(DamagedDocument($0, $1)) } : nil)
    return ExportSummary(documents: documents, damaged: damaged)
  }

  /// Loads an export (`-`: standard input), keeping each document's create and update
  /// times. The whole input is validated first: a bad line throws `invalidArgument`
  /// naming the line and the problem, and nothing is written. Index entries are built as
  /// the documents are written, in large atomic chunks.
  ///
  /// - Throws: `invalidArgument` as `FILE:LINE: problem` for the first bad line (nothing
  ///   is written then); `notFound` or `permissionDenied` when `file` cannot be read;
  ///   `failedPrecondition` when the database is closed or open read-only;
  ///   `resourceExhausted` when the disk fills (the chunks already written stay).
  @discardableResult
  public func `import`(from file: String, mode: ImportMode = .merge) throws -> ImportSummary {
    ImportSummary(documents: try engine().importDocuments(from: file, mode: mode))
  }

  /// Like `import(from:mode:)`, reporting progress (documents written, total) as it goes.
  /// An import is never left half done: what `progress` throws is ignored.
  ///
  /// - Throws: as `import(from:mode:)`: `invalidArgument` for a bad line (nothing is
  ///   written), `notFound`, `permissionDenied`, `failedPrecondition` or
  ///   `resourceExhausted`.
  @discardableResult
  public func `import`(from file: String, mode: ImportMode = .merge, progress: @escaping (Int, Int?) throws -> Void)
    throws
    -> ImportSummary
  {
    ImportSummary(documents: try engine().importDocuments(from: file, mode: mode, progress: progress))
  }
}

/// What `check()` found: `ok` when nothing is wrong, otherwise one line per problem,
/// naming the document path or the table involved.
public struct CheckReport: Sendable, Equatable {
  /// Whether no problem was found.
  public var ok: Bool
  /// One line per problem, naming the document, the page or the table.
  public var problems: [String]
  /// The documents checked.
  public var documents: Int
  /// The index entries checked.
  public var indexEntries: Int
  /// The collections checked.
  public var collections: Int
}

extension Database {
  /// Checks the whole database on one consistent snapshot: every document passes its
  /// checksum, decodes and obeys the document rules; every document has each index entry
  /// its fields call for and the index holds no other; every collection is registered in
  /// its group and under its parent. Problems are reported, not thrown.
  ///
  /// - Throws: `failedPrecondition` when the database is closed (damage is reported, not
  ///   thrown).
  public func check() throws -> CheckReport {
    try check(progress: nil)
  }

  /// Like `check()`, reporting progress (documents checked, total) as it goes. When
  /// `progress` throws, the check stops with its error.
  ///
  /// - Throws: what `progress` throws; and as `check()`: `failedPrecondition` when the
  ///   database is closed.
  public func check(progress: ((Int, Int?) throws -> Void)?) throws -> CheckReport {
    CheckReport(try engine().check(progress: progress))
  }

  /// Checks the database in directory `path` without opening it for use, so that a
  /// database too damaged to open (an empty or truncated `data.mdb`, damaged pages, which
  /// `Database(path:)` refuses with `dataLoss`) is reported too: each damaged page, with
  /// the documents it held as far as they can be named. An intact database is checked as
  /// `check()` does.
  ///
  /// ```swift
  /// let report = try Database.check(path: "app.hearth")
  /// for problem in report.problems { print(problem) }
  /// ```
  ///
  /// - Throws: `notFound` when there is no database at `path`; `permissionDenied`.
  public static func check(path: String, progress: ((Int, Int?) throws -> Void)? = nil) throws -> CheckReport {
    CheckReport(try DocumentStore.check(path: path, progress: progress))
  }
}

extension CheckReport {
  init(_ report: IntegrityReport) {
    self.init(
      ok: report.ok, problems: report.problems, documents: report.documents, indexEntries: report.indexEntries,
      collections: report.collections)
  }
}
