/// A document in a view: its stored bytes, and its fields as the query compares them.
package struct ViewDocument: Sendable {
  package let encoded: EncodedDocument
  package let query: QueryDocument

  package init(_ encoded: EncodedDocument) {
    self.init(encoded, fields: encoded.stored.fields)
  }

  /// A document a commit has just written, with the fields it encoded.
  init(_ committed: CommittedDocument) {
    self.init(committed.encoded, fields: committed.fields)
  }

  private init(_ encoded: EncodedDocument, fields: [String: Value]) {
    self.encoded = encoded
    query = QueryDocument(key: encoded.key, fields: fields)
  }
}

extension CommitChanges {
  /// The document at `key` after the commit with its fields, as `document(_:reader:)`.
  package func viewDocument(_ key: DocumentKey, reader: StoreReader) throws -> ViewDocument? {
    if let kept = documents?[key] { return kept.map(ViewDocument.init) }
    return try reader.encodedDocument(key).map(ViewDocument.init)
  }
}
