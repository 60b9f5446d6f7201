import HearthStorage

/// One way to read a conjunction's candidates from one collection, chosen by
/// `QueryPlanner` as the one expected to read the fewest entries.
struct AccessPlan {
  enum Source {
    /// The collection's documents, in ID order, within a range of document-table keys.
    case documents(KeyRange)
    /// Documents looked up by ID (`__name__ ==` or `in`).
    case ids([String])
    /// A single-field index's entries within key ranges (see `FieldIndex`).
    case index(field: FieldPath, kind: FieldIndex.Kind, prefix: [UInt8], ranges: [KeyRange])
    /// A declared index's entries within key ranges (see `CompositeIndex`): one range a
    /// prefix of equality values, over the rest of the index's fields (`layout.rest`).
    case composite(
      index: DeclaredIndex, layout: QueryPlanner.CompositeLayout, prefixes: [[UInt8]], ranges: [KeyRange])
    /// The documents under every one of several single-field indexes' exact keys (one an
    /// equality or `array-contains` on `fields`), the key with fewest entries first
    /// (`KeyIntersection`).
    case intersection(fields: [FieldPath], keys: [[UInt8]])
  }

  var source: Source
  /// Reading the source forward (`true`) or backward (`false`) yields query order; `nil`
  /// when it does not, and the matches are sorted.
  var forward: Bool?
  /// Reading each range on its own in this direction yields query order: the ranges of an
  /// `in`, or of several equality prefixes, are then merged. `nil` when a range's entries
  /// are not in query order.
  var eachRangeForward: Bool?
  /// How many entries it is expected to read, measured only when plans are weighed
  /// (`QueryPlanner.entries`): a plan taken alone, or the only one a count prefers,
  /// reads nothing to be chosen.
  var estimate: Estimate

  enum Estimate {
    case known(Int)
    /// The entries under its exact keys, counted.
    case counted
    /// Its ranges' entries in `table`, sampled (see `QueryPlanner.sample`).
    case sampled(Table, ordered: Bool)
  }
  /// The plan in words, for `explain()` (built only when asked: a value's text costs more
  /// than running a small query).
  var describe: () -> String
  /// No document lies under two of its ranges, so a merge of their walks needs no check
  /// for repeats: the distinct values an `in` lists, of a field a document has one entry
  /// for. (`array-contains-any` meets a document under each element it holds.)
  var meetsEachDocumentOnce = false
  /// Its ranges leave out exactly the values that its field's `!=` or `not-in` excludes
  /// (`QueryPlanner.ranges(_:excluding:_:)`), so its keys prove that filter too.
  var excludesExactly = false

  /// The ranges the plan reads (none for a lookup by ID).
  var ranges: [KeyRange] {
    switch source {
    case .documents(let range): [range]
    case .ids, .intersection: []
    case .index(_, _, _, let ranges), .composite(_, _, _, let ranges): ranges
    }
  }
}

/// Chooses, for one conjunction of filters on one collection, the index and key ranges
/// that read the fewest entries: an equality (exactly counted), then `in` and
/// `array-contains`, then one range or the order-by field; a collection scan when
/// nothing fits. Every filter is still checked on each document read (unless the plan's
/// exact keys prove the match, see `QueryExecution.streams`), so a plan only has to find
/// a superset of the matches.
struct QueryPlanner {
  let txn: ReadTransaction
  let tables: Tables
  let order: [OrderBy]
  let limit: Int?
  let indexes: IndexSet
  /// Plans to take before any other that fits, whatever their estimates: a count takes one
  /// whose keys alone answer it (`QueryExecution.countFromIndexes`).
  var preferring: ((AccessPlan, [FieldFilter]) -> Bool)? = nil

  /// Sampling stops here: a range with more entries counts as large.
  static let sampleLimit = 100
  static let large = 1_000_000

  /// The choices made by shape (`PlanCache`); `nil` in a write transaction, whose index
  /// catalog may not be committed.
  var cache: PlanCache? = nil

  /// The best plan for one collection.
  func plan(_ filters: [FieldFilter], collection: CollectionNumber, path: ResourcePath) throws -> AccessPlan {
    let shape = self.shape(filters, path.last!, .collection)
    if let shape, let choice = cache?.choice(shape, version: indexes.version),
      let plan = try rebuild(choice, filters, collection: collection, path: path)
    {
      return plan
    }
    let (plan, byShape) = try choose(filters, collection: collection, path: path)
    if byShape, let shape, let choice = Self.choice(of: plan, filters) {
      cache?.remember(choice, for: shape, version: indexes.version)
    }
    return plan
  }

  /// The best plan for one collection, and whether the query's shape alone chose it (no
  /// estimate was weighed).
  private func choose(_ filters: [FieldFilter], collection: CollectionNumber, path: ResourcePath) throws
    -> (AccessPlan, byShape: Bool)
  {
    var candidates: [AccessPlan] = []
    let ordered = orderedFields(filters)
    for index in indexes.indexes(for: path.last!, scope: .collection) {
      if let plan = compositePlan(index, filters, ordered: ordered, collection: collection) {
        candidates.append(plan)
      }
    }
    // A declared index read in query order that covers every filter stops at the limit:
    // taken without weighing the others, as production Firestore takes it.
    if limit != nil, preferring == nil,
      let served = candidates.first(where: { plan in
        plan.forward != nil && filters.allSatisfy { covers(plan, $0) }
      })
    {
      return (served, true)
    }
    let overrides = indexes.modes(path.last!)
    if candidates.isEmpty, let intersection = try intersectionPlan(filters, collection, overrides) {
      return (intersection, false)
    }
    candidates.append(try documentsPlan(filters, collection, path))
    let fields = filteredFields(filters)
    for field in fields {
      let onField = filters.filter { $0.field == field }
      if FieldIndex.keeps(.value, field, overrides), let plan = try valuePlan(field, onField, collection) {
        candidates.append(plan)
      }
      if FieldIndex.keeps(.arrayElement, field, overrides), let plan = try arrayPlan(field, onField, collection) {
        candidates.append(plan)
      }
    }
    if let first = order.first, FieldIndex.keeps(.value, first.field, overrides),
      let plan = try orderPlan(collection, excluding: fields)
    {
      candidates.append(plan)
    }
    return try best(candidates, filters)
  }

  /// The fields filtered on, each once (not `__name__`).
  private func filteredFields(_ filters: [FieldFilter]) -> [FieldPath] {
    var fields: [FieldPath] = []
    for filter in filters where !filter.field.isDocumentID && !fields.contains(filter.field) {
      fields.append(filter.field)
    }
    return fields
  }

  /// The best plan on a collection-group index, which reads the whole group at once; `nil`
  /// when none fits.
  func groupPlan(_ filters: [FieldFilter], collectionID: String) throws -> AccessPlan? {
    let shape = self.shape(filters, collectionID, .collectionGroup)
    if let shape, case .composite(let index, let layout)? = cache?.choice(shape, version: indexes.version),
      let plan = compositePlan(index, layout, filters, collection: nil)
    {
      return plan
    }
    let ordered = orderedFields(filters)
    var candidates = indexes.indexes(for: collectionID, scope: .collectionGroup).compactMap {
      compositePlan($0, filters, ordered: ordered, collection: nil)
    }
    // None preferred: the group's collections may each have one.
    if let preferring { candidates = candidates.filter { preferring($0, filters) } }
    guard !candidates.isEmpty else { return nil }
    let (plan, byShape) = try best(candidates, filters)
    if byShape, let shape, let choice = Self.choice(of: plan, filters) {
      cache?.remember(choice, for: shape, version: indexes.version)
    }
    return plan
  }

  /// The plan expected to read the fewest entries (of those `preferring` prefers, when it
  /// prefers any), and whether it was the only one (no estimate was made: estimates are
  /// made only when there are several to weigh).
  private func best(_ plans: [AccessPlan], _ filters: [FieldFilter]) throws -> (AccessPlan, byShape: Bool) {
    let preferred = preferring.map { preferring in plans.filter { preferring($0, filters) } } ?? []
    let candidates = preferred.isEmpty ? plans : preferred
    guard candidates.count > 1 else { return (candidates[0], true) }
    var estimates = try candidates.map(entries)
    for index in candidates.indices where candidates[index].eachRangeForward != nil {
      if let limit {
        // A walk in query order stops at the limit; a merge of several reads one more a range.
        let served = filters.allSatisfy { covers(candidates[index], $0) }
        let ranges = candidates[index].forward != nil ? 1 : max(candidates[index].ranges.count, 1)
        estimates[index] = min(estimates[index], (served ? limit : limit * 8) + ranges)
      }
    }
    let chosen = candidates.indices.min { a, b in
      estimates[a] != estimates[b]
        ? estimates[a] < estimates[b] : (candidates[a].eachRangeForward != nil && candidates[b].eachRangeForward == nil)
    }!
    return (candidates[chosen], false)
  }

  // MARK: - Choices by shape

  /// The shape `cache` keeps this conjunction's choice under (see `PlanCache`), when there
  /// is a cache and the shape decides.
  private func shape(_ filters: [FieldFilter], _ collectionID: String, _ scope: IndexDefinition.Scope)
    -> PlanCache.Shape?
  {
    guard cache != nil else { return nil }
    return PlanCache.Shape(
      filters, collectionID: collectionID, scope: scope, order: order, limited: limit != nil,
      counting: preferring != nil)
  }

  /// Which candidate `plan` is.
  private static func choice(of plan: AccessPlan, _ filters: [FieldFilter]) -> PlanCache.Choice? {
    switch plan.source {
    case .documents: .documents
    case .ids, .intersection: nil
    case .composite(let index, let layout, _, _): .composite(index, layout)
    case .index(let field, .arrayElement, _, _): .arrayElements(field)
    case .index(let field, .value, _, _): filters.contains { $0.field == field } ? .value(field) : .order
    }
  }

  /// The candidate `choice` names, built from these filters' values; `nil` when it does not
  /// fit them (then the plan is chosen afresh).
  private func rebuild(
    _ choice: PlanCache.Choice, _ filters: [FieldFilter], collection: CollectionNumber, path: ResourcePath
  ) throws -> AccessPlan? {
    switch choice {
    case .composite(let index, let layout): compositePlan(index, layout, filters, collection: collection)
    case .value(let field): try valuePlan(field, filters.filter { $0.field == field }, collection)
    case .arrayElements(let field): try arrayPlan(field, filters.filter { $0.field == field }, collection)
    case .order: try orderPlan(collection, excluding: filteredFields(filters))
    case .documents: try documentsPlan(filters, collection, path)
    }
  }

  /// The entries the plan is expected to read (its `estimate`, measured).
  private func entries(_ plan: AccessPlan) throws -> Int {
    switch plan.estimate {
    case .known(let entries): entries
    case .counted: try count(plan.ranges)
    case .sampled(let table, let ordered): try sample(table, plan.ranges, ordered: ordered)
    }
  }

  // MARK: - Candidates

  /// The documents table: a scan, narrowed by `__name__` filters on this collection.
  private func documentsPlan(_ filters: [FieldFilter], _ collection: CollectionNumber, _ path: ResourcePath) throws
    -> AccessPlan
  {
    let ordered = isOrdered(by: [])
    for filter in filters where filter.field.isDocumentID && (filter.op == .equal || filter.op == .in) {
      let ids = QueryMatcher.listElements(filter.value).compactMap { value -> String? in
        guard case .reference(let key) = value, key.collectionPath == path else { return nil }
        return key.documentID
      }
      let sorted = Array(Set(ids)).sorted { NumericID.compare($0, $1) < 0 }
      return AccessPlan(
        source: .ids(sorted), forward: ordered, eachRangeForward: ordered, estimate: .known(sorted.count),
        describe: { "documents of \(path) by ID (\(sorted.count))" })
    }
    var range = KeyRange.prefixed(collection.bytes)
    var narrowed = false
    for filter in filters where filter.field.isDocumentID && filter.op.isRange {
      guard case .reference(let key) = filter.value else { continue }
      let lower = filter.op == .greaterThan || filter.op == .greaterThanOrEqual
      var inclusive = filter.op == .lessThanOrEqual || filter.op == .greaterThanOrEqual
      // A bound in another collection (a collection group's, or one below this) narrows
      // this one too: to nothing when all its documents lie past it, or at the ancestor
      // of the bound's document that this collection holds, which orders before it.
      let id: String
      switch path.placement(against: key) {
      case .before where !lower, .after where lower: continue
      case .before, .after:
        range = KeyRange(lower: range.lower, lowerInclusive: false, upper: range.lower, upperInclusive: false)
        narrowed = true
        continue
      case .around(let documentID, let isKey):
        id = documentID
        if !isKey { inclusive = !lower }
      }
      let bound = KeyLayout.documentKey(collection, id)
      let side =
        lower
        ? KeyRange(lower: bound, lowerInclusive: inclusive, upper: range.upper, upperInclusive: range.upperInclusive)
        : KeyRange(lower: range.lower, lowerInclusive: range.lowerInclusive, upper: bound, upperInclusive: inclusive)
      range = range.intersection(side)
      narrowed = true
    }
    let estimate: AccessPlan.Estimate =
      narrowed ? .sampled(tables.documents, ordered: ordered != nil) : .known(Self.large * 2)
    return AccessPlan(
      source: .documents(range), forward: ordered, eachRangeForward: ordered, estimate: estimate,
      describe: { "documents of \(path)\(narrowed ? " within an ID range" : "") (scan)" })
  }

  /// The field's value index, for equality, `in`, ranges, `!=` and `not-in`.
  private func valuePlan(_ field: FieldPath, _ filters: [FieldFilter], _ collection: CollectionNumber) throws
    -> AccessPlan?
  {
    guard let prefix = FieldIndex.prefix(.value, collection, field) else { return nil }
    let ranges: [KeyRange]
    let what: () -> String
    var excludesExactly = false
    if let equal = filters.first(where: { $0.op == .equal }) {
      ranges = [.exact(FieldIndex.key(prefix, equal.value))]
      what = { "== \(equal.value)" }
    } else if let list = filters.first(where: { $0.op == .in }) {
      ranges = exactRanges(prefix, QueryMatcher.listElements(list.value).filter(QueryMatcher.isMatchable))
      what = { [count = ranges.count] in "in \(count) values" }
    } else if filters.contains(where: { $0.op.isRange }) {
      let range = Self.valueRange(after: prefix, field, filters, descending: false) { KeyCodec.append($0, to: &$1) }
      if let exclusion = filters.first(where: { $0.op == .notEqual || $0.op == .notIn }) {
        // `a > 1 and a != 5`: the range less the excluded keys inside it.
        let (kept, left) = Self.ranges(range, excluding: exclusion, prefix)
        (ranges, excludesExactly) = (kept, left.exactly)
        what = { "range\(Self.less(left.keys))" }
      } else {
        ranges = [range]
        what = { "range" }
      }
    } else if let exclusion = filters.first(where: { $0.op == .notEqual || $0.op == .notIn }) {
      var notNull = KeyRange.prefixed(prefix)
      notNull.lower = prefix + [KeyCodec.Label.boolean.rawValue]
      let (kept, left) = Self.ranges(notNull, excluding: exclusion, prefix)
      (ranges, excludesExactly) = (kept, left.exactly)
      what = { kept.isEmpty ? "none: the not-in lists null" : "not null\(Self.less(left.keys))" }
    } else {
      return nil
    }
    let exact = ranges.allSatisfy(\.isExact)
    // Within one exact key, entries are in document-ID order.
    let eachOrdered = isOrdered(by: [field]) ?? (exact ? isOrdered(by: []) : nil)
    let ordered = isOrdered(by: [field]) ?? (ranges.count == 1 ? eachOrdered : nil)
    // A document has one value of the field, under one key (`exactRanges` lists each once).
    return AccessPlan(
      source: .index(field: field, kind: .value, prefix: prefix, ranges: ranges), forward: ordered,
      eachRangeForward: eachOrdered,
      estimate: exact ? .counted : .sampled(tables.indexEntries, ordered: ordered != nil),
      describe: { "index on \(field) (\(what()))" }, meetsEachDocumentOnce: true, excludesExactly: excludesExactly)
  }

  /// How `explain()` says that a plan's ranges leave out `keys` excluded values.
  private static func less(_ keys: Int) -> String {
    keys == 0 ? "" : ", less \(keys) value\(keys == 1 ? "" : "s")"
  }

  /// The keys of `range` (a field's non-null values, or those its range filters admit,
  /// none null) less those of the values a `!=` or `not-in` excludes: the ranges between
  /// them, so that a value most documents hold is stepped over by one seek instead of
  /// each of its documents being read and rejected (`status != "done"`). A `not-in` that
  /// lists null matches nothing; `!= null` leaves out only null, which `range` already
  /// does. A key cut at the length limit stays in (it may stand for other values too),
  /// and then the ranges are not `exactly` the matches: its documents are checked as they
  /// are read.
  ///
  /// - Returns: the ranges; how many keys inside `range` they leave out, and whether that
  ///   is every value the filter excludes.
  static func ranges(_ range: KeyRange, excluding filter: FieldFilter, _ prefix: [UInt8])
    -> (ranges: [KeyRange], left: (keys: Int, exactly: Bool))
  {
    let values = filter.op == .notIn ? QueryMatcher.listElements(filter.value) : [filter.value]
    if filter.op == .notIn, values.contains(where: { if case .null = $0 { true } else { false } }) {
      return ([], (0, true))
    }
    var keys: [[UInt8]] = []
    var exactly = true
    for value in values {
      if case .null = value { continue }
      let key = FieldIndex.key(prefix, value)
      guard key.count < FieldIndex.maxKeyBytes else {
        exactly = false
        continue
      }
      // A key outside the range leaves nothing out of it.
      if key.withUnsafeBytes({ range.isAboveLower($0) && range.isBelowUpper($0) }) { keys.append(key) }
    }
    keys = KeyRange.sortedUnique(keys)
    var ranges: [KeyRange] = []
    ranges.reserveCapacity(keys.count + 1)
    var lower = (key: range.lower, inclusive: range.lowerInclusive)
    for key in keys {
      ranges.append(KeyRange(lower: lower.key, lowerInclusive: lower.inclusive, upper: key, upperInclusive: false))
      lower = (key, false)
    }
    ranges.append(
      KeyRange(
        lower: lower.key, lowerInclusive: lower.inclusive, upper: range.upper, upperInclusive: range.upperInclusive)
    )
    return (ranges.filter { !$0.isEmpty }, (keys.count, exactly))
  }

  /// The field's array-element index, for `array-contains` and `array-contains-any`.
  private func arrayPlan(_ field: FieldPath, _ filters: [FieldFilter], _ collection: CollectionNumber) throws
    -> AccessPlan?
  {
    let elements: [Value]
    if let contains = filters.first(where: { $0.op == .arrayContains }) {
      elements = [contains.value]
    } else if let any = filters.first(where: { $0.op == .arrayContainsAny }) {
      elements = QueryMatcher.listElements(any.value)
    } else {
      return nil
    }
    guard let prefix = FieldIndex.prefix(.arrayElement, collection, field) else { return nil }
    let ranges = exactRanges(prefix, elements.filter(QueryMatcher.isMatchable))
    return AccessPlan(
      source: .index(field: field, kind: .arrayElement, prefix: prefix, ranges: ranges),
      forward: ranges.count == 1 ? isOrdered(by: []) : nil, eachRangeForward: isOrdered(by: []),
      estimate: .counted,
      describe: { "array index on \(field) (contains \(ranges.count == 1 ? "1 value" : "any of \(ranges.count)"))" })
  }

  /// The documents under every filter's exact key, when the filters are two or more
  /// equalities and `array-contains` on indexed fields (no declared index fits them) and
  /// the query is in name order: their entries are intersected
  /// (`KeyIntersection`), so only the matches' documents are read, and the keys prove
  /// every filter (a count reads none), as production Firestore merges single-field
  /// indexes. (Reading the entries of one of the keys read each of its documents and
  /// rejected those the others' values left out.)
  private func intersectionPlan(
    _ filters: [FieldFilter], _ collection: CollectionNumber, _ overrides: FieldIndex.Overrides
  ) throws -> AccessPlan? {
    // Every filter is checked before any key is counted: most conjunctions of several
    // filters are not intersections (`a == 1 and b > 3`), and are planned without a seek.
    guard filters.count > 1, let forward = isOrdered(by: []),
      filters.allSatisfy({ $0.op == .equal || ($0.op == .arrayContains && QueryMatcher.isMatchable($0.value)) })
    else { return nil }
    var keys: [(key: [UInt8], entries: Int)] = []
    for filter in filters {
      let kind: FieldIndex.Kind = filter.op == .equal ? .value : .arrayElement
      guard !filter.field.isDocumentID, FieldIndex.keeps(kind, filter.field, overrides),
        let prefix = FieldIndex.prefix(kind, collection, filter.field)
      else { return nil }
      let key = FieldIndex.key(prefix, filter.value)
      // A cut key may stand for other values too.
      guard key.count < FieldIndex.maxKeyBytes else { return nil }
      if !keys.contains(where: { $0.key == key }) { keys.append((key, try count([.exact(key)]))) }
    }
    // Filters that name one key (`a == 1`, `a == 1.0`) are read as that key alone.
    guard keys.count > 1 else { return nil }
    keys.sort { $0.entries < $1.entries }
    let fields = filters.map(\.field)
    let ordered = keys.map(\.key)
    return AccessPlan(
      source: .intersection(fields: fields, keys: ordered), forward: forward, eachRangeForward: forward,
      estimate: .known(keys[0].entries),
      describe: {
        "\(ordered.count) single-field indexes intersected (\(fields.map(\.description).joined(separator: ", ")))"
      })
  }

  /// The first order-by field's index, read in order, when no filter is on that field.
  private func orderPlan(_ collection: CollectionNumber, excluding filtered: [FieldPath]) throws -> AccessPlan? {
    guard let first = order.first, !first.field.isDocumentID, !filtered.contains(first.field),
      let forward = isOrdered(by: [first.field]),
      let prefix = FieldIndex.prefix(.value, collection, first.field)
    else { return nil }
    return AccessPlan(
      source: .index(field: first.field, kind: .value, prefix: prefix, ranges: [.prefixed(prefix)]),
      forward: forward, eachRangeForward: forward, estimate: .known(Self.large),
      describe: { "index on \(first.field) (in order)" })
  }

  // MARK: - Pieces

  /// Whether reading entries ordered by `fields` then document ID yields the query's
  /// order: the direction to read in, or `nil`.
  private func isOrdered(by fields: [FieldPath]) -> Bool? {
    guard order.count == fields.count + 1, order.last!.field.isDocumentID,
      zip(order, fields).allSatisfy({ $0.field == $1 }),
      order.allSatisfy({ $0.descending == order[0].descending })
    else { return nil }
    return !order[0].descending
  }

  /// Whether the plan's own ranges enforce the filter (so it needs no re-check to be
  /// selective); used to trust a limit in the estimate.
  private func covers(_ plan: AccessPlan, _ filter: FieldFilter) -> Bool {
    switch plan.source {
    case .documents: return filter.field.isDocumentID
    case .ids: return filter.field.isDocumentID
    case .index(let field, _, _, _): return filter.field == field
    case .intersection(let fields, _): return fields.contains(filter.field)
    case .composite(let index, _, _, _):
      return index.definition.fields.contains { $0.path == filter.field }
    }
  }

  private func exactRanges(_ prefix: [UInt8], _ values: [Value]) -> [KeyRange] {
    KeyRange.sortedUnique(values.map { FieldIndex.key(prefix, $0) }).map(KeyRange.exact)
  }

  /// The keys after `prefix` of the values that every range filter on `field` admits:
  /// within each operand's type class (a range never matches another type), between the
  /// tightest bounds, and without NaN, which no range matches, in number ranges. `append`
  /// adds a value's key bytes as the index stores them (complemented for a `descending`
  /// field, whose keys run against its values). Each key is built once, straight from
  /// `prefix`: temporary keys cost a range query ~15 allocations.
  static func valueRange(
    after prefix: [UInt8], _ field: FieldPath, _ filters: [FieldFilter], descending: Bool,
    append: (Value, inout [UInt8]) -> Void
  ) -> KeyRange {
    var range: KeyRange?
    var typeClass: UInt8?
    var leavesOutNaN = false
    for filter in filters where filter.op.isRange && filter.field == field {
      let label = KeyCodec.Label(filter.value.typeOrder).rawValue
      let labelByte = descending ? ~label : label
      if labelByte != typeClass {
        // The type class: every key that starts with the label.
        var labelled = prefix
        labelled.append(labelByte)
        let within = KeyRange.prefixed(labelled)
        range = range?.intersection(within) ?? within
        typeClass = labelByte
      }
      var bound = prefix
      append(filter.value, &bound)
      if bound.count > FieldIndex.maxKeyBytes { bound.removeLast(bound.count - FieldIndex.maxKeyBytes) }
      // A key cut at the length limit may stand for larger values too: keep it inclusive.
      let inclusive =
        filter.op == .lessThanOrEqual || filter.op == .greaterThanOrEqual
        || bound.count >= FieldIndex.maxKeyBytes
      // A lower bound on the value is a lower bound on the key, unless the field is
      // descending, where the order of keys is the reverse of the order of values.
      let isLower = (filter.op == .greaterThan || filter.op == .greaterThanOrEqual) != descending
      range = isLower ? range!.raisingLower(to: bound, inclusive) : range!.loweringUpper(to: bound, inclusive)
      if filter.value.isNumber, !leavesOutNaN {
        range = aboveNaN(range!, prefix, descending: descending)
        leavesOutNaN = true
      }
    }
    return range ?? .prefixed(prefix)
  }

  /// `range` (within `prefix`) less the keys of NaN, which sorts below every number
  /// (above, descending): NaN's value is the label and a zero header (`KeyCodec`), which
  /// no other number has, so the keys of every other number start at the label and
  /// header 1.
  static func aboveNaN(_ range: KeyRange, _ prefix: [UInt8], descending: Bool) -> KeyRange {
    let label = KeyCodec.Label.number.rawValue
    var bound = prefix
    bound.append(descending ? ~label : label)
    bound.append(descending ? 0xFF : 0x00)
    bound.append(descending ? 0xFF : 0x01)
    return descending ? range.loweringUpper(to: bound, false) : range.raisingLower(to: bound, true)
  }

  /// The exact number of entries under exact keys.
  func count(_ ranges: [KeyRange]) throws -> Int {
    let cursor = try txn.cursor(tables.indexEntries)
    var total = 0
    for range in ranges where try cursor.seek(exactly: range.lower) != nil {
      total += try cursor.duplicateCount()
    }
    return total
  }

  /// How many entries the ranges hold, counted up to `sampleLimit`; `large` beyond. A
  /// plan read in order under a limit is not sampled: the limit bounds it (see `best`).
  func sample(_ table: Table, _ ranges: [KeyRange], ordered: Bool) throws -> Int {
    if ordered && limit != nil { return Self.large }
    var seen = 0
    for range in ranges where !range.isEmpty {
      try txn.walk(table, range, forward: true) { _, _ in
        seen += 1
        return seen <= Self.sampleLimit
      }
      if seen > Self.sampleLimit { return Self.large }
    }
    return seen
  }
}
