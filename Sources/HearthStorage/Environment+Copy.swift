import CLMDB
import Foundation
import Synchronization

extension Environment {
  /// Writes a compacted copy of the database (free pages left out) into the existing
  /// directory `directory`, as `data.mdb`, while other transactions go on: LMDB copies one
  /// read snapshot, so the copy is consistent at a single commit.
  ///
  /// LMDB's copy reads every page through the memory map; it writes into a pipe here, and
  /// the pages it has read are released after every megabyte that passes through (the
  /// kernel maps up to 16 neighbouring pages per fault), so that a backup of any size
  /// runs in constant resident memory.
  ///
  /// - Parameter progress: called with the bytes copied so far, about every megabyte.
  /// - Throws: `StorageError` (`EEXIST` when the directory already holds a `data.mdb`).
  public func copy(to directory: String, progress: ((Int) -> Void)? = nil) throws {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { throw StorageError.closed("mdb_env_copyfd2") }
    let file = directory + "/data.mdb"
    let output = Foundation.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw StorageError(code: errno, operation: "open \(file)") }
    defer { Foundation.close(output) }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw StorageError(code: errno, operation: "pipe") }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { Foundation.close(readEnd) }

    nonisolated(unsafe) let environment = env
    let copied = DispatchSemaphore(value: 0)
    let outcome = Mutex<Int32>(MDB_SUCCESS)
    DispatchQueue.global().async {
      let rc = mdb_env_copyfd2(environment, writeEnd, UInt32(MDB_CP_COMPACT))
      Foundation.close(writeEnd)
      outcome.withLock { $0 = rc }
      copied.signal()
    }
    var failure: StorageError?
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var sinceRelease = 0
    var total = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        if count < 0 { failure = StorageError(code: errno, operation: "read (copy)") }
        break
      }
      if failure == nil {
        var offset = 0
        while offset < count {
          let written = buffer.withUnsafeBytes { Foundation.write(output, $0.baseAddress! + offset, count - offset) }
          if written < 0 && errno == EINTR { continue }
          if written < 0 {
            // Keep reading, so the copy thread is not left blocked on a full pipe.
            failure = StorageError(code: errno, operation: "write \(file)")
            break
          }
          offset += written
        }
      }
      sinceRelease += count
      total += count
      if sinceRelease >= 1 << 20 {
        releaseMappedPages()
        sinceRelease = 0
        progress?(total)
      }
    }
    copied.wait()
    releaseMappedPages()
    try check(outcome.withLock { $0 }, "mdb_env_copyfd2 \(directory)")
    if let failure { throw failure }
  }
}

extension Environment {
  /// Lets the kernel drop this process's view of the database pages read so far. LMDB
  /// reads through a shared read-only memory map, and every page a long walk touches
  /// counts in the process's resident memory until it is released; the pages stay in the
  /// page cache and are mapped again, cheaply, when read again. For walks over the whole
  /// database (export, check), so that they run in constant resident memory.
  ///
  /// LMDB does not tell where its map is, so the mapping of `data.mdb` is found in
  /// `/proc/self/maps` (Linux; elsewhere this does nothing).
  public func releaseMappedPages() {
    let file = path + "/data.mdb"
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
    for line in maps.split(separator: "\n") where line.hasSuffix(" " + file) {
      let range = line.prefix { $0 != " " }.split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
        let address = UnsafeMutableRawPointer(bitPattern: start)
      else { continue }
      madvise(address, Int(end - start), MADV_DONTNEED)
    }
  }
}

/// A lock on a database directory that says "open": every open environment holds it
/// shared; whoever means to replace the files (a restore) takes it exclusive, and so finds
/// out whether any process, this one included, has the database open.
///
/// It is an `flock` on `lock.mdb`, LMDB's own lock file, which LMDB locks with `fcntl`
/// only, so the two never interfere.
public final class OpenLock: @unchecked Sendable {
  // @unchecked: `descriptor` is set once in `init` and closed once in `release`.
  private var descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// The lock file of the database in `directory`.
  static func lockFile(in directory: String) -> String { directory + "/lock.mdb" }

  /// Takes the lock shared, waiting while a restore holds it exclusive.
  static func shared(directory: String, fileMode: mode_t) throws -> OpenLock {
    let descriptor = open(lockFile(in: directory), O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(lockFile(in: directory))") }
    while flock(descriptor, LOCK_SH) != 0 {
      guard errno == EINTR else {
        let code = errno
        Foundation.close(descriptor)
        throw StorageError(code: code, operation: "flock \(lockFile(in: directory))")
      }
    }
    return OpenLock(descriptor: descriptor)
  }

  /// Takes the lock exclusive without waiting; `nil` when a process (this one included)
  /// has the database open. A directory without a lock file was never opened: the lock
  /// file is created, so that no one opens it until the lock is released.
  public static func exclusive(directory: String) throws -> OpenLock? {
    let descriptor = open(lockFile(in: directory), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(lockFile(in: directory))") }
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      Foundation.close(descriptor)
      if code == EWOULDBLOCK { return nil }
      throw StorageError(code: code, operation: "flock \(lockFile(in: directory))")
    }
    return OpenLock(descriptor: descriptor)
  }

  /// Releases the lock. Releasing twice is harmless.
  public func release() {
    guard descriptor >= 0 else { return }
    Foundation.close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}

extension Environment {
  /// Whether this process has the database in `directory` open.
  public static func isOpenInThisProcess(path directory: String) -> Bool {
    guard let resolved = realpath(directory, nil) else { return false }
    defer { free(resolved) }
    let canonical = String(cString: resolved)
    return registry.withLock { $0[canonical] != nil }
  }
}

extension Environment {
  /// The ID of the last transaction committed by any process: it changes with every
  /// commit, and reading it costs no transaction (it is in the shared lock file).
  public func lastTransactionID() -> Int {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { return 0 }
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    return info.me_last_txnid
  }
}
