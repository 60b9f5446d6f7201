import CSQLite
import Foundation
import Hearth

/// The query section's rows after the bulk load: each asks both databases the same
/// question with the same parameter choice.
enum QueryKind: Int, CaseIterable {
  case pointGet
  case userFeed
  case groupFeed
  case range
  case inOwners
  case arrayContains
  case countUser
  case countGroup
  case countRangeUser
  case countRangeGroup
  case countCompositeUser
  case countCompositeGroup
  case feedData
  case feedCodable
  case tagData
  case rangeData

  /// The row's name (what `--only` matches).
  var name: String {
    switch self {
    case .pointGet: "point get (random post)"
    case .userFeed: "== + order desc + limit 20 (users/X/posts)"
    case .groupFeed: "== + order desc + limit 20 (group posts)"
    case .range: "range likes [a, b) limit 50 (group posts)"
    case .inOwners: "in [5 owners] + order desc + limit 20 (group)"
    case .arrayContains: "array-contains tag, limit 20 (group posts)"
    case .countUser: "count published == true (users/X/posts)"
    case .countGroup: "count published == true (group posts)"
    case .countRangeUser: "count likes >= a (users/X/posts)"
    case .countRangeGroup: "count likes >= a (group posts)"
    case .countCompositeUser: "count == + createdAt >= t (users/X/posts)"
    case .countCompositeGroup: "count == + createdAt >= t (group posts)"
    case .feedData: "feed page → data() / JSONSerialization"
    case .feedCodable: "feed page → Codable Post / JSONDecoder"
    case .tagData: "tag page → data() / JSONSerialization"
    case .rangeData: "range page → data() / JSONSerialization"
    }
  }

  /// Whether each result is decoded as a dictionary (`data()`, `JSONSerialization`).
  var decodesDictionaries: Bool { self == .feedData || self == .tagData || self == .rangeData }

  /// The query whose results a row reads. A materialised row asks the question of
  /// `userFeed` (or `arrayContains`, `range`) and then decodes every result: Hearth's
  /// `data()` or `data(as: Post.self)`, the others' JSON text parsed by
  /// `JSONSerialization` or decoded by `JSONDecoder` into the same struct (issue 16's
  /// materialised comparison).
  var question: QueryKind {
    switch self {
    case .feedData, .feedCodable: .userFeed
    case .tagData: .arrayContains
    case .rangeData: .range
    default: self
    }
  }

  var isCount: Bool {
    switch self {
    case .countUser, .countGroup, .countRangeUser, .countRangeGroup, .countCompositeUser, .countCompositeGroup: true
    default: false
    }
  }
}

/// Hearth through its public API: queries are built per call, as an app builds them
/// (Firestore's API has no bound parameters), and return snapshots that hold each
/// document's verified bytes (fields are decoded on first use, so neither side decodes).
final class HearthQuerySubject {
  let database: Database
  let workload: QueryWorkload

  init(directory: String, workload: QueryWorkload) throws {
    database = try Database(path: directory)
    self.workload = workload
    // The workload's indexes, declared before the load so that it maintains them (as
    // SQLite's are created before its load).
    try database.declareIndexes(json: QueryWorkload.indexesJSON)
  }

  /// Sets every post, 1,000 per batch, as the first table's batched set does.
  func load() throws {
    let documents = workload.social.documents
    for start in stride(from: 0, to: documents.count, by: 1000) {
      let batch = database.batch()
      for index in start..<min(start + 1000, documents.count) {
        batch.setData(documents[index].fields, forDocument: database.document(documents[index].path))
      }
      try batch.commit()
    }
  }

  private func query(_ kind: QueryKind, _ choice: Int) -> Query {
    // Made only by the questions that ask it (building a query is part of what is timed).
    func group() -> Query { database.collectionGroup("posts") }
    switch kind.question {
    case .pointGet, .feedData, .feedCodable, .tagData, .rangeData:
      preconditionFailure("a point get is not a query; a materialised row asks its question")
    case .userFeed:
      let owner = workload.owners[choice]
      return database.collection("users/\(owner)/posts").whereField("ownerId", isEqualTo: owner)
        .order(by: "createdAt", descending: true).limit(to: 20)
    case .groupFeed:
      return group().whereField("ownerId", isEqualTo: workload.owners[choice])
        .order(by: "createdAt", descending: true).limit(to: 20)
    case .range:
      let (low, high) = workload.likeRanges[choice]
      return group().whereField("likes", isGreaterThanOrEqualTo: low).whereField("likes", isLessThan: high)
        .limit(to: 50)
    case .inOwners:
      return group().whereField("ownerId", in: workload.ownerSets[choice])
        .order(by: "createdAt", descending: true).limit(to: 20)
    case .arrayContains:
      return group().whereField("tags", arrayContains: workload.tags[choice]).limit(to: 20)
    case .countUser:
      return database.collection("users/\(workload.owners[choice])/posts").whereField("published", isEqualTo: true)
    case .countGroup:
      return group().whereField("published", isEqualTo: true)
    case .countRangeUser:
      return database.collection("users/\(workload.owners[choice])/posts")
        .whereField("likes", isGreaterThanOrEqualTo: workload.likeFloors[choice])
    case .countRangeGroup:
      return group().whereField("likes", isGreaterThanOrEqualTo: workload.likeFloors[choice])
    case .countCompositeUser:
      let owner = workload.owners[choice]
      return database.collection("users/\(owner)/posts").whereField("ownerId", isEqualTo: owner)
        .whereField("createdAt", isGreaterThanOrEqualTo: workload.createdFloor(choice))
    case .countCompositeGroup:
      return group().whereField("ownerId", isEqualTo: workload.owners[choice])
        .whereField("createdAt", isGreaterThanOrEqualTo: workload.createdFloor(choice))
    }
  }

  /// Runs one query; returns its number of results (the count, for a count).
  func run(_ kind: QueryKind, _ choice: Int) throws -> Int {
    switch kind {
    case .pointGet: return try database.document(workload.paths[choice]).getDocument().exists ? 1 : 0
    case _ where kind.isCount: return try query(kind, choice).count.getAggregation().count.intValue
    case .feedData, .tagData, .rangeData:
      let documents = try query(kind, choice).getDocuments().documents
      var fields = 0
      for document in documents { fields += document.data().count }
      precondition(fields == documents.count * 8)
      return documents.count
    case .feedCodable:
      let documents = try query(kind, choice).getDocuments().documents
      var likes = 0
      for document in documents { likes &+= try document.data(as: Post.self).likes }
      _ = likes
      return documents.count
    default: return try query(kind, choice).getDocuments().count
    }
  }

  /// The results' paths in order (the count, for a count), to compare with SQLite's.
  func results(_ kind: QueryKind, _ choice: Int) throws -> [String] {
    switch kind {
    case .pointGet:
      let snapshot = try database.document(workload.paths[choice]).getDocument()
      return snapshot.exists ? [snapshot.reference.path] : []
    case _ where kind.isCount: return ["count \(try run(kind, choice))"]
    default: return try query(kind, choice).getDocuments().documents.map(\.reference.path)
    }
  }

  /// `explain()`, with runs of identical plan steps (one per collection of a group)
  /// written once with their number.
  func explain(_ kind: QueryKind, _ choice: Int) throws -> String {
    if kind == .pointGet { return "document read by key" }
    let explanation = try kind.isCount ? query(kind, choice).count.explain() : query(kind, choice).explain()
    var steps: [(String, Int)] = []
    for step in explanation.plan.components(separatedBy: "; ") {
      if steps.last?.0 == step { steps[steps.count - 1].1 += 1 } else { steps.append((step, 1)) }
    }
    let plan = steps.map { $0.1 == 1 ? $0.0 : "\($0.0) ×\($0.1)" }.joined(separator: "; ")
    return "\(plan): \(explanation.indexEntriesRead) index entries and \(explanation.documentsRead) documents read, "
      + "\(explanation.resultsReturned) returned"
  }

  func close() { database.close() }
}

/// SQLite as an app would use it for the same documents: JSON text in one table beside
/// the path and collection columns, expression indexes on exactly the fields the workload
/// queries, prepared statements with bound parameters. Durability as Hearth's default
/// (WAL, `synchronous=FULL`); the read-side tuning a careful app applies (a 64 MB page
/// cache, memory-mapped reads, in-memory temporary sorts).
final class SQLiteQuerySubject {
  private var db: OpaquePointer?
  let workload: QueryWorkload
  private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  private var statements: [OpaquePointer?] = []

  static let schema = [
    "CREATE TABLE documents (path TEXT PRIMARY KEY, parent TEXT NOT NULL, collection_id TEXT NOT NULL, "
      + "data TEXT NOT NULL) WITHOUT ROWID",
    // `ownerId == X order by createdAt desc` in one user's collection.
    "CREATE INDEX documents_parent_owner_created ON documents "
      + "(parent, json_extract(data, '$.ownerId'), json_extract(data, '$.createdAt'))",
    // The same over the collection group, and `ownerId in [...]`.
    "CREATE INDEX documents_group_owner_created ON documents "
      + "(collection_id, json_extract(data, '$.ownerId'), json_extract(data, '$.createdAt'))",
    "CREATE INDEX documents_group_likes ON documents (collection_id, json_extract(data, '$.likes'))",
    "CREATE INDEX documents_parent_published ON documents (parent, json_extract(data, '$.published'))",
    "CREATE INDEX documents_parent_likes ON documents (parent, json_extract(data, '$.likes'))",
    "CREATE INDEX documents_group_published ON documents (collection_id, json_extract(data, '$.published'))",
    // Array membership: SQLite cannot index inside a JSON array (`json_each` in an EXISTS
    // is a per-row scan), so the common practice for an indexed tag lookup is a side table
    // kept in step with the document, one row per distinct element, in the same
    // transaction. It is the same work Hearth does for its array-contains entries.
    "CREATE TABLE document_tags (path TEXT NOT NULL, collection_id TEXT NOT NULL, tag TEXT NOT NULL, "
      + "PRIMARY KEY (path, tag)) WITHOUT ROWID",
    "CREATE INDEX document_tags_group_tag ON document_tags (collection_id, tag, path)",
  ]

  /// Each query kind's statement. The order-bys spell out Firestore's normalised order
  /// (the last direction applied to the path) so that both return the same documents in
  /// the same order; paths of this workload compare the same bytewise as by segment.
  private static func sql(_ kind: QueryKind) -> String {
    let owner = "json_extract(data, '$.ownerId')"
    let created = "json_extract(data, '$.createdAt')"
    let likes = "json_extract(data, '$.likes')"
    let published = "json_extract(data, '$.published')"
    switch kind {
    case .feedData, .feedCodable, .tagData, .rangeData:
      return sql(kind.question)
    case .pointGet:
      return "SELECT path, data FROM documents WHERE path = ?1"
    case .userFeed:
      return "SELECT path, data FROM documents WHERE parent = ?1 AND \(owner) = ?2 "
        + "ORDER BY \(created) DESC, path DESC LIMIT 20"
    case .groupFeed:
      return "SELECT path, data FROM documents WHERE collection_id = 'posts' AND \(owner) = ?1 "
        + "ORDER BY \(created) DESC, path DESC LIMIT 20"
    case .range:
      return "SELECT path, data FROM documents WHERE collection_id = 'posts' AND \(likes) >= ?1 AND \(likes) < ?2 "
        + "ORDER BY \(likes), path LIMIT 50"
    case .inOwners:
      return "SELECT path, data FROM documents WHERE collection_id = 'posts' AND \(owner) IN (?1, ?2, ?3, ?4, ?5) "
        + "ORDER BY \(created) DESC, path DESC LIMIT 20"
    case .arrayContains:
      return "SELECT d.path, d.data FROM document_tags t JOIN documents d ON d.path = t.path "
        + "WHERE t.collection_id = 'posts' AND t.tag = ?1 ORDER BY t.path LIMIT 20"
    case .countUser:
      return "SELECT count(*) FROM documents WHERE parent = ?1 AND \(published) = 1"
    case .countGroup:
      return "SELECT count(*) FROM documents WHERE collection_id = 'posts' AND \(published) = 1"
    case .countRangeUser:
      return "SELECT count(*) FROM documents WHERE parent = ?1 AND \(likes) >= ?2"
    case .countRangeGroup:
      return "SELECT count(*) FROM documents WHERE collection_id = 'posts' AND \(likes) >= ?1"
    case .countCompositeUser:
      return "SELECT count(*) FROM documents WHERE parent = ?1 AND \(owner) = ?2 AND \(created) >= ?3"
    case .countCompositeGroup:
      return "SELECT count(*) FROM documents WHERE collection_id = 'posts' AND \(owner) = ?1 AND \(created) >= ?2"
    }
  }

  init(path: String, workload: QueryWorkload) throws {
    self.workload = workload
    precondition(sqlite3_open(path, &db) == SQLITE_OK)
    execute("PRAGMA journal_mode=WAL")
    execute("PRAGMA synchronous=FULL")
    execute("PRAGMA cache_size=-65536")
    execute("PRAGMA mmap_size=1073741824")
    execute("PRAGMA temp_store=MEMORY")
    for statement in Self.schema { execute(statement) }
    statements = QueryKind.allCases.map { prepare(Self.sql($0)) }
  }

  private func execute(_ sql: String) {
    precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
  }

  private func prepare(_ sql: String) -> OpaquePointer? {
    var statement: OpaquePointer?
    precondition(
      sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(db)))")
    return statement
  }

  private func bind(_ statement: OpaquePointer?, _ index: Int32, _ text: String) {
    precondition(sqlite3_bind_text(statement, index, text, -1, transient) == SQLITE_OK)
  }

  private func step(_ statement: OpaquePointer?) {
    precondition(sqlite3_step(statement) == SQLITE_DONE, String(cString: sqlite3_errmsg(db)))
    sqlite3_reset(statement)
  }

  /// Sets every post, 1,000 per transaction, with set's meaning (replace the document and
  /// its tags): the same batches as Hearth's load.
  func load() throws {
    let deleteTags = prepare("DELETE FROM document_tags WHERE path = ?1")
    let insertDocument = prepare(
      "INSERT OR REPLACE INTO documents (path, parent, collection_id, data) VALUES (?1, ?2, ?3, ?4)")
    let insertTag = prepare("INSERT OR IGNORE INTO document_tags (path, collection_id, tag) VALUES (?1, ?2, ?3)")
    defer { for statement in [deleteTags, insertDocument, insertTag] { sqlite3_finalize(statement) } }
    let rows = workload.rows
    for start in stride(from: 0, to: rows.count, by: 1000) {
      execute("BEGIN")
      for row in rows[start..<min(start + 1000, rows.count)] {
        bind(deleteTags, 1, row.path)
        step(deleteTags)
        bind(insertDocument, 1, row.path)
        bind(insertDocument, 2, row.parent)
        bind(insertDocument, 3, row.collectionID)
        bind(insertDocument, 4, row.json)
        step(insertDocument)
        for tag in row.tags {
          bind(insertTag, 1, row.path)
          bind(insertTag, 2, row.collectionID)
          bind(insertTag, 3, tag)
          step(insertTag)
        }
      }
      execute("COMMIT")
    }
  }

  /// Moves the load's pages from the write-ahead log into the database file (outside the
  /// timing): the steady state a long-running app's reads see.
  func checkpoint() { execute("PRAGMA wal_checkpoint(TRUNCATE)") }

  private func bindParameters(_ kind: QueryKind, _ choice: Int) -> OpaquePointer? {
    let statement = statements[kind.question.rawValue]
    switch kind.question {
    case .pointGet: bind(statement, 1, workload.paths[choice])
    case .userFeed:
      let owner = workload.owners[choice]
      bind(statement, 1, "users/\(owner)/posts")
      bind(statement, 2, owner)
    case .groupFeed: bind(statement, 1, workload.owners[choice])
    case .range:
      let (low, high) = workload.likeRanges[choice]
      sqlite3_bind_int64(statement, 1, low)
      sqlite3_bind_int64(statement, 2, high)
    case .inOwners:
      for (index, owner) in workload.ownerSets[choice].enumerated() { bind(statement, Int32(index + 1), owner) }
    case .arrayContains: bind(statement, 1, workload.tags[choice])
    case .countUser: bind(statement, 1, "users/\(workload.owners[choice])/posts")
    case .countGroup: break
    case .countRangeUser:
      bind(statement, 1, "users/\(workload.owners[choice])/posts")
      sqlite3_bind_int64(statement, 2, workload.likeFloors[choice])
    case .countRangeGroup: sqlite3_bind_int64(statement, 1, workload.likeFloors[choice])
    case .countCompositeUser:
      let owner = workload.owners[choice]
      bind(statement, 1, "users/\(owner)/posts")
      bind(statement, 2, owner)
      sqlite3_bind_int64(statement, 3, workload.createdFloorMicros(choice))
    case .countCompositeGroup:
      bind(statement, 1, workload.owners[choice])
      sqlite3_bind_int64(statement, 2, workload.createdFloorMicros(choice))
    case .feedData, .feedCodable, .tagData, .rangeData:
      preconditionFailure("a materialised row asks its question's statement")
    }
    return statement
  }

  /// Runs one query, copying out each row's path and JSON text (as Hearth's snapshots
  /// hold each document's key and bytes); returns the number of rows (the count, for a
  /// count).
  func run(_ kind: QueryKind, _ choice: Int) -> Int {
    let statement = bindParameters(kind, choice)
    defer { sqlite3_reset(statement) }
    if kind.isCount {
      precondition(sqlite3_step(statement) == SQLITE_ROW)
      return Int(sqlite3_column_int64(statement, 0))
    }
    var rows = 0
    var bytes = 0
    var decoder = PostDecoder()
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { break }
      precondition(status == SQLITE_ROW, String(cString: sqlite3_errmsg(db)))
      var copies: [[UInt8]] = []
      for column in Int32(0)..<2 {
        let size = Int(sqlite3_column_bytes(statement, column))
        copies.append([UInt8](UnsafeRawBufferPointer(start: sqlite3_column_text(statement, column), count: size)))
      }
      bytes += copies[0].count + copies[1].count
      decoder.materialise(kind, path: copies[0], json: copies[1])
      rows += 1
    }
    precondition(rows == 0 || bytes > 0)
    return rows
  }

  func results(_ kind: QueryKind, _ choice: Int) -> [String] {
    let statement = bindParameters(kind, choice)
    defer { sqlite3_reset(statement) }
    if kind.isCount {
      precondition(sqlite3_step(statement) == SQLITE_ROW)
      return ["count \(sqlite3_column_int64(statement, 0))"]
    }
    var paths: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW { paths.append(String(cString: sqlite3_column_text(statement, 0))) }
    return paths
  }

  /// `EXPLAIN QUERY PLAN`, one step a line.
  func plan(_ kind: QueryKind) -> [String] {
    let statement = prepare("EXPLAIN QUERY PLAN " + Self.sql(kind))
    defer { sqlite3_finalize(statement) }
    var lines: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW { lines.append(String(cString: sqlite3_column_text(statement, 3))) }
    return lines
  }

  func close() {
    for statement in statements { sqlite3_finalize(statement) }
    statements = []
    sqlite3_close(db)
  }
}

/// What the materialised rows do with each result's JSON text on the SQLite and raw-LMDB
/// sides: `JSONSerialization` into a dictionary (beside Hearth's `data()`), or
/// `JSONDecoder` into `Post` (beside `data(as: Post.self)`), the ID from the path as
/// `@DocumentID` gives it and `createdAt` from its microseconds.
struct PostDecoder {
  private let decoder = JSONDecoder()

  /// The JSON shape of a post (`createdAt` in microseconds).
  private struct Row: Decodable {
    var ownerId: String
    var title: String
    var body: String
    var createdAt: Int64
    var likes: Int
    var tags: [String]
    var ratings: [String: String]
    var published: Bool
  }

  mutating func materialise(_ kind: QueryKind, path: [UInt8], json: [UInt8]) {
    switch kind {
    case _ where kind.decodesDictionaries:
      let fields = try! JSONSerialization.jsonObject(with: Data(json)) as! [String: Any]
      precondition(fields.count == 8)
    case .feedCodable:
      let row = try! decoder.decode(Row.self, from: Data(json))
      let id = String(decoding: path.split(separator: UInt8(ascii: "/")).last!, as: UTF8.self)
      let post = Post(
        id: id, ownerId: row.ownerId, title: row.title, body: row.body,
        createdAt: Date(timeIntervalSince1970: Double(row.createdAt) / 1e6), likes: row.likes, tags: row.tags,
        ratings: row.ratings, published: row.published)
      precondition(post.id != nil)
    default:
      break
    }
  }
}
