import CSQLite
import Foundation
import Hearth

/// The query section: Hearth and SQLite loaded with the same posts and the same indexes,
/// then asked the same questions with the same random parameter choices. Every figure is
/// the median of several repetitions, Hearth's and SQLite's taken in turns so that the
/// machine's noise falls on both; every answer is checked against the other side's.
struct QueryBench {
  struct Row {
    let name: String
    let hearth: Double
    let sqlite: Double
    /// Results per query (documents, or the count), the same on both sides.
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
    let (hearth, sqlite, load) = try loadBoth()
    defer {
      hearth.close()
      sqlite.close()
    }
    if measuresLoad { rows.append(load) }
    for kind in kinds {
      let verified = try verify(kind, hearth, sqlite)
      if arguments.explain { try explain(kind, hearth, sqlite) }
      rows.append(try measureQueries(kind, hearth, sqlite, results: verified))
    }
    return rows
  }

  /// Loads both databases `--loads` times into fresh files (only once when the load row
  /// is not selected) and keeps the last pair for the queries.
  private func loadBoth() throws -> (HearthQuerySubject, SQLiteQuerySubject, Row) {
    let count = workload.social.documents.count
    let repetitions = measuresLoad ? max(arguments.loads, 1) : 1
    var hearthRates: [Double] = []
    var sqliteRates: [Double] = []
    var kept: (HearthQuerySubject, SQLiteQuerySubject)?
    for repetition in 0..<repetitions {
      let hearthDirectory = root.appendingPathComponent("query-hearth-\(repetition)")
      let sqlitePath = root.appendingPathComponent("query-sqlite-\(repetition).db")
      let hearth = try HearthQuerySubject(directory: hearthDirectory.path, workload: workload)
      hearthRates.append(try hearth_bench.measure(count, hearth.load))
      let sqlite = try SQLiteQuerySubject(path: sqlitePath.path, workload: workload)
      sqliteRates.append(try hearth_bench.measure(count, sqlite.load))
      sqlite.checkpoint()
      if repetition == repetitions - 1 {
        kept = (hearth, sqlite)
      } else {
        hearth.close()
        sqlite.close()
        try? FileManager.default.removeItem(at: hearthDirectory)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sqlitePath.path + suffix) }
      }
    }
    let row = Row(name: Self.loadName, hearth: median(hearthRates), sqlite: median(sqliteRates), results: nil)
    return (kept!.0, kept!.1, row)
  }

  /// Compares the first `--verify` parameter choices' full answers, paths in order;
  /// returns the mean number of results. Also checks that SQLite's plan uses its indexes
  /// (a scan there would flatter Hearth).
  private func verify(_ kind: QueryKind, _ hearth: HearthQuerySubject, _ sqlite: SQLiteQuerySubject) throws
    -> Double
  {
    let plan = sqlite.plan(kind)
    if let scan = plan.first(where: { $0.hasPrefix("SCAN") }) {
      fail("SQLite scans for '\(kind.name)' (\(scan)): its indexes do not fit the query; plan: \(plan)")
    }
    let choices = kind == .countGroup ? 1 : max(1, min(arguments.verify, workload.choices))
    var total = 0
    for choice in 0..<choices {
      let expected = sqlite.results(kind, choice)
      let actual = try hearth.results(kind, choice)
      if actual != expected {
        let difference =
          zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          ?? min(actual.count, expected.count)
        let heading = "'\(kind.name)', parameter choice \(choice) (\(parameters(kind, choice)))"
        let counts = "Hearth returned \(actual.count) results, SQLite \(expected.count)"
        let from = "from result \(difference)"
        let hearthList = "Hearth: \(Array(actual.dropFirst(difference).prefix(5)))"
        let sqliteList = "SQLite: \(Array(expected.dropFirst(difference).prefix(5)))"
        fail("\(heading): \(counts); \(from)\n\(hearthList)\n\(sqliteList)")
      }
      total += kind.isCount ? sqlite.run(kind, choice) : expected.count
    }
    return Double(total) / Double(choices)
  }

  private func explain(_ kind: QueryKind, _ hearth: HearthQuerySubject, _ sqlite: SQLiteQuerySubject) throws {
    Swift.print("\(kind.name) [\(parameters(kind, 0))]")
    Swift.print("  Hearth: \(try hearth.explain(kind, 0))")
    for line in sqlite.plan(kind) { Swift.print("  SQLite: \(line)") }
  }

  /// The queries per second of each side, the median of `--queries` repetitions taken in
  /// turns; each repetition carries on through the parameter choices where the last
  /// stopped. Every result count is checked against the other side's for the same choice.
  private func measureQueries(
    _ kind: QueryKind, _ hearth: HearthQuerySubject, _ sqlite: SQLiteQuerySubject, results: Double
  )
    throws -> Row
  {
    var hearthRates: [Double] = []
    var sqliteRates: [Double] = []
    var hearthCounts = [Int](repeating: -1, count: workload.choices)
    var sqliteCounts = hearthCounts
    var hearthNext = 0
    var sqliteNext = 0
    for _ in 0..<max(arguments.queries, 1) {
      hearthRates.append(
        try repetition(&hearthNext, &hearthCounts, "Hearth", kind) { try hearth.run(kind, $0) })
      sqliteRates.append(repetition(&sqliteNext, &sqliteCounts, "SQLite", kind) { sqlite.run(kind, $0) })
    }
    for choice in 0..<workload.choices where hearthCounts[choice] >= 0 && sqliteCounts[choice] >= 0 {
      if hearthCounts[choice] != sqliteCounts[choice] {
        fail(
          "'\(kind.name)', parameter choice \(choice) (\(parameters(kind, choice))): Hearth counted "
            + "\(hearthCounts[choice]) results, SQLite \(sqliteCounts[choice])")
      }
    }
    return Row(name: kind.name, hearth: median(hearthRates), sqlite: median(sqliteRates), results: results)
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
    case .userFeed, .groupFeed, .countUser: "ownerId \(workload.owners[choice])"
    case .range: "likes \(workload.likeRanges[choice])"
    case .inOwners: "ownerId in \(workload.ownerSets[choice])"
    case .arrayContains: "tag \(workload.tags[choice])"
    case .countGroup: "no parameter"
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
        + (rows.contains { $0.name == loadName } ? " (bulk load: median of \(max(arguments.loads, 1)) loads)\n" : "\n"))
    Swift.print(
      "query".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + pad("Hearth", 12) + pad("SQLite", 12)
        + pad("Hearth/SQLite", 15) + pad("results", 9))
    for row in rows {
      Swift.print(
        row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + pad(formatRate(row.hearth), 12)
          + pad(formatRate(row.sqlite), 12) + pad(String(format: "%.2f×", row.hearth / row.sqlite), 15)
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
