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
}

extension StoreReader {
  /// Runs `query` on this snapshot: for each conjunction of its filters (an OR splits
  /// into several) and each collection it reads, the plan `QueryPlanner` picks; every
  /// document read is checked against all filters, order-by fields and cursors.
  ///
  /// - Throws: `dataLoss` when a document it reads is damaged.
  public func run(_ query: QueryModel) throws -> QueryResult {
    var execution = QueryExecution(reader: self, query: query)
    return try execution.run()
  }
}

/// One run of a query.
struct QueryExecution {
  typealias Match = (document: QueryDocument, bytes: EncodedDocument)

  let reader: StoreReader
  let query: QueryModel
  let order: QueryOrder
  var statistics = QueryStatistics(plan: "")

  init(reader: StoreReader, query: QueryModel) {
    self.reader = reader
    self.query = query
    order = QueryOrder(query.orderBys)
  }

  private var txn: ReadTransaction { reader.txn }
  private var tables: Tables { reader.store.tables }

  mutating func run() throws -> QueryResult {
    let collections: [ResourcePath]
    switch query.target {
    case .collection(let path): collections = [path]
    case .group(let collectionID): collections = try reader.collectionGroup(collectionID)
    }
    let conjunctions = Self.disjunctiveNormalForm(query.filters)
    let planner = QueryPlanner(txn: txn, tables: tables, order: query.orderBys, limit: query.limit)
    var plans: [String] = []
    var matches: [Match] = []
    let single = collections.count == 1 && conjunctions.count == 1
    var seen = Set<DocumentKey>()
    for path in collections {
      guard let number = try reader.store.registry.number(of: path, in: txn) else { continue }
      for conjunction in conjunctions {
        let plan = try planner.plan(conjunction, collection: number, path: path)
        plans.append(plan.description)
        // An array-contains-any plan can meet a document once per element it contains.
        for match in try execute(plan, number, path) where seen.insert(match.document.key).inserted {
          matches.append(match)
        }
      }
    }
    if !single || matches.count > 1 {
      matches.sort { order.compare($0.document, $1.document) < 0 }
    }
    if let limit = query.limit, matches.count > limit {
      switch query.limitType {
      case .first: matches.removeLast(matches.count - limit)
      case .last: matches.removeFirst(matches.count - limit)
      }
    }
    statistics.plan = plans.isEmpty ? "no collection to read" : plans.joined(separator: "; ")
    statistics.resultsReturned = matches.count
    return QueryResult(documents: matches.map(\.bytes), statistics: statistics)
  }

  // MARK: - One plan

  /// The matches of one plan, in query order when the plan reads in order (then at most
  /// `limit` of them, from the right end), unordered otherwise.
  private mutating func execute(_ plan: AccessPlan, _ number: CollectionNumber, _ path: ResourcePath) throws
    -> [Match]
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

    switch plan.source {
    case .ids(let ids):
      let ordered = forward == false ? ids.reversed() : ids
      for id in ordered where !done {
        if let candidate = try load(number, path, id) { done = !consider(candidate) }
      }
    case .documents(let range):
      let start = near.flatMap { nameSeek($0, number, path) }.map { (key: $0.key, value: [UInt8]?.none) }
      try txn.walk(tables.documents, range, forward: forward ?? true, start: forward != nil ? start : nil) {
        key, bytes in
        guard let id = KeyLayout.documentID(inKey: key) else {
          throw HearthError.dataLoss("A document key in collection \(path) is not valid UTF-8")
        }
        statistics.documentsRead += 1
        let documentKey = DocumentKey(path.appending(id))
        let fields = try DocumentCodec.decode(bytes, key: documentKey).fields
        return consider((QueryDocument(key: documentKey, fields: fields), try EncodedDocument(key: documentKey, verifying: bytes)))
      }
    case .index(_, _, let prefix, let ranges):
      let ordered = forward == false ? ranges.reversed() : ranges
      let start = forward != nil ? near.flatMap { indexSeek($0, plan, prefix, number, path) } : nil
      for range in ordered where !done && !range.isEmpty {
        try txn.walk(tables.indexEntries, range, forward: forward ?? true, start: start) { key, value in
          statistics.indexEntriesRead += 1
          guard let id = UTF8Text.string(value), let candidate = try load(number, path, id) else { return true }
          if forward != nil, FieldIndex.mayBeTruncated(key) {
            // A cut key may stand for several values: order its documents before use.
            group.append(candidate)
            return true
          }
          if !flush(&group) { done = true; return false }
          done = !consider(candidate)
          return !done
        }
        if !done, !flush(&group) { done = true }
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

  /// Reads a document by ID; `nil` when it is gone (an index entry never outlives its
  /// document within one snapshot, so this is only defensive).
  private mutating func load(_ number: CollectionNumber, _ path: ResourcePath, _ id: String) throws -> Match? {
    let key = DocumentKey(path.appending(id))
    guard let bytes = try txn.get(KeyLayout.documentKey(number, id), in: tables.documents) else { return nil }
    statistics.documentsRead += 1
    let fields = try DocumentCodec.decode(bytes, key: key).fields
    return (QueryDocument(key: key, fields: fields), try EncodedDocument(key: key, verifying: bytes))
  }

  /// Whether `document` lies past `bound` on the far side (before a start cursor, after
  /// an end cursor) in query order.
  private func isBeyond(_ bound: Bound, _ document: QueryDocument, isStart: Bool) -> Bool {
    let position = order.compare(bound, document)
    return isStart ? (bound.inclusive ? position > 0 : position >= 0) : (bound.inclusive ? position < 0 : position <= 0)
  }

  // MARK: - Cursor seeks

  /// Where a cursor on `__name__` falls in this collection's documents table.
  private func nameSeek(_ bound: Bound, _ number: CollectionNumber, _ path: ResourcePath) -> (key: [UInt8], id: String)? {
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
      return (FieldIndex.key(prefix, value), id(at: 1))
    }
    if ranges.count == 1, ranges[0].isExact, let id = id(at: 0) { return (ranges[0].lower, id) }
    return nil
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
