import HearthStorage

/// What running a query read and returned, for `explain()`.
public struct QueryStatistics: Sendable {
  /// How the query was served: the index or scan, and the key ranges read.
  public var plan: String
  public var indexEntriesRead = 0
  public var documentsRead = 0
  public var resultsReturned = 0
}

/// A query's result: its documents in query order, as verified bytes for the API to
/// decode, and what running it cost.
public struct QueryResult: Sendable {
  public var documents: [EncodedDocument]
  public var statistics: QueryStatistics
  /// The same documents, decoded as the query saw them (for aggregations).
  var queryDocuments: [QueryDocument] = []
}

extension StoreReader {
  /// Runs `query` on this snapshot: for each conjunction of its filters (an OR splits
  /// into several) and each collection it reads, the plan `QueryPlanner` picks; every
  /// document read is checked against all filters, order-by fields and cursors.
  ///
  /// - Throws: `dataLoss` when a document it reads is damaged.
  ///
  /// - Parameter requireIndexes: refuse, like production Firestore, a query that needs a
  ///   composite or collection-group index that is not declared (`failedPrecondition`,
  ///   naming the index to add).
  ///
  /// - Parameter explaining: describe the plans in `statistics.plan` (for `explain()`).
  public func run(_ query: QueryModel, requireIndexes: Bool = false, explaining: Bool = false) throws -> QueryResult {
    var execution = QueryExecution(reader: self, query: query, explaining: explaining)
    return try execution.run(requireIndexes: requireIndexes)
  }
}

/// One run of a query.
struct QueryExecution {
  typealias Match = (document: QueryDocument, bytes: EncodedDocument)

  let reader: StoreReader
  let query: QueryModel
  let order: QueryOrder
  var statistics = QueryStatistics(plan: "")
  /// The top-level fields a document read decodes: those the query filters and orders on
  /// (and `reading`), UTF-8 in byte order. The rest of each document is stepped over.
  private let projection: [[UInt8]]
  private let explaining: Bool
  /// Collection numbers of the documents a collection-group index named so far.
  private var numbers: [ResourcePath: CollectionNumber] = [:]

  /// - Parameters:
  ///   - reading: fields the caller reads from `QueryResult.queryDocuments` (an
  ///     aggregation's), decoded beside the query's own.
  ///   - explaining: describe the plans in `statistics.plan`.
  init(reader: StoreReader, query: QueryModel, reading: [FieldPath] = [], explaining: Bool = false) {
    self.reader = reader
    self.query = query
    self.explaining = explaining
    order = QueryOrder(query.orderBys)
    projection = Self.topLevelNames(reading + order.orderBys.map(\.field) + Self.fields(of: query.filters))
  }

  private static func fields(of filters: [QueryFilter]) -> [FieldPath] {
    filters.flatMap { filter -> [FieldPath] in
      switch filter {
      case .field(let filter): [filter.field]
      case .and(let parts), .or(let parts): fields(of: parts)
      }
    }
  }

  /// The distinct first segments of `fields` (not `__name__`), as UTF-8 in byte order.
  private static func topLevelNames(_ fields: [FieldPath]) -> [[UInt8]] {
    let names = Set(fields.filter { !$0.isDocumentID }.compactMap { $0.first.map { Array($0.utf8) } })
    return names.sorted { $0.lexicographicallyPrecedes($1) }
  }

  private var txn: ReadTransaction { reader.txn }
  private var tables: Tables { reader.store.tables }

  /// A plan to run, on one collection or (a collection-group index) on the whole group.
  typealias PlannedRead = (plan: AccessPlan, collection: (number: CollectionNumber, path: ResourcePath)?)

  /// The plans of every conjunction, each for the collections it reads.
  private mutating func plans(requireIndexes: Bool) throws -> [[PlannedRead]] {
    let conjunctions = Self.disjunctiveNormalForm(query.filters)
    let indexes = try reader.store.catalog.current(in: txn)
    let planner = QueryPlanner(
      txn: txn, tables: tables, order: query.orderBys, limit: query.limit, indexes: indexes)
    if requireIndexes {
      for conjunction in conjunctions {
        if let missing = planner.missingIndex(conjunction, target: query.target, indexes: indexes) {
          throw Self.indexNeeded(missing)
        }
      }
    }
    var collections: [(CollectionNumber, ResourcePath)]?
    func collectionsRead() throws -> [(CollectionNumber, ResourcePath)] {
      if let collections { return collections }
      let paths: [ResourcePath]
      switch query.target {
      case .collection(let path): paths = [path]
      case .group(let collectionID): paths = try reader.collectionGroup(collectionID)
      }
      let found = try paths.compactMap { path in try reader.store.registry.number(of: path, in: txn).map { ($0, path) }
      }
      collections = found
      return found
    }
    return try conjunctions.map { conjunction in
      if case .group(let collectionID) = query.target,
        let plan = try planner.groupPlan(conjunction, collectionID: collectionID)
      {
        return [(plan, nil)]
      }
      return try collectionsRead().map { number, path in
        (try planner.plan(conjunction, collection: number, path: path), (number, path))
      }
    }
  }

  mutating func run(requireIndexes: Bool) throws -> QueryResult {
    let reads = try plans(requireIndexes: requireIndexes)
    var matches: [Match] = []
    let planned = Array(reads.joined())
    if planned.count == 1, planned[0].plan.forward != nil, !planned[0].plan.mayRepeat {
      // One walk in query order (or its reverse, for limit(toLast:)): nothing to merge.
      matches = try execute(planned[0].plan, collection: planned[0].collection)
      if query.limitType == .last { matches.reverse() }
    } else {
      var seen = Set<DocumentKey>()
      for (plan, collection) in planned {
        // An array-contains-any plan can meet a document once per element it contains, and
        // an OR's conjunctions can meet it once each.
        for match in try execute(plan, collection: collection) where seen.insert(match.document.key).inserted {
          matches.append(match)
        }
      }
      if matches.count > 1 { matches.sort { order.compare($0.document, $1.document) < 0 } }
    }
    if let limit = query.limit, matches.count > limit {
      switch query.limitType {
      case .first: matches.removeLast(matches.count - limit)
      case .last: matches.removeFirst(matches.count - limit)
      }
    }
    describe(reads)
    statistics.resultsReturned = matches.count
    return QueryResult(
      documents: matches.map(\.bytes), statistics: statistics, queryDocuments: matches.map(\.document))
  }

  /// The number of results, counted from index entries alone when every plan answers
  /// the query by itself (equalities on its own keys, no cursors): no document is read.
  /// `nil` when some plan needs the documents.
  mutating func countFromIndexes(requireIndexes: Bool) throws -> Int? {
    guard query.startAt == nil, query.endAt == nil else { return nil }
    let reads = try plans(requireIndexes: requireIndexes)
    guard reads.count == 1, let conjunction = Self.disjunctiveNormalForm(query.filters).first else { return nil }
    var total = 0
    for (plan, _) in reads[0] {
      guard let ranges = coveringRanges(plan, conjunction) else { return nil }
      let table = { if case .documents = plan.source { tables.documents } else { tables.indexEntries } }()
      var cut = false
      for range in ranges where !range.isEmpty {
        try txn.walk(table, range, forward: true) { key, _ in
          statistics.indexEntriesRead += 1
          if table == tables.indexEntries, FieldIndex.mayBeTruncated(key) { cut = true }
          total += 1
          return !cut
        }
        if cut { return nil }
      }
    }
    describe(reads)
    let count = query.limit.map { min($0, total) } ?? total
    statistics.resultsReturned = count
    return count
  }

  /// The plan's ranges when its entries are exactly the results: it enforces every
  /// filter itself and orders by nothing a document could lack beyond its own fields.
  private func coveringRanges(_ plan: AccessPlan, _ filters: [FieldFilter]) -> [KeyRange]? {
    let ordered = order.orderBys.dropLast().map(\.field)
    switch plan.source {
    case .documents(let range):
      return filters.isEmpty && ordered.isEmpty ? [range] : nil
    case .ids:
      return nil
    case .index(let field, let kind, _, let ranges):
      let exact = kind == .value ? [FilterOperator.equal, .in] : [.arrayContains]
      guard filters.allSatisfy({ $0.field == field && exact.contains($0.op) }), filters.count == 1,
        ordered.allSatisfy({ $0 == field })
      else { return nil }
      return ranges
    case .composite(let index, _, let rest, let ranges):
      let prefixFields = index.definition.fields.dropLast(rest.count).map(\.path)
      guard rest.isEmpty,
        filters.allSatisfy({ filter in
          prefixFields.contains(filter.field) && [.equal, .in, .arrayContains].contains(filter.op)
        }),
        Set(filters.map(\.field)).count == filters.count
      else { return nil }
      return ranges
    }
  }

  private mutating func describe(_ reads: [[PlannedRead]]) {
    guard explaining else { return }
    let plans = reads.joined().map { $0.plan.describe() }
    statistics.plan = plans.isEmpty ? "no collection to read" : Self.summarize(plans)
  }

  // MARK: - One plan

  /// The matches of one plan, in query order when the plan reads in order (then at most
  /// `limit` of them, from the right end), unordered otherwise.
  private mutating func execute(_ plan: AccessPlan, collection: (number: CollectionNumber, path: ResourcePath)?)
    throws -> [Match]
  {
    var matches: [Match] = []
    let last = query.limitType == .last
    // Reading in query order lets a limit stop the walk; limit(toLast:) reads backwards.
    let forward = plan.forward.map { last ? !$0 : $0 }
    let limit = plan.forward != nil ? query.limit : nil
    let near = last ? query.endAt : query.startAt
    let far = last ? query.startAt : query.endAt
    var group: [Match] = []
    var done = false

    /// Accepts a document read; returns `false` once the walk can stop.
    func accept(_ match: Match) -> Bool {
      matches.append(match)
      return limit.map { matches.count < $0 } ?? true
    }
    /// Checks a candidate; in an ordered walk, stops at the far cursor.
    func consider(_ candidate: Match) -> Bool {
      let document = candidate.document
      guard order.includes(document), QueryMatcher.matches(query.filters, document) else { return true }
      if forward != nil {
        if let far, isBeyond(far, document, isStart: last) { return false }
        if let near, isBeyond(near, document, isStart: !last) { return true }
        return accept(candidate)
      }
      if order.isWithin(start: query.startAt, end: query.endAt, document) { matches.append(candidate) }
      return true
    }

    /// Walks index ranges, considering the document each entry names.
    func walkIndex(
      _ ranges: [KeyRange], start: (key: [UInt8], value: [UInt8]?)?, number: CollectionNumber?,
      key: (UnsafeRawBufferPointer) -> DocumentKey?
    ) throws {
      let ordered = forward == false ? ranges.reversed() : ranges
      for range in ordered where !done && !range.isEmpty {
        try txn.walk(tables.indexEntries, range, forward: forward ?? true, start: start) { entryKey, value in
          statistics.indexEntriesRead += 1
          guard let documentKey = key(value), let candidate = try load(documentKey, number: number) else {
            return true
          }
          if forward != nil, FieldIndex.mayBeTruncated(entryKey) {
            // A cut key may stand for several values: order its documents before use.
            group.append(candidate)
            return true
          }
          if !flush(&group) {
            done = true
            return false
          }
          done = !consider(candidate)
          return !done
        }
        if !done, !flush(&group) { done = true }
      }
    }

    switch plan.source {
    case .ids(let ids):
      let (_, path) = collection!
      let ordered = forward == false ? ids.reversed() : ids
      for id in ordered where !done {
        if let candidate = try load(DocumentKey(path.appending(id)), number: collection!.number) {
          done = !consider(candidate)
        }
      }
    case .documents(let range):
      let (number, path) = collection!
      let start = near.flatMap { nameSeek($0, number, path) }.map { (key: $0.key, value: [UInt8]?.none) }
      try txn.walk(tables.documents, range, forward: forward ?? true, start: forward != nil ? start : nil) {
        key, bytes in
        guard let id = KeyLayout.documentID(inKey: key) else {
          throw HearthError.dataLoss("A document key in collection \(path) is not valid UTF-8")
        }
        return consider(try match(DocumentKey(path.appending(id)), bytes))
      }
    case .index(_, _, let prefix, let ranges):
      let (number, path) = collection!
      let start = forward != nil ? near.flatMap { indexSeek($0, plan, prefix, number, path) } : nil
      try walkIndex(ranges, start: start, number: number) { value in
        UTF8Text.string(value).map { DocumentKey(path.appending($0)) }
      }
    case .composite(let index, let prefixes, let rest, let ranges):
      let start =
        forward != nil && prefixes.count == 1
        ? near.flatMap { compositeSeek($0, index, prefix: prefixes[0], rest: rest) } : nil
      try walkIndex(ranges, start: start, number: collection?.number) { value in
        CompositeIndex.documentKey(index, value, in: collection?.path)
      }
    }
    return matches

    /// Considers a buffered group of documents under one cut key, in the walk's order
    /// (query order, or its reverse for `limit(toLast:)`).
    func flush(_ group: inout [Match]) -> Bool {
      defer { group.removeAll() }
      let sorted = group.sorted { order.compare($0.document, $1.document) * (last ? -1 : 1) < 0 }
      for candidate in sorted where !consider(candidate) { return false }
      return true
    }
  }

  /// Reads a document by key, in collection `number` when the plan knows it; `nil` when
  /// it is gone (an index entry never outlives its document within one snapshot, so this
  /// is only defensive).
  private mutating func load(_ key: DocumentKey, number known: CollectionNumber?) throws -> Match? {
    let number: CollectionNumber
    if let known {
      number = known
    } else if let cached = numbers[key.collectionPath] {
      number = cached
    } else {
      guard let found = try reader.store.registry.number(ofCollectionOf: key, in: txn) else { return nil }
      numbers[key.collectionPath] = found
      number = found
    }
    guard let bytes = try txn.get(KeyLayout.documentKey(number, key.documentID), in: tables.documents) else {
      return nil
    }
    return try match(key, bytes)
  }

  /// A document read: its bytes verified once, the fields the query looks at decoded.
  private mutating func match(_ key: DocumentKey, _ bytes: UnsafeRawBufferPointer) throws -> Match {
    statistics.documentsRead += 1
    let encoded = try EncodedDocument(key: key, verifying: bytes)
    let fields = try DocumentCodec.decodeFields(bytes, key: key, named: projection)
    return (QueryDocument(key: key, fields: fields), encoded)
  }

  /// Whether `document` lies past `bound` on the far side (before a start cursor, after
  /// an end cursor) in query order.
  private func isBeyond(_ bound: Bound, _ document: QueryDocument, isStart: Bool) -> Bool {
    let position = order.compare(bound, document)
    return isStart ? (bound.inclusive ? position > 0 : position >= 0) : (bound.inclusive ? position < 0 : position <= 0)
  }

  // MARK: - Cursor seeks

  /// Where a cursor on `__name__` falls in this collection's documents table.
  private func nameSeek(_ bound: Bound, _ number: CollectionNumber, _ path: ResourcePath) -> (key: [UInt8], id: String)?
  {
    guard let first = bound.values.first, order.orderBys.first?.field.isDocumentID == true,
      case .reference(let key) = first, key.collectionPath == path
    else { return nil }
    return (KeyLayout.documentKey(number, key.documentID), key.documentID)
  }

  /// Where a cursor falls in an index read in query order: at the key of its first value
  /// (when the index is on the first order-by field), and at its document ID among that
  /// key's entries (when the next order-by is `__name__`).
  private func indexSeek(
    _ bound: Bound, _ plan: AccessPlan, _ prefix: [UInt8], _ number: CollectionNumber, _ path: ResourcePath
  ) -> (key: [UInt8], value: [UInt8]?)? {
    guard case .index(let field, let kind, _, let ranges) = plan.source, kind == .value else { return nil }
    let orderBys = order.orderBys
    func id(at index: Int) -> [UInt8]? {
      guard bound.values.count > index, orderBys[index].field.isDocumentID,
        case .reference(let key) = bound.values[index], key.collectionPath == path
      else { return nil }
      return Array(key.documentID.utf8)
    }
    if orderBys[0].field == field, let value = bound.values.first {
      let key = FieldIndex.key(prefix, value)
      // A cut key's entries are not in value order: position at the whole key.
      return (key, key.count >= FieldIndex.maxKeyBytes ? nil : id(at: 1))
    }
    if ranges.count == 1, ranges[0].isExact, let id = id(at: 0) { return (ranges[0].lower, id) }
    return nil
  }

  /// Where a cursor falls in a declared index read in query order: after the equality
  /// prefix, the cursor's values of the index's ordered fields (as many as it gives in a
  /// row), and its document among their entries when it gives every order-by value.
  private func compositeSeek(
    _ bound: Bound, _ index: DeclaredIndex, prefix: [UInt8], rest: [IndexDefinition.Field]
  ) -> (key: [UInt8], value: [UInt8]?)? {
    let orderBys = order.orderBys
    var key = prefix
    var used = 0
    for field in rest {
      guard let position = orderBys.firstIndex(where: { $0.field == field.path }), position < bound.values.count
      else { break }
      CompositeIndex.append(bound.values[position], field.mode, to: &key)
      used += 1
    }
    guard used > 0 || rest.isEmpty else { return nil }
    var value: [UInt8]?
    if used == rest.count, bound.values.count == orderBys.count, case .reference(let name) = bound.values.last! {
      value = CompositeIndex.data(index, name)
    }
    // A cut key's entries are not in value order: position at the whole key.
    if key.count >= FieldIndex.maxKeyBytes { return (Array(key.prefix(FieldIndex.maxKeyBytes)), nil) }
    return (key, value)
  }

  /// Plans repeated over many collections, said once with a count.
  static func summarize(_ plans: [String]) -> String {
    var counts: [(String, Int)] = []
    for plan in plans {
      if let position = counts.firstIndex(where: { $0.0 == plan }) {
        counts[position].1 += 1
      } else {
        counts.append((plan, 1))
      }
    }
    return counts.map { $0.1 > 1 ? "\($0.0) ×\($0.1)" : $0.0 }.joined(separator: "; ")
  }

  /// The error of a query that needs an index not declared, with the index to add.
  static func indexNeeded(_ index: IndexDefinition) -> HearthError {
    let file: IndexFile
    if index.scope == .collectionGroup, index.fields.count == 1 {
      file = IndexFile(
        indexes: [index],
        fieldOverrides: [
          FieldOverride(
            collectionGroup: index.collectionGroup, path: index.fields[0].path,
            collectionModes: [.ascending, .descending, .contains])
        ])
    } else {
      file = IndexFile(indexes: [index])
    }
    return HearthError(
      .failedPrecondition,
      "The query requires an index (Settings.requireIndexes is on). Add it to firestore.indexes.json or declare it "
        + "with declareIndexes(json:): \(file.serialized(pretty: false))")
  }

  // MARK: - Disjunctive normal form

  /// The filters as an OR of ANDs of field filters (`in` lists stay whole: an index
  /// reads them as several ranges).
  static func disjunctiveNormalForm(_ filters: [QueryFilter]) -> [[FieldFilter]] {
    filters.reduce([[]]) { conjunctions, filter in
      let expanded = expand(filter)
      return conjunctions.flatMap { left in expanded.map { left + $0 } }
    }
  }

  private static func expand(_ filter: QueryFilter) -> [[FieldFilter]] {
    switch filter {
    case .field(let field): [[field]]
    case .and(let parts): disjunctiveNormalForm(parts)
    case .or(let parts): parts.flatMap(expand)
    }
  }
}
