import Foundation
import HearthCore

/// Reads a fuzz input as a stream of choices. Past the end every read is zero, so every
/// input, the empty one included, describes something.
struct FuzzReader {
  private let bytes: UnsafeRawBufferPointer
  private(set) var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// Eight bytes, little-endian.
  mutating func uint64() -> UInt64 {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
    return value
  }

  /// Four bytes, little-endian.
  mutating func uint32() -> UInt32 {
    var value: UInt32 = 0
    for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(byte()) << UInt32(shift) }
    return value
  }

  /// Up to `count` bytes: fewer at the end of the input.
  mutating func bytes(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    guard offset < end else { return [] }
    defer { offset = end }
    return Array(bytes[offset..<end])
  }
}

/// Builds Hearth values from fuzz input, and writes the input that builds a given value
/// (for seeds). Every value the model allows can come out, including those no valid
/// document holds (nested arrays, timestamps outside Firestore's range, NaN geopoints),
/// since the codecs must handle them all.
///
/// ```
/// value := kind(1 byte, mod 16) payload
///   0 null | 1 false | 2 true | 15 null
///   3 integer: 8 bytes          4 small integer: 1 byte, signed
///   5 double: 8 bytes of bits   6 double of a small integer: 1 byte, signed
///   7 edge number: 1 byte, an index into `edgeNumbers`
///   8 timestamp: seconds 8 bytes, nanoseconds 4 bytes (mod 10^9)
///   9 string, 10 bytes: length(1 byte), bytes (strings repaired as UTF-8)
///   11 reference: pairs(1 byte, mod 2, plus 1), that many pairs of non-empty IDs
///   12 geopoint: two doubles of 8 bytes
///   13 array: count(1 byte, mod 5), values      14 map: count(1 byte, mod 5), (key, value)…
/// ```
enum FuzzValues {
  /// Containers nest at most this deep (deeper ones come out as null).
  static let maxDepth = 6

  /// Numbers where orders and encodings change: the ends of Int64, where doubles stop
  /// being exact integers, signed zeros, NaNs, infinities, subnormals.
  static let edgeNumbers: [Value] = [
    .integer(0), .integer(1), .integer(-1), .integer(.max), .integer(.min), .integer(1 << 53),
    .integer(1 << 53 + 1), .integer(-(1 << 53)), .integer(-(1 << 53) - 1), .integer(1 << 31),
    .double(0), .double(-0.0), .double(1), .double(-1), .double(.nan), .double(-.nan),
    .double(Double(bitPattern: 0x7FF0_0000_0000_0001)), .double(.infinity), .double(-.infinity),
    .double(.greatestFiniteMagnitude), .double(-.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
    .double(-.leastNonzeroMagnitude), .double(.leastNormalMagnitude), .double(0x1p53), .double(0x1p63),
    .double(-0x1p63), .double(0.1), .double(1e16), .double(0x1p53 + 2),
  ]

  static func value(_ reader: inout FuzzReader, depth: Int = 0) -> Value {
    switch reader.byte() % 16 {
    case 1: return .boolean(false)
    case 2: return .boolean(true)
    case 3: return .integer(Int64(bitPattern: reader.uint64()))
    case 4: return .integer(Int64(Int8(bitPattern: reader.byte())))
    case 5: return .double(Double(bitPattern: reader.uint64()))
    case 6: return .double(Double(Int8(bitPattern: reader.byte())))
    case 7: return edgeNumbers[Int(reader.byte()) % edgeNumbers.count]
    case 8:
      let seconds = Int64(bitPattern: reader.uint64())
      return .timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(reader.uint32() % 1_000_000_000)))
    case 9: return .string(string(&reader))
    case 10: return .bytes(Data(reader.bytes(Int(reader.byte()))))
    case 11:
      let count = (Int(reader.byte()) % 2 + 1) * 2
      return .reference(DocumentKey(ResourcePath((0..<count).map { _ in id(&reader) })))
    case 12:
      let latitude = Double(bitPattern: reader.uint64())
      return .geoPoint(GeoPoint(latitude: latitude, longitude: Double(bitPattern: reader.uint64())))
    case 13:
      let count = Int(reader.byte()) % 5
      guard depth < maxDepth else { return .null }
      return .array((0..<count).map { _ in value(&reader, depth: depth + 1) })
    case 14:
      guard depth < maxDepth else { return .null }
      return .map(fields(&reader, depth: depth + 1))
    default: return .null
    }
  }

  /// A map: count(1 byte, mod 5), then (key, value) pairs. A repeated key keeps its
  /// last value.
  static func fields(_ reader: inout FuzzReader, depth: Int = 0) -> [String: Value] {
    let count = Int(reader.byte()) % 5
    var fields: [String: Value] = [:]
    for _ in 0..<count {
      let key = string(&reader)
      fields[key] = value(&reader, depth: depth)
    }
    return fields
  }

  /// length(1 byte), then that many bytes read as UTF-8 (invalid sequences repaired).
  static func string(_ reader: inout FuzzReader) -> String {
    String(decoding: reader.bytes(Int(reader.byte())), as: UTF8.self)
  }

  /// A string that is never empty (a reference's segment).
  static func id(_ reader: inout FuzzReader) -> String {
    let text = string(&reader)
    return text.isEmpty ? "x" : text
  }

  // MARK: - Writing seeds

  /// The input that `value(_:)` reads as `value` (strings and bytes of at most 255 bytes,
  /// containers of at most 4 elements, references of 2 or 4 segments).
  static func input(for value: Value) -> [UInt8] {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return bytes
  }

  static func append(_ value: Value, to bytes: inout [UInt8]) {
    func little<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    func text(_ string: String) {
      bytes.append(UInt8(string.utf8.count))
      bytes += string.utf8
    }
    switch value {
    case .null: bytes.append(0)
    case .boolean(let flag): bytes.append(flag ? 2 : 1)
    case .integer(let integer):
      bytes.append(3)
      little(integer)
    case .double(let double):
      bytes.append(5)
      little(double.bitPattern)
    case .timestamp(let timestamp):
      bytes.append(8)
      little(timestamp.seconds)
      little(UInt32(timestamp.nanoseconds))
    case .string(let string):
      bytes.append(9)
      text(string)
    case .bytes(let data):
      bytes += [10, UInt8(data.count)]
      bytes += data
    case .reference(let key):
      bytes += [11, UInt8(key.path.count / 2 - 1)]
      for segment in key.path.segments { text(segment) }
    case .geoPoint(let point):
      bytes.append(12)
      little(point.latitude.bitPattern)
      little(point.longitude.bitPattern)
    case .array(let elements):
      bytes += [13, UInt8(elements.count)]
      for element in elements { append(element, to: &bytes) }
    case .map(let fields):
      bytes.append(14)
      appendFields(fields, to: &bytes)
    }
  }

  static func appendFields(_ fields: [String: Value], to bytes: inout [UInt8]) {
    bytes.append(UInt8(fields.count))
    for key in Value.sortedKeys(fields) {
      bytes.append(UInt8(key.utf8.count))
      bytes += key.utf8
      append(fields[key]!, to: &bytes)
    }
  }
}
