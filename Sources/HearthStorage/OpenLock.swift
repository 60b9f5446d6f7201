import Foundation

/// A lock on a database directory that says "open": every open environment holds it
/// shared; whoever means to replace the files (a restore) takes it exclusive, and so finds
/// out whether any process, this one included, has the database open.
///
/// It is an `flock` on `lock.mdb`, LMDB's own lock file, which LMDB locks with `fcntl`
/// only, so the two never interfere.
package final class OpenLock: @unchecked Sendable {
  // @unchecked: `descriptor` is set once in `init` and closed once in `release`.
  private var descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// The lock file of the database in `directory`.
  static func lockFile(in directory: String) -> String { directory + "/lock.mdb" }

  /// Takes the lock shared, waiting while a restore holds it exclusive.
  static func shared(directory: String, fileMode: mode_t) throws -> OpenLock {
    let descriptor = open(lockFile(in: directory), O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else {
      let code = errno
      throw StorageError(
        code: code, operation: "open \(lockFile(in: directory))\(Environment.accessDetail(directory, code: code))")
    }
    do {
      try waitForLock(descriptor, LOCK_SH, path: lockFile(in: directory))
    } catch {
      Foundation.close(descriptor)
      throw error
    }
    return OpenLock(descriptor: descriptor)
  }

  /// How long `exclusive` tries a held lock again: far longer than a child takes to exec,
  /// far shorter than a process keeps a database open.
  static let patience = DispatchTimeInterval.seconds(1)

  /// Takes the lock exclusive; `nil` when a process (this one included) has the database
  /// open. A directory without a lock file was never opened: the lock file is created, so
  /// that no one opens it until the lock is released.
  ///
  /// A held lock is tried again for up to `patience` before `nil`, because a lock
  /// just released can look held for a moment: a child process that another thread is
  /// spawning holds a copy of every descriptor (ours included) until it execs, when
  /// `O_CLOEXEC` closes them, and an `flock` lasts while any copy is open. Recovery, which
  /// asks only whether another process is in, passes no patience.
  package static func exclusive(directory: String, patience: DispatchTimeInterval = patience) throws -> OpenLock? {
    let descriptor = open(lockFile(in: directory), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(lockFile(in: directory))") }
    let deadline = DispatchTime.now() + patience
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      if code == EWOULDBLOCK, DispatchTime.now() < deadline {
        usleep(5_000)
        continue
      }
      Foundation.close(descriptor)
      if code == EWOULDBLOCK { return nil }
      throw StorageError(code: code, operation: "flock \(lockFile(in: directory))")
    }
    return OpenLock(descriptor: descriptor)
  }

  /// Releases the lock. Releasing twice is harmless.
  package func release() {
    guard descriptor >= 0 else { return }
    Foundation.close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}

extension Environment {
  /// Whether this process has the database in `directory` open.
  package static func isOpenInThisProcess(path directory: String) -> Bool {
    guard let resolved = realpath(directory, nil) else { return false }
    defer { free(resolved) }
    let canonical = String(cString: resolved)
    return registry.withLock { $0[canonical] != nil }
  }
}

/// Takes `flock` `operation` (`LOCK_SH` or `LOCK_EX`) on `descriptor`, waiting while
/// another holds it (and through interrupted waits); `path` names the file in the error.
func waitForLock(_ descriptor: Int32, _ operation: Int32, path: String) throws(StorageError) {
  while flock(descriptor, operation) != 0 {
    guard errno == EINTR else { throw StorageError(code: errno, operation: "flock \(path)") }
  }
}
