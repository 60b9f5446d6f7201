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
