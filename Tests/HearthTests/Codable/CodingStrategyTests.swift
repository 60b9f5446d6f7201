import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `Firestore.Encoder` and `Firestore.Decoder`'s strategies (keys, dates, data, NaN and
/// infinities) with Firebase's names, defaults and behaviour, through the database's
/// Codable API, and their errors, which name the document and the field
/// (FirestorePortCodingStrategyTests has Firebase's own cases).
@Suite struct CodingStrategyTests {
  /// The `debugDescription` of a coding error, or "no error".
  private func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "no error"
    } catch EncodingError.invalidValue(_, let context) {
      return context.debugDescription
    } catch let error as DecodingError {
      switch error {
      case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
        .dataCorrupted(let context):
        return context.debugDescription
      @unknown default: return "\(error)"
      }
    } catch {
      return "\(error)"
    }
  }

  struct Profile: Codable, Equatable {
    var displayName: String
    var joinedAt: Date
    var avatarData: Data
    var ratingsByUser: [String: Int]
    var homeAddress: Address?
  }

  struct Address: Codable, Equatable {
    var streetName: String
  }

  static let joined = Date(timeIntervalSince1970: 1_700_000_000)

  // MARK: - Defaults

  @Test func theDefaultsAreFirebasesForFirestore() throws {
    let encoder = Firestore.Encoder()
    guard case .timestamp = encoder.dateEncodingStrategy, case .blob = encoder.dataEncodingStrategy,
      case .useDefaultKeys = encoder.keyEncodingStrategy, case .allow = encoder.nonConformingFloatEncodingStrategy
    else {
      Issue.record("unexpected encoder defaults")
      return
    }
    let decoder = Firestore.Decoder()
    guard case .timestamp = decoder.dateDecodingStrategy, case .blob = decoder.dataDecodingStrategy,
      case .useDefaultKeys = decoder.keyDecodingStrategy, case .throw = decoder.nonConformingFloatDecodingStrategy
    else {
      Issue.record("unexpected decoder defaults")
      return
    }

    let profile = Profile(
      displayName: "Ann", joinedAt: Self.joined, avatarData: Data([1, 2]), ratingsByUser: ["bob": 5],
      homeAddress: Address(streetName: "Main"))
    let encoded = try encoder.encode(profile)
    expectSame(
      encoded,
      [
        "displayName": "Ann", "joinedAt": Timestamp(date: Self.joined), "avatarData": Data([1, 2]),
        "ratingsByUser": ["bob": 5], "homeAddress": ["streetName": "Main"],
      ])
    #expect(try decoder.decode(Profile.self, from: encoded) == profile)
  }

  @Test func aBlobPropertyAlsoReadsABase64String() throws {
    struct Avatar: Decodable { var avatarData: Data }
    #expect(try Firestore.Decoder().decode(Avatar.self, from: ["avatarData": "AQI="]).avatarData == Data([1, 2]))
    #expect(
      message { _ = try Firestore.Decoder().decode(Avatar.self, from: ["avatarData": "not base64!"]) }
        == "Field 'avatarData': expected Data but found a string")
  }

  // MARK: - Through the database

  @Test func everyStrategyThroughTheDatabase() throws {
    try withDatabase { db throws in
      var encoder = Firestore.Encoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      encoder.dateEncodingStrategy = .iso8601
      encoder.dataEncodingStrategy = .base64
      var decoder = Firestore.Decoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      decoder.dateDecodingStrategy = .iso8601
      decoder.dataDecodingStrategy = .base64

      let reference = db.document("profiles/ann")
      let profile = Profile(
        displayName: "Ann", joinedAt: Self.joined, avatarData: Data([0xDE, 0xAD]), ratingsByUser: ["bobSmith_2": 5],
        homeAddress: Address(streetName: "Main"))
      try reference.setData(from: profile, encoder: encoder)
      expectSame(
        try reference.getDocument().data(),
        [
          "display_name": "Ann", "joined_at": "2023-11-14T22:13:20Z", "avatar_data": "3q0=",
          "ratings_by_user": ["bobSmith_2": 5],  // a dictionary's keys are data: kept both ways
          "home_address": ["street_name": "Main"],
        ])
      #expect(try reference.getDocument(as: Profile.self, decoder: decoder) == profile)
      #expect(try reference.getDocument().data(as: Profile.self, decoder: decoder) == profile)

      // The other writes take the encoder too.
      let added = try db.collection("profiles").addDocument(from: profile, encoder: encoder)
      let batch = db.batch()
      try batch.setData(from: profile, forDocument: db.document("profiles/batch"), encoder: encoder)
      try batch.commit()
      try db.runTransaction { transaction in
        try transaction.setData(from: profile, forDocument: db.document("profiles/transaction"), encoder: encoder)
      }
      for path in [added.path, "profiles/batch", "profiles/transaction"] {
        expectSame(try db.document(path).getDocument().data(), try reference.getDocument().data(), path)
      }
      let all = try db.collection("profiles").getDocuments().documents.map {
        try $0.data(as: Profile.self, decoder: decoder).displayName
      }
      #expect(all == ["Ann", "Ann", "Ann", "Ann"])
    }
  }

  @Test func numericDateStrategiesStoreDoubles() throws {
    try withDatabase { db throws in
      struct Event: Codable, Equatable { var at: Date }
      let event = Event(at: Date(timeIntervalSince1970: 1000.5))
      let cases: [(Firestore.Encoder.DateEncodingStrategy, Firestore.Decoder.DateDecodingStrategy, Double)] = [
        (.secondsSince1970, .secondsSince1970, 1000.5), (.millisecondsSince1970, .millisecondsSince1970, 1_000_500),
        (.deferredToDate, .deferredToDate, 1000.5 - 978_307_200),
      ]
      for (encoding, decoding, stored) in cases {
        var encoder = Firestore.Encoder()
        encoder.dateEncodingStrategy = encoding
        var decoder = Firestore.Decoder()
        decoder.dateDecodingStrategy = decoding
        let reference = db.document("events/e")
        try reference.setData(from: event, encoder: encoder)
        expectSame(try reference.getDocument().get("at"), stored)
        #expect(try reference.getDocument(as: Event.self, decoder: decoder) == event)
      }
      // An integer field reads as seconds too.
      var decoder = Firestore.Decoder()
      decoder.dateDecodingStrategy = .secondsSince1970
      try db.document("events/int").setData(["at": 1000])
      #expect(
        try db.document("events/int").getDocument(as: Event.self, decoder: decoder).at.timeIntervalSince1970 == 1000)
    }
  }

  @Test func serverTimestampsAndTimestampsIgnoreTheDateStrategy() throws {
    try withDatabase { db throws in
      struct Post: Codable {
        @ServerTimestamp var createdAt: Date?
        var editedAt: Timestamp
      }
      var encoder = Firestore.Encoder()
      encoder.dateEncodingStrategy = .iso8601
      var decoder = Firestore.Decoder()
      decoder.dateDecodingStrategy = .iso8601
      let reference = db.document("posts/p")
      try reference.setData(from: Post(editedAt: Timestamp(seconds: 5, nanoseconds: 0)), encoder: encoder)
      let stored = try #require(try reference.getDocument().data())
      #expect(stored["createdAt"] is Timestamp, "a server timestamp, as in Firebase")
      let read = try reference.getDocument(as: Post.self, decoder: decoder)
      #expect(read.createdAt == (stored["createdAt"] as? Timestamp)?.dateValue())
      #expect(read.editedAt == Timestamp(seconds: 5, nanoseconds: 0))
    }
  }

  // MARK: - Errors name the document and the field

  @Test func nonConformingFloatsBothWays() throws {
    struct Stats: Codable {
      var ratio: Double
      var spread: [Float]
    }
    try withDatabase { db throws in
      let reference = db.document("stats/s")
      var refusing = Firestore.Encoder()
      refusing.nonConformingFloatEncodingStrategy = .throw
      #expect(
        message { try reference.setData(from: Stats(ratio: .nan, spread: []), encoder: refusing) }
          == "Document stats/s, field 'ratio': Double.nan is refused by nonConformingFloatEncodingStrategy .throw; "
          + ".allow (the default) stores it, as Firestore can, and .convertToString writes a string")
      #expect(
        message { try reference.setData(from: Stats(ratio: 1, spread: [1, -.infinity]), encoder: refusing) }
          .hasPrefix("Document stats/s, field 'spread[1]': -Float.infinity is refused"))
      #expect(try databaseContents(db).isEmpty, "nothing is written")

      var strings = Firestore.Encoder()
      strings.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "NaN")
      try reference.setData(from: Stats(ratio: .nan, spread: [.infinity, 2, -.infinity]), encoder: strings)
      expectSame(try reference.getDocument().data(), ["ratio": "NaN", "spread": ["+∞", 2.0, "-∞"]])

      var reading = Firestore.Decoder()
      reading.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "NaN")
      let read = try reference.getDocument(as: Stats.self, decoder: reading)
      #expect(read.ratio.isNaN && read.spread == [.infinity, 2, -.infinity])
      #expect(
        message { _ = try reference.getDocument(as: Stats.self) }
          == "Document stats/s, field 'ratio': expected Double but found a string", "not without the strategy")
      try reference.updateData(["ratio": "inf"])
      #expect(
        message { _ = try reference.getDocument(as: Stats.self, decoder: reading) }
          == "Document stats/s, field 'ratio': expected Double but found a string")

      // Hearth's default stores them, and stored NaN reads back with either strategy.
      try reference.setData(from: Stats(ratio: .nan, spread: [.infinity]))
      #expect(try reference.getDocument(as: Stats.self, decoder: reading).ratio.isNaN)
      #expect(try reference.getDocument(as: Stats.self).spread == [.infinity])
    }
  }

  @Test func dateStrategyErrors() throws {
    struct Event: Codable { var at: Date }
    try withDatabase { db throws in
      let reference = db.document("events/e")
      try reference.setData(["at": "yesterday"])
      func read(_ strategy: Firestore.Decoder.DateDecodingStrategy) -> String {
        var decoder = Firestore.Decoder()
        decoder.dateDecodingStrategy = strategy
        return message { _ = try reference.getDocument(as: Event.self, decoder: decoder) }
      }
      let formatter = DateFormatter()
      formatter.dateFormat = "yyyy-MM-dd"
      #expect(
        read(.iso8601)
          == "Document events/e, field 'at': 'yesterday' is not an ISO 8601 date such as 2026-11-29T10:00:00Z")
      #expect(
        read(.formatted(formatter))
          == "Document events/e, field 'at': 'yesterday' does not match the format of the decoder's date formatter")
      #expect(
        read(.secondsSince1970)
          == "Document events/e, field 'at': expected Date (seconds since 1970) but found a string")
      #expect(
        read(.millisecondsSince1970)
          == "Document events/e, field 'at': expected Date (milliseconds since 1970) but found a string")
      #expect(read(.deferredToDate) == "Document events/e, field 'at': expected Double but found a string")
      #expect(read(.timestamp) == "Document events/e, field 'at': expected Date but found a string")
      #expect(
        read(
          .custom { decoder in
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no dates today"))
          }) == "Document events/e, field 'at': no dates today")

      try reference.setData(["at": Timestamp(seconds: 1, nanoseconds: 0)])
      #expect(
        read(.iso8601) == "Document events/e, field 'at': expected Date (an ISO 8601 string) but found a timestamp")
      #expect(
        read(.formatted(formatter))
          == "Document events/e, field 'at': expected Date (a formatted date string) but found a timestamp")
      try reference.setData(["at": "2026-11-29"])
      var decoder = Firestore.Decoder()
      decoder.dateDecodingStrategy = .formatted(formatter)
      #expect(try reference.getDocument(as: Event.self, decoder: decoder).at == formatter.date(from: "2026-11-29"))

      // A custom encoding's error comes out as it was thrown, and nothing is written.
      struct Refused: Error, Equatable {}
      var encoder = Firestore.Encoder()
      encoder.dateEncodingStrategy = .custom { _, _ in throw Refused() }
      #expect(throws: Refused()) { try db.document("events/new").setData(from: Event(at: Date()), encoder: encoder) }
      #expect(try !db.document("events/new").getDocument().exists)
    }
  }

  @Test func dataStrategyErrors() throws {
    struct Avatar: Codable { var image: Data }
    try withDatabase { db throws in
      let reference = db.document("avatars/a")
      func read(_ strategy: Firestore.Decoder.DataDecodingStrategy) -> String {
        var decoder = Firestore.Decoder()
        decoder.dataDecodingStrategy = strategy
        return message { _ = try reference.getDocument(as: Avatar.self, decoder: decoder) }
      }
      try reference.setData(["image": "not base64!"])
      #expect(read(.base64) == "Document avatars/a, field 'image': the string is not valid Base64")
      #expect(read(.blob) == "Document avatars/a, field 'image': expected Data but found a string")
      #expect(read(.deferredToData) == "Document avatars/a, field 'image': expected Data (an array) but found a string")
      try reference.setData(["image": Data([1])])
      #expect(read(.base64) == "Document avatars/a, field 'image': expected Data (a Base64 string) but found bytes")
      #expect(read(.blob) == "no error")
      try reference.setData(["image": [1, 300]])
      #expect(read(.deferredToData) == "Document avatars/a, field 'image[1]': 300 does not fit in UInt8")

      var encoder = Firestore.Encoder()
      encoder.dataEncodingStrategy = .deferredToData
      try reference.setData(from: Avatar(image: Data([7, 8])), encoder: encoder)
      expectSame(try reference.getDocument().get("image"), [7, 8])
      #expect(
        read(.custom { decoder in Data(try decoder.singleValueContainer().decode([UInt8].self).reversed()) })
          == "no error")
    }
  }

  @Test func keyStrategyErrorsNameTheModelsKeys() throws {
    struct Person: Codable {
      var firstName: String
      var homeAddress: Address
    }
    var decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    try withDatabase { db throws in
      let reference = db.document("people/p")
      try reference.setData(["FirstName": "Ann", "home_address": ["street_name": 5]])
      #expect(
        message { _ = try reference.getDocument(as: Person.self, decoder: decoder) }
          == "Document people/p: no value for key 'firstName' (Person.firstName), whose field would be 'first_name' "
          + "by keyDecodingStrategy .convertFromSnakeCase")
      try reference.setData(["first_name": "Ann", "home_address": ["street_name": 5]])
      #expect(
        message { _ = try reference.getDocument(as: Person.self, decoder: decoder) }
          == "Document people/p, field 'homeAddress.streetName': expected String but found an integer")

      // A custom strategy sees the coding path down to the field.
      let seen = Box<[[String]]>([])
      var custom = Firestore.Decoder()
      custom.keyDecodingStrategy = .custom { path in
        seen.mutate { $0.append(path.map(\.stringValue)) }
        return ConvertedKeyForTests(SnakeCaseForTests.camel(path.last!.stringValue))
      }
      try reference.setData(["first_name": "Ann", "home_address": ["street_name": "Main"]])
      let person = try reference.getDocument(as: Person.self, decoder: custom)
      #expect(person.homeAddress.streetName == "Main")
      #expect(Set(seen.value) == [["first_name"], ["home_address"], ["homeAddress", "street_name"]])
    }
  }

  @Test func userInfoReachesTheValues() throws {
    struct Tagged: Codable {
      enum CodingKeys: CodingKey { case tag }
      var tag: String
      init(tag: String) { self.tag = tag }
      init(from decoder: any Decoder) throws {
        tag =
          (decoder.userInfo[CodingUserInfoKey(rawValue: "suffix")!] as? String ?? "none")
          + (try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tag))
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
          tag + (encoder.userInfo[CodingUserInfoKey(rawValue: "suffix")!] as? String ?? ""), forKey: .tag)
      }
    }
    var encoder = Firestore.Encoder()
    encoder.userInfo[CodingUserInfoKey(rawValue: "suffix")!] = "!"
    encoder.keyEncodingStrategy = .convertToSnakeCase
    var decoder = Firestore.Decoder()
    decoder.userInfo[CodingUserInfoKey(rawValue: "suffix")!] = ">"
    let encoded = try encoder.encode(Tagged(tag: "a"))
    expectSame(encoded, ["tag": "a!"])
    #expect(try decoder.decode(Tagged.self, from: encoded).tag == ">a!")
  }
}

/// A coding key made by a test's custom key strategy.
private struct ConvertedKeyForTests: CodingKey {
  let stringValue: String
  init(_ stringValue: String) { self.stringValue = stringValue }
  init?(stringValue: String) { self.stringValue = stringValue }
  var intValue: Int? { nil }
  init?(intValue: Int) { nil }
}

/// `first_name` → `firstName`, for a custom strategy.
private enum SnakeCaseForTests {
  static func camel(_ key: String) -> String {
    let words = key.split(separator: "_")
    return ([words.first.map(String.init) ?? ""] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() })
      .joined()
  }
}
