import Foundation
import Hearth

extension Expected {
  /// The value as `[String: Any]` data holds it.
  var any: Any {
    switch self {
    case .int(let value): value
    case .string(let value): value
    case .array(let elements): elements.map(\.any)
    case .map(let fields): fields.mapValues(\.any)
    case .commitTime: FieldValue.serverTimestamp()
    }
  }
}

extension Input {
  /// The value or sentinel as `[String: Any]` data holds it.
  var any: Any {
    switch self {
    case .value(let value): value.any
    case .map(let fields): fields.mapValues(\.any)
    case .increment(let amount): FieldValue.increment(amount)
    case .arrayUnion(let elements): FieldValue.arrayUnion(elements.map(\.any))
    case .serverTimestamp: FieldValue.serverTimestamp()
    }
  }
}

/// `writer DB LOG SEED [COMMITS]`: makes durable commits until killed (or until the log
/// holds COMMITS), logging each one after it returns. Prints `writing from commit N` once
/// it has opened the database and settled the log.
enum Writer {
  static func run(path: String, logPath: String, seed: UInt64, limit: Int?) throws {
    var log = try CommitLog.read(logPath) ?? CommitLog.create(logPath, seed: seed)
    guard log.seed == seed else { throw TortureError("\(logPath) is the log of seed \(log.seed), not \(seed)") }
    let appender = try LogAppender(log)
    let db = try Database(path: path)
    defer { db.close() }
    var model = Verifier.model(of: log)

    // The commit after the log's last may have reached the database before the last
    // writer was killed: it then joins the log, so that the next commit starts from the
    // state the database holds.
    switch Verifier.settle(try Observed(db), model, log: log) {
    case .logged: break
    case .nextToo(let next):
      try appender.append("\(log.count + 1) found")
      log.count += 1
      model = next
    case .neither(let problems, _):
      throw TortureError(
        "the database holds neither the log's \(log.count) commits nor one more:\n  "
          + problems.prefix(20).joined(separator: "\n  "))
    }

    printLine("writing from commit \(log.count + 1)")
    while limit.map({ log.count < $0 }) ?? true {
      let n = log.count + 1
      let commit = model.commit(n, seed: seed)
      try perform(commit, n, model: model, on: db)
      try appender.append("\(n)")
      log.count = n
      for write in model.writes(of: commit, n) { model.apply(write, n) }
    }
  }

  /// Makes commit `n` through the public API.
  static func perform(_ commit: Commit, _ n: Int, model: Model, on db: Database) throws {
    switch commit {
    case .single(let write):
      let document = db.document(write.path)
      let data = write.data.mapValues(\.any)
      switch write.kind {
      case .set: try document.setData(data)
      case .merge: try document.setData(data, merge: true)
      case .mergeFields(let fields): try document.setData(data, mergeFields: fields)
      case .update: try document.updateData(fieldPaths(data))
      case .delete: try document.delete()
      }
    case .batch(let writes):
      let batch = db.batch()
      for write in writes {
        let document = db.document(write.path)
        let data = write.data.mapValues(\.any)
        switch write.kind {
        case .set: batch.setData(data, forDocument: document)
        case .merge: batch.setData(data, forDocument: document, merge: true)
        case .mergeFields(let fields): batch.setData(data, forDocument: document, mergeFields: fields)
        case .update: batch.updateData(fieldPaths(data), forDocument: document)
        case .delete: batch.deleteDocument(document)
        }
      }
      try batch.commit()
    case .transaction(let a, let b):
      // A read-modify-write: what it writes comes from what it read, which must be what
      // the model holds.
      let written = try db.runTransaction { transaction -> [DocumentWrite] in
        let first = try transaction.getDocument(db.document(a))
        let second = try transaction.getDocument(db.document(b))
        let writes = Model.transactionWrites(
          n, a, b, aExists: first.exists, aValue: first.get("v") as? Int64, bValue: second.get("v") as? Int64)
        for write in writes {
          let document = db.document(write.path)
          let data = write.data.mapValues(\.any)
          switch write.kind {
          case .set: transaction.setData(data, forDocument: document)
          case .merge: transaction.setData(data, forDocument: document, merge: true)
          case .mergeFields(let fields): transaction.setData(data, forDocument: document, mergeFields: fields)
          case .update: transaction.updateData(fieldPaths(data), forDocument: document)
          case .delete: transaction.deleteDocument(document)
          }
        }
        return writes
      }
      let expected = model.writes(of: commit, n)
      guard written == expected else {
        throw TortureError(
          "transaction \(n) read other documents than the model holds: it wrote \(written), expected \(expected)")
      }
    }
  }

  private static func fieldPaths(_ data: [String: Any]) -> [AnyHashable: Any] {
    Dictionary(uniqueKeysWithValues: data.map { (AnyHashable($0.key), $0.value) })
  }
}
