import Foundation

// MARK: - Coding keys

/// The key of an array element in a coding path. Its own type (rather than any key with
/// an `intValue`) lets messages print `tags[2]` for elements while a dictionary's `Int`
/// keys, which Swift also gives an `intValue`, still print as the field names they are.
struct IndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.index = intValue }
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
}

/// The key that `superEncoder()` and `superDecoder()` use, as in Swift's JSON coders.
struct SuperKey: CodingKey {
  init() {}
  init?(stringValue: String) { guard stringValue == "super" else { return nil } }
  init?(intValue: Int) { nil }
  var stringValue: String { "super" }
  var intValue: Int? { nil }
}

/// A string-keyed dictionary's key in a coding path, standing in for the standard
/// library's `_DictionaryCodingKey` (which `Dictionary.init(from:)` uses, but Hearth's
/// decoder builds such dictionaries itself): the string, and the number it spells as
/// `intValue`.
struct DictionaryKey: CodingKey {
  let stringValue: String
  init(_ stringValue: String) { self.stringValue = stringValue }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { self.stringValue = "\(intValue)" }
  var intValue: Int? { Int(stringValue) }
}

// MARK: - Messages

/// Where a value is, in the words of error messages.
///
/// Swift's `DecodingError` prints as "The data couldn't be read because it is missing",
/// which leaves users guessing which document and which field. Every message here starts
/// with the document path (when known) and the field, and names Swift types and
/// Firestore value kinds.
enum CodingText {
  /// `address.city`, `tags[2]`, `comments[0].author`.
  static func fieldPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key as? IndexKey {
        text += "[\(index.index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text
  }

  /// `Document users/alice, field 'age'`, `Document users/alice`, `Field 'age'`, or
  /// `Top-level value`.
  static func location(document: String?, path: [any CodingKey]) -> String {
    switch (document, path.isEmpty) {
    case (let document?, true): "Document \(document)"
    case (let document?, false): "Document \(document), field '\(fieldPath(path))'"
    case (nil, false): "Field '\(fieldPath(path))'"
    case (nil, true): "Top-level value"
    }
  }

  /// A type as users wrote it: `Int`, `DatabaseUser`, `Array<String>`.
  static func typeName(_ type: Any.Type) -> String { String(describing: type) }

  /// `DatabaseUser` for `DatabaseUser?`: messages name the model, not the optional that
  /// `getDocument(as: DatabaseUser?.self)` asks for.
  static func unwrapped(_ type: Any.Type) -> Any.Type {
    (type as? any CodingOptional.Type).map { unwrapped($0.wrappedType) } ?? type
  }

  /// The Firestore kind of a value from a `[String: Any]`, with its article: for the
  /// values `DictionaryInput` keeps as they came (see `DecodingContext.kind(of:)` for the
  /// rest), named as the decoder always named them.
  static func kind(of value: Any) -> String {
    if value is NSNull { return "null" }
    switch CodingNumber(value) {  // first: on Linux an NSNumber 1 also casts to Bool
    case .bool?: return "a boolean"
    case .integer?, .unsigned?: return "an integer"
    case .double?: return "a double"
    case nil: break
    }
    switch value {
    case is Bool: return "a boolean"
    case is String, is Substring: return "a string"
    case is Timestamp, is Date: return "a timestamp"
    case is Data: return "bytes"
    case is GeoPoint: return "a geopoint"
    case is VectorValue: return "a vector"
    case is DocumentReference: return "a document reference"
    default: break
    }
    if value is [String: Any] { return "a map" }
    if value is [Any] { return "an array" }
    return "a value of type \(typeName(type(of: value)))"
  }
}

/// Lets messages see through `Optional`.
protocol CodingOptional {
  static var wrappedType: Any.Type { get }
}

extension Optional: CodingOptional {
  static var wrappedType: Any.Type { Wrapped.self }
}

// MARK: - Numbers

/// A number (or an `NSNumber` boolean) found in `[String: Any]`, whichever Swift type
/// holds it. Data read from Hearth holds `NSNumber`s; data that users build by hand may
/// hold any integer type, `Float`, `Double` or `NSNumber`. `DictionaryInput` reads them
/// with it, and the decoder the numbers it keeps (`Decimal`, large unsigned integers).
enum CodingNumber {
  case integer(Int64)
  case unsigned(UInt64)  // only above Int64.max
  case double(Double)
  case bool(Bool)  // an NSNumber made from a Bool

  init?(_ value: Any) {
    // What Hearth's own data holds, found by exact type before the casts below: each
    // of those is a runtime call, and numbers are decoded far more often than not.
    if type(of: value) == Int64.self {
      self = .integer(value as! Int64)
      return
    }
    if type(of: value) == Double.self {
      self = .double(value as! Double)
      return
    }
    if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
      switch number.typeCode {
      case UInt8(ascii: "B"): self = .bool(number.boolValue)
      case UInt8(ascii: "c") where number.int64Value == 0 || number.int64Value == 1:
        // Foundation stores booleans as `char`; a real Int8 0 or 1 reads as a number too.
        self = .bool(number.boolValue)
      case UInt8(ascii: "f"), UInt8(ascii: "d"): self = .double(number.doubleValue)
      case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
        let unsigned = number.uint64Value
        self = Int64(exactly: unsigned).map(CodingNumber.integer) ?? .unsigned(unsigned)
      default: self = .integer(number.int64Value)
      }
      return
    }
    switch value {
    case is Bool: return nil
    case let i as Int64: self = .integer(i)
    case let d as Double: self = .double(d)
    case let i as Int: self = .integer(Int64(i))
    case let i as Int32: self = .integer(Int64(i))
    case let i as Int16: self = .integer(Int64(i))
    case let i as Int8: self = .integer(Int64(i))
    case let i as UInt8: self = .integer(Int64(i))
    case let i as UInt16: self = .integer(Int64(i))
    case let i as UInt32: self = .integer(Int64(i))
    case let i as UInt: self = Int64(exactly: i).map(CodingNumber.integer) ?? .unsigned(UInt64(i))
    case let i as UInt64: self = Int64(exactly: i).map(CodingNumber.integer) ?? .unsigned(i)
    case let f as Float: self = .double(Double(f))
    case let d as Decimal: self = .double(NSDecimalNumber(decimal: d).doubleValue)
    default: return nil
    }
  }

  /// The number as text, for messages.
  var text: String {
    switch self {
    case .integer(let i): "\(i)"
    case .unsigned(let u): "\(u)"
    case .double(let d): "\(d)"
    case .bool(let b): "\(b)"
    }
  }
}

// MARK: - Types coded directly

/// The types that Hearth's encoder and decoder convert themselves instead of calling
/// their `encode(to:)` or `init(from:)`: Swift's numbers, strings and booleans, and the
/// types Firestore stores as they are. Looked up by exact type, once per value, so
/// that a model's own types (and subclasses) go through their own coding.
enum DirectType {
  case string, bool, double, float, decimal
  case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
  case date, timestamp, geoPoint, reference, data, url, fieldValue

  init?(_ type: Any.Type) {
    guard let direct = DirectType.table[ObjectIdentifier(type)] else { return nil }
    self = direct
  }

  private static let table: [ObjectIdentifier: DirectType] = [
    ObjectIdentifier(String.self): .string, ObjectIdentifier(Bool.self): .bool,
    ObjectIdentifier(Double.self): .double, ObjectIdentifier(Float.self): .float,
    ObjectIdentifier(Decimal.self): .decimal,
    ObjectIdentifier(Int.self): .int, ObjectIdentifier(Int8.self): .int8, ObjectIdentifier(Int16.self): .int16,
    ObjectIdentifier(Int32.self): .int32, ObjectIdentifier(Int64.self): .int64,
    ObjectIdentifier(UInt.self): .uint, ObjectIdentifier(UInt8.self): .uint8, ObjectIdentifier(UInt16.self): .uint16,
    ObjectIdentifier(UInt32.self): .uint32, ObjectIdentifier(UInt64.self): .uint64,
    ObjectIdentifier(Date.self): .date, ObjectIdentifier(Timestamp.self): .timestamp,
    ObjectIdentifier(GeoPoint.self): .geoPoint, ObjectIdentifier(DocumentReference.self): .reference,
    ObjectIdentifier(Data.self): .data, ObjectIdentifier(URL.self): .url,
    ObjectIdentifier(FieldValue.self): .fieldValue,
  ]
}
