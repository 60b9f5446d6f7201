import Foundation
import HearthCore
import Testing

@testable import HearthServer

/// The Firestore service without a transport: decoded requests in, responses out, on
/// databases in a fresh directory.
@Suite struct ServiceTests {
  static let database = DatabaseName(projectID: "demo", databaseID: "(default)")

  func withService(
    woundGrace: Duration = .zero, requireIndexes: Bool = false, _ body: (FirestoreService) throws -> Void
  ) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-serve-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = DocumentStore.Options()
    options.durable = false
    let databases = ServedDatabases(directory: directory, options: options)
    defer { databases.close() }
    try body(FirestoreService(databases: databases, requireIndexes: requireIndexes, woundGrace: woundGrace))
  }

  func key(_ path: String) throws -> DocumentKey { try DocumentKey(parsing: path) }

  func commit(_ service: FirestoreService, _ writes: [Write], transaction: Data = Data()) throws
    -> FirestoreV1.CommitResponse
  {
    try service.commit(
      FirestoreV1.CommitRequest(
        database: Self.database, writes: writes.map { FirestoreV1.Write($0) }, transaction: transaction))
  }

  func query(
    _ collection: String, filters: [QueryFilter] = [], orders: [OrderBy] = [], limit: Int? = nil, offset: Int32 = 0,
    select: [FieldPath]? = nil, group: Bool = false, parent: ResourcePath = .root
  ) -> FirestoreV1.StructuredQuery {
    var model = QueryModel(
      target: group ? .group(collection) : .collection(parent.appending(collection)))
    model.filters = filters
    model.explicitOrderBys = orders
    model.limit = limit
    return FirestoreV1.StructuredQuery(
      model: model, parent: parent, collectionID: collection, allDescendants: group, select: select, offset: offset)
  }

  /// How many documents `query` matches, as a count aggregation answers.
  func count(_ service: FirestoreService, _ query: FirestoreV1.StructuredQuery) throws -> Value? {
    try service.runAggregationQuery(
      FirestoreV1.RunAggregationQueryRequest(
        database: Self.database,
        query: FirestoreV1.StructuredAggregationQuery(
          query: query, aggregations: [FirestoreV1.Aggregation(function: .count, alias: "n")])
      )
    ).first?.result?["n"]
  }

  func names(_ responses: [FirestoreV1.RunQueryResponse]) -> [String] {
    responses.compactMap { $0.document?.key.path.canonical }
  }

  @Test func commitsAndReadsDocumentsWithFirestoresResults() throws {
    try withService { service in
      let sf = try key("cities/SF")
      let first = try commit(service, [Write(key: sf, kind: .set(["pop": .integer(860_000), "name": .string("SF")]))])
      #expect(first.writeResults.count == 1)
      #expect(first.writeResults[0].updateTime == first.commitTime)
      let transformed = try commit(
        service,
        [
          Write(
            key: sf, kind: .patch(fields: [:], mask: []),
            transforms: [FieldTransform(path: FieldPath(["pop"]), operation: .increment(.integer(1)))],
            precondition: .exists(true)),
          Write(key: try key("cities/LA"), kind: .delete),
        ])
      #expect(transformed.writeResults[0].transformResults.first?.isIdentical(to: .integer(860_001)) == true)
      #expect(transformed.writeResults[1].updateTime == nil)

      let got = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(
          database: Self.database, documents: [sf, try key("cities/LA")],
          mask: FirestoreV1.DocumentMask(fieldPaths: [FieldPath(["name"])])))
      #expect(got.count == 2)
      guard case .found(let document)? = got.first?.result else { throw Unexpected() }
      #expect(document.fields == ["name": .string("SF")])
      #expect(document.createTime == first.commitTime)
      #expect(document.updateTime == transformed.commitTime)
      #expect(got[1].result == .missing(try key("cities/LA")))
      #expect(got.allSatisfy { $0.readTime != nil })

      // A name asked again is answered once, in the order first asked.
      let again = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(
          database: Self.database, documents: [try key("cities/LA"), sf, try key("cities/LA"), sf]))
      #expect(again.count == 2)
      #expect(again.first?.result == .missing(try key("cities/LA")))
      guard case .found(let found)? = again.last?.result else { throw Unexpected() }
      #expect(found.key == sf)
    }
  }

  @Test func failedPreconditionsNameTheDocumentAsFirestoreDoes() throws {
    try withService { service in
      let missing = try key("made/for-update")
      let update = Write(
        key: missing, kind: .patch(fields: ["a": .integer(1)], mask: [FieldPath(["a"])]), precondition: .exists(true))
      let notFound = try #require(throws: HearthError.self) { try commit(service, [update]) }
      #expect(notFound.code == .notFound)
      #expect(notFound.message == "No document to update: projects/demo/databases/(default)/documents/made/for-update")

      let created = try commit(service, [Write(key: missing, kind: .set([:]), precondition: .exists(false))])
      let exists = try #require(throws: HearthError.self) {
        try commit(service, [Write(key: missing, kind: .set([:]), precondition: .exists(false))])
      }
      #expect(exists.code == .alreadyExists)
      #expect(exists.message.hasPrefix("Document already exists: projects/demo/databases/(default)/documents/made/"))

      let stale = Timestamp(microseconds: created.commitTime!.microseconds - 1)
      let failed = try #require(throws: HearthError.self) {
        try commit(service, [Write(key: missing, kind: .delete, precondition: .updateTime(stale))])
      }
      #expect(failed.code == .failedPrecondition)
      // A missing document's version is the epoch's, as on Google's emulator: a write
      // that requires that update time of one proceeds, and one that requires another fails.
      let gone = try key("made/never")
      let epoch = Timestamp(seconds: 0, nanoseconds: 0)
      _ = try commit(service, [Write(key: gone, kind: .delete, precondition: .updateTime(epoch))])
      let later = try #require(throws: HearthError.self) {
        try commit(service, [Write(key: gone, kind: .delete, precondition: .updateTime(stale))])
      }
      #expect(later.code == .failedPrecondition)
      // A write may not use a reserved ID, though a read may name one.
      let reserved = try #require(throws: HearthError.self) {
        try commit(service, [Write(key: try key("c/__x__"), kind: .set([:]))])
      }
      #expect(reserved.code == .invalidArgument)
    }
  }

  @Test func queriesHonourOffsetsProjectionsAndScopedGroups() throws {
    try withService { service in
      var writes: [Write] = []
      for i in 0..<6 {
        writes.append(Write(key: try key("posts/p\(i)"), kind: .set(["n": .integer(Int64(i)), "t": .string("x")])))
      }
      writes.append(Write(key: try key("users/a/posts/q1"), kind: .set(["n": .integer(10)])))
      writes.append(Write(key: try key("users/b/posts/q2"), kind: .set(["n": .integer(11)])))
      _ = try commit(service, writes)
      let n = FieldPath(["n"])

      let page = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database,
          query: query(
            "posts", filters: [.field(FieldFilter(field: n, op: .greaterThan, value: .integer(0)))],
            orders: [OrderBy(field: n, descending: true)], limit: 2, offset: 1, select: [n])))
      #expect(names(page) == ["posts/p4", "posts/p3"])
      #expect(page.allSatisfy { $0.document?.fields.keys.sorted() == ["n"] })

      let scoped = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database, query: query("posts", group: true, parent: ResourcePath(["users", "a"]))))
      #expect(names(scoped) == ["users/a/posts/q1"])

      let none = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database,
          query: query("posts", filters: [.field(FieldFilter(field: n, op: .equal, value: .integer(99)))])))
      #expect(none.count == 1 && none[0].document == nil && none[0].readTime != nil)

      // Firestore's rules are checked whatever the client sent.
      let twoInequalities = query(
        "posts",
        filters: [
          .field(FieldFilter(field: n, op: .notEqual, value: .integer(1))),
          .field(FieldFilter(field: FieldPath(["t"]), op: .notEqual, value: .string("y"))),
        ])
      let invalid = try #require(throws: HearthError.self) {
        try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: twoInequalities))
      }
      #expect(invalid.code == .invalidArgument)
    }
  }

  @Test func aQueryAcrossAllCollectionsListsEveryDocumentByName() throws {
    try withService { service in
      _ = try commit(
        service,
        try ["cities/SF", "cities/SF/landmarks/gg", "cities/NY", "other/x"].map {
          Write(key: try key($0), kind: .set(["a": .integer(1)]))
        })
      var all = query("", select: [FieldPath(["__name__"])], group: true)
      all.model.explicitOrderBys = [OrderBy(field: .documentID(), descending: false)]
      all.model.limit = 3
      let first = try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: all))
      #expect(names(first) == ["cities/NY", "cities/SF", "cities/SF/landmarks/gg"])
      #expect(first.allSatisfy { $0.document?.fields.isEmpty == true })
      all.model.startAt = Bound(values: [.reference(try key("cities/SF/landmarks/gg"))], inclusive: false)
      #expect(
        names(try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: all))) == ["other/x"])
      let below = query("", group: true, parent: ResourcePath(["cities", "SF"]))
      #expect(
        names(try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: below)))
          == ["cities/SF/landmarks/gg"])
    }
  }

  @Test func aggregationsAnswerUnderTheirAliases() throws {
    try withService { service in
      _ = try commit(
        service,
        try (1...4).map { Write(key: try key("c/d\($0)"), kind: .set(["n": .integer(Int64($0))])) })
      let n = FieldPath(["n"])
      func aggregate(_ aggregations: [FirestoreV1.Aggregation]) throws -> [String: Value]? {
        try service.runAggregationQuery(
          FirestoreV1.RunAggregationQueryRequest(
            database: Self.database,
            query: FirestoreV1.StructuredAggregationQuery(query: query("c"), aggregations: aggregations))
        ).first?.result
      }
      let result = try aggregate([
        FirestoreV1.Aggregation(function: .count, alias: ""),
        FirestoreV1.Aggregation(function: .sum(n), alias: "total"),
        FirestoreV1.Aggregation(function: .average(n), alias: ""),
        FirestoreV1.Aggregation(function: .count, alias: "some", countUpTo: 2),
      ])
      #expect(result?["field_1"] == .integer(4))
      #expect(result?["total"] == .integer(10))
      #expect(result?["field_3"] == .double(2.5))
      #expect(result?["some"] == .integer(2))
      // Limited and without an order of its own, a sum reads the field's smallest values,
      // as Firestore serves it from the field's index (Google's emulator answers the same).
      _ = try commit(
        service,
        try [("e1", 5), ("e2", 1), ("e3", 2), ("e4", 7), ("e5", 0)].map {
          Write(key: try key("e/\($0.0)"), kind: .set(["n": .integer($0.1)]))
        })
      var limited = query("e")
      limited.model.limit = 2
      let smallest = try service.runAggregationQuery(
        FirestoreV1.RunAggregationQueryRequest(
          database: Self.database,
          query: FirestoreV1.StructuredAggregationQuery(
            query: limited,
            aggregations: [
              FirestoreV1.Aggregation(function: .sum(n), alias: "s"),
              FirestoreV1.Aggregation(function: .count, alias: "c"),
            ]))
      ).first?.result
      #expect(smallest?["s"] == .integer(1))
      #expect(smallest?["c"] == .integer(2))
      let empty = try #require(throws: HearthError.self) { try aggregate([]) }
      #expect(empty.message == "Aggregations can not be empty")
      let duplicate = try #require(throws: HearthError.self) {
        try aggregate([
          FirestoreV1.Aggregation(function: .count, alias: "a"), FirestoreV1.Aggregation(function: .sum(n), alias: "a"),
        ])
      }
      #expect(duplicate.message.contains("Aggregation aliases contain duplicate alias"))
    }
  }

  @Test func listingCollectionsAndDocumentsShowsMissingParents() throws {
    try withService { service in
      _ = try commit(
        service,
        try ["cities/SF", "cities/SF/landmarks/gg", "cities/LA/landmarks/x"].map {
          Write(key: try key($0), kind: .set([:]))
        })
      let root = try service.listCollectionIDs(
        FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: .root))
      #expect(root.collectionIDs == ["cities"])
      let below = try service.listCollectionIDs(
        FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: ResourcePath(["cities", "SF"])))
      #expect(below.collectionIDs == ["landmarks"])
      let listed = try service.listDocuments(
        FirestoreV1.ListDocumentsRequest(
          database: Self.database, parent: .root, collectionID: "cities",
          mask: FirestoreV1.DocumentMask(fieldPaths: []),
          showMissing: true))
      #expect(listed.documents.map(\.key.path.canonical) == ["cities/LA", "cities/SF"])
      #expect(listed.documents[0].createTime == nil && listed.documents[1].createTime != nil)
      let existing = try service.listDocuments(
        FirestoreV1.ListDocumentsRequest(database: Self.database, parent: .root, collectionID: "cities"))
      #expect(existing.documents.map(\.key.path.canonical) == ["cities/SF"])
    }
  }

  /// Listings come in pages as Google's emulator gives them: `page_size` items, a token
  /// whenever a page is full, the next page after the token's ID.
  @Test func listingsComeInPagesAsGooglesEmulatorGivesThem() throws {
    try withService { service in
      _ = try commit(
        service,
        try ["p/d0", "p/d1", "p/d2", "p/m/sub/x", "q/a", "r/a"].map { Write(key: try key($0), kind: .set([:])) })
      func documents(missing: Bool) throws -> [[String]] {
        var pages: [[String]] = []
        var token = ""
        repeat {
          let page = try service.listDocuments(
            FirestoreV1.ListDocumentsRequest(
              database: Self.database, parent: .root, collectionID: "p", pageSize: 2, pageToken: token,
              showMissing: missing))
          pages.append(page.documents.map(\.key.documentID))
          token = page.nextPageToken
        } while !token.isEmpty && pages.count < 10
        return pages
      }
      #expect(try documents(missing: false) == [["d0", "d1"], ["d2"]])
      #expect(try documents(missing: true) == [["d0", "d1"], ["d2", "m"], []])
      let first = try service.listCollectionIDs(
        FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: .root, pageSize: 2))
      #expect(first.collectionIDs == ["p", "q"] && !first.nextPageToken.isEmpty)
      let second = try service.listCollectionIDs(
        FirestoreV1.ListCollectionIdsRequest(
          database: Self.database, parent: .root, pageSize: 2, pageToken: first.nextPageToken))
      #expect(second.collectionIDs == ["r"] && second.nextPageToken.isEmpty)
      let garbage = try #require(throws: HearthError.self) {
        try service.listCollectionIDs(
          FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: .root, pageToken: "garbage"))
      }
      #expect(garbage.code == .invalidArgument && garbage.message == "invalid page token")
      let negative = try #require(throws: HearthError.self) {
        try service.listDocuments(
          FirestoreV1.ListDocumentsRequest(database: Self.database, parent: .root, collectionID: "p", pageSize: -1))
      }
      #expect(negative.message == "Page size must be nonnegative.")
    }
  }

  /// Reads at a past `read_time` see the database as it was then, answer with that time,
  /// and refuse a time in the future or finer than microseconds as Google's emulator does.
  @Test func readsAtAPastReadTimeSeeTheDatabaseAsItWas() throws {
    try withService { service in
      let then = try #require(
        try commit(service, [Write(key: try key("posts/a"), kind: .set(["n": .integer(1)]))]).commitTime)
      _ = try commit(
        service,
        [
          Write(key: try key("posts/a"), kind: .set(["n": .integer(2)])),
          Write(key: try key("posts/b"), kind: .set(["n": .integer(3)])),
          Write(key: try key("later/c"), kind: .set([:])),
        ])
      let got = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(
          database: Self.database, documents: [try key("posts/a"), try key("posts/b")], consistency: .readTime(then)))
      guard case .found(let a)? = got.first?.result, case .missing? = got.last?.result else { throw Unexpected() }
      #expect(a.fields["n"] == .integer(1))
      #expect(got.allSatisfy { $0.readTime == then }, "the answer stands for the time asked")

      let queried = try service.runQuery(
        FirestoreV1.RunQueryRequest(database: Self.database, query: query("posts"), consistency: .readTime(then)))
      #expect(names(queried) == ["posts/a"])
      let collections = try service.listCollectionIDs(
        FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: .root, readTime: then))
      #expect(collections.collectionIDs == ["posts"])

      // A read-only transaction with a read_time reads at it.
      let readOnly = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(
          database: Self.database, options: FirestoreV1.TransactionOptions(mode: .readOnly(readTime: then))))
      #expect(try get(service, "posts/a", in: readOnly.transaction) == .integer(1))

      let fine = Timestamp(seconds: then.seconds, nanoseconds: then.nanoseconds + 1)
      let precision = try #require(throws: HearthError.self) {
        try service.batchGetDocuments(
          FirestoreV1.BatchGetDocumentsRequest(
            database: Self.database, documents: [try key("posts/a")], consistency: .readTime(fine)))
      }
      #expect(precision.code == .invalidArgument && precision.message.contains("microseconds precision"))
      let future = Timestamp(seconds: then.seconds + 3600, nanoseconds: 0)
      let refused = try #require(throws: HearthError.self) {
        try service.runQuery(
          FirestoreV1.RunQueryRequest(database: Self.database, query: query("posts"), consistency: .readTime(future)))
      }
      #expect(refused.code == .invalidArgument && refused.message.contains("cannot be in the future"))
    }
  }

  /// With `requireIndexes` (`--require-indexes`) a query that needs an index not
  /// declared fails as production's does, naming the index; once declared, it runs.
  @Test func requiredIndexesAreEnforcedWhenAsked() throws {
    try withService(requireIndexes: true) { service in
      let (a, b) = (FieldPath(["a"]), FieldPath(["b"]))
      _ = try commit(service, [Write(key: try key("posts/p"), kind: .set(["a": .integer(1), "b": .integer(2)]))])
      let needsIndex = query(
        "posts", filters: [.field(FieldFilter(field: a, op: .equal, value: .integer(1)))],
        orders: [OrderBy(field: b, descending: true)])
      let refused = try #require(throws: HearthError.self) {
        try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: needsIndex))
      }
      #expect(refused.code == .failedPrecondition)
      #expect(refused.message.contains("index"), "\(refused.message)")
      let counted = try #require(throws: HearthError.self) {
        try service.runAggregationQuery(
          FirestoreV1.RunAggregationQueryRequest(
            database: Self.database,
            query: FirestoreV1.StructuredAggregationQuery(
              query: needsIndex, aggregations: [.init(function: .count, alias: "n")])))
      }
      #expect(counted.code == .failedPrecondition)
      // Single-field queries are served by the automatic indexes.
      let simple = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database,
          query: query("posts", filters: [.field(FieldFilter(field: a, op: .equal, value: .integer(1)))])))
      #expect(names(simple) == ["posts/p"])

      try service.databases.store(Self.database).declareIndexes(
        IndexFile(indexes: [
          IndexDefinition(
            collectionGroup: "posts", scope: .collection,
            fields: [.init(path: a, mode: .ascending), .init(path: b, mode: .descending)])
        ]))
      let served = try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: needsIndex))
      #expect(names(served) == ["posts/p"])
    }
  }

  @Test func aTransactionIDEndsOnceAndOnlyInItsDatabase() throws {
    try withService { service in
      let begun = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(database: Self.database, options: nil))
      #expect(begun.transaction.count == 16)
      let other = DatabaseName(projectID: "demo", databaseID: "other")
      #expect(throws: HearthError.self) {
        try service.commit(FirestoreV1.CommitRequest(database: other, writes: [], transaction: begun.transaction))
      }
      _ = try commit(service, [Write(key: try key("c/d"), kind: .set([:]))], transaction: begun.transaction)
      let again = try #require(throws: HearthError.self) { try commit(service, [], transaction: begun.transaction) }
      #expect(again.code == .invalidArgument)

      let readOnly = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(
          database: Self.database, options: FirestoreV1.TransactionOptions(mode: .readOnly(readTime: nil))))
      let refused = try #require(throws: HearthError.self) {
        try commit(service, [Write(key: try key("c/e"), kind: .set([:]))], transaction: readOnly.transaction)
      }
      #expect(refused.code == .invalidArgument)

      let rolledBack = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(database: Self.database, options: nil))
      try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: rolledBack.transaction))
      let closed = try #require(throws: HearthError.self) {
        try commit(service, [], transaction: rolledBack.transaction)
      }
      #expect(closed.code == .invalidArgument)
      #expect(closed.message.contains("invalid or closed"))

      // Rolling back an ended transaction succeeds, as on Google's emulator (the Python
      // client rolls back after its last attempt's commit failed); an ID this database
      // never gave is refused.
      try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: rolledBack.transaction))
      try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: begun.transaction))
      let unknown = try #require(throws: HearthError.self) {
        try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: Data(count: 16)))
      }
      #expect(unknown.code == .invalidArgument)
      #expect(throws: HearthError.self) {
        try service.rollback(FirestoreV1.RollbackRequest(database: other, transaction: begun.transaction))
      }
    }
  }

  /// A read-only transaction without a `read_time` reads the database as it was when it
  /// began: a commit after that is not seen by its reads, nor by its queries, as on
  /// Google's emulator.
  @Test func aReadOnlyTransactionReadsOneState() throws {
    try withService { service in
      _ = try commit(service, [Write(key: try key("posts/a"), kind: .set(["n": .integer(1)]))])
      let readOnly = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(
          database: Self.database, options: FirestoreV1.TransactionOptions(mode: .readOnly(readTime: nil)))
      )
      .transaction
      _ = try commit(service, [Write(key: try key("posts/a"), kind: .set(["n": .integer(2)]))])
      #expect(try get(service, "posts/a", in: readOnly) == .integer(1))
      _ = try commit(
        service,
        [
          Write(key: try key("posts/a"), kind: .set(["n": .integer(5)])),
          Write(key: try key("posts/b"), kind: .set(["n": .integer(6)])),
        ])
      #expect(try get(service, "posts/a", in: readOnly) == .integer(1))
      let queried = try service.runQuery(
        FirestoreV1.RunQueryRequest(database: Self.database, query: query("posts"), consistency: .transaction(readOnly))
      )
      #expect(names(queried) == ["posts/a"])
      #expect(queried.allSatisfy { $0.readTime == queried[0].readTime })
      #expect(try get(service, "posts/a", in: try begin(service)) == .integer(5), "other transactions see the commit")

      // One begun by its first read (`new_transaction`) reads one state too.
      let first = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(
          database: Self.database, documents: [try key("posts/b")],
          consistency: .newTransaction(FirestoreV1.TransactionOptions(mode: .readOnly(readTime: nil)))))
      let begun = try #require(first.first?.transaction)
      _ = try commit(service, [Write(key: try key("posts/b"), kind: .delete)])
      #expect(try get(service, "posts/b", in: begun) == .integer(6))
    }
  }

  @Test func eachDatabaseIsItsOwnStoreInsideTheDirectory() throws {
    let databases = ServedDatabases(directory: "/srv/hearth")
    #expect(databases.path(of: Self.database) == "/srv/hearth/demo/(default)")
    #expect(databases.path(of: DatabaseName(projectID: "..", databaseID: "a/b")) == "/srv/hearth/%2E%2E/a%2Fb")
    try withService { service in
      _ = try commit(service, [Write(key: try key("c/d"), kind: .set(["a": .integer(1)]))])
      let other = DatabaseName(projectID: "demo", databaseID: "named-db")
      let got = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(database: other, documents: [try key("c/d")]))
      #expect(got.first?.result == .missing(try key("c/d")))
    }
  }

  struct Unexpected: Error {}

  /// `GET /` answers "Ok" as Google's emulator does (tools poll it for readiness); other
  /// paths stay unknown.
  @Test func theRootAnswersOkAsTheEmulatorDoes() throws {
    try withService { service in
      let root = FirestoreServer.answer(
        HTTPRequest(method: "GET", target: "/", headers: [], body: []), service: service)
      #expect(root.status == 200)
      #expect(root.body == Array("Ok\n".utf8))
      let posted = FirestoreServer.answer(
        HTTPRequest(method: "POST", target: "/", headers: [], body: []), service: service)
      #expect(posted.status == 404)
      let elsewhere = FirestoreServer.answer(
        HTTPRequest(method: "GET", target: "/nowhere", headers: [], body: []), service: service)
      #expect(elsewhere.status == 404)
    }
  }
}
