/// The order of a query's results: normalised order-bys, the comparator, and cursors.
extension QueryModel {
  /// Firestore's normalised order: the explicit order-bys; then every inequality field not
  /// yet ordered, by field path (an inequality on `__name__` last); then `__name__` if not
  /// yet there. The implicit ones take the direction of the last explicit order-by
  /// (ascending when there is none).
  package var orderBys: [OrderBy] {
    // Locals, so that the closure below captures them rather than a copy of the model.
    let explicit = explicitOrderBys
    let descending = explicit.last?.descending ?? false
    var inequalities: [FieldPath] = []
    filters.forEachFieldFilter { filter in
      // A few order-bys at most: a linear search costs less than hashing field paths
      // (this runs for every query).
      if filter.op.isInequality, !filter.field.isDocumentID, !explicit.contains(where: { $0.field == filter.field }),
        !inequalities.contains(filter.field)
      {
        inequalities.append(filter.field)
      }
    }
    if inequalities.count > 1 { inequalities.sort { FieldPath.compare($0, $1) < 0 } }
    // Room made once: appended to a copy of the explicit ones, the implicit ones could
    // grow it twice (~300 instructions a count of `likes >= a`).
    var result: [OrderBy] = []
    result.reserveCapacity(explicit.count + inequalities.count + 1)
    result += explicit
    for field in inequalities { result.append(OrderBy(field: field, descending: descending)) }
    if !explicit.contains(where: { $0.field.isDocumentID }) {
      result.append(OrderBy(field: .documentID(), descending: descending))
    }
    return result
  }
}

/// A document as a query sees it: its key and its fields as `Value`s.
package struct QueryDocument: Sendable {
  package let key: DocumentKey
  package let fields: [String: Value]

  package init(key: DocumentKey, fields: [String: Value]) {
    self.key = key
    self.fields = fields
  }

  /// The value of `field`: `__name__` is the document's own reference.
  package func value(_ field: FieldPath) -> Value? {
    field.isDocumentID ? .reference(key) : FieldOperations.value(at: field, in: fields)
  }
}

/// Orders documents by a query's normalised order-bys and checks its cursors.
package struct QueryOrder: Sendable {
  package let orderBys: [OrderBy]

  package init(_ orderBys: [OrderBy]) { self.orderBys = orderBys }

  /// Whether the document has every order-by field (documents lacking one are excluded).
  package func includes(_ document: QueryDocument) -> Bool {
    orderBys.allSatisfy { document.value($0.field) != nil }
  }

  /// -1, 0 or 1 as `a` comes before, with or after `b` in query order.
  package func compare(_ a: QueryDocument, _ b: QueryDocument) -> Int {
    for orderBy in orderBys {
      let result = Value.compare(a.value(orderBy.field) ?? .null, b.value(orderBy.field) ?? .null)
      if result != 0 { return orderBy.descending ? -result : result }
    }
    return 0
  }

  /// Where the cursor stands relative to the document: -1 before it, 0 at it (over the
  /// order-bys the cursor gives values for), 1 after it.
  package func compare(_ bound: Bound, _ document: QueryDocument) -> Int {
    for (value, orderBy) in zip(bound.values, orderBys) {
      let result = Value.compare(value, document.value(orderBy.field) ?? .null)
      if result != 0 { return orderBy.descending ? -result : result }
    }
    return 0
  }

  /// Whether the document lies within the start and end cursors.
  package func isWithin(start: Bound?, end: Bound?, _ document: QueryDocument) -> Bool {
    if let start {
      let position = compare(start, document)
      if start.inclusive ? position > 0 : position >= 0 { return false }
    }
    if let end {
      let position = compare(end, document)
      if end.inclusive ? position < 0 : position <= 0 { return false }
    }
    return true
  }
}

extension FieldPath {
  /// Field paths segment by segment (UTF-8 byte order), then the shorter first.
  package static func compare(_ a: FieldPath, _ b: FieldPath) -> Int {
    for (x, y) in zip(a.segments, b.segments) {
      let result = Value.compareUTF8(x, y)
      if result != 0 { return result }
    }
    return Value.order(a.count, b.count)
  }
}
