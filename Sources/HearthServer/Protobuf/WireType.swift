/// The six wire types of the protobuf encoding: the low three bits of every field's tag,
/// which say how to find the end of the field's value, so that a reader can skip a field
/// it does not know.
package enum WireType: UInt8, Sendable, CustomStringConvertible {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  /// Groups (proto2's nested messages without a length) are not used by any Firestore
  /// message; a reader refuses them rather than searching for their end.
  case startGroup = 3
  case endGroup = 4
  case fixed32 = 5

  package var description: String {
    switch self {
    case .varint: "varint"
    case .fixed64: "fixed64"
    case .lengthDelimited: "length-delimited"
    case .startGroup: "start-group"
    case .endGroup: "end-group"
    case .fixed32: "fixed32"
    }
  }
}

/// One field's key as read from the wire: its number and its wire type.
package struct FieldKey: Sendable, Equatable {
  package let number: Int
  package let wireType: WireType
}
