import Foundation
import HearthStorage

extension StoreReader {
  /// Calls `body` with the key and stored bytes (valid only inside `body`) of every
  /// document in the database, in path order: segment by segment, IDs in UTF-8 byte order,
  /// so each document comes right before its subcollections' documents. Returns the
  /// number of documents visited.
  ///
  /// Two cursors serve the whole walk (one over `documents`, one over `children`), and
  /// the walk keeps one collection path per level: memory stays constant however many
  /// documents and collections there are.
  @discardableResult
  package func forEachDocumentInPathOrder(_ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws -> Int {
    var walk = try PathOrderWalk(
      documents: txn.cursor(store.tables.documents), children: txn.cursor(store.tables.children))
    for (id, number) in try sortedChildren(under: KeyLayout.parentKey(.root, "")) {
      try walk.visit(collection: number, path: ResourcePath([id]), body)
    }
    return walk.visited
  }

  /// The subcollections registered under a parent key, sorted by collection ID.
  fileprivate func sortedChildren(under parentKey: [UInt8]) throws -> [(id: String, number: CollectionNumber)] {
    try store.registry.children(under: parentKey, in: txn).sorted { Value.compareUTF8($0.id, $1.id) < 0 }
  }
}

/// The state of one path-order walk (see `StoreReader.forEachDocumentInPathOrder`).
private struct PathOrderWalk {
  let documents: Cursor
  let children: Cursor
  var visited = 0

  init(documents: Cursor, children: Cursor) {
    self.documents = documents
    self.children = children
  }

  /// Visits the collection `number` at `path`: its IDs in order, each document (when it
  /// exists) and then its subcollections. The documents of a collection and the parents
  /// of its subcollections are two sorted key ranges under the same prefix, merged here.
  mutating func visit(
    collection number: CollectionNumber, path: ResourcePath,
    _ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let prefix = number.bytes
    var document = try documents.seek(atLeast: prefix).flatMap { Self.id(in: $0.key, prefix: prefix) }
    var parent = try children.seek(atLeast: prefix).flatMap { Self.id(in: $0.key, prefix: prefix) }
    while document != nil || parent != nil {
      let id: UnsafeRawBufferPointer
      if let document, let parent {
        id = Value.compareRaw(document, parent) <= 0 ? document : parent
      } else {
        id = (document ?? parent)!
      }
      let key = Array(id)
      let hasDocument = document.map { Value.compareRaw($0, id) == 0 } ?? false
      let hasChildren = parent.map { Value.compareRaw($0, id) == 0 } ?? false
      guard let idText = KeyLayout.documentID(id) else {
        throw HearthError.dataLoss("A document key in collection \(path) is not valid UTF-8")
      }
      let documentPath = path.appending(idText)
      if hasDocument, let (_, value) = try documents.current() {
        try body(DocumentKey(documentPath), value)
        visited += 1
      }
      var subcollections: [(id: String, number: CollectionNumber)] = []
      if hasChildren {
        var entry = try children.current()
        while let (_, value) = entry {
          if let child = CollectionNumber(value),
            let childID = UTF8Text.string(UnsafeRawBufferPointer(rebasing: value[8...]))
          {
            subcollections.append((childID, child))
          }
          entry = try children.nextDuplicate()
        }
        subcollections.sort { Value.compareUTF8($0.id, $1.id) < 0 }
      }
      for child in subcollections {
        try visit(collection: child.number, path: documentPath.appending(child.id), body)
      }
      // Move both cursors past `id`: re-seek when the subcollections moved them.
      let current = prefix + key
      if subcollections.isEmpty {
        if hasDocument { document = try documents.next().flatMap { Self.id(in: $0.key, prefix: prefix) } }
        if hasChildren { parent = try children.nextKey().flatMap { Self.id(in: $0.key, prefix: prefix) } }
      } else {
        document = try Self.after(current, in: documents, prefix: prefix, next: { try $0.next() })
        parent = try Self.after(current, in: children, prefix: prefix, next: { try $0.nextKey() })
      }
    }
  }

  /// The first ID after the key `current` in `cursor`'s table, within `prefix`.
  private static func after(
    _ current: [UInt8], in cursor: Cursor, prefix: [UInt8], next: (Cursor) throws -> Cursor.Entry?
  ) throws -> UnsafeRawBufferPointer? {
    var entry = try cursor.seek(atLeast: current)
    if let found = entry, found.key.elementsEqual(current) { entry = try next(cursor) }
    return entry.flatMap { id(in: $0.key, prefix: prefix) }
  }

  /// The ID part of a key, or `nil` when the key is outside `prefix` (the collection).
  private static func id(in key: UnsafeRawBufferPointer, prefix: [UInt8]) -> UnsafeRawBufferPointer? {
    guard key.count > prefix.count, key.starts(with: prefix) else { return nil }
    return UnsafeRawBufferPointer(rebasing: key[prefix.count...])
  }
}
