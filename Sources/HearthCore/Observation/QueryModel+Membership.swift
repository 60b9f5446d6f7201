/// Which changed documents belong in a view of a query: what the views ask of each
/// document a commit changed, without running the query.
extension QueryModel {
  /// Whether a document at `key` is in the query's collection or collection group.
  package func isInScope(_ key: DocumentKey) -> Bool {
    switch target {
    case .collection(let path): key.collectionPath == path
    case .group(let id): key.collectionGroup == id
    }
  }

  /// Whether a document of the query's scope belongs in its results (limits aside): it
  /// passes the filters, has every order-by field and lies within the cursors.
  package func matches(_ document: QueryDocument, order: QueryOrder) -> Bool {
    order.includes(document) && QueryMatcher.matches(filters, document)
      && order.isWithin(start: startAt, end: endAt, document)
  }
}
