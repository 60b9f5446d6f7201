import CLMDB
import Foundation

extension Environment {
  /// Who holds slots in LMDB's reader table, the shared table in `lock.mdb` where every
  /// read transaction of every process takes a slot.
  public struct ReaderTable: Sendable, Equatable {
    /// Slots held by live processes. A process keeps its slots while it has the
    /// database open (Hearth reuses finished read transactions, which keep theirs), so
    /// this counts readers now and readers to come, not only reads in progress.
    public var slots: Int
    /// The distinct processes holding them: those that have the database open (every
    /// open reads once, and keeps that slot), this one included.
    public var processes: Int
  }

  /// The reader table as it is now, after clearing the slots of processes that died
  /// without releasing them (as `mdb_stat -rr` does).
  ///
  /// `Statistics.readers` cannot say this: LMDB's `me_numreaders` is the table's
  /// high-water mark, and freed slots stay counted in it. `mdb_reader_list` is LMDB's one
  /// way to see the table; it hands over a line per held slot (`pid thread txnid`).
  public func readerTable() throws -> ReaderTable {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { throw StorageError.closed("mdb_reader_list") }
    var dead: Int32 = 0
    mdb_reader_check(env, &dead)
    var pids: [Int32] = []
    let rc = withUnsafeMutablePointer(to: &pids) { pids in
      mdb_reader_list(
        env,
        { message, context in
          // A slot's line starts with its process ID; the header and "(no active
          // readers)" do not.
          guard let message, let context else { return 0 }
          let line = String(cString: message)
          if let first = line.split(separator: " ").first, let pid = Int32(first) {
            context.assumingMemoryBound(to: [Int32].self).pointee.append(pid)
          }
          return 0
        }, pids)
    }
    guard rc >= 0 else { throw StorageError(code: rc, operation: "mdb_reader_list") }
    return ReaderTable(slots: pids.count, processes: Set(pids).count)
  }
}
