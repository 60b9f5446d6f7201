import Foundation
import HearthCore

// MARK: - Decoder

/// A class, as `KeyedDecoder` is: it travels as `any Decoder`, which holds a reference
/// in place but had to allocate a box for a struct this size, and `@DocumentID` casts
/// it back, which copied the struct.
final class DecoderImpl: Swift.Decoder {
  let context: DecodingContext
  let value: Value
  let node: CodingPathNode
  /// The type being decoded, for messages; `nil` under `superDecoder()`.
  let expectedType: Any.Type?
  var codingPath: [any CodingKey] { node.keys }
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  init(context: DecodingContext, value: Value, node: CodingPathNode, expectedType: Any.Type?) {
    self.context = context
    self.value = value
    self.node = node
    self.expectedType = expectedType
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .map(let map) = value else {
      throw context.mismatch(expectedType, value, codingPath, shape: "a map", fallback: [String: Any].self)
    }
    return KeyedDecodingContainer(KeyedDecoder<Key>(context: context, map: context.keyed(map, at: node), node: node))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let array) = value else {
      throw context.mismatch(expectedType, value, codingPath, shape: "an array", fallback: [Any].self)
    }
    return UnkeyedDecoder(context: context, array: array, node: node)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecoder(context: context, value: value, node: node)
  }
}

// MARK: - Containers

/// Implements every `decode` and `decodeIfPresent` overload itself: the protocol's
/// defaults would look the key up three times (`contains`, `decodeNil`, `decode`) and
/// send Swift's primitives through the generic path.
///
/// A class, not a struct: `KeyedDecodingContainer`'s type-erasing box copies its
/// container on every call, and copying a reference is one retain where copying this
/// struct's three references went through its generic value witnesses.
final class KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let context: DecodingContext
  let map: [String: Value]
  let node: CodingPathNode
  var codingPath: [any CodingKey] { node.keys }

  init(context: DecodingContext, map: [String: Value], node: CodingPathNode) {
    self.context = context
    self.map = map
    self.node = node
  }

  var allKeys: [Key] { map.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { map[key.stringValue] != nil }

  private func value(_ key: Key) throws -> Value {
    guard let value = map[key.stringValue] else { throw context.keyNotFound(key, in: codingPath) }
    return value
  }

  /// The value at `key`, or `nil` when it is missing or null, as `decodeIfPresent` reads it.
  private func presentValue(_ key: Key) -> Value? {
    switch map[key.stringValue] {
    case nil, .null?: nil
    case let value?: value
    }
  }

  private func path(_ key: Key) -> CodingPathNode { .key(key, parent: node) }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try value(key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(type, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(type, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(type, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(type, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(type, key) }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try primitiveIfPresent(type, key) }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try primitiveIfPresent(type, key) }

  private func primitive<T: DecodingPrimitive>(_ type: T.Type, _ key: Key) throws -> T {
    try T.converted(from: try value(key), in: context, at: path(key))
  }

  private func primitiveIfPresent<T: DecodingPrimitive>(_ type: T.Type, _ key: Key) throws -> T? {
    guard let value = presentValue(key) else { return nil }
    return try T.converted(from: value, in: context, at: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    guard let value = map[key.stringValue] else {
      // These two cases also hold for generic code that reaches this method instead of
      // the `KeyedDecodingContainer` overloads that synthesized conformances call. (A
      // present `@DocumentID` is `DirectlyDecodable`, which ignores the value.)
      if let idType = type as? any DocumentIDProtocol.Type {
        return try idType.init(reference: context.requiredDocumentIDReference()) as! T
      }
      if let nilType = type as? any NilWhenMissing.Type { return nilType.missing as! T }
      throw context.keyNotFound(key, in: codingPath)
    }
    return try context.unbox(value, as: type, at: path(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    if T.self == DocumentReferenceRequest.self {  // a `@DocumentID` asking for the reference
      return exactly(DocumentReferenceRequest(reference: context.documentIDReference, isRequired: true), as: type)
    }
    guard let value = presentValue(key) else { return nil }
    return try context.unbox(value, as: type, at: path(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try context.decoder(for: try value(key), at: path(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try context.decoder(for: try value(key), at: path(key)).unkeyedContainer()
  }

  /// A missing super value decodes from null, as in JSONDecoder.
  func superDecoder() throws -> any Swift.Decoder {
    context.decoder(for: map["super"] ?? .null, at: .key(SuperKey(), parent: node))
  }

  /// `@DocumentID` properties come here, usually for a key the data does not have.
  func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
    context.decoder(for: map[key.stringValue] ?? .null, at: path(key))
  }
}

struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let context: DecodingContext
  let array: [Value]
  let node: CodingPathNode
  private(set) var currentIndex = 0

  init(context: DecodingContext, array: [Value], node: CodingPathNode) {
    self.context = context
    self.array = array
    self.node = node
  }

  var codingPath: [any CodingKey] { node.keys }
  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  private var currentPath: CodingPathNode { .index(currentIndex, parent: node) }

  /// The next element; it is consumed only when decoding it succeeds.
  private func next(_ type: Any.Type) throws -> Value {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: currentPath.keys,
          debugDescription: "\(context.location(codingPath)): expected \(CodingText.typeName(type)) at index "
            + "\(currentIndex) but the array has only \(array.count) elements"))
    }
    return array[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try next(Any?.self) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
  mutating func decode(_ type: String.Type) throws -> String { try primitive(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let result = try context.unbox(try next(type), as: type, at: currentPath)
    currentIndex += 1
    return result
  }

  private mutating func primitive<T: DecodingPrimitive>(_ type: T.Type) throws -> T {
    let result = try T.converted(from: try next(type), in: context, at: currentPath)
    currentIndex += 1
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let container = try context.decoder(for: try next([String: Any].self), at: currentPath).container(keyedBy: type)
    currentIndex += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let container = try context.decoder(for: try next([Any].self), at: currentPath).unkeyedContainer()
    currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Swift.Decoder {
    let decoder = context.decoder(for: try next(Any.self), at: currentPath)
    currentIndex += 1
    return decoder
  }
}

struct SingleValueDecoder: SingleValueDecodingContainer {
  let context: DecodingContext
  let value: Value
  let node: CodingPathNode
  var codingPath: [any CodingKey] { node.keys }

  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
  func decode(_ type: String.Type) throws -> String { try primitive(type) }
  func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
  func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
  func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.unbox(value, as: type, at: node) }

  private func primitive<T: DecodingPrimitive>(_ type: T.Type) throws -> T {
    try T.converted(from: value, in: context, at: node)
  }
}
