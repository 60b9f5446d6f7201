import Foundation
import Hearth

/// A document as read back.
struct ObservedDocument {
  var fields: [String: Any]
  var createTime: Timestamp
  var updateTime: Timestamp
}

/// What the database holds of the writer's documents.
struct Observed {
  var documents: [String: ObservedDocument] = [:]
  var rootCollections: [String] = []
  /// The top of `torture` by `lastSeq`, descending, through the index.
  var newest: [String] = []
  static let newestCount = 5

  init(_ db: Database) throws {
    let snapshots = [
      try db.collection("torture").getDocuments(), try db.collectionGroup("notes").getDocuments(),
      try db.collection("ledger").getDocuments(),
    ]
    for snapshot in snapshots {
      for document in snapshot.documents {
        documents[document.reference.path] = ObservedDocument(
          fields: document.data(), createTime: document.createTime ?? Timestamp(seconds: 0, nanoseconds: 0),
          updateTime: document.updateTime ?? Timestamp(seconds: 0, nanoseconds: 0))
      }
    }
    rootCollections = try db.listCollections().map(\.collectionID)
    newest = try db.collection("torture").whereField("lastSeq", isGreaterThanOrEqualTo: 0)
      .order(by: "lastSeq", descending: true).limit(to: Observed.newestCount).getDocuments().documents
      .map(\.reference.path)
  }
}

/// Compares the database with the model of the log's commits.
enum Verifier {
  /// The model after the log's commits.
  static func model(of log: CommitLog) -> Model { replay(log).model }

  /// The model after the log's commits, and how many commits of each kind they were.
  static func replay(_ log: CommitLog) -> (model: Model, kinds: [String: Int]) {
    var model = Model()
    var kinds: [String: Int] = [:]
    if log.count > 0 {
      for n in 1...log.count {
        let commit = model.commit(n, seed: log.seed)
        kinds[commit.kind, default: 0] += 1
        for write in model.writes(of: commit, n) { model.apply(write, n) }
      }
    }
    return (model, kinds)
  }

  /// Where the database stands against the log.
  enum Settlement {
    /// It holds exactly the log's commits.
    case logged
    /// It holds the log's commits and the next one, which ran but was not acknowledged.
    case nextToo(Model)
    /// Neither: the problems found against the log's commits, and against one more.
    case neither([String], [String])
  }

  static func settle(_ observed: Observed, _ model: Model, log: CommitLog) -> Settlement {
    let problems = differences(observed, model)
    if problems.isEmpty { return .logged }
    var next = model
    next.apply(log.count + 1, seed: log.seed)
    let nextProblems = differences(observed, next)
    if nextProblems.isEmpty { return .nextToo(next) }
    return .neither(problems, nextProblems)
  }

  /// Every way the database differs from the model: documents, fields, create and update
  /// times, commit times, and what an indexed query returns.
  static func differences(_ observed: Observed, _ model: Model) -> [String] {
    var problems: [String] = []
    var times: [Int: Timestamp] = [:]
    func time(_ sequence: Int, _ timestamp: Timestamp, _ what: String, in times: inout [Int: Timestamp]) {
      if let known = times[sequence], known != timestamp {
        problems.append("commit \(sequence) has two times: \(known) and \(timestamp) (\(what))")
      }
      times[sequence] = timestamp
    }
    // A serverTimestamp() is its commit's time to the millisecond (Firestore's precision).
    var stampTimes: [Int: Timestamp] = [:]
    for path in Set(observed.documents.keys).union(model.documents.keys).sorted() {
      switch (observed.documents[path], model.documents[path]) {
      case (nil, let expected?):
        problems.append("\(path) is missing; commit \(expected.updated) wrote it last")
      case (_?, nil):
        problems.append("\(path) exists; no logged commit leaves it")
      case (let actual?, let expected?):
        var stamps: [(Int, Timestamp)] = []
        compare(.map(expected.fields), actual.fields, at: path + ":", &problems, &stamps)
        for (sequence, timestamp) in stamps {
          time(sequence, timestamp, "\(path) serverTimestamp", in: &stampTimes)
        }
        time(expected.created, actual.createTime, "\(path) createTime", in: &times)
        time(expected.updated, actual.updateTime, "\(path) updateTime", in: &times)
      case (nil, nil): break
      }
    }
    for (sequence, stamp) in stampTimes.sorted(by: { $0.key < $1.key }) {
      if let time = times[sequence], stamp != time.inMilliseconds {
        problems.append("commit \(sequence)'s serverTimestamp \(stamp) is not its time \(time) to the millisecond")
      }
    }
    let ordered = times.sorted { $0.key < $1.key }
    for (earlier, later) in zip(ordered, ordered.dropFirst()) where earlier.value >= later.value {
      problems.append("commit \(later.key)'s time \(later.value) is not after commit \(earlier.key)'s \(earlier.value)")
    }
    let unexpected = Set(observed.rootCollections).subtracting(["torture", "ledger"])
    if !unexpected.isEmpty { problems.append("unexpected root collections \(unexpected.sorted())") }
    let newest = model.documents.filter { $0.key.split(separator: "/").count == 2 && $0.key.hasPrefix("torture/") }
      .compactMap { path, document -> (String, Int64)? in
        guard case .int(let sequence)? = document.fields["lastSeq"] else { return nil }
        return (path, sequence)
      }
      .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 > $1.0 }.prefix(Observed.newestCount).map(\.0)
    if observed.newest != newest {
      problems.append("the query on lastSeq (descending) returns \(observed.newest), expected \(newest)")
    }
    return problems
  }

  private static func compare(
    _ expected: Expected, _ actual: Any, at place: String, _ problems: inout [String],
    _ stamps: inout [(Int, Timestamp)]
  ) {
    func differ() { problems.append("\(place) is \(describe(actual)), expected \(expected)") }
    switch expected {
    case .int(let value):
      // Numbers read back as `NSNumber`s, and a whole double casts to `Int64` too: the
      // C type tells an integer.
      guard type(of: actual) is NSNumber.Type, let number = actual as? NSNumber,
        !["f", "d"].contains(String(cString: number.objCType)),
        number.int64Value == value
      else { return differ() }
    case .string(let value): if actual as? String != value { differ() }
    case .commitTime(let sequence):
      guard let timestamp = actual as? Timestamp else { return differ() }
      stamps.append((sequence, timestamp))
    case .array(let elements):
      guard let values = actual as? [Any], values.count == elements.count else { return differ() }
      for (index, (element, value)) in zip(elements, values).enumerated() {
        compare(element, value, at: "\(place)[\(index)]", &problems, &stamps)
      }
    case .map(let fields):
      guard let values = actual as? [String: Any] else { return differ() }
      for key in Set(fields.keys).union(values.keys).sorted() {
        let field = place.hasSuffix(":") ? "\(place) \(key)" : "\(place).\(key)"
        guard let element = fields[key] else {
          problems.append("\(field) is \(describe(values[key] as Any)), expected no such field")
          continue
        }
        guard let value = values[key] else {
          problems.append("\(field) is missing, expected \(element)")
          continue
        }
        compare(element, value, at: field, &problems, &stamps)
      }
    }
  }

  private static func describe(_ value: Any) -> String {
    let text = "\(value)"
    return text.count > 80 ? String(text.prefix(77)) + "..." : text
  }
}

extension Verifier {
  /// `verify DB LOG`: opens the database, runs `check`, and compares it with the log's
  /// commits; prints one JSON line. The commit after the log's last may be there or not
  /// (it may have committed before the kill); anything else is a failure.
  static func run(path: String, logPath: String) throws -> Bool {
    guard let log = try CommitLog.read(logPath) else { throw TortureError("no log at \(logPath)") }
    let started = Date()
    let db = try Database(path: path)
    defer { db.close() }
    let report = try db.check()
    let (model, kinds) = replay(log)
    let observed = try Observed(db)
    var problems = report.ok ? [] : ["check: " + report.problems.prefix(10).joined(separator: "; ")]
    var next = "absent"
    switch settle(observed, model, log: log) {
    case .logged: break
    case .nextToo: next = "present"
    case .neither(let logged, let oneMore):
      next = "?"
      problems.append(
        "against the \(log.count) logged commits: " + logged.prefix(10).joined(separator: "; ")
          + (logged.count > 10 ? "; ... (\(logged.count) in all)" : ""))
      problems.append(
        "against one more: " + oneMore.prefix(5).joined(separator: "; ")
          + (oneMore.count > 5 ? "; ... (\(oneMore.count) in all)" : ""))
    }
    printJSON([
      ("ok", .bool(problems.isEmpty)), ("acknowledged", .int(log.count)), ("found", .int(log.found)),
      ("nextCommit", .string(next)),
      ("kinds", .string(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))),
      ("documents", .int(observed.documents.count)),
      ("checkedDocuments", .int(report.documents)), ("indexEntries", .int(report.indexEntries)),
      ("seconds", .double(Date().timeIntervalSince(started))), ("problems", .string(problems.joined(separator: " | "))),
    ])
    return problems.isEmpty
  }
}

extension Timestamp {
  /// This time cut to whole milliseconds, as a `serverTimestamp()` holds its commit's.
  var inMilliseconds: Timestamp { Timestamp(seconds: seconds, nanoseconds: nanoseconds - nanoseconds % 1_000_000) }
}
