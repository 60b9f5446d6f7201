import HearthStorage
import Synchronization

/// A declared index with the number its entries are keyed by.
struct DeclaredIndex: Sendable, Hashable {
  let number: UInt32
  let definition: IndexDefinition
}

/// The declared indexes and field overrides of a database, as of one transaction.
struct IndexSet: Sendable {
  var version: UInt64 = 0
  var indexes: [DeclaredIndex] = []
  var overrides: [FieldOverride] = [] { didSet { modesByGroup = Self.modesByGroup(overrides) } }
  var nextNumber: UInt32 = 1
  /// `modes` of each collection group an override names, made when the overrides change:
  /// every plan and every document written asks for its group's.
  private var modesByGroup: [String: FieldIndex.Overrides] = [:]

  static let empty = IndexSet()

  init(version: UInt64 = 0) { self.version = version }

  func indexes(for collectionGroup: String, scope: IndexDefinition.Scope) -> [DeclaredIndex] {
    indexes.filter { $0.definition.collectionGroup == collectionGroup && $0.definition.scope == scope }
  }

  /// The collection-scope automatic indexes a field keeps, when an override says.
  func modes(_ collectionGroup: String) -> FieldIndex.Overrides { modesByGroup[collectionGroup] ?? [:] }

  private static func modesByGroup(_ overrides: [FieldOverride]) -> [String: FieldIndex.Overrides] {
    var modes: [String: FieldIndex.Overrides] = [:]
    for override in overrides {
      modes[override.collectionGroup, default: [:]][override.path] = override.collectionModes
    }
    return modes
  }

  /// The declarations as a file, for `declaredIndexesJSON()`.
  var file: IndexFile { IndexFile(indexes: indexes.map(\.definition), fieldOverrides: overrides) }

  /// The stored form: numbers beside the definitions, so entries stay found.
  var serialized: String {
    JSONValue.object([
      ("next", .integer(Int64(nextNumber))),
      (
        "indexes",
        .array(
          indexes.map { index in
            guard case .object(let members) = IndexFile.json(for: index.definition) else { return .null }
            return .object([("number", .integer(Int64(index.number)))] + members)
          })
      ),
      ("fieldOverrides", .array(IndexFile(fieldOverrides: overrides).overridesJSON)),
    ]).serialized()
  }

  static func parse(_ text: String, version: UInt64) throws -> IndexSet {
    let root: JSONValue
    do { root = try JSONParser.parse(text) } catch {
      throw HearthError.dataLoss("The stored index catalog is damaged: \(error)")
    }
    var set = IndexSet(version: version)
    if case .integer(let next)? = root["next"] { set.nextNumber = UInt32(clamping: next) }
    let file = try IndexFile.parse(
      JSONValue.object([
        ("indexes", root["indexes"].map(Self.withoutNumbers) ?? .array([])),
        ("fieldOverrides", root["fieldOverrides"] ?? .array([])),
      ]).serialized())
    guard case .array(let entries)? = root["indexes"], entries.count == file.indexes.count else {
      throw HearthError.dataLoss("The stored index catalog is damaged: its numbers do not match its indexes")
    }
    for (entry, definition) in zip(entries, file.indexes) {
      guard case .integer(let number)? = entry["number"] else {
        throw HearthError.dataLoss("The stored index catalog is damaged: an index has no number")
      }
      set.indexes.append(DeclaredIndex(number: UInt32(clamping: number), definition: definition))
    }
    set.overrides = file.fieldOverrides
    return set
  }

  private static func withoutNumbers(_ value: JSONValue) -> JSONValue {
    guard case .array(let entries) = value else { return value }
    return .array(
      entries.map { entry in
        guard case .object(let members) = entry else { return entry }
        return .object(members.filter { $0.key != "number" })
      })
  }
}

/// Reads the index catalog from the `meta` table (`indexCatalog` and `indexVersion`, see
/// `KeyLayout`), keeping the last one read: a transaction pays one small read to learn
/// whether another process (or thread) declared indexes since, and a read transaction
/// of the state the last one was read in (LMDB's transaction ID names the state) pays
/// none — reads between two commits, as a run of queries, read it once.
final class IndexCatalog: Sendable {
  private let tables: Tables
  /// The last catalog read, and the ID of the state a read transaction read it in.
  private let cached = Mutex<(set: IndexSet, state: Int?)>((.empty, nil))

  init(tables: Tables) { self.tables = tables }

  func current(in txn: ReadTransaction) throws -> IndexSet {
    // A write transaction may have changed the catalog itself (a group's earlier commit).
    let state = txn is WriteTransaction ? nil : txn.id
    let known = cached.withLock { $0 }
    if let state, known.state == state { return known.set }
    let version = try txn.get(KeyLayout.MetaKey.indexVersion, in: tables.meta).flatMap(KeyLayout.readBigEndian) ?? 0
    if known.set.version == version {
      if let state { cached.withLock { if $0.set.version == version { $0.state = state } } }
      return known.set
    }
    guard let raw = try txn.get(KeyLayout.MetaKey.indexCatalog, in: tables.meta), let text = UTF8Text.string(raw) else {
      return IndexSet(version: version)
    }
    let set = try IndexSet.parse(text, version: version)
    if let state { cached.withLock { $0 = (set, state) } }
    return set
  }

  /// Stores a new catalog (its version one past the current) in the write transaction.
  func store(_ set: IndexSet, in txn: WriteTransaction) throws -> IndexSet {
    var stored = set
    stored.version = set.version + 1
    try txn.put(KeyLayout.MetaKey.indexCatalog, Array(stored.serialized.utf8), in: tables.meta)
    try txn.put(KeyLayout.MetaKey.indexVersion, KeyLayout.bigEndian(stored.version), in: tables.meta)
    return stored
  }

  /// Forgets the cached catalog (after a commit that changed it).
  func remember(_ set: IndexSet) { cached.withLock { $0 = (set, nil) } }
}
