/// SplitMix64: a small seeded generator, so that a seed and a commit number always give
/// the same commit.
struct Generator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// The generator of commit `sequence` of a run seeded with `seed`.
  init(seed: UInt64, sequence: Int) {
    self.init(seed: seed ^ (UInt64(sequence) &* 0xD1B5_4A32_D192_ED03))
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }

  mutating func chance(percent: Int) -> Bool { next(upTo: 100) < percent }

  mutating func pick<T>(_ items: [T]) -> T { items[next(upTo: items.count)] }

  /// `count` distinct items of `items`, in random order.
  mutating func pick<T>(_ count: Int, of items: [T]) -> [T] {
    var pool = items
    var picked: [T] = []
    while picked.count < count && !pool.isEmpty { picked.append(pool.remove(at: next(upTo: pool.count))) }
    return picked
  }
}
