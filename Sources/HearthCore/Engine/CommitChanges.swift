/// What one commit changed: the change log's record of it, and what the store hands to
/// whatever follows its commits (`CommitFollower`).
public struct CommitChanges: Sendable {
  /// The documents written or deleted.
  public var keys: [DocumentKey]
  /// Everything may have changed (an import that emptied the database first).
  public var everything = false
  /// The changed documents as stored (`nil` for a deleted one), with their fields, when
  /// the commit kept them: followers then need not read or decode them again.
  public var documents: [DocumentKey: CommittedDocument?]?

  public init(keys: [DocumentKey], everything: Bool = false, documents: [DocumentKey: CommittedDocument?]? = nil) {
    self.keys = keys
    self.everything = everything
    self.documents = documents
  }

  /// The document at `key` after the commit: as the commit kept it, or read by `reader`.
  public func document(_ key: DocumentKey, reader: StoreReader) throws -> EncodedDocument? {
    if let kept = documents?[key] { return kept?.encoded }
    return try reader.encodedDocument(key)
  }
}

/// A document as a commit left it: its stored bytes and the fields they encode, both at
/// hand in the commit, so that a follower of the commit decodes nothing again.
public struct CommittedDocument: Sendable {
  public let encoded: EncodedDocument
  public let fields: [String: Value]

  init(_ encoded: EncodedDocument, fields: [String: Value]) {
    self.encoded = encoded
    self.fields = fields
  }
}
