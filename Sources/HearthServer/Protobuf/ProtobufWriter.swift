import Foundation

/// Appends protobuf fields to one growing byte buffer.
///
/// Embedded messages are length-prefixed. The writer does not compute sizes ahead: it
/// writes the field's key and a one-byte length placeholder, writes the message body in
/// place, and then backpatches the length. A body under 128 bytes (most Firestore values)
/// fits the placeholder and nothing moves; a longer one moves once, by the few extra bytes
/// its length needs, at each enclosing level (so the bytes moved are at most the output's
/// size times its nesting depth, and no message is built in a buffer of its own).
///
/// Fields are written in the order the encoders call them, which is field-number order,
/// as protobuf's own serializers write them; scalar fields at their default value are
/// left out by the encoders (proto3's implicit presence), except where the field has
/// presence (a oneof member, a wrapper, an embedded message).
package struct ProtobufWriter {
  package private(set) var bytes: [UInt8]

  package init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  package mutating func key(_ number: Int, _ wireType: WireType) {
    varint(UInt64(number) << 3 | UInt64(wireType.rawValue))
  }

  package mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  package mutating func uint64(_ number: Int, _ value: UInt64) {
    key(number, .varint)
    varint(value)
  }

  package mutating func int64(_ number: Int, _ value: Int64) { uint64(number, UInt64(bitPattern: value)) }

  /// An `int32` or an enum: negative values are sign-extended to ten bytes, as protobuf
  /// writes them.
  package mutating func int32(_ number: Int, _ value: Int32) { int64(number, Int64(value)) }

  package mutating func bool(_ number: Int, _ value: Bool) { uint64(number, value ? 1 : 0) }

  package mutating func double(_ number: Int, _ value: Double) {
    key(number, .fixed64)
    let bits = value.bitPattern
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
  }

  package mutating func string(_ number: Int, _ value: String) {
    key(number, .lengthDelimited)
    varint(UInt64(value.utf8.count))
    bytes.append(contentsOf: value.utf8)
  }

  package mutating func bytes(_ number: Int, _ value: Data) {
    key(number, .lengthDelimited)
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  /// A repeated `int32` field, packed (proto3's default for repeated scalars).
  package mutating func packedInt32s(_ number: Int, _ values: [Int32]) {
    guard !values.isEmpty else { return }
    message(number) { writer in
      for value in values { writer.varint(UInt64(bitPattern: Int64(value))) }
    }
  }

  /// An embedded message (or a packed run) written by `body`, length-prefixed by
  /// backpatching (see the type's comment).
  package mutating func message(_ number: Int, _ body: (inout ProtobufWriter) -> Void) {
    key(number, .lengthDelimited)
    bytes.append(0)
    let start = bytes.count
    body(&self)
    let length = bytes.count - start
    if length < 0x80 {
      bytes[start - 1] = UInt8(length)
      return
    }
    var prefix: [UInt8] = []
    var remaining = UInt64(length)
    while remaining >= 0x80 {
      prefix.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
      remaining >>= 7
    }
    prefix.append(UInt8(remaining))
    bytes.replaceSubrange((start - 1)..<start, with: prefix)
  }
}
