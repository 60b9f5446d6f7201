// hearth-bench: Hearth beside raw LMDB and SQLite, in one run, on the same data.
//
//   swift run -c release hearth-bench [--documents N] [--durable-writes N] [--rounds N]
//                                     [--queries N] [--loads N] [--verify N] [--explain] [--only TEXT]
//                                     [--snapshot-documents N]
//
// Every figure is operations per second (higher is better); the ratio columns divide
// Hearth's figure by the baseline's.
//
// The first table: raw LMDB stores the very bytes Hearth stores (the encoded documents
// under the same keys) through the C API; SQLite stores them in a `WITHOUT ROWID` table in
// WAL mode with `synchronous=FULL`. The "8 threads" row runs 8 writer threads at once, each
// committing its own documents durably one at a time: Hearth's threads share commits (group
// commit; how many writes a commit held is printed after the tables), raw LMDB's serialize
// on its writer lock, SQLite's (one connection each, a busy timeout) on its WAL lock. The
// durable rows also print the 4 KiB pages each write handed to the kernel
// (`WrittenBytes`) and those the disk wrote (`DeviceWrites`), and run a fourth side,
// SQLite keeping the same 14 automatic index entries a post that Hearth writes
// (`IndexedSQLiteSubject`), as the like-for-like baseline. Every row after the load is the
// median of `--rounds` rounds (3).
//
// The second table (QueryBench.swift): the same posts loaded into a fresh Hearth database
// and into SQLite as JSON text with expression indexes on the queried fields, then the
// same queries with the same random parameters on both; every answer is checked against
// the other side's. A third side, raw LMDB (RawLMDBQuerySubject.swift), answers them by
// hand through LMDB's C API with indexes built for exactly these queries: the floor any
// LMDB-based design can reach.
//
// The third table (SnapshotBench.swift): export, import and backup, with their throughput
// and memory. Then listeners (ListenerBench.swift): write throughput with 10,000 of them,
// and memory around 100,000.
import Foundation
import Hearth

let arguments = BenchArguments(CommandLine.arguments)
let workload = SocialWorkload(documents: arguments.documents)
let root = FileManager.default.temporaryDirectory.appendingPathComponent(
  "hearth-bench-\(ProcessInfo.processInfo.processIdentifier)")
try? FileManager.default.removeItem(at: root)
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: root) }

if arguments.runsFirstTable {
  print(
    "hearth-bench: \(workload.documents.count) posts of the social app's shape (~\(workload.averageEncodedSize) bytes encoded), "
      + "\(arguments.durableWrites) single durable writes, medians of \(arguments.rounds) rounds, "
      + "\(workload.documents.count) random reads\n")
  try runFirstTable(workload: workload, root: root, arguments: arguments)
}

if arguments.runsQueryTable {
  let queryBench = QueryBench(social: workload, root: root, arguments: arguments)
  let rows = try queryBench.run()
  QueryBench.print(rows, workload: queryBench.workload, arguments: arguments)
  if rows.contains(where: { $0.name == QueryBench.loadName }) {
    let serialization = queryBench.workload.serializationSeconds()
    let alone = formatRate(Double(workload.documents.count) / serialization)
    print(
      "\nSQLite's load is given its JSON text ready-made; an app serialising the posts with JSONSerialization "
        + "would spend another \(String(format: "%.1f", serialization)) s (\(alone) alone).")
  }
}

if arguments.runsListeners {
  try ListenerBench(root: root).run(selects: arguments.selects)
}

if arguments.runsSnapshots {
  try SnapshotBench(documents: arguments.snapshotDocuments ?? arguments.documents, root: root)
    .run(selects: arguments.selects)
}

/// The first table: Hearth, raw LMDB and SQLite storing and reading the same bytes.
func runFirstTable(workload: SocialWorkload, root: URL, arguments: BenchArguments) throws {
  var table = ResultTable()
  let hearth = try HearthSubject(directory: root.appendingPathComponent("hearth").path, workload: workload)
  let lmdb = try LMDBSubject(directory: root.appendingPathComponent("lmdb").path, workload: workload)
  let sqlite = try SQLiteSubject(path: root.appendingPathComponent("sqlite.db").path, workload: workload)
  // Loaded now (its posts and their index entries) only when a durable row runs.
  let runsDurableRows = BenchArguments.firstTableNames.contains { $0.contains("durable") && arguments.selects($0) }
  let indexedSQLite =
    runsDurableRows
    ? try IndexedSQLiteSubject(path: root.appendingPathComponent("sqlite-indexed.db").path, workload: workload) : nil
  let order = workload.randomOrder()

  /// One row: a name, how many operations each run makes, and the three runs, each
  /// given its round (a durable row writes each round into a collection of its own).
  struct Operation {
    let name: String
    let count: Int
    let hearth: (Int) throws -> Void
    let lmdb: (Int) throws -> Void
    let sqlite: (Int) throws -> Void
    /// SQLite keeping the posts' index entries too (`IndexedSQLiteSubject`), for the
    /// durable rows.
    var indexedSQLite: ((IndexedSQLiteSubject, Int) throws -> Void)? = nil

    var isDurable: Bool { name.contains("durable") }
  }

  let operations = [
    Operation(
      name: "batched set (1,000 per commit)", count: workload.documents.count,
      hearth: { _ in try hearth.batchedSet() }, lmdb: { _ in try lmdb.batchedPut() },
      sqlite: { _ in try sqlite.batchedInsert() }),
    Operation(
      name: "single durable set (fsync each)", count: arguments.durableWrites,
      hearth: { try hearth.durableSets(arguments.durableWrites, round: $0) },
      lmdb: { try lmdb.durablePuts(arguments.durableWrites, round: $0) },
      sqlite: { try sqlite.durableInserts(arguments.durableWrites, round: $0) },
      indexedSQLite: { try $0.durableInserts(arguments.durableWrites, round: $1) }),
    Operation(
      name: "8 threads, durable single sets", count: arguments.durableWrites,
      hearth: { try hearth.parallelDurableSets(threads: 8, arguments.durableWrites, round: $0) },
      lmdb: { try lmdb.parallelDurablePuts(threads: 8, arguments.durableWrites, round: $0) },
      sqlite: { try sqlite.parallelDurableInserts(threads: 8, arguments.durableWrites, round: $0) },
      indexedSQLite: { try $0.parallelDurableInserts(threads: 8, arguments.durableWrites, round: $1) }),
    Operation(
      name: "get → DocumentSnapshot", count: order.count,
      hearth: { _ in try hearth.getSnapshots(order) }, lmdb: { _ in try lmdb.gets(order) },
      sqlite: { _ in try sqlite.selects(order) }),
    Operation(
      name: "get → [String: Any]", count: order.count,
      hearth: { _ in try hearth.getDictionaries(order) }, lmdb: { _ in try lmdb.gets(order) },
      sqlite: { _ in try sqlite.selects(order) }),
    Operation(
      name: "get → Codable struct", count: order.count,
      hearth: { _ in try hearth.getStructs(order) }, lmdb: { _ in try lmdb.gets(order) },
      sqlite: { _ in try sqlite.selects(order) }),
    // A collection read whole: each side reads each user's posts on its own (Hearth a
    // query and a read transaction a collection, SQLite a statement bound for its path
    // range, LMDB a cursor over its keys).
    Operation(
      name: "read whole collection (per document)", count: workload.documents.count,
      hearth: { _ in try hearth.readCollections() }, lmdb: { _ in try lmdb.scanCollections() },
      sqlite: { _ in try sqlite.selectCollections() }),
    // Every post at once: Hearth's collection group, the others' whole table.
    Operation(
      name: "read every post, collection group (per document)", count: workload.documents.count,
      hearth: { _ in try hearth.readGroup() }, lmdb: { _ in try lmdb.scan() },
      sqlite: { _ in try sqlite.scan() }),
  ]

  // The SQLite writers' connections open before any row is timed.
  sqlite.openWriterConnections(8)
  var written = ResultTable()
  var reachedDisk = ResultTable()
  let device = DeviceWrites(directory: root.path)
  /// A durable row beside SQLite + entries: rates, and pages a write (handed to the
  /// kernel; reached the disk, when `DeviceWrites` can tell).
  var indexed: [(name: String, hearth: Double, sqlite: Double, pages: (Double, Double), disk: (Double, Double)?)] = []
  for (index, operation) in operations.enumerated() {
    // The first row loads the data, so it always runs.
    if index > 0, !arguments.selects(operation.name) { continue }
    var sides = [operation.hearth, operation.lmdb, operation.sqlite]
    if let indexedSQLite, let run = operation.indexedSQLite { sides.append { try run(indexedSQLite, $0) } }
    // A row's figure is the median of its rounds (the load runs once), the sides' order
    // rotating from round to round so that the machine's slow moments do not fall on one
    // side alone; a durable row's pages are the mean.
    let rounds = index == 0 ? 1 : arguments.rounds
    var roundRates = [[Double]](repeating: [], count: sides.count)
    var bytes = [Int](repeating: 0, count: sides.count)
    var deviceBytes = [Int](repeating: 0, count: sides.count)
    for round in 0..<rounds {
      for turn in 0..<sides.count {
        let side = (round + turn) % sides.count
        // A durable side starts with nothing of another's waiting to be written, and
        // what it left unwritten (a checkpoint's pages) is counted as its own.
        let deviceBefore = operation.isDurable ? device?.bytesAfterSync() : nil
        let before = WrittenBytes.total()
        roundRates[side].append(try measure(operation.count) { try sides[side](round) })
        bytes[side] += WrittenBytes.total() - before
        if let deviceBefore, let after = device?.bytesAfterSync() { deviceBytes[side] += after - deviceBefore }
      }
    }
    let rates = roundRates.map(median)
    let pages = bytes.map { Double($0) / 4096 / Double(operation.count * rounds) }
    table.add(operation.name, hearth: rates[0], lmdb: rates[1], sqlite: rates[2])
    // Counted only around durable sides (`nil` for the other rows).
    let diskPages =
      operation.isDurable && device != nil
      ? deviceBytes.map { Double($0) / 4096 / Double(operation.count * rounds) } : nil
    if operation.isDurable {
      written.add(operation.name, hearth: pages[0], lmdb: pages[1], sqlite: pages[2])
      if let diskPages {
        reachedDisk.add(operation.name, hearth: diskPages[0], lmdb: diskPages[1], sqlite: diskPages[2])
      }
    }
    if sides.count > 3 {
      indexed.append((operation.name, rates[0], rates[3], (pages[0], pages[3]), diskPages.map { ($0[0], $0[3]) }))
    }
  }
  hearth.close()
  lmdb.close()
  sqlite.close()
  indexedSQLite?.close()
  table.print()
  if !written.isEmpty {
    print("\n4 KiB pages written per durable write (write system calls: database pages, meta pages, log frames)")
    written.print(format: { String(format: "%.1f", $0) })
  }
  if !reachedDisk.isEmpty, let device {
    print("\n4 KiB pages the disk wrote per durable write (\(device.statistics), synced before and after each side)")
    reachedDisk.print(format: { String(format: "%.1f", $0) })
  }
  if !indexed.isEmpty {
    print(
      "\nThe durable rows beside SQLite keeping the same 14 automatic index entries a post (IndexedSQLiteSubject)")
    let nameWidth = indexed.map(\.name.count).max()!
    /// A line: the name, then each cell right-aligned in 16 columns.
    func line(_ name: String, _ cells: [String]) -> String {
      name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        + cells.map { String(repeating: " ", count: max(16 - $0.count, 1)) + $0 }.joined()
    }
    let disk = device == nil ? [] : ["disk: Hearth", "SQLite+entries"]
    print(line("operation", ["Hearth", "SQLite+entries", "Hearth/SQLite", "pages: Hearth", "SQLite+entries"] + disk))
    for row in indexed {
      let pages = [row.pages.0, row.pages.1] + (row.disk.map { [$0.0, $0.1] } ?? [])
      print(
        line(
          row.name,
          [formatRate(row.hearth), formatRate(row.sqlite), String(format: "%.2f×", row.hearth / row.sqlite)]
            + pages.map { String(format: "%.1f", $0) }))
    }
  }
  if !hearth.groupSizes.isEmpty {
    let sizes = hearth.groupSizes.map { String(format: "%.1f", $0) }.joined(separator: ", ")
    print("Hearth's 8 threads: writes a group commit held, by round: \(sizes)")
  }
}

/// The bytes this process has handed to write system calls so far (`wchar` in
/// /proc/self/io; 0 where there is none): around a durable row, what its commits wrote,
/// LMDB's pages and meta pages and SQLite's WAL frames alike. The syncs that follow cost
/// by these pages (and more when they lie apart in the file), so this is how the rows'
/// speeds are explained.
enum WrittenBytes {
  static func total() -> Int {
    guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8),
      let line = io.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") })
    else { return 0 }
    return line.split(separator: " ").last.flatMap { Int($0) } ?? 0
  }
}

/// What the disk under a directory has written, from the block device's statistics
/// (sectors written, the seventh field of /sys/dev/block/MAJOR:MINOR/stat): around a
/// durable row, with a `sync()` before each reading, every page its side made durable,
/// however the system calls grouped them (and a checkpoint's pages, written after the
/// side's commits returned). Other writers of the same disk count too: read it beside
/// `WrittenBytes`. `nil` where the statistics cannot be read.
struct DeviceWrites {
  let statistics: String

  init?(directory: String) {
    var info = stat()
    guard stat(directory, &info) == 0 else { return nil }
    // Linux's encoding of a device number (glibc's gnu_dev_major and gnu_dev_minor).
    let device = UInt64(info.st_dev)
    let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF)
    let minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
    statistics = "/sys/dev/block/\(major):\(minor)/stat"
    guard sectorsWritten() != nil else { return nil }
  }

  private func sectorsWritten() -> Int? {
    guard let text = try? String(contentsOfFile: statistics, encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ", omittingEmptySubsequences: true)
    return fields.count > 6 ? Int(fields[6]) : nil
  }

  /// The bytes written so far, once everything the system holds unwritten is written.
  func bytesAfterSync() -> Int? {
    sync()
    return sectorsWritten().map { $0 * 512 }
  }
}

/// Runs `body` once and returns operations per second.
func measure(_ operations: Int, _ body: () throws -> Void) throws -> Double {
  let clock = ContinuousClock()
  let elapsed = try clock.measure(body)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Double(operations) / seconds
}

struct BenchArguments {
  var documents = 100_000
  /// Durable writes of each durable row: enough that the rows measure sustained commits
  /// (at 300, warm-up dominated the 8-thread row, which then varied 1×–3.5× SQLite).
  var durableWrites = 2_000
  /// Rounds of each row of the first table after the load (the figure is their median):
  /// one round of the single durable row varied 0.6×–0.85× SQLite from run to run.
  var rounds = 3
  /// Repetitions of each query row (the figure is their median).
  var queries = 5
  /// Repetitions of the query section's bulk load, each into fresh files.
  var loads = 3
  /// Parameter choices per query whose full answers (paths in order) are compared.
  var verify = 5
  /// Print each query's plan on both sides: Hearth's `explain()`, SQLite's `EXPLAIN QUERY PLAN`.
  var explain = false
  /// Run only the operations whose names contain this text (for profiling one of them).
  var only: String?
  /// The size of the snapshot section's database (default: `documents`).
  var snapshotDocuments: Int?

  static let firstTableNames = [
    "batched set (1,000 per commit)", "single durable set (fsync each)", "8 threads, durable single sets",
    "get → DocumentSnapshot",
    "get → [String: Any]", "get → Codable struct", "read whole collection (per document)",
    "read every post, collection group (per document)",
  ]

  init(_ arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--documents": documents = iterator.next().flatMap(Int.init) ?? documents
      case "--durable-writes": durableWrites = iterator.next().flatMap(Int.init) ?? durableWrites
      case "--rounds": rounds = max(1, iterator.next().flatMap(Int.init) ?? rounds)
      case "--queries": queries = iterator.next().flatMap(Int.init) ?? queries
      case "--loads": loads = iterator.next().flatMap(Int.init) ?? loads
      case "--verify": verify = iterator.next().flatMap(Int.init) ?? verify
      case "--explain": explain = true
      case "--only": only = iterator.next()
      case "--snapshot-documents": snapshotDocuments = iterator.next().flatMap(Int.init)
      default:
        FileHandle.standardError.write(
          Data(
            ("usage: hearth-bench [--documents N] [--durable-writes N] [--rounds N] [--queries N] "
              + "[--loads N] [--verify N] [--explain] [--only TEXT] [--snapshot-documents N]\n").utf8))
        exit(64)
      }
    }
    if let only, !runsFirstTable, !runsQueryTable, !runsSnapshots, !runsListeners {
      let names =
        Self.firstTableNames + [QueryBench.loadName] + QueryKind.allCases.map(\.name) + SnapshotBench.names
        + ListenerBench.names
      FileHandle.standardError.write(
        Data(
          "hearth-bench: no operation's name contains '\(only)'; the names are:\n  \(names.joined(separator: "\n  "))\n"
            .utf8))
      exit(64)
    }
  }

  /// Whether `--only` lets this operation run.
  func selects(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

  var runsFirstTable: Bool { Self.firstTableNames.contains(where: selects) }
  var runsQueryTable: Bool { selects(QueryBench.loadName) || QueryKind.allCases.contains { selects($0.name) } }
  var runsSnapshots: Bool { SnapshotBench.names.contains(where: selects) }
  var runsListeners: Bool { ListenerBench.names.contains(where: selects) }
}

struct ResultTable {
  private var rows: [(String, Double, Double, Double)] = []

  mutating func add(_ name: String, hearth: Double, lmdb: Double, sqlite: Double) {
    rows.append((name, hearth, lmdb, sqlite))
  }

  var isEmpty: Bool { rows.isEmpty }

  /// Prints the rows, each figure formatted by `format` (a rate per second by default).
  func print(format rate: (Double) -> String = formatRate) {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    let nameWidth = rows.map(\.0.count).max() ?? 10
    Swift.print(
      "operation".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        + pad("Hearth", 12) + pad("raw LMDB", 12) + pad("SQLite", 12) + pad("Hearth/LMDB", 13)
        + pad("Hearth/SQLite", 15))
    for (name, hearth, lmdb, sqlite) in rows {
      Swift.print(
        name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
          + pad(rate(hearth), 12) + pad(rate(lmdb), 12) + pad(rate(sqlite), 12)
          + pad(String(format: "%.2f×", hearth / lmdb), 13) + pad(String(format: "%.2f×", hearth / sqlite), 15))
    }
  }
}
