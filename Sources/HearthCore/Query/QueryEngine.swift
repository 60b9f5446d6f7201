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
  /// Runs `query` on this snapshot.
  ///
  /// - Throws: `dataLoss` when a document it reads is damaged.
  public func run(_ query: QueryModel) throws -> QueryResult {
    let order = QueryOrder(query.orderBys)
    let collections: [ResourcePath]
    let plan: String
    switch query.target {
    case .collection(let path):
      collections = [path]
      plan = "collection scan of \(path)"
    case .group(let collectionID):
      collections = try collectionGroup(collectionID)
      plan = "collection-group scan of \(collectionID) (\(collections.count) collections)"
    }
    var statistics = QueryStatistics(plan: plan)
    var matches: [(document: QueryDocument, bytes: EncodedDocument)] = []
    for collection in collections {
      try forEachDocumentBytes(inCollection: collection) { key, bytes in
        statistics.documentsRead += 1
        let fields = try DocumentCodec.decode(bytes, key: key).fields
        let document = QueryDocument(key: key, fields: fields)
        if order.includes(document), QueryMatcher.matches(query.filters, document),
          order.isWithin(start: query.startAt, end: query.endAt, document)
        {
          matches.append((document, try EncodedDocument(key: key, verifying: bytes)))
        }
        return true
      }
    }
    matches.sort { order.compare($0.document, $1.document) < 0 }
    if let limit = query.limit, matches.count > limit {
      switch query.limitType {
      case .first: matches.removeLast(matches.count - limit)
      case .last: matches.removeFirst(matches.count - limit)
      }
    }
    statistics.resultsReturned = matches.count
    return QueryResult(documents: matches.map(\.bytes), statistics: statistics)
  }
}
