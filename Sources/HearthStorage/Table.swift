import CLMDB

/// A named LMDB database (`MDB_dbi`), here called a table to keep "database" for the
/// user's database. Handles come from `Environment.table(_:duplicateSort:create:)`.
public struct Table: Sendable, Hashable, CustomStringConvertible {
  public let name: String
  let dbi: MDB_dbi
  /// `MDB_DUPSORT`: one key holds a sorted set of values.
  public let isDuplicateSorted: Bool

  public var description: String { name }
}
