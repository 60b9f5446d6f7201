import CSQLite
import Foundation
import Hearth

/// SQLite keeping what Firestore's automatic indexes keep: beside each post's row, one
/// row of an `entries` table per index entry Hearth writes for it (each field's value;
/// an array's value and each of its elements; a map's value and each of its fields: 14
/// a post), keyed as Hearth's are, by collection, field, value and document ID. WAL,
/// `synchronous=FULL`, loaded with the workload's posts before any row is timed.
///
/// The first table's durable rows weigh Hearth, which must write those entries, against
/// SQLite with one row a post and no index; this side is the like-for-like one.
final class IndexedSQLiteSubject {
  private var db: OpaquePointer?
  let path: String
  let workload: SocialWorkload
  /// One connection a writer thread, each with its statements prepared.
  private var writers: [Writer] = []

  /// A connection and its statements: `BEGIN IMMEDIATE` (a writer takes the write lock
  /// first, so that two never deadlock upgrading), the post's row, an entry, `COMMIT`.
  private struct Writer {
    let connection: OpaquePointer?
    let begin: OpaquePointer?
    let document: OpaquePointer?
    let entry: OpaquePointer?
    let commit: OpaquePointer?
  }

  /// One index entry's field (`tags[]` for an array's elements, `ratings.user1` for a
  /// map's fields) and value.
  private struct Entry {
    let field: String
    let value: Scalar
  }

  private enum Scalar {
    case text(String)
    case integer(Int64)
  }

  init(path: String, workload: SocialWorkload) throws {
    self.path = path
    self.workload = workload
    precondition(sqlite3_open(path, &db) == SQLITE_OK)
    for sql in [
      "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
      "CREATE TABLE documents (path TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID",
      "CREATE TABLE entries (collection TEXT, field TEXT, value, id TEXT, PRIMARY KEY (collection, field, value, id)) "
        + "WITHOUT ROWID",
    ] {
      precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }
    let loader = Self.writer(db)
    for start in stride(from: 0, to: workload.documents.count, by: 1000) {
      step(loader.begin)
      for index in start..<min(start + 1000, workload.documents.count) {
        let document = workload.documents[index]
        write(loader, path: document.path, index: index)
      }
      step(loader.commit)
    }
    Self.finalize(loader)
    precondition(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil) == SQLITE_OK)
  }

  /// Single durable commits, each of a post and its entries, as Hearth's row makes them.
  func durableInserts(_ count: Int, round: Int) throws {
    let writer = Self.writer(db)
    defer { Self.finalize(writer) }
    for index in 0..<count {
      step(writer.begin)
      write(writer, path: "durable\(round)/d\(index)", index: index % workload.documents.count)
      step(writer.commit)
    }
  }

  /// `threads` threads, each with its own connection, each committing its own posts one
  /// a transaction; SQLite serializes them on its write lock, each commit with its sync.
  func parallelDurableInserts(threads: Int, _ count: Int, round: Int) throws {
    while writers.count < threads {
      var connection: OpaquePointer?
      precondition(sqlite3_open(path, &connection) == SQLITE_OK)
      sqlite3_busy_timeout(connection, 60_000)
      precondition(sqlite3_exec(connection, "PRAGMA synchronous=FULL", nil, nil, nil) == SQLITE_OK)
      writers.append(Self.writer(connection))
    }
    let subject = Unchecked(self)
    try onThreads(threads) { thread in
      let writer = subject.value.writers[thread]
      for index in stride(from: thread, to: count, by: threads) {
        subject.value.step(writer.begin)
        subject.value.write(
          writer, path: "parallel\(round)/t\(thread)-d\(index)",
          index: index % subject.value.workload.documents.count)
        subject.value.step(writer.commit)
      }
    }
  }

  func close() {
    for writer in writers {
      Self.finalize(writer)
      sqlite3_close(writer.connection)
    }
    sqlite3_close(db)
  }

  /// Writes the workload's post `index` at `path`, with its entries.
  private func write(_ writer: Writer, path: String, index: Int) {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    sqlite3_bind_text(writer.document, 1, path, -1, transient)
    _ = workload.documents[index].encoded.withUnsafeBytes {
      sqlite3_bind_blob(writer.document, 2, $0.baseAddress, Int32($0.count), transient)
    }
    step(writer.document)
    let slash = path.lastIndex(of: "/")!
    let collection = String(path[..<slash])
    let id = String(path[path.index(after: slash)...])
    for entry in Self.entries(workload.documents[index].fields) {
      sqlite3_bind_text(writer.entry, 1, collection, -1, transient)
      sqlite3_bind_text(writer.entry, 2, entry.field, -1, transient)
      switch entry.value {
      case .text(let text): sqlite3_bind_text(writer.entry, 3, text, -1, transient)
      case .integer(let integer): sqlite3_bind_int64(writer.entry, 3, integer)
      }
      sqlite3_bind_text(writer.entry, 4, id, -1, transient)
      step(writer.entry)
    }
  }

  /// The entries Firestore's automatic indexes keep for a post's fields.
  private static func entries(_ fields: [String: Any]) -> [Entry] {
    var entries: [Entry] = []
    for (name, value) in fields {
      switch value {
      case let elements as [String]:
        entries.append(Entry(field: name, value: .text(elements.joined(separator: "\u{1}"))))
        entries += elements.map { Entry(field: name + "[]", value: .text($0)) }
      case let map as [String: String]:
        let pairs = map.sorted { $0.key < $1.key }
        entries.append(
          Entry(field: name, value: .text(pairs.map { $0.key + "=" + $0.value }.joined(separator: "\u{1}"))))
        entries += pairs.map { Entry(field: name + "." + $0.key, value: .text($0.value)) }
      case let text as String: entries.append(Entry(field: name, value: .text(text)))
      case let integer as Int64: entries.append(Entry(field: name, value: .integer(integer)))
      case let flag as Bool: entries.append(Entry(field: name, value: .integer(flag ? 1 : 0)))
      case let time as Timestamp:
        entries.append(Entry(field: name, value: .integer(time.seconds * 1_000_000 + Int64(time.nanoseconds / 1000))))
      default: preconditionFailure("a post's field of an unexpected type: \(name)")
      }
    }
    return entries
  }

  private static func writer(_ connection: OpaquePointer?) -> Writer {
    func prepare(_ sql: String) -> OpaquePointer? {
      var statement: OpaquePointer?
      precondition(sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK)
      return statement
    }
    return Writer(
      connection: connection, begin: prepare("BEGIN IMMEDIATE"),
      document: prepare("INSERT OR REPLACE INTO documents VALUES (?, ?)"),
      entry: prepare("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)"), commit: prepare("COMMIT"))
  }

  private static func finalize(_ writer: Writer) {
    for statement in [writer.begin, writer.document, writer.entry, writer.commit] { sqlite3_finalize(statement) }
  }

  private func step(_ statement: OpaquePointer?) {
    let rc = sqlite3_step(statement)
    precondition(rc == SQLITE_DONE, String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))))
    sqlite3_reset(statement)
  }
}
