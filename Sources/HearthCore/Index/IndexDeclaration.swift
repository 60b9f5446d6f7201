import Foundation
import HearthStorage

extension DocumentStore {
  /// The file of indexes Hearth loads when it opens a database: beside its data, in the
  /// format of Firestore's `firestore.indexes.json`.
  public static let indexFileName = "firestore.indexes.json"

  /// Declares indexes and field overrides, adding to those already declared (an index
  /// declared again is left alone; an override replaces the one for its field). New
  /// indexes are filled from the existing documents, and changed overrides add or drop
  /// automatic entries, all in one commit.
  ///
  /// - Throws: `failedPrecondition` when read-only; storage errors.
  public func declareIndexes(_ file: IndexFile) throws {
    guard !options.readOnly else {
      throw HearthError(.failedPrecondition, "The database at \(path) is open read-only")
    }
    let stored: IndexSet? = try guarded {
      try environment.write(durable: options.durable) { txn in try declare(file, in: txn) }
    }
    if let stored { catalog.remember(stored) }
  }

  /// The declared indexes and overrides.
  public func declaredIndexes() throws -> IndexFile {
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
      for collection in try reader.collectionGroup(group) {
        guard let number = try registry.number(of: collection, in: txn) else { continue }
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
