import Foundation
import Hearth
import Testing

/// A backup taken right after another process grew the map: LMDB's copy begins its own
/// read transaction, which must take up the grown map as every other transaction does.
@Suite(.enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests"))
struct MapAdoptionTests {
  @Test func aBackupTakesUpAMapAnotherProcessGrew() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-map-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let settings = Settings()
    settings.initialMapSize = 1 << 20
    let db = try Database(path: directory + "/db", settings: settings)
    defer { db.close() }
    try db.document("users/a").setData(["n": 1])

    // Another process opens it with the default 64 MiB map and commits: LMDB records
    // the larger size, which this process has not taken up yet.
    let other = Process()
    other.executableURL = hearthExecutable
    other.arguments = ["--db", directory + "/db", "set", "users/b", #"{"n": 2}"#]
    try other.run()
    other.waitUntilExit()
    #expect(other.terminationStatus == 0)

    let manifest = try db.backup(to: directory + "/backup")
    #expect(manifest.documents == 2)
  }
}
