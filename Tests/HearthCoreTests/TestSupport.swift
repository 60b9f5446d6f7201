import Foundation

@testable import HearthCore

// The store fixture of the core tests: a store opened for `body` and closed after it
// whatever `body` does (the database fixture of the API tests, `withDatabase`, is in
// HearthTestSupport).

/// A store in a fresh directory (relaxed durability), closed and removed afterwards.
func withStore(_ body: (DocumentStore) throws -> Void) throws {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-store-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  var options = DocumentStore.Options()
  options.durable = false
  try withStore(at: path, options: options, body)
}

/// Opens (or creates) the store at `path`, runs `body` with it, and closes it; the files
/// stay, for a test that reopens or damages them.
@discardableResult
func withStore<T>(
  at path: String, options: DocumentStore.Options = DocumentStore.Options(), _ body: (DocumentStore) throws -> T
) throws -> T {
  let store = try DocumentStore(path: path, options: options)
  defer { store.close() }
  return try body(store)
}
