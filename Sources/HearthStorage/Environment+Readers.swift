import CLMDB
import Foundation

extension Environment {
  /// Who holds slots in LMDB's reader table, the shared table in `lock.mdb` where every
  /// read transaction of every process takes a slot.
  package struct ReaderTable: Sendable, Equatable {
    /// Slots held by live processes. A process keeps its slots while it has the
    /// database open (Hearth reuses finished read transactions, which keep theirs), so
    /// this counts readers now and readers to come, not only reads in progress.
    package var slots: Int
    /// The distinct processes holding them: those that have the database open (every
    /// open reads once, and keeps that slot), this one included.
    package var processes: Int
  }

  /// The reader table as it is now, after clearing the slots of processes that died
  /// without releasing them (as `mdb_stat -rr` does).
  ///
  /// `Statistics.readers` cannot say this: LMDB's `me_numreaders` is the table's
  /// high-water mark, and freed slots stay counted in it.
  package func readerTable() throws -> ReaderTable {
    try clearStaleReaders()
    let slots = try readerSlots()
    return ReaderTable(slots: slots.count, processes: Set(slots.map(\.processID)).count)
  }

  /// One slot of LMDB's reader table, which every process that has the database open
  /// shares.
  package struct ReaderSlot: Sendable, Equatable {
    /// The process that holds the slot. A process that died while reading keeps its slot
    /// until `clearStaleReaders()` (or an open, or a growth of the map) clears it.
    package var processID: Int32
    /// The commit that the slot's transaction reads (and so keeps: LMDB reuses no page
    /// that a reader may still see); `nil` for an idle slot, kept for the next read.
    package var transactionID: Int?
  }

  /// The reader slots in use, by every process.
  ///
  /// - Throws: `StorageError` when the environment is closed.
  package func readerSlots() throws -> [ReaderSlot] {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { throw StorageError.closed("mdb_reader_list") }
    var lines: [String] = []
    let rc = withUnsafeMutablePointer(to: &lines) { pointer in
      mdb_reader_list(
        env,
        { message, context in
          guard let message, let context else { return 0 }
          context.assumingMemoryBound(to: [String].self).pointee.append(String(cString: message))
          return 0
        }, pointer)
    }
    try check(rc, "mdb_reader_list")
    // Lines are "pid thread txnid" (txnid "-" when idle), after a header line.
    return lines.compactMap { line in
      let fields = line.split(whereSeparator: \.isWhitespace)
      guard fields.count == 3, let processID = Int32(fields[0]) else { return nil }
      return ReaderSlot(processID: processID, transactionID: Int(fields[2]))
    }
  }

  /// Clears the reader slots of processes that died while reading (LMDB's
  /// `mdb_reader_check`), so that the pages their snapshots kept can be reused; returns
  /// how many were cleared. Opening an environment and growing its map do this too.
  ///
  /// - Throws: `StorageError` when the environment is closed.
  @discardableResult
  package func clearStaleReaders() throws -> Int {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { throw StorageError.closed("mdb_reader_check") }
    var dead: Int32 = 0
    try check(mdb_reader_check(env, &dead), "mdb_reader_check")
    return Int(dead)
  }

  /// A process killed inside a read transaction keeps its slot, and with it every page
  /// freed after its snapshot, until someone clears the slot: writes do so at most once
  /// a second (a scan of the reader table), besides at open and before growing the map.
  func clearStaleReadersEverySecond() {
    let now = DispatchTime.now().uptimeNanoseconds
    let last = lastReaderCheck.load(ordering: .relaxed)
    guard now &- last >= 1_000_000_000,
      lastReaderCheck.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
    else { return }
    _ = try? clearStaleReaders()
  }
}
