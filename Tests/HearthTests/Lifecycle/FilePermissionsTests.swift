import Foundation
import Hearth
import Testing

/// A new database is readable only by its owner, unless `Settings.filePermissions` asks
/// otherwise.
@Suite struct FilePermissionsTests {
  /// The permission bits of `path`.
  private func mode(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  /// The process's umask, read without changing it (Linux reports it in /proc).
  private var umask: Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    return line.flatMap { Int($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
  }

  @Test func ownerOnlyByDefault() throws {
    try withScratchDirectory { directory in
      let path = directory + "/app.hearth"
      let db = try Database(path: path)
      try db.document("users/a").setData(["secret": true])
      _ = try db.backup(to: directory + "/backup")
      _ = try db.export(to: directory + "/export.jsonl")
      db.close()
      #expect(try mode(path) == 0o700)
      #expect(try mode(path + "/data.mdb") == 0o600)
      #expect(try mode(path + "/lock.mdb") == 0o600)
      #expect(try mode(directory + "/backup") == 0o700)
      #expect(try mode(directory + "/backup/data.mdb") == 0o600)
      #expect(try mode(directory + "/backup/manifest.json") == 0o600)
      #expect(try mode(directory + "/export.jsonl") == 0o600)
    }
  }

  @Test func settingsMayShareWithTheGroup() throws {
    try withScratchDirectory { directory in
      let path = directory + "/shared.hearth"
      let settings = Settings()
      settings.filePermissions = 0o640
      let db = try Database(path: path, settings: settings)
      try db.document("users/a").setData(["n": 1])
      db.close()
      #expect(try mode(path) == 0o750 & ~umask)
      #expect(try mode(path + "/data.mdb") == 0o640 & ~umask)
      #expect(try mode(path + "/lock.mdb") == 0o640 & ~umask)
    }
  }
}
