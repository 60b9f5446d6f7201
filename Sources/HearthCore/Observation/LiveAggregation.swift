/// A live aggregation kept up to date from the documents that changed, without reading
/// the query's results again: its members (the results that have every aggregated field,
/// as Firestore aggregates them) in query order, holding only the fields the order and
/// the aggregations read. A count is then their number; a sum or an average is computed
/// over them in query order, so its doubles add up in the order a fresh run adds them.
/// Not for queries with a limit, whose window only a query can refill.
package struct LiveAggregation: Sendable {
  private let functions: [AggregateFunction]
  private let fields: [FieldPath]
  private let order: QueryOrder
  private var members: [QueryDocument] = []
  private var byKey: [DocumentKey: QueryDocument] = [:]

  /// - Parameter documents: the query's results now.
  package init(_ functions: [AggregateFunction], order: QueryOrder, documents: [QueryDocument]) {
    self.functions = functions
    self.order = order
    fields = functions.compactMap { function in
      switch function {
      case .count: nil
      case .sum(let field), .average(let field): field
      }
    }
    for document in documents { update(document.key, to: document) }
  }

  /// Records the document at `key` as it is now: `nil` when it no longer matches the
  /// query (or no longer exists).
  package mutating func update(_ key: DocumentKey, to document: QueryDocument?) {
    if let old = byKey.removeValue(forKey: key) { members.remove(at: position(of: old)) }
    guard let document, fields.allSatisfy({ document.value($0) != nil }) else { return }
    let kept = kept(document)
    byKey[key] = kept
    members.insert(kept, at: position(of: kept))
  }

  /// The aggregations' values, in `functions` order.
  package var results: [Value] {
    functions.map { function in
      function == .count ? .integer(Int64(members.count)) : function.result(over: members)
    }
  }

  /// Where `document` stands (or would stand) among the members.
  private func position(of document: QueryDocument) -> Int {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      if order.compare(members[middle], document) < 0 { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The document with only the fields the order and the aggregations read.
  private func kept(_ document: QueryDocument) -> QueryDocument {
    var fields: [String: Value] = [:]
    for field in order.orderBys.map(\.field) + self.fields where !field.isDocumentID {
      if let value = document.value(field) { FieldOperations.set(value, at: field, in: &fields) }
    }
    return QueryDocument(key: document.key, fields: fields)
  }
}
