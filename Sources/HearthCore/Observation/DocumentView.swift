/// A document listener's view: the document as last shown.
public struct DocumentView: LiveView {
  /// A result of the view: the document, `nil` when it does not exist.
  public struct Snapshot: Sendable {
    public let document: EncodedDocument?
  }

  public let key: DocumentKey
  /// The document last returned (`nil`: missing).
  public private(set) var document: EncodedDocument?

  public init(key: DocumentKey) { self.key = key }

  public var scope: ObservationScope { .document(key) }

  public mutating func start(_ reader: StoreReader) throws -> Snapshot {
    document = try reader.encodedDocument(key)
    return Snapshot(document: document)
  }

  /// The snapshot after `changes`, or `nil` when the document's data and existence are
  /// unchanged (a rewrite with the same data shows nothing new).
  public mutating func update(by changes: CommitChanges, reader: StoreReader) throws -> Snapshot? {
    let next = try changes.document(key, reader: reader)
    switch (document, next) {
    case (nil, nil): return nil
    case (let old?, let new?) where old.hasSameFields(as: new): return nil
    default: break
    }
    document = next
    return Snapshot(document: next)
  }
}
