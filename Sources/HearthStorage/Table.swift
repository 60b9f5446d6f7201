import CLMDB

/// A named LMDB database (`MDB_dbi`), here called a table to keep "database" for the
/// user's database. Handles come from `Environment.table(_:duplicateSort:create:)`.
package struct Table: Sendable, Hashable, CustomStringConvertible {
  package let name: String
  let dbi: MDB_dbi
  /// `MDB_DUPSORT`: one key holds a sorted set of values.
  package let isDuplicateSorted: Bool

  package var description: String { name }
}
