/// Plans on declared indexes: an equality prefix (`==`, `in`, `array-contains` on the
/// index's leading fields), then the order-by fields in the index's order, so that the
/// walk yields query order and a limit stops it; a range on the first of those fields
/// bounds the walk.
extension QueryPlanner {
  /// How a declared index fits a conjunction, as far as the conjunction's shape decides
  /// it (its fields and operators, the order): a plan cache keeps it with the index it
  /// chose (`PlanCache.Choice`), so that a run of a known shape builds only the key
  /// prefixes from its values (matching fields and filters again cost a feed query ~2k
  /// instructions).
  struct CompositeLayout: Sendable {
    /// For each of the index's leading fields that an equality, `in` or array filter
    /// fixes, the position of that filter in the conjunction.
    var fixing: [Int]
    /// The fields left to walk in order.
    var rest: [IndexDefinition.Field]
    /// The direction in which the entries under each prefix are in query order; `nil`
    /// when the ordered fields' directions match neither way.
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
  func layout(_ index: DeclaredIndex, _ filters: [FieldFilter], ordered: [OrderBy]) -> CompositeLayout? {
    let fields = index.definition.fields
    // The index must end with the ordered fields (checked first: a collection may have
    // many declared indexes, and most do not fit).
    let tail = fields.count - ordered.count
    guard tail >= 0 else { return nil }
    for position in ordered.indices where fields[tail + position].path != ordered[position].field { return nil }
    // The leading fields an equality, `in` or array filter fixes: every field before the
    // ordered ones, and none of those (a `contains` field is fixed or the index unfit).
    var fixing: [Int] = []
    while fixing.count < fields.count {
      guard let filter = self.fixing(fields[fixing.count], filters) else {
        if fields[fixing.count].mode == .contains { return nil }
        break
      }
      fixing.append(filter)
    }
    guard fixing.count == tail else { return nil }
    let rest = fields[tail...]
    guard !rest.contains(where: { $0.mode == .contains }) else { return nil }
    // Forward when every ordered field runs the index's way, backward when every one runs
    // against it (the ordered fields are the index's last: `rest`).
    let agreeing = ordered.indices.count { (fields[tail + $0].mode == .descending) == ordered[$0].descending }
    let along: Bool? = if agreeing == ordered.count { true } else if agreeing == 0 { false } else { nil }
    // Ties walk in the index's name direction; the query's must agree with the walk.
    let direction = along.flatMap { (index.definition.namesDescending == order.last!.descending) == $0 ? $0 : nil }
    let fixedFields = fields[..<tail]
    let coversFilters = filters.allSatisfy { filter in
      filter.field.isDocumentID || !(filter.op == .equal || filter.op == .in || filter.op.isArrayOperator)
        || fixedFields.contains { $0.path == filter.field }
    }
    return CompositeLayout(
      fixing: fixing, rest: Array(rest), eachPrefixForward: direction, coversFilters: coversFilters)
  }

  /// The position of the filter that fixes `field` in a key prefix: an array filter for a
  /// `contains` field, else an equality, else an `in`; `nil` when none does. (A position,
  /// not a copy: a copy retains the filter's field and value.)
  private func fixing(_ field: IndexDefinition.Field, _ filters: [FieldFilter]) -> Int? {
    if field.mode == .contains { return filters.firstIndex { $0.field == field.path && $0.op.isArrayOperator } }
    return filters.firstIndex { $0.field == field.path && $0.op == .equal }
      ?? filters.firstIndex { $0.field == field.path && $0.op == .in }
  }

  /// The key prefixes of `index` that the conjunction's values give its fixed fields:
  /// one for each combination of them (none when an `in` lists nothing that can match).
  private func prefixes(
    _ index: DeclaredIndex, _ layout: CompositeLayout, _ filters: [FieldFilter], collection: CollectionNumber?
  ) -> [[UInt8]] {
    var prefixes = [CompositeIndex.prefix(index, collection)]
    for (field, position) in zip(index.definition.fields, layout.fixing) {
      let filter = filters[position]
      let mode = field.mode == .contains ? .ascending : field.mode
      // One value (an equality, or the element an array-contains looks for): appended in
      // place. An array-contains of null or NaN finds nothing.
      if filter.op == .equal || (filter.op == .arrayContains && QueryMatcher.isMatchable(filter.value)) {
        for position in prefixes.indices { CompositeIndex.append(filter.value, mode, to: &prefixes[position]) }
        continue
      }
      // A prefix for each prefix and listed value that can match, made in one array (the
      // values filtered into an array of their own, then mapped, cost an `in` of 5 ~3k).
      let values = QueryMatcher.listElements(filter.value)
      var extended: [[UInt8]] = []
      extended.reserveCapacity(prefixes.count * values.count)
      for prefix in prefixes {
        for value in values where QueryMatcher.isMatchable(value) {
          var key = prefix
          CompositeIndex.append(value, mode, to: &key)
          extended.append(key)
        }
      }
      prefixes = extended
    }
    return prefixes
  }

  /// A plan on a declared index (with `collection` for collection scope, `nil` for a
  /// collection-group index, which reads every collection of the group at once).
  func compositePlan(
    _ index: DeclaredIndex, _ filters: [FieldFilter], ordered: [OrderBy], collection: CollectionNumber?
  ) -> AccessPlan? {
    layout(index, filters, ordered: ordered).flatMap { compositePlan(index, $0, filters, collection: collection) }
  }

  /// A plan on a declared index whose layout for this conjunction is known.
  func compositePlan(
    _ index: DeclaredIndex, _ layout: CompositeLayout, _ filters: [FieldFilter], collection: CollectionNumber?
  ) -> AccessPlan? {
    var prefixes = prefixes(index, layout, filters, collection: collection)
    guard !prefixes.isEmpty else { return nil }
    // Values an `in` lists twice (or `1` and `1.0`, one key) are read once, as in
    // `exactRanges`.
    if prefixes.count > 1 { prefixes = KeyRange.sortedUnique(prefixes) }
    // A document has one entry a prefix unless an `array-contains-any` fixes an array
    // field: then one under each element it holds.
    let repeats = zip(index.definition.fields, layout.fixing).contains { field, position in
      field.mode == .contains && filters[position].op == .arrayContainsAny
    }
    let ranges = prefixes.map { prefix -> KeyRange in
      guard let first = layout.rest.first else { return .exact(prefix) }
      return Self.valueRange(after: prefix, first.path, filters, descending: first.mode == .descending) {
        CompositeIndex.append($0, first.mode, to: &$1)
      }
    }
    return AccessPlan(
      source: .composite(index: index, layout: layout, prefixes: prefixes, ranges: ranges),
      forward: prefixes.count == 1 ? layout.eachPrefixForward : nil, eachRangeForward: layout.eachPrefixForward,
      estimate: layout.rest.isEmpty
        ? .counted : .sampled(tables.indexEntries, ordered: layout.eachPrefixForward != nil),
      describe: {
        let fields = index.definition.fields.map { "\($0.path) \($0.mode)" }.joined(separator: ", ")
        return "\(index.definition.scope == .collection ? "composite" : "collection-group") index on "
          + "\(index.definition.collectionGroup) (\(fields))"
      }, meetsEachDocumentOnce: !repeats)
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
        layout($0, filters, ordered: indexOrdered).map { $0.coversFilters && $0.eachPrefixForward != nil } ?? false
      }) {
        return nil
      }
      return IndexDefinition(collectionGroup: path.last!, scope: .collection, fields: fields)
    case .group(let collectionID):
      guard !fields.isEmpty else { return nil }
      let candidates = indexes.indexes(for: collectionID, scope: .collectionGroup)
      if candidates.contains(where: { index in
        guard let layout = layout(index, filters, ordered: indexOrdered), layout.coversFilters else { return false }
        return layout.eachPrefixForward != nil || ordered.isEmpty
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
