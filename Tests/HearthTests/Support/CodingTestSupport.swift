import Foundation

// Types the ports of Firebase's Codable tests share (FirestorePortCodingStrategyTests,
// FirestorePortDataEncoderTests).

/// A value as the one field of a document: Hearth's encoder needs a keyed container at
/// the top (a document is a map), where Firebase's tests encode a value alone.
struct Field<T: Codable & Equatable>: Codable, Equatable {
  var value: T
}

/// `_TestKey`: a key which can take on any string or integer value.
struct TestKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init?(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }
  init?(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }
}

/// `EitherDecodable`: the value decoded as `T`, or else as `U`. Encodable and Equatable
/// only so that a `Field` can hold it; the tests only decode it.
enum EitherDecodable<T: Codable & Equatable, U: Codable & Equatable>: Codable, Equatable {
  case t(T)
  case u(U)

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      self = .t(try container.decode(T.self))
    } catch {
      self = .u(try container.decode(U.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .t(let value): try container.encode(value)
    case .u(let value): try container.encode(value)
    }
  }
}

/// The state tests' encoder wrapper: it approximates a subclass calling into its
/// superclass, where the superclass encodes a value that might throw. Getting the
/// superEncoder creates a referencing encoder, and pushing a nested container on it leaves
/// that encoder with several containers. (Firebase's asks for an unkeyed container at the
/// top; Hearth's encoder needs a keyed one, so the rest hangs under `value`.)
struct ReferencingEncoderWrapper<T: Encodable>: Encodable {
  let value: T
  init(_ value: T) { self.value = value }

  func encode(to encoder: any Encoder) throws {
    var outer = encoder.container(keyedBy: TestKey.self)
    var container = outer.nestedUnkeyedContainer(forKey: TestKey(stringValue: "value")!)
    let superEncoder = container.superEncoder()
    var nestedContainer = superEncoder.unkeyedContainer()
    try nestedContainer.encode(value)
  }
}
