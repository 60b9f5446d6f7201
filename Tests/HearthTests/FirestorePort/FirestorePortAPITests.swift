import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's unit tests of its public API objects, ported case by case with their data and
// expected results unchanged: Firestore/Example/Tests/API (FIRDocumentReferenceTests,
// FIRCollectionReferenceTests, FIRDocumentSnapshotTests, FIRQuerySnapshotTests, FIRFieldPathTests,
// FIRFieldValueTests, FIRGeoPointTests, FIRQueryUnitTests, FIRAggregateQueryUnitTests,
// FIRTransactionOptionsTests, FSTUserDataReaderTests) and FirebaseCore/Tests/Unit/FIRTimestampTest.m.
// Firebase builds its objects with internal test helpers (`FSTTestDocRef`, `FSTTestDocSnapshot`,
// `FSTTestFieldValue`); here they come from a temporary database through the public API: a
// snapshot is a read, a converted value is a value written and read back. Objective-C's
// `isEqual:`/`hash` are Swift's `==`/`hashValue`. Snapshots with pending writes or from a cache
// cannot exist in Hearth (docs/semantics.md), so those variants are left out.

/// Reads back `value` written as the single field of a document, as the user data reader's
/// conversion shows through the public API.
private func writtenAndRead(_ db: Database, _ value: Any) throws -> Any? {
  let doc = db.collection("values").document()
  try doc.setData(["value": value])
  return try doc.getDocument().get("value")
}

/// FSTTestDate: a date from components in the current calendar.
private func testDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Date {
  var components = DateComponents()
  components.year = year
  components.month = month
  components.day = day
  components.hour = hour
  components.minute = minute
  components.second = second
  return Calendar.current.date(from: components)!
}

@Suite("Firestore port: FIRDocumentReferenceTests")
struct FirestorePortDocumentReferenceTests {
  // FIRDocumentReferenceTests.testEquals
  @Test func testEquals() throws {
    try withDatabase { db in
      let referenceFoo = db.document("rooms/foo")
      let referenceFooDup = db.document("rooms/foo")
      let referenceBar = db.document("rooms/bar")
      #expect(referenceFoo == referenceFooDup)
      #expect(referenceFoo != referenceBar)

      #expect(referenceFoo.hashValue == referenceFooDup.hashValue)
      #expect(referenceFoo.hashValue != referenceBar.hashValue)
    }
  }
}

@Suite("Firestore port: FIRCollectionReferenceTests")
struct FirestorePortCollectionReferenceTests {
  // FIRCollectionReferenceTests.testEquals
  @Test func testEquals() throws {
    try withDatabase { db in
      let referenceFoo = db.collection("foo")
      let referenceFooDup = db.collection("foo")
      let referenceBar = db.collection("bar")
      #expect(referenceFoo == referenceFooDup)
      #expect(referenceFoo != referenceBar)

      #expect(referenceFoo.hashValue == referenceFooDup.hashValue)
      #expect(referenceFoo.hashValue != referenceBar.hashValue)
    }
  }
}

@Suite("Firestore port: FIRDocumentSnapshotTests")
struct FirestorePortDocumentSnapshotTests {
  // FIRDocumentSnapshotTests.testEquals
  // (`hasMutations` and `fromCache` snapshots cannot exist in Hearth: left out.)
  @Test func testEquals() throws {
    try withDatabase { db in
      let foo = db.document("rooms/foo")
      let bar = db.document("rooms/bar")
      let nilData = try foo.getDocument()
      let nilDataDup = try foo.getDocument()
      try foo.setData(["a": 1])
      let base = try foo.getDocument()
      let baseDup = try foo.getDocument()
      try bar.setData(["a": 1])
      let differentPath = try bar.getDocument()
      try bar.setData(["b": 1])
      let differentData = try bar.getDocument()
      #expect(base == baseDup)
      #expect(nilData == nilDataDup)
      #expect(base != nilData)
      #expect(nilData != base)
      #expect(base != differentPath)
      #expect(base != differentData)

      #expect(base.hashValue == baseDup.hashValue)
      #expect(nilData.hashValue == nilDataDup.hashValue)
      #expect(base.hashValue != nilData.hashValue)
      #expect(base.hashValue != differentPath.hashValue)
      #expect(base.hashValue != differentData.hashValue)
    }
  }
}

@Suite("Firestore port: FIRQuerySnapshotTests")
struct FirestorePortQuerySnapshotTests {
  // FIRQuerySnapshotTests.testEquals
  // (`noPendingWrites` and `fromCache` variants cannot be told apart in Hearth: left out.)
  @Test func testEquals() throws {
    try withDatabase { db in
      try db.document("foo/a").setData(["a": 1])
      try db.document("bar/a").setData(["a": 1])
      let foo = try db.collection("foo").getDocuments()
      let fooDup = try db.collection("foo").getDocuments()
      let differentPath = try db.collection("bar").getDocuments()
      try db.document("foo/a").setData(["b": 1])
      let differentDoc = try db.collection("foo").getDocuments()
      #expect(foo == fooDup)
      #expect(foo != differentPath)
      #expect(foo != differentDoc)

      #expect(foo.hashValue == fooDup.hashValue)
      #expect(foo.hashValue != differentPath.hashValue)
      #expect(foo.hashValue != differentDoc.hashValue)
    }
  }
}

@Suite("Firestore port: FIRFieldPathTests")
struct FirestorePortFieldPathTests {
  // FIRFieldPathTests.testEquals
  @Test func testEquals() {
    let foo = FieldPath(["foo", "ooo", "oooo"])
    let fooDup = FieldPath(["foo", "ooo", "oooo"])
    let bar = FieldPath(["baa", "aaa", "aaar"])
    #expect(foo == fooDup)
    #expect(foo != bar)

    #expect(foo.hashValue == fooDup.hashValue)
    #expect(foo.hashValue != bar.hashValue)
  }
}

@Suite("Firestore port: FIRFieldValueTests")
struct FirestorePortFieldValueTests {
  // FIRFieldValueTests.testEquals
  @Test func testEquals() {
    let deleted = FieldValue.delete()
    let deleteDup = FieldValue.delete()
    let serverTimestamp = FieldValue.serverTimestamp()
    let serverTimestampDup = FieldValue.serverTimestamp()
    #expect(deleted == deleteDup)
    #expect(serverTimestamp == serverTimestampDup)
    #expect(deleted != serverTimestamp)
    #expect(deleted.hashValue == deleteDup.hashValue)
    #expect(serverTimestamp.hashValue == serverTimestampDup.hashValue)
    #expect(deleted.hashValue != serverTimestamp.hashValue)
  }

  // Beyond Firebase's test: transforms compare their operands exactly.
  @Test func transformsCompareTheirOperands() {
    #expect(FieldValue.increment(Int64(1)) == FieldValue.increment(Int64(1)))
    #expect(FieldValue.increment(Int64(1)) != FieldValue.increment(1.0))
    #expect(FieldValue.arrayUnion([1, "a", ["b": [2]]]) == FieldValue.arrayUnion([1, "a", ["b": [2]]]))
    #expect(FieldValue.arrayUnion([1]) != FieldValue.arrayRemove([1]))
    #expect(FieldValue.arrayRemove([1, 2]) != FieldValue.arrayRemove([2, 1]))
  }
}

@Suite("Firestore port: FIRGeoPointTests")
struct FirestorePortGeoPointTests {
  // FIRGeoPointTests.testEquals
  @Test func testEquals() {
    let foo = GeoPoint(latitude: 1.23, longitude: 4.56)
    let fooDup = GeoPoint(latitude: 1.23, longitude: 4.56)
    let differentLatitude = GeoPoint(latitude: 1.23, longitude: 0)
    let differentLongitude = GeoPoint(latitude: 0, longitude: 4.56)
    #expect(foo == fooDup)
    #expect(foo != differentLatitude)
    #expect(foo != differentLongitude)

    #expect(foo.hashValue == fooDup.hashValue)
    #expect(foo.hashValue != differentLatitude.hashValue)
    #expect(foo.hashValue != differentLongitude.hashValue)
  }

  // FIRGeoPointTests.testComparison
  // (FIRGeoPoint's `compare:` is internal to Firebase; the public API shows the order through
  // `order(by:)`. The points are written under IDs in the reverse order, so that the ID
  // tie-break cannot produce the expected order by itself.)
  @Test func testComparison() throws {
    let values: [GeoPoint] = [
      GeoPoint(latitude: -90, longitude: -180),
      GeoPoint(latitude: -90, longitude: 0),
      GeoPoint(latitude: -90, longitude: 180),
      GeoPoint(latitude: -89, longitude: -180),
      GeoPoint(latitude: -89, longitude: 0),
      GeoPoint(latitude: -89, longitude: 180),
      GeoPoint(latitude: 0, longitude: -180),
      GeoPoint(latitude: 0, longitude: 0),
      GeoPoint(latitude: 0, longitude: 180),
      GeoPoint(latitude: 89, longitude: -180),
      GeoPoint(latitude: 89, longitude: 0),
      GeoPoint(latitude: 89, longitude: 180),
      GeoPoint(latitude: 90, longitude: -180),
      GeoPoint(latitude: 90, longitude: 0),
      GeoPoint(latitude: 90, longitude: 180),
    ]
    try withDatabase { db in
      let collection = db.collection("points")
      for (i, value) in values.enumerated() {
        try collection.document(String(format: "p%02d", values.count - i)).setData(["geo": value])
      }
      let read = try collection.order(by: "geo").getDocuments().documents.map { $0.get("geo") as? GeoPoint }
      #expect(read == values.map { Optional($0) })
      let descending = try collection.order(by: "geo", descending: true).getDocuments().documents.map {
        $0.get("geo") as? GeoPoint
      }
      #expect(descending == values.reversed().map { Optional($0) })
    }
  }
}

@Suite("Firestore port: FIRTimestampTest")
struct FirestorePortTimestampTests {
  // FIRTimestampTest.testFromDate
  @Test func testFromDate() {
    // Use an NSDate such that its fractional seconds have an exact representation to avoid losing
    // precision.
    let input = Date(timeIntervalSinceReferenceDate: 1.5)

    let actual = Timestamp(date: input)
    let kSecondsFromEpochToReferenceDate: Int64 = 978_307_200
    #expect(kSecondsFromEpochToReferenceDate + 1 == actual.seconds)
    #expect(actual.nanoseconds == 500_000_000)

    let expected = Timestamp(seconds: kSecondsFromEpochToReferenceDate + 1, nanoseconds: 500_000_000)
    #expect(actual == expected)
  }

  // FIRTimestampTest.testCompare
  // (Firebase's `compare(_:) -> ComparisonResult` does not compile in Hearth, which spells the
  // same order as Timestamp's Comparable `<` and `>`.)
  @Test func testCompare() {
    let timestamps: [Timestamp] = [
      Timestamp(seconds: 12344, nanoseconds: 999_999_999),
      Timestamp(seconds: 12345, nanoseconds: 0),
      Timestamp(seconds: 12345, nanoseconds: 000_000_001),
      Timestamp(seconds: 12345, nanoseconds: 99_999_999),
      Timestamp(seconds: 12345, nanoseconds: 100_000_000),
      Timestamp(seconds: 12345, nanoseconds: 100_000_001),
      Timestamp(seconds: 12346, nanoseconds: 0),
    ]
    for i in 0..<(timestamps.count - 1) {
      #expect(timestamps[i] < timestamps[i + 1])
      #expect(timestamps[i + 1] > timestamps[i])
    }
  }
}

@Suite("Firestore port: FIRQueryUnitTests")
struct FirestorePortQueryUnitTests {
  // FIRQueryUnitTests.testEquals
  @Test func testEquals() throws {
    try withDatabase { db in
      let queryFoo: Query = db.collection("foo")
      let queryFooDup: Query = db.collection("foo")
      let queryBar: Query = db.collection("bar")
      #expect(queryFoo == queryFooDup)
      #expect(queryFoo != queryBar)
      #expect(queryFoo.whereField("f", isEqualTo: 1) == queryFoo.whereField("f", isEqualTo: 1))
      #expect(queryFoo.whereField("f", isEqualTo: 1) != queryFoo.whereField("f", isEqualTo: 2))

      #expect(queryFoo.hashValue == queryFooDup.hashValue)
      #expect(queryFoo.hashValue != queryBar.hashValue)
      #expect(
        queryFoo.whereField("f", isEqualTo: 1).hashValue == queryFoo.whereField("f", isEqualTo: 1).hashValue)
      #expect(
        queryFoo.whereField("f", isEqualTo: 1).hashValue != queryFoo.whereField("f", isEqualTo: 2).hashValue)
    }
  }

  // FIRQueryUnitTests.testFilteringWithPredicate is left out: Hearth's Query has no
  // `filter(using: NSPredicate)`.
}

@Suite("Firestore port: FIRAggregateQueryUnitTests")
struct FirestorePortAggregateQueryUnitTests {
  // FIRAggregateQueryUnitTests.testEquals
  @Test func testEquals() throws {
    try withDatabase(settings: relaxed) { db in
      let queryFoo = db.collection("foo").count
      let queryFooDup = db.collection("foo").count
      let queryBar = db.collection("bar").count
      #expect(queryFoo == queryFooDup)
      #expect(queryFoo != queryBar)
      #expect(queryFoo.hashValue == queryFooDup.hashValue)
      #expect(queryFoo.hashValue != queryBar.hashValue)
    }
  }
}

// FIRTransactionOptionsTests is ported in Transactions/TransactionOptionsTests.swift
// (testSetMaxAttemptsThrowsOnInvalidValue checks an Objective-C exception, which Swift
// cannot catch: Hearth refuses such options when a transaction runs with them).

@Suite("Firestore port: FSTUserDataReaderTests")
struct FirestorePortUserDataReaderTests {
  // FSTUserDataReaderTests.testConvertsIntegers
  @Test func testConvertsIntegers() throws {
    let values: [Int64] = [
      Int64(Int32.min), -1, 0, 1, 2, Int64(UInt8.max), Int64(Int32.max),  // Standard integers
      Int64(Int.min), Int64(Int.max), Int64.min, Int64.max,  // Larger values
    ]
    try withDatabase { db in
      for value in values {
        expectSame(try writtenAndRead(db, value), value)
        // The same values as Swift's `Int`, as a Swift caller writes them.
        expectSame(try writtenAndRead(db, Int(value)), value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsDoubles
  @Test func testConvertsDoubles() throws {
    // Note 1: 0x1.0p-1074 is a hex floating point literal representing the minimum subnormal
    //        number; see https://en.wikipedia.org/wiki/Denormal_number .
    // Note 2: LLONG_MAX cannot be represented exactly by a double and is rounded up by 1 from
    //         9223372036854775807 to 9223372036854775808.
    let values: [Double] = [
      -Double.infinity, -Double.greatestFiniteMagnitude, Double(Int64.min), -1.1, -0x1.0p-1074, -0.0,
      0.0, 0x1.0p-1074, Double.leastNormalMagnitude, 1.1, Double(Int64.max), Double.greatestFiniteMagnitude,
      Double.infinity,
    ]
    try withDatabase { db in
      for value in values {
        let read = try writtenAndRead(db, value)
        #expect(canonical(read).hasPrefix("double:"), "\(value) reads back as \(canonical(read))")
        #expect(read as? Double == value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsNilAndNSNull
  // (Objective-C's `nil` is Swift's `nil` in an `Any`, which Firebase's Swift bridging turns
  // into NSNull.)
  @Test func testConvertsNilAndNSNull() throws {
    try withDatabase { db in
      let none: Any? = nil
      expectSame(try writtenAndRead(db, none as Any), NSNull())
      expectSame(try writtenAndRead(db, NSNull()), NSNull())
    }
  }

  // FSTUserDataReaderTests.testConvertsBooleans
  @Test func testConvertsBooleans() throws {
    try withDatabase { db in
      for value in [true, false] {
        expectSame(try writtenAndRead(db, value), value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsUnsignedCharToInteger
  @Test func testConvertsUnsignedCharToInteger() throws {
    try withDatabase { db in
      expectSame(try writtenAndRead(db, UInt8(1)), Int64(1))
    }
  }

  // FSTUserDataReaderTests.testConvertsStrings
  @Test func testConvertsStrings() throws {
    try withDatabase { db in
      for value in ["", "abc"] {
        expectSame(try writtenAndRead(db, value), value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsDates
  @Test func testConvertsDates() throws {
    let values = [testDate(1900, 12, 1, 1, 20, 30), testDate(2017, 4, 24, 13, 20, 30)]
    try withDatabase { db in
      for value in values {
        let read = try writtenAndRead(db, value)
        let timestamp = Timestamp(date: value)
        #expect(read is Timestamp, "\(value) reads back as \(type(of: read))")
        #expect((read as? Timestamp)?.nanoseconds == timestamp.nanoseconds)
        #expect((read as? Timestamp)?.seconds == timestamp.seconds)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsGeoPoints
  @Test func testConvertsGeoPoints() throws {
    let values = [GeoPoint(latitude: 1.24, longitude: 4.56), GeoPoint(latitude: -20, longitude: 100)]
    try withDatabase { db in
      for value in values {
        let read = try writtenAndRead(db, value)
        #expect(read is GeoPoint, "\(value) reads back as \(type(of: read))")
        #expect((read as? GeoPoint)?.longitude == value.longitude)
        #expect((read as? GeoPoint)?.latitude == value.latitude)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsBlobs
  @Test func testConvertsBlobs() throws {
    let values = [Data([1, 2, 3]), Data([1, 2])]
    try withDatabase { db in
      for value in values {
        expectSame(try writtenAndRead(db, value), value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsResourceNames
  @Test func testConvertsResourceNames() throws {
    try withDatabase { db in
      let values = [db.document("foo/bar"), db.document("foo/baz")]
      for value in values {
        let read = try writtenAndRead(db, value)
        #expect(read is DocumentReference, "\(value.path) reads back as \(type(of: read))")
        #expect(read as? DocumentReference == value)
      }
    }
  }

  // FSTUserDataReaderTests.testConvertsEmptyObjects
  @Test func testConvertsEmptyObjects() throws {
    try withDatabase { db in
      expectSame(try writtenAndRead(db, [String: Any]()), [String: Any]())
      let doc = db.collection("values").document()
      try doc.setData([:])
      expectSame(try doc.getDocument().data(), [String: Any]())
    }
  }

  // FSTUserDataReaderTests.testConvertsSimpleObjects
  @Test func testConvertsSimpleObjects() throws {
    try withDatabase { db in
      let doc = db.collection("values").document()
      try doc.setData(["a": "foo", "b": 1, "c": true, "d": NSNull()])
      expectSame(try doc.getDocument().data(), ["a": "foo", "b": Int64(1), "c": true, "d": NSNull()])
    }
  }

  // FSTUserDataReaderTests.testConvertsNestedObjects
  @Test func testConvertsNestedObjects() throws {
    try withDatabase { db in
      let doc = db.collection("values").document()
      try doc.setData(["a": ["b": ["c": "foo"], "d": true] as [String: Any]])
      expectSame(
        try doc.getDocument().data(), ["a": ["b": ["c": "foo"], "d": true] as [String: Any]])
    }
  }

  // FSTUserDataReaderTests.testConvertsArrays
  @Test func testConvertsArrays() throws {
    try withDatabase { db in
      let read = try writtenAndRead(db, ["value", true] as [Any])
      expectSame(read, ["value", true] as [Any])
      #expect(read is [Any])
    }
  }

  // FSTUserDataReaderTests.testNSDatesAreConvertedToTimestamps (read back cut to the
  // microsecond, as Firestore stores a timestamp)
  @Test func testNSDatesAreConvertedToTimestamps() throws {
    let date = Date()
    let timestamp = Timestamp(date: date)
    try withDatabase { db in
      let input: [String: Any] = [
        "array": [1, date] as [Any], "obj": ["date": date, "string": "hi"] as [String: Any],
      ]
      let output = try writtenAndRead(db, input) as? [String: Any]
      for found in [(output?["array"] as? [Any])?[1], (output?["obj"] as? [String: Any])?["date"]] {
        let actual = try #require(found as? Timestamp)
        #expect(actual.seconds == timestamp.seconds)
        #expect(actual.nanoseconds == timestamp.nanoseconds / 1000 * 1000)
      }
    }
  }
}
