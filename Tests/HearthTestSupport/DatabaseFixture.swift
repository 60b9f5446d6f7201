import Hearth

// The one database fixture of the test targets: a database opened for `body` and closed
// after it whatever `body` does (returns, throws, records an issue), so that no test
// holds a file open past its end and no test writes its own `defer { db.close() }`.

/// Opens a temporary database, runs `body` with it, and closes (and deletes) it.
@discardableResult
public func withDatabase<T>(settings: Settings = Settings(), _ body: (Database) throws -> T) throws -> T {
  let db = try Database.temporary(settings: settings)
  defer { db.close() }
  return try body(db)
}

/// The async form of `withDatabase(settings:_:)`; `body` runs in the caller's isolation.
@discardableResult
public func withDatabase<T>(
  settings: Settings = Settings(), isolation: isolated (any Actor)? = #isolation,
  _ body: (Database) async throws -> T
) async throws -> T {
  let db = try Database.temporary(settings: settings)
  defer { db.close() }
  return try await body(db)
}

/// Opens (or creates) the database at `path`, runs `body` with it, and closes it; the
/// files stay, for a test that reopens them.
@discardableResult
public func withDatabase<T>(at path: String, settings: Settings = Settings(), _ body: (Database) throws -> T) throws
  -> T
{
  let db = try Database(path: path, settings: settings)
  defer { db.close() }
  return try body(db)
}

/// The async form of `withDatabase(at:settings:_:)`.
@discardableResult
public func withDatabase<T>(
  at path: String, settings: Settings = Settings(), isolation: isolated (any Actor)? = #isolation,
  _ body: (Database) async throws -> T
) async throws -> T {
  let db = try Database(path: path, settings: settings)
  defer { db.close() }
  return try await body(db)
}
