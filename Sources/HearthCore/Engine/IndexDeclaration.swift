import Foundation
import HearthStorage

extension DocumentStore {
  /// The file of indexes Hearth loads when it opens a database: beside its data, in the
  /// format of Firestore's `firestore.indexes.json`.
  package static let indexFileName = "firestore.indexes.json"

  /// Declares indexes and field overrides, adding to those already declared (an index
  /// declared again is left alone; an override replaces the one for its field). New
  /// indexes are filled from the existing documents, and changed overrides add or drop
  /// automatic entries, all in one commit.
  ///
  /// - Throws: `failedPrecondition` when read-only; storage errors.
  package func declareIndexes(_ file: IndexFile) throws {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(path) is open read-only")
    }
    let stored: IndexSet? = try guarded {
      try environment.write(durable: options.durable) { txn in try declare(file, in: txn) }
    }
    if let stored { catalog.remember(stored) }
  }

  /// Drops declared indexes and their entries, in one commit: after it, the database is
  /// as if they had never been declared (queries plan without them; a query that needed
  /// one fails again under `requireIndexes`). Numbers are not reused, so declaring an
  /// index again fills it afresh.
  ///
  /// A `firestore.indexes.json` beside the database declares its indexes again at the
  /// next open for writing.
  ///
  /// - Parameter file: the indexes to drop, each as declared (collection group, scope,
  ///   fields and their orders). Field overrides cannot be dropped (declare the override
  ///   again with the automatic indexes the field should keep); a collection-group
  ///   single-field index is dropped as a one-field entry of `indexes` with
  ///   `COLLECTION_GROUP` scope.
  /// - Returns: the number of index entries removed.
  /// - Throws: `notFound` naming the first index that is not declared (nothing is
  ///   dropped); `invalidArgument` for field overrides; `failedPrecondition` when
  ///   read-only.
  @discardableResult
  package func dropIndexes(_ file: IndexFile) throws -> Int {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(path) is open read-only")
    }
    guard file.fieldOverrides.isEmpty else {
      throw HearthError.invalidArgument(
        "Field overrides cannot be dropped; declare the override again with the indexes the field should keep")
    }
    let (stored, removed): (IndexSet?, Int) = try guarded {
      try environment.write(durable: options.durable) { txn in try drop(file.indexes, in: txn) }
    }
    if let stored { catalog.remember(stored) }
    return removed
  }

  /// The declared indexes and overrides.
  package func declaredIndexes() throws -> IndexFile {
    try read { try catalog.current(in: $0.txn).file }
  }

  /// Declares the indexes of `firestore.indexes.json` beside the database, if there is one.
  ///
  /// - Throws: `invalidArgument` naming the file when it is not a valid index file.
  func declareIndexFile() throws {
    let file = path + "/" + Self.indexFileName
    guard FileManager.default.fileExists(atPath: file) else { return }
    let text: String
    do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
      throw HearthError(.invalidArgument, "Cannot read \(file): \(error.localizedDescription)")
    }
    do { try declareIndexes(IndexFile.parse(text)) } catch let error as HearthError where error.code == .invalidArgument
    {
      throw HearthError(.invalidArgument, "\(file): \(error.message)")
    }
  }

  /// Takes `definitions` out of the catalog and deletes their entries: each declared
  /// index's entries are one key range (`CompositeIndex.prefix`), walked from its start.
  private func drop(_ definitions: [IndexDefinition], in txn: WriteTransaction) throws -> (IndexSet?, Int) {
    var set = try catalog.current(in: txn)
    var dropped: [DeclaredIndex] = []
    for definition in definitions {
      guard let position = set.indexes.firstIndex(where: { $0.definition == definition }) else {
        if dropped.contains(where: { $0.definition == definition }) { continue }
        throw HearthError(.notFound, "The index \(definition) is not declared")
      }
      dropped.append(set.indexes.remove(at: position))
    }
    guard !dropped.isEmpty else { return (nil, 0) }
    let stored = try catalog.store(set, in: txn)
    var removed = 0
    let cursor = try txn.cursor(tables.indexEntries)
    for index in dropped {
      let prefix = CompositeIndex.prefix(index, nil)
      // Each key goes with all its values; the cursor seeks again after each delete.
      while let (key, _) = try cursor.seek(atLeast: prefix), key.starts(with: prefix) {
        removed += try cursor.duplicateCount()
        try txn.delete(Array(key), in: tables.indexEntries)
      }
    }
    return (stored, removed)
  }

  private func declare(_ file: IndexFile, in txn: WriteTransaction) throws -> IndexSet? {
    let old = try catalog.current(in: txn)
    var set = old
    var added: [DeclaredIndex] = []
    for definition in file.indexes where !set.indexes.contains(where: { $0.definition == definition }) {
      let declared = DeclaredIndex(number: set.nextNumber, definition: definition)
      set.nextNumber += 1
      set.indexes.append(declared)
      added.append(declared)
    }
    var changedGroups = Set<String>()
    for override in file.fieldOverrides {
      if let position = set.overrides.firstIndex(where: {
        $0.collectionGroup == override.collectionGroup && $0.path == override.path
      }) {
        guard set.overrides[position] != override else { continue }
        set.overrides[position] = override
      } else {
        set.overrides.append(override)
      }
      changedGroups.insert(override.collectionGroup)
    }
    guard !added.isEmpty || !changedGroups.isEmpty else { return nil }
    let stored = try catalog.store(set, in: txn)
    let reader = StoreReader(store: self, txn: txn)
    for group in Set(added.map(\.definition.collectionGroup)).union(changedGroups) {
      let newIndexes = added.filter { $0.definition.collectionGroup == group }
      let overridesChanged = changedGroups.contains(group)
      for (number, collection) in try reader.collectionGroup(group) {
        try reader.forEachDocumentBytes(inCollection: collection) { key, bytes in
          let fields = try DocumentCodec.decode(bytes, key: key).fields
          for index in newIndexes {
            let data = CompositeIndex.data(index, key)
            for entry in CompositeIndex.keys(index, number, fields) {
              try txn.put(entry, data, in: tables.indexEntries)
            }
          }
          if overridesChanged {
            try FieldIndex.replace(
              FieldIndex.keys(number, fields, old.modes(group)),
              with: FieldIndex.keys(number, fields, set.modes(group)),
              documentID: key.documentID, in: txn, table: tables.indexEntries)
          }
          return true
        }
      }
    }
    return stored
  }
}
