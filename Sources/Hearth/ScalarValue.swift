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
    // Foundation numbers (from JSONSerialization, Objective-C) carry their C type.
    if type(of: raw) is NSNumber.Type, let number = raw as? NSNumber {
      switch String(cString: number.objCType) {
      case "c", "B": self = .value(.boolean(number.boolValue))
      case "f", "d": self = .value(.double(number.doubleValue))
      case "Q", "L", "I": self = ScalarValue(unsigned: number.uint64Value)
      default: self = .value(.integer(number.int64Value))
      }
      return
    }
    switch raw {
    case is NSNull: self = .value(.null)
    case let b as Bool: self = .value(.boolean(b))
    case let s as String: self = .value(.string(s))
    case let s as Substring: self = .value(.string(String(s)))
    case let i as Int: self = .value(.integer(Int64(i)))
    case let i as Int64: self = .value(.integer(i))
    case let i as Int32: self = .value(.integer(Int64(i)))
    case let i as Int16: self = .value(.integer(Int64(i)))
    case let i as Int8: self = .value(.integer(Int64(i)))
    case let i as UInt8: self = .value(.integer(Int64(i)))
    case let i as UInt16: self = .value(.integer(Int64(i)))
    case let i as UInt32: self = .value(.integer(Int64(i)))
    case let i as UInt: self = ScalarValue(unsigned: UInt64(i))
    case let i as UInt64: self = ScalarValue(unsigned: i)
    case let d as Double: self = .value(.double(d))
    case let f as Float: self = .value(.double(Double(f)))
    case let d as Decimal: self = .value(.double(NSDecimalNumber(decimal: d).doubleValue))
    case let t as Timestamp: self = .value(.timestamp(t.truncatedToMicroseconds))
    case let d as Date: self = .value(.timestamp(Timestamp(date: d).truncatedToMicroseconds))
    case let d as Data: self = .value(.bytes(d))
    case let g as GeoPoint: self = .value(.geoPoint(g))
    case let optional as AnyOptional:
      guard let wrapped = optional.wrappedAny else {
        self = .value(.null)
        return
      }
      self = ScalarValue(wrapped)
    default: self = .unsupported
    }
  }

  private init(unsigned value: UInt64) {
    self = Int64(exactly: value).map { .value(.integer($0)) } ?? .tooLarge(value)
  }
}

/// Lets the readers see through an `Optional` stored in an `Any`.
protocol AnyOptional {
  var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
  var wrappedAny: Any? { self.map { $0 as Any } }
}
