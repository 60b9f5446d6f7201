import Foundation
import HearthTestSupport
import Testing

@testable import HearthCore

@Suite struct DocumentCodecTests {
  let key = DocumentKey(ResourcePath(["users", "alice"]))

  static let everyValue: [String: Value] = [
    "null": .null, "true": .boolean(true), "false": .boolean(false),
    "min": .integer(.min), "max": .integer(.max), "zero": .integer(0), "negative": .integer(-5),
    "nan": .double(.nan), "negativeZero": .double(-0.0), "infinity": .double(.infinity),
    "minusInfinity": .double(-.infinity), "pi": .double(3.141592653589793),
    "timestamp": .timestamp(Timestamp(seconds: -62_135_596_800, nanoseconds: 999_999_000)),
    "string": .string("héllo \u{0} wörld 😀"), "empty": .string(""),
    "bytes": .bytes(Data([0, 1, 0, 255, 0])), "noBytes": .bytes(Data()),
    "reference": .reference(DocumentKey(ResourcePath(["users", "bob", "posts", "p1"]))),
    "geo": .geoPoint(GeoPoint(latitude: -90, longitude: 180)),
    "array": .array([.integer(1), .string("a"), .map(["x": .array([.null])])]), "emptyArray": .array([]),
    "map": .map(["nested": .map(["deeper": .double(-0.0)]), "a.b": .integer(1), "`tick`": .boolean(false)]),
    "emptyMap": .map([:]),
  ]

  @Test func everyValueRoundTripsBitForBit() throws {
    let document = StoredDocument(
      key: key, fields: Self.everyValue, createTime: Timestamp(seconds: 1, nanoseconds: 2000),
      updateTime: Timestamp(seconds: 1_800_000_000, nanoseconds: 123_456_000))
    let bytes = DocumentCodec.encode(document)
    let decoded = try DocumentCodec.decode(bytes, key: key)
    #expect(Value.identicalFields(decoded.fields, Self.everyValue))
    #expect(decoded.createTime == document.createTime)
    #expect(decoded.updateTime == document.updateTime)
    guard case .double(let negativeZero) = decoded.fields["negativeZero"] else {
      Issue.record("not a double")
      return
    }
    #expect(negativeZero.sign == .minus)
  }

  @Test func encodingIsDeterministic() {
    var shuffled: [String: Value] = [:]
    for (name, value) in Self.everyValue.shuffled() { shuffled[name] = value }
    let time = Timestamp(seconds: 5, nanoseconds: 0)
    let a = DocumentCodec.encode(StoredDocument(key: key, fields: Self.everyValue, createTime: time, updateTime: time))
    let b = DocumentCodec.encode(StoredDocument(key: key, fields: shuffled, createTime: time, updateTime: time))
    #expect(a == b)
  }

  @Test func damagedBytesThrowDataLossNamingTheDocument() throws {
    let valid = DocumentCodec.encode(
      StoredDocument(key: key, fields: Self.everyValue, createTime: Timestamp(), updateTime: Timestamp()))
    for bad in [[], [9], [1], Array(valid.dropLast()), valid + [0], [UInt8](repeating: 0xFF, count: 40)] {
      let error = try #require(throws: HearthError.self) { try DocumentCodec.decode(bad, key: key) }
      #expect(error.code == .dataLoss)
      #expect(error.message.contains("users/alice"))
    }
  }

  /// Every single damaged byte is caught by the checksum before any field is read.
  @Test func everyFlippedByteIsReportedAsDataLoss() throws {
    let valid = DocumentCodec.encode(
      StoredDocument(key: key, fields: Self.everyValue, createTime: Timestamp(), updateTime: Timestamp()))
    for position in valid.indices {
      var damaged = valid
      damaged[position] ^= 0x10
      let error = try #require(throws: HearthError.self) { try DocumentCodec.decode(damaged, key: key) }
      #expect(error.code == .dataLoss)
      #expect(error.message.contains("users/alice"))
    }
  }

  /// `bytes` with a correct checksum, so that the structural decoder itself meets them.
  private func resealed(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count > DocumentCodec.bodyOffset else { return bytes }
    var sealed = bytes
    sealed[0] = DocumentCodec.version
    let sum = DocumentCodec.checksum(of: sealed, from: DocumentCodec.bodyOffset)
    withUnsafeBytes(of: sum.littleEndian) { for index in 0..<4 { sealed[1 + index] = $0[index] } }
    return sealed
  }

  /// Random bytes and random mutations of valid documents, with correct checksums so
  /// that they reach the structural decoder, either decode or throw `dataLoss`: never a
  /// crash, a hang or a huge allocation.
  @Test func garbageNeverCrashes() {
    var generator = SplitMix64(seed: 0x5EED)
    let valid = DocumentCodec.encode(
      StoredDocument(key: key, fields: Self.everyValue, createTime: Timestamp(), updateTime: Timestamp()))
    var decoded = 0
    for round in 0..<20_000 {
      var bytes: [UInt8]
      if round % 2 == 0 {
        bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      } else {
        bytes = valid
        for _ in 0..<(1 + Int(generator.next() % 4)) {
          let position = Int(generator.next() % UInt64(bytes.count))
          bytes[position] = UInt8(truncatingIfNeeded: generator.next())
        }
        if generator.next() % 4 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
      }
      // The projection decode steps over the fields it skips: it must be as careful.
      let names = [Array("array".utf8), Array("string".utf8)]
      if let projected = try? resealed(bytes).withUnsafeBytes({
        try DocumentCodec.decodeFields($0, key: key, named: names)
      }) {
        #expect(projected.count <= 2)
      }
      do {
        _ = try DocumentCodec.decode(resealed(bytes), key: key)
        decoded += 1
      } catch let error as HearthError {
        #expect(error.code == .dataLoss)
      } catch {
        Issue.record("unexpected error \(error)")
      }
    }
    #expect(decoded < 20_000)
  }

  /// A projection decode gives exactly what the full decode gives for the names asked,
  /// whatever subset is asked, including names the document does not have.
  @Test func decodingNamedFieldsMatchesTheFullDecode() throws {
    let bytes = DocumentCodec.encode(
      StoredDocument(key: key, fields: Self.everyValue, createTime: Timestamp(), updateTime: Timestamp()))
    let all = Array(Self.everyValue.keys) + ["absent", "", "zzz", "map.nested"]
    var generator = SplitMix64(seed: 0xF1E1D5)
    for _ in 0..<500 {
      let names = all.filter { _ in generator.next() % 3 == 0 }
      let sorted = names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
      let projected = try bytes.withUnsafeBytes { try DocumentCodec.decodeFields($0, key: key, named: sorted) }
      let expected = Self.everyValue.filter { names.contains($0.key) }
      #expect(Value.identicalFields(projected, expected), "names \(names)")
    }
  }

  @Test func deepCorruptNestingIsRefusedWithoutRecursingForever() throws {
    // A sealed document whose one field "a" holds 10,000 nested one-element arrays.
    var bytes: [UInt8] = [DocumentCodec.version, 0, 0, 0, 0, 0, 0, 1, 1, UInt8(ascii: "a")]
    for _ in 0..<10_000 { bytes += [DocumentCodec.Tag.array.rawValue, 1] }
    bytes.append(DocumentCodec.Tag.null.rawValue)
    let error = try #require(throws: HearthError.self) { try DocumentCodec.decode(resealed(bytes), key: key) }
    #expect(error.code == .dataLoss)
    #expect(error.message.contains("nesting"))
  }
}
