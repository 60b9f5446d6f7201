import Foundation
import HearthCore

// MARK: - Swift's primitives

/// The types that the containers' non-generic `decode` overloads take (Swift's strings,
/// booleans and numbers), each with its conversion, so that those overloads call the
/// conversion straight away instead of going through `unbox` and a `DecodingPlan`, and
/// arrays and dictionaries of them are built in code specialized for them.
protocol DecodingPrimitive: Decodable, SendableMetatype {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Self

  /// An array of these (`[String]`, `[Int]`…), built in code specialized for `Self` (see
  /// `DecodingContext.decodeArray`).
  ///
  /// A requirement, not just an extension method, so that `Array.decoded` reaches the
  /// specialized code through the conformance.
  static func convertedArray(
    from array: [Value], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [Self]

  /// A string-keyed dictionary of these (`[String: String]`…), as `convertedArray`.
  static func convertedMap(
    from map: [String: Value], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [String: Self]
}

extension DecodingPrimitive {
  static func convertedArray(
    from array: [Value], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [Self] {
    try context.decodeArray(array) { element, index in
      try converted(from: element, in: context, at: .index(index, parent: path()))
    }
  }

  /// Converts the values with `mapValues`, which keeps the map's hash table — no key is
  /// hashed or inserted again. Its closure does not see the keys, so when a value does
  /// not convert, this decodes again key by key (as `decodeMap`) to throw the error
  /// with the right one; conversions have no side effects, so that is safe.
  static func convertedMap(
    from map: [String: Value], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [String: Self] {
    if let converted = try? map.mapValues({ try converted(from: $0, in: context, at: .root) }) { return converted }
    return try context.decodeMap(map) { element, key in
      try converted(from: element, in: context, at: .key(DictionaryKey(key), parent: path()))
    }
  }

  // The three conversions as the caller's `T`, which is `Self`: the caller holds the
  // type only as `any DecodingPrimitive.Type` (see `DirectlyDecodable.decoded(as:…)`).
  // The collections compare their element types: comparing `[Self]` with `[T]` would
  // look up both arrays' generic metadata, a few hundred instructions each.

  static func converted<T>(
    as type: T.Type, from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> T {
    exactly(try converted(from: value, in: context, at: path()), as: type)
  }

  static func convertedArray<T>(
    as type: T.Type, from array: [Value], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> [T] {
    precondition(Self.self == T.self, "\(Self.self) is not \(T.self)")
    return unsafeBitCast(try convertedArray(from: array, in: context, at: path()), to: [T].self)
  }

  static func convertedMap<T>(
    as type: T.Type, from map: [String: Value], in context: DecodingContext,
    at path: @autoclosure () -> CodingPathNode
  ) throws -> [String: T] {
    precondition(Self.self == T.self, "\(Self.self) is not \(T.self)")
    return unsafeBitCast(try convertedMap(from: map, in: context, at: path()), to: [String: T].self)
  }
}

extension String: DecodingPrimitive {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> String {
    try context.string(value, at: path())
  }
}

extension Bool: DecodingPrimitive {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Bool {
    try context.bool(value, at: path())
  }
}

extension Double: DecodingPrimitive {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Double {
    try context.double(value, at: path())
  }
}

extension Float: DecodingPrimitive {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Float {
    try context.float(value, at: path())
  }
}

extension DecodingPrimitive where Self: FixedWidthInteger {
  static func converted(
    from value: Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Self {
    try context.integer(value, as: Self.self, at: path())
  }
}

extension Int: DecodingPrimitive {}
extension Int8: DecodingPrimitive {}
extension Int16: DecodingPrimitive {}
extension Int32: DecodingPrimitive {}
extension Int64: DecodingPrimitive {}
extension UInt: DecodingPrimitive {}
extension UInt8: DecodingPrimitive {}
extension UInt16: DecodingPrimitive {}
extension UInt32: DecodingPrimitive {}
extension UInt64: DecodingPrimitive {}
