import Foundation

// The strategies of `Database.Encoder`, with the names and behaviour of Firebase's
// `Firestore.Encoder` (which takes them from its `FirebaseDataEncoder`, a copy of
// Foundation's `JSONEncoder`). Firebase's defaults for Firestore apply: dates as
// timestamps, data as bytes, keys as they are. Closures are `@Sendable`, because the
// encoder is a `Sendable` value that may be shared between tasks.

extension Database.Encoder {
  /// How a `Date` is written.
  ///
  /// `@unchecked Sendable`: `DateFormatter` is thread-safe (Apple documents it so since
  /// iOS 7 and macOS 10.9), and the encoder only reads it.
  public enum DateEncodingStrategy: @unchecked Sendable {
    /// As a Firestore timestamp: Firebase's default for Firestore, and Hearth's.
    case timestamp
    /// As `Date.encode(to:)` writes it: a double of seconds since 2001-01-01.
    case deferredToDate
    /// As a double of seconds since 1970-01-01.
    case secondsSince1970
    /// As a double of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// As an ISO 8601 string, such as `2026-11-29T10:00:00Z` (whole seconds, UTC).
    case iso8601
    /// As the string `formatter` makes of it.
    case formatted(DateFormatter)
    /// As `encode` writes it into the encoder; an empty map if it writes nothing.
    case custom(@Sendable (Date, any Swift.Encoder) throws -> Void)
  }

  /// How `Data` is written.
  public enum DataEncodingStrategy: Sendable {
    /// As Data's own `encode(to:)` writes it: an array of its bytes as integers.
    case deferredToData
    /// As a Base64 string.
    case base64
    /// As Firestore bytes: Firebase's default for Firestore, and Hearth's.
    case blob
    /// As `encode` writes it into the encoder; an empty map if it writes nothing.
    case custom(@Sendable (Data, any Swift.Encoder) throws -> Void)
  }

  /// How NaN and ±infinity (`Double` and `Float`) are written.
  ///
  /// Firebase's encoder has only `.throw` (its default) and `.convertToString`: it keeps
  /// JSON's rules, in which these values do not exist. Firestore stores them as doubles,
  /// as Hearth's dictionary API does, so Hearth's default is `.allow`: a model can hold
  /// what a document can. Setting `.throw` gives Firebase's behaviour exactly.
  public enum NonConformingFloatEncodingStrategy: Sendable {
    /// Written as the doubles they are (Hearth's default).
    case allow
    /// Refused with `EncodingError.invalidValue` naming the field (Firebase's default).
    case `throw`
    /// Written as these strings.
    case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How the keys of a type's coding keys become field names. String-keyed
  /// dictionaries keep their keys: they are data, not names in the code.
  public enum KeyEncodingStrategy: Sendable {
    /// As the type names them.
    case useDefaultKeys
    /// `oneTwoThree` as `one_two_three`, `myURLProperty` as `my_url_property`; leading
    /// and trailing underscores stay.
    case convertToSnakeCase
    /// As `convert` names the last key of the coding path it is given (which holds the
    /// type's keys, not converted ones).
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// Everything the encoder is configured with, which each `encode` call hands to its
  /// context.
  struct Strategies: Sendable {
    var date = DateEncodingStrategy.timestamp
    var data = DataEncodingStrategy.blob
    var nonConformingFloat = NonConformingFloatEncodingStrategy.allow
    var key = KeyEncodingStrategy.useDefaultKeys

    /// Whether keys are renamed (so string-keyed dictionaries need keeping as they are).
    var convertsKeys: Bool {
      if case .useDefaultKeys = key { return false }
      return true
    }
  }
}
