import HearthStorage

/// The handles of Hearth's tables (see `KeyLayout`).
struct Tables: Sendable {
  let meta: Table
  let documents: Table
  let collections: Table
  let children: Table
  let groups: Table
  let indexEntries: Table
  /// Missing in a database written before the change log, opened read-only.
  let changes: Table?
  /// The old versions of documents (`VersionHistory`); missing in a database written
  /// before them, opened read-only.
  let versions: Table?
  let versionTimes: Table?

  init(environment: Environment, create: Bool) throws {
    meta = try environment.table(KeyLayout.TableName.meta, create: create)
    documents = try environment.table(KeyLayout.TableName.documents, create: create)
    collections = try environment.table(KeyLayout.TableName.collections, create: create)
    children = try environment.table(KeyLayout.TableName.children, duplicateSort: true, create: create)
    groups = try environment.table(KeyLayout.TableName.groups, duplicateSort: true, create: create)
    indexEntries = try environment.table(KeyLayout.TableName.indexEntries, duplicateSort: true, create: create)
    changes = try? environment.table(KeyLayout.TableName.changes, create: create)
    versions = try? environment.table(KeyLayout.TableName.versions, create: create)
    versionTimes = try? environment.table(KeyLayout.TableName.versionTimes, create: create)
  }
}
