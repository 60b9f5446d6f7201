import Foundation
import HearthTestSupport
import Synchronization
import Testing

/// The corruption sweep (issue 13, item 3): copies of a small demo database, each with one
/// random bit flipped or cut short at a random length, and the built `hearth` run on each
/// copy with `get`, `query`, `export`, `stats` and `check`. Every run must end with an exit
/// status and a message, never with a signal (a flipped byte used to crash `check` and
/// `stats` inside LMDB about once in a hundred flips).
///
/// The short form runs in the test suite: 1,000 flips and 50 truncations (5,250 runs, two
/// at a time). `Tools/corruption-sweep.sh` runs a long form, through these variables:
/// `HEARTH_SWEEP_FLIPS`, `HEARTH_SWEEP_TRUNCATIONS`, `HEARTH_SWEEP_SEED` (the same seed
/// damages the same bytes) and `HEARTH_SWEEP_USERS` (the demo's size).
@Suite(
  .enabled(
    if: hearthExecutable != nil && ReadmeTests.demoWriter != nil,
    "hearth and hearth-demo are not built next to the tests (run swift build first)"))
struct CorruptionSweepTests {
  /// One damaged copy: a bit flipped, or the file cut at a length.
  enum Damage: CustomStringConvertible {
    case flip(offset: Int, bit: Int)
    case truncate(length: Int)

    func apply(to original: [UInt8]) -> [UInt8] {
      switch self {
      case .flip(let offset, let bit):
        var bytes = original
        bytes[offset] ^= 1 << UInt8(bit)
        return bytes
      case .truncate(let length): return Array(original.prefix(length))
      }
    }

    var description: String {
      switch self {
      case .flip(let offset, let bit): return "bit \(bit) of byte \(offset) flipped"
      case .truncate(let length): return "cut to \(length) bytes"
      }
    }
  }

  static let commands: [[String]] = [
    ["get", "users/alice"], ["query", "group:posts", "where", "likes", ">=", "100", "limit", "5"], ["export", "-"],
    ["stats"], ["check"],
  ]

  static func setting(_ name: String, _ standard: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? standard
  }

  /// The damaged copies, the same for a seed.
  static func damages(size: Int, flips: Int, truncations: Int, seed: UInt64) -> [Damage] {
    var random = SplitMix64(seed: seed)
    let flipped = (0..<flips).map { _ in
      Damage.flip(offset: Int.random(in: 0..<size, using: &random), bit: Int.random(in: 0..<8, using: &random))
    }
    return flipped + (0..<truncations).map { _ in .truncate(length: Int.random(in: 0..<size, using: &random)) }
  }

  /// Keeps a copy that failed, so that it can be looked at after the run (the demo's
  /// auto IDs and commit times differ from run to run: a seed damages the same offsets,
  /// not always the same bytes).
  static func keep(_ bytes: [UInt8], seed: UInt64, index: Int) -> String? {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hearth-sweep-failures/seed\(seed)-\(index)"
    ).path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return FileManager.default.createFile(atPath: directory + "/data.mdb", contents: Data(bytes)) ? directory : nil
  }

  @Test func noDamagedCopyEndsAProcessWithASignal() throws {
    let seed = UInt64(Self.setting("HEARTH_SWEEP_SEED", 13))
    let demo = try DamagedDatabaseBinaryTests.DemoCopy(users: Self.setting("HEARTH_SWEEP_USERS", 20))
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: demo.dataFile)))
    let damages = Self.damages(
      size: original.count, flips: Self.setting("HEARTH_SWEEP_FLIPS", 1000),
      truncations: Self.setting("HEARTH_SWEEP_TRUNCATIONS", 50), seed: seed)
    let failures = Mutex<[String]>([])
    let runs = Atomic<Int>(0)
    let workers = 2
    let directory = demo.directory
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let copy = directory + "/copy\(worker)"
      try? FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
      for index in stride(from: worker, to: damages.count, by: workers) {
        let damage = damages[index]
        guard FileManager.default.createFile(atPath: copy + "/data.mdb", contents: Data(damage.apply(to: original)))
        else {
          failures.withLock { $0.append("\(damage): cannot write the copy") }
          continue
        }
        var failed = false
        for command in Self.commands {
          let outcome = try? DamagedDatabaseBinaryTests.hearth(["--db", copy] + command, niced: true)
          runs.add(1, ordering: .relaxed)
          guard let outcome else {
            failures.withLock { $0.append("\(damage), \(command[0]): hearth did not run") }
            continue
          }
          if outcome.endedBySignal || (outcome.stdout.isEmpty && outcome.stderr.isEmpty) {
            let ending = outcome.endedBySignal ? "signal \(outcome.status)" : "status \(outcome.status), silent"
            failures.withLock { $0.append("\(damage), \(command[0]): \(ending); \(outcome.stderr.prefix(300))") }
            failed = true
          }
        }
        if failed, let kept = Self.keep(damage.apply(to: original), seed: seed, index: index) {
          failures.withLock { $0.append("  (\(damage): the damaged copy is kept in \(kept))") }
        }
      }
    }
    #expect(runs.load(ordering: .relaxed) == damages.count * Self.commands.count)
    let found = failures.withLock { $0 }
    let summary = found.prefix(20).joined(separator: "\n")
    #expect(found.isEmpty, "seed \(seed), \(found.count) runs failed:\n\(summary)")
  }
}
