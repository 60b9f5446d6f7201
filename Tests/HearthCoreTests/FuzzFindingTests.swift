import Foundation
import Testing

@testable import HearthCore

/// What the fuzz targets found in HearthCore (Tools/Fuzz/Regressions/README.md), as unit
/// tests.
@Suite struct FuzzFindingTests {
  @Test(arguments: [Int64.min, .min + 1, .min + 999_999, -9_223_372_036_854_000_001, -1, 0, 1, .max - 1, .max])
  func microsecondsRoundTripAtTheEnds(_ microseconds: Int64) {
    let timestamp = Timestamp(microseconds: microseconds)
    #expect((0..<1_000_000_000).contains(timestamp.nanoseconds))
    #expect(timestamp.microseconds == microseconds)
  }

  @Test func storedTimesAtTheEndsDecode() throws {
    let key = DocumentKey(ResourcePath(["a", "b"]))
    let document = StoredDocument(
      key: key, fields: ["x": .integer(1)], createTime: Timestamp(microseconds: .min),
      updateTime: Timestamp(microseconds: .max))
    let decoded = try DocumentCodec.decode(DocumentCodec.encode(document), key: key)
    #expect(decoded.createTime.microseconds == .min)
    #expect(decoded.updateTime.microseconds == .max)
  }

  @Test func geopointsThatCompareEqualHashAlike() {
    let nan = Value.geoPoint(GeoPoint(latitude: .nan, longitude: 0))
    let otherNaN = Value.geoPoint(GeoPoint(latitude: -Double(nan: 0x3FFFF, signaling: true), longitude: -0.0))
    #expect(nan == otherNaN)
    #expect(nan.hashValue == otherNaN.hashValue)
    #expect(Set([nan, otherNaN]).count == 1)
  }

  @Test(arguments: [
    #"{"$timestamp":"0001-01-01T00:00:00+00:01"}"#, #"{"$timestamp":"9999-12-31T23:59:59-00:01"}"#,
  ])
  func timestampsOutsideTheYearsInUTCAreRefused(_ text: String) {
    #expect(throws: HearthError.self) { try ExtendedJSONCodec.value(fromText: text) }
  }

  @Test func timestampsAtTheEdgesWithOffsetsStillRead() throws {
    let value = try ExtendedJSONCodec.value(fromText: #"{"$timestamp":"0001-01-01T00:01:00+00:01"}"#)
    #expect(value == .timestamp(Timestamp(seconds: -62_135_596_800, nanoseconds: 0)))
  }

  @Test func exportLinesWithTimesOutsideTheYearsAreRefused() {
    let line = #"{"path":"a/b","createTime":"0001-01-01T00:00:00+00:01","fields":{}}"#
    #expect(throws: HearthError.self) { try ExportFormat.document(from: line) }
  }
}
