import CLMDB
import Foundation

/// The memory map LMDB reads and writes the database through: its size, which grows by
/// itself (here, or adopted from another process), and the pages a long walk lets go of.
extension Environment {
  /// The current size of the memory map in bytes (the database's present maximum size).
  package var mapSize: Int {
    gate.lockShared()
    defer { gate.unlock() }
    guard let env = handle else { return 0 }
    var info = MDB_envinfo()
    mdb_env_info(env, &info)
    return Int(info.me_mapsize)
  }

  /// Grows the map before a write when three quarters of it are in use, so that most
  /// writes never meet `MDB_MAP_FULL`. Called under the writer lock.
  func growIfNearlyFull() throws {
    let statistics = try statistics()
    if statistics.usedBytes > statistics.mapSize / 4 * 3 { try grow() }
  }

  /// Doubles the map (by 1 GiB at a time past 1 GiB). Waits until no transaction of this
  /// process is active, as `mdb_env_set_mapsize` requires.
  func grow() throws {
    try gate.withExclusive {
      guard let env = handle else { throw StorageError.closed("mdb_env_set_mapsize") }
      var dead: Int32 = 0
      mdb_reader_check(env, &dead)
      var info = MDB_envinfo()
      mdb_env_info(env, &info)
      let current = Int(info.me_mapsize)
      let next = current < 1 << 30 ? current * 2 : current + (1 << 30)
      try check(mdb_env_set_mapsize(env, next), "mdb_env_set_mapsize \(next)")
      growths.add(1, ordering: .relaxed)
    }
  }

  /// Adopts the larger map that another process set (after `MDB_MAP_RESIZED`).
  func adoptGrownMap() throws {
    try gate.withExclusive {
      guard let env = handle else { throw StorageError.closed("mdb_env_set_mapsize") }
      try check(mdb_env_set_mapsize(env, 0), "mdb_env_set_mapsize (adopt)")
      adoptions.add(1, ordering: .relaxed)
    }
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
  package func releaseMappedPages() {
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
