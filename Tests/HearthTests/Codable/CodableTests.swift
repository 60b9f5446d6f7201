import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Hearth's Codable layer: `Firestore.Encoder`/`Decoder`, the property wrappers and the
/// `from:`/`as:` forms of the document API.
@Suite struct CodableTests {
  // MARK: - Models

  /// The social app's user profile.
  private struct DatabaseUser: Codable, Equatable {
    var dateCreated: Date
    var userId: String
    var username: String
    var email: String?
    var profileImage: String?
    var isPremium: Bool
  }

  private struct Post: Codable, Equatable {
    @DocumentID var id: String?
    var ownerId: String
    var title: String
    var createdAt: Date
    var likes: Int
    var tags: [String]
    var ratings: [String: String]
  }

  private enum Role: String, Codable { case admin, member }
  private enum Priority: Int, Codable {
    case low = 1
    case high = 3
  }

  private struct Address: Codable, Equatable {
    var city: String
    var zip: String?
  }

  private struct Comment: Codable, Equatable {
    var author: String
    var text: String
  }

  /// One property of every kind the encoder treats specially.
  private struct Everything: Codable, Equatable {
    var timestamp: Timestamp
    var point: GeoPoint
    var reference: DocumentReference
    var bytes: Data
    var noBytes: Data
    var url: URL
    var role: Role
    var priority: Priority
    var address: Address
    var comments: [Comment]
    var smallest: Int64
    var largest: Int64
    var tiny: Int8
    var byte: UInt8
    var unsigned: UInt64
    var float: Float
    var double: Double
    var decimal: Decimal
    var flag: Bool
    var byNumber: [Int: String]
    var missing: String?
    @ExplicitNull var explicitlyNull: String?
  }

  private struct Stamped: Codable {
    var text: String
    @ServerTimestamp var sentAt: Date?
    @ServerTimestamp var stamp: Timestamp?
  }

  private struct WithReferenceID: Codable {
    @DocumentID var ref: DocumentReference?
    var name: String
  }

  private struct Person: Codable {
    var name: String
    var age: Int
    var role: Role?
  }

  private struct Discussion: Codable {
    var title: String
    var comments: [Comment]
  }

  private struct Numbers: Codable {
    var int: Int
    var double: Double
    var float: Float
    var tiny: Int8?
  }

  private struct Flagged: Codable { var on: Bool }

  private struct Wrapped: Hashable, Codable, Sendable {
    @DocumentID var id: String?
    @ServerTimestamp var at: Timestamp?
    @ExplicitNull var note: String?
  }

  /// Writes through every kind of container: nested keyed and unkeyed containers, and
  /// super-encoders, keyed and unkeyed.
  private class Base: Codable {
    var baseName: String
    init(baseName: String) { self.baseName = baseName }
  }

  private final class Derived: Base {
    var extra: Int
    var pairs: [(String, Int)]

    init(baseName: String, extra: Int, pairs: [(String, Int)]) {
      self.extra = extra
      self.pairs = pairs
      super.init(baseName: baseName)
    }

    private enum Keys: String, CodingKey { case extra, details, pairs, tail }
    private enum DetailKeys: String, CodingKey { case level }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(extra, forKey: .extra)
      var details = container.nestedContainer(keyedBy: DetailKeys.self, forKey: .details)
      try details.encode(UInt8(7), forKey: .level)
      var pairList = container.nestedUnkeyedContainer(forKey: .pairs)
      for (name, value) in pairs {
        var pair = pairList.nestedContainer(keyedBy: DetailKeys.self)
        try pair.encode(value, forKey: .level)
        var nested = pairList.nestedUnkeyedContainer()
        try nested.encode(name)
      }
      var tail = container.nestedUnkeyedContainer(forKey: .tail)
      try super.encode(to: tail.superEncoder())
      try super.encode(to: container.superEncoder())
    }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      extra = try container.decode(Int.self, forKey: .extra)
      let details = try container.nestedContainer(keyedBy: DetailKeys.self, forKey: .details)
      #expect(try details.decode(UInt8.self, forKey: .level) == 7)
      var pairList = try container.nestedUnkeyedContainer(forKey: .pairs)
      var pairs: [(String, Int)] = []
      while !pairList.isAtEnd {
        let pair = try pairList.nestedContainer(keyedBy: DetailKeys.self)
        var nested = try pairList.nestedUnkeyedContainer()
        pairs.append((try nested.decode(String.self), try pair.decode(Int.self, forKey: .level)))
      }
      self.pairs = pairs
      var tail = try container.nestedUnkeyedContainer(forKey: .tail)
      let tailBase = try Base(from: tail.superDecoder())
      #expect(tailBase.baseName == "b")
      try super.init(from: container.superDecoder())
    }
  }

  // MARK: - Helpers

  /// The `debugDescription` of a `DecodingError`, or of an `EncodingError`.
  private func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(_, let context), DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
      return context.debugDescription
    case EncodingError.invalidValue(_, let context):
      return context.debugDescription
    default:
      return "\(error)"
    }
  }

  /// Collects a callback's value across threads.
  private final class Outcome<T>: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var stored: T?

    func set(_ value: T) {
      lock.withLock { stored = value }
      done.signal()
    }

    func wait() -> T? {
      _ = done.wait(timeout: .now() + 10)
      return lock.withLock { stored }
    }
  }

  private let start = Date(timeIntervalSince1970: 1_780_000_000)

  // MARK: - Realistic models

  @Test func databaseUserRoundTrips() throws {
    try withDatabase { db throws in
      let alice = DatabaseUser(
        dateCreated: start, userId: "alice", username: "Alice", email: "alice@example.com", profileImage: nil,
        isPremium: true)
      let reference = db.collection("users").document("alice")
      try reference.setData(from: alice)

      let stored = try #require(try reference.getDocument().data())
      #expect(stored.count == 5)
      #expect(stored["profileImage"] == nil)  // nil optionals are left out
      #expect(stored["dateCreated"] as? Timestamp == Timestamp(date: start))
      #expect(stored["isPremium"] as? Bool == true)
      #expect(stored["email"] as? String == "alice@example.com")

      #expect(try reference.getDocument(as: DatabaseUser.self) == alice)
      #expect(try reference.getDocument().data(as: DatabaseUser.self) == alice)
    }
  }

  @Test func postRoundTripsWithDocumentID() throws {
    try withDatabase { db throws in
      let posts = db.collection("users/alice/posts")
      var post = Post(
        ownerId: "alice", title: "Hello", createdAt: start, likes: 3, tags: ["swift", "linux"],
        ratings: ["bob": "5", "carol": "4"])
      post.id = "ignored"  // never written
      let reference = try posts.addDocument(from: post)

      let stored = try #require(try reference.getDocument().data())
      #expect(stored["id"] == nil)
      expectSame(stored["likes"], 3)
      #expect(stored["ratings"] as? [String: String] == ["bob": "5", "carol": "4"])

      let read = try reference.getDocument(as: Post.self)
      #expect(read.id == reference.documentID)
      post.id = reference.documentID
      #expect(read == post)

      let all = try posts.getDocuments().documents.map { try $0.data(as: Post.self) }
      #expect(all.map(\.id) == [reference.documentID])
    }
  }

  @Test func documentIDAsReference() throws {
    try withDatabase { db throws in
      let reference = db.document("things/t1")
      try reference.setData(from: WithReferenceID(ref: db.document("elsewhere/x"), name: "one"))
      #expect(try reference.getDocument().data()?.keys.sorted() == ["name"])
      let read = try reference.getDocument(as: WithReferenceID.self)
      #expect(read.ref == reference)
      #expect(read.name == "one")

      // A field named like the @DocumentID property is ignored, as in Firebase.
      try reference.setData(["ref": "not an ID", "name": "two"])
      #expect(try reference.getDocument(as: WithReferenceID.self).ref == reference)

      // Without a reference, Hearth's decoder refuses, as Firebase's does; another decoder
      // (a cache read with JSONDecoder) leaves it nil.
      #expect(throws: DecodingError.self) {
        try Firestore.Decoder().decode(WithReferenceID.self, from: ["name": "three"])
      }
      let cached = try JSONDecoder().decode(WithReferenceID.self, from: Data(#"{"name": "three"}"#.utf8))
      #expect(cached.ref == nil)
      #expect(cached.name == "three")
    }
  }

  // MARK: - Every special type

  @Test func everySpecialTypeRoundTrips() throws {
    try withDatabase { db throws in
      let value = Everything(
        timestamp: Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000),
        point: GeoPoint(latitude: 40.4, longitude: -3.7),
        reference: db.document("users/bob"),
        bytes: Data([0, 1, 2, 255]),
        noBytes: Data(),
        url: URL(string: "https://example.com/a?b=c")!,
        role: .admin, priority: .high,
        address: Address(city: "Madrid", zip: nil),
        comments: [Comment(author: "bob", text: "hi"), Comment(author: "carol", text: "yo")],
        smallest: .min, largest: .max, tiny: -128, byte: 255, unsigned: UInt64(Int64.max),
        float: 1.5, double: 0.1, decimal: Decimal(string: "12.5")!, flag: false,
        byNumber: [1: "one", 20: "twenty"],
        missing: nil, explicitlyNull: nil)
      let reference = db.document("all/one")
      try reference.setData(from: value)

      let stored = try #require(try reference.getDocument().data())
      #expect(stored["timestamp"] as? Timestamp == value.timestamp)
      #expect(stored["point"] as? GeoPoint == value.point)
      #expect(stored["reference"] as? DocumentReference == value.reference)
      #expect(stored["bytes"] as? Data == Data([0, 1, 2, 255]))
      #expect(stored["noBytes"] as? Data == Data())
      #expect(stored["url"] as? String == "https://example.com/a?b=c")
      #expect(stored["role"] as? String == "admin")
      expectSame(stored["priority"], 3)
      #expect((stored["address"] as? [String: Any])?.keys.sorted() == ["city"])
      #expect(((stored["comments"] as? [Any])?[1] as? [String: Any])?["author"] as? String == "carol")
      expectSame(stored["smallest"], Int64.min)
      expectSame(stored["largest"], Int64.max)
      expectSame(stored["unsigned"], Int64.max)
      expectSame(stored["float"], 1.5)
      expectSame(stored["decimal"], 12.5)
      #expect(stored["byNumber"] as? [String: String] == ["1": "one", "20": "twenty"])
      #expect(stored["missing"] == nil)
      #expect(stored["explicitlyNull"] is NSNull)

      #expect(try reference.getDocument(as: Everything.self) == value)
    }
  }

  @Test func datesKeepMicroseconds() throws {
    try withDatabase { db throws in
      struct Event: Codable { var at: Date }
      let date = Date(timeIntervalSince1970: 1_780_000_000.123456)
      let reference = db.document("events/e1")
      try reference.setData(from: Event(at: date))
      let stored = try #require(try reference.getDocument().get("at") as? Timestamp)
      #expect(stored.seconds == 1_780_000_000)
      #expect(abs(Int(stored.nanoseconds) - 123_456_000) <= 1000)
      #expect(stored.nanoseconds % 1000 == 0)  // stored at microsecond precision
      let read = try reference.getDocument(as: Event.self).at
      #expect(abs(read.timeIntervalSince(date)) <= 1e-6)
    }
  }

  @Test func optionalNilIsOmittedButExplicitNullIsWritten() throws {
    struct Profile: Codable, Equatable {
      var name: String?
      @ExplicitNull var bio: String?
    }
    let empty = try Firestore.Encoder().encode(Profile())
    #expect(empty.keys.sorted() == ["bio"])
    #expect(empty["bio"] is NSNull)
    let full = try Firestore.Encoder().encode(Profile(name: "A", bio: "B"))
    #expect(full["bio"] as? String == "B")
    #expect(full["name"] as? String == "A")

    // Null and a missing key both read as nil.
    #expect(try Firestore.Decoder().decode(Profile.self, from: [:]) == Profile())
    #expect(try Firestore.Decoder().decode(Profile.self, from: ["bio": NSNull(), "name": NSNull()]) == Profile())
    #expect(try Firestore.Decoder().decode(Profile.self, from: ["bio": "x"]).bio == "x")
  }

  @Test func nonFiniteDoublesAreStored() throws {
    try withDatabase { db throws in
      struct Measure: Codable {
        var value: Double
        var high: Double
        var low: Float
      }
      let reference = db.document("measures/m")
      try reference.setData(from: Measure(value: .nan, high: .infinity, low: -.infinity))
      let stored = try #require(try reference.getDocument().data())
      #expect((stored["value"] as? Double)?.isNaN == true)
      let read = try reference.getDocument(as: Measure.self)
      #expect(read.value.isNaN)
      #expect(read.high == .infinity)
      #expect(read.low == -.infinity)
    }
  }

  // MARK: - Encoder and Decoder directly

  @Test func encoderProducesStoredTypes() throws {
    struct Sample: Encodable {
      @DocumentID var id: String? = "skipped"
      var int = 42
      var int8: Int8 = -3
      var uint32: UInt32 = 7
      var double = 2.5
      var float: Float = 0.5
      var bool = true
      var text = "hi"
      var date = Date(timeIntervalSince1970: 0)
      var data = Data([1])
      var url = URL(string: "https://example.com")!
      var list = [1, 2]
      var map = ["a": 1]
      var optionalList: [String?] = ["x", nil]
      @ServerTimestamp var at: Date?
      var increment = FieldValue.increment(1)
    }
    let encoded = try Firestore.Encoder().encode(Sample())
    #expect(encoded["id"] == nil)
    #expect(encoded["int"] as? Int64 == 42)
    #expect(encoded["int8"] as? Int64 == -3)
    #expect(encoded["uint32"] as? Int64 == 7)
    #expect(encoded["double"] as? Double == 2.5)
    #expect(encoded["float"] as? Double == 0.5)
    #expect(encoded["bool"] as? Bool == true)
    #expect(encoded["text"] as? String == "hi")
    #expect(encoded["date"] as? Timestamp == Timestamp(seconds: 0, nanoseconds: 0))
    #expect(encoded["data"] as? Data == Data([1]))
    #expect(encoded["url"] as? String == "https://example.com")
    #expect(encoded["list"] as? [Int64] == [1, 2])
    #expect(encoded["map"] as? [String: Int64] == ["a": 1])
    let optionalList = try #require(encoded["optionalList"] as? [Any])
    #expect(optionalList.first as? String == "x")
    #expect(optionalList.last is NSNull)
    #expect(encoded["at"] is FieldValue)
    #expect(encoded["increment"] is FieldValue)
    #expect(encoded.count == 15)
  }

  @Test func topLevelMustBeKeyed() throws {
    let error = #expect(throws: EncodingError.self) { try Firestore.Encoder().encode(5) }
    #expect(describe(try #require(error)).hasPrefix("Top-level Int is not allowed"))
    #expect(throws: EncodingError.self) { try Firestore.Encoder().encode(["a", "b"]) }
    #expect(throws: EncodingError.self) { try Firestore.Encoder().encode(Timestamp()) }
    #expect(try Firestore.Encoder().encode(["a": 1])["a"] as? Int64 == 1)
  }

  @Test func unsignedOverflowThrows() throws {
    struct Counter: Codable { var count: UInt64 }
    let error = #expect(throws: EncodingError.self) { try Firestore.Encoder().encode(Counter(count: .max)) }
    #expect(
      describe(try #require(error)) == "Field 'count': 18446744073709551615 does not fit in Int64; "
        + "Firestore stores integers as signed 64-bit values.")
    struct Counters: Codable { var counts: [UInt] }
    #expect(throws: EncodingError.self) { try Firestore.Encoder().encode(Counters(counts: [1, .max])) }

    try withDatabase { db throws in
      let reference = db.document("counters/c")
      let error = #expect(throws: EncodingError.self) { try reference.setData(from: Counter(count: .max)) }
      #expect(describe(try #require(error)).hasPrefix("Document counters/c, field 'count': 18446744073709551615"))
      #expect(try !reference.getDocument().exists)
    }
  }

  @Test func decoderConvertsNumbersWhenExact() throws {
    let decoder = Firestore.Decoder()
    let fromDoubles = try decoder.decode(
      Numbers.self, from: ["int": 3.0, "double": Int64(2), "float": 1, "tiny": Int64(-5)])
    #expect(fromDoubles.int == 3)
    #expect(fromDoubles.double == 2)
    #expect(fromDoubles.float == 1)
    #expect(fromDoubles.tiny == -5)
    // Numbers as users write them in dictionaries: Int, Float, NSNumber.
    let mixed = try decoder.decode(Numbers.self, from: ["int": NSNumber(value: 9), "double": Float(0.5), "float": 2.5])
    #expect(mixed.int == 9)
    #expect(mixed.double == 0.5)
    #expect(mixed.tiny == nil)

    let fraction = #expect(throws: DecodingError.self) {
      try decoder.decode(Numbers.self, from: ["int": 3.5, "double": 1.0, "float": 1.0])
    }
    #expect(
      describe(try #require(fraction)) == "Field 'int': 3.5 is not a whole number, so it cannot be decoded as Int")
    let tooBig = #expect(throws: DecodingError.self) {
      try decoder.decode(Numbers.self, from: ["int": 1, "double": 1.0, "float": 1.0, "tiny": Int64(300)])
    }
    #expect(describe(try #require(tooBig)) == "Field 'tiny': 300 does not fit in Int8")
    if case .dataCorrupted(let context)? = tooBig {
      #expect(context.codingPath.map(\.stringValue) == ["tiny"])
    } else {
      Issue.record("expected dataCorrupted, got \(String(describing: tooBig))")
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Numbers.self, from: ["int": 1e30, "double": 1.0, "float": 1.0])
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Numbers.self, from: ["int": 1, "double": 1.0, "float": 1e300])
    }

    // Bool only from booleans.
    #expect(try decoder.decode(Flagged.self, from: ["on": true]).on)
    let notBool = #expect(throws: DecodingError.self) { try decoder.decode(Flagged.self, from: ["on": Int64(1)]) }
    #expect(describe(try #require(notBool)) == "Field 'on': expected Bool but found an integer")
  }

  @Test func encodingWorksThroughEveryContainer() throws {
    let value = Derived(baseName: "b", extra: 5, pairs: [("x", 1), ("y", 2)])
    let encoded = try Firestore.Encoder().encode(value)
    #expect(encoded["extra"] as? Int64 == 5)
    #expect((encoded["details"] as? [String: Any])?["level"] as? Int64 == 7)
    let pairs = try #require(encoded["pairs"] as? [Any])
    #expect(pairs.count == 4)
    #expect((pairs[0] as? [String: Any])?["level"] as? Int64 == 1)
    #expect(pairs[1] as? [String] == ["x"])
    #expect((encoded["super"] as? [String: Any])?["baseName"] as? String == "b")
    #expect(((encoded["tail"] as? [Any])?.first as? [String: Any])?["baseName"] as? String == "b")

    let decoded = try Firestore.Decoder().decode(Derived.self, from: encoded)
    #expect(decoded.baseName == "b")
    #expect(decoded.extra == 5)
    #expect(decoded.pairs.map(\.0) == ["x", "y"])
    #expect(decoded.pairs.map(\.1) == [1, 2])
  }

  @Test func dictionariesWithIntKeysUseStringKeys() throws {
    struct Scores: Codable, Equatable { var byLevel: [Int: Double] }
    let encoded = try Firestore.Encoder().encode(Scores(byLevel: [1: 0.5, 2: 1]))
    #expect(encoded["byLevel"] as? [String: Double] == ["1": 0.5, "2": 1])
    #expect(try Firestore.Decoder().decode(Scores.self, from: encoded) == Scores(byLevel: [1: 0.5, 2: 1]))
    // A top-level dictionary is a document too.
    #expect(try Firestore.Decoder().decode([String: Int].self, from: ["a": Int64(1)]) == ["a": 1])
  }

  // MARK: - Property wrappers

  @Test func serverTimestampBecomesCommitTime() throws {
    try withDatabase { db throws in
      let reference = db.collection("rooms/r1/messages").document("m1")
      try reference.setData(from: Stamped(text: "hi"))
      let snapshot = try reference.getDocument()
      let stamp = try #require(snapshot.get("stamp") as? Timestamp)
      #expect(stamp == snapshot.updateTime?.truncatedToMilliseconds)
      #expect(snapshot.get("sentAt") as? Timestamp == snapshot.updateTime?.truncatedToMilliseconds)

      let read = try snapshot.data(as: Stamped.self)
      #expect(read.stamp == snapshot.updateTime?.truncatedToMilliseconds)
      let sentAt = try #require(read.sentAt)
      #expect(abs(sentAt.timeIntervalSince(stamp.dateValue())) < 1e-6)

      // A value is written as it is.
      let fixed = Timestamp(seconds: 100, nanoseconds: 5000)
      try reference.setData(from: Stamped(text: "x", sentAt: start, stamp: fixed))
      let again = try reference.getDocument(as: Stamped.self)
      #expect(again.stamp == fixed)
      #expect(again.sentAt == start)
    }
  }

  @Test func missingServerTimestampDecodesAsNil() throws {
    try withDatabase { db throws in
      let reference = db.document("rooms/r1/messages/old")
      try reference.setData(["text": "written before sentAt existed", "stamp": NSNull()])
      let read = try reference.getDocument(as: Stamped.self)
      #expect(read.text == "written before sentAt existed")
      #expect(read.sentAt == nil)
      #expect(read.stamp == nil)
    }
  }

  @Test func propertyWrappersWorkWithOtherCoders() throws {
    // The KeyedEncodingContainer/KeyedDecodingContainer overloads serve JSON too.
    let json = try JSONEncoder().encode(WithReferenceID(ref: nil, name: "n"))
    #expect(String(decoding: json, as: UTF8.self) == #"{"name":"n"}"#)
    let decoded = try JSONDecoder().decode(WithReferenceID.self, from: Data(#"{"name":"n"}"#.utf8))
    #expect(decoded.ref == nil)

    struct Note: Codable {
      @ServerTimestamp var at: Timestamp?
      @ExplicitNull var text: String?
    }
    let note = try JSONDecoder().decode(Note.self, from: Data("{}".utf8))
    #expect(note.at == nil)
    #expect(note.text == nil)
    // A server timestamp cannot be written outside Hearth.
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(Note()) }
    try withDatabase { db throws in
      #expect(throws: EncodingError.self) { try JSONEncoder().encode(["ref": db.document("a/b")]) }
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode([DocumentReference].self, from: Data(#"["a/b"]"#.utf8))
      }
    }
  }

  @Test func referencesDecodeThroughTheirOwnInit() throws {
    struct Link: Decodable {
      var target: DocumentReference
      enum Keys: CodingKey { case target }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        target = try DocumentReference(from: container.superDecoder(forKey: .target))
      }
    }
    try withDatabase { db throws in
      let target = db.document("a/b")
      #expect(try Firestore.Decoder().decode(Link.self, from: ["target": target]).target == target)
      let error = #expect(throws: DecodingError.self) {
        try Firestore.Decoder().decode(Link.self, from: ["target": "a/b"], in: db.document("links/l"))
      }
      #expect(
        describe(try #require(error))
          == "Document links/l, field 'target': expected DocumentReference but found a string")
    }
  }

  @Test func storedReferencesBelongToTheReadingDatabase() throws {
    struct Link: Decodable {
      var target: DocumentReference
      var targets: [DocumentReference]
      var byName: [String: DocumentReference]
    }
    struct Mistyped: Decodable { var target: String }
    try withDatabase { db throws in
      let reference = db.document("links/l")
      try reference.setData([
        "target": db.document("a/b"), "targets": [db.document("c/d")], "byName": ["e": db.document("e/f")],
      ])
      let link = try reference.getDocument(as: Link.self)
      #expect(link.target.firestore === db)
      #expect(link.target.path == "a/b")
      #expect(link.targets.map(\.path) == ["c/d"])
      #expect(link.byName["e"]?.path == "e/f")
      let error = #expect(throws: DecodingError.self) { try reference.getDocument(as: Mistyped.self) }
      #expect(
        describe(try #require(error))
          == "Document links/l, field 'target': expected String but found a document reference")
    }
  }

  /// `Firestore.Decoder` reads a dictionary's values as it always did, even those that no
  /// stored document holds.
  @Test func dictionaryValuesDecodeAsTheyCame() throws {
    struct Holder: Decodable {
      var target: DocumentReference
      var invalid: DocumentReference
      var amount: Decimal
      var roughly: Double
      var big: UInt64
      var name: String
      var count: Int
      var at: Date
    }
    let decoder = Firestore.Decoder()
    func message(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "no error"
      } catch {
        return describe(error)
      }
    }
    try withDatabase { db throws in
      try withDatabase { other in
        let target = other.document("a/b")
        let invalid = db.document("odd")
        let exact = Decimal(string: "0.1")!
        let date = Date(timeIntervalSince1970: 1_000.000_000_1)
        let read = try decoder.decode(
          Holder.self,
          from: [
            "target": target, "invalid": invalid, "amount": exact, "roughly": Decimal(string: "2.5")!,
            "big": UInt64.max, "name": Optional("n") as Any, "count": NSNumber(value: Int8(7)), "at": date,
            "unused": FieldValue.serverTimestamp(), "nothing": String?.none as Any, "set": Set([1]),
          ],
          in: db.document("h/1"))
        #expect(read.target === target)  // the very reference, with its own database
        #expect(read.invalid === invalid)
        #expect(read.amount == exact)
        #expect(read.roughly == 2.5)
        #expect(read.big == .max)
        #expect(read.name == "n")
        #expect(read.count == 7)
        #expect(read.at == Timestamp(date: date).dateValue())

        struct Signed: Decodable { var n: Int64 }
        #expect(
          message { _ = try decoder.decode(Signed.self, from: ["n": UInt64.max]) }
            == "Field 'n': 18446744073709551615 does not fit in Int64")
        struct Text: Decodable { var text: String }
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": FieldValue.increment(1)]) }
            == "Field 'text': expected String but found a value of type FieldValue")
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": target]) }
            == "Field 'text': expected String but found a document reference")
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": exact]) }
            == "Field 'text': expected String but found a double")
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": UInt64.max]) }
            == "Field 'text': expected String but found an integer")
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": String?.none as Any]) }
            == "Field 'text': expected String but found a value of type Optional<String>")
        #expect(
          message { _ = try decoder.decode(Text.self, from: ["text": NSNumber(value: true)]) }
            == "Field 'text': expected String but found a boolean")
      }
    }
  }

  @Test func wrappersAreHashableAndSendable() {
    let a = Wrapped(id: "x", at: Timestamp(seconds: 1, nanoseconds: 0), note: nil)
    let b = Wrapped(id: "x", at: Timestamp(seconds: 1, nanoseconds: 0), note: nil)
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    let sendable: any Sendable = a
    #expect(sendable is Wrapped)
  }

  // MARK: - Errors

  @Test func missingKeyNamesDocumentAndKey() throws {
    try withDatabase { db throws in
      let reference = db.document("users/alice")
      try reference.setData(["dateCreated": Timestamp(date: start), "userId": "alice", "isPremium": false])
      let error = #expect(throws: DecodingError.self) { try reference.getDocument(as: DatabaseUser.self) }
      guard case .keyNotFound(let key, let context)? = error else {
        Issue.record("expected keyNotFound, got \(String(describing: error))")
        return
      }
      #expect(key.stringValue == "username")
      #expect(context.debugDescription == "Document users/alice: no value for key 'username' (DatabaseUser.username)")

      // Deeper: the whole path, with array indexes.
      let thread = db.document("threads/t1")
      try thread.setData(["title": "T", "comments": [["author": "a", "text": "x"], ["text": "y"]]])
      let nested = #expect(throws: DecodingError.self) { try thread.getDocument(as: Discussion.self) }
      #expect(
        describe(try #require(nested))
          == "Document threads/t1: no value for key 'author' (Discussion.comments[1].author)")

      // An optional model names the model.
      let optional = #expect(throws: DecodingError.self) { try reference.getDocument(as: DatabaseUser?.self) }
      #expect(describe(try #require(optional)).hasSuffix("(DatabaseUser.username)"))

      // Without a reference, the same without the document.
      let plain = #expect(throws: DecodingError.self) {
        try Firestore.Decoder().decode(DatabaseUser.self, from: ["userId": "x"])
      }
      #expect(describe(try #require(plain)).hasPrefix("No value for key '"))
    }
  }

  @Test func typeMismatchNamesFieldAndTypes() throws {
    try withDatabase { db throws in
      let reference = db.document("users/alice")
      try reference.setData(["name": "Alice", "age": "thirty"])
      let error = #expect(throws: DecodingError.self) { try reference.getDocument(as: Person.self) }
      guard case .typeMismatch(let type, let context)? = error else {
        Issue.record("expected typeMismatch, got \(String(describing: error))")
        return
      }
      #expect(type is Int.Type)
      #expect(context.debugDescription == "Document users/alice, field 'age': expected Int but found a string")
      #expect(context.codingPath.map(\.stringValue) == ["age"])

      try reference.setData(["name": "Alice", "age": NSNull()])
      let null = #expect(throws: DecodingError.self) { try reference.getDocument(as: Person.self) }
      guard case .valueNotFound(_, let nullContext)? = null else {
        Issue.record("expected valueNotFound, got \(String(describing: null))")
        return
      }
      #expect(nullContext.debugDescription == "Document users/alice, field 'age': expected Int but found null")

      let thread = db.document("threads/t2")
      try thread.setData(["title": "T", "comments": [["author": "a", "text": "x"], "oops"]])
      let shape = #expect(throws: DecodingError.self) { try thread.getDocument(as: Discussion.self) }
      #expect(
        describe(try #require(shape))
          == "Document threads/t2, field 'comments[1]': expected Comment (a map) but found a string")

      // Errors from a type's own init(from:) get the document and field too.
      try reference.setData(["name": "Alice", "age": 30, "role": "owner"])
      let rawValue = #expect(throws: DecodingError.self) { try reference.getDocument(as: Person.self) }
      #expect(describe(try #require(rawValue)).hasPrefix("Document users/alice, field 'role': Cannot initialize Role"))
    }
  }

  /// Arrays and string-keyed dictionaries are decoded by Hearth itself (not through
  /// their `init(from:)`): their errors, coding paths and values must be the ones those
  /// `init(from:)`s gave.
  @Test func collectionErrorsNameTheElement() throws {
    struct Lists: Codable {
      var tags: [String]
      var ratings: [String: String]
    }
    let decoder = Firestore.Decoder()
    func failure(_ data: [String: Any]) -> DecodingError? {
      #expect(throws: DecodingError.self) { try decoder.decode(Lists.self, from: data) }
    }

    let element = try #require(failure(["tags": ["a", Int64(1)], "ratings": [String: Any]()]))
    #expect(describe(element) == "Field 'tags[1]': expected String but found an integer")
    guard case .typeMismatch(let type, let context) = element else {
      Issue.record("expected typeMismatch, got \(element)")
      return
    }
    #expect(type is String.Type)
    #expect(context.codingPath.map(\.stringValue) == ["tags", "Index 1"])
    #expect(context.codingPath.last?.intValue == 1)

    let nullElement = try #require(failure(["tags": ["a", NSNull()], "ratings": [String: Any]()]))
    #expect(describe(nullElement) == "Field 'tags[1]': expected String but found null")
    if case .valueNotFound = nullElement {} else { Issue.record("expected valueNotFound, got \(nullElement)") }

    let notArray = try #require(failure(["tags": "a", "ratings": [String: Any]()]))
    #expect(describe(notArray) == "Field 'tags': expected Array<String> (an array) but found a string")

    let value = try #require(failure(["tags": [String](), "ratings": ["12": Int64(5)]]))
    #expect(describe(value) == "Field 'ratings.12': expected String but found an integer")
    guard case .typeMismatch(_, let valueContext) = value else {
      Issue.record("expected typeMismatch, got \(value)")
      return
    }
    #expect(valueContext.codingPath.map(\.stringValue) == ["ratings", "12"])
    #expect(valueContext.codingPath.last?.intValue == 12)

    let notMap = try #require(failure(["tags": [String](), "ratings": ["x"]]))
    #expect(describe(notMap) == "Field 'ratings': expected Dictionary<String, String> (a map) but found an array")

    // With a document, and deeper: a dictionary of arrays of models.
    struct Shelf: Codable { var sections: [String: [Comment]] }
    let deep = #expect(throws: DecodingError.self) {
      try withDatabase { db throws in
        _ = try decoder.decode(
          Shelf.self, from: ["sections": ["new": [["author": "a", "text": "x"], ["author": "b"]]]],
          in: db.document("shelves/s1"))
      }
    }
    #expect(
      describe(try #require(deep))
        == "Document shelves/s1: no value for key 'text' (Shelf.sections.new[1].text)")
  }

  @Test func collectionsDecodeLikeTheirOwnInit() throws {
    struct Optionals: Codable, Equatable {
      var map: [String: String?]
      var list: [Int?]
    }
    let read = try Firestore.Decoder().decode(
      Optionals.self, from: ["map": ["a": NSNull(), "b": "x"], "list": [Int64(1), NSNull(), 3.0]])
    #expect(read.map.count == 2)  // a null value is kept as a nil entry
    #expect(read.map == ["a": nil, "b": "x"])
    #expect(read.list == [1, nil, 3])

    // Collections of collections, sets, and dictionaries with other keys.
    struct Nested: Codable, Equatable {
      var grid: [[Double]]
      var index: [String: [String: Int]]
      var unique: Set<String>
      var byNumber: [Int: Bool]
    }
    let nested = try Firestore.Decoder().decode(
      Nested.self,
      from: [
        "grid": [[1.5, Int64(2)], [Double]()], "index": ["a": ["x": Int64(1)], "b": [String: Any]()],
        "unique": ["p", "q", "p"], "byNumber": ["7": true],
      ])
    #expect(
      nested
        == Nested(grid: [[1.5, 2], []], index: ["a": ["x": 1], "b": [:]], unique: ["p", "q"], byNumber: [7: true]))

    // A value's own init(from:) sees the path and userInfo it always did.
    struct Probe: Decodable {
      var path: [String]
      var info: String?
      var reference: DocumentReference?
      init(from decoder: any Decoder) throws {
        path = decoder.codingPath.map(\.stringValue)
        info = decoder.userInfo[CodingUserInfoKey(rawValue: "note")!] as? String
        reference = decoder.userInfo[CodingUserInfoKey(rawValue: "HearthDocumentReference")!] as? DocumentReference
      }
    }
    struct Probes: Decodable { var byName: [String: [Probe]] }
    var decoder = Firestore.Decoder()
    decoder.userInfo[CodingUserInfoKey(rawValue: "note")!] = "hello"
    try withDatabase { db throws in
      let probes = try decoder.decode(Probes.self, from: ["byName": ["k": [1, 2]]], in: db.document("p/1"))
      let probe = try #require(probes.byName["k"]?.last)
      #expect(probe.path == ["byName", "k", "Index 1"])
      #expect(probe.info == "hello")
      #expect(probe.reference == db.document("p/1"))
    }
  }

  @Test func conversionsAreTheSameInEveryPosition() throws {
    // A value decodes the same as a property, through a generic property, and as an
    // element of an array or a dictionary: the same conversions and the same errors.
    struct Generic<T: Codable>: Codable { var value: T }
    struct Lists: Codable {
      var small: [Int8]
      var floats: [String: Float]
      var dates: [String: Date]
      var points: [GeoPoint]
    }
    let decoder = Firestore.Decoder()
    func message(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "no error"
      } catch {
        return describe(error)
      }
    }
    #expect(try decoder.decode(Generic<Int>.self, from: ["value": 2.0]).value == 2)
    #expect(try decoder.decode(Generic<Float>.self, from: ["value": Int64(3)]).value == 3)
    #expect(try decoder.decode(Generic<[UInt8]>.self, from: ["value": [Int64(1), 2.0]]).value == [1, 2])
    #expect(
      message { _ = try decoder.decode(Generic<Int>.self, from: ["value": "x"]) }
        == "Field 'value': expected Int but found a string")
    #expect(
      message { _ = try decoder.decode(Generic<Float>.self, from: ["value": "x"]) }
        == "Field 'value': expected Double but found a string")
    #expect(
      message { _ = try decoder.decode(Generic<Bool>.self, from: ["value": NSNull()]) }
        == "Field 'value': expected Bool but found null")
    #expect(
      message { _ = try decoder.decode(Generic<Date>.self, from: ["value": Int64(1)]) }
        == "Field 'value': expected Date but found an integer")

    let date = Date(timeIntervalSince1970: 1_000)
    let lists = try decoder.decode(
      Lists.self,
      from: [
        "small": [Int64(-1), 2.0], "floats": ["a": 0.5, "b": Int64(2)], "dates": ["d": Timestamp(date: date)],
        "points": [GeoPoint(latitude: 1, longitude: 2)],
      ])
    #expect(lists.small == [-1, 2])
    #expect(lists.floats == ["a": 0.5, "b": 2])
    #expect(lists.dates == ["d": date])
    #expect(lists.points == [GeoPoint(latitude: 1, longitude: 2)])

    let valid: [String: Any] = [
      "small": [Int64](), "floats": [String: Any](), "dates": [String: Any](), "points": [Any](),
    ]
    func failure(_ field: String, _ value: Any) -> String {
      var data = valid
      data[field] = value
      return message { _ = try decoder.decode(Lists.self, from: data) }
    }
    #expect(failure("small", [Int64(1), Int64(300)]) == "Field 'small[1]': 300 does not fit in Int8")
    #expect(failure("small", [1.5]) == "Field 'small[0]': 1.5 is not a whole number, so it cannot be decoded as Int8")
    #expect(
      failure("floats", ["a": 1.0, "b": 2.0, "c": "x", "d": 4.0, "e": 5.0])
        == "Field 'floats.c': expected Double but found a string")
    #expect(failure("floats", ["big": 1e300]) == "Field 'floats.big': 1e+300 does not fit in Float")
    #expect(failure("dates", ["d": "2024"]) == "Field 'dates.d': expected Date but found a string")
    #expect(
      failure("points", [GeoPoint(latitude: 1, longitude: 2), [1.0, 2.0]])
        == "Field 'points[1]': expected GeoPoint but found an array")
  }

  @Test func optionalFieldsReadMissingNullAndValues() throws {
    struct Contact: Codable, Equatable {
      var email: String?
      var age: Int?
      var score: Double?
      var vip: Bool?
      var tags: [String]?
    }
    let decoder = Firestore.Decoder()
    #expect(try decoder.decode(Contact.self, from: [:]) == Contact())
    #expect(
      try decoder.decode(Contact.self, from: ["email": NSNull(), "age": NSNull(), "tags": NSNull()]) == Contact())
    #expect(
      try decoder.decode(
        Contact.self, from: ["email": "e", "age": Int64(3), "score": Int64(2), "vip": true, "tags": ["t"]])
        == Contact(email: "e", age: 3, score: 2, vip: true, tags: ["t"]))
    let wrong = #expect(throws: DecodingError.self) { try decoder.decode(Contact.self, from: ["email": Int64(1)]) }
    #expect(describe(try #require(wrong)) == "Field 'email': expected String but found an integer")
    let notList = #expect(throws: DecodingError.self) { try decoder.decode(Contact.self, from: ["tags": "t"]) }
    #expect(describe(try #require(notList)) == "Field 'tags': expected Array<String> (an array) but found a string")
    let fraction = #expect(throws: DecodingError.self) { try decoder.decode(Contact.self, from: ["age": 2.5]) }
    #expect(
      describe(try #require(fraction)) == "Field 'age': 2.5 is not a whole number, so it cannot be decoded as Int")
  }

  @Test func missingDocumentIsNamed() throws {
    try withDatabase { db throws in
      let reference = db.document("users/nobody")
      let error = #expect(throws: DecodingError.self) { try reference.getDocument(as: DatabaseUser.self) }
      guard case .valueNotFound(_, let context)? = error else {
        Issue.record("expected valueNotFound, got \(String(describing: error))")
        return
      }
      #expect(context.debugDescription.hasPrefix("Document users/nobody does not exist"))
      // As in Firebase, an optional type reads a missing document as nil.
      #expect(try reference.getDocument(as: DatabaseUser?.self) == nil)
    }
  }

  // MARK: - Batches, transactions, merges

  @Test func batchAndTransactionWriteEncodables() throws {
    try withDatabase { db throws in
      let alice = db.document("users/alice")
      let bob = db.document("users/bob")
      let user = DatabaseUser(
        dateCreated: start, userId: "alice", username: "Alice", email: nil, profileImage: nil, isPremium: false)
      let batch = db.batch()
      try batch.setData(from: user, forDocument: alice)
      try batch.setData(from: Person(name: "Bob", age: 40), forDocument: bob, merge: true)
      // An encoding error is thrown at once and leaves the batch usable.
      struct Bad: Codable { var n: UInt64 }
      #expect(throws: EncodingError.self) { try batch.setData(from: Bad(n: .max), forDocument: bob) }
      try batch.commit()
      #expect(try alice.getDocument(as: DatabaseUser.self) == user)
      #expect(try bob.getDocument(as: Person.self).age == 40)

      try db.runTransaction { transaction in
        var read = try transaction.getDocument(alice).data(as: DatabaseUser.self)
        read.isPremium = true
        try transaction.setData(from: read, forDocument: alice)
        try transaction.setData(from: ["age": 41], forDocument: bob, merge: true)
      }
      #expect(try alice.getDocument(as: DatabaseUser.self).isPremium)
      let bobData = try #require(try bob.getDocument().data())
      expectSame(bobData["age"], 41)
      #expect(bobData["name"] as? String == "Bob")
    }
  }

  @Test func mergeKeepsOtherFields() throws {
    try withDatabase { db throws in
      let reference = db.document("users/carol")
      try reference.setData(["name": "Carol", "age": 20, "city": "Lyon"])
      struct AgeOnly: Codable {
        var age: Int
        var city: String
      }
      try reference.setData(from: AgeOnly(age: 21, city: "Paris"), merge: true)
      var data = try #require(try reference.getDocument().data())
      #expect(data["name"] as? String == "Carol")
      expectSame(data["age"], 21)
      try reference.setData(from: AgeOnly(age: 99, city: "Nice"), mergeFields: ["city"])
      data = try #require(try reference.getDocument().data())
      expectSame(data["age"], 21)
      #expect(data["city"] as? String == "Nice")

      // Sentinels in a model: an increment merged in.
      struct Like: Encodable { var likes = FieldValue.increment(2) }
      try reference.setData(from: Like(), merge: true)
      expectSame(try reference.getDocument().get("likes"), 2)
    }
  }

  // MARK: - Completion and async forms

  @Test func completionForms() throws {
    try withDatabase { db throws in
      let user = DatabaseUser(
        dateCreated: start, userId: "dave", username: "Dave", email: nil, profileImage: nil, isPremium: false)
      let reference = db.document("users/dave")

      let written = Outcome<String>()
      try reference.setData(from: user, completion: { error in written.set(error.map { "\($0)" } ?? "ok") })
      #expect(written.wait() == "ok")

      let read = Outcome<String>()
      reference.getDocument(as: DatabaseUser.self) { result in
        read.set((try? result.get())?.username ?? "failed")
      }
      #expect(read.wait() == "Dave")

      let missing = Outcome<String>()
      db.document("users/nobody").getDocument(as: DatabaseUser.self) { result in
        if case .failure(let error) = result { missing.set(describe(error)) } else { missing.set("succeeded") }
      }
      #expect(missing.wait()?.hasPrefix("Document users/nobody does not exist") == true)

      let added = Outcome<String>()
      let newReference = try db.collection("users").addDocument(from: user) { error in
        added.set(error.map { "\($0)" } ?? "ok")
      }
      #expect(added.wait() == "ok")
      #expect(try newReference.getDocument(as: DatabaseUser.self) == user)

      let merged = Outcome<String>()
      try reference.setData(from: ["isPremium": true], mergeFields: ["isPremium"]) { error in
        merged.set(error.map { "\($0)" } ?? "ok")
      }
      #expect(merged.wait() == "ok")
      #expect(try reference.getDocument(as: DatabaseUser.self).isPremium)
    }
  }

  @Test func asyncCallers() async throws {
    try await withDatabase { db in
      let user = DatabaseUser(
        dateCreated: start, userId: "erin", username: "Erin", email: "e@example.com", profileImage: nil, isPremium: true
      )
      let reference = db.document("users/erin")
      // The Codable writes are synchronous, so this reads the same in async code.
      try reference.setData(from: user)
      try reference.setData(from: user, merge: true)
      let added = try db.collection("users").addDocument(from: user)
      let read = try await reference.getDocument(as: DatabaseUser.self)
      #expect(read == user)
      #expect(try await added.getDocument(as: DatabaseUser.self) == user)
    }
  }
}
