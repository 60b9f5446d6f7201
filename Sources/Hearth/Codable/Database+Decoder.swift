import Foundation

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
        return try context.unbox(value, as: type, at: [])
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

// MARK: - Context

/// What every decoder of one `decode` call shares: the document, the top-level type for
/// messages, and the conversions.
final class DecodingContext {
  let reference: DocumentReference?
  let documentPath: String?
  let rootType: Any.Type
  let userInfo: [CodingUserInfoKey: Any]

  init(reference: DocumentReference?, rootType: Any.Type, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.reference = reference
    self.documentPath = reference?.path
    self.rootType = rootType
    var info = userInfo.mapValues { $0 as Any }
    if let reference { info[.hearthDocumentReference] = reference }
    self.userInfo = info
  }

  /// Decodes one value: Hearth's own types and the numbers directly, anything else
  /// through its `init(from:)`.
  func unbox<T: Decodable>(_ value: Any, as type: T.Type, at path: [any CodingKey]) throws -> T {
    if let direct = try directValue(value, as: type, at: path) { return direct as! T }
    if let idType = type as? any DocumentIDProtocol.Type {
      return try idType.init(reference: reference) as! T
    }
    return try T(from: DecoderImpl(context: self, value: value, codingPath: path, expectedType: type))
  }

  /// The value as one of the types decoded without `init(from:)`, or `nil` when `type`
  /// is not one of them.
  private func directValue(_ value: Any, as type: Any.Type, at path: [any CodingKey]) throws -> Any? {
    guard let direct = DirectType(type) else { return nil }
    switch direct {
    case .string:
      if let string = value as? String { return string }
      if let substring = value as? Substring { return String(substring) }
    case .bool:
      if let bool = value as? Bool, !(Swift.type(of: value) is NSNumber.Type) { return bool }
      if case .bool(let bool)? = CodingNumber(value) { return bool }
    case .int: return try integer(value, as: Int.self, at: path)
    case .int64: return try integer(value, as: Int64.self, at: path)
    case .double: return try double(value, at: path)
    case .date: return try timestamp(value, as: type, at: path).dateValue()
    case .timestamp: return try timestamp(value, as: type, at: path)
    case .float: return try float(value, at: path)
    case .int32: return try integer(value, as: Int32.self, at: path)
    case .int16: return try integer(value, as: Int16.self, at: path)
    case .int8: return try integer(value, as: Int8.self, at: path)
    case .uint: return try integer(value, as: UInt.self, at: path)
    case .uint64: return try integer(value, as: UInt64.self, at: path)
    case .uint32: return try integer(value, as: UInt32.self, at: path)
    case .uint16: return try integer(value, as: UInt16.self, at: path)
    case .uint8: return try integer(value, as: UInt8.self, at: path)
    case .geoPoint:
      if let point = value as? GeoPoint { return point }
    case .reference:
      if let reference = value as? DocumentReference { return reference }
    case .data:
      if let data = value as? Data { return data }
    case .url:
      if let string = value as? String {
        guard let url = URL(string: string) else { throw corrupted(path, "'\(string)' is not a valid URL") }
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
    }
    throw mismatch(type, value, path)
  }

  /// A decoder for a value whose type is not known here (a nested container's, a
  /// super-decoder's).
  func decoder(for value: Any, at path: [any CodingKey]) -> DecoderImpl {
    DecoderImpl(context: self, value: value, codingPath: path, expectedType: nil)
  }

  // MARK: Conversions

  private func integer<I: FixedWidthInteger>(_ value: Any, as type: I.Type, at path: [any CodingKey]) throws -> I {
    guard let number = CodingNumber(value) else { throw mismatch(type, value, path) }
    let result: I?
    switch number {
    case .integer(let i): result = I(exactly: i)
    case .unsigned(let u): result = I(exactly: u)
    case .double(let d):
      if d.isFinite, d != d.rounded(.towardZero) {
        throw corrupted(path, "\(d) is not a whole number, so it cannot be decoded as \(I.self)")
      }
      result = I(exactly: d)
    case .bool: throw mismatch(type, value, path)
    }
    guard let result else { throw corrupted(path, "\(number.text) does not fit in \(I.self)") }
    return result
  }

  private func double(_ value: Any, at path: [any CodingKey]) throws -> Double {
    switch CodingNumber(value) {
    case .double(let d)?: d
    case .integer(let i)?: Double(i)
    case .unsigned(let u)?: Double(u)
    case .bool?, nil: throw mismatch(Double.self, value, path)
    }
  }

  private func float(_ value: Any, at path: [any CodingKey]) throws -> Float {
    let double = try self.double(value, at: path)
    let float = Float(double)
    if double.isFinite && !float.isFinite { throw corrupted(path, "\(double) does not fit in Float") }
    return float
  }

  private func timestamp(_ value: Any, as type: Any.Type, at path: [any CodingKey]) throws -> Timestamp {
    if let timestamp = value as? Timestamp { return timestamp }
    if let date = value as? Date { return Timestamp(date: date) }
    throw mismatch(type, value, path)
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

// MARK: - Decoder

struct DecoderImpl: Swift.Decoder {
  let context: DecodingContext
  let value: Any
  let codingPath: [any CodingKey]
  /// The type being decoded, for messages; `nil` under `superDecoder()`.
  let expectedType: Any.Type?
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard let map = value as? [String: Any] else {
      throw context.mismatch(expectedType, value, codingPath, shape: "a map", fallback: [String: Any].self)
    }
    return KeyedDecodingContainer(KeyedDecoder<Key>(context: context, map: map, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard let array = value as? [Any] else {
      throw context.mismatch(expectedType, value, codingPath, shape: "an array", fallback: [Any].self)
    }
    return UnkeyedDecoder(context: context, array: array, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecoder(context: context, value: value, codingPath: codingPath)
  }
}

// MARK: - Containers

struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let context: DecodingContext
  let map: [String: Any]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { map.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { map[key.stringValue] != nil }

  private func value(_ key: Key) throws -> Any {
    guard let value = map[key.stringValue] else { throw context.keyNotFound(key, in: codingPath) }
    return value
  }

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

  private func primitive<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    try context.unbox(try value(key), as: type, at: codingPath + [key])
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    // These two cases also hold for generic code that reaches this method instead of
    // the `KeyedDecodingContainer` overloads that synthesized conformances call.
    if let idType = type as? any DocumentIDProtocol.Type {
      return try idType.init(reference: context.reference) as! T
    }
    guard let value = map[key.stringValue] else {
      if let nilType = type as? any NilWhenMissing.Type { return nilType.missing as! T }
      throw context.keyNotFound(key, in: codingPath)
    }
    return try context.unbox(value, as: type, at: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try context.decoder(for: try value(key), at: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try context.decoder(for: try value(key), at: codingPath + [key]).unkeyedContainer()
  }

  /// A missing super value decodes from null, as in JSONDecoder.
  func superDecoder() throws -> any Swift.Decoder {
    context.decoder(for: map["super"] ?? NSNull(), at: codingPath + [SuperKey()])
  }

  func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
    context.decoder(for: map[key.stringValue] ?? NSNull(), at: codingPath + [key])
  }
}

struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let context: DecodingContext
  let array: [Any]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(context: DecodingContext, array: [Any], codingPath: [any CodingKey]) {
    self.context = context
    self.array = array
    self.codingPath = codingPath
  }

  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  private var currentPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

  /// The next element; it is consumed only when decoding it succeeds.
  private func next(_ type: Any.Type) throws -> Any {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: currentPath,
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

  mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
  mutating func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try decode(generic: type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try decode(generic: type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(generic: type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(generic: type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(generic: type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(generic: type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(generic: type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(generic: type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(generic: type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(generic: type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(generic: type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(generic: type) }

  private mutating func decode<T: Decodable>(generic type: T.Type) throws -> T {
    let result = try context.unbox(try next(type), as: type, at: currentPath)
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
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value is NSNull }

  func decode(_ type: Bool.Type) throws -> Bool { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: String.Type) throws -> String { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try context.unbox(value, as: type, at: codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try context.unbox(value, as: type, at: codingPath) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.unbox(value, as: type, at: codingPath) }
}
