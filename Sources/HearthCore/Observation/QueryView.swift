/// A query listener's view: its current result, kept up to date from the documents each
/// commit changed. Each changed document of the view's collection or group is read and
/// checked against the query (filters, order-by fields, cursors) and put in or taken out
/// of the sorted result; the query runs again only to refill a `limit` window that a
/// document left, when what lies beyond the window might now belong in it (Firestore's
/// core view: it computes the document changes and knows when it needs a refill).
///
/// A value: whoever drives it (a listener of the Swift API, a wire front end) keeps it
/// and hands it one commit at a time, in commit order.
package struct QueryView: LiveView {
  /// A result of the view: its documents in query order, and what changed since the one
  /// before.
  package struct Snapshot: Sendable {
    package let documents: [EncodedDocument]
    /// The changes from the previous snapshot; `nil` for the first, whose documents are
    /// all `added`, in order.
    package let changes: [ViewChange]?
  }

  /// What a commit's changed documents alone tell about the next result.
  package enum Computation {
    /// Nothing the view holds changed.
    case unchanged
    /// The next result, in query order.
    case documents([ViewDocument])
    /// The query must run again: a document left a full `limit` window that documents
    /// beyond it may now enter, or everything may have changed.
    case needsRefill
  }

  package let model: QueryModel
  package let order: QueryOrder
  private let requireIndexes: Bool
  /// The result last returned, in query order.
  package private(set) var documents: [ViewDocument] = []

  package init(model: QueryModel, requireIndexes: Bool) {
    self.model = model
    order = QueryOrder(model.orderBys)
    self.requireIndexes = requireIndexes
  }

  package var scope: ObservationScope { ObservationScope(model.target) }

  /// The first snapshot: the query's results on `reader`'s state.
  package mutating func start(_ reader: StoreReader) throws -> Snapshot {
    documents = try run(reader)
    return Snapshot(documents: documents.map(\.encoded), changes: nil)
  }

  /// The snapshot after `changes`, or `nil` when nothing the query sees changed.
  package mutating func update(by changes: CommitChanges, reader: StoreReader) throws -> Snapshot? {
    let next: [ViewDocument]
    switch try compute(changes, reader: reader) {
    case .unchanged: return nil
    case .documents(let documents): next = documents
    case .needsRefill: next = try run(reader)
    }
    let viewChanges = ViewChanges.between(documents, next, order: order)
    guard !viewChanges.isEmpty else { return nil }
    documents = next
    return Snapshot(documents: next.map(\.encoded), changes: viewChanges)
  }

  /// The next result as far as the commit's changed documents tell it, each read from
  /// the commit (or by `reader`) and checked against the query.
  package func compute(_ changes: CommitChanges, reader: StoreReader) throws -> Computation {
    guard !changes.everything else { return .needsRefill }
    var next = documents
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
    guard changed else { return .unchanged }
    guard let limit = model.limit else { return .documents(next) }
    // Documents beyond a full window, unchanged, all sort past its old edge: the window
    // is right when at least `limit` documents come before that edge.
    let fromEnd = model.limitType == .last
    if documents.count >= limit, let edge = fromEnd ? documents.first?.query : documents.last?.query {
      let inside = next.count { document in
        let position = order.compare(document.query, edge)
        return fromEnd ? position >= 0 : position <= 0
      }
      if inside < limit { return .needsRefill }
    }
    if next.count > limit {
      if fromEnd { next.removeFirst(next.count - limit) } else { next.removeLast(next.count - limit) }
    }
    return .documents(next)
  }

  private func run(_ reader: StoreReader) throws -> [ViewDocument] {
    try reader.run(model, requireIndexes: requireIndexes).documents.map(ViewDocument.init)
  }
}
