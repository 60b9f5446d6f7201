/// One change of a view between two snapshots.
package struct ViewChange: Sendable {
  package enum Kind: Sendable { case added, modified, removed }

  package let kind: Kind
  /// The document after the change (before it, for `removed`).
  package let document: EncodedDocument
  /// The position before the change (`nil` for `added`), counting the earlier changes of
  /// the same snapshot; the position after it (`nil` for `removed`).
  package let oldIndex: Int?
  package let newIndex: Int?
}

/// Firestore's changes between two results of one query (docs/semantics.md, "Listeners").
package enum ViewChanges {
  /// The changes from `old` to `new` (both in query order): every `removed`, then every
  /// `added`, then every `modified`, each group in query order, with positions counted
  /// as the Firestore SDKs count them (each change applied in turn to the old result).
  /// A document whose fields are unchanged is not `modified`, even with a new update time
  /// or a new position. Empty when nothing visible changed.
  package static func between(_ old: [ViewDocument], _ new: [ViewDocument], order: QueryOrder) -> [ViewChange] {
    var oldPositions: [DocumentKey: Int] = [:]
    for (position, document) in old.enumerated() { oldPositions[document.encoded.key] = position }
    var newKeys = Set<DocumentKey>()
    for document in new { newKeys.insert(document.encoded.key) }

    let removed = old.filter { !newKeys.contains($0.encoded.key) }
    let added = new.filter { oldPositions[$0.encoded.key] == nil }
    let modified = new.filter { document in
      oldPositions[document.encoded.key].map { !old[$0].encoded.hasSameFields(as: document.encoded) } ?? false
    }
    if removed.isEmpty && added.isEmpty && modified.isEmpty { return [] }

    // The old result, changed one change at a time; always sorted in query order.
    var tracker = old.map(\.query)
    func position(of key: DocumentKey) -> Int { tracker.firstIndex { $0.key == key }! }
    func insert(_ document: QueryDocument) -> Int {
      var low = 0
      var high = tracker.count
      while low < high {
        let middle = (low + high) / 2
        if order.compare(tracker[middle], document) < 0 { low = middle + 1 } else { high = middle }
      }
      tracker.insert(document, at: low)
      return low
    }
    var changes: [ViewChange] = []
    for document in removed {
      let from = position(of: document.encoded.key)
      tracker.remove(at: from)
      changes.append(ViewChange(kind: .removed, document: document.encoded, oldIndex: from, newIndex: nil))
    }
    for document in added {
      let to = insert(document.query)
      changes.append(ViewChange(kind: .added, document: document.encoded, oldIndex: nil, newIndex: to))
    }
    for document in modified {
      let from = position(of: document.encoded.key)
      tracker.remove(at: from)
      let to = insert(document.query)
      changes.append(ViewChange(kind: .modified, document: document.encoded, oldIndex: from, newIndex: to))
    }
    return changes
  }
}

extension EncodedDocument {
  /// Whether the two hold the same fields, whatever their times: the same bytes, as
  /// equal documents encode identically.
  package func hasSameFields(as other: EncodedDocument) -> Bool {
    bytes.withUnsafeBytes { mine in
      other.bytes.withUnsafeBytes { theirs in
        var a = ByteReader(mine)
        var b = ByteReader(theirs)
        guard (try? DocumentCodec.header(&a)) != nil, (try? DocumentCodec.header(&b)) != nil else { return false }
        return mine[a.offset...].elementsEqual(theirs[b.offset...])
      }
    }
  }
}
