extension StoreReader {
  /// Up to `limit` keys of documents in the collection at `path` and in every collection
  /// below it.
  package func documentKeys(inTreeOf path: ResourcePath, limit: Int) throws -> [DocumentKey] {
    guard let number = try store.registry.number(of: path, in: txn) else { return [] }
    var keys: [DocumentKey] = []
    try collectKeys(in: number, path: path, limit: limit, into: &keys)
    return keys
  }

  /// Up to `limit` keys: the document itself (when it exists) and the documents of every
  /// collection below it.
  package func documentKeys(inTreeOf key: DocumentKey, limit: Int) throws -> [DocumentKey] {
    var keys: [DocumentKey] = try document(key) != nil ? [key] : []
    for id in try registeredCollectionIDs(under: key) where keys.count < limit {
      keys += try documentKeys(inTreeOf: key.path.appending(id), limit: limit - keys.count)
    }
    return keys
  }

  private func registeredCollectionIDs(under key: DocumentKey) throws -> [String] {
    guard let number = try store.registry.number(ofCollectionOf: key, in: txn) else { return [] }
    return try store.registry.children(under: KeyLayout.parentKey(number, key.documentID), in: txn).map(\.id)
  }

  private func collectKeys(in number: CollectionNumber, path: ResourcePath, limit: Int, into keys: inout [DocumentKey])
    throws
  {
    let prefix = number.bytes
    let cursor = try txn.cursor(store.tables.documents)
    var entry = try cursor.seek(atLeast: prefix)
    while keys.count < limit, let (key, _) = entry, key.starts(with: prefix) {
      guard let id = KeyLayout.documentID(inKey: key) else {
        throw HearthError.dataLoss("A document key in collection \(path) is not valid UTF-8")
      }
      keys.append(DocumentKey(collection: path, id: id))
      entry = try cursor.next()
    }
    for (_, children) in try parentsWithChildren(in: number) where keys.count < limit {
      for child in children where keys.count < limit {
        let childPath = try store.registry.path(of: child, in: txn)
        try collectKeys(in: child, path: childPath, limit: limit, into: &keys)
      }
    }
  }
}

extension DocumentStore {
  /// How many documents one commit of a recursive delete removes; big trees are deleted
  /// in several commits (like Firestore's, a recursive delete is not atomic).
  static let recursiveDeleteChunk = 5_000

  /// Deletes every document in the collection at `path` and below it.
  package func deleteRecursively(collection path: ResourcePath) throws {
    try deleteInChunks { reader in try reader.documentKeys(inTreeOf: path, limit: DocumentStore.recursiveDeleteChunk) }
  }

  /// Deletes the document and every document below it.
  package func deleteRecursively(document key: DocumentKey) throws {
    try deleteInChunks { reader in try reader.documentKeys(inTreeOf: key, limit: DocumentStore.recursiveDeleteChunk) }
  }

  private func deleteInChunks(_ keys: (StoreReader) throws -> [DocumentKey]) throws {
    while true {
      let (count, _) = try transact { reader in
        let batch = try keys(reader)
        return (batch.count, batch.map { Write(key: $0, kind: .delete) })
      }
      if count == 0 { return }
    }
  }
}
