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
  /// - Parameter progress: called with the bytes copied so far, about every megabyte;
  ///   when it throws, nothing more is written and the copy fails with its error.
  /// - Throws: `StorageError` (`EEXIST` when the directory already holds a `data.mdb`).
  package func copy(to directory: String, progress: ((Int) throws -> Void)? = nil) throws {
    while true {
      do {
        return try copyOnce(to: directory, progress: progress)
      } catch let error as StorageError where error.code == MDB_MAP_RESIZED {
        // Another process grew the map since this one last began a transaction, and
        // LMDB's copy begins its own: take up the new size and copy again.
        try? FileManager.default.removeItem(atPath: directory + "/data.mdb")
        try adoptGrownMap()
      }
    }
  }

  private func copyOnce(to directory: String, progress: ((Int) throws -> Void)?) throws {
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
    var failure: Error?
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
        if failure == nil {
          do { try progress?(total) } catch { failure = error }
        }
      }
    }
    copied.wait()
    releaseMappedPages()
    try check(outcome.withLock { $0 }, "mdb_env_copyfd2 \(directory)")
    if let failure { throw failure }
  }
}
