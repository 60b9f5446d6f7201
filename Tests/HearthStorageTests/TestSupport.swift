import Foundation

@testable import HearthStorage

// The environment fixture of the storage tests: an environment opened for `body` and
// closed after it whatever `body` does, in a directory that a `TemporaryDirectory` owns.

/// A fresh directory, removed at the end of the test.
final class TemporaryDirectory {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-storage-\(UUID().uuidString)").path
  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Opens (or creates) the environment at `path`, runs `body` with it, and closes it; the
/// files stay, for a test that reopens or damages them.
@discardableResult
func withEnvironment<T>(
  at path: String, options: Environment.Options = Environment.Options(), _ body: (Environment) throws -> T
) throws -> T {
  let environment = try Environment.open(path: path, options: options)
  defer { environment.close() }
  return try body(environment)
}

/// The UTF-8 bytes of `text`, as keys and values are written.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
