import Foundation
import HearthCore

extension FirestoreService {
  /// `RunQuery`: the query's documents in order, one response each (a single response
  /// with only the read time when there are none).
  ///
  /// - Throws: `invalidArgument` for a query (or a vector search) that breaks Firestore's
  ///   rules.
  package func runQuery(_ request: FirestoreV1.RunQueryRequest) throws -> [FirestoreV1.RunQueryResponse] {
    let (transactionID, transaction, past) = try consistency(request.consistency, in: request.database)
    try lock([LockTarget(readBy: request.query)], for: transactionID, in: request.database)
    let (documents, time) = try read(request.database, at: past) {
      (try Self.documents(of: request.query, in: $0), $0.time)
    }
    var responses = documents.map {
      FirestoreV1.RunQueryResponse(document: Self.document($0, mask: request.query.select), readTime: time)
    }
    if responses.isEmpty { responses.append(FirestoreV1.RunQueryResponse(document: nil, readTime: time)) }
    responses[0].transaction = transaction
    return responses
  }

  /// `RunAggregationQuery`: one response with every aggregation's result under its
  /// alias (`field_1`, `field_2`, … for those the client left unnamed, as Firestore
  /// names them).
  ///
  /// - Throws: `invalidArgument` for no aggregation, a repeated alias or a query that
  ///   breaks Firestore's rules.
  package func runAggregationQuery(_ request: FirestoreV1.RunAggregationQueryRequest) throws
    -> [FirestoreV1.RunAggregationQueryResponse]
  {
    let aggregations = request.query.aggregations
    guard !aggregations.isEmpty else { throw HearthError(.invalidArgument, "Aggregations can not be empty") }
    let aliases = aggregations.enumerated().map { $1.alias.isEmpty ? "field_\($0 + 1)" : $1.alias }
    var seen = Set<String>()
    for alias in aliases where !seen.insert(alias).inserted {
      throw HearthError(.invalidArgument, "Aggregation aliases contain duplicate alias \(alias)")
    }
    for alias in aliases where BackendQueryRules.isReserved(alias) {
      throw HearthError(.invalidArgument, "The property.name \"\(alias)\" is reserved.")
    }
    // Google's emulator fails a sixth aggregation with UNKNOWN (and the message "None").
    guard aggregations.count <= AggregateFunction.maximumCount else {
      throw HearthError(
        .unknown, "A query may have at most \(AggregateFunction.maximumCount) aggregations, not \(aggregations.count)")
    }
    let (transactionID, transaction, past) = try consistency(request.consistency, in: request.database)
    let query = request.query.query
    var time = FirestoreService.now
    let functions = aggregations.map(\.function)
    try BackendQueryRules.checkFieldPaths(functions.compactMap(\.field))
    try BackendQueryRules.checkOperands(functions, projecting: query.select)
    let model = try Self.checkedModel(query, aggregating: true)
    try BackendQueryRules.check(functions, over: model)
    try lock([LockTarget(readBy: query)], for: transactionID, in: request.database)
    let values = try read(request.database, at: past) { snapshot -> [Value] in
      time = snapshot.time
      // A limit of 0 leaves no documents to aggregate (as on Google's emulator).
      if query.model.limit == 0 { return functions.map { $0.result(over: []) } }
      if snapshot.past == nil, query.offset == 0, !query.allDescendants || query.parent.isEmpty,
        !query.collectionID.isEmpty, query.findNearest == nil
      {
        return try snapshot.reader.aggregate(model, functions, requireIndexes: requireIndexes)
      }
      let documents = try Self.aggregated(query, functions, in: snapshot)
      return functions.map { $0.result(over: documents) }
    }
    var result: [String: Value] = [:]
    for (index, aggregation) in aggregations.enumerated() {
      var value = values[index]
      if let upTo = aggregation.countUpTo, case .integer(let count) = value { value = .integer(min(count, upTo)) }
      result[aliases[index]] = value
    }
    return [FirestoreV1.RunAggregationQueryResponse(result: result, transaction: transaction, readTime: time)]
  }

  /// The documents an aggregation covers, for the queries that `StoreReader.aggregate`
  /// does not take (an offset, a past read time, all descendants), as it takes them:
  /// when it sums or averages, only the documents that have every aggregated field (read
  /// as `QueryModel.readForAggregating` says: Google's emulator reads the first field's
  /// index to skip an offset, as to stop at a limit), then the offset and the limit.
  private static func aggregated(
    _ query: FirestoreV1.StructuredQuery, _ functions: [AggregateFunction], in snapshot: ReadSnapshot
  ) throws -> [QueryDocument] {
    let fields = functions.compactMap(\.field)
    guard !fields.isEmpty else {
      return try documents(of: query, in: snapshot, aggregating: true).map {
        QueryDocument(key: $0.key, fields: $0.fields)
      }
    }
    var whole = query
    // A vector search's limit, as a query's, counts only documents with the field.
    whole.model = query.model.readForAggregating(
      functions, stops: query.model.limit != nil || query.offset > 0 || query.findNearest != nil)
    whole.offset = 0
    whole.model.limit = nil
    let covered = try documents(of: whole, in: snapshot, aggregating: true).lazy
      .map { QueryDocument(key: $0.key, fields: $0.fields) }
      .filter { document in fields.allSatisfy { document.value($0) != nil } }
    return Array(covered.dropFirst(Int(max(query.offset, 0))).prefix(query.model.limit ?? .max))
  }

  /// `PartitionQuery`: split points that divide the query's results (ordered by
  /// `__name__`, as the clients ask) into at most `partition_count` parts of at least
  /// `minimumPartition` documents each, as cursors naming the first document of each part
  /// after the first. Google's emulator answers UNIMPLEMENTED; Firestore partitions so.
  ///
  /// - Throws: `invalidArgument` for a partition count below 1 or a query that breaks
  ///   Firestore's rules; as `read(_:at:_:)` for a `read_time`.
  package func partitionQuery(_ request: FirestoreV1.PartitionQueryRequest) throws -> FirestoreV1.PartitionQueryResponse
  {
    guard request.partitionCount > 0 else {
      throw HearthError(.invalidArgument, "partition_count must be positive, not \(request.partitionCount)")
    }
    let keys = try read(request.database, at: request.readTime) {
      try Self.documents(of: request.query, in: $0).map(\.key)
    }
    let parts = min(Int(min(request.partitionCount, 1 << 20)), keys.count / Self.minimumPartition)
    guard parts > 1 else { return FirestoreV1.PartitionQueryResponse(partitions: []) }
    let cursors = (1..<parts).map { part in
      FirestoreV1.Cursor(values: [.reference(keys[part * keys.count / parts])], before: true)
    }
    return FirestoreV1.PartitionQueryResponse(partitions: cursors)
  }

  /// The fewest documents a partition holds (Firestore's own minimum).
  static let minimumPartition = 128

  // MARK: - Running a wire query

  /// The query's documents, in order, after its offset and limit.
  ///
  /// A collection group below a document (`all_descendants` under a document parent)
  /// runs as the whole group, keeping only the parent's descendants; a query with no
  /// collection ID and `all_descendants` (the Python client's `recursive_delete`) is
  /// every document below the parent in `__name__` order. A vector search
  /// (`find_nearest`, `VectorSearch`) measures every document the query matches.
  static func documents(
    of query: FirestoreV1.StructuredQuery, in snapshot: ReadSnapshot, aggregating: Bool = false
  ) throws -> [StoredDocument] {
    if let nearest = query.findNearest {
      let search = try VectorSearch(nearest, of: query)
      var matching = query
      matching.findNearest = nil
      return search.nearest(try documents(of: matching, in: snapshot, aggregating: aggregating))
    }
    if query.allDescendants && query.collectionID.isEmpty { return try descendants(query, in: snapshot) }
    var model = try checkedModel(query, aggregating: aggregating)
    // Google's emulator answers a limit of 0 with no documents (the SDKs refuse to send one).
    if query.model.limit == 0 { return [] }
    let scoped = query.isScopedGroup
    let offset = Int(max(query.offset, 0))
    let limit = model.limit
    if scoped {
      model.limit = nil
    } else if let limit, offset > 0 {
      model.limit = limit + offset
    }
    let found = try snapshot.run(model).filter { !scoped || query.parent.isPrefix(of: $0.key.path) }
    return Array(found.dropFirst(offset).prefix(limit ?? .max))
  }

  /// The query rebuilt through HearthCore's checks, so that a client's query meets
  /// Firestore's rules whatever it sent; the backend's own rules, in its words, first, and
  /// the emulator's refusal of a descending scan by name last (`listening`: as a Listen
  /// target hears them).
  ///
  /// - Throws: `invalidArgument` naming the rule broken (`failedPrecondition` for a Listen
  ///   target's two array filters in one disjunction, and for a descending scan by name).
  static func checkedModel(_ query: FirestoreV1.StructuredQuery, aggregating: Bool = false, listening: Bool = false)
    throws -> QueryModel
  {
    let sent = query.model
    if !listening {
      try BackendQueryRules.checkReservedIDs(
        query.collectionID.isEmpty ? query.parent : query.parent.appending(query.collectionID))
      try BackendQueryRules.checkFieldPaths(
        sent.filters.fieldFilters.map(\.field) + sent.explicitOrderBys.map(\.field) + (query.select ?? []))
    }
    try BackendQueryRules.check(sent.filters, listening: listening)
    var model = QueryModel(target: sent.target)
    for filter in sent.filters { try model.add(filter) }
    for order in sent.explicitOrderBys { try model.add(order) }
    if let limit = sent.limit, limit > 0 { try model.setLimit(limit, sent.limitType) }
    model.startAt = sent.startAt
    model.endAt = sent.endAt
    if !listening { try BackendQueryRules.checkNames(model) }
    try model.validateForRun(aggregating: aggregating)
    if !listening { try BackendQueryRules.checkNameScan(model) }
    model.filters = model.filters.map(BackendQueryRules.matchingAsTheBackend)
    return model
  }

  /// Every document below the query's parent, in `__name__` order, within its cursors
  /// and limit: a query with neither collection nor filters.
  ///
  /// - Throws: `invalidArgument` for filters or an order other than `__name__`, which
  ///   such a query cannot have.
  static func descendants(_ query: FirestoreV1.StructuredQuery, in snapshot: ReadSnapshot) throws -> [StoredDocument] {
    let model = query.model
    guard model.filters.isEmpty, model.explicitOrderBys.allSatisfy({ $0.field.isDocumentID && !$0.descending })
    else {
      throw HearthError(
        .invalidArgument, "A query across all collections may only be ordered by __name__ ascending, without filters")
    }
    var keys: [DocumentKey] = []
    if query.parent.isEmpty {
      for id in try snapshot.collectionIDs(under: nil) {
        keys += try snapshot.documentKeys(inTreeOf: ResourcePath([id]))
      }
    } else {
      let parent = DocumentKey(query.parent)
      keys = try snapshot.documentKeys(inTreeOf: parent).filter { $0 != parent }
    }
    // Firestore's own order, numeric IDs before every other (keys put IDs beginning with
    // a zero byte first): the client bounds a collection's tree with its smallest numeric
    // ID.
    func compare(_ a: DocumentKey, _ b: DocumentKey) -> Int { a.compare(b, zeroByteFirst: false) }
    keys.sort { compare($0, $1) < 0 }
    func within(_ key: DocumentKey) -> Bool {
      if let start = model.startAt, case .reference(let first)? = start.values.first {
        let order = compare(key, first)
        guard start.inclusive ? order >= 0 : order > 0 else { return false }
      }
      if let end = model.endAt, case .reference(let last)? = end.values.first {
        let order = compare(key, last)
        guard end.inclusive ? order <= 0 : order < 0 else { return false }
      }
      return true
    }
    var documents: [StoredDocument] = []
    var skipped = 0
    for key in keys where within(key) {
      if let limit = model.limit, documents.count >= limit { break }
      guard let stored = try snapshot.document(key) else { continue }
      if skipped < query.offset {
        skipped += 1
        continue
      }
      documents.append(stored)
    }
    return documents
  }
}
