import Foundation
import HearthCore

/// Reads one protobuf message from bytes it does not own, field by field, and never traps:
/// every malformed input (a truncated varint, a length past the end, a wire type the field
/// cannot have, nesting past `maxDepth`, invalid UTF-8 in a string) throws a
/// `ProtobufError` naming the message and the field.
///
/// A decoder loops over `next()` and reads each field it knows with the typed reads, which
/// check the wire type; `skip(_:)` passes over the others (unknown fields are ignored, as
/// proto3 readers do). Fields may come in any order and repeat: for a singular field the
/// last one wins, for a repeated scalar both the packed and the unpacked forms are read.
///
/// ```swift
/// try ProtobufReader.read(bytes, message: "google.type.LatLng") { reader in
///   while let key = try reader.next() {
///     switch key.number {
///     case 1: latitude = try reader.double(key, "latitude")
///     default: try reader.skip(key)
///     }
///   }
/// }
/// ```
package struct ProtobufReader {
  /// How deep messages may nest (a message inside the outermost one is at depth 1), as
  /// protobuf's own parsers limit it: deeper input is refused, so that hostile bytes cannot
  /// exhaust the stack. Firestore's deepest values (maps 20 levels deep, three messages a
  /// level) stay well within it.
  package static let maxDepth = 100

  private let buffer: UnsafeRawBufferPointer
  private var position: Int
  private let end: Int
  /// How many messages enclose this one.
  package let depth: Int
  /// The full name of the message being read, for errors.
  package let message: String

  private init(buffer: UnsafeRawBufferPointer, position: Int, end: Int, depth: Int, message: String) {
    self.buffer = buffer
    self.position = position
    self.end = end
    self.depth = depth
    self.message = message
  }

  /// Reads the message `message` from `bytes` with `body`, which must consume it by
  /// looping over `next()`.
  ///
  /// - Throws: `ProtobufError` for malformed bytes, and whatever `body` throws.
  package static func read<T>(
    _ bytes: UnsafeRawBufferPointer, message: String, _ body: (inout ProtobufReader) throws -> T
  ) throws -> T {
    var reader = ProtobufReader(buffer: bytes, position: 0, end: bytes.count, depth: 0, message: message)
    return try reader.run(body)
  }

  /// Reads `bytes` as `read(_:message:_:)` does.
  package static func read<T>(_ bytes: [UInt8], message: String, _ body: (inout ProtobufReader) throws -> T) throws
    -> T
  {
    try bytes.withUnsafeBytes { try read($0, message: message, body) }
  }

  /// Runs `body` and checks that it read the whole message.
  private mutating func run<T>(_ body: (inout ProtobufReader) throws -> T) throws -> T {
    let result = try body(&self)
    if position != end { throw error(nil, "the decoder stopped before the end of the message") }
    return result
  }

  /// Whether every byte of the message has been read.
  package var isAtEnd: Bool { position >= end }

  // MARK: - Fields

  /// The next field's key, or `nil` at the end of the message.
  ///
  /// - Throws: for a malformed key, a field number of 0 or above 2^29 - 1, wire types 6
  ///   and 7 (there are none), and groups, which no Firestore message uses.
  package mutating func next() throws -> FieldKey? {
    guard position < end else { return nil }
    let tag = try varint(nil)
    let number = tag >> 3
    guard number >= 1, number <= 0x1FFF_FFFF else { throw error(nil, "field number \(number) is out of range") }
    guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
      throw error("field \(number)", "wire type \(tag & 7) does not exist")
    }
    if wireType == .startGroup || wireType == .endGroup {
      throw error("field \(number)", "groups are not supported")
    }
    return FieldKey(number: Int(number), wireType: wireType)
  }

  /// Passes over a field this decoder does not know, by its wire type.
  package mutating func skip(_ key: FieldKey) throws {
    let field = "field \(key.number)"
    switch key.wireType {
    case .varint: _ = try varint(field)
    case .fixed64: _ = try take(8, field)
    case .fixed32: _ = try take(4, field)
    case .lengthDelimited: _ = try lengthDelimited(field)
    case .startGroup, .endGroup: throw error(field, "groups are not supported")
    }
  }

  // MARK: - Scalars

  package mutating func uint64(_ key: FieldKey, _ name: String) throws -> UInt64 {
    try expect(key, .varint, name)
    return try varint(label(key, name))
  }

  package mutating func int64(_ key: FieldKey, _ name: String) throws -> Int64 {
    Int64(bitPattern: try uint64(key, name))
  }

  /// An `int32` (or an enum): protobuf writes negative values sign-extended to 64 bits and
  /// reads the low 32.
  package mutating func int32(_ key: FieldKey, _ name: String) throws -> Int32 {
    Int32(truncatingIfNeeded: try uint64(key, name))
  }

  package mutating func bool(_ key: FieldKey, _ name: String) throws -> Bool {
    try uint64(key, name) != 0
  }

  package mutating func double(_ key: FieldKey, _ name: String) throws -> Double {
    try expect(key, .fixed64, name)
    let range = try take(8, label(key, name))
    var bits: UInt64 = 0
    for index in range.reversed() { bits = bits << 8 | UInt64(buffer[index]) }
    return Double(bitPattern: bits)
  }

  /// A `string`, which must be valid UTF-8.
  package mutating func string(_ key: FieldKey, _ name: String) throws -> String {
    try expect(key, .lengthDelimited, name)
    let range = try lengthDelimited(label(key, name))
    guard let text = String(validating: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self) else {
      throw error(label(key, name), "the string is not valid UTF-8")
    }
    return text
  }

  package mutating func bytes(_ key: FieldKey, _ name: String) throws -> Data {
    try expect(key, .lengthDelimited, name)
    let range = try lengthDelimited(label(key, name))
    return Data(UnsafeRawBufferPointer(rebasing: buffer[range]))
  }

  /// Appends a repeated `int32` field's values: one value (unpacked) or a run of them
  /// (packed), as protobuf readers must accept both.
  package mutating func int32s(_ key: FieldKey, _ name: String, into values: inout [Int32]) throws {
    guard key.wireType == .lengthDelimited else {
      values.append(try int32(key, name))
      return
    }
    let range = try lengthDelimited(label(key, name))
    var packed = ProtobufReader(
      buffer: buffer, position: range.lowerBound, end: range.upperBound, depth: depth, message: message)
    while !packed.isAtEnd { values.append(Int32(truncatingIfNeeded: try packed.varint(label(key, name)))) }
  }

  // MARK: - Messages

  /// Reads the embedded message `type` in the field with `body`, one level deeper.
  ///
  /// Errors inside it are given the field as context; a `HearthError` thrown by `body`
  /// (a bad name, a bad field path) becomes a `ProtobufError` of the embedded message.
  package mutating func message<T>(
    _ key: FieldKey, _ name: String, _ type: String, _ body: (inout ProtobufReader) throws -> T
  ) throws -> T {
    try expect(key, .lengthDelimited, name)
    let field = label(key, name)
    let range = try lengthDelimited(field)
    guard depth < ProtobufReader.maxDepth else {
      throw error(field, "messages nest more than \(ProtobufReader.maxDepth) levels deep")
    }
    var inner = ProtobufReader(
      buffer: buffer, position: range.lowerBound, end: range.upperBound, depth: depth + 1, message: type)
    do {
      return try inner.run(body)
    } catch var failure as ProtobufError {
      failure.path.insert("\(ProtobufReader.shortName(message)).\(name)", at: 0)
      throw failure
    } catch let failure as HearthError {
      var converted = ProtobufError(message: type, field: nil, problem: failure.message)
      converted.path = ["\(ProtobufReader.shortName(message)).\(name)"]
      throw converted
    }
  }

  /// Runs `body`, which turns the field's raw value into a model value, and reports a
  /// `HearthError` it throws as a problem of the field.
  package func check<T>(_ key: FieldKey, _ name: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as HearthError {
      throw error(label(key, name), failure.message)
    }
  }

  /// A problem of this message (a missing or contradictory field), for decoders.
  package func error(_ field: String?, _ problem: String) -> ProtobufError {
    ProtobufError(message: message, field: field, problem: problem)
  }

  /// Scans the rest of this message, without consuming it, for the last value of the
  /// `string` field `number`: a request's database or parent, which decoding its other
  /// fields needs first although it may come after them.
  package func peekString(_ number: Int, _ name: String) throws -> String? {
    var copy = self
    var found: String?
    while let key = try copy.next() {
      if key.number == number {
        found = try copy.string(key, name)
      } else {
        try copy.skip(key)
      }
    }
    return found
  }

  /// Like `peekString`, inside the embedded message in field `outer`: the name of an
  /// `UpdateDocumentRequest`'s document.
  package func peekString(in outer: Int, _ outerName: String, _ number: Int, _ name: String) throws -> String? {
    var copy = self
    var found: String?
    while let key = try copy.next() {
      if key.number == outer, key.wireType == .lengthDelimited {
        let range = try copy.lengthDelimited(copy.label(key, outerName))
        let inner = ProtobufReader(
          buffer: buffer, position: range.lowerBound, end: range.upperBound, depth: depth + 1, message: message)
        if let value = try inner.peekString(number, name) { found = value }
      } else {
        try copy.skip(key)
      }
    }
    return found
  }

  // MARK: - Bytes

  /// A varint of at most ten bytes; a tenth byte may only hold the 64th bit.
  private mutating func varint(_ field: String?) throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else { throw error(field, "a varint is cut off by the end of the message") }
      let byte = buffer[position]
      position += 1
      if shift == 63, byte > 1 { throw error(field, "a varint is longer than 64 bits") }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
  }

  /// The range of the next `count` bytes, consumed.
  private mutating func take(_ count: Int, _ field: String?) throws -> Range<Int> {
    guard end - position >= count else {
      throw error(field, "\(count) bytes are needed but \(end - position) remain")
    }
    defer { position += count }
    return position..<(position + count)
  }

  /// The range of a length-delimited value, consumed.
  private mutating func lengthDelimited(_ field: String?) throws -> Range<Int> {
    let length = try varint(field)
    guard length <= UInt64(end - position) else {
      throw error(field, "a length of \(length) bytes runs past the end of the message (\(end - position) remain)")
    }
    return try take(Int(length), field)
  }

  private func expect(_ key: FieldKey, _ wireType: WireType, _ name: String) throws {
    guard key.wireType == wireType else {
      throw error(label(key, name), "wire type \(key.wireType), expected \(wireType)")
    }
  }

  private func label(_ key: FieldKey, _ name: String) -> String { "\(name) (\(key.number))" }

  /// `Value` for `google.firestore.v1.Value`, `StructuredQuery.Filter` for a nested message.
  static func shortName(_ message: String) -> String {
    for prefix in ["google.firestore.v1.", "google.protobuf.", "google.type.", "google.rpc."]
    where message.hasPrefix(prefix) {
      return String(message.dropFirst(prefix.count))
    }
    return message
  }
}
