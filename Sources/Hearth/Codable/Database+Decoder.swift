import Foundation
import Synchronization

extension Database {
  /// Turns a document's `[String: Any]` data into a `Decodable` value, as Firebase's
  /// `Firestore.Decoder` does.
  ///
  /// For example:
  ///
  /// ```swift
  /// let user = try Firestore.Decoder().decode(DatabaseUser.self, from: snapshot.data() ?? [:],
  ///                                           in: snapshot.reference)
  /// ```
  ///
  /// Choices, and why:
  /// - Numbers convert between `Int64`, `Double` and every Swift integer and floating
  ///   type, as Firebase's decoder lets them, because a field written as `3` by one
  ///   client may be read as a `Double` by another. An integer type takes only a whole
  ///   number that fits: `3.5` or `300` for an `Int8` throws `dataCorrupted` rather than
  ///   silently truncating. `Double` and `Float` take integers at the nearest value.
  /// - `Bool` comes only from a boolean: `0` and `1` are numbers in Firestore.
  /// - `Date` and `Timestamp` come from a timestamp; `URL` from a string; `Data` from
  ///   bytes; `Decimal` from a number.
  /// - Unknown fields are ignored; null or a missing key is `nil` for an optional.
  /// - `@DocumentID` is filled from `reference`, never from the data; without a
  ///   reference it is `nil` (Firebase throws there), so models can be decoded from
  ///   plain dictionaries in tests and caches.
  /// - `@ServerTimestamp` and `@ExplicitNull` decode a missing key as `nil` (Firebase
  ///   throws `keyNotFound`, its issue #14883).
  /// - Every error's `debugDescription` starts with the document path (when
  ///   `reference` is given) and the field, and names the Swift type and what was found:
  ///   `Document users/alice, field 'age': expected Int but found a string`. Errors
  ///   thrown by a type's own `init(from:)` get the same prefix. Swift's
  ///   `localizedDescription` for a `DecodingError` ("The data couldn't be read because
  ///   it is missing.") says none of that, so print the error itself.
  /// - Arrays, string-keyed dictionaries and `@DocumentID` are built by the decoder
  ///   itself rather than through their `init(from:)` (see `DirectlyDecodable`), and
  ///   coding paths only when something reads them (see `CodingPathNode`): through the
  ///   generic `Decoder` machinery, they cost more than the rest of a decode.
  public struct Decoder: Sendable {
    /// Passed to the values' `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// Decodes a document's fields as `type`.
    ///
    /// - Parameter reference: the document the data came from: it fills `@DocumentID`
    ///   properties and is named in error messages.
    /// - Throws: `DecodingError` (`keyNotFound`, `typeMismatch`, `valueNotFound`,
    ///   `dataCorrupted`) naming the document and the field.
    public func decode<T: Decodable>(
      _ type: T.Type, from data: [String: Any], in reference: DocumentReference? = nil
    ) throws -> T {
      try decode(type, fromValue: data, in: reference)
    }

    func decode<T: Decodable>(_ type: T.Type, fromValue value: Any, in reference: DocumentReference?) throws -> T {
      let context = DecodingContext(reference: reference, rootType: type, userInfo: userInfo)
      do {
        return try context.unbox(value, as: type, at: .root)
      } catch let error as DecodingError {
        throw context.located(error)
      }
    }
  }
}

extension CodingUserInfoKey {
  /// Where Hearth's decoder puts the document's reference, for `@DocumentID`.
  static let hearthDocumentReference = CodingUserInfoKey(rawValue: "HearthDocumentReference")!
}

// MARK: - Coding paths

/// A coding path as a chain from a value back to the document, built as decoding goes
/// down and turned into the `[CodingKey]` that `codingPath` and errors show only when
/// they ask for it.
///
/// Copying `codingPath + [key]` for every value cost more than converting the value
/// itself, and almost nothing reads it: a value converted directly (a string, a number)
/// never builds its node at all — the containers pass it as an `@autoclosure` — and a
/// nested container or decoder adds one small node. Swift's own `JSONDecoder` does the
/// same.
indirect enum CodingPathNode {
  case root
  case key(any CodingKey, parent: CodingPathNode)
  case index(Int, parent: CodingPathNode)

  /// The path as `Decoder.codingPath` gives it, from the document down; an array
  /// element's key is an `IndexKey`.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while true {
      switch node {
      case .root: return keys.reversed()
      case .key(let key, let parent):
        keys.append(key)
        node = parent
      case .index(let index, let parent):
        keys.append(IndexKey(index))
        node = parent
      }
    }
  }
}

// MARK: - Context

/// What every decoder of one `decode` call shares: the document, the top-level type for
/// messages, and the conversions.
final class DecodingContext {
  let reference: DocumentReference?
  let rootType: Any.Type
  private let decoderUserInfo: [CodingUserInfoKey: any Sendable]

  /// The document's path, for messages. Lazy, like `userInfo`: only errors read it, and
  /// `reference.path` builds a string.
  private(set) lazy var documentPath: String? = reference?.path

  /// `decoder.userInfo`: the `Database.Decoder`'s, plus the reference for `@DocumentID`.
  /// Built when a value's `init(from:)` first reads it, which most decodes never do
  /// (`@DocumentID` takes the reference from the context directly).
  private(set) lazy var userInfo: [CodingUserInfoKey: Any] = makeUserInfo()

  init(reference: DocumentReference?, rootType: Any.Type, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.reference = reference
    self.rootType = rootType
    self.decoderUserInfo = userInfo
  }

  private func makeUserInfo() -> [CodingUserInfoKey: Any] {
    var info = decoderUserInfo.mapValues { $0 as Any }
    if let reference { info[.hearthDocumentReference] = reference }
    return info
  }

  /// Decodes one value as its `DecodingPlan` says: Swift's primitives and Hearth's own
  /// types directly, arrays, dictionaries and `@DocumentID` as `DirectlyDecodable`
  /// says, anything else through its `init(from:)`.
  ///
  /// `path` is evaluated only when a nested decoder or an error needs it.
  func unbox<T: Decodable>(_ value: Any, as type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
    try unbox(value, as: type, plan: .of(type), at: path())
  }

  /// `unbox` with `type`'s plan already looked up, so that a collection looks its
  /// element type up once rather than once per element.
  func unbox<T: Decodable>(
    _ value: Any, as type: T.Type, plan: DecodingPlan, at path: @autoclosure () -> CodingPathNode
  ) throws -> T {
    switch plan {
    case .primitive(let primitive): try primitive.converted(from: value, in: self, at: path()) as! T
    case .direct(let direct): try directValue(value, as: direct, type: type, at: path()) as! T
    case .directlyDecodable(let directlyDecodable):
      try directlyDecodable.decoded(from: value, in: self, at: path()) as! T
    case .initFromDecoder: try T(from: DecoderImpl(context: self, value: value, node: path(), expectedType: type))
    }
  }

  /// The value as `direct`, one of Hearth's stored types or a Foundation type decoded
  /// without `init(from:)`; `type` is that type, for messages.
  private func directValue(
    _ value: Any, as direct: DirectType, type: Any.Type, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any {
    switch direct {
    case .date: return try timestamp(value, as: type, at: path()).dateValue()
    case .timestamp: return try timestamp(value, as: type, at: path())
    case .geoPoint:
      if let point = value as? GeoPoint { return point }
    case .reference:
      if let reference = value as? DocumentReference { return reference }
    case .data:
      if let data = value as? Data { return data }
    case .url:
      if let string = value as? String {
        guard let url = URL(string: string) else { throw corrupted(path().keys, "'\(string)' is not a valid URL") }
        return url
      }
    case .decimal:
      if let decimal = value as? Decimal { return decimal }
      switch CodingNumber(value) {
      case .integer(let i)?: return Decimal(i)
      case .unsigned(let u)?: return Decimal(u)
      case .double(let d)?: return Decimal(d)
      case .bool?, nil: break
      }
    case .fieldValue:
      break  // not Decodable: never asked for
    case .string, .bool, .double, .float, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32,
      .uint64:
      preconditionFailure("\(type) is a DecodingPrimitive: DecodingPlan converts it as one")
    }
    throw mismatch(type, value, path().keys)
  }

  /// A decoder for a value whose type is not known here (a nested container's, a
  /// super-decoder's).
  func decoder(for value: Any, at node: CodingPathNode) -> DecoderImpl {
    DecoderImpl(context: self, value: value, node: node, expectedType: nil)
  }

  // MARK: Conversions

  func string(_ value: Any, at path: @autoclosure () -> CodingPathNode) throws -> String {
    if let string = value as? String { return string }
    if let substring = value as? Substring { return String(substring) }
    throw mismatch(String.self, value, path().keys)
  }

  func bool(_ value: Any, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
    if let bool = value as? Bool, !(Swift.type(of: value) is NSNumber.Type) { return bool }
    if case .bool(let bool)? = CodingNumber(value) { return bool }
    throw mismatch(Bool.self, value, path().keys)
  }

  func integer<I: FixedWidthInteger>(
    _ value: Any, as type: I.Type, at path: @autoclosure () -> CodingPathNode
  ) throws -> I {
    guard let number = CodingNumber(value) else { throw mismatch(type, value, path().keys) }
    let result: I?
    switch number {
    case .integer(let i): result = I(exactly: i)
    case .unsigned(let u): result = I(exactly: u)
    case .double(let d):
      if d.isFinite, d != d.rounded(.towardZero) {
        throw corrupted(path().keys, "\(d) is not a whole number, so it cannot be decoded as \(I.self)")
      }
      result = I(exactly: d)
    case .bool: throw mismatch(type, value, path().keys)
    }
    guard let result else { throw corrupted(path().keys, "\(number.text) does not fit in \(I.self)") }
    return result
  }

  func double(_ value: Any, at path: @autoclosure () -> CodingPathNode) throws -> Double {
    switch CodingNumber(value) {
    case .double(let d)?: d
    case .integer(let i)?: Double(i)
    case .unsigned(let u)?: Double(u)
    case .bool?, nil: throw mismatch(Double.self, value, path().keys)
    }
  }

  func float(_ value: Any, at path: @autoclosure () -> CodingPathNode) throws -> Float {
    let double = try self.double(value, at: path())
    let float = Float(double)
    if double.isFinite && !float.isFinite { throw corrupted(path().keys, "\(double) does not fit in Float") }
    return float
  }

  private func timestamp(
    _ value: Any, as type: Any.Type, at path: @autoclosure () -> CodingPathNode
  ) throws -> Timestamp {
    if let timestamp = value as? Timestamp { return timestamp }
    if let date = value as? Date { return Timestamp(date: date) }
    throw mismatch(type, value, path().keys)
  }

  // MARK: Errors

  func location(_ path: [any CodingKey]) -> String { CodingText.location(document: documentPath, path: path) }

  /// A value of the wrong kind: `typeMismatch`, or `valueNotFound` for null.
  ///
  /// `shape` says what the type needs when its name does not (`a map`, `an array`); a
  /// `nil` type (under `superDecoder()`) is described by its shape alone.
  func mismatch(
    _ expected: Any.Type?, _ value: Any, _ path: [any CodingKey], shape: String? = nil, fallback: Any.Type = Any.self
  ) -> DecodingError {
    let expectedText =
      switch (expected, shape) {
      case (let type?, let shape?): "\(CodingText.typeName(type)) (\(shape))"
      case (let type?, nil): CodingText.typeName(type)
      case (nil, let shape?): shape
      case (nil, nil): "a value"
      }
    let expected = expected ?? fallback
    let context = DecodingError.Context(
      codingPath: path,
      debugDescription: "\(location(path)): expected \(expectedText) but found \(CodingText.kind(of: value))")
    return value is NSNull ? .valueNotFound(expected, context) : .typeMismatch(expected, context)
  }

  func corrupted(_ path: [any CodingKey], _ message: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: "\(location(path)): \(message)"))
  }

  /// `Document users/alice: no value for key 'username' (DatabaseUser.username)`.
  func keyNotFound(_ key: any CodingKey, in path: [any CodingKey]) -> DecodingError {
    let fullPath = CodingText.typeName(CodingText.unwrapped(rootType)) + "." + CodingText.fieldPath(path + [key])
    let what = "no value for key '\(key.stringValue)' (\(fullPath))"
    let message = documentPath.map { "Document \($0): \(what)" } ?? "N" + what.dropFirst()
    return .keyNotFound(key, DecodingError.Context(codingPath: path, debugDescription: message))
  }

  /// `error` with this decoding's document and field at the front of its message, when
  /// a type's own `init(from:)` threw it without them.
  func located(_ error: DecodingError) -> DecodingError {
    func relabel(_ context: DecodingError.Context) -> DecodingError.Context {
      let text = context.debugDescription
      let ours =
        if let documentPath {
          text.hasPrefix("Document \(documentPath)")
        } else {
          text.hasPrefix("Field '") || text.hasPrefix("No value for key '") || text.hasPrefix("Top-level value")
        }
      if ours { return context }
      return DecodingError.Context(
        codingPath: context.codingPath, debugDescription: "\(location(context.codingPath)): \(text)",
        underlyingError: context.underlyingError)
    }
    switch error {
    case .typeMismatch(let type, let context): return .typeMismatch(type, relabel(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, relabel(context))
    case .keyNotFound(let key, let context): return .keyNotFound(key, relabel(context))
    case .dataCorrupted(let context): return .dataCorrupted(relabel(context))
    @unknown default: return error
    }
  }
}

// MARK: - Plans

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
    if let plan = cache.withLock({ $0[id] }) { return plan }
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
    cache.withLock { $0[id] = plan }
    return plan
  }

  private static let cache = Mutex<[ObjectIdentifier: DecodingPlan]>([:])
}

// MARK: - Types built by the decoder

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
  /// The value stored as `value`, at `path`, as an `Any` holding exactly `Self`.
  ///
  /// `Any` rather than `Self` because the caller holds the type only as
  /// `any DirectlyDecodable.Type` and casts the result to its own `T`: from an `Any`
  /// that is one type comparison, and a collection built in code specialized for its
  /// element (see `DecodingPrimitive`) gets there without a cast of its own.
  static func decoded(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any
}

extension Array: DirectlyDecodable where Element: Decodable {
  static func decoded(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any {
    guard let array = value as? [Any] else {
      throw context.mismatch(Self.self, value, path().keys, shape: "an array", fallback: [Any].self)
    }
    switch DecodingPlan.of(Element.self) {
    case .primitive(let primitive):
      return try primitive.convertedArray(from: array, in: context, at: path())
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
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any {
    guard let map = value as? [String: Any] else {
      throw context.mismatch(Self.self, value, path().keys, shape: "a map", fallback: [String: Any].self)
    }
    switch DecodingPlan.of(Value.self) {
    case .primitive(let primitive):
      return try primitive.convertedMap(from: map, in: context, at: path())
    case let plan:
      return try context.decodeMap(map) { element, key in
        try context.unbox(element, as: Value.self, plan: plan, at: .key(DictionaryKey(key), parent: path()))
      }
    }
  }
}

extension DecodingContext {
  /// `array`'s elements, each decoded by `decode` with its index.
  ///
  /// Generic over the element so that `DecodingPrimitive` can call it from code
  /// specialized for its type: a Swift array or dictionary built in unspecialized code
  /// looks up its generic metadata on every call, which cost several times the
  /// conversions themselves.
  func decodeArray<Element>(_ array: [Any], _ decode: (Any, Int) throws -> Element) throws -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      result.append(try decode(element, index))
    }
    return result
  }

  /// `map`'s values, each decoded by `decode` with its key (see `decodeArray`).
  ///
  /// The values are decoded in the map's order, as `allKeys` gives them to
  /// `Dictionary.init(from:)`, so that the first bad value is the one it reported.
  func decodeMap<Value>(_ map: [String: Any], _ decode: (Any, String) throws -> Value) throws -> [String: Value] {
    var result: [String: Value] = .init(minimumCapacity: map.count)
    for (key, element) in map {
      result[key] = try decode(element, key)
    }
    return result
  }
}

// MARK: - Swift's primitives

/// The types that the containers' non-generic `decode` overloads take (Swift's strings,
/// booleans and numbers), each with its conversion, so that those overloads call the
/// conversion straight away instead of going through `unbox` and a `DecodingPlan`, and
/// arrays and dictionaries of them are built in code specialized for them.
protocol DecodingPrimitive: Decodable, SendableMetatype {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Self

  /// An array of these (`[String]`, `[Int]`…), built in code specialized for `Self` (see
  /// `DecodingContext.decodeArray`), as an `Any` holding exactly `[Self]`.
  ///
  /// A requirement, not just an extension method, so that `Array.decoded` reaches the
  /// specialized code through the conformance. `Any` for the reason
  /// `DirectlyDecodable.decoded` gives: a `[Self]` result, reached through
  /// `any DecodingPrimitive.Type`, would be erased to `[any DecodingPrimitive]` element
  /// by element.
  static func convertedArray(
    from array: [Any], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any

  /// A string-keyed dictionary of these (`[String: String]`…), as `convertedArray`.
  static func convertedMap(
    from map: [String: Any], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any
}

extension DecodingPrimitive {
  static func convertedArray(
    from array: [Any], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any {
    try context.decodeArray(array) { element, index in
      try converted(from: element, in: context, at: .index(index, parent: path()))
    }
  }

  /// Converts the values with `mapValues`, which keeps the map's hash table — no key is
  /// hashed or inserted again. Its closure does not see the keys, so when a value does
  /// not convert, this decodes again key by key (as `decodeMap`) to throw the error
  /// with the right one; conversions have no side effects, so that is safe.
  static func convertedMap(
    from map: [String: Any], in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Any {
    if let converted = try? map.mapValues({ try converted(from: $0, in: context, at: .root) }) { return converted }
    return try context.decodeMap(map) { element, key in
      try converted(from: element, in: context, at: .key(DictionaryKey(key), parent: path()))
    }
  }
}

extension String: DecodingPrimitive {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> String {
    try context.string(value, at: path())
  }
}

extension Bool: DecodingPrimitive {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Bool {
    try context.bool(value, at: path())
  }
}

extension Double: DecodingPrimitive {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Double {
    try context.double(value, at: path())
  }
}

extension Float: DecodingPrimitive {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Float {
    try context.float(value, at: path())
  }
}

extension DecodingPrimitive where Self: FixedWidthInteger {
  static func converted(
    from value: Any, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
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

// MARK: - Decoder

/// A class, as `KeyedDecoder` is: it travels as `any Decoder`, which holds a reference
/// in place but had to allocate a box for a struct this size, and `@DocumentID` casts
/// it back, which copied the struct.
final class DecoderImpl: Swift.Decoder {
  let context: DecodingContext
  let value: Any
  let node: CodingPathNode
  /// The type being decoded, for messages; `nil` under `superDecoder()`.
  let expectedType: Any.Type?
  var codingPath: [any CodingKey] { node.keys }
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  init(context: DecodingContext, value: Any, node: CodingPathNode, expectedType: Any.Type?) {
    self.context = context
    self.value = value
    self.node = node
    self.expectedType = expectedType
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard let map = value as? [String: Any] else {
      throw context.mismatch(expectedType, value, codingPath, shape: "a map", fallback: [String: Any].self)
    }
    return KeyedDecodingContainer(KeyedDecoder<Key>(context: context, map: map, node: node))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard let array = value as? [Any] else {
      throw context.mismatch(expectedType, value, codingPath, shape: "an array", fallback: [Any].self)
    }
    return UnkeyedDecoder(context: context, array: array, node: node)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecoder(context: context, value: value, node: node)
  }
}

// MARK: - Containers

/// The null that a missing super value decodes from: one shared instance, because
/// `NSNull()` allocates (a `@DocumentID` property asks for one on every decode).
private let missingValue = NSNull()

/// Implements every `decode` and `decodeIfPresent` overload itself: the protocol's
/// defaults would look the key up three times (`contains`, `decodeNil`, `decode`) and
/// send Swift's primitives through the generic path.
///
/// A class, not a struct: `KeyedDecodingContainer`'s type-erasing box copies its
/// container on every call, and copying a reference is one retain where copying this
/// struct's three references went through its generic value witnesses.
final class KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let context: DecodingContext
  let map: [String: Any]
  let node: CodingPathNode
  var codingPath: [any CodingKey] { node.keys }

  init(context: DecodingContext, map: [String: Any], node: CodingPathNode) {
    self.context = context
    self.map = map
    self.node = node
  }

  var allKeys: [Key] { map.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { map[key.stringValue] != nil }

  private func value(_ key: Key) throws -> Any {
    guard let value = map[key.stringValue] else { throw context.keyNotFound(key, in: codingPath) }
    return value
  }

  /// The value at `key`, or `nil` when it is missing or null, as `decodeIfPresent` reads it.
  private func presentValue(_ key: Key) -> Any? {
    guard let value = map[key.stringValue], !(value is NSNull) else { return nil }
    return value
  }

  private func path(_ key: Key) -> CodingPathNode { .key(key, parent: node) }

  func decodeNil(forKey key: Key) throws -> Bool { try value(key) is NSNull }

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
        return try idType.init(reference: context.reference) as! T
      }
      if let nilType = type as? any NilWhenMissing.Type { return nilType.missing as! T }
      throw context.keyNotFound(key, in: codingPath)
    }
    return try context.unbox(value, as: type, at: path(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
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
    context.decoder(for: map["super"] ?? missingValue, at: .key(SuperKey(), parent: node))
  }

  /// `@DocumentID` properties come here, usually for a key the data does not have.
  func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
    context.decoder(for: map[key.stringValue] ?? missingValue, at: path(key))
  }
}

struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let context: DecodingContext
  let array: [Any]
  let node: CodingPathNode
  private(set) var currentIndex = 0

  init(context: DecodingContext, array: [Any], node: CodingPathNode) {
    self.context = context
    self.array = array
    self.node = node
  }

  var codingPath: [any CodingKey] { node.keys }
  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  private var currentPath: CodingPathNode { .index(currentIndex, parent: node) }

  /// The next element; it is consumed only when decoding it succeeds.
  private func next(_ type: Any.Type) throws -> Any {
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
    guard try next(Any?.self) is NSNull else { return false }
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
  let value: Any
  let node: CodingPathNode
  var codingPath: [any CodingKey] { node.keys }

  func decodeNil() -> Bool { value is NSNull }

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
