import Foundation
import HearthStorage

/// Stale readers: a process killed while it reads leaves its slot in LMDB's reader table,
/// and the snapshot in it keeps every page freed after it from being reused, until a
/// process clears the slot (`mdb_reader_check`: Hearth does so at open and before growing
/// the map).
///
/// Hearth's public API ends every read transaction before it returns, so these modes go
/// through HearthStorage, where a closure can keep one open.
enum Readers {
  /// `hold-reader DB`: begins a read transaction, prints `holding PID TXNID`, and sleeps
  /// inside it until killed.
  static func hold(path: String) throws {
    var options = Environment.Options()
    options.createIfMissing = false
    let environment = try Environment.open(path: path, options: options)
    try environment.read { transaction in
      printLine("holding \(getpid()) \(transaction.id)")
      while true { sleep(3600) }
    }
  }

  /// `readers DB`: opens the database (which clears stale slots) and prints the reader
  /// slots in use, as JSON.
  static func list(path: String) throws {
    var options = Environment.Options()
    options.createIfMissing = false
    let environment = try Environment.open(path: path, options: options)
    defer { environment.close() }
    let cleared = try environment.clearStaleReaders()
    let slots = try environment.readerSlots().filter { $0.processID != getpid() }
    printJSON([
      ("readers", .ints(slots.map { Int($0.processID) })),
      ("reading", .ints(slots.filter { $0.transactionID != nil }.map { Int($0.processID) })),
      ("clearedNow", .int(cleared)),
    ])
  }
}
