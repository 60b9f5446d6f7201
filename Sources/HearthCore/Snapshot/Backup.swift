import Foundation
import HearthStorage

/// What a backup holds, from its manifest.
public struct BackupManifest: Sendable, Equatable {
  /// When the copy was taken.
  public var createdAt: Timestamp
  /// The number of documents in the copy.
  public var documents: Int
  /// The database format of the copy (`KeyLayout.layoutVersion`).
  public var format: Int
  /// The size and CRC-32 of the copied file.
  public var bytes: Int
  public var crc32: UInt32

  static let fileName = "manifest.json"
  static let dataFile = "data.mdb"
  static let version = 1

  var json: String {
    JSONWriter(style: .pretty).string(
      from: .object([
        ("hearth", .string("backup")), ("version", .integer(Int64(Self.version))),
        ("createdAt", .string(RFC3339.format(createdAt))), ("documents", .integer(Int64(documents))),
        ("format", .integer(Int64(format))), ("file", .string(Self.dataFile)), ("bytes", .integer(Int64(bytes))),
        ("crc32", .string(String(format: "%08x", crc32))),
      ])) + "\n"
  }

  /// Reads the manifest of the backup in `directory`.
  ///
  /// - Throws: `notFound` when `directory` is missing; `invalidArgument` when it is not a
  ///   backup or its manifest is malformed.
  static func read(from directory: String) throws -> BackupManifest {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
      throw HearthError(.notFound, "No backup at \(directory)")
    }
    let path = directory + "/" + fileName
    guard isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
      throw HearthError.invalidArgument("\(directory) is not a Hearth backup: it has no \(fileName)")
    }
    func malformed(_ problem: String) -> HearthError {
      HearthError.invalidArgument("\(path) is not a valid backup manifest: \(problem)")
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(utf8: Array(data))
    } catch {
      throw malformed("\(error)")
    }
    guard json["hearth"] == .string("backup") else { throw malformed(#"it lacks "hearth": "backup""#) }
    guard case .integer(let version)? = json["version"], version >= 1 else { throw malformed("no version") }
    guard version <= Self.version else {
      throw HearthError(
        .failedPrecondition, "\(directory) is a backup of version \(version); this Hearth reads version \(Self.version)"
      )
    }
    guard case .string(let created)? = json["createdAt"], let createdAt = RFC3339.parse(created),
      case .integer(let documents)? = json["documents"], documents >= 0,
      case .integer(let format)? = json["format"],
      case .integer(let bytes)? = json["bytes"], bytes >= 0,
      case .string(let checksum)? = json["crc32"], let crc32 = UInt32(checksum, radix: 16)
    else { throw malformed("createdAt, documents, format, bytes or crc32 is missing or malformed") }
    return BackupManifest(
      createdAt: createdAt, documents: Int(documents), format: Int(format), bytes: Int(bytes), crc32: crc32)
  }
}

extension DocumentStore {
  /// Writes a consistent, compacted copy of the database into the new directory
  /// `directory`, while other threads and processes go on reading and writing: LMDB
  /// copies one read snapshot. Beside the copy, `manifest.json` records the time, the
  /// number of documents, the format and the copy's size and CRC-32, which `restore`
  /// checks.
  ///
  /// - Parameter progress: called with the bytes copied so far and the database's size
  ///   (the copy, compacted, may end smaller).
  /// - Throws: `alreadyExists` when `directory` exists and is not empty.
  @discardableResult
  package func backup(to directory: String, progress: ProgressHandler? = nil) throws -> BackupManifest {
    let fileManager = FileManager.default
    if let contents = try? fileManager.contentsOfDirectory(atPath: directory), !contents.isEmpty {
      throw HearthError(.alreadyExists, "The backup directory \(directory) already exists and is not empty")
    }
    let created = Self.firstMissingAncestor(of: directory)
    do {
      try fileManager.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw HearthError(
        .permissionDenied, "Cannot create the backup directory \(directory): \(error.localizedDescription)")
    }
    do {
      // LMDB's copy walks every page: verify them first, where opening did not.
      try readIntact { _ in }
      return try writeBackup(into: directory, progress: progress)
    } catch {
      // Leave nothing behind: no half copy that looks like a backup, and none of the
      // directories this backup made (the directory was empty or new).
      for name in [BackupManifest.dataFile, BackupManifest.fileName, BackupManifest.fileName + ".partial"] {
        unlink(directory + "/" + name)
      }
      if let created { try? fileManager.removeItem(atPath: created) }
      throw error
    }
  }

  /// The copy, its checksum and its manifest, in the empty directory `directory`.
  private func writeBackup(into directory: String, progress: ProgressHandler?) throws -> BackupManifest {
    let createdAt = Timestamp(microseconds: Timestamp().microseconds)
    try guarded {
      let size = try environment.statistics().usedBytes
      try environment.copy(to: directory, progress: progress.map { report in { try report($0, size) } })
    }
    let dataPath = directory + "/" + BackupManifest.dataFile
    let (bytes, crc32) = try DurableFiles.checksum(ofFile: dataPath, sync: true)
    let documents = try Self.inspect(directory) { copy in try copy.read { try $0.txn.count(copy.tables.documents) } }
    let manifest = BackupManifest(
      createdAt: createdAt, documents: documents, format: Int(KeyLayout.layoutVersion), bytes: bytes, crc32: crc32)
    try DurableFiles.writeDurably(manifest.json, to: directory + "/" + BackupManifest.fileName)
    return manifest
  }

  /// The outermost directory of `path` that does not exist (`path` itself, or one of its
  /// parents), which creating `path` makes; `nil` when `path` exists.
  static func firstMissingAncestor(of path: String) -> String? {
    var missing: String?
    var current = path
    while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
      missing = current
      current = (current as NSString).deletingLastPathComponent
    }
    return missing
  }

  /// Replaces the database at `path` with the backup in `backup`, after checking the
  /// backup against its manifest (size, CRC-32, format, document count). The database
  /// file is replaced by one `rename`, so a crash leaves the old database or the new one,
  /// never a mix. `path` may be missing (it is created) or a database directory.
  ///
  /// - Parameter force: replace even while another process has the database open (that
  ///   process goes on with the old copy until it reopens; what it writes is lost).
  /// - Throws: `failedPrecondition` while the database is open (unless `force`; always
  ///   when this process has it open); `dataLoss` for a damaged backup;
  ///   `invalidArgument` when `backup` is not a backup or `path` is not a database.
  package static func restore(from backup: String, to path: String, force: Bool = false) throws {
    let manifest = try BackupManifest.read(from: backup)
    let source = backup + "/" + BackupManifest.dataFile
    guard manifest.format == Int(KeyLayout.layoutVersion) else {
      throw HearthError(
        .failedPrecondition,
        "The backup \(backup) has database format \(manifest.format); this Hearth reads format \(KeyLayout.layoutVersion)"
      )
    }
    let (bytes, crc32) = try DurableFiles.checksum(ofFile: source, sync: false)
    guard bytes == manifest.bytes, crc32 == manifest.crc32 else {
      throw HearthError(
        .dataLoss,
        "The backup \(backup) is damaged: \(BackupManifest.dataFile) has \(bytes) bytes with CRC-32 "
          + String(format: "%08x", crc32) + "; its manifest says \(manifest.bytes) bytes with CRC-32 "
          + String(format: "%08x", manifest.crc32))
    }
    let documents = try inspect(backup) { copy in try copy.read { try $0.txn.count(copy.tables.documents) } }
    guard documents == manifest.documents else {
      throw HearthError(
        .dataLoss, "The backup \(backup) holds \(documents) documents; its manifest says \(manifest.documents)")
    }
    try prepareTarget(path)
    // Open in this process is known from the registry: refused at once, without the wait
    // that `exclusive` gives a held lock.
    if Environment.isOpenInThisProcess(path: path) { throw openTarget(path, inThisProcess: true) }
    let lock = try OpenLock.exclusive(directory: path)
    defer { lock?.release() }
    if lock == nil {
      let inThisProcess = Environment.isOpenInThisProcess(path: path)
      guard force, !inThisProcess else { throw openTarget(path, inThisProcess: inThisProcess) }
    }
    let temporary = path + "/" + BackupManifest.dataFile + ".restoring"
    try DurableFiles.copyDurably(source, to: temporary)
    if lock == nil {
      // Forced: the other process keeps its lock file and its (now unlinked) data file;
      // the next opener starts a fresh lock file for the new data.
      unlink(path + "/lock.mdb")
    }
    // The journal and checkpoint of the data replaced: the restored file needs neither.
    Environment.removeJournal(in: path)
    guard rename(temporary, path + "/" + BackupManifest.dataFile) == 0 else {
      let error = LineFiles.failure(errno, "rename", temporary)
      unlink(temporary)
      throw error
    }
    DurableFiles.syncDirectory(path)
  }

  /// The refusal of a restore over a database that is open.
  private static func openTarget(_ path: String, inThisProcess: Bool) -> HearthError {
    HearthError(
      .failedPrecondition,
      "The database at \(path) is open"
        + (inThisProcess
          ? " in this process; close it before restoring over it"
          : " in another process; close it there, or force the restore (that process keeps the old copy)"))
  }

  /// Runs `body` on the backup copy in `directory`, opened read-only without a lock file.
  private static func inspect<R>(_ directory: String, _ body: (DocumentStore) throws -> R) throws -> R {
    var options = Options()
    options.inspectOnly = true
    let copy: DocumentStore
    do {
      copy = try DocumentStore(path: directory, options: options)
    } catch let error as HearthError {
      throw HearthError(.dataLoss, "The backup in \(directory) does not open: \(error.message)")
    }
    defer { copy.close() }
    return try body(copy)
  }

  /// Makes sure `path` can take a restored database: missing (created), empty, or a
  /// database directory.
  private static func prepareTarget(_ path: String) throws {
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    if fileManager.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw HearthError.invalidArgument("\(path) is a file, not a database directory")
      }
      let contents = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
      let isDatabase = contents.contains(BackupManifest.dataFile)
      guard isDatabase || contents.allSatisfy({ $0 == "lock.mdb" || $0.hasSuffix(".restoring") }) else {
        throw HearthError.invalidArgument(
          "\(path) holds other files and no database; restore replaces a database directory or fills an empty one")
      }
    } else {
      do {
        try fileManager.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw HearthError(.permissionDenied, "Cannot create \(path): \(error.localizedDescription)")
      }
    }
  }
}
