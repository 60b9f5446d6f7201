/// A document listener's view: the document as last shown.
package struct DocumentView: LiveView {
  /// A result of the view: the document, `nil` when it does not exist.
  package struct Snapshot: Sendable {
    package let document: EncodedDocument?
  }

  package let key: DocumentKey
  /// The document last returned (`nil`: missing).
  package private(set) var document: EncodedDocument?

  package init(key: DocumentKey) { self.key = key }

  package var scope: ObservationScope { .document(key) }

  package mutating func start(_ reader: StoreReader) throws -> Snapshot {
    document = try reader.encodedDocument(key)
    return Snapshot(document: document)
  }

  /// The snapshot after `changes`, or `nil` when the document's data and existence are
  /// unchanged (a rewrite with the same data shows nothing new).
  package mutating func update(by changes: CommitChanges, reader: StoreReader) throws -> Snapshot? {
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
