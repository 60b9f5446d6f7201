/// What one commit changed: the change log's record of it, and what the store hands to
/// whatever follows its commits (`CommitFollower`).
package struct CommitChanges: Sendable {
  /// The documents written or deleted.
  package var keys: [DocumentKey]
  /// Everything may have changed (an import that emptied the database first).
  package var everything = false
  /// The changed documents as stored (`nil` for a deleted one), with their fields, when
  /// the commit kept them: followers then need not read or decode them again.
  package var documents: [DocumentKey: CommittedDocument?]?

  package init(keys: [DocumentKey], everything: Bool = false, documents: [DocumentKey: CommittedDocument?]? = nil) {
    self.keys = keys
    self.everything = everything
    self.documents = documents
  }

  /// The document at `key` after the commit: as the commit kept it, or read by `reader`.
  package func document(_ key: DocumentKey, reader: StoreReader) throws -> EncodedDocument? {
    if let kept = documents?[key] { return kept?.encoded }
    return try reader.encodedDocument(key)
  }
}

/// A document as a commit left it: its stored bytes and the fields they encode, both at
/// hand in the commit, so that a follower of the commit decodes nothing again.
package struct CommittedDocument: Sendable {
  package let encoded: EncodedDocument
  package let fields: [String: Value]

  init(_ encoded: EncodedDocument, fields: [String: Value]) {
    self.encoded = encoded
    self.fields = fields
  }
}
