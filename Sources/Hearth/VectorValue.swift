import Foundation
import HearthCore

/// Firestore's vector value: a list of doubles, stored as Firestore stores it (a map
/// `{"__type__": "__vector__", "value": [doubles]}`), ordered as its own type between
/// arrays and maps: by length first, then element by element. `FieldValue.vector(_:)`
/// makes one to write; `data()` and `get(_:)` hand stored ones back as `VectorValue`.
/// Vector search (`findNearest`) is not served.
public struct VectorValue: Sendable, Hashable, CustomStringConvertible {
  /// The vector's elements.
  public let array: [Double]

  /// A vector of `array`'s elements.
  public init(_ array: [Double]) { self.array = array }

  /// `VectorValue([1.0, 2.0])`.
  public var description: String { "VectorValue(\(array))" }

  /// The stored map.
  var value: Value {
    .map(["__type__": .string("__vector__"), "value": .array(array.map(Value.double))])
  }

  /// The vector a stored map is, or `nil` for any other map.
  init?(stored fields: [String: Value]) {
    guard let numbers = Value.vectorNumbers(fields) else { return nil }
    array = numbers
  }
}

extension FieldValue {
  /// A vector value of `array`'s elements, to write (and to compare in queries).
  public static func vector(_ array: [Double]) -> VectorValue { VectorValue(array) }
}
