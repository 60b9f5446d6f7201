import Foundation
import HearthTestSupport
import Synchronization
import Testing

@testable import HearthStorage

/// The journal (`Environment+Journal.swift`): commits are durable once their record is
/// synced, and a machine that stops at any moment after loses none of them.
///
/// A power loss is simulated on a copy of the database's files: `data.mdb` as the disk
/// may hold it — each page either as the last checkpoint synced it or as a later commit
/// wrote it, any subset of those writes having reached the disk, the meta pages old, new
/// or torn — beside the journal (synced) and the checkpoint. Opening the copy must find
/// every commit that returned.
@Suite struct JournalTests {
  /// The database's content as the commits that returned left it.
  struct Model: Equatable {
    var plain: [[UInt8]: [UInt8]] = [:]
    var duplicates: [[UInt8]: Set<[UInt8]>] = [:]
  }

  @Test(arguments: 0..<24) func aPowerLossKeepsEveryCommitThatReturned(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    let original = TemporaryDirectory()
    let crashed = TemporaryDirectory()
    var model = Model()
    let environment = try Environment.open(path: original.path)
    defer { environment.close() }
    let plain = try environment.table("plain")
    let duplicates = try environment.table("dups", duplicateSort: true)
    try environment.write { txn in
      for number in 0..<300 {
        let key = bytes("key\(number)")
        let value = [UInt8](repeating: UInt8(number % 251), count: 40 + number % 200)
        try txn.put(key, value, in: plain)
        model.plain[key] = value
      }
    }
    try environment.checkpointNow()
    let checkpoints = environment.journalState.checkpoints
    let synced = try Data(contentsOf: URL(fileURLWithPath: original.path + "/data.mdb"))

    for commit in 0..<(10 + seed % 30) {
      let before = model
      let change: @Sendable (WriteTransaction) throws -> Model = { txn in
        var next = before
        var random = SplitMix64(seed: UInt64(seed * 1000 + commit))
        for _ in 0..<Int.random(in: 1...20, using: &random) {
          let key = bytes("key\(Int.random(in: 0..<600, using: &random))")
          switch Int.random(in: 0..<4, using: &random) {
          case 0:
            try txn.delete(key, in: plain)
            next.plain[key] = nil
          case 1:
            let value = [UInt8](
              repeating: UInt8.random(in: 0...255, using: &random), count: Int.random(in: 1...3000, using: &random))
            try txn.put(key, value, in: plain)
            next.plain[key] = value
          case 2:
            let value = bytes("v\(Int.random(in: 0..<50, using: &random))")
            try txn.put(Array(key.prefix(4)), value, in: duplicates)
            next.duplicates[Array(key.prefix(4)), default: []].insert(value)
          default:
            let value = bytes("v\(Int.random(in: 0..<50, using: &random))")
            try txn.delete(Array(key.prefix(4)), value: value, in: duplicates)
            next.duplicates[Array(key.prefix(4))]?.remove(value)
            if next.duplicates[Array(key.prefix(4))]?.isEmpty == true { next.duplicates[Array(key.prefix(4))] = nil }
          }
        }
        return next
      }
      model = commit % 3 == 0 ? try environment.groupedWrite(change) : try environment.write(change)
    }
    // A checkpoint meanwhile (the machine was slow) made a later state the synced one:
    // then only the pages written since that one may be missing, which this copy
    // cannot tell apart; the test mixes nothing then.
    let mixes = environment.journalState.checkpoints == checkpoints
    try crash(original.path, into: crashed.path, synced: mixes ? synced : nil, random: &random)

    try withEnvironment(at: crashed.path) { (recovered: Environment) throws in
      #expect(try contents(of: recovered) == model)
      #expect(try recovered.read { try $0.verifyPages() }.isIntact)
    }
    // Recovered and closed: the next open finds nothing to do and the same content.
    try withEnvironment(at: crashed.path) { (reopened: Environment) throws in
      #expect(try contents(of: reopened) == model)
    }
    #expect(try records(in: crashed.path).isEmpty)
  }

  /// A checkpoint runs off the writers' path: the journal's next generation begins in
  /// its other file while the data file is synced. A stop before the checkpoint is
  /// written finds the records up to it in one file and those after in the other.
  @Test func aPowerLossDuringACheckpointKeepsEveryCommit() throws {
    var random = SplitMix64(seed: 99)
    let original = TemporaryDirectory()
    let crashed = TemporaryDirectory()
    let environment = try Environment.open(path: original.path)
    defer { environment.close() }
    let plain = try environment.table("plain")
    try environment.checkpointNow()
    let synced = try Data(contentsOf: URL(fileURLWithPath: original.path + "/data.mdb"))
    for number in 0..<20 {
      try environment.write { try $0.put(bytes("before\(number)"), bytes("\(number)"), in: plain) }
    }
    let hold = DispatchSemaphore(value: 0)
    environment.requestCheckpoint(holdingItsEnd: hold)
    for number in 0..<20 {
      try environment.write { try $0.put(bytes("after\(number)"), bytes("\(number)"), in: plain) }
    }
    #expect(environment.checkpointIsPending)
    // Records in both files: the generation the checkpoint began, and the one before.
    #expect(Set(Journal.records(in: original.path, after: 0).map(\.generation)).count == 2)
    try crash(original.path, into: crashed.path, synced: synced, random: &random)
    hold.signal()
    environment.waitForCheckpoint()
    #expect(!environment.checkpointIsPending)

    try withEnvironment(at: crashed.path) { (recovered: Environment) throws in
      let table = try recovered.table("plain")
      for number in 0..<20 {
        #expect(
          try recovered.read { try $0.get(bytes("before\(number)"), in: table).map(Array.init) } == bytes("\(number)"))
        #expect(
          try recovered.read { try $0.get(bytes("after\(number)"), in: table).map(Array.init) } == bytes("\(number)"))
      }
    }
  }

  @Test func aRecordCutShortEndsTheJournal() throws {
    let original = TemporaryDirectory()
    let crashed = TemporaryDirectory()
    let environment = try Environment.open(path: original.path)
    defer { environment.close() }
    let plain = try environment.table("plain")
    try environment.write { try $0.put(bytes("a"), bytes("1"), in: plain) }
    try environment.write { try $0.put(bytes("b"), bytes("2"), in: plain) }
    var random = SplitMix64(seed: 7)
    try crash(original.path, into: crashed.path, synced: nil, random: &random)
    // The last record cut in the middle: its commit never returned.
    let journal = Journal.files(in: crashed.path)[0]
    let written = try Data(contentsOf: URL(fileURLWithPath: journal))
    try written.prefix(written.count - 3).write(to: URL(fileURLWithPath: journal))
    try withEnvironment(at: crashed.path) { (recovered: Environment) throws in
      let table = try recovered.table("plain")
      #expect(try recovered.read { try $0.get(bytes("a"), in: table).map(Array.init) } == bytes("1"))
      #expect(try recovered.read { try $0.get(bytes("b"), in: table) } == nil)
    }
  }

  @Test func aCleanCloseLeavesNothingToRecover() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      for number in 0..<20 { try environment.write { try $0.put(bytes("k\(number)"), bytes("v"), in: plain) } }
      // The table's creation and the 20 writes.
      #expect(environment.journalState.commitsSinceCheckpoint == 21)
      #expect(try records(in: directory.path).count == 21)
    }
    #expect(try records(in: directory.path).isEmpty)
    let checkpoint = try #require(try Checkpoint.read(in: directory.path))
    let metas = try MetaPages.settled(file: DataFile(path: directory.path + "/data.mdb"))
    #expect(Int(try #require(metas.newest).transactionID) == checkpoint.transaction)
  }

  /// The journal's files are made by the first write: a process that only reads (a
  /// database where it cannot write, say) makes none.
  @Test func aProcessThatOnlyReadsMakesNoJournal() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      try environment.write { try $0.put(bytes("k"), bytes("v"), in: plain) }
    }
    // Closed clean: the journal holds nothing past the checkpoint.
    Environment.removeJournal(in: directory.path)
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain", create: false)
      #expect(try environment.read { try $0.get(bytes("k"), in: plain).map(Array.init) } == bytes("v"))
    }
    for file in Journal.files(in: directory.path) + [Checkpoint.file(in: directory.path)] {
      #expect(!FileManager.default.fileExists(atPath: file), "\(file)")
    }
  }

  @Test func damagedMetaPagesAreWrittenBackFromTheCheckpoint() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      try environment.write { try $0.put(bytes("k"), bytes("v"), in: plain) }
    }
    let file = URL(fileURLWithPath: directory.path + "/data.mdb")
    var data = [UInt8](try Data(contentsOf: file))
    for offset in 16..<200 { data[offset] = 0xA5 }
    try Data(data).write(to: file)
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      #expect(try environment.read { try $0.get(bytes("k"), in: plain).map(Array.init) } == bytes("v"))
    }
  }

  /// The journal's records past the checkpoint of the database at `path`.
  private func records(in path: String) throws -> [JournalEntry] {
    Journal.records(in: path, after: try #require(try Checkpoint.read(in: path)).transaction)
  }

  /// A checkpoint whose state does not verify (a damaged disk, or a checkpoint file made
  /// by hand) is refused as damage, and the data file's meta pages are left as they were.
  @Test func aCheckpointThatDoesNotVerifyLeavesTheFileAsItWas() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      try environment.write { try $0.put(bytes("k"), bytes("v"), in: plain) }
    }
    let good = try #require(try Checkpoint.read(in: directory.path))
    var meta = good.meta
    // The table catalog's root page, far past the file's end.
    let root = LMDBFormat.headerSize + LMDBFormat.metaMainRecord + 40
    for offset in root..<(root + 8) { meta[offset] = 0x7F }
    let bad = Checkpoint(transaction: good.transaction - 1, pageSize: good.pageSize, meta: meta, catalog: 0)
    Environment.removeJournal(in: directory.path)
    try bad.write(in: directory.path, fileMode: 0o600)
    let file = URL(fileURLWithPath: directory.path + "/data.mdb")
    let before = try Data(contentsOf: file)
    #expect(throws: StorageDamage.self) { try withEnvironment(at: directory.path) { _ in } }
    #expect(try Data(contentsOf: file) == before)
    Environment.removeJournal(in: directory.path)
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain", create: false)
      #expect(try environment.read { try $0.get(bytes("k"), in: plain).map(Array.init) } == bytes("v"))
    }
  }

  /// A checkpoint beside another database's data file (one put in the directory by hand)
  /// is refused, naming what to remove, and the data file is left as it was. (A later
  /// copy of the same database may hold the very pages the checkpoint names: that one is
  /// not told apart.)
  @Test func aCheckpointOfAnotherDataFileIsRefused() throws {
    let first = TemporaryDirectory()
    let second = TemporaryDirectory()
    for (directory, writes) in [(first, 1), (second, 6)] {
      try withEnvironment(at: directory.path) { (environment: Environment) throws in
        if directory === first { _ = try environment.table("only in the first") }
        let plain = try environment.table("plain")
        for number in 0..<writes {
          try environment.write { try $0.put(bytes("k\(number)"), bytes("\(directory.path)"), in: plain) }
        }
      }
    }
    Environment.removeJournal(in: second.path)
    try FileManager.default.copyItem(atPath: Checkpoint.file(in: first.path), toPath: Checkpoint.file(in: second.path))
    let file = URL(fileURLWithPath: second.path + "/data.mdb")
    let before = try Data(contentsOf: file)
    let refusal = try #require(throws: StorageDamage.self) { try withEnvironment(at: second.path) { _ in } }
    #expect("\(refusal)".contains("checkpoint.hearth does not match data.mdb"), "\(refusal)")
    #expect(try Data(contentsOf: file) == before)
    Environment.removeJournal(in: second.path)
    try withEnvironment(at: second.path) { (environment: Environment) throws in
      let plain = try environment.table("plain", create: false)
      #expect(try environment.read { txn in try txn.count(plain) } == 6)
    }
  }

  /// An older copy of a database's data file put back by hand beside the newer checkpoint
  /// (whose transaction it has not reached) opens as the copy it is: the checkpoint and
  /// journal are taken for another file's, and removed.
  @Test func anOlderCopyOfTheDataFileOpensAsItIs() throws {
    let directory = TemporaryDirectory()
    let copy = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: copy.path, withIntermediateDirectories: true)
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      try environment.write { try $0.put(bytes("early"), bytes("1"), in: plain) }
    }
    try FileManager.default.copyItem(atPath: directory.path + "/data.mdb", toPath: copy.path + "/data.mdb")
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain")
      for number in 0..<5 { try environment.write { try $0.put(bytes("late\(number)"), bytes("2"), in: plain) } }
    }
    try FileManager.default.removeItem(atPath: directory.path + "/data.mdb")
    try FileManager.default.copyItem(atPath: copy.path + "/data.mdb", toPath: directory.path + "/data.mdb")
    try withEnvironment(at: directory.path) { (environment: Environment) throws in
      let plain = try environment.table("plain", create: false)
      #expect(try environment.read { txn in try txn.count(plain) } == 1)
    }
  }

  /// Processes that open a database while another makes its first checkpoint read the
  /// checkpoint file whole or find none, never a file half made.
  @Test func aCheckpointBeingWrittenIsReadWholeOrNotAtAll() throws {
    let directory = TemporaryDirectory()
    let path = directory.path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { role in
      for round in 1...400 {
        do {
          if role == 0 {
            if round % 20 == 0 { unlink(Checkpoint.file(in: path)) }
            let meta = [UInt8](repeating: UInt8(round % 256), count: Checkpoint.metaBytes)
            try Checkpoint(transaction: round, pageSize: 4096, meta: meta, catalog: UInt32(round)).write(
              in: path, fileMode: 0o600)
          } else if let checkpoint = try Checkpoint.read(in: path) {
            if checkpoint.meta.contains(where: { $0 != UInt8(checkpoint.transaction % 256) }) {
              failures.withLock { $0.append("checkpoint \(checkpoint.transaction) with another's meta page") }
            }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
  }

  /// Everything in the tables `plain` and `dups`.  /// Everything in the tables `plain` and `dups`.  /// Everything in the tables `plain` and `dups`.  /// Everything in the tables `plain` and `dups`.
  private func contents(of environment: Environment) throws -> Model {
    let plain = try environment.table("plain")
    let duplicates = try environment.table("dups", duplicateSort: true)
    return try environment.read { txn in
      var model = Model()
      let cursor = try txn.cursor(plain)
      var entry = try cursor.first()
      while let (key, value) = entry {
        model.plain[Array(key)] = Array(value)
        entry = try cursor.next()
      }
      let dups = try txn.cursor(duplicates)
      entry = try dups.first()
      while let (key, value) = entry {
        model.duplicates[Array(key), default: []].insert(Array(value))
        entry = try dups.next()
      }
      return model
    }
  }

  /// Copies the database at `source` into `target` as a machine that stopped now may
  /// have left it on disk: with `synced` (the data file as the last checkpoint synced
  /// it), each page is the synced or the current one at random, the file as long as the
  /// synced one or longer, and each meta page synced, current or torn.
  private func crash(_ source: String, into target: String, synced: Data?, random: inout SplitMix64) throws {
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in Journal.fileNames + [Checkpoint.fileName] {
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
    }
    let current = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/data.mdb")))
    guard let synced else {
      try Data(current).write(to: URL(fileURLWithPath: target + "/data.mdb"))
      return
    }
    let old = [UInt8](synced)
    let page = 4096
    let length = Int.random(in: (old.count / page)...(max(old.count, current.count) / page), using: &random) * page
    var disk = [UInt8](repeating: 0, count: length)
    for start in stride(from: 0, to: length, by: page) {
      let choice = Int.random(in: 0..<(start < 2 * page ? 3 : 2), using: &random)
      if choice == 2 {
        for offset in start..<(start + page) { disk[offset] = UInt8.random(in: 0...255, using: &random) }
      } else if choice == 0, start < old.count {
        disk[start..<(start + page)] = old[start..<(start + page)]
      } else if start < current.count {
        disk[start..<(start + page)] = current[start..<(start + page)]
      }
    }
    try Data(disk).write(to: URL(fileURLWithPath: target + "/data.mdb"))
  }
}
