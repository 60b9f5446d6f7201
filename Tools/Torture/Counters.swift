import Foundation
import Hearth
import HearthStorage
import Synchronization

/// The many-processes run: `counter` processes increment one counter in transactions and
/// write their own item documents (big enough that the map must grow while they run),
/// while a `listen` process watches, and `verify-counters` checks the end state.
enum Counters {
  static let counterPath = "counters/main"
  static let callbackQueue = DispatchQueue(label: "hearth-torture.callbacks")

  /// Every process of the run opens the database with a small map, so that it grows
  /// during the run and every process meets growths made by the others.
  static var settings: Settings {
    let settings = Settings()
    settings.initialMapSize = 1 << 20
    // The listener process waits on its main thread, so callbacks need a queue of their own.
    settings.dispatchQueue = callbackQueue
    return settings
  }

  static func itemPath(worker: String, index: Int) -> String { "workers/\(worker)/items/i\(index)" }

  /// `counter DB N ID [PAYLOAD]`: N transactions, each reading the counter, writing it
  /// plus one, and writing item `i` of worker ID (with PAYLOAD bytes of text).
  static func runCounter(path: String, count: Int, worker: String, payloadBytes: Int) throws {
    let started = Date()
    let db = try Database(path: path, settings: settings)
    defer { db.close() }
    let counter = db.document(counterPath)
    let payload = String(
      String(repeating: worker + ".", count: payloadBytes / (worker.utf8.count + 1) + 1).prefix(payloadBytes))
    for index in 0..<count {
      let item = db.document(itemPath(worker: worker, index: index))
      try db.runTransaction { transaction in
        let value = try transaction.getDocument(counter).get("value") as? Int64 ?? 0
        transaction.setData(["value": value + 1], forDocument: counter)
        transaction.setData(
          ["worker": worker, "index": index, "counterAfter": value + 1, "payload": payload], forDocument: item)
      }
    }
    let statistics = try storageStatistics(db)
    printJSON([
      ("worker", .string(worker)), ("commits", .int(count)),
      ("seconds", .double(Date().timeIntervalSince(started))), ("mapSize", .int(statistics.mapSize)),
      ("mapGrowths", .int(statistics.mapGrowths)), ("mapAdoptions", .int(statistics.mapAdoptions)),
    ])
  }

  /// This process's view of the environment (the one `db` opened).
  static func storageStatistics(_ db: Database) throws -> Environment.Statistics {
    let environment = try Environment.open(path: db.path)
    defer { environment.close() }
    return try environment.statistics()
  }

  /// What the listener has seen.
  struct Seen {
    var items = Set<String>()
    var added = 0
    var modified = 0
    var removed = 0
    var snapshots = 0
    var counter: Int64 = 0
    var counterSnapshots = 0
    var counterWentBack = false
    var ready = (items: false, counter: false)
    var errors: [String] = []
  }

  /// The listener's state, updated from its callbacks.
  final class ListenerState: Sendable {
    let seen = Mutex(Seen())
    let finished = DispatchSemaphore(value: 0)
    let expected: Int

    init(expected: Int) { self.expected = expected }

    /// Applies `body`; prints `ready` once both listeners have had their first snapshot,
    /// and signals `finished` once everything has been seen.
    func update(_ body: (inout Seen) -> Void) {
      let (announce, done) = seen.withLock { seen -> (Bool, Bool) in
        let wasReady = seen.ready.items && seen.ready.counter
        body(&seen)
        let isReady = seen.ready.items && seen.ready.counter
        return (!wasReady && isReady, seen.items.count == expected && seen.counter == Int64(expected))
      }
      if announce { printLine("ready") }
      if done { finished.signal() }
    }
  }

  /// `listen DB WORKERS N [TIMEOUT]`: listens to every item and to the counter, and reads
  /// the counter every 10 ms; prints `ready` once both listeners are in place, then, when
  /// it has seen all WORKERS × N items added and the counter at WORKERS × N (or at the
  /// timeout), one JSON line.
  static func runListener(path: String, workers: Int, count: Int, timeout: Double) throws -> Bool {
    let db = try Database(path: path, settings: settings)
    defer { db.close() }
    let expected = workers * count
    let state = ListenerState(expected: expected)
    let items = db.collectionGroup("items").addSnapshotListener { snapshot, error in
      state.update { seen in
        if let error { seen.errors.append("\(error)") }
        guard let snapshot else { return }
        seen.snapshots += 1
        seen.ready.items = true
        for change in snapshot.documentChanges {
          switch change.type {
          case .added:
            seen.added += 1
            seen.items.insert(change.document.reference.path)
          case .modified: seen.modified += 1
          case .removed: seen.removed += 1
          }
        }
      }
    }
    let counter = db.document(counterPath).addSnapshotListener { snapshot, error in
      state.update { seen in
        if let error { seen.errors.append("\(error)") }
        guard let snapshot else { return }
        seen.counterSnapshots += 1
        seen.ready.counter = true
        let value = snapshot.get("value") as? Int64 ?? 0
        if value < seen.counter { seen.counterWentBack = true }
        seen.counter = max(seen.counter, value)
      }
    }
    // Reads while it listens: the counter it reads never goes back.
    let deadline = Date().addingTimeInterval(timeout)
    var reads = 0
    var lastRead: Int64 = 0
    var readWentBack = false
    var timedOut = false
    while state.finished.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
      let value = try db.document(counterPath).getDocument().get("value") as? Int64 ?? 0
      if value < lastRead { readWentBack = true }
      lastRead = max(lastRead, value)
      reads += 1
      if Date() > deadline {
        timedOut = true
        break
      }
    }
    items.remove()
    counter.remove()
    let statistics = try storageStatistics(db)
    let result = state.seen.withLock { $0 }
    // Each item is written once, so each must arrive once, as `added`, and never change.
    let ok =
      !timedOut && result.items.count == expected && result.added == expected && result.modified == 0
      && result.removed == 0 && !result.counterWentBack && result.counter == Int64(expected)
      && result.errors.isEmpty && !readWentBack
    printJSON([
      ("ok", .bool(ok)), ("expected", .int(expected)), ("items", .int(result.items.count)),
      ("added", .int(result.added)), ("modified", .int(result.modified)), ("removed", .int(result.removed)),
      ("snapshots", .int(result.snapshots)), ("counter", .int(Int(result.counter))),
      ("counterSnapshots", .int(result.counterSnapshots)), ("counterWentBack", .bool(result.counterWentBack)),
      ("reads", .int(reads)), ("readWentBack", .bool(readWentBack)), ("timedOut", .bool(timedOut)),
      ("errors", .string(result.errors.joined(separator: "; "))),
      ("mapSize", .int(statistics.mapSize)), ("mapGrowths", .int(statistics.mapGrowths)),
      ("mapAdoptions", .int(statistics.mapAdoptions)),
    ])
    return ok
  }

  /// `peek DB`: opens the database (with the small first map, while others may be growing
  /// it), reads the counter, and prints it.
  static func peek(path: String) throws {
    let db = try Database(path: path, settings: settings)
    defer { db.close() }
    let value = try db.document(counterPath).getDocument().get("value") as? Int64 ?? 0
    printJSON([("counter", .int(Int(value)))])
  }

  /// `verify-counters DB WORKERS N`: `check` passes, the counter is WORKERS × N, every
  /// worker wrote its N items, and the counter values the transactions saw are exactly
  /// 1...WORKERS × N: no two transactions read the same counter.
  static func verify(path: String, workers: Int, count: Int) throws -> Bool {
    let db = try Database(path: path, settings: settings)
    defer { db.close() }
    var problems: [String] = []
    let report = try db.check()
    if !report.ok { problems.append("check: " + report.problems.prefix(10).joined(separator: "; ")) }
    let expected = workers * count
    let counter = try db.document(counterPath).getDocument().get("value") as? Int64
    if counter != Int64(expected) {
      problems.append("the counter is \(counter.map(String.init) ?? "missing"), expected \(expected)")
    }
    let items = try db.collectionGroup("items").getDocuments().documents
    if items.count != expected { problems.append("\(items.count) items, expected \(expected)") }
    let byWorker = Dictionary(grouping: items) { $0.get("worker") as? String ?? "?" }
    if byWorker.count != workers { problems.append("items of \(byWorker.count) workers, expected \(workers)") }
    for (worker, items) in byWorker.sorted(by: { $0.key < $1.key }) {
      let indexes = Set(items.compactMap { $0.get("index") as? Int64 })
      if indexes != Set(0..<Int64(count)) {
        problems.append("worker \(worker) has \(indexes.count) of its \(count) items")
      }
    }
    let seen = items.compactMap { $0.get("counterAfter") as? Int64 }.sorted()
    if seen != (0..<expected).map({ Int64($0 + 1) }) {
      problems.append("the transactions' counter values are not exactly 1...\(expected) (a lost or doubled increment)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: db.path + "/data.mdb")[.size] as? Int) ?? 0
    printJSON([
      ("ok", .bool(problems.isEmpty)), ("counter", .int(Int(counter ?? -1))), ("items", .int(items.count)),
      ("checkedDocuments", .int(report.documents)), ("indexEntries", .int(report.indexEntries)),
      ("fileBytes", .int(size)), ("problems", .string(problems.joined(separator: "; "))),
    ])
    return problems.isEmpty
  }
}
