import HearthCore

/// Types that Hearth's decoder builds itself instead of calling their `init(from:)`,
/// because going through the `Decoder` protocol costs many times what they do.
///
/// The standard library's `Dictionary.init(from:)` asks a keyed container for `allKeys`
/// (an array of keys, cast to `[CodingKey]`) and then decodes each key through generic,
/// type-erased calls; `Array.init(from:)` decodes each element through an unkeyed
/// container; `@DocumentID` needs only the reference, not a super-decoder and
/// `userInfo`. Each conformance does what that `init(from:)` does through Hearth's
/// containers — the same values, the same errors, the same coding paths.
protocol DirectlyDecodable: SendableMetatype {
  /// The value stored as `value`, at `path`.
  static func decoded(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Self
}

extension DirectlyDecodable {
  /// `decoded` as the caller's `T`, which is `Self`: the caller holds the type only as
  /// `any DirectlyDecodable.Type`, and returning through `Any` would cost it a runtime
  /// cast (a few hundred instructions) where this is a type comparison.
  static func decoded<T>(
    as type: T.Type, from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> T {
    exactly(try decoded(from: value, in: context, at: path()), as: type)
  }
}

/// `value` as `T`, which its type `U` is: for results that generic code gets back as a
/// type it knows only dynamically to be its own `T`. Checks the types are the same (one
/// comparison) rather than casting (a runtime call).
@inline(__always)
func exactly<U, T>(_ value: U, as type: T.Type) -> T {
  precondition(U.self == T.self, "\(U.self) is not \(T.self)")
  return unsafeBitCast(value, to: T.self)
}

extension Array: DirectlyDecodable where Element: Decodable {
  static func decoded(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [Element] {
    guard case .array(let array) = value else {
      throw context.mismatch(Self.self, value, path().keys, shape: "an array", fallback: [Any].self)
    }
    switch DecodingPlan.of(Element.self) {
    case .primitive(let primitive):
      return try primitive.convertedArray(as: Element.self, from: array, in: context, at: path())
    case let plan:
      return try context.decodeArray(array) { element, index in
        try context.unbox(element, as: Element.self, plan: plan, at: .index(index, parent: path()))
      }
    }
  }
}

/// Only `String` keys: Swift codes other dictionaries as arrays of pairs or through
/// `CodingKeyRepresentable`, which their own `init(from:)` still does.
extension Dictionary: DirectlyDecodable where Key == String, Value: Decodable {
  static func decoded(
    from value: HearthCore.Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [String: Value] {
    guard case .map(let map) = value else {
      throw context.mismatch(Self.self, value, path().keys, shape: "a map", fallback: [String: Any].self)
    }
    switch DecodingPlan.of(Value.self) {
    case .primitive(let primitive):
      return try primitive.convertedMap(as: Value.self, from: map, in: context, at: path())
    case let plan:
      return try context.decodeMap(map) { element, key in
        try context.unbox(element, as: Value.self, plan: plan, at: .key(DictionaryKey(key), parent: path()))
      }
    }
  }
}
