import Foundation
import HearthFuzzing
import Testing

/// The short form of the fuzzing (Tools/Fuzz/README.md), run by `swift test` without a
/// sanitizer: every fuzz target over its seed corpus, every regression input (what the
/// long runs found), and a few thousand deterministic mutations of the corpus.
@Suite struct FuzzReplayTests {
  static let fuzzDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/Fuzz")

  static func inputs(_ kind: String, _ target: FuzzTarget) -> [(name: String, bytes: [UInt8])] {
    let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue).path
    return FuzzTarget.inputFiles([directory]).compactMap { file in
      FileManager.default.contents(atPath: file).map { ((file as NSString).lastPathComponent, Array($0)) }
    }
  }

  @Test(arguments: FuzzTarget.allCases)
  func seedCorpusHoldsEverySeed(_ target: FuzzTarget) throws {
    let directory = Self.fuzzDirectory.appendingPathComponent("Corpus").appendingPathComponent(target.rawValue)
    let write = ProcessInfo.processInfo.environment["HEARTH_WRITE_FUZZ_SEEDS"] == "1"
    if write { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    let corpus = Dictionary(Self.inputs("Corpus", target).map { ($0.name, $0.bytes) }) { first, _ in first }
    for seed in target.seeds {
      let name = FuzzTarget.seedName(seed)
      if write {
        try Data(seed).write(to: directory.appendingPathComponent(name))
      } else {
        #expect(
          corpus[name] == seed, "\(target.rawValue): seed \(name) is missing; HEARTH_WRITE_FUZZ_SEEDS=1 writes it")
      }
    }
    let total = corpus.values.reduce(0) { $0 + $1.count }
    #expect(total < 16_384, "\(target.rawValue): the seed corpus should stay small (\(total) bytes)")
  }

  @Test(arguments: FuzzTarget.allCases)
  func corpusAndRegressionsHold(_ target: FuzzTarget) {
    let inputs = Self.inputs("Corpus", target) + Self.inputs("Regressions", target)
    #expect(!inputs.isEmpty)
    for input in inputs {
      do {
        try target.run(input.bytes)
      } catch {
        Issue.record("\(target.rawValue) \(input.name): \(error)")
      }
    }
  }

  /// Mutations as libFuzzer makes them (bit flips, interesting bytes, erasures,
  /// insertions, copies, splices), from a seed that depends only on the target.
  @Test(arguments: FuzzTarget.allCases)
  func mutationsHold(_ target: FuzzTarget) {
    let corpus = Self.inputs("Corpus", target).map(\.bytes) + Self.inputs("Regressions", target).map(\.bytes)
    guard !corpus.isEmpty else { return }
    var random = XorShift(seed: 0x4845_4152_5448 &+ UInt64(target.rawValue.utf8.count))
    for round in 0..<2_000 {
      var input = corpus[random.below(corpus.count)]
      for _ in 0...random.below(4) {
        Self.mutate(&input, splicing: corpus[random.below(corpus.count)], with: &random)
      }
      do {
        try target.run(input)
      } catch {
        Issue.record(
          "\(target.rawValue) mutation \(round) [\(input.map(String.init).joined(separator: ","))]: \(error)")
        return
      }
    }
  }

  static let interesting: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0x22, 0x5C, 0x7B, 0x5B, 0x2F, 0x24, 0x27, 0x60, 0x28]

  static func mutate(_ input: inout [UInt8], splicing other: [UInt8], with random: inout XorShift) {
    let position = random.below(input.count + 1)
    switch random.below(7) {
    case 0 where !input.isEmpty:
      input[min(position, input.count - 1)] ^= 1 << UInt8(random.below(8))
    case 1 where !input.isEmpty:
      input[min(position, input.count - 1)] = interesting[random.below(interesting.count)]
    case 2:
      input.removeSubrange(position..<min(input.count, position + 1 + random.below(8)))
    case 3:
      input.insert(contentsOf: (0...random.below(4)).map { _ in UInt8(random.below(256)) }, at: position)
    case 4 where !input.isEmpty:
      let start = random.below(input.count)
      input.insert(contentsOf: input[start..<min(input.count, start + 1 + random.below(16))], at: position)
    case 5:
      input = Array(input.prefix(position)) + other.suffix(from: random.below(other.count + 1))
    default:
      input.insert(interesting[random.below(interesting.count)], at: position)
    }
  }
}

/// xorshift64*: a seeded generator, so that a failing mutation reproduces.
struct XorShift {
  var state: UInt64

  init(seed: UInt64) { state = seed == 0 ? 1 : seed }

  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }

  /// A number in `0..<bound` (0 when `bound` is 0).
  mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
