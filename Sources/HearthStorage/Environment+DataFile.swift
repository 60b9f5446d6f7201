import Foundation

/// What a database directory's `data.mdb` is before LMDB opens it.
///
/// A directory is an existing database when it holds a `data.mdb`, of any size or kind:
/// an empty one (0 bytes), or one that is not a regular file, is damage, and no open
/// makes a new database over it (LMDB would: it takes an empty file for a new one, and the
/// lost data would be silently replaced by an empty database). A directory without
/// `data.mdb` (only `lock.mdb`, say, left by an open that was interrupted) is a
/// database yet to be created.
enum DataFileState: Equatable {
  case missing
  case empty
  case present
}

extension Environment {
  static func dataFile(in directory: String) -> String { directory + "/data.mdb" }

  /// Flushes a directory's entries (a file made or renamed in it) to disk.
  package static func syncDirectory(_ path: String) {
    let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    Foundation.close(descriptor)
  }

  /// The state of the data file in `directory`.
  ///
  /// - Throws: `StorageError` (`EACCES` naming the directory's owner and mode) when the
  ///   file cannot be looked at; `StorageDamage` when it is not a regular file.
  static func dataFileState(in directory: String) throws -> DataFileState {
    let file = dataFile(in: directory)
    var info = stat()
    guard stat(file, &info) == 0 else {
      let code = errno
      if code == ENOENT { return .missing }
      throw StorageError(code: code, operation: "stat \(file)\(accessDetail(directory, code: code))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw StorageDamage(
        fileFault(
          file, problem: "data.mdb is not a regular file (mode 0\(String(info.st_mode, radix: 8))): it cannot hold data"
        ))
    }
    return info.st_size == 0 ? .empty : .present
  }

  /// For a permission error: who owns `directory`, its mode, and who this process is,
  /// so that the message says why (` (the directory belongs to uid 0 and has mode 0700;
  /// this process runs as uid 65534)`). Empty for other errors.
  static func accessDetail(_ directory: String, code: Int32) -> String {
    guard code == EACCES || code == EPERM else { return "" }
    var info = stat()
    guard stat(directory, &info) == 0 else { return "" }
    return " (the directory belongs to uid \(info.st_uid) and has mode 0\(String(info.st_mode & 0o7777, radix: 8)); "
      + "this process runs as uid \(geteuid()))"
  }

  /// A verification holding only a file-level fault of `file`.
  static func fileFault(_ file: String, problem: String, size: Int = 0) -> PageVerification {
    var verification = PageVerification(
      file: file, fileSize: size, pageSize: 0, lastPage: 0, transactionID: 0, coversEveryPage: false)
    verification.damage = [DamagedPage(page: 0, area: .metaPages, role: "data file", problem: problem)]
    return verification
  }

  /// The damage of an empty data file in `directory`.
  static func emptyDataFile(in directory: String) -> PageVerification {
    fileFault(
      dataFile(in: directory),
      problem: "data.mdb is empty (0 bytes): the database's data is gone, though its directory remains")
  }

  /// Settles, under the open lock (held shared), whether this open creates the data
  /// file; when it does, the returned creation lock is held until LMDB has written the
  /// file's meta pages.
  ///
  /// LMDB creates `data.mdb` and writes its meta pages a moment later, so an empty file
  /// is damage only when no process is creating it: creators hold the directory's
  /// creation lock, and an empty file is looked at again under it.
  ///
  /// - Throws: `StorageError` `ENOENT` when the file is missing and `createIfMissing`
  ///   is false; `StorageDamage` for an empty file.
  static func settleDataFile(in directory: String, createIfMissing: Bool) throws -> CreationLock? {
    if try dataFileState(in: directory) == .present { return nil }
    let creation = try CreationLock(directory: directory)
    switch try dataFileState(in: directory) {
    case .present:
      creation.release()
      return nil
    case .empty:
      creation.release()
      throw StorageDamage(emptyDataFile(in: directory))
    case .missing:
      guard createIfMissing else {
        creation.release()
        throw StorageError(code: ENOENT, operation: "open \(directory)")
      }
      return creation
    }
  }
}

/// An exclusive `flock` on a database directory itself, held by a process while it
/// creates the directory's data file (from LMDB's creating the file to its writing the
/// meta pages), and by a process that found the file empty while it looks again.
final class CreationLock {
  private var descriptor: Int32

  init(directory: String) throws {
    descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      throw StorageError(code: code, operation: "open \(directory)\(Environment.accessDetail(directory, code: code))")
    }
    do {
      try waitForLock(descriptor, LOCK_EX, path: directory)
    } catch {
      release()
      throw error
    }
  }

  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
