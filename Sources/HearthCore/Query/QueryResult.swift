/// What running a query read and returned, for `explain()`.
package struct QueryStatistics: Sendable {
  /// How the query was served: the index or scan, and the key ranges read.
  package var plan: String
  package var indexEntriesRead = 0
  package var documentsRead = 0
  package var resultsReturned = 0
}

/// A query's result: its documents in query order, as verified bytes for the API to
/// decode, and what running it cost.
package struct QueryResult: Sendable {
  package var documents: [EncodedDocument]
  package var statistics: QueryStatistics
}
