import Foundation

// The strategies of `Database.Decoder`, with the names and behaviour of Firebase's
// `Firestore.Decoder` (from its `FirebaseDataDecoder`, a copy of Foundation's
// `JSONDecoder`), and Firebase's defaults for Firestore: dates from timestamps, data from
// bytes, keys as they are.

extension Database.Decoder {
  /// How a `Date` is read.
  ///
  /// `@unchecked Sendable`: `DateFormatter` is thread-safe (Apple documents it so since
  /// iOS 7 and macOS 10.9), and the decoder only reads it.
  public enum DateDecodingStrategy: @unchecked Sendable {
    /// From a Firestore timestamp: Firebase's default for Firestore, and Hearth's.
    case timestamp
    /// As `Date.init(from:)` reads it: a number of seconds since 2001-01-01.
    case deferredToDate
    /// From a number of seconds since 1970-01-01.
    case secondsSince1970
    /// From a number of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// From an ISO 8601 string, such as `2026-11-29T10:00:00Z`.
    case iso8601
    /// From a string that `formatter` reads.
    case formatted(DateFormatter)
    /// As `decode` reads it from the decoder.
    case custom(@Sendable (any Swift.Decoder) throws -> Date)
  }

  /// How `Data` is read.
  public enum DataDecodingStrategy: Sendable {
    /// As Data's own `init(from:)` reads it: an array of its bytes as integers.
    case deferredToData
    /// From a Base64 string.
    case base64
    /// From Firestore bytes (Firebase's default for Firestore, and Hearth's) or, as in
    /// Firebase, from a Base64 string: what Firebase 10.0 to 10.3 wrote by mistake.
    case blob
    /// As `decode` reads it from the decoder.
    case custom(@Sendable (any Swift.Decoder) throws -> Data)
  }

  /// Whether strings stand for NaN and ±infinity in `Double` and `Float` properties.
  /// Stored NaN and infinities always decode, with either strategy.
  public enum NonConformingFloatDecodingStrategy: Sendable {
    /// A string is never a number (Firebase's default, and Hearth's).
    case `throw`
    /// These strings are the values they name.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How field names are matched to the keys of a type's coding keys. String-keyed
  /// dictionaries keep the data's keys.
  public enum KeyDecodingStrategy: Sendable {
    /// As the type names them.
    case useDefaultKeys
    /// A field `one_two_three` is the key `oneTwoThree`; leading and trailing
    /// underscores stay. When two fields convert to one key, one of them is kept, as in
    /// Firebase.
    case convertFromSnakeCase
    /// A field is the key `convert` gives for the coding path ending with it.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// Everything the decoder is configured with, which each `decode` call hands to its
  /// context.
  struct Strategies: Sendable {
    var date = DateDecodingStrategy.timestamp
    var data = DataDecodingStrategy.blob
    var nonConformingFloat = NonConformingFloatDecodingStrategy.throw
    var key = KeyDecodingStrategy.useDefaultKeys
  }
}
