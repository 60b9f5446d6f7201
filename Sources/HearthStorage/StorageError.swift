import CLMDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error from LMDB or from the storage layer's own rules.
///
/// Every error carries the LMDB (or `errno`) code, the library's text for it and the
/// operation that failed, so that a report such as
/// `mdb_put (documents): MDB_MAP_FULL: Environment mapsize limit reached (-30792)`
/// says what to fix without a debugger.
package struct StorageError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The LMDB return code (negative, `MDB_*`) or an `errno` value (positive).
  package let code: Int32
  /// The call that failed, with the table or path it worked on.
  package let operation: String

  package init(code: Int32, operation: String) {
    self.code = code
    self.operation = operation
  }

  /// `mdb_strerror`'s text for the code (which covers `errno` values too).
  package var message: String { String(cString: mdb_strerror(code)) }

  package var description: String { "\(operation): \(message) (\(code))" }

  /// The map (the database's maximum size) is full. `Environment.write` grows the map
  /// and retries on this error, so callers above the storage layer rarely see it.
  package var isMapFull: Bool { code == MDB_MAP_FULL }
  /// The key was not found where the operation required it.
  package var isNotFound: Bool { code == MDB_NOTFOUND }
  /// The file is not an LMDB environment, or its pages are damaged.
  package var isCorrupt: Bool {
    code == MDB_CORRUPTED || code == MDB_INVALID || code == MDB_VERSION_MISMATCH
      || code == MDB_PAGE_NOTFOUND
  }
  /// Out of disk space (or quota).
  package var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
  /// One transaction grew too large (`MDB_TXN_FULL`): split the work into smaller commits.
  package var isTransactionFull: Bool { code == MDB_TXN_FULL }

  /// The environment was closed while the caller still held it.
  package static func closed(_ operation: String) -> StorageError {
    StorageError(code: EBADF, operation: "\(operation) (environment is closed)")
  }

  /// A transaction value was used after its closure returned.
  static func expired(_ operation: String) -> StorageError {
    StorageError(code: EINVAL, operation: "\(operation) (transaction used outside its closure)")
  }
}

/// Throws a `StorageError` when an LMDB call returns anything but `MDB_SUCCESS`.
@inline(__always)
func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws(StorageError) {
  if rc != MDB_SUCCESS { throw StorageError(code: rc, operation: operation()) }
}
