/// The plans by type: an open-addressing table hashed by multiplying the metadata's
/// address, because `Dictionary` hashes an `ObjectIdentifier` with SipHash, which cost
/// several times the rest of a lookup, and every value decoded through the generic
/// `decode` looks its type up.
struct PlanTable {
  private var types: [ObjectIdentifier?] = Array(repeating: nil, count: 64)
  private var plans: [DecodingPlan] = Array(repeating: .initFromDecoder, count: 64)
  private var count = 0

  func plan(for type: ObjectIdentifier) -> DecodingPlan? {
    var slot = firstSlot(of: type)
    while let stored = types[slot] {
      if stored == type { return plans[slot] }
      slot = (slot + 1) & (types.count - 1)
    }
    return nil
  }

  mutating func insert(_ plan: DecodingPlan, for type: ObjectIdentifier) {
    if (count + 1) * 2 > types.count { grow() }
    var slot = firstSlot(of: type)
    while let stored = types[slot] {
      if stored == type { return }
      slot = (slot + 1) & (types.count - 1)
    }
    types[slot] = type
    plans[slot] = plan
    count += 1
  }

  /// Fibonacci hashing: the high bits of the address times 2^64/φ, as many as the
  /// (power of two) capacity needs.
  private func firstSlot(of type: ObjectIdentifier) -> Int {
    let product = UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: product >> UInt64(64 - types.count.trailingZeroBitCount))
  }

  private mutating func grow() {
    let old = zip(types, plans)
    types = Array(repeating: nil, count: types.count * 2)
    plans = Array(repeating: .initFromDecoder, count: plans.count * 2)
    count = 0
    for case (let type?, let plan) in old { insert(plan, for: type) }
  }
}
