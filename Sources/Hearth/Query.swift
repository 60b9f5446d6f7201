import Foundation
import HearthCore

/// A query over one collection, or over every collection with one ID (a collection
/// group), with Firestore's filters, order, limits and cursors.
///
/// ```swift
/// let feed = try db.collection("users/alice/posts")
///   .whereField("likes", isGreaterThanOrEqualTo: 10)
///   .order(by: "createdAt", descending: true)
///   .limit(to: 20)
///   .getDocuments()
/// ```
///
/// Building a query never throws: the first rule a step breaks is kept, and running the
/// query (`getDocuments`, `getAggregation`, `explain`) throws it as `invalidArgument`.
///
/// `@unchecked Sendable`: a query is immutable; subclasses add only immutable state.
public class Query: @unchecked Sendable {
  /// The database the query reads.
  public let firestore: Database
  let model: QueryModel
  /// The first rule this query broke while it was built.
  let problem: HearthError?

  init(database: Database, model: QueryModel, problem: HearthError? = nil) {
    firestore = database
    self.model = model
    self.problem = problem
  }

  convenience init(database: Database, group collectionID: String) {
    let model = QueryModel(target: .group(collectionID))
    if let problem = Self.problem(withCollectionID: collectionID) {
      self.init(database: database, model: model, problem: problem)
    } else {
      self.init(database: database, model: model)
    }
  }

  /// Why `collectionGroup(collectionID)` is refused, or `nil` when it is a valid ID.
  static func problem(withCollectionID collectionID: String) -> HearthError? {
    if collectionID.isEmpty { return HearthError(.invalidArgument, "Collection ID cannot be empty.") }
    if collectionID.utf8.contains(UInt8(ascii: "/")) {
      return HearthError(
        .invalidArgument, "Invalid collection ID (\(collectionID)). Collection IDs must not contain / in them.")
    }
    if let problem = ResourcePath.problem(withID: collectionID) {
      return HearthError(.invalidArgument, "Invalid collection ID (\(collectionID)). \(problem)")
    }
    return nil
  }

  /// A new query: this one changed by `change`, or this one with the error `change`
  /// threw (the first error is kept).
  func adding(_ change: (inout QueryModel) throws -> Void) -> Query {
    guard problem == nil else { return Query(database: firestore, model: model, problem: problem) }
    var changed = model
    do {
      try change(&changed)
      return Query(database: firestore, model: changed)
    } catch {
      let reason = error as? HearthError ?? HearthError(.invalidArgument, "\(error)")
      return Query(database: firestore, model: model, problem: reason)
    }
  }

  /// The query to run, or the rule it broke.
  func runnableModel(aggregating: Bool = false) throws -> QueryModel {
    if let problem { throw problem }
    try model.validateForRun(aggregating: aggregating)
    return model
  }

  // MARK: - Running

  /// Runs the query on one consistent snapshot and returns its results in query order.
  ///
  /// - Throws: `invalidArgument` for a query that breaks Firestore's rules (the first
  ///   rule a building step broke, in Firestore's words); `failedPrecondition` when
  ///   `Settings.requireIndexes` is on and the query needs a composite index that is not
  ///   declared (the message holds the index's JSON), or when the database is closed;
  ///   `dataLoss` for a damaged document.
  public func getDocuments() throws -> QuerySnapshot {
    let model = try runnableModel()
    let require = firestore.requireIndexes
    let firestore = firestore
    var documents: [QueryDocumentSnapshot] = []
    try firestore.engine().read { reader in
      try reader.run(model, requireIndexes: require, reserve: { documents.reserveCapacity($0) }) { key, buffer, range in
        documents.append(QueryDocumentSnapshot(database: firestore, key: key, bytes: .shared(buffer, range)))
      }
    }
    return QuerySnapshot(query: self, documents: documents)
  }

  /// Runs the query off the concurrency pool.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument` for a query that breaks
  ///   Firestore's rules; `failedPrecondition` for an undeclared index under
  ///   `requireIndexes`, or a closed database; `dataLoss` for a damaged document.
  @discardableResult
  public func getDocuments() async throws -> QuerySnapshot {
    try await firestore.offload { try self.getDocuments() }
  }

  /// Runs the query now, then calls `completion` with the snapshot or the error
  /// `getDocuments()` would throw.
  public func getDocuments(
    isolation: isolated (any Actor)? = #isolation, completion: @escaping (QuerySnapshot?, Error?) -> Void
  ) {
    firestore.complete(isolation, completion) { try getDocuments() }
  }

  /// Runs the query and reports how (beyond Firestore): the plan (index or scan, key
  /// ranges) and what it read and returned.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument` for a query that breaks
  ///   Firestore's rules; `failedPrecondition` for an undeclared index under
  ///   `requireIndexes`, or a closed database; `dataLoss` for a damaged document.
  public func explain() throws -> QueryExplanation {
    let model = try runnableModel()
    let require = firestore.requireIndexes
    let statistics = try firestore.engine().read {
      try $0.run(model, requireIndexes: require, explaining: true).statistics
    }
    return QueryExplanation(statistics)
  }
}

/// How a query was run (`Query.explain()`, `AggregateQuery.explain()`).
public struct QueryExplanation: Sendable, CustomStringConvertible {
  /// Human-readable: the index or scan used and the key ranges read.
  public var plan: String
  /// Index entries the query walked (a count from index keys: one a distinct key, whose
  /// entries LMDB counts).
  public var indexEntriesRead: Int
  /// Documents it loaded to check or return (results included).
  public var documentsRead: Int
  /// Documents in the results (for an aggregation, its count).
  public var resultsReturned: Int

  init(_ statistics: QueryStatistics) {
    plan = statistics.plan
    indexEntriesRead = statistics.indexEntriesRead
    documentsRead = statistics.documentsRead
    resultsReturned = statistics.resultsReturned
  }

  /// The plan and the counts on one line.
  public var description: String {
    "\(plan): \(indexEntriesRead) index entries and \(documentsRead) documents read, \(resultsReturned) returned"
  }
}

/// Queries are equal when they are the same query on the same database (Firebase's
/// `isEqual`): same target, filters, order-bys, limit and cursors, values compared exactly.
extension Query: Hashable {
  /// Whether `a` and `b` are the same query on the same database.
  public static func == (a: Query, b: Query) -> Bool {
    a === b || (a.firestore == b.firestore && a.model == b.model && (a.problem == nil) == (b.problem == nil))
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(firestore)
    hasher.combine(model.target)
    hasher.combine(model.explicitOrderBys)
    hasher.combine(model.limit)
    // Identical values are equal values, so `Value`'s own hash agrees with `==` here.
    for filter in model.filters.fieldFilters {
      hasher.combine(filter.field)
      hasher.combine(filter.op)
      hasher.combine(filter.value)
    }
  }
}
