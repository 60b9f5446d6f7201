import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `backup(to:)` and `Database.restore(from:to:force:)`: a backup is a consistent copy
/// taken while the database is in use, with a manifest that restore checks; restore
/// replaces a closed database whole, and refuses an open target or a damaged backup
/// without touching the target.
@Suite struct BackupRestoreTests {
  /// Runs `body` with a database at `directory/name` holding `AllTypes`, and closes it.
  @discardableResult
  private func withPopulated<T>(_ directory: String, _ name: String = "source", _ body: (Database) throws -> T)
    throws -> T
  {
    try withDatabase(at: directory + "/" + name, settings: relaxed) { db in
      try AllTypes.populate(db)
      return try body(db)
    }
  }

  @Test func aRestoredBackupExportsTheSameDocuments() throws {
    try withScratchDirectory { directory in
      try withPopulated(directory) { db in
        let expected = try exportedDocuments(db, in: directory, name: "source.jsonl")
        let backup = directory + "/backup"
        let before = Timestamp()
        let manifest = try db.backup(to: backup)
        let after = Timestamp()

        // The manifest, returned and on disk.
        #expect(manifest.documents == AllTypes.paths(db).count)
        #expect(manifest.createdAt >= before.truncatedToMicroseconds && manifest.createdAt <= after, "\(manifest)")
        let data = try Data(contentsOf: URL(fileURLWithPath: backup + "/data.mdb"))
        #expect(manifest.bytes == data.count)
        #expect(manifest.crc32 == crc32(data))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: backup)) == ["data.mdb", "manifest.json"])
        let json = try #require(
          try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup + "/manifest.json")))
            as? [String: Any])
        #expect(json["hearth"] as? String == "backup")
        #expect(json["version"] as? Int == 1)
        #expect(json["documents"] as? Int == manifest.documents)
        #expect(json["bytes"] as? Int == manifest.bytes)
        #expect(json["crc32"] as? String == String(format: "%08x", manifest.crc32))

        // The database goes on; the backup keeps the state it copied.
        try db.document("users/late").setData(["after": "backup"])

        let restoredPath = directory + "/restored"
        try Database.restore(from: backup, to: restoredPath)
        try withDatabase(at: restoredPath, settings: relaxed) { restored in
          expectSameLines(try exportedDocuments(restored, in: directory, name: "restored.jsonl"), expected, "restored")
          for path in AllTypes.paths(db) {
            let original = try db.document(path).getDocument()
            let copy = try restored.document(path).getDocument()
            #expect(copy.createTime == original.createTime && copy.updateTime == original.updateTime, "\(path)")
          }
          #expect(!(try restored.document("users/late").getDocument().exists))
          // Indexes came with the copy, and the copy takes writes.
          #expect(try ids(restored.collection("users").whereField("name", isEqualTo: "ab")) == ["ab"])
          try restored.document("users/new").setData(["name": "new"])
          #expect(try ids(restored.collection("users").whereField("name", isEqualTo: "new")) == ["new"])
        }
      }
    }
  }

  @Test func restoreReplacesAClosedDatabase() throws {
    try withScratchDirectory { directory in
      let expected = try withPopulated(directory) { db in
        let expected = try exportedDocuments(db, in: directory, name: "source.jsonl")
        try db.backup(to: directory + "/backup")
        return expected
      }

      let targetPath = directory + "/target"
      try withDatabase(at: targetPath, settings: relaxed) { target in
        try target.document("other/x").setData(["old": true])
        try target.document("users/a").setData(["name": "overwritten"])
      }

      try Database.restore(from: directory + "/backup", to: targetPath)
      try withDatabase(at: targetPath, settings: relaxed) { reopened in
        expectSameLines(try exportedDocuments(reopened, in: directory), expected, "restored over a database")
        #expect(!(try reopened.document("other/x").getDocument().exists))
        #expect(!(try reopened.listCollections().map(\.collectionID).contains("other")))
        #expect(try ids(reopened.collection("users").whereField("name", isEqualTo: "overwritten")).isEmpty)
        #expect(try ids(reopened.collection("users").whereField("name", isEqualTo: "a")) == ["a"])
      }
      // Restoring the same backup again (the target closed) gives the same again.
      try Database.restore(from: directory + "/backup", to: targetPath)
      try withDatabase(at: targetPath, settings: relaxed) { again in
        expectSameLines(try exportedDocuments(again, in: directory), expected, "restored twice")
      }
    }
  }

  /// A child process that another thread is spawning holds a copy of every descriptor
  /// until it execs, so the open lock of a database just closed can look held for a
  /// moment; restore waits that moment out instead of calling the database open.
  @Test func restoreWaitsOutALockHeldForAMoment() throws {
    try withScratchDirectory { directory in
      let expected = try withPopulated(directory) { db in
        try db.backup(to: directory + "/backup")
        return try exportedDocuments(db, in: directory, name: "source.jsonl")
      }
      let targetPath = directory + "/target"
      try withDatabase(at: targetPath, settings: relaxed) { try $0.document("other/x").setData(["old": true]) }

      // The copy a spawning child would hold: the lock taken shared on its own descriptor,
      // released 50 ms later.
      let copy = open(targetPath + "/lock.mdb", O_RDWR | O_CLOEXEC)
      try #require(copy >= 0 && flock(copy, LOCK_SH) == 0)
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { close(copy) }

      try Database.restore(from: directory + "/backup", to: targetPath)
      try withDatabase(at: targetPath, settings: relaxed) { restored in
        expectSameLines(try exportedDocuments(restored, in: directory), expected, "restored")
      }
    }
  }

  @Test func restoreRefusesATargetOpenInThisProcess() throws {
    try withScratchDirectory { directory in
      try withPopulated(directory) { source in
        try source.backup(to: directory + "/backup")
        let targetPath = directory + "/target"
        try withDatabase(at: targetPath, settings: relaxed) { target in
          try target.document("keep/me").setData(["n": 1])
          let before = try exportedDocuments(target, in: directory, name: "before.jsonl")
          for force in [false, true] {
            expectHearthError(.failedPrecondition, mentioning: [targetPath, "open"], "force: \(force)") {
              try Database.restore(from: directory + "/backup", to: targetPath, force: force)
            }
          }
          // The source is open too.
          expectHearthError(.failedPrecondition, mentioning: ["open"]) {
            try Database.restore(from: directory + "/backup", to: source.path)
          }
          expectSameLines(try exportedDocuments(target, in: directory), before, "the open target")
          try target.document("keep/me").updateData(["n": 2])
          #expect(try target.document("keep/me").getDocument().get("n") as? Int64 == 2)
        }
      }
    }
  }

  @Test func backupRefusesADirectoryThatIsNotEmpty() throws {
    try withScratchDirectory { directory in
      try withPopulated(directory) { db in
        let busy = directory + "/busy"
        try FileManager.default.createDirectory(atPath: busy, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: busy + "/notes.txt"))
        expectHearthError(.alreadyExists, mentioning: [busy]) { try db.backup(to: busy) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: busy) == ["notes.txt"])
        // A backup directory is not empty either; an empty directory is fine.
        try db.backup(to: directory + "/first")
        expectHearthError(.alreadyExists, mentioning: [directory + "/first"]) {
          try db.backup(to: directory + "/first")
        }
        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try db.backup(to: empty).documents == AllTypes.paths(db).count)
      }
    }
  }

  @Test func aFailedBackupLeavesNothingBehind() throws {
    try withScratchDirectory { directory in
      // More than a megabyte, so that the copy reports progress (and can be stopped).
      try withDatabase(at: directory + "/source", settings: relaxed) { db in
        let batch = db.batch()
        for index in 0..<400 {
          batch.setData(
            ["text": String(repeating: "\(index % 10)", count: 4000)], forDocument: db.document("d/\(index)"))
        }
        try batch.commit()
        struct Stop: Error {}
        // Directories the backup created are removed again, up to the first that existed.
        let nested = directory + "/new/deeper/backup"
        #expect(throws: Stop.self) { try db.backup(to: nested, progress: { _, _ in throw Stop() }) }
        #expect(!FileManager.default.fileExists(atPath: directory + "/new"))
        // An empty directory that existed stays, and stays empty.
        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(throws: Stop.self) { try db.backup(to: empty, progress: { _, _ in throw Stop() }) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["empty", "source"])
        // Then a backup that succeeds.
        #expect(try db.backup(to: nested).documents == 400)
      }
    }
  }

  @Test func restoreRefusesWhatIsNotABackupAndLeavesTheTarget() throws {
    try withScratchDirectory { directory in
      let targetPath = directory + "/target"
      let before = try withPopulated(directory, "target") { target in
        try exportedDocuments(target, in: directory, name: "before.jsonl")
      }

      let empty = directory + "/empty"
      try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
      expectHearthError(.invalidArgument, mentioning: [empty, "not a Hearth backup"]) {
        try Database.restore(from: empty, to: targetPath)
      }
      // A database directory is not a backup.
      expectHearthError(.invalidArgument, mentioning: [targetPath, "not a Hearth backup"]) {
        try Database.restore(from: targetPath, to: directory + "/elsewhere")
      }
      // Nor is a directory whose manifest is not one.
      let fake = directory + "/fake"
      try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
      try Data(#"{"hearth": "export"}"#.utf8).write(to: URL(fileURLWithPath: fake + "/manifest.json"))
      expectHearthError(.invalidArgument, mentioning: [fake]) { try Database.restore(from: fake, to: targetPath) }
      let missing = directory + "/missing"
      expectHearthError(.notFound, mentioning: [missing]) { try Database.restore(from: missing, to: targetPath) }

      #expect(!FileManager.default.fileExists(atPath: directory + "/elsewhere"))
      try withDatabase(at: targetPath, settings: relaxed) { reopened in
        expectSameLines(try exportedDocuments(reopened, in: directory), before, "the target")
      }
    }
  }

  @Test func aDamagedBackupIsDataLossAndLeavesTheTarget() throws {
    try withScratchDirectory { directory in
      try withPopulated(directory) { source in
        let backup = directory + "/backup"
        let manifest = try source.backup(to: backup)

        let targetPath = directory + "/target"
        let before = try withDatabase(at: targetPath, settings: relaxed) { target in
          try target.document("keep/me").setData(["n": 1])
          return try exportedDocuments(target, in: directory, name: "before.jsonl")
        }

        // One flipped bit in the middle of the copy.
        let dataFile = URL(fileURLWithPath: backup + "/data.mdb")
        let original = try Data(contentsOf: dataFile)
        var damaged = original
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: dataFile)
        expectHearthError(.dataLoss, mentioning: [backup, "damaged", String(format: "%08x", manifest.crc32)]) {
          try Database.restore(from: backup, to: targetPath)
        }
        expectHearthError(.dataLoss, mentioning: [backup]) {
          try Database.restore(from: backup, to: targetPath, force: true)
        }
        let fresh = directory + "/fresh"
        expectHearthError(.dataLoss) { try Database.restore(from: backup, to: fresh) }
        #expect(!FileManager.default.fileExists(atPath: fresh), "a refused restore creates nothing")

        // A truncated copy.
        try original.prefix(original.count - 4096).write(to: dataFile)
        expectHearthError(.dataLoss, mentioning: [backup]) { try Database.restore(from: backup, to: targetPath) }

        // A manifest whose count disagrees with the (intact) copy.
        try original.write(to: dataFile)
        let manifestFile = URL(fileURLWithPath: backup + "/manifest.json")
        let text = try String(contentsOf: manifestFile, encoding: .utf8)
        try Data(
          text.replacingOccurrences(of: "\"documents\": \(manifest.documents)", with: "\"documents\": 7").utf8
        ).write(to: manifestFile)
        expectHearthError(.dataLoss, mentioning: [backup, "7"]) { try Database.restore(from: backup, to: targetPath) }

        try withDatabase(at: targetPath, settings: relaxed) { reopened in
          expectSameLines(try exportedDocuments(reopened, in: directory), before, "the target")
        }
      }
    }
  }

  @Test func aBackupUnderLoadIsAConsistentSnapshot() throws {
    try withScratchDirectory { directory in
      try withDatabase(at: directory + "/bank", settings: relaxed) { db in
        let accounts = (0..<10).map { db.document("accounts/a\($0)") }
        let state = db.document("bank/state")
        let batch = db.batch()
        for account in accounts { batch.setData(["balance": 1_000], forDocument: account) }
        batch.setData(["transfers": 0], forDocument: state)
        try batch.commit()

        // A writer moves random amounts between two accounts, one transaction each, and
        // counts its transfers, until told to stop.
        let stop = Box(false)
        let failures = Box<[String]>([])
        let finished = Signal()
        Thread.detachNewThread {
          defer { finished.fire() }
          var generator = SystemRandomNumberGenerator()
          while !stop.value {
            let from = Int.random(in: 0..<10, using: &generator)
            let to = (from + Int.random(in: 1..<10, using: &generator)) % 10
            let amount = Int64.random(in: 1...250, using: &generator)
            do {
              try db.runTransaction { transaction in
                let a = try transaction.getDocument(accounts[from]).get("balance") as? Int64 ?? 0
                let b = try transaction.getDocument(accounts[to]).get("balance") as? Int64 ?? 0
                let n = try transaction.getDocument(state).get("transfers") as? Int64 ?? 0
                transaction.updateData(["balance": a - amount], forDocument: accounts[from])
                transaction.updateData(["balance": b + amount], forDocument: accounts[to])
                transaction.updateData(["transfers": n + 1], forDocument: state)
              }
            } catch {
              failures.mutate { $0.append("\(error)") }
              return
            }
          }
        }
        // Should a check below throw, the writer still stops before the database closes.
        var joined = false
        defer {
          if !joined {
            stop.value = true
            _ = finished.wait(seconds: 30)
          }
        }
        func transfers() throws -> Int64 { try state.getDocument().get("transfers") as? Int64 ?? -1 }
        func waitForTransfers(atLeast count: Int64) throws {
          let deadline = Date().addingTimeInterval(20)
          while try transfers() < count, Date() < deadline, failures.value.isEmpty { usleep(1_000) }
        }

        try waitForTransfers(atLeast: 50)
        let first = try transfers()
        let manifest = try db.backup(to: directory + "/backup")
        let last = try transfers()
        try waitForTransfers(atLeast: last + 20)
        stop.value = true
        joined = finished.wait(seconds: 30)
        #expect(joined, "the writer stops")
        #expect(failures.value.isEmpty, "writer errors: \(failures.value.prefix(3))")
        #expect(manifest.documents == 11)
        #expect(try db.check().ok, "the live database after the load")
        let total = try db.collection("accounts").getDocuments().documents.map { $0.get("balance") as? Int64 ?? 0 }
        #expect(total.reduce(0, +) == 10_000)

        try Database.restore(from: directory + "/backup", to: directory + "/restored")
        try withDatabase(at: directory + "/restored", settings: relaxed) { restored in
          let report = try restored.check()
          #expect(report.ok, "the restored copy's integrity check: \(report.problems.prefix(5))")
          #expect(report.documents == 11)
          let balances = try restored.collection("accounts").getDocuments().documents.map {
            $0.get("balance") as? Int64 ?? 0
          }
          #expect(balances.count == 10)
          #expect(balances.reduce(0, +) == 10_000, "the restored balances: \(balances)")
          let copied = try restored.document("bank/state").getDocument().get("transfers") as? Int64 ?? -1
          #expect(
            copied >= first && copied <= last, "the copy holds \(copied) transfers; \(first)…\(last) were committed")
          #expect(try transfers() > last, "the backup was taken mid-way")
          #expect(try restored.collectionGroup("accounts").count.getAggregation(source: .server).count.intValue == 10)
          #expect(try exportedDocuments(restored, in: directory).count == 11)
        }
      }
    }
  }
}

/// The CRC-32 (IEEE 802.3, zlib's) of `data`.
private func crc32(_ data: Data) -> UInt32 {
  let table: [UInt32] = (0..<256).map { index in
    var c = UInt32(index)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
  return crc ^ 0xFFFF_FFFF
}
