/// A Firestore query as data: what to read, which documents match, in which order, and
/// how many. Built by the public `Query` type (which validates each step), run by
/// `StoreReader.run` (`QueryExecution`).
package struct QueryModel: Sendable {
  /// A collection's direct children, or every collection with one ID (a collection group).
  package enum Target: Sendable, Hashable {
    case collection(ResourcePath)
    case group(String)
  }

  package enum LimitType: Sendable {
    /// The first `limit` documents in query order.
    case first
    /// The last `limit` documents in query order (still returned in query order).
    case last
  }

  package var target: Target
  /// Joined by AND.
  package var filters: [QueryFilter] = []
  /// The order-bys the user wrote; see `orderBys` for the normalised ones.
  package var explicitOrderBys: [OrderBy] = []
  package var limit: Int?
  package var limitType: LimitType = .first
  package var startAt: Bound?
  package var endAt: Bound?

  package init(target: Target) { self.target = target }
}

/// One order-by: a field (or `__name__`) and a direction.
package struct OrderBy: Sendable, Hashable {
  package var field: FieldPath
  package var descending: Bool

  package init(field: FieldPath, descending: Bool) {
    self.field = field
    self.descending = descending
  }
}

/// A cursor: a position in the normalised order, given as values for a prefix of the
/// order-bys (a document cursor gives all of them, `__name__` included).
package struct Bound: Sendable {
  package var values: [Value]
  /// `start(at:)`/`end(at:)` include the position; `start(after:)`/`end(before:)` do not.
  package var inclusive: Bool

  package init(values: [Value], inclusive: Bool) {
    self.values = values
    self.inclusive = inclusive
  }
}

/// The ten comparison operators of `whereField`.
package enum FilterOperator: String, Sendable, CaseIterable {
  case lessThan = "<"
  case lessThanOrEqual = "<="
  case equal = "=="
  case notEqual = "!="
  case greaterThanOrEqual = ">="
  case greaterThan = ">"
  case arrayContains = "array-contains"
  case arrayContainsAny = "array-contains-any"
  case `in` = "in"
  case notIn = "not-in"

  /// `<`, `<=`, `>`, `>=`: the operators that order-by fields must follow.
  package var isRange: Bool {
    switch self {
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: true
    default: false
    }
  }

  /// The operators Firestore calls inequalities: the ranges, `!=` and `not-in`. Their
  /// fields are ordered implicitly.
  package var isInequality: Bool { isRange || self == .notEqual || self == .notIn }

  /// Operators whose operand is a list.
  package var takesList: Bool { self == .in || self == .notIn || self == .arrayContainsAny }

  package var isArrayOperator: Bool { self == .arrayContains || self == .arrayContainsAny }

  /// Firestore's name in messages (`notIn`, `arrayContainsAny`, …).
  package var firestoreName: String {
    switch self {
    case .lessThan: "lessThan"
    case .lessThanOrEqual: "lessThanOrEqual"
    case .equal: "equal"
    case .notEqual: "notEqual"
    case .greaterThanOrEqual: "greaterThanOrEqual"
    case .greaterThan: "greaterThan"
    case .arrayContains: "arrayContains"
    case .arrayContainsAny: "arrayContainsAny"
    case .in: "in"
    case .notIn: "notIn"
    }
  }
}

/// A filter: a comparison of one field, or an AND/OR of filters.
package indirect enum QueryFilter: Sendable {
  case field(FieldFilter)
  case and([QueryFilter])
  case or([QueryFilter])

  /// The filter without empty ANDs and ORs (Firestore drops them), a composite of one
  /// member as that member; `nil` when nothing is left.
  package var withoutEmptyComposites: QueryFilter? {
    switch self {
    case .field: return self
    case .and(let parts), .or(let parts):
      let kept = parts.compactMap(\.withoutEmptyComposites)
      if kept.isEmpty { return nil }
      if kept.count == 1 { return kept[0] }
      if case .and = self { return .and(kept) }
      return .or(kept)
    }
  }

  /// Every field comparison inside, however nested, in order.
  package var fieldFilters: [FieldFilter] { [self].fieldFilters }

  /// Calls `body` with every field comparison inside, however nested, in order, without
  /// building an array (checks that run for every query use this).
  package func forEachFieldFilter(_ body: (FieldFilter) throws -> Void) rethrows {
    switch self {
    case .field(let filter): try body(filter)
    case .and(let filters), .or(let filters): for filter in filters { try filter.forEachFieldFilter(body) }
    }
  }
}

extension [QueryFilter] {
  /// Calls `body` with every field comparison of these filters, however nested, in order.
  package func forEachFieldFilter(_ body: (FieldFilter) throws -> Void) rethrows {
    for filter in self { try filter.forEachFieldFilter(body) }
  }

  /// Every field comparison of these filters, however nested, in order, in one array.
  package var fieldFilters: [FieldFilter] {
    var all: [FieldFilter] = []
    forEachFieldFilter { all.append($0) }
    return all
  }
}

/// `field op value`. For `__name__` the value is a `.reference` (or a list of them).
package struct FieldFilter: Sendable {
  package var field: FieldPath
  package var op: FilterOperator
  package var value: Value

  package init(field: FieldPath, op: FilterOperator, value: Value) {
    self.field = field
    self.op = op
    self.value = value
  }
}
