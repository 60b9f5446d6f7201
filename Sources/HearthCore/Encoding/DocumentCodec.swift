import CDeflate
import Foundation

/// The on-disk form of a document: the value stored in the `documents` table.
///
/// ```
/// document := version(1 byte = 1) checksum createTime updateTime fields
/// checksum := CRC-32 (zlib's, computed by libdeflate) of every byte after it, 4 bytes little-endian
/// createTime, updateTime := zigzag varint, microseconds since the epoch
/// fields := map body
/// value := tag(1 byte) payload
///   0 null | 1 false | 2 true
///   3 integer: zigzag varint
///   4 double: 8 bytes, IEEE bits little-endian (NaN payloads and -0.0 kept)
///   5 timestamp: zigzag varint seconds, varint nanoseconds
///   6 string, 7 bytes: varint length, bytes
///   8 reference: varint segment count, each segment a length-prefixed string
///   9 geopoint: latitude, longitude as 8-byte doubles
///   10 array: varint count, values
///   11 map: map body
/// map body := varint count, then (length-prefixed key, value) in key byte order
/// ```
///
/// Compact (no field IDs, no padding) and deterministic: equal documents with identical
/// values encode to identical bytes. Every read checks the checksum first, so damaged
/// bytes are reported (`dataLoss`, naming the document) and never returned as data; the
/// decoder also checks every length, count, tag and nesting depth, so no input, however
/// damaged, can make it crash. The version byte lets later formats be read beside this one.
package enum DocumentCodec {
  package static let version: UInt8 = 1
  /// Deeper than any valid document (20 levels of maps and arrays), shallow enough that a
  /// corrupt document cannot exhaust the stack.
  @usableFromInline static let maxDecodeDepth = 32

  @usableFromInline
  enum Tag: UInt8 {
    case null = 0
    case `false`
    case `true`
    case integer
    case double
    case timestamp
    case string
    case bytes
    case reference
    case geoPoint
    case array
    case map
  }

  // MARK: - Encoding

  package static func encode(_ document: StoredDocument) -> [UInt8] {
    var writer = ByteWriter(capacity: 128 + document.fields.count * 24)
    writer.byte(version)
    writer.fixed32(0)  // the checksum, filled in below
    writer.signedVarint(document.createTime.microseconds)
    writer.signedVarint(document.updateTime.microseconds)
    encodeMap(document.fields, into: &writer)
    let sum = checksum(of: writer.bytes, from: bodyOffset)
    withUnsafeBytes(of: sum.littleEndian) { sum in
      for index in 0..<4 { writer.bytes[1 + index] = sum[index] }
    }
    return writer.bytes
  }

  /// Where the checksummed part begins: after the version byte and the checksum.
  @usableFromInline static let bodyOffset = 5

  static func checksum(of bytes: [UInt8], from offset: Int) -> UInt32 {
    bytes.withUnsafeBytes { checksum(of: UnsafeRawBufferPointer(rebasing: $0[offset...])) }
  }

  /// The CRC-32 of `bytes` (zlib's, by libdeflate), the checksum a document's header holds
  /// (`package` for the fuzzing harness, which gives arbitrary bodies a valid checksum).
  package static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
    libdeflate_crc32(0, bytes.baseAddress, bytes.count)
  }

  static func encodeMap(_ fields: [String: Value], into writer: inout ByteWriter) {
    writer.varint(UInt64(fields.count))
    if fields.count == 1, let (key, value) = fields.first {
      writer.string(key)
      encode(value, into: &writer)
      return
    }
    // Sort positions rather than (key, value) pairs: moving an Int is cheaper than
    // moving a pair of a String and a Value.
    let entries = ContiguousArray(fields)
    var order = ContiguousArray(entries.indices)
    order.sort { Value.compareUTF8(entries[$0].key, entries[$1].key) < 0 }
    for index in order {
      writer.string(entries[index].key)
      encode(entries[index].value, into: &writer)
    }
  }

  static func encode(_ value: Value, into writer: inout ByteWriter) {
    switch value {
    case .null: writer.byte(Tag.null.rawValue)
    case .boolean(let b): writer.byte(b ? Tag.true.rawValue : Tag.false.rawValue)
    case .integer(let i):
      writer.byte(Tag.integer.rawValue)
      writer.signedVarint(i)
    case .double(let d):
      writer.byte(Tag.double.rawValue)
      writer.fixed64(d.bitPattern)
    case .timestamp(let t):
      writer.byte(Tag.timestamp.rawValue)
      writer.signedVarint(t.seconds)
      writer.varint(UInt64(t.nanoseconds))
    case .string(let s):
      writer.byte(Tag.string.rawValue)
      writer.string(s)
    case .bytes(let data):
      writer.byte(Tag.bytes.rawValue)
      writer.varint(UInt64(data.count))
      writer.bytes.append(contentsOf: data)
    case .reference(let key):
      writer.byte(Tag.reference.rawValue)
      writer.varint(UInt64(key.depth))
      for segment in key.collectionPath.segments { writer.string(segment) }
      writer.string(key.documentID)
    case .geoPoint(let point):
      writer.byte(Tag.geoPoint.rawValue)
      writer.fixed64(point.latitude.bitPattern)
      writer.fixed64(point.longitude.bitPattern)
    case .array(let values):
      writer.byte(Tag.array.rawValue)
      writer.varint(UInt64(values.count))
      for element in values { encode(element, into: &writer) }
    case .map(let fields):
      writer.byte(Tag.map.rawValue)
      encodeMap(fields, into: &writer)
    }
  }

  // MARK: - Decoding

  /// Decodes a stored document into `Value`s.
  ///
  /// - Throws: `dataLoss` naming `key` when the bytes are damaged.
  package static func decode(_ bytes: UnsafeRawBufferPointer, key: DocumentKey) throws -> StoredDocument {
    try decode(bytes, key: key, using: ValueBuilder())
  }

  package static func decode(_ bytes: [UInt8], key: DocumentKey) throws -> StoredDocument {
    try bytes.withUnsafeBytes { try decode($0, key: key) }
  }

  /// Decodes a stored document into whatever `builder` makes of each value (`Value`s
  /// here, the API's `Any`s in `Hearth`), in one pass over the bytes.
  ///
  /// - Throws: `dataLoss` naming `key` when the bytes are damaged.
  @inlinable
  package static func decode<Builder: FieldBuilder>(
    _ bytes: UnsafeRawBufferPointer, key: DocumentKey, using builder: Builder
  ) throws -> DecodedDocument<Builder.Element> {
    try verify(bytes, key: key)
    return try decodeVerified(bytes, key: key, using: builder)
  }

  /// Decodes bytes whose checksum `verify` accepted. The checksum proves they are what
  /// `encode` wrote, so strings are taken without a UTF-8 check (invalid bytes would be
  /// repaired, never trusted); lengths and counts are still checked.
  ///
  /// `templates` are the maps' names it may meet (see `FieldTemplate`): those learnt so
  /// far unless a test says.
  @inlinable
  static func decodeVerified<Builder: FieldBuilder>(
    _ bytes: UnsafeRawBufferPointer, key: DocumentKey, using builder: Builder,
    templates: FieldTemplateTable = .current
  ) throws -> DecodedDocument<Builder.Element> {
    var reader = ByteReader(bytes)
    do throws(ByteReader.Malformed) {
      let (createTime, updateTime) = try header(&reader)
      let fields = try decodeMap(&reader, depth: 0, builder, templates)
      guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) unexpected bytes after the fields") }
      return DecodedDocument(key: key, fields: fields, createTime: createTime, updateTime: updateTime)
    } catch {
      throw damaged(key, error)
    }
  }

  /// Whether the bytes are of this format and match their checksum (what `verify`
  /// checks, without building its error).
  static func isIntact(_ bytes: UnsafeRawBufferPointer) -> Bool { damage(bytes) == nil }

  /// Checks the format version and the checksum.
  ///
  /// - Throws: `dataLoss` naming `key`.
  package static func verify(_ bytes: UnsafeRawBufferPointer, key: DocumentKey) throws {
    if let damage = damage(bytes) { throw HearthError.dataLoss("Document \(key) is damaged: \(damage)") }
  }

  /// What is wrong with the bytes (too short, another format, a checksum they do not
  /// match), or `nil` when they are intact.
  private static func damage(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.count > bodyOffset else { return "\(bytes.count) bytes is too short" }
    guard bytes[0] == version else { return "unknown document format \(bytes[0])" }
    let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
    let computed = checksum(of: UnsafeRawBufferPointer(rebasing: bytes[bodyOffset...]))
    guard stored == computed else { return "its checksum is \(hex(stored)) but its bytes sum to \(hex(computed))" }
    return nil
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  @usableFromInline
  static func damaged(_ key: DocumentKey, _ error: ByteReader.Malformed) -> HearthError {
    HearthError.dataLoss("Document \(key) is damaged: \(error.reason) at byte \(error.offset)")
  }

  /// The times, after the version byte and the checksum (which `verify` checked).
  @usableFromInline
  static func header(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> (Timestamp, Timestamp) {
    _ = try reader.bytes(bodyOffset)
    let createTime = Timestamp(microseconds: try reader.signedVarint())
    let updateTime = Timestamp(microseconds: try reader.signedVarint())
    return (createTime, updateTime)
  }

  /// A map's fields: through a template when its names are one's (see `FieldTemplate`),
  /// else key by key.
  @inlinable
  static func decodeMap<Builder: FieldBuilder>(
    _ reader: inout ByteReader, depth: Int, _ builder: Builder, _ templates: FieldTemplateTable
  ) throws(ByteReader.Malformed) -> [String: Builder.Element] {
    let start = reader
    let count = try reader.count()
    if count > 0 {
      let first = try reader.bytes(try reader.count())
      let bucket = templates.buckets[FieldTemplateTable.bucket(count: count, first: first)]
      if let template = bucket.first(where: { $0.count == count && $0.names(0, first) }),
        let fields = try decodeMap(&reader, as: template, among: bucket, depth: depth, builder, templates)
      {
        return fields
      }
      reader = start
      _ = try reader.count()
    }
    var fields = [String: Builder.Element](minimumCapacity: count)
    var names = FieldTemplateTable.NamesHash()
    for _ in 0..<count {
      let name = try reader.bytes(try reader.count())
      names.add(name)
      let key = UTF8Text.make(name.bindMemory(to: UInt8.self))
      let value = try decodeValue(&reader, depth: depth, builder, templates)
      if fields.updateValue(value, forKey: key) != nil { throw reader.fail("duplicate field '\(key)'") }
    }
    if templates !== FieldTemplateTable.none, FieldTemplateTable.fits(count) {
      FieldTemplateTable.decodedWithoutTemplate(start, names: names)
    }
    return fields
  }

  /// The fields of a map whose count and first name are `template`'s, `reader` at its
  /// first value; `nil` when a later name is not `template`'s nor that of another template
  /// of `bucket` with the same names before it.
  @inlinable
  static func decodeMap<Builder: FieldBuilder>(
    _ reader: inout ByteReader, as template: FieldTemplate, among bucket: [FieldTemplate], depth: Int,
    _ builder: Builder, _ templates: FieldTemplateTable
  ) throws(ByteReader.Malformed) -> [String: Builder.Element]? {
    let count = template.count
    return try withUnsafeTemporaryAllocation(of: Builder.Element.self, capacity: count) {
      values throws(ByteReader.Malformed) -> [String: Builder.Element]? in
      var template = template
      var decoded = 0
      do throws(ByteReader.Malformed) {
        while decoded < count {
          if decoded > 0 {
            let name = try reader.bytes(try reader.count())
            if !template.names(decoded, name) {
              guard
                let other = bucket.first(where: {
                  $0.count == count && $0.names(decoded, name) && $0.sharesNames(decoded, with: template)
                })
              else {
                values.baseAddress!.deinitialize(count: decoded)
                return nil
              }
              template = other
            }
          }
          values.initializeElement(at: decoded, to: try decodeValue(&reader, depth: depth, builder, templates))
          decoded += 1
        }
      } catch {
        values.baseAddress!.deinitialize(count: decoded)
        throw error
      }
      return template.slots.mapValues { (values.baseAddress! + $0).move() }
    }
  }

  @inlinable
  static func decodeValue<Builder: FieldBuilder>(
    _ reader: inout ByteReader, depth: Int, _ builder: Builder, _ templates: FieldTemplateTable
  ) throws(ByteReader.Malformed) -> Builder.Element {
    let tag = try reader.byte()
    switch tag {
    case Tag.null.rawValue: return builder.null()
    case Tag.false.rawValue: return builder.boolean(false)
    case Tag.true.rawValue: return builder.boolean(true)
    case Tag.integer.rawValue: return builder.integer(try reader.signedVarint())
    case Tag.double.rawValue: return builder.double(Double(bitPattern: try reader.fixed64()))
    case Tag.timestamp.rawValue: return builder.timestamp(try timestamp(&reader))
    case Tag.string.rawValue: return builder.string(try reader.trustedString())
    case Tag.bytes.rawValue:
      let length = try reader.count()
      return builder.bytes(Data(try reader.bytes(length)))
    case Tag.reference.rawValue: return builder.reference(try reference(&reader))
    case Tag.geoPoint.rawValue:
      let latitude = Double(bitPattern: try reader.fixed64())
      return builder.geoPoint(GeoPoint(latitude: latitude, longitude: Double(bitPattern: try reader.fixed64())))
    case Tag.array.rawValue:
      guard depth < maxDecodeDepth else { throw reader.fail("nesting deeper than \(maxDecodeDepth)") }
      let count = try reader.count()
      var elements: [Builder.Element] = []
      elements.reserveCapacity(count)
      for _ in 0..<count { elements.append(try decodeValue(&reader, depth: depth + 1, builder, templates)) }
      return builder.array(elements)
    case Tag.map.rawValue:
      guard depth < maxDecodeDepth else { throw reader.fail("nesting deeper than \(maxDecodeDepth)") }
      return builder.map(try decodeMap(&reader, depth: depth + 1, builder, templates))
    default:
      throw reader.fail("unknown value tag \(tag)")
    }
  }

  /// Only the top-level fields named in `names` (UTF-8 bytes, in byte order), as `Value`s;
  /// every other field is stepped over without building anything. A query looks at the
  /// few fields it filters and orders on, not at whole documents.
  ///
  /// - Throws: `dataLoss` naming `key` when the bytes (which `verify` accepted) are
  ///   malformed.
  package static func decodeFields(_ bytes: UnsafeRawBufferPointer, key: DocumentKey, named names: [[UInt8]]) throws
    -> [String: Value]
  {
    var reader = ByteReader(bytes)
    do throws(ByteReader.Malformed) {
      _ = try header(&reader)
      let count = try reader.count()
      var fields = [String: Value](minimumCapacity: min(count, names.count))
      // Both the stored names and `names` are in byte order: one merge pass.
      var wanted = 0
      for _ in 0..<count where wanted < names.count {
        let name = try reader.bytes(try reader.count())
        while wanted < names.count, compareBytes(names[wanted], name) < 0 { wanted += 1 }
        if wanted < names.count, compareBytes(names[wanted], name) == 0 {
          fields[UTF8Text.make(name.bindMemory(to: UInt8.self))] = try decodeValue(
            &reader, depth: 0, ValueBuilder(), .none)
          wanted += 1
        } else {
          try skipValue(&reader, depth: 0)
        }
      }
      return fields
    } catch {
      throw damaged(key, error)
    }
  }

  /// Steps over one value, checking only that its lengths fit.
  static func skipValue(_ reader: inout ByteReader, depth: Int) throws(ByteReader.Malformed) {
    let tag = try reader.byte()
    switch tag {
    case Tag.null.rawValue, Tag.false.rawValue, Tag.true.rawValue: return
    case Tag.integer.rawValue: _ = try reader.varint()
    case Tag.double.rawValue: _ = try reader.bytes(8)
    case Tag.timestamp.rawValue:
      _ = try reader.varint()
      _ = try reader.varint()
    case Tag.string.rawValue, Tag.bytes.rawValue: _ = try reader.bytes(try reader.count())
    case Tag.reference.rawValue:
      for _ in 0..<(try reader.count()) { _ = try reader.bytes(try reader.count()) }
    case Tag.geoPoint.rawValue: _ = try reader.bytes(16)
    case Tag.array.rawValue, Tag.map.rawValue:
      guard depth < maxDecodeDepth else { throw reader.fail("nesting deeper than \(maxDecodeDepth)") }
      for _ in 0..<(try reader.count()) {
        if tag == Tag.map.rawValue { _ = try reader.bytes(try reader.count()) }
        try skipValue(&reader, depth: depth + 1)
      }
    default:
      throw reader.fail("unknown value tag \(tag)")
    }
  }

  /// -1, 0 or 1: byte by byte, then the shorter first.
  private static func compareBytes(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Int {
    for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
    return Value.order(a.count, b.count)
  }

  @usableFromInline
  static func timestamp(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> Timestamp {
    let seconds = try reader.signedVarint()
    let nanos = try reader.varint()
    guard nanos < 1_000_000_000 else { throw reader.fail("timestamp nanoseconds out of range") }
    return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
  }

  @usableFromInline
  static func reference(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> DocumentKey {
    let count = try reader.count()
    guard count >= 2, count % 2 == 0 else { throw reader.fail("reference with \(count) segments") }
    var segments: [String] = []
    segments.reserveCapacity(count)
    for _ in 0..<count {
      let segment = try reader.trustedString()
      guard !segment.isEmpty else { throw reader.fail("empty segment in a reference") }
      segments.append(segment)
    }
    let id = segments.removeLast()
    return DocumentKey(collection: ResourcePath(segments), id: id)
  }
}
