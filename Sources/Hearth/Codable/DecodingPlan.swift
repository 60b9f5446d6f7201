import Synchronization

/// How the decoder turns a stored value into one Swift type.
///
/// Worked out once per type and kept: finding it out takes a table lookup and one or two
/// protocol conformance checks (each a search in the Swift runtime), which cost more
/// than decoding a string. Types are never unloaded, so the cache only grows with the
/// number of distinct types decoded.
enum DecodingPlan: Sendable {
  /// Swift's strings, booleans and numbers.
  case primitive(any DecodingPrimitive.Type)
  /// Hearth's stored types and the Foundation types it stores directly (`Date`, `URL`,
  /// `Data`, `Decimal`), by exact type, so that subclasses go through their own coding.
  case direct(DirectType)
  /// Arrays, string-keyed dictionaries and `@DocumentID`.
  case directlyDecodable(any DirectlyDecodable.Type)
  /// Anything else: its own `init(from:)`.
  case initFromDecoder

  static func of(_ type: Any.Type) -> DecodingPlan {
    let id = ObjectIdentifier(type)
    if let plan = cache.withLock({ $0.plan(for: id) }) { return plan }
    let plan: DecodingPlan =
      if let primitive = type as? any DecodingPrimitive.Type {
        .primitive(primitive)
      } else if let direct = DirectType(type) {
        .direct(direct)
      } else if let directlyDecodable = type as? any DirectlyDecodable.Type {
        .directlyDecodable(directlyDecodable)
      } else {
        .initFromDecoder
      }
    // Two threads may both work out a new type's plan; they store the same one.
    cache.withLock { $0.insert(plan, for: id) }
    return plan
  }

  private static let cache = Mutex(PlanTable())
}
