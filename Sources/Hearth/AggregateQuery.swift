import Foundation
import HearthCore

/// One aggregation of a query's results: `count()`, `sum(field)` or `average(field)`.
public struct AggregateField: Hashable, @unchecked Sendable {
  // @unchecked: immutable; the error it may carry is Sendable data.
  let function: AggregateFunction
  /// Why the field path given is invalid (reported when the aggregation runs).
  let problem: HearthError?

  private init(_ function: AggregateFunction, problem: HearthError? = nil) {
    self.function = function
    self.problem = problem
  }

  /// The number of results.
  public static func count() -> AggregateField { AggregateField(.count) }

  /// The sum of the field's numbers: an integer when every input is an integer and no
  /// overflow occurs, else a double; 0 when there are none.
  public static func sum(_ field: String) -> AggregateField { parse(field, AggregateFunction.sum) }
  /// The sum of the numbers at a field path.
  public static func sum(_ path: FieldPath) -> AggregateField { validate(path, AggregateFunction.sum) }

  /// The average of the field's numbers, a double; null when there are none.
  public static func average(_ field: String) -> AggregateField { parse(field, AggregateFunction.average) }
  /// The average of the numbers at a field path.
  public static func average(_ path: FieldPath) -> AggregateField { validate(path, AggregateFunction.average) }

  private static func parse(_ field: String, _ make: (FieldPath) -> AggregateFunction) -> AggregateField {
    do { return AggregateField(make(try FieldPath.parse(dotted: field))) } catch {
      return AggregateField(make(FieldPath([field])), problem: error as? HearthError)
    }
  }

  private static func validate(_ path: FieldPath, _ make: (FieldPath) -> AggregateFunction) -> AggregateField {
    do {
      try path.validate()
      return AggregateField(make(path))
    } catch {
      return AggregateField(make(path), problem: error as? HearthError)
    }
  }

  /// Whether `a` and `b` are the same function of the same field.
  public static func == (a: AggregateField, b: AggregateField) -> Bool { a.function == b.function }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(function) }
}

/// Where an aggregation runs: Firebase's option, accepted for ported code.
public enum AggregateSource: Sendable {
  /// Firebase's only source: Hearth reads its own database.
  case server
}

extension Query {
  /// The number of results.
  public var count: AggregateQuery { aggregate([.count()]) }

  /// Several aggregations of the results at once.
  public func aggregate(_ fields: [AggregateField]) -> AggregateQuery { AggregateQuery(query: self, fields: fields) }
}

/// Aggregations of a query's results (after its limit, as in Firestore). As in
/// Firestore, only the results that have every field a `sum` or `average` reads are
/// aggregated, by each of the query's aggregations, `count` included.
///
/// `@unchecked Sendable`: immutable.
public final class AggregateQuery: @unchecked Sendable {
  /// The query whose results are aggregated.
  public let query: Query
  let fields: [AggregateField]

  init(query: Query, fields: [AggregateField]) {
    self.query = query
    self.fields = fields
  }

  /// Runs the aggregations on one consistent snapshot. Counts of equalities come from
  /// index entries without reading documents.
  ///
  /// - Throws: `invalidArgument` for an invalid query or field path, no aggregation, or
  ///   more than five; `failedPrecondition` when `Settings.requireIndexes` is on and the
  ///   query needs an undeclared composite index, or when the database is closed;
  ///   `dataLoss` for a damaged document.
  public func getAggregation(source: AggregateSource = .server) throws -> AggregateQuerySnapshot {
    let (model, functions) = try runnable()
    let require = query.firestore.requireIndexes
    let values = try query.firestore.engine().read { try $0.aggregate(model, functions, requireIndexes: require) }
    return snapshot(values)
  }

  /// Runs the aggregations and reports how (beyond Firestore), as `Query.explain()` does
  /// for documents: the plan, and the index entries and documents read. A count whose
  /// filters its index's keys prove reads no document: it counts the entries under each
  /// key of its range, one step per distinct value.
  ///
  /// - Throws: as `getAggregation(source:)`.
  public func explain() throws -> QueryExplanation {
    let (model, functions) = try runnable()
    let require = query.firestore.requireIndexes
    let statistics = try query.firestore.engine().read {
      try $0.aggregation(model, functions, requireIndexes: require, explaining: true).statistics
    }
    return QueryExplanation(statistics)
  }

  /// The query and the functions to run (`count` first), once the aggregations are
  /// checked.
  ///
  /// - Throws: `invalidArgument` for an invalid query, field path or set of aggregations.
  func runnable() throws -> (QueryModel, [AggregateFunction]) {
    if let problem = fields.compactMap(\.problem).first { throw problem }
    guard !fields.isEmpty else { throw HearthError(.invalidArgument, "Aggregations can not be empty.") }
    // Only a list longer than the maximum can hold too many distinct ones (the set cost a
    // count ~1k instructions).
    if fields.count > AggregateFunction.maximumCount {
      let distinct = Set(fields.map(\.function)).count
      guard distinct <= AggregateFunction.maximumCount else {
        throw HearthError(
          .invalidArgument,
          "Invalid aggregation: the query asks for \(distinct) aggregations, but the maximum number of aggregations "
            + "is \(AggregateFunction.maximumCount).")
      }
    }
    // Built in one array (a concatenation of a mapped array made three).
    var functions: [AggregateFunction] = []
    functions.reserveCapacity(fields.count + 1)
    functions.append(.count)
    for field in fields { functions.append(field.function) }
    return (try query.runnableModel(aggregating: true), functions)
  }

  /// The snapshot of the values `runnable()`'s functions gave.
  func snapshot(_ values: [Value]) -> AggregateQuerySnapshot {
    // The functions read lazily: a mapped array of them cost each count an allocation.
    AggregateQuerySnapshot(
      query: self, count: values[0],
      values: Dictionary(zip(fields.lazy.map(\.function), values.dropFirst()), uniquingKeysWith: { first, _ in first }))
  }

  /// Runs the aggregations off the concurrency pool.
  ///
  /// - Throws: as `getAggregation(source:)`: `invalidArgument` for an invalid query or
  ///   set of aggregations; `failedPrecondition` for an undeclared index under
  ///   `requireIndexes`, or a closed database; `dataLoss` for a damaged document.
  public func getAggregation(source: AggregateSource = .server) async throws -> AggregateQuerySnapshot {
    try await query.firestore.offload { try self.getAggregation(source: source) }
  }

  /// Runs the aggregations now, then calls `completion` with the snapshot or the error
  /// `getAggregation(source:)` would throw.
  public func getAggregation(
    source: AggregateSource = .server, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (AggregateQuerySnapshot?, Error?) -> Void
  ) {
    query.firestore.complete(isolation, completion) { try getAggregation(source: source) }
  }
}

/// The results of an `AggregateQuery`.
public struct AggregateQuerySnapshot: @unchecked Sendable {
  // @unchecked: immutable values.
  /// The aggregate query that gave these values.
  public let query: AggregateQuery
  private let countValue: Value
  private let values: [AggregateFunction: Value]

  init(query: AggregateQuery, count: Value, values: [AggregateFunction: Value]) {
    self.query = query
    countValue = count
    self.values = values
  }

  /// The number of results.
  public var count: NSNumber { Self.number(countValue) as? NSNumber ?? 0 }

  /// An aggregation's result: an `NSNumber` (integer or double), or `NSNull` for the
  /// average of no numbers; `nil` for a field this query did not aggregate.
  public func get(_ field: AggregateField) -> Any? {
    values[field.function].map(Self.number)
  }

  private static func number(_ value: Value) -> Any {
    switch value {
    case .integer(let i): NSNumber(value: i)
    case .double(let d): NSNumber(value: d)
    default: NSNull()
    }
  }
}

/// Aggregate snapshots are equal when they hold the same results, exactly (an integer
/// `1` differs from a double `1.0`), of equal aggregate queries, as Firebase compares them.
extension AggregateQuerySnapshot: Hashable {
  /// Whether `a` and `b` answer equal aggregate queries with the same values.
  public static func == (a: AggregateQuerySnapshot, b: AggregateQuerySnapshot) -> Bool {
    a.query == b.query && a.countValue.isIdentical(to: b.countValue) && a.values.count == b.values.count
      && a.values.allSatisfy { function, value in b.values[function].map(value.isIdentical) ?? false }
  }

  /// Hashes the query and the count (equal snapshots have both equal).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(query)
    if case .integer(let count) = countValue { hasher.combine(count) }
  }
}

/// Aggregate queries are equal when they run the same aggregations over the same query.
extension AggregateQuery: Hashable {
  /// Whether `a` and `b` aggregate the same query the same ways (in any order).
  public static func == (a: AggregateQuery, b: AggregateQuery) -> Bool {
    a.query == b.query && Set(a.fields) == Set(b.fields)
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(query)
    hasher.combine(Set(fields))
  }
}
