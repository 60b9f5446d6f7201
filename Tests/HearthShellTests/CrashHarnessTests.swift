import Foundation
import Hearth
import HearthCore
import HearthStorage
import Testing

/// The torture worker (`Tools/Torture`), built next to `hearth`.
let tortureExecutable: URL? = hearthExecutable.map {
  $0.deletingLastPathComponent().appendingPathComponent("hearth-torture")
}.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

/// The short forms of the crash harnesses (`Tools/crash-test.sh` runs the long ones): a
/// writer killed with SIGKILL at random moments loses no acknowledged commit, nor does
/// one whose eight threads share group commits; four
/// processes counting in transactions while a fifth listens lose no increment and no
/// change; a reader killed inside its transaction leaves a slot that is cleared, and its
/// snapshot's pages are reused.
@Suite(
  .serialized,
  .enabled(if: tortureExecutable != nil, "hearth-torture is not built next to the tests (run swift build first)"))
struct CrashHarnessTests {
  /// A directory for one test's database, log and error output.
  final class Scratch {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-torture-\(UUID().uuidString)")
      .path
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var database: String { path + "/db" }
  }

  /// A running `hearth-torture`, its standard output line by line, its errors in a file.
  final class Worker {
    let process: RawProcess
    let lines: LineInbox
    let errorFile: String

    init(_ arguments: [String], scratch: Scratch) throws {
      errorFile = scratch.path + "/stderr-\(UUID().uuidString)"
      _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
      let errors = FileHandle(forWritingAtPath: errorFile)
      defer { try? errors?.close() }
      // The watchdog is the tests' own (`wait`'s timeout); this one only keeps a hung
      // worker from outliving the run.
      (process, lines) = try RawProcess.withLines(
        arguments, executable: tortureExecutable, stderr: errors, environment: [:], timeout: 600)
    }

    var errors: String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.isRunning }

    /// Waits for the process to end; kills it if it outlives `timeout`. Its exit status
    /// (`nil` when a signal ended it).
    @discardableResult
    func wait(timeout: TimeInterval = 60) -> Int32? {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning && Date() < deadline { usleep(10_000) }
      process.kill()
      let outcome = process.finish(readingOutput: false)
      return outcome.exited ? outcome.status : nil
    }

    /// Kills the process with SIGKILL; whether it was still running (and so a signal
    /// ended it).
    func killNow() -> Bool {
      let running = process.isRunning
      process.kill()
      return running && !process.finish(readingOutput: false).exited
    }

    /// Its one JSON line.
    func summary(timeout: TimeInterval = 30) throws -> JSONValue {
      let line = try #require(lines.next(timeout: timeout), "no output; stderr: \(errors)")
      return try JSONParser.parse(line)
    }
  }

  /// Runs `hearth-torture ARGUMENTS` to its end: its status and its one JSON line.
  func run(_ arguments: [String], scratch: Scratch) throws -> (status: Int32?, summary: JSONValue, errors: String) {
    let worker = try Worker(arguments, scratch: scratch)
    let status = worker.wait()
    let summary = try worker.summary(timeout: 1)
    return (status, summary, worker.errors)
  }

  static func integer(_ value: JSONValue?) -> Int {
    if case .integer(let number)? = value { return Int(number) }
    return -1
  }

  static func loggedCommits(_ log: String) -> Int {
    guard let data = FileManager.default.contents(atPath: log) else { return 0 }
    return max(0, data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } - 1)
  }

  // MARK: - Kill -9

  /// A writer making durable commits of every kind (sets, merges, updates with
  /// transforms, batches, transactions, deletes) is killed with SIGKILL at a random moment
  /// after it has committed, four times; after each kill the database opens, `check`
  /// passes and holds every commit the writer's log acknowledged (and, maybe, the one it
  /// was making).
  @Test func aWriterKilledAtRandomMomentsLosesNoAcknowledgedCommit() throws {
    let scratch = try Scratch()
    let log = scratch.path + "/log"
    let seed = UInt64.random(in: 1...UInt64(Int64.max))
    var acknowledged = 0
    for kill in 1...4 {
      let writer = try Worker(["writer", scratch.database, log, "\(seed)"], scratch: scratch)
      let deadline = Date().addingTimeInterval(60)
      while Self.loggedCommits(log) <= acknowledged && writer.isRunning && Date() < deadline {
        usleep(2_000)
      }
      usleep(UInt32.random(in: 0...200_000))
      try #require(writer.killNow(), "seed \(seed), kill \(kill): the writer stopped by itself: \(writer.errors)")

      let verify = try run(["verify", scratch.database, log], scratch: scratch)
      #expect(verify.status == 0, "seed \(seed), kill \(kill): \(verify.summary) \(verify.errors)")
      #expect(verify.summary["ok"] == .bool(true))
      let count = Self.integer(verify.summary["acknowledged"])
      #expect(count > acknowledged, "seed \(seed), kill \(kill): no commit since the last kill")
      acknowledged = count
    }
  }

  /// Eight threads of one writer process make durable single-document commits at once
  /// (so that they share group commits), each logging its own after `setData` returns;
  /// the process is killed with SIGKILL at a random moment, three times. After each kill
  /// `check` passes and every commit any thread acknowledged is there, with its own
  /// commit time, after that thread's commit before it.
  @Test func writerThreadsKilledAtRandomMomentsLoseNoAcknowledgedCommit() throws {
    let scratch = try Scratch()
    let log = scratch.path + "/log"
    let threads = 8
    func logged() -> Int { (0..<threads).reduce(0) { $0 + Self.loggedCommits(log + ".t\($1)") } }
    var acknowledged = 0
    for kill in 1...3 {
      let writer = try Worker(["threads", scratch.database, log, "\(threads)"], scratch: scratch)
      let deadline = Date().addingTimeInterval(60)
      while logged() <= acknowledged + threads && writer.isRunning && Date() < deadline { usleep(2_000) }
      usleep(UInt32.random(in: 0...200_000))
      try #require(writer.killNow(), "kill \(kill): the writer stopped by itself: \(writer.errors)")

      let verify = try run(["verify-threads", scratch.database, log, "\(threads)"], scratch: scratch)
      #expect(verify.status == 0, "kill \(kill): \(verify.summary) \(verify.errors)")
      #expect(verify.summary["ok"] == .bool(true))
      let count = Self.integer(verify.summary["acknowledged"])
      #expect(count > acknowledged, "kill \(kill): no commit since the last kill")
      acknowledged = count
    }
  }

  // MARK: - Many processes

  /// Four processes run 25 transactions each that increment one counter and write an
  /// item of ~12 KB (the map, 1 MiB at first, must grow while they run), while a fifth
  /// listens and reads, and others open the database and read: the counter ends at 100,
  /// every transaction saw a different counter value, `check` passes, the listener saw
  /// every item arrive once, no reader saw the counter go back, and processes adopted the
  /// map that others grew.
  @Test func fourProcessesCountInTransactionsWhileAFifthListens() throws {
    let scratch = try Scratch()
    let (workers, count) = (4, 25)
    let listener = try Worker(["listen", scratch.database, "\(workers)", "\(count)", "60"], scratch: scratch)
    try #require(listener.lines.next(timeout: 30) == "ready", "the listener did not start: \(listener.errors)")

    let counters = try (0..<workers).map {
      try Worker(["counter", scratch.database, "\(count)", "w\($0)", "12000"], scratch: scratch)
    }
    // Meanwhile, other processes open the database (with a map smaller than the data, which
    // the counters keep growing) and read the counter, one after another.
    var peeks: [Int] = []
    while counters.contains(where: \.isRunning) {
      let peek = try run(["peek", scratch.database], scratch: scratch)
      #expect(peek.status == 0, "a process opening the database while others write failed: \(peek.errors)")
      peeks.append(Self.integer(peek.summary["counter"]))
    }
    #expect(peeks == peeks.sorted(), "the counter went back: \(peeks)")

    var growths = 0
    for counter in counters {
      #expect(counter.wait() == 0, "\(counter.errors)")
      let summary = try counter.summary(timeout: 1)
      #expect(Self.integer(summary["commits"]) == count)
      growths += Self.integer(summary["mapGrowths"])
    }
    #expect(listener.wait() == 0, "\(listener.errors)")
    let heard = try listener.summary(timeout: 1)
    #expect(heard["ok"] == .bool(true), "\(heard)")
    #expect(Self.integer(heard["items"]) == workers * count)
    #expect(Self.integer(heard["counter"]) == workers * count)

    let verify = try run(["verify-counters", scratch.database, "\(workers)", "\(count)"], scratch: scratch)
    #expect(verify.status == 0, "\(verify.summary) \(verify.errors)")
    #expect(Self.integer(verify.summary["counter"]) == workers * count)

    // The data outgrew the first map: the writers grew it, and the listener, which never
    // writes, adopted their growth (`MDB_MAP_RESIZED`) to read on.
    #expect(Self.integer(verify.summary["fileBytes"]) > 1 << 20)
    #expect(growths >= 1)
    #expect(Self.integer(heard["mapAdoptions"]) >= 1, "\(heard)")
    #expect(Self.integer(heard["mapSize"]) > 1 << 20)
  }

  // MARK: - Stale readers

  /// A database whose ten documents of ~4 KB are rewritten round after round, and
  /// reader processes that die inside their read transaction.
  private final class Churn {
    let scratch: Scratch
    let db: Database
    let environment: Environment
    private let payload = String(repeating: "x", count: 4000)
    /// What the file may reach while pages are reused: 4 MiB, and twice the pages freed
    /// between two checkpoints, which the journal's pin keeps (`Environment+Journal.swift`).
    /// A dead reader's snapshot would keep the 24 MB that 600 rewrites free.
    static let sizeLimit = (4 << 20) + 2 * Environment.checkpointPages * 4096

    init(initialMapSize: Int? = nil) throws {
      scratch = try Scratch()
      let settings = Settings()
      if let initialMapSize { settings.initialMapSize = initialMapSize }
      settings.durability = .relaxed
      db = try Database(path: scratch.database, settings: settings)
      environment = try Environment.open(path: db.path)
      try rewrite(0)
    }

    deinit {
      environment.close()
      db.close()
    }

    func rewrite(_ round: Int) throws {
      let batch = db.batch()
      for index in 0..<10 {
        batch.setData(["round": round, "payload": payload], forDocument: db.document("churn/d\(index)"))
      }
      try batch.commit()
    }

    /// Starts a process that holds a read transaction, kills it, and returns its ID.
    func killedReader() throws -> Int32 {
      let reader = try Worker(["hold-reader", scratch.database], scratch: scratch)
      let line = try #require(reader.lines.next(timeout: 30), "\(reader.errors)")
      let pid = try #require(line.split(separator: " ").dropFirst().first.flatMap { Int32($0) }, "\(line)")
      #expect(try holdsSnapshot(pid))
      #expect(reader.killNow())
      // LMDB does not notice by itself: the dead process's slot still holds its snapshot.
      #expect(try holdsSnapshot(pid))
      return pid
    }

    func holdsSlot(_ pid: Int32) throws -> Bool { try environment.readerSlots().contains { $0.processID == pid } }

    private func holdsSnapshot(_ pid: Int32) throws -> Bool {
      try environment.readerSlots().contains { $0.processID == pid && $0.transactionID != nil }
    }

    var dataFileSize: Int {
      get throws {
        try #require(try FileManager.default.attributesOfItem(atPath: db.path + "/data.mdb")[.size] as? Int)
      }
    }
  }

  /// A process killed inside a read transaction leaves its reader slot behind, and the
  /// slot's snapshot keeps the pages freed after it. Growing the map clears the slot, so a
  /// writer rewriting the same documents reuses pages instead of growing the file without
  /// bound; and opening the database in another process clears such a slot too.
  @Test func aKilledReadersSlotIsClearedAndItsPagesAreReused() throws {
    let churn = try Churn(initialMapSize: 1 << 20)

    // 600 rewrites of ~40 KB: 24 MB of pages freed, which the stale snapshot would keep.
    let first = try churn.killedReader()
    for round in 1...600 { try churn.rewrite(round) }
    #expect(try !churn.holdsSlot(first))
    let size = try churn.dataFileSize
    #expect(size < Churn.sizeLimit, "data.mdb is \(size) bytes after rewriting 40 KB 600 times")
    #expect(try churn.db.check().ok)

    // Opening the database in another process clears a dead reader's slot.
    let second = try churn.killedReader()
    let listing = try run(["readers", churn.scratch.database], scratch: churn.scratch)
    #expect(listing.status == 0, "\(listing.errors)")
    guard case .array(let readers)? = listing.summary["readers"] else {
      Issue.record("no readers in \(listing.summary)")
      return
    }
    #expect(!readers.contains(.integer(Int64(second))))
    #expect(try !churn.holdsSlot(second))
  }

  /// With room in the map, no growth comes to clear a dead reader's slot: writes clear
  /// it themselves, once a second, so its snapshot keeps pages for about a second only.
  @Test func writesClearADeadReadersSlotWithoutAGrowth() throws {
    let churn = try Churn()
    let pid = try churn.killedReader()

    // A second later, 600 rewrites of ~40 KB (24 MB freed) in a 64 MiB map that never
    // needs to grow.
    usleep(1_100_000)
    for round in 1...600 { try churn.rewrite(round) }
    #expect(try !churn.holdsSlot(pid))
    let size = try churn.dataFileSize
    #expect(size < Churn.sizeLimit, "data.mdb is \(size) bytes after rewriting 40 KB 600 times")
    #expect(try churn.environment.statistics().mapGrowths == 0)
  }
}
