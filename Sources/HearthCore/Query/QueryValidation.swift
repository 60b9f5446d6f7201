/// Firestore's rules for building a query (docs/semantics.md, "Queries": "Rejected with
/// invalidArgument"), applied as each filter, order-by, limit and cursor is added, and
/// the last ones when the query runs. Messages use Firestore's words where it has them.
extension QueryModel {
  /// Operators that may not appear in one query together (Firestore's `conflictingOps`).
  static func conflicts(_ op: FilterOperator) -> [FilterOperator] {
    switch op {
    case .notEqual: [.notEqual, .notIn]
    case .in, .arrayContainsAny: [.notIn]
    case .notIn: [.arrayContainsAny, .in, .notIn, .notEqual]
    default: []
    }
  }

  /// The most values a list operator takes.
  package static func maxListCount(_ op: FilterOperator) -> Int { op == .notIn ? 10 : 30 }

  /// The most disjunctions a query may expand to.
  package static let maxDisjunctions = 30

  /// Adds a filter (joined to the others by AND).
  ///
  /// - Throws: `invalidArgument` naming the rule it breaks.
  package mutating func add(_ filter: QueryFilter) throws {
    // Each comparison is checked against those before it, the query's and then the
    // filter's own, walked in place: arrays of them cost each filter ~1k instructions.
    var position = 0
    try filter.forEachFieldFilter { fieldFilter in
      try validate(fieldFilter, after: position, of: filter)
      position += 1
    }
    // An empty AND or OR adds nothing, as in Firestore (and empty members are dropped).
    guard let filter = filter.withoutEmptyComposites else { return }
    filters.append(filter)
  }

  /// The operator of the first comparison `op` may not join: of the query's filters, or
  /// of the first `count` comparisons of `added`.
  private func conflict(with op: FilterOperator, before count: Int, of added: QueryFilter) -> FilterOperator? {
    let excluded = Self.conflicts(op)
    guard !excluded.isEmpty else { return nil }
    var found: FilterOperator?
    func check(_ other: FieldFilter) {
      if found == nil, excluded.contains(other.op) { found = other.op }
    }
    for filter in filters { filter.forEachFieldFilter(check) }
    var seen = 0
    added.forEachFieldFilter { other in
      if seen < count { check(other) }
      seen += 1
    }
    return found
  }

  /// Checks a comparison that joins the query's filters and the first `count` of
  /// `added`'s.
  private func validate(_ filter: FieldFilter, after count: Int, of added: QueryFilter) throws {
    let op = filter.op
    if filter.field.isDocumentID, op.isArrayOperator {
      throw invalid(
        "Invalid query. You can't perform \(op.firestoreName) queries on document ID since document IDs are not "
          + "arrays.")
    }
    if op.takesList {
      guard case .array(let elements) = filter.value else {
        throw invalid("Invalid Query. A non-empty array is required for '\(op.firestoreName)' filters.")
      }
      if elements.isEmpty {
        throw invalid("Invalid Query. A non-empty array is required for '\(op.firestoreName)' filters.")
      }
      if elements.count > Self.maxListCount(op) {
        throw invalid(
          "Invalid Query. '\(op.firestoreName)' filters support a maximum of \(Self.maxListCount(op)) elements in "
            + "the value array.")
      }
    }
    if op.isRange {
      if case .null = filter.value { throw invalid("Invalid Query. Null supports only equality comparisons.") }
      if filter.value.isNaN { throw invalid("Invalid Query. NaN supports only equality comparisons.") }
    }
    if let conflict = conflict(with: op, before: count, of: added) {
      throw invalid(
        conflict == op
          ? "Invalid Query. You cannot use more than one '\(op.firestoreName)' filter."
          : "Invalid Query. You cannot use '\(op.firestoreName)' filters with '\(conflict.firestoreName)' filters.")
    }
    if op.isInequality, !filter.field.isDocumentID, explicitOrderBys.contains(where: { $0.field.isDocumentID }),
      !explicitOrderBys.contains(where: { $0.field == filter.field })
    {
      throw documentIDNotLast(filter.field)
    }
  }

  /// An inequality field ordered implicitly would follow an explicit
  /// `order(by: FieldPath.documentID())`, which must be the last order-by.
  private func documentIDNotLast(_ field: FieldPath) -> HearthError {
    invalid(
      "Invalid query. order(by: FieldPath.documentID()) must be the last order-by, but the inequality on "
        + "'\(field)' would be ordered after it; add order(by: \"\(field)\") before it.")
  }

  /// Adds an explicit order-by.
  ///
  /// - Throws: `invalidArgument` after a cursor, or after an order-by on the document ID.
  package mutating func add(_ orderBy: OrderBy) throws {
    if startAt != nil {
      throw invalid("Invalid query. You must not specify a starting point before specifying the order by.")
    }
    if endAt != nil {
      throw invalid("Invalid query. You must not specify an ending point before specifying the order by.")
    }
    if explicitOrderBys.contains(where: { $0.field.isDocumentID }) {
      throw invalid(
        "Invalid query. order(by: FieldPath.documentID()) must be the last order-by, but '\(orderBy.field)' follows it."
      )
    }
    explicitOrderBys.append(orderBy)
    if orderBy.field.isDocumentID,
      let unordered = filters.fieldFilters.first(where: { filter in
        filter.op.isInequality && !filter.field.isDocumentID
          && !explicitOrderBys.contains { $0.field == filter.field }
      })
    {
      throw documentIDNotLast(unordered.field)
    }
  }

  /// Sets the limit.
  ///
  /// - Throws: `invalidArgument` for a limit below 1.
  package mutating func setLimit(_ count: Int, _ type: LimitType) throws {
    guard count > 0 else {
      throw invalid("Invalid Query. Query limit (\(count)) is invalid. Limit must be positive.")
    }
    limit = count
    limitType = type
  }

  /// The rules that depend on the whole query, checked when it runs.
  ///
  /// - Throws: `invalidArgument` naming the rule.
  ///
  /// - Parameter aggregating: the query is run for an aggregation, where Firestore allows
  ///   `limit(toLast:)` without an order-by (it counts the last documents by ID).
  package func validateForRun(aggregating: Bool = false) throws {
    if !aggregating, limitType == .last, limit != nil, explicitOrderBys.isEmpty {
      throw invalid("limit(toLast:) queries require specifying at least one OrderBy() clause.")
    }
    if let problem = Self.arrayMembershipProblem(filters) { throw problem }
    let disjunctions = filters.reduce(1) { $0 * Self.disjunctionCount($1) }
    if disjunctions > Self.maxDisjunctions {
      throw invalid(
        "Invalid Query. The query expands to \(disjunctions) disjunctions in disjunctive normal form; the maximum is "
          + "\(Self.maxDisjunctions).")
    }
    if let field = duplicateOrderField {
      throw invalid("order by clause cannot contain duplicate fields \(field)")
    }
    // One pass, building nothing (this runs for every query). Firestore's backend refuses
    // an equality on `__name__` beside inequalities on other fields unless `__name__` has
    // an inequality too (the SDKs send such a query; Google's emulator's words).
    var equalityOnName = false
    var inequalityOnName = false
    var inequalityOnField = false
    filters.forEachFieldFilter { filter in
      if filter.field.isDocumentID {
        equalityOnName = equalityOnName || filter.op == .equal || filter.op == .in
        inequalityOnName = inequalityOnName || filter.op.isInequality
      } else {
        inequalityOnField = inequalityOnField || filter.op.isInequality
      }
    }
    if equalityOnName, inequalityOnField, !inequalityOnName {
      throw invalid(
        "Equality on key is not allowed if there are other inequality fields and key does not appear in "
          + "inequalities.")
    }
  }

  /// The first field that the explicit order-bys name a second time (in either direction),
  /// or `nil`. The SDKs send such a query and Firestore's backend refuses it when it runs
  /// (Google's emulator: INVALID_ARGUMENT, "order by clause cannot contain duplicate
  /// fields a", for RunQuery, aggregations and Listen targets alike, after its filter
  /// rules), so Hearth refuses it in those words, embedded and on the wire.
  private var duplicateOrderField: FieldPath? {
    for index in explicitOrderBys.indices.dropFirst() {
      let field = explicitOrderBys[index].field
      if explicitOrderBys[..<index].contains(where: { $0.field == field }) { return field }
    }
    return nil
  }

  /// Firestore's backend refusal of a query with two array-membership filters in one
  /// conjunction, in its own words.
  package static let arrayMembershipLimit = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."

  /// The backend's rule that each conjunction of the query's disjunctive normal form has at
  /// most one `array-contains` or `array-contains-any` (on any fields), or `nil` when
  /// `filters` (joined by AND) keep it. The only statement of the rule in Hearth, for the
  /// embedded API and the wire server alike.
  ///
  /// Where it comes from: the client SDKs stopped checking it in February 2023
  /// (firebase-ios-sdk `Firestore/core/src/api/query_core.cc` `ConflictingOps`, PR #10449;
  /// firebase-js-sdk `packages/firestore/src/lite-api/query.ts` `conflictingOps`, PR #7024:
  /// "Validations should occur in the Firestore backend"), so a Firebase app builds such a
  /// query and gets this refusal from the backend when it runs. Google's emulator answers
  /// INVALID_ARGUMENT with this message for two array filters in an AND, also nested or
  /// inside one OR branch, and for an AND of an array filter with an OR that has one;
  /// array filters in different OR branches run, and `in` does not count.
  package static func arrayMembershipProblem(_ filters: [QueryFilter]) -> HearthError? {
    let most = filters.reduce(0) { $0 + arrayMembershipCount($1) }
    return most > 1 ? HearthError(.invalidArgument, arrayMembershipLimit) : nil
  }

  /// The most array-membership filters one conjunction of `filter`'s disjunctive normal
  /// form holds: an AND takes one conjunction of each member (the sum of theirs), an OR the
  /// member with the most.
  static func arrayMembershipCount(_ filter: QueryFilter) -> Int {
    switch filter {
    case .field(let filter): filter.op.isArrayOperator ? 1 : 0
    case .and(let parts): parts.reduce(0) { $0 + arrayMembershipCount($1) }
    case .or(let parts): parts.map(arrayMembershipCount).max() ?? 0
    }
  }

  /// How many conjunctions `filter` expands to in disjunctive normal form (an `in` or
  /// `array-contains-any` of n values counts n, as the backend expands them).
  package static func disjunctionCount(_ filter: QueryFilter) -> Int {
    switch filter {
    case .field(let filter):
      if filter.op == .in || filter.op == .arrayContainsAny, case .array(let elements) = filter.value {
        return max(elements.count, 1)
      }
      return 1
    case .and(let parts): return parts.reduce(1) { $0 * disjunctionCount($1) }
    case .or(let parts): return parts.reduce(0) { $0 + disjunctionCount($1) }
    }
  }

  private func invalid(_ message: String) -> HearthError { HearthError(.invalidArgument, message) }
}
