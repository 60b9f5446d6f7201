import HearthTestSupport

/// The torture worker's choices, from the shared seeded generator (SplitMix64), so that a
/// seed and a commit number always give the same commit.
struct Generator {
  private var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// The generator of commit `sequence` of a run seeded with `seed`.
  init(seed: UInt64, sequence: Int) {
    self.init(seed: seed ^ (UInt64(sequence) &* 0xD1B5_4A32_D192_ED03))
  }

  mutating func next() -> UInt64 { random.next() }

  /// A number in `0..<bound`.
  mutating func next(upTo bound: Int) -> Int { random.next(below: bound) }

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
