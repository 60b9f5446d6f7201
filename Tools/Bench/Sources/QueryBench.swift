import CSQLite
import Foundation
import Hearth

/// The query section: Hearth and SQLite loaded with the same posts and the same indexes,
/// then asked the same questions with the same random parameter choices. Every figure is
/// the median of several repetitions, the sides' taken in turns so that the machine's noise
/// falls on all; every answer is checked against SQLite's.
///
/// A third side, raw LMDB (`RawLMDBQuerySubject`), answers the same questions by hand
/// through LMDB's C API with indexes built for exactly them: the floor any LMDB-based
/// design can reach, against which Hearth's figures (and any goal set for them) can be
/// judged.
struct QueryBench {
  struct Row {
    let name: String
    let hearth: Double
    let sqlite: Double
    /// Raw LMDB, its read transaction renewed per query (as Hearth's are).
    let rawLMDB: Double
    /// Raw LMDB, its read transaction begun and aborted per query (not for the load).
    let rawLMDBBegun: Double?
    /// Results per query (documents, or the count), the same on every side.
    let results: Double?
  }

  static let loadName = "bulk load with indexes (1,000 per commit)"
  /// The least time one repetition of a query row runs for (at least one query).
  static let repetitionSeconds = 0.2

  let workload: QueryWorkload
  let root: URL
  let arguments: BenchArguments
  let kinds: [QueryKind]
  let measuresLoad: Bool

  init(social: SocialWorkload, root: URL, arguments: BenchArguments) {
    workload = QueryWorkload(social)
    self.root = root
    self.arguments = arguments
    kinds = QueryKind.allCases.filter { arguments.selects($0.name) }
    measuresLoad = arguments.selects(Self.loadName)
  }

  func run() throws -> [Row] {
    var rows: [Row] = []
    let (subjects, load) = try loadAll()
    defer { subjects.close() }
    printFileSizes()
    if measuresLoad { rows.append(load) }
    for kind in kinds {
      let verified = try verify(kind, subjects)
      if arguments.explain { try explain(kind, subjects.hearth, subjects.sqlite) }
      rows.append(try measureQueries(kind, subjects, results: verified))
    }
    return rows
  }

  /// The three databases, loaded with the same posts.
  private struct Subjects {
    let hearth: HearthQuerySubject
    let sqlite: SQLiteQuerySubject
    let rawLMDB: RawLMDBQuerySubject

    func close() {
      hearth.close()
      sqlite.close()
      rawLMDB.close()
    }
  }

  /// Loads the databases `--loads` times into fresh files (only once when the load row is
  /// not selected) and keeps the last three for the queries.
  private func loadAll() throws -> (Subjects, Row) {
    let count = workload.social.documents.count
    let repetitions = measuresLoad ? max(arguments.loads, 1) : 1
    var hearthRates: [Double] = []
    var sqliteRates: [Double] = []
    var rawLMDBRates: [Double] = []
    var kept: Subjects?
    for repetition in 0..<repetitions {
      let hearthDirectory = root.appendingPathComponent("query-hearth-\(repetition)")
      let sqlitePath = root.appendingPathComponent("query-sqlite-\(repetition).db")
      let rawLMDBDirectory = root.appendingPathComponent("query-lmdb-\(repetition)")
      let hearth = try HearthQuerySubject(directory: hearthDirectory.path, workload: workload)
      hearthRates.append(try hearth_bench.measure(count, hearth.load))
      let sqlite = try SQLiteQuerySubject(path: sqlitePath.path, workload: workload)
      sqliteRates.append(try hearth_bench.measure(count, sqlite.load))
      sqlite.checkpoint()
      let rawLMDB = try RawLMDBQuerySubject(directory: rawLMDBDirectory.path, workload: workload)
      rawLMDBRates.append(try hearth_bench.measure(count, rawLMDB.load))
      let subjects = Subjects(hearth: hearth, sqlite: sqlite, rawLMDB: rawLMDB)
      if repetition == repetitions - 1 {
        kept = subjects
      } else {
        subjects.close()
        try? FileManager.default.removeItem(at: hearthDirectory)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sqlitePath.path + suffix) }
        try? FileManager.default.removeItem(at: rawLMDBDirectory)
      }
    }
    let row = Row(
      name: Self.loadName, hearth: median(hearthRates), sqlite: median(sqliteRates), rawLMDB: median(rawLMDBRates),
      rawLMDBBegun: nil, results: nil)
    return (kept!, row)
  }

  /// The loaded databases' sizes on disk (the last load's files), for growth with data.
  private func printFileSizes() {
    let last = (measuresLoad ? max(arguments.loads, 1) : 1) - 1
    func megabytes(_ paths: [String]) -> String {
      let bytes = paths.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
      return String(format: "%.0f MB", Double(bytes) / 1e6)
    }
    let hearth = root.appendingPathComponent("query-hearth-\(last)/data.mdb").path
    let sqlite = root.appendingPathComponent("query-sqlite-\(last).db").path
    let rawLMDB = root.appendingPathComponent("query-lmdb-\(last)/data.mdb").path
    Swift.print(
      "\nloaded files: Hearth \(megabytes([hearth])), SQLite \(megabytes([sqlite, sqlite + "-wal"])), "
        + "raw LMDB \(megabytes([rawLMDB]))")
  }

  /// Compares the first `--verify` parameter choices' full answers, paths in order, of
  /// Hearth and raw LMDB with SQLite's; returns the mean number of results. Also checks
  /// that SQLite's plan uses its indexes (a scan there would flatter Hearth).
  private func verify(_ kind: QueryKind, _ subjects: Subjects) throws -> Double {
    let plan = subjects.sqlite.plan(kind)
    if let scan = plan.first(where: { $0.hasPrefix("SCAN") }) {
      fail("SQLite scans for '\(kind.name)' (\(scan)): its indexes do not fit the query; plan: \(plan)")
    }
    let choices = kind == .countGroup ? 1 : max(1, min(arguments.verify, workload.choices))
    var total = 0
    for choice in 0..<choices {
      let expected = subjects.sqlite.results(kind, choice)
      try check(kind, choice, "Hearth", subjects.hearth.results(kind, choice), expected)
      check(kind, choice, "raw LMDB", subjects.rawLMDB.results(kind, choice), expected)
      total += kind.isCount ? subjects.sqlite.run(kind, choice) : expected.count
    }
    return Double(total) / Double(choices)
  }

  /// Stops the run when `side`'s answer differs from SQLite's.
  private func check(_ kind: QueryKind, _ choice: Int, _ side: String, _ actual: [String], _ expected: [String]) {
    guard actual != expected else { return }
    let difference =
      zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(actual.count, expected.count)
    let heading = "'\(kind.name)', parameter choice \(choice) (\(parameters(kind, choice)))"
    let counts = "\(side) returned \(actual.count) results, SQLite \(expected.count)"
    let from = "from result \(difference)"
    let sideList = "\(side): \(Array(actual.dropFirst(difference).prefix(5)))"
    let sqliteList = "SQLite: \(Array(expected.dropFirst(difference).prefix(5)))"
    fail("\(heading): \(counts); \(from)\n\(sideList)\n\(sqliteList)")
  }

  private func explain(_ kind: QueryKind, _ hearth: HearthQuerySubject, _ sqlite: SQLiteQuerySubject) throws {
    Swift.print("\(kind.name) [\(parameters(kind, 0))]")
    Swift.print("  Hearth: \(try hearth.explain(kind, 0))")
    for line in sqlite.plan(kind) { Swift.print("  SQLite: \(line)") }
  }

  /// The queries per second of each side, the median of `--queries` repetitions taken in
  /// turns; each repetition carries on through the parameter choices where the last
  /// stopped. Every result count is checked against SQLite's for the same choice.
  private func measureQueries(_ kind: QueryKind, _ subjects: Subjects, results: Double) throws -> Row {
    let sides: [(name: String, run: (Int) throws -> Int)] = [
      ("Hearth", { try subjects.hearth.run(kind, $0) }),
      ("SQLite", { subjects.sqlite.run(kind, $0) }),
      ("raw LMDB", { subjects.rawLMDB.run(kind, $0, .renewed) }),
      ("raw LMDB (begun per query)", { subjects.rawLMDB.run(kind, $0, .begun) }),
    ]
    var rates = [[Double]](repeating: [], count: sides.count)
    var counts = [[Int]](repeating: [Int](repeating: -1, count: workload.choices), count: sides.count)
    var next = [Int](repeating: 0, count: sides.count)
    for _ in 0..<max(arguments.queries, 1) {
      for (index, side) in sides.enumerated() {
        rates[index].append(try repetition(&next[index], &counts[index], side.name, kind, side.run))
      }
    }
    let sqlite = 1
    for (index, side) in sides.enumerated() where index != sqlite {
      for choice in 0..<workload.choices where counts[index][choice] >= 0 && counts[sqlite][choice] >= 0 {
        if counts[index][choice] != counts[sqlite][choice] {
          fail(
            "'\(kind.name)', parameter choice \(choice) (\(parameters(kind, choice))): \(side.name) counted "
              + "\(counts[index][choice]) results, SQLite \(counts[sqlite][choice])")
        }
      }
    }
    return Row(
      name: kind.name, hearth: median(rates[0]), sqlite: median(rates[1]), rawLMDB: median(rates[2]),
      rawLMDBBegun: median(rates[3]), results: results)
  }

  private func repetition(
    _ next: inout Int, _ counts: inout [Int], _ side: String, _ kind: QueryKind, _ body: (Int) throws -> Int
  ) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var done = 0
    var elapsed = 0.0
    repeat {
      let choice = next % workload.choices
      let count = try body(choice)
      if counts[choice] < 0 {
        counts[choice] = count
      } else if counts[choice] != count {
        fail("\(side) answered '\(kind.name)' choice \(choice) with \(count) results, earlier \(counts[choice])")
      }
      next += 1
      done += 1
      elapsed = seconds(clock.now - start)
    } while elapsed < Self.repetitionSeconds
    return Double(done) / elapsed
  }

  /// Stops the run with `message`, removing its files first (`exit` skips main's `defer`).
  private func fail(_ message: String) -> Never {
    try? FileManager.default.removeItem(at: root)
    hearth_bench.fail(message)
  }

  private func parameters(_ kind: QueryKind, _ choice: Int) -> String {
    switch kind {
    case .pointGet: workload.paths[choice]
    case .userFeed, .groupFeed, .countUser, .feedData, .feedCodable: "ownerId \(workload.owners[choice])"
    case .range, .rangeData: "likes \(workload.likeRanges[choice])"
    case .inOwners: "ownerId in \(workload.ownerSets[choice])"
    case .arrayContains, .tagData: "tag \(workload.tags[choice])"
    case .countGroup: "no parameter"
    case .countRangeUser: "ownerId \(workload.owners[choice]), likes >= \(workload.likeFloors[choice])"
    case .countRangeGroup: "likes >= \(workload.likeFloors[choice])"
    case .countCompositeUser, .countCompositeGroup:
      "ownerId \(workload.owners[choice]), createdAt >= \(workload.createdFloor(choice))"
    }
  }

  static func print(_ rows: [Row], workload: QueryWorkload, arguments: BenchArguments) {
    guard !rows.isEmpty else { return }
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    let nameWidth = max(rows.map(\.name.count).max() ?? 10, 16)
    Swift.print(
      "\nqueries: the same \(workload.social.documents.count) posts (users/{uid}/posts, "
        + "\(workload.social.users.count) users) in Hearth and in SQLite \(String(cString: sqlite3_libversion())) "
        + "(JSON text, expression indexes); "
        + "median of \(max(arguments.queries, 1)) runs of ≥\(Int(repetitionSeconds * 1000)) ms over "
        + "\(workload.choices) random parameter choices"
        + (rows.contains { $0.name == loadName } ? " (bulk load: median of \(max(arguments.loads, 1)) loads)" : ""))
    Swift.print(
      "raw LMDB: the same JSON text by hand through LMDB's C API, with an index of order-preserving keys per query "
        + "(the floor for any LMDB-based design); its read transaction renewed per query as Hearth's are, "
        + "and, under 'LMDB begun', begun and aborted per query\n")
    Swift.print(
      "query".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + pad("Hearth", 12) + pad("SQLite", 12)
        + pad("raw LMDB", 12) + pad("LMDB begun", 12) + pad("Hearth/SQLite", 15) + pad("LMDB/SQLite", 13)
        + pad("Hearth/LMDB", 13) + pad("results", 9))
    for row in rows {
      Swift.print(
        row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + pad(formatRate(row.hearth), 12)
          + pad(formatRate(row.sqlite), 12) + pad(formatRate(row.rawLMDB), 12)
          + pad(row.rawLMDBBegun.map(formatRate) ?? "", 12)
          + pad(String(format: "%.2f×", row.hearth / row.sqlite), 15)
          + pad(String(format: "%.2f×", row.rawLMDB / row.sqlite), 13)
          + pad(String(format: "%.2f×", row.hearth / row.rawLMDB), 13)
          + pad(row.results.map { String(format: "%.1f", $0) } ?? "", 9))
    }
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func formatRate(_ value: Double) -> String {
  value >= 1e6
    ? String(format: "%.2fM/s", value / 1e6)
    : value >= 1e3 ? String(format: "%.1fk/s", value / 1e3) : String(format: "%.0f/s", value)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("hearth-bench: \(message)\n".utf8))
  exit(1)
}
