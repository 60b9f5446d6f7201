import Foundation
import Synchronization

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
