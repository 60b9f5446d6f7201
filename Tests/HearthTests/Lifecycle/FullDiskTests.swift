import Foundation
import Hearth
import HearthTestSupport
import Testing

/// A small file system (tmpfs), where the machine lets this process mount one.
final class SmallFileSystem {
  let path: String

  /// Mounts `megabytes` of tmpfs on a new temporary directory, or returns `nil`.
  init?(megabytes: Int) {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-small-\(UUID().uuidString)").path
    guard geteuid() == 0,
      (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil,
      Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path])
    else {
      try? FileManager.default.removeItem(atPath: path)
      return nil
    }
  }

  deinit {
    _ = Self.run("/bin/umount", [path])
    try? FileManager.default.removeItem(atPath: path)
  }

  static let isAvailable = SmallFileSystem(megabytes: 1) != nil

  private static func run(_ tool: String, _ arguments: [String]) -> Bool {
    guard let outcome = try? runProcess(URL(fileURLWithPath: tool), arguments) else { return false }
    return outcome.succeeded
  }
}

/// A full disk: the write that does not fit fails with `resourceExhausted` and changes
/// nothing; every earlier commit survives a reopen; once space is freed, writes work.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
struct FullDiskTests {
  @Test func aWriteThatDoesNotFitFailsAndLosesNothing() throws {
    let disk = try #require(SmallFileSystem(megabytes: 8))
    let filler = disk.path + "/filler"
    try Data(count: 2 << 20).write(to: URL(fileURLWithPath: filler))
    let path = disk.path + "/app.hearth"
    let text = String(repeating: "x", count: 8 << 10)

    var written = 0
    try withDatabase(at: path) { db throws in
      var failure: Error?
      while failure == nil, written < 10_000 {
        do {
          try db.document("docs/d\(written)").setData(["i": written, "text": text])
          written += 1
        } catch {
          failure = error
        }
      }
      #expect((failure as? HearthError)?.code == .resourceExhausted, "\(String(describing: failure))")
      #expect(written > 100, "the disk filled after \(written) documents")
      // The failed write changed nothing; a batch that cannot fit is refused whole.
      #expect(try !db.document("docs/d\(written)").getDocument().exists)
      let batch = db.batch()
      for i in 0..<50 { batch.setData(["text": text], forDocument: db.document("batch/b\(i)")) }
      #expect(throws: HearthError.self) { try batch.commit() }
      #expect(try db.collection("batch").getDocuments().isEmpty)
    }

    // Every acknowledged commit is there after a reopen, and the database is sound.
    try withDatabase(at: path) { db in
      let count = try db.collection("docs").count.getAggregation(source: .server).count
      #expect(count.intValue == written)
      let last = try db.document("docs/d\(written - 1)").getDocument()
      #expect(last.get("i") as? Int64 == Int64(written - 1))
      let report = try db.check()
      #expect(report.ok, "\(report.problems)")

      // Freed space lets writes go on.
      try FileManager.default.removeItem(atPath: filler)
      try db.document("docs/after").setData(["i": -1, "text": text])
      #expect(try db.document("docs/after").getDocument().exists)
    }
  }
}
