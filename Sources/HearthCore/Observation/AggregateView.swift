/// A live aggregation's view: the values last shown and, for a query without a limit,
/// its members (`LiveAggregation`), kept from the changed documents alone; with a limit,
/// the aggregation runs again.
package struct AggregateView: LiveView {
  /// A result of the view: the aggregations' values, in `functions` order.
  package struct Snapshot: Sendable {
    package let values: [Value]
  }

  package let model: QueryModel
  package let functions: [AggregateFunction]
  private let order: QueryOrder
  private let requireIndexes: Bool
  private var live: LiveAggregation?
  /// The values last returned.
  package private(set) var values: [Value] = []

  package init(model: QueryModel, functions: [AggregateFunction], requireIndexes: Bool) {
    self.model = model
    self.functions = functions
    order = QueryOrder(model.orderBys)
    self.requireIndexes = requireIndexes
  }

  package var scope: ObservationScope { ObservationScope(model.target) }

  package mutating func start(_ reader: StoreReader) throws -> Snapshot {
    values = try evaluate(reader)
    return Snapshot(values: values)
  }

  /// The snapshot after `changes`, or `nil` when every value is the same, bit for bit.
  package mutating func update(by changes: CommitChanges, reader: StoreReader) throws -> Snapshot? {
    let next: [Value]
    if changes.everything || live == nil {
      next = try evaluate(reader)
    } else {
      for key in Set(changes.keys) where model.isInScope(key) {
        let document = try changes.viewDocument(key, reader: reader)?.query
        live?.update(key, to: document.flatMap { model.matches($0, order: order) ? $0 : nil })
      }
      next = live?.results ?? []
    }
    guard !next.elementsEqual(values, by: Self.same) else { return nil }
    values = next
    return Snapshot(values: next)
  }

  /// The values from the query's results, and the members kept for later commits.
  private mutating func evaluate(_ reader: StoreReader) throws -> [Value] {
    guard model.limit == nil else {
      return try reader.aggregate(model, functions, requireIndexes: requireIndexes)
    }
    let documents = try reader.run(model, requireIndexes: requireIndexes).documents.map { ViewDocument($0).query }
    let aggregation = LiveAggregation(functions, order: order, documents: documents)
    live = aggregation
    return aggregation.results
  }

  /// The same result, bit for bit (so a NaN sum is unchanged by another NaN).
  private static func same(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    default: Value.compare(a, b) == 0 && a.typeOrder == b.typeOrder
    }
  }
}
