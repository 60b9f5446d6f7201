import Foundation
import HearthCore

/// `DocumentCodec`, the stored form of documents. The first byte of the input picks a
/// mode (mod 3), the rest is its payload:
///
/// 0. The payload as stored bytes: decoding throws `dataLoss` or returns a document
///    (almost always `dataLoss`: the checksum must match).
/// 1. The payload as a document's body (the bytes after the checksum), given the format
///    version and a valid checksum, so that the decoder proper sees arbitrary bytes:
///    `dataLoss` or a document, never a crash; what decodes re-encodes to bytes that
///    decode to the same document, and `decodeFields` agrees with `decode`.
/// 2. The payload builds a document (`FuzzValues`): it encodes, decodes identically,
///    re-encodes to the same bytes, and any one damaged byte is reported as `dataLoss`.
enum DocumentCodecTarget {
  static let key = DocumentKey(ResourcePath(["fuzz", "document"]))
  /// The format's header: the version byte and the 4-byte checksum.
  static let headerSize = 5

  static func run(_ input: UnsafeRawBufferPointer) throws {
    guard let mode = input.first else { return }
    let payload = UnsafeRawBufferPointer(rebasing: input[1...])
    switch mode % 3 {
    case 0: try decodeArbitrary(Array(payload))
    case 1: try decodeArbitrary(withChecksum(payload))
    default: try roundTrip(payload)
    }
  }

  /// The version byte, the checksum of `body`, then `body`.
  static func withChecksum(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    var bytes = [DocumentCodec.version]
    withUnsafeBytes(of: DocumentCodec.checksum(of: body).littleEndian) { bytes += $0 }
    return bytes + body
  }

  static func decodeArbitrary(_ bytes: [UInt8]) throws {
    let decoded: StoredDocument
    do {
      decoded = try DocumentCodec.decode(bytes, key: key)
    } catch {
      try requireHearthError(error, .dataLoss, from: "DocumentCodec.decode")
      // What `decode` refuses, `EncodedDocument` either refuses too (a bad checksum)
      // or accepted with a valid checksum: decoding it then gives no fields, never a crash.
      if let encoded = try? bytes.withUnsafeBytes({ try EncodedDocument(key: key, verifying: $0) }) {
        _ = encoded.stored
        _ = encoded.createTime
      }
      // Reading selected fields meets the same damage: `dataLoss` or some fields.
      try decodeFields(bytes, named: [[], Array("a".utf8)], mustSucceed: false)
      return
    }
    let encoded: EncodedDocument
    do {
      encoded = try bytes.withUnsafeBytes { try EncodedDocument(key: key, verifying: $0) }
    } catch {
      throw PropertyViolation("decode accepted bytes that EncodedDocument refused: \(error); bytes \(hex(bytes))")
    }
    try requireSame(encoded.stored, decoded, "EncodedDocument.stored and decode")
    // The canonical bytes of what decoded decode to the same document: stored bytes that
    // passed the checksum are re-encoded by every write, and must mean the same.
    let canonical = DocumentCodec.encode(decoded)
    let again: StoredDocument
    do {
      again = try DocumentCodec.decode(canonical, key: key)
    } catch {
      throw PropertyViolation("re-encoded document does not decode: \(error); from \(hex(bytes))")
    }
    try requireSame(again, decoded, "decode(encode(decode(bytes))) and decode(bytes)")
    try require(DocumentCodec.encode(again) == canonical, "encoding is not deterministic for \(hex(bytes))")
    try requireFieldReads(canonical, decoded.fields)
  }

  static func roundTrip(_ payload: UnsafeRawBufferPointer) throws {
    var reader = FuzzReader(payload)
    let createTime = Timestamp(microseconds: Int64(bitPattern: reader.uint64()))
    let updateTime = Timestamp(microseconds: Int64(bitPattern: reader.uint64()))
    let fields = FuzzValues.fields(&reader)
    let document = StoredDocument(key: key, fields: fields, createTime: createTime, updateTime: updateTime)
    let bytes = DocumentCodec.encode(document)
    let decoded: StoredDocument
    do {
      decoded = try DocumentCodec.decode(bytes, key: key)
    } catch {
      throw PropertyViolation("an encoded document does not decode: \(error); bytes \(hex(bytes))")
    }
    try requireSame(decoded, document, "decode(encode(document)) and the document")
    try require(DocumentCodec.encode(decoded) == bytes, "re-encoding changed the bytes \(hex(bytes))")
    try requireFieldReads(bytes, fields)
    // Any one damaged byte is detected: the version byte names no format, the checksum
    // (CRC-32 catches every error within 32 consecutive bits) does not match.
    let position = Int(reader.uint32() % UInt32(bytes.count))
    let flip = reader.byte()
    var damaged = bytes
    damaged[position] ^= flip == 0 ? 0xFF : flip
    do {
      _ = try DocumentCodec.decode(damaged, key: key)
      throw PropertyViolation("damage at byte \(position) went unnoticed: \(hex(damaged))")
    } catch let error as HearthError {
      try require(error.code == .dataLoss, "damage reported as \(error.code), not dataLoss: \(error.message)")
    }
  }

  /// `decodeFields` with every name returns every field, and with some names those
  /// fields, for the canonical `bytes` of a document with `fields`.
  static func requireFieldReads(_ bytes: [UInt8], _ fields: [String: Value]) throws {
    let names = Value.sortedKeys(fields)
    let all = try decodeFields(bytes, named: names.map { Array($0.utf8) }, mustSucceed: true)
    try require(Value.identicalFields(all, fields), "decodeFields with every name differs from decode: \(hex(bytes))")
    // Every other name, plus names that are not there.
    let some = names.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let wanted = (some + ["", "\u{0}", "zz"]).sorted { Value.compareUTF8($0, $1) < 0 }
    var unique: [[UInt8]] = []
    for name in wanted where unique.last != Array(name.utf8) { unique.append(Array(name.utf8)) }
    let selected = try decodeFields(bytes, named: unique, mustSucceed: true)
    let expected = fields.filter { field in unique.contains(Array(field.key.utf8)) }
    try require(Value.identicalFields(selected, expected), "decodeFields with some names is wrong: \(hex(bytes))")
  }

  @discardableResult
  static func decodeFields(_ bytes: [UInt8], named names: [[UInt8]], mustSucceed: Bool) throws -> [String: Value] {
    do {
      return try bytes.withUnsafeBytes { try DocumentCodec.decodeFields($0, key: key, named: names) }
    } catch {
      try require(!mustSucceed, "decodeFields failed on canonical bytes: \(error); \(hex(bytes))")
      try requireHearthError(error, .dataLoss, from: "DocumentCodec.decodeFields")
      return [:]
    }
  }

  static func requireSame(_ a: StoredDocument, _ b: StoredDocument, _ what: String) throws {
    try require(a.key == b.key, "\(what): keys differ, \(a.key) and \(b.key)")
    try require(
      a.createTime == b.createTime && a.updateTime == b.updateTime,
      "\(what): times differ, \(a.createTime) \(a.updateTime) and \(b.createTime) \(b.updateTime)")
    try require(Value.identicalFields(a.fields, b.fields), "\(what): fields differ, \(a.fields) and \(b.fields)")
  }
}
