import CLMDB
import Foundation

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

extension Environment {
  /// The ID of the last transaction committed by any process: it changes with every
  /// commit, and reading it costs no transaction (it is in the mapped meta pages).
  ///
  /// A commit writes its meta page before it publishes itself to new readers, so a read
  /// transaction begun right after this call may still see the commit before: compare
  /// this ID with `ReadTransaction.id`, not with an earlier value of this call.
  public func lastTransactionID() -> Int {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { return 0 }
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    return info.me_last_txnid
  }
}
