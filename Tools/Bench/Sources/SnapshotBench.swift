import Foundation
import Hearth

/// The snapshot section: export, import and backup of a database of `documents` posts,
/// with throughput and the memory each takes.
///
/// The database is filled with posts made on the fly (the section keeps none in memory),
/// so that the resident memory it reports is the operation's own: the peak during the
/// operation (Linux's `VmHWM`, reset before each one) above the resident memory before it
/// (once the database pages that earlier work left mapped are released).
struct SnapshotBench {
  static let names = [
    "snapshot: export (JSON Lines)", "snapshot: import into an empty database", "snapshot: backup (compacted hot copy)",
  ]

  let documents: Int
  let root: URL

  func run(selects: (String) -> Bool) throws {
    let source = try Database(path: root.appendingPathComponent("snapshot-source").path, settings: relaxed)
    try fill(source)
    let file = root.appendingPathComponent("snapshot.jsonl").path
    let backup = root.appendingPathComponent("snapshot-backup").path
    var rows: [(String, Figures)] = []
    if selects(Self.names[0]) || selects(Self.names[1]) {
      rows.append((Self.names[0], try measure(bytes: { fileSize(file) }) { try source.export(to: file) }))
    }
    if selects(Self.names[1]) {
      let target = try Database(path: root.appendingPathComponent("snapshot-target").path, settings: relaxed)
      rows.append((Self.names[1], try measure(bytes: { fileSize(file) }) { try target.import(from: file) }))
      target.close()
    }
    if selects(Self.names[2]) {
      rows.append(
        (Self.names[2], try measure(bytes: { fileSize(backup + "/data.mdb") }) { try source.backup(to: backup) }))
    }
    source.close()
    print("\nsnapshots: \(documents) posts (users/{uid}/posts, automatic indexes); one run each")
    print(
      "operation".padding(toLength: 42, withPad: " ", startingAt: 0) + pad("documents/s", 13) + pad("MB/s", 9)
        + pad("file MB", 9) + pad("seconds", 9) + pad("peak RSS +MB", 14))
    for (name, figures) in rows {
      print(
        name.padding(toLength: 42, withPad: " ", startingAt: 0)
          + pad(formatRate(Double(documents) / figures.seconds), 13)
          + pad(String(format: "%.1f", Double(figures.bytes) / 1e6 / figures.seconds), 9)
          + pad(String(format: "%.0f", Double(figures.bytes) / 1e6), 9)
          + pad(String(format: "%.2f", figures.seconds), 9)
          + pad(String(format: "%.0f", Double(figures.peakGrowth) / 1e6), 14))
    }
  }

  private var relaxed: Settings {
    let settings = Settings()
    settings.durability = .relaxed
    return settings
  }

  /// Sets the posts, 1,000 per batch, each made as it is written.
  private func fill(_ database: Database) throws {
    let users = max(documents / 100, 1)
    let words = ["swift", "lmdb", "firestore", "coffee", "linux", "server", "cli", "tests", "data", "sync"]
    for start in stride(from: 0, to: documents, by: 1000) {
      let batch = database.batch()
      for index in start..<min(start + 1000, documents) {
        let owner = "user\(index % users)"
        batch.setData(
          [
            "ownerId": owner, "title": "Post number \(index) about \(words[index % words.count])",
            "body": String(repeating: "Lorem ipsum dolor sit amet. ", count: 6),
            "createdAt": Timestamp(seconds: 1_780_000_000 + Int64(index), nanoseconds: Int32(index % 1000) * 1000),
            "likes": index * 7919 % 5000, "tags": (0..<3).map { words[(index + $0) % words.count] },
            "ratings": ["user1": "5", "user2": "4"], "published": index % 7 != 0,
          ], forDocument: database.document("users/\(owner)/posts/post\(index)"))
      }
      try batch.commit()
    }
  }

  struct Figures {
    var seconds: Double
    var bytes: Int
    var peakGrowth: Int
  }

  private func measure(bytes: () -> Int, _ body: () throws -> Void) throws -> Figures {
    // Pages of database files that earlier work mapped count as resident; drop them, so
    // the peak is what this operation holds.
    Memory.releaseFileMappings(named: "data.mdb")
    let before = Memory.resident()
    Memory.resetPeak()
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Figures(seconds: seconds, bytes: bytes(), peakGrowth: max(Memory.peak() - before, 0))
  }

  private func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}

/// This process's resident memory, from Linux's `/proc/self/status` (0 elsewhere).
enum Memory {
  /// Lets the kernel unmap the resident pages of every mapping of a file called `name`
  /// (they stay in the page cache, and fault back in when read).
  static func releaseFileMappings(named name: String) {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
    for line in maps.split(separator: "\n") where line.hasSuffix("/" + name) {
      let range = line.split(separator: " ")[0].split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
        let address = UnsafeMutableRawPointer(bitPattern: start)
      else { continue }
      madvise(address, Int(end - start), MADV_DONTNEED)
    }
  }

  static func resident() -> Int { field("VmRSS:") }
  static func peak() -> Int { field("VmHWM:") }

  /// Starts a new peak from the current resident memory (`clear_refs` 5).
  static func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
  }

  private static func field(_ name: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
    else { return 0 }
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return kilobytes * 1024
  }
}
