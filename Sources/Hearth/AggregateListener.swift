import Foundation
import HearthCore

/// A live aggregation's view: the values last delivered and, for a query without a
/// limit, its members (`LiveAggregation`), kept from the changed documents alone; with a
/// limit, the aggregation runs again.
///
/// `@unchecked Sendable`: as `QueryView`.
final class AggregateView: CommitObserver, @unchecked Sendable {
  private let query: AggregateQuery
  private let model: QueryModel
  private let order: QueryOrder
  private let functions: [AggregateFunction]
  private let requireIndexes: Bool
  private let delivery: ListenerDelivery<AggregateQuerySnapshot>
  private var live: LiveAggregation?
  private var current: [Value] = []

  init(
    query: AggregateQuery, model: QueryModel, functions: [AggregateFunction],
    delivery: ListenerDelivery<AggregateQuerySnapshot>
  ) {
    self.query = query
    self.model = model
    order = QueryOrder(model.orderBys)
    self.functions = functions
    requireIndexes = query.query.firestore.requireIndexes
    self.delivery = delivery
  }

  func start(_ reader: StoreReader) throws {
    current = try evaluate(reader)
    let (query, values) = (query, current)
    delivery.deliver { (query.snapshot(values), nil) }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    let next: [Value]
    do {
      if changes.everything || live == nil {
        next = try evaluate(reader)
      } else {
        for key in Set(changes.keys) where model.isInScope(key) {
          let document = try changes.viewDocument(key, reader: reader)?.query
          live?.update(key, to: document.flatMap { model.matches($0, order: order) ? $0 : nil })
        }
        next = live?.results ?? []
      }
    } catch {
      delivery.fail(error)
      return
    }
    guard !next.elementsEqual(current, by: Self.same) else { return }
    current = next
    let query = query
    delivery.deliver { (query.snapshot(next), nil) }
  }

  /// The values from the query's results, and the members kept for later commits.
  private func evaluate(_ reader: StoreReader) throws -> [Value] {
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

extension AggregateQuery {
  /// A live aggregation, beyond Firestore: calls `listener` with the values now, then
  /// whenever a commit changes them, in commit order, in the isolation it was written in
  /// (as `Query.addSnapshotListener(_:)`).
  @discardableResult
  public func addSnapshotListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping (AggregateQuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    query.firestore.listen(query.firestore.callbacks(for: isolation), listener) { delivery in
      let (model, functions) = try runnable()
      let view = AggregateView(query: self, model: model, functions: functions, delivery: delivery)
      return (view, ObservationScope(model.target), view.start)
    }
  }
}
