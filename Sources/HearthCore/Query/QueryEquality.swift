/// Two queries are the same query when they read the same target with the same filters,
/// order-bys, limit and cursors, their values compared exactly (`1` and `1.0` differ), as
/// Firebase's `Query.isEqual` compares them.
extension QueryModel: Equatable {
  package static func == (a: QueryModel, b: QueryModel) -> Bool {
    a.target == b.target && a.filters == b.filters && a.explicitOrderBys == b.explicitOrderBys
      && a.limit == b.limit && a.limitType == b.limitType && a.startAt == b.startAt && a.endAt == b.endAt
  }
}

extension QueryFilter: Equatable {
  package static func == (a: QueryFilter, b: QueryFilter) -> Bool {
    switch (a, b) {
    case (.field(let x), .field(let y)): x == y
    case (.and(let x), .and(let y)), (.or(let x), .or(let y)): x == y
    default: false
    }
  }
}

extension FieldFilter: Equatable {
  package static func == (a: FieldFilter, b: FieldFilter) -> Bool {
    a.field == b.field && a.op == b.op && a.value.isIdentical(to: b.value)
  }
}

extension Bound: Equatable {
  package static func == (a: Bound, b: Bound) -> Bool {
    a.inclusive == b.inclusive && a.values.count == b.values.count
      && zip(a.values, b.values).allSatisfy { $0.isIdentical(to: $1) }
  }
}
