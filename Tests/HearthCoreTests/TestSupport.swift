import Foundation

@testable import HearthCore

/// SplitMix64: a tiny seedable generator, the same sequence on every platform for a given
/// seed, so that a failing random test reproduces from the seed it prints.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A store in a fresh directory (relaxed durability), closed and removed afterwards.
func withStore(_ body: (DocumentStore) throws -> Void) throws {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-store-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  var options = DocumentStore.Options()
  options.durable = false
  let store = try DocumentStore(path: path, options: options)
  defer { store.close() }
  try body(store)
}
