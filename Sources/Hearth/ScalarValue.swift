import Foundation
import HearthCore

/// How a Swift value that is not a map, an array, a sentinel or a `DocumentReference`
/// maps onto a Firestore value — the one table both writing (`UserDataReader`, which
/// rejects what does not fit) and printing (`ExtendedJSON`, which never fails) use.
enum ScalarValue {
  case value(Value)
  /// An unsigned integer beyond `Int64.max`: Firestore integers are signed 64-bit.
  case tooLarge(UInt64)
  case unsupported

  init(_ raw: Any) {
    if let convert = ScalarValue.byType[ObjectIdentifier(Swift.type(of: raw))] {
      self = convert(raw)
    } else if Swift.type(of: raw) is NSNumber.Type, let number = raw as? NSNumber {
      // Foundation numbers (Hearth's own reads, JSONSerialization, Objective-C) carry
      // their C type.
      switch number.typeCode {
      case UInt8(ascii: "c"), UInt8(ascii: "B"): self = .value(.boolean(number.boolValue))
      case UInt8(ascii: "f"), UInt8(ascii: "d"): self = .value(.double(number.doubleValue))
      case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): self = ScalarValue(unsigned: number.uint64Value)
      default: self = .value(.integer(number.int64Value))
      }
    } else if let optional = raw as? AnyOptional {
      self = optional.wrappedAny.map(ScalarValue.init) ?? .value(.null)
    } else {
      self = .unsupported
    }
  }

  private init(unsigned value: UInt64) {
    self = Int64(exactly: value).map { .value(.integer($0)) } ?? .tooLarge(value)
  }

  /// The supported types, found by their exact dynamic type: one hash lookup instead of
  /// a chain of casts, several of which would bridge the value to Foundation first.
  static let byType: [ObjectIdentifier: @Sendable (Any) -> ScalarValue] = [
    ObjectIdentifier(String.self): { .value(.string($0 as! String)) },
    ObjectIdentifier(Substring.self): { .value(.string(String($0 as! Substring))) },
    ObjectIdentifier(Bool.self): { .value(.boolean($0 as! Bool)) },
    ObjectIdentifier(Int.self): { .value(.integer(Int64($0 as! Int))) },
    ObjectIdentifier(Int64.self): { .value(.integer($0 as! Int64)) },
    ObjectIdentifier(Int32.self): { .value(.integer(Int64($0 as! Int32))) },
    ObjectIdentifier(Int16.self): { .value(.integer(Int64($0 as! Int16))) },
    ObjectIdentifier(Int8.self): { .value(.integer(Int64($0 as! Int8))) },
    ObjectIdentifier(UInt8.self): { .value(.integer(Int64($0 as! UInt8))) },
    ObjectIdentifier(UInt16.self): { .value(.integer(Int64($0 as! UInt16))) },
    ObjectIdentifier(UInt32.self): { .value(.integer(Int64($0 as! UInt32))) },
    ObjectIdentifier(UInt.self): { ScalarValue(unsigned: UInt64($0 as! UInt)) },
    ObjectIdentifier(UInt64.self): { ScalarValue(unsigned: $0 as! UInt64) },
    ObjectIdentifier(Double.self): { .value(.double($0 as! Double)) },
    ObjectIdentifier(Float.self): { .value(.double(Double($0 as! Float))) },
    ObjectIdentifier(Decimal.self): { .value(.double(NSDecimalNumber(decimal: $0 as! Decimal).doubleValue)) },
    ObjectIdentifier(Timestamp.self): { .value(.timestamp(($0 as! Timestamp).truncatedToMicroseconds)) },
    ObjectIdentifier(Date.self): { .value(.timestamp(Timestamp(date: $0 as! Date).truncatedToMicroseconds)) },
    ObjectIdentifier(Data.self): { .value(.bytes($0 as! Data)) },
    ObjectIdentifier(GeoPoint.self): { .value(.geoPoint($0 as! GeoPoint)) },
    ObjectIdentifier(VectorValue.self): { .value(($0 as! VectorValue).value) },
    ObjectIdentifier(NSNull.self): { _ in .value(.null) },
  ]
}

/// Lets the readers see through an `Optional` stored in an `Any`.
protocol AnyOptional {
  var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
  var wrappedAny: Any? { self.map { $0 as Any } }
}

extension NSNumber {
  /// The first character of `objCType`, Foundation's code for the C type the number
  /// holds (`q` for `Int64`, `d` for `Double`, `c` for a boolean), read without making a
  /// `String` of it: every number of a document read back and written again comes here.
  var typeCode: UInt8 { UInt8(truncatingIfNeeded: objCType.pointee) }
}
