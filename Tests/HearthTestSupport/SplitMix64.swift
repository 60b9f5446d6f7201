/// SplitMix64: a tiny seedable generator that gives the same sequence on every platform
/// for a given seed, so that a random test, the benchmark's parameter choices and the
/// torture worker's commits reproduce from the seed they print. (Swift's
/// `SystemRandomNumberGenerator` cannot be seeded.)
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0), by remainder: the tiny bias is of no matter
  /// to a test, and the sequence stays the one the seed always gave.
  public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
