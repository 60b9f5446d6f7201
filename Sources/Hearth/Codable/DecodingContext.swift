import Foundation
import HearthCore

/// What every decoder of one `decode` call shares: the document, the top-level type for
/// messages, and the conversions.
///
/// The decoder reads Hearth's own `Value`s — a snapshot's stored fields as they are, or a
/// `[String: Any]` converted by `DictionaryInput` — so every conversion is a `switch` on
/// the enum rather than a chain of casts out of `Any` (each a runtime call of a few
/// hundred instructions), and every key is looked up in a `[String: Value]`.
final class DecodingContext {
  let reference: DocumentReference?
  let rootType: Any.Type
  /// The values `DictionaryInput` kept as they came, which stand in the data as
  /// references with stand-in keys; empty for a snapshot's fields.
  private let keptValues: [Any]
  private let decoderUserInfo: [CodingUserInfoKey: any Sendable]
  let strategies: Database.Decoder.Strategies

  /// The document's path, for messages. Lazy, like `userInfo`: only errors read it, and
  /// `reference.path` builds a string.
  private(set) lazy var documentPath: String? = reference?.path

  /// `decoder.userInfo`: the `Database.Decoder`'s, plus the reference for `@DocumentID`.
  /// Built when a value's `init(from:)` first reads it, which most decodes never do
  /// (`@DocumentID` takes the reference from the context directly).
  private(set) lazy var userInfo: [CodingUserInfoKey: Any] = makeUserInfo()

  init(
    reference: DocumentReference?, rootType: Any.Type, userInfo: [CodingUserInfoKey: any Sendable],
    strategies: Database.Decoder.Strategies, keptValues: [Any] = []
  ) {
    self.reference = reference
    self.rootType = rootType
    self.keptValues = keptValues
    self.decoderUserInfo = userInfo
    self.strategies = strategies
  }

  /// The reference `@DocumentID` takes: the document's, or (without one) whatever
  /// `userInfo` holds under its key.
  var documentIDReference: DocumentReference? {
    reference ?? userInfo[.hearthDocumentReference] as? DocumentReference
  }

  /// The reference a `@DocumentID` takes, which Hearth's decoder must have.
  ///
  /// - Throws: `DecodingError.valueNotFound` without one, as Firebase's decoder throws.
  func requiredDocumentIDReference() throws -> DocumentReference {
    guard let reference = documentIDReference else { throw DocumentReferenceRequest.missing }
    return reference
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
  func unbox<T: Decodable>(_ value: Value, as type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
    try unbox(value, as: type, plan: .of(type), at: path())
  }

  /// `unbox` with `type`'s plan already looked up, so that a collection looks its
  /// element type up once rather than once per element.
  func unbox<T: Decodable>(
    _ value: Value, as type: T.Type, plan: DecodingPlan, at path: @autoclosure () -> CodingPathNode
  ) throws -> T {
    switch plan {
    case .primitive(let primitive): try primitive.converted(as: type, from: value, in: self, at: path())
    case .direct(let direct): try directValue(value, as: direct, type: type, at: path())
    case .directlyDecodable(let directlyDecodable):
      try directlyDecodable.decoded(as: type, from: value, in: self, at: path())
    // `type`, not `T`: a subclass's metatype passed as its superclass's
    // (`decode(Employee.self as Person.Type, …)`) decodes the subclass, as in Foundation.
    case .initFromDecoder:
      try type.init(from: DecoderImpl(context: self, value: value, node: path(), expectedType: type))
    }
  }

  /// The value as `direct`, one of Hearth's stored types or a Foundation type decoded
  /// without `init(from:)`, which `type` is exactly (`DirectType` goes by exact type).
  private func directValue<T>(
    _ value: Value, as direct: DirectType, type: T.Type, at path: @autoclosure () -> CodingPathNode
  ) throws -> T {
    switch direct {
    case .date: return exactly(try date(value, at: path()), as: type)
    case .timestamp:
      if case .timestamp(let timestamp) = value { return exactly(timestamp, as: type) }
    case .geoPoint:
      if case .geoPoint(let point) = value { return exactly(point, as: type) }
    case .reference: return exactly(try documentReference(value, as: type, at: path()), as: type)
    case .data: return exactly(try data(value, at: path()), as: type)
    case .url:
      if case .string(let string) = value {
        guard let url = URL(string: string) else { throw corrupted(path().keys, "'\(string)' is not a valid URL") }
        return exactly(url, as: type)
      }
    case .decimal:
      if let decimal = kept(value) as? Decimal { return exactly(decimal, as: type) }
      switch number(value) {
      case .integer(let i)?: return exactly(Decimal(i), as: type)
      case .unsigned(let u)?: return exactly(Decimal(u), as: type)
      case .double(let d)?: return exactly(Decimal(d), as: type)
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

  /// A `Date`, as `dateDecodingStrategy` reads it.
  private func date(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> Date {
    switch strategies.date {
    case .timestamp:
      if case .timestamp(let timestamp) = value { return timestamp.dateValue() }
      throw mismatch(Date.self, value, path().keys)
    case .deferredToDate:
      return try Date(from: DecoderImpl(context: self, value: value, node: path(), expectedType: Date.self))
    case .secondsSince1970:
      guard number(value) != nil else { throw mismatch(Date.self, value, path().keys, shape: "seconds since 1970") }
      return Date(timeIntervalSince1970: try double(value, at: path()))
    case .millisecondsSince1970:
      guard number(value) != nil else {
        throw mismatch(Date.self, value, path().keys, shape: "milliseconds since 1970")
      }
      return Date(timeIntervalSince1970: try double(value, at: path()) / 1000)
    case .iso8601:
      guard case .string(let string) = value else {
        throw mismatch(Date.self, value, path().keys, shape: "an ISO 8601 string")
      }
      guard let date = InternetDateTime.date(from: string) else {
        throw corrupted(path().keys, "'\(string)' is not an ISO 8601 date such as 2026-11-29T10:00:00Z")
      }
      return date
    case .formatted(let formatter):
      guard case .string(let string) = value else {
        throw mismatch(Date.self, value, path().keys, shape: "a formatted date string")
      }
      guard let date = formatter.date(from: string) else {
        throw corrupted(path().keys, "'\(string)' does not match the format of the decoder's date formatter")
      }
      return date
    case .custom(let decode):
      return try decode(DecoderImpl(context: self, value: value, node: path(), expectedType: Date.self))
    }
  }

  /// `Data`, as `dataDecodingStrategy` reads it.
  private func data(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> Data {
    switch strategies.data {
    case .blob:
      if case .bytes(let data) = value { return data }
      // As Firebase's: what its 10.0 to 10.3 wrote as Base64 strings reads back.
      if case .string(let string) = value, let data = Data(base64Encoded: string) { return data }
      throw mismatch(Data.self, value, path().keys)
    case .base64:
      guard case .string(let string) = value else {
        throw mismatch(Data.self, value, path().keys, shape: "a Base64 string")
      }
      guard let data = Data(base64Encoded: string) else {
        throw corrupted(path().keys, "the string is not valid Base64")
      }
      return data
    case .deferredToData:
      return try Data(from: DecoderImpl(context: self, value: value, node: path(), expectedType: Data.self))
    case .custom(let decode):
      return try decode(DecoderImpl(context: self, value: value, node: path(), expectedType: Data.self))
    }
  }

  /// A map's fields under the names `keyDecodingStrategy` gives them, for a keyed
  /// container at `node`.
  func keyed(_ map: [String: Value], at node: CodingPathNode) -> [String: Value] {
    let rename: (String) -> String
    switch strategies.key {
    case .useDefaultKeys: return map
    case .convertFromSnakeCase: rename = SnakeCase.toCamelCase
    case .custom(let convert):
      let path = node.keys
      rename = { convert(path + [ConvertedKey($0)]).stringValue }
    }
    return Dictionary(map.map { (rename($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  /// A decoder for a value whose type is not known here (a nested container's, a
  /// super-decoder's).
  func decoder(for value: Value, at node: CodingPathNode) -> DecoderImpl {
    DecoderImpl(context: self, value: value, node: node, expectedType: nil)
  }

  // MARK: Conversions

  func string(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> String {
    if case .string(let string) = value { return string }
    throw mismatch(String.self, value, path().keys)
  }

  func bool(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
    if case .boolean(let bool) = value { return bool }
    throw mismatch(Bool.self, value, path().keys)
  }

  func integer<I: FixedWidthInteger>(
    _ value: Value, as type: I.Type, at path: @autoclosure () -> CodingPathNode
  ) throws -> I {
    if case .integer(let i) = value, let result = I(exactly: i) { return result }
    guard let number = number(value) else { throw mismatch(type, value, path().keys) }
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

  func double(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> Double {
    switch value {
    case .double(let d): return d
    case .integer(let i): return Double(i)
    default: break
    }
    switch number(value) {
    case .double(let d)?: return d
    case .integer(let i)?: return Double(i)
    case .unsigned(let u)?: return Double(u)
    case .bool?, nil:
      if case .string(let string) = value,
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = strategies.nonConformingFloat
      {
        switch string {
        case positiveInfinity: return .infinity
        case negativeInfinity: return -.infinity
        case nan: return .nan
        default: break
        }
      }
      throw mismatch(Double.self, value, path().keys)
    }
  }

  func float(_ value: Value, at path: @autoclosure () -> CodingPathNode) throws -> Float {
    let double = try self.double(value, at: path())
    let float = Float(double)
    if double.isFinite && !float.isFinite { throw corrupted(path().keys, "\(double) does not fit in Float") }
    return float
  }

  /// The reference a `.reference` value names: the one the dictionary held, or one in
  /// the database of the document being decoded.
  func documentReference(
    _ value: Value, as type: Any.Type = DocumentReference.self, at path: @autoclosure () -> CodingPathNode
  ) throws -> DocumentReference {
    if case .reference(let key) = value {
      if let kept = kept(value) {
        if let reference = kept as? DocumentReference { return reference }
      } else {
        // Only stored fields hold real keys (`DictionaryInput` keeps every reference), and
        // they are decoded with their document's reference.
        guard let database = reference?.firestore else {
          preconditionFailure("a stored reference without its document")
        }
        return DocumentReference(database: database, key: key)
      }
    }
    throw mismatch(type, value, path().keys)
  }

  /// A number as `CodingNumber` holds it; a kept one (a `Decimal`, a large unsigned
  /// integer) as it always converted.
  private func number(_ value: Value) -> CodingNumber? {
    switch value {
    case .integer(let i): .integer(i)
    case .double(let d): .double(d)
    case .reference: kept(value).flatMap(CodingNumber.init)
    default: nil
    }
  }

  /// The original of a value `DictionaryInput` kept, or `nil` for any other value.
  func kept(_ value: Value) -> Any? {
    guard !keptValues.isEmpty, case .reference(let key) = value, let index = KeptValues.index(of: key) else {
      return nil
    }
    return keptValues[index]
  }

  /// The Firestore kind of a value, with its article, for messages.
  func kind(of value: Value) -> String {
    switch value {
    case .null: "null"
    case .boolean: "a boolean"
    case .integer: "an integer"
    case .double: "a double"
    case .timestamp: "a timestamp"
    case .string: "a string"
    case .bytes: "bytes"
    case .reference: kept(value).map(CodingText.kind(of:)) ?? "a document reference"
    case .geoPoint: "a geopoint"
    case .array: "an array"
    case .map: "a map"
    }
  }

  // MARK: Errors

  func location(_ path: [any CodingKey]) -> String { CodingText.location(document: documentPath, path: path) }

  /// A value of the wrong kind: `typeMismatch`, or `valueNotFound` for null.
  ///
  /// `shape` says what the type needs when its name does not (`a map`, `an array`); a
  /// `nil` type (under `superDecoder()`) is described by its shape alone.
  func mismatch(
    _ expected: Any.Type?, _ value: Value, _ path: [any CodingKey], shape: String? = nil, fallback: Any.Type = Any.self
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
      debugDescription: "\(location(path)): expected \(expectedText) but found \(kind(of: value))")
    if case .null = value { return .valueNotFound(expected, context) }
    return .typeMismatch(expected, context)
  }

  func corrupted(_ path: [any CodingKey], _ message: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: "\(location(path)): \(message)"))
  }

  /// `Document users/alice: no value for key 'username' (DatabaseUser.username)`; under
  /// `.convertFromSnakeCase`, with the field name that would have matched.
  func keyNotFound(_ key: any CodingKey, in path: [any CodingKey]) -> DecodingError {
    let fullPath = CodingText.typeName(CodingText.unwrapped(rootType)) + "." + CodingText.fieldPath(path + [key])
    var what = "no value for key '\(key.stringValue)' (\(fullPath))"
    if case .convertFromSnakeCase = strategies.key {
      let field = SnakeCase.fromCamelCase(key.stringValue)
      if field != key.stringValue {
        what += ", whose field would be '\(field)' by keyDecodingStrategy .convertFromSnakeCase"
      }
    }
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

extension DecodingContext {
  /// `array`'s elements, each decoded by `decode` with its index.
  ///
  /// Generic over the element so that `DecodingPrimitive` can call it from code
  /// specialized for its type: a Swift array or dictionary built in unspecialized code
  /// looks up its generic metadata on every call, which cost several times the
  /// conversions themselves.
  func decodeArray<Element>(_ array: [Value], _ decode: (Value, Int) throws -> Element) throws -> [Element] {
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
  func decodeMap<Element>(
    _ map: [String: Value], _ decode: (Value, String) throws -> Element
  ) throws -> [String: Element] {
    var result: [String: Element] = .init(minimumCapacity: map.count)
    for (key, element) in map {
      result[key] = try decode(element, key)
    }
    return result
  }
}
