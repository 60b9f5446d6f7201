import Foundation

extension Database {
  /// Turns an `Encodable` value into the `[String: Any]` data that `setData(_:)` takes,
  /// as Firebase's `Firestore.Encoder` does.
  ///
  /// For example:
  ///
  /// ```swift
  /// let data = try Firestore.Encoder().encode(user)   // ["username": "alice", ...]
  /// ```
  ///
  /// The result holds only the types Hearth stores: `Int64` for every integer type,
  /// `Double` (also for `Float` and `Decimal`), `Bool`, `String`, `NSNull`, `Timestamp`
  /// (for `Date` too, by default), `Data`, `GeoPoint`, `DocumentReference`, `[Any]`,
  /// `[String: Any]` and `FieldValue` sentinels. `URL` becomes its `absoluteString`
  /// (Foundation's own coding of `URL` would write a map).
  ///
  /// Firebase's strategies are here with its names and defaults for Firestore:
  /// `dateEncodingStrategy` (`.timestamp`), `dataEncodingStrategy` (`.blob`),
  /// `keyEncodingStrategy` (`.useDefaultKeys`) and `nonConformingFloatEncodingStrategy`,
  /// whose default differs (below).
  ///
  /// Choices, and why:
  /// - `nil` optionals are omitted (Swift's synthesized coding calls `encodeIfPresent`),
  ///   except under `@ExplicitNull`, which writes null. `@DocumentID` is never written:
  ///   the ID is the document's name, not a field.
  /// - NaN and ±infinity are written as they are by default (`.allow`). Firebase's
  ///   encoder throws for them (its default `.throw`) only because it reuses JSON's
  ///   rules; Firestore stores them, and Hearth's dictionary API accepts them, so a model
  ///   should be able to hold them too. `.throw` and `.convertToString` do as Firebase's.
  /// - A `UInt64` (or `UInt`) above `Int64.max` throws `EncodingError.invalidValue`
  ///   rather than wrapping: Firestore integers are signed 64-bit.
  /// - The top-level value must encode as a keyed container (a struct, a class or a
  ///   `[String: …]` dictionary), because a document is a map.
  public struct Encoder: Sendable {
    /// How a `Date` is written: as a timestamp by default, as in Firebase.
    public var dateEncodingStrategy: DateEncodingStrategy {
      get { strategies.date }
      set { strategies.date = newValue }
    }

    /// How `Data` is written: as bytes by default, as in Firebase.
    public var dataEncodingStrategy: DataEncodingStrategy {
      get { strategies.data }
      set { strategies.data = newValue }
    }

    /// How NaN and ±infinity are written: as doubles by default (`.allow`; Firebase
    /// throws).
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
      get { strategies.nonConformingFloat }
      set { strategies.nonConformingFloat = newValue }
    }

    /// How coding keys become field names: as they are by default.
    public var keyEncodingStrategy: KeyEncodingStrategy {
      get { strategies.key }
      set { strategies.key = newValue }
    }

    /// Passed to the values' `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    private var strategies = Strategies()

    /// An encoder with Firebase's defaults for Firestore (and `.allow` for NaN).
    public init() {}

    /// Encodes `value` as a document's fields.
    ///
    /// - Throws: `EncodingError.invalidValue` when the value is not keyed at the top
    ///   level, holds an unsigned integer above `Int64.max`, or a NaN or infinity under
    ///   `nonConformingFloatEncodingStrategy = .throw`; whatever the value's own
    ///   `encode(to:)` (or a `.custom` strategy) throws.
    public func encode<T: Encodable>(_ value: T) throws -> [String: Any] {
      try encode(value, documentPath: nil)
    }

    /// Encodes `value` for the document at `documentPath`, which error messages then name.
    func encode<T: Encodable>(_ value: T, documentPath: String?) throws -> [String: Any] {
      let context = EncodingContext(documentPath: documentPath, userInfo: userInfo, strategies: strategies)
      let node = try context.box(value, at: [])
      guard case .map(let map) = node else {
        let document = documentPath.map { " (document \($0))" } ?? ""
        throw EncodingError.invalidValue(
          value,
          EncodingError.Context(
            codingPath: [],
            debugDescription: "Top-level \(T.self) is not allowed\(document): a document must encode as a keyed "
              + "container, such as a struct, a class or a [String: …] dictionary."))
      }
      return map.materialized
    }
  }
}

// MARK: - The value being built

/// A map under construction. A class, so that a nested container or a super-encoder can
/// keep filling it after it has been put in its parent.
final class EncodedMap {
  var fields: [String: EncodedNode] = [:]
  var materialized: [String: Any] {
    var result = [String: Any](minimumCapacity: fields.count)
    for (name, node) in fields { result[name] = node.materialized }
    return result
  }
}

/// An array under construction (see `EncodedMap`).
final class EncodedArray {
  var elements: [EncodedNode] = []
}

/// The place an encoder writes its one value into; a super-encoder's slot sits in its
/// parent until the end.
final class EncodedSlot {
  var node: EncodedNode?
}

enum EncodedNode {
  case value(Any)
  case map(EncodedMap)
  case array(EncodedArray)
  case slot(EncodedSlot)

  var materialized: Any {
    switch self {
    case .value(let value): value
    case .map(let map): map.materialized
    case .array(let array): array.elements.map(\.materialized)
    // A super-encoder that encoded nothing stands for an empty map, as in JSONEncoder.
    case .slot(let slot): slot.node?.materialized ?? [String: Any]()
    }
  }
}

/// What every encoder of one `encode` call shares.
final class EncodingContext {
  let documentPath: String?
  let userInfo: [CodingUserInfoKey: Any]
  let strategies: Database.Encoder.Strategies

  init(documentPath: String?, userInfo: [CodingUserInfoKey: any Sendable], strategies: Database.Encoder.Strategies) {
    self.documentPath = documentPath
    self.userInfo = userInfo.mapValues { $0 as Any }
    self.strategies = strategies
  }

  /// Encodes one value: Hearth's own value types pass through, `Date` and `Data` as
  /// their strategies say, integers become `Int64`; anything else (an `Optional` of
  /// those too) runs its `encode(to:)`.
  func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodedNode {
    if let direct = DirectType(T.self) {
      switch direct {
      case .date: return try box(date: value as! Date, at: path)
      case .data: return try box(data: value as! Data, at: path)
      default: return .value(try directValue(value, direct, at: path))
      }
    }
    if strategies.convertsKeys, let dictionary = value as? any StringKeyedEncodable {
      return try dictionary.encodedEntries(in: self, at: path)
    }
    return try encoded(at: path) { try value.encode(to: $0) }
  }

  /// What `write` puts into a new encoder at `path`; an empty map when it writes
  /// nothing, as in JSONEncoder.
  private func encoded(at path: [any CodingKey], _ write: (EncoderImpl) throws -> Void) throws -> EncodedNode {
    let slot = EncodedSlot()
    try write(EncoderImpl(context: self, slot: slot, codingPath: path))
    return slot.node ?? .map(EncodedMap())
  }

  private func box(date: Date, at path: [any CodingKey]) throws -> EncodedNode {
    switch strategies.date {
    case .timestamp: .value(Timestamp(date: date))
    case .deferredToDate: try encoded(at: path) { try date.encode(to: $0) }
    case .secondsSince1970: .value(date.timeIntervalSince1970)
    case .millisecondsSince1970: .value(1000 * date.timeIntervalSince1970)
    case .iso8601: .value(InternetDateTime.string(from: date))
    case .formatted(let formatter): .value(formatter.string(from: date))
    case .custom(let encode): try encoded(at: path) { try encode(date, $0) }
    }
  }

  private func box(data: Data, at path: [any CodingKey]) throws -> EncodedNode {
    switch strategies.data {
    case .blob: .value(data)
    case .base64: .value(data.base64EncodedString())
    case .deferredToData: try encoded(at: path) { try data.encode(to: $0) }
    case .custom(let encode): try encoded(at: path) { try encode(data, $0) }
    }
  }

  /// The field name a key of a keyed container at `path` is written under.
  func fieldName(_ key: any CodingKey, at path: [any CodingKey]) -> String {
    switch strategies.key {
    case .useDefaultKeys: key.stringValue
    case .convertToSnakeCase: SnakeCase.fromCamelCase(key.stringValue)
    case .custom(let convert): convert(path + [key]).stringValue
    }
  }

  /// A `Double` (or a `Float`, as `type` says) as the float strategy writes it.
  func double(_ value: Double, as type: String = "Double", at path: @autoclosure () -> [any CodingKey]) throws -> Any {
    guard value.isNaN || value.isInfinite else { return value }
    switch strategies.nonConformingFloat {
    case .allow: return value
    case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
      return value.isNaN ? nan : value > 0 ? positiveInfinity : negativeInfinity
    case .throw:
      let name = value.isNaN ? "\(type).nan" : value > 0 ? "\(type).infinity" : "-\(type).infinity"
      let path = path()
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path,
          debugDescription: "\(CodingText.location(document: documentPath, path: path)): \(name) is refused by "
            + "nonConformingFloatEncodingStrategy .throw; .allow (the default) stores it, as Firestore can, and "
            + ".convertToString writes a string"))
    }
  }

  /// The stored form of the types Hearth writes as they are (`Date` and `Data` aside).
  private func directValue<T>(_ value: T, _ direct: DirectType, at path: [any CodingKey]) throws -> Any {
    switch direct {
    case .string: return value as! String
    case .bool: return value as! Bool
    case .int: return Int64(value as! Int)
    case .int64: return value as! Int64
    case .double: return try double(value as! Double, at: path)
    case .float: return try double(Double(value as! Float), as: "Float", at: path)
    case .decimal: return NSDecimalNumber(decimal: value as! Decimal).doubleValue
    case .date, .data: preconditionFailure("\(direct) is boxed by its strategy")
    case .timestamp: return value as! Timestamp
    case .geoPoint: return value as! GeoPoint
    case .reference: return value as! DocumentReference
    case .url: return (value as! URL).absoluteString
    case .fieldValue: return value as! FieldValue
    case .int32: return Int64(value as! Int32)
    case .int16: return Int64(value as! Int16)
    case .int8: return Int64(value as! Int8)
    case .uint8: return Int64(value as! UInt8)
    case .uint16: return Int64(value as! UInt16)
    case .uint32: return Int64(value as! UInt32)
    case .uint:
      let int = value as! UInt
      return try signed(UInt64(int), original: int, at: path)
    case .uint64:
      let int = value as! UInt64
      return try signed(int, original: int, at: path)
    }
  }

  func signed(_ value: UInt64, original: Any, at path: [any CodingKey]) throws -> Int64 {
    guard let result = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        original,
        EncodingError.Context(
          codingPath: path,
          debugDescription: "\(CodingText.location(document: documentPath, path: path)): \(value) does not fit in "
            + "Int64; Firestore stores integers as signed 64-bit values."))
    }
    return result
  }
}

// MARK: - Encoder

struct EncoderImpl: Swift.Encoder {
  let context: EncodingContext
  let slot: EncodedSlot
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let map: EncodedMap
    if case .map(let existing) = slot.node {
      map = existing
    } else {
      map = EncodedMap()
      slot.node = .map(map)
    }
    return KeyedEncodingContainer(KeyedEncoder<Key>(context: context, map: map, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: EncodedArray
    if case .array(let existing) = slot.node {
      array = existing
    } else {
      array = EncodedArray()
      slot.node = .array(array)
    }
    return UnkeyedEncoder(context: context, array: array, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueEncoder(context: context, slot: slot, codingPath: codingPath)
  }
}

// MARK: - Containers

struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: EncodingContext
  let map: EncodedMap
  let codingPath: [any CodingKey]

  /// The field `key` is written under, as the key strategy names it.
  private func name(_ key: any CodingKey) -> String { context.fieldName(key, at: codingPath) }
  private func put(_ value: Any, _ key: Key) { map.fields[name(key)] = .value(value) }

  mutating func encodeNil(forKey key: Key) throws { put(NSNull(), key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    put(try context.double(value, at: codingPath + [key]), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    put(try context.double(Double(value), as: "Float", at: codingPath + [key]), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(Int64(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    put(try context.signed(UInt64(value), original: value, at: codingPath + [key]), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    put(try context.signed(value, original: value, at: codingPath + [key]), key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    // `@DocumentID` is skipped here too, for code that reaches this generic method
    // (a generic helper, say) instead of the `KeyedEncodingContainer.encode(_: DocumentID…)`
    // overload that synthesized conformances call.
    if value is any DocumentIDProtocol { return }
    map.fields[name(key)] = try context.box(value, at: codingPath + [key])
  }

  /// A second nested container for one key goes on filling the first's map, as
  /// Foundation's and Firebase's encoders do (two calls for `.top` make one `top` map).
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let field = name(key)
    let nested: EncodedMap
    if case .map(let existing)? = map.fields[field] {
      nested = existing
    } else {
      nested = EncodedMap()
      map.fields[field] = .map(nested)
    }
    let container = KeyedEncoder<NestedKey>(context: context, map: nested, codingPath: codingPath + [key])
    return KeyedEncodingContainer(container)
  }

  /// As `nestedContainer(keyedBy:forKey:)`, a second one for a key appends to the first's
  /// array.
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let field = name(key)
    let nested: EncodedArray
    if case .array(let existing)? = map.fields[field] {
      nested = existing
    } else {
      nested = EncodedArray()
      map.fields[field] = .array(nested)
    }
    return UnkeyedEncoder(context: context, array: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Swift.Encoder { superEncoder(at: SuperKey()) }
  mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { superEncoder(at: key) }

  private func superEncoder(at key: any CodingKey) -> any Swift.Encoder {
    let slot = EncodedSlot()
    map.fields[name(key)] = .slot(slot)
    return EncoderImpl(context: context, slot: slot, codingPath: codingPath + [key])
  }
}

struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let context: EncodingContext
  let array: EncodedArray
  let codingPath: [any CodingKey]
  var count: Int { array.elements.count }

  private var nextPath: [any CodingKey] { codingPath + [IndexKey(array.elements.count)] }
  private func append(_ value: Any) { array.elements.append(.value(value)) }

  mutating func encodeNil() throws { append(NSNull()) }
  mutating func encode(_ value: Bool) throws { append(value) }
  mutating func encode(_ value: String) throws { append(value) }
  mutating func encode(_ value: Double) throws { append(try context.double(value, at: nextPath)) }
  mutating func encode(_ value: Float) throws { append(try context.double(Double(value), as: "Float", at: nextPath)) }
  mutating func encode(_ value: Int) throws { append(Int64(value)) }
  mutating func encode(_ value: Int8) throws { append(Int64(value)) }
  mutating func encode(_ value: Int16) throws { append(Int64(value)) }
  mutating func encode(_ value: Int32) throws { append(Int64(value)) }
  mutating func encode(_ value: Int64) throws { append(value) }
  mutating func encode(_ value: UInt8) throws { append(Int64(value)) }
  mutating func encode(_ value: UInt16) throws { append(Int64(value)) }
  mutating func encode(_ value: UInt32) throws { append(Int64(value)) }
  mutating func encode(_ value: UInt) throws {
    append(try context.signed(UInt64(value), original: value, at: nextPath))
  }
  mutating func encode(_ value: UInt64) throws {
    append(try context.signed(value, original: value, at: nextPath))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let node = try context.box(value, at: nextPath)
    array.elements.append(node)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedMap()
    let path = nextPath
    array.elements.append(.map(nested))
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(context: context, map: nested, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = EncodedArray()
    let path = nextPath
    array.elements.append(.array(nested))
    return UnkeyedEncoder(context: context, array: nested, codingPath: path)
  }

  mutating func superEncoder() -> any Swift.Encoder {
    let slot = EncodedSlot()
    let path = nextPath
    array.elements.append(.slot(slot))
    return EncoderImpl(context: context, slot: slot, codingPath: path)
  }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
  let context: EncodingContext
  let slot: EncodedSlot
  let codingPath: [any CodingKey]

  private func put(_ value: Any) { slot.node = .value(value) }

  mutating func encodeNil() throws { put(NSNull()) }
  mutating func encode(_ value: Bool) throws { put(value) }
  mutating func encode(_ value: String) throws { put(value) }
  mutating func encode(_ value: Double) throws { put(try context.double(value, at: codingPath)) }
  mutating func encode(_ value: Float) throws { put(try context.double(Double(value), as: "Float", at: codingPath)) }
  mutating func encode(_ value: Int) throws { put(Int64(value)) }
  mutating func encode(_ value: Int8) throws { put(Int64(value)) }
  mutating func encode(_ value: Int16) throws { put(Int64(value)) }
  mutating func encode(_ value: Int32) throws { put(Int64(value)) }
  mutating func encode(_ value: Int64) throws { put(value) }
  mutating func encode(_ value: UInt8) throws { put(Int64(value)) }
  mutating func encode(_ value: UInt16) throws { put(Int64(value)) }
  mutating func encode(_ value: UInt32) throws { put(Int64(value)) }
  mutating func encode(_ value: UInt) throws {
    put(try context.signed(UInt64(value), original: value, at: codingPath))
  }
  mutating func encode(_ value: UInt64) throws {
    put(try context.signed(value, original: value, at: codingPath))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    slot.node = try context.box(value, at: codingPath)
  }
}

// MARK: - String-keyed dictionaries

/// A `[String: Encodable]` dictionary, whose keys a key strategy leaves as they are:
/// they are data (user IDs, tags), not names in the code. Only used under a key
/// strategy; otherwise the dictionary's own `encode(to:)` writes the same map.
protocol StringKeyedEncodable {
  func encodedEntries(in context: EncodingContext, at path: [any CodingKey]) throws -> EncodedNode
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
  func encodedEntries(in context: EncodingContext, at path: [any CodingKey]) throws -> EncodedNode {
    let map = EncodedMap()
    for (key, value) in self where !(value is any DocumentIDProtocol) {
      map.fields[key] = try context.box(value, at: path + [DictionaryKey(key)])
    }
    return .map(map)
  }
}
