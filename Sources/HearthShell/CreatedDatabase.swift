import Foundation

/// What opening a database for writing creates: the database directory (and the missing
/// directories above it), or the files of a new database in a directory that existed.
struct CreatedDatabase {
  /// The outermost directory that opening makes; `nil` when the database directory
  /// exists.
  let outermostDirectory: String?
  /// The names in the database directory before it was opened, when it existed.
  let existingNames: Set<String>

  /// What opening the database at `path` would create; `nil` when a database is there.
  init?(beforeOpening path: String) {
    let fileManager = FileManager.default
    guard !fileManager.fileExists(atPath: path + "/data.mdb") else { return nil }
    var missing: String?
    var current = path
    while !current.isEmpty, current != "/", !fileManager.fileExists(atPath: current) {
      missing = current
      current = (current as NSString).deletingLastPathComponent
    }
    outermostDirectory = missing
    existingNames = Set((try? fileManager.contentsOfDirectory(atPath: path)) ?? [])
  }

  /// Removes what opening created at `path`, and nothing else.
  func remove(from path: String) {
    let fileManager = FileManager.default
    if let outermostDirectory {
      try? fileManager.removeItem(atPath: outermostDirectory)
      return
    }
    for name in (try? fileManager.contentsOfDirectory(atPath: path)) ?? [] where !existingNames.contains(name) {
      try? fileManager.removeItem(atPath: path + "/" + name)
    }
  }
}
