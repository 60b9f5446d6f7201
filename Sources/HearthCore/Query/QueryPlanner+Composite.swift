/// Plans on declared indexes: an equality prefix (`==`, `in`, `array-contains` on the
/// index's leading fields), then the order-by fields in the index's order, so that the
/// walk yields query order and a limit stops it; a range on the first of those fields
/// bounds the walk.
extension QueryPlanner {
  /// How a declared index fits a conjunction: the key prefixes its equalities give, the
  /// fields left to walk in order, and whether walking forward is query order.
  struct CompositeFit {
    var prefixes: [[UInt8]]
    var rest: [IndexDefinition.Field]
    /// `nil` when the walk does not yield query order (several prefixes, or directions
    /// that match neither way).
    var forward: Bool?
    /// The direction in which each prefix's entries are in query order.
    var eachPrefixForward: Bool?
    /// Whether every equality and array filter of the conjunction is in the prefix
    /// (what production Firestore requires of the index it uses).
    var coversFilters: Bool
  }

  /// The order-by fields an index must end with to serve the conjunction: all but the
  /// last (`__name__`), less those an equality pins, which order nothing. With
  /// `listedByIn`, also less those an `in` lists, which production Firestore orders by
  /// their single-field index (a range a value, in value order).
  func orderedFields(_ filters: [FieldFilter], listedByIn: Bool = false) -> [OrderBy] {
    order.dropLast().filter { orderBy in
      !filters.contains { $0.field == orderBy.field && ($0.op == .equal || (listedByIn && $0.op == .in)) }
    }
  }

  /// How `index` fits the conjunction (whose `orderedFields` are `ordered`), or `nil` when
  /// it cannot serve it.
  func fit(_ index: DeclaredIndex, _ filters: [FieldFilter], ordered: [OrderBy], collection: CollectionNumber?)
    -> CompositeFit?
  {
    let fields = index.definition.fields
    // The index must end with the ordered fields (checked first: a collection may have
    // many declared indexes, and most do not fit).
    let tail = fields.count - ordered.count
    guard tail >= 0 else { return nil }
    for position in ordered.indices where fields[tail + position].path != ordered[position].field { return nil }
    // The leading fields an equality, `in` or array filter fixes: every field before the
    // ordered ones, and none of those (a `contains` field is fixed or the index unfit).
    var fixedCount = 0
    while fixedCount < fields.count {
      guard fixing(fields[fixedCount], filters) != nil else {
        if fields[fixedCount].mode == .contains { return nil }
        break
      }
      fixedCount += 1
    }
    guard fixedCount == tail else { return nil }
    let rest = fields[fixedCount...]
    guard !rest.contains(where: { $0.mode == .contains }) else { return nil }
    // Only an index that fits builds its key prefixes: one for each combination of the
    // fixed fields' values.
    var prefixes = [CompositeIndex.prefix(index, collection)]
    for field in fields[..<fixedCount] {
      let filter = filters[fixing(field, filters)!]
      let mode = field.mode == .contains ? .ascending : field.mode
      // One value (an equality, or the element an array-contains looks for): appended in
      // place. An array-contains of null or NaN finds nothing.
      if filter.op == .equal || (filter.op == .arrayContains && QueryMatcher.isMatchable(filter.value)) {
        for position in prefixes.indices { CompositeIndex.append(filter.value, mode, to: &prefixes[position]) }
        continue
      }
      let values = QueryMatcher.listElements(filter.value).filter(QueryMatcher.isMatchable)
      prefixes = prefixes.flatMap { prefix in
        values.map { value in
          var extended = prefix
          CompositeIndex.append(value, mode, to: &extended)
          return extended
        }
      }
    }
    // Forward when every ordered field runs the index's way, backward when every one runs
    // against it (the ordered fields are the index's last: `rest`).
    let agreeing = ordered.indices.count { (fields[tail + $0].mode == .descending) == ordered[$0].descending }
    let along: Bool? = if agreeing == ordered.count { true } else if agreeing == 0 { false } else { nil }
    // Ties walk in the index's name direction; the query's must agree with the walk.
    let direction = along.flatMap { (index.definition.namesDescending == order.last!.descending) == $0 ? $0 : nil }
    let fixedFields = fields[..<fixedCount]
    let coversFilters = filters.allSatisfy { filter in
      filter.field.isDocumentID || !(filter.op == .equal || filter.op == .in || filter.op.isArrayOperator)
        || fixedFields.contains { $0.path == filter.field }
    }
    return CompositeFit(
      prefixes: prefixes, rest: Array(rest), forward: prefixes.count == 1 ? direction : nil,
      eachPrefixForward: direction, coversFilters: coversFilters)
  }

  /// The position of the filter that fixes `field` in a key prefix: an array filter for a
  /// `contains` field, else an equality, else an `in`; `nil` when none does. (A position,
  /// not a copy: a copy retains the filter's field and value.)
  private func fixing(_ field: IndexDefinition.Field, _ filters: [FieldFilter]) -> Int? {
    if field.mode == .contains { return filters.firstIndex { $0.field == field.path && $0.op.isArrayOperator } }
    return filters.firstIndex { $0.field == field.path && $0.op == .equal }
      ?? filters.firstIndex { $0.field == field.path && $0.op == .in }
  }

  /// A plan on a declared index (with `collection` for collection scope, `nil` for a
  /// collection-group index, which reads every collection of the group at once).
  func compositePlan(
    _ index: DeclaredIndex, _ filters: [FieldFilter], ordered: [OrderBy], collection: CollectionNumber?
  ) -> AccessPlan? {
    guard let fit = fit(index, filters, ordered: ordered, collection: collection), !fit.prefixes.isEmpty else {
      return nil
    }
    let prefixes = fit.prefixes.count > 1 ? fit.prefixes.sorted { KeyRange.compare($0, $1) < 0 } : fit.prefixes
    let ranges = prefixes.map { prefix -> KeyRange in
      guard let first = fit.rest.first else { return .exact(prefix) }
      return Self.valueRange(after: prefix, first.path, filters, descending: first.mode == .descending) {
        CompositeIndex.append($0, first.mode, to: &$1)
      }
    }
    return AccessPlan(
      source: .composite(index: index, prefixes: prefixes, rest: fit.rest, ranges: ranges), forward: fit.forward,
      eachRangeForward: fit.eachPrefixForward,
      estimate: fit.rest.isEmpty ? .counted : .sampled(tables.indexEntries, ordered: fit.eachPrefixForward != nil),
      describe: {
        let fields = index.definition.fields.map { "\($0.path) \($0.mode)" }.joined(separator: ", ")
        return "\(index.definition.scope == .collection ? "composite" : "collection-group") index on "
          + "\(index.definition.collectionGroup) (\(fields))"
      })
  }

  // MARK: - Production Firestore's index rules

  /// The index production Firestore would need for this conjunction and has not got
  /// declared, or `nil`. Equalities alone (and a collection query ordered by one field it
  /// filters) run on single-field indexes; anything else on a collection needs a
  /// composite index, and a collection-group query that filters or orders needs a
  /// collection-group index.
  func missingIndex(_ filters: [FieldFilter], target: QueryModel.Target, indexes: IndexSet) -> IndexDefinition? {
    // The fields the needed index orders by; a declared one is checked as plans are.
    let ordered = orderedFields(filters, listedByIn: true)
    let indexOrdered = orderedFields(filters)
    let equalities = filters.filter { !$0.field.isDocumentID && [.equal, .in].contains($0.op) }
    let arrays = filters.filter { !$0.field.isDocumentID && $0.op.isArrayOperator }
    var fields: [IndexDefinition.Field] = []
    for filter in equalities where !fields.contains(where: { $0.path == filter.field }) {
      fields.append(.init(path: filter.field, mode: .ascending))
    }
    if let array = arrays.first { fields.append(.init(path: array.field, mode: .contains)) }
    fields += ordered.map { .init(path: $0.field, mode: $0.descending ? .descending : .ascending) }
    switch target {
    case .collection(let path):
      let needsComposite = ordered.count > 1 || (ordered.count == 1 && fields.count > 1)
      guard needsComposite else { return nil }
      let candidates = indexes.indexes(for: path.last!, scope: .collection)
      if candidates.contains(where: {
        fit($0, filters, ordered: indexOrdered, collection: .root).map {
          $0.coversFilters && $0.eachPrefixForward != nil
        } ?? false
      }) {
        return nil
      }
      return IndexDefinition(collectionGroup: path.last!, scope: .collection, fields: fields)
    case .group(let collectionID):
      guard !fields.isEmpty else { return nil }
      let candidates = indexes.indexes(for: collectionID, scope: .collectionGroup)
      if candidates.contains(where: { index in
        guard let fit = fit(index, filters, ordered: indexOrdered, collection: nil), fit.coversFilters else {
          return false
        }
        return fit.eachPrefixForward != nil || ordered.isEmpty
      }) {
        return nil
      }
      return IndexDefinition(collectionGroup: collectionID, scope: .collectionGroup, fields: fields)
    }
  }
}

extension IndexDefinition.Mode: CustomStringConvertible {
  package var description: String {
    switch self {
    case .ascending: "ASCENDING"
    case .descending: "DESCENDING"
    case .contains: "CONTAINS"
    }
  }
}
