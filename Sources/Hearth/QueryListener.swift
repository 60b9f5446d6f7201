import Foundation
import HearthCore

/// A query listener's view: its current result, kept up to date from the documents each
/// commit changed. Each changed document of the view's collection or group is read and
/// checked against the query (filters, order-by fields, cursors) and put in or taken out
/// of the sorted result; the query runs again only to refill a `limit` window that a
/// document left, when what lies beyond the window might now belong in it.
///
/// `@unchecked Sendable`: `current` is read and written only under the database's
/// writer pause (at the start and in `commitApplied`), one commit at a time.
final class QueryView: CommitObserver, @unchecked Sendable {
  private let query: Query
  private let model: QueryModel
  private let order: QueryOrder
  private let requireIndexes: Bool
  private let delivery: ListenerDelivery<QuerySnapshot>
  private var current: [ViewDocument] = []

  init(query: Query, model: QueryModel, delivery: ListenerDelivery<QuerySnapshot>) {
    self.query = query
    self.model = model
    order = QueryOrder(model.orderBys)
    requireIndexes = query.firestore.requireIndexes
    self.delivery = delivery
  }

  /// The first snapshot: every result `added`, in order.
  func start(_ reader: StoreReader) throws {
    current = try run(reader)
    let (query, documents) = (query, current.map(\.encoded))
    delivery.deliver { (Self.snapshot(query, documents, changes: nil), nil) }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    let next: [ViewDocument]
    do {
      next = try changes.everything ? run(reader) : updated(by: changes, reader) ?? run(reader)
    } catch {
      delivery.fail(error)
      return
    }
    let viewChanges = ViewChanges.between(current, next, order: order)
    guard !viewChanges.isEmpty else { return }
    current = next
    let (query, documents) = (query, next.map(\.encoded))
    delivery.deliver { (Self.snapshot(query, documents, changes: viewChanges), nil) }
  }

  private func run(_ reader: StoreReader) throws -> [ViewDocument] {
    try reader.run(model, requireIndexes: requireIndexes).documents.map(ViewDocument.init)
  }

  /// The result after the commit's documents changed, or `nil` when the query must run
  /// again to refill its limit window.
  private func updated(by changes: CommitChanges, _ reader: StoreReader) throws -> [ViewDocument]? {
    var next = current
    var changed = false
    for key in Set(changes.keys) where model.isInScope(key) {
      changed = true
      if let position = next.firstIndex(where: { $0.encoded.key == key }) { next.remove(at: position) }
      guard let document = try changes.viewDocument(key, reader: reader) else { continue }
      guard model.matches(document.query, order: order) else { continue }
      var low = 0
      var high = next.count
      while low < high {
        let middle = (low + high) / 2
        if order.compare(next[middle].query, document.query) < 0 { low = middle + 1 } else { high = middle }
      }
      next.insert(document, at: low)
    }
    guard changed else { return current }
    guard let limit = model.limit else { return next }
    // Documents beyond a full window, unchanged, all sort past its old edge: the window
    // is right when at least `limit` documents come before that edge.
    let fromEnd = model.limitType == .last
    if current.count >= limit, let edge = fromEnd ? current.first?.query : current.last?.query {
      let inside = next.count { document in
        let position = order.compare(document.query, edge)
        return fromEnd ? position >= 0 : position <= 0
      }
      if inside < limit { return nil }
    }
    if next.count > limit {
      if fromEnd { next.removeFirst(next.count - limit) } else { next.removeLast(next.count - limit) }
    }
    return next
  }

  private static func snapshot(_ query: Query, _ documents: [EncodedDocument], changes: [ViewChange]?)
    -> QuerySnapshot
  {
    let database = query.firestore
    return QuerySnapshot(
      query: query, documents: documents.map { QueryDocumentSnapshot(database: database, document: $0) },
      changes: changes?.map { change in
        DocumentChange(
          type: change.kind.type, document: QueryDocumentSnapshot(database: database, document: change.document),
          oldIndex: UInt(change.oldIndex ?? NSNotFound), newIndex: UInt(change.newIndex ?? NSNotFound))
      })
  }
}

extension ViewChange.Kind {
  fileprivate var type: DocumentChangeType {
    switch self {
    case .added: .added
    case .modified: .modified
    case .removed: .removed
    }
  }
}

extension Query {
  /// Calls `listener` with the query's results now, then after every commit that changes
  /// them (documents, order, or changes seen through `documentChanges`), in commit order.
  /// A commit that changes nothing this query sees raises no snapshot.
  ///
  /// `listener` runs in the isolation it was written in (`isolation`, the caller's): on
  /// the main actor for top-level code and `@MainActor` types, on an actor for an actor's
  /// method, and on `Settings.dispatchQueue` (the main queue unless set) outside any actor.
  @discardableResult
  public func addSnapshotListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  /// As `addSnapshotListener(_:)`. Hearth's snapshots are never from a cache and never
  /// have pending writes (a write returns once committed), so metadata never changes on
  /// its own and `includeMetadataChanges` adds no snapshot.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, isolation: isolated (any Actor)? = #isolation,
    listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  private func listen(
    on runner: any CallbackRunner, _ listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    firestore.listen(runner, listener) { delivery in
      let model = try runnableModel()
      let view = QueryView(query: self, model: model, delivery: delivery)
      return (view, ObservationScope(model.target), view.start)
    }
  }

  /// The query's snapshots as an asynchronous sequence: the current results, then one
  /// snapshot per commit that changes them. Ending the iteration removes the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<QuerySnapshot, Error> {
    snapshotStream(firestore) { listen(on: $0, $1) }
  }
}
