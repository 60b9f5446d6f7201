import Foundation
import Synchronization

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

// MARK: - Key names

enum SnakeCase {
  /// `oneTwoThree` → `one_two_three`, by the rule of Foundation's `JSONEncoder` (and
  /// so Firebase's): a word starts at each capital after a non-capital, and a run of
  /// capitals followed by a lower-case letter is a word up to the last capital
  /// (`myURLProperty` → `my_url_property`); the words are lower-cased and joined by `_`.
  /// Capitals and lower-case letters are Unicode's (`CharacterSet.uppercaseLetters`,
  /// `lowercaseLetters`); digits and `_` are neither.
  static func fromCamelCase(_ key: String) -> String {
    let characters = Array(key)
    guard !characters.isEmpty else { return key }
    func isUpper(_ index: Int) -> Bool { characters[index].unicodeScalars.first.map(upper.contains) ?? false }
    func isLower(_ index: Int) -> Bool { characters[index].unicodeScalars.first.map(lower.contains) ?? false }

    var words: [ArraySlice<Character>] = []
    var wordStart = 0
    var searchFrom = 1
    while let capital = (searchFrom..<characters.count).first(where: isUpper) {
      words.append(characters[wordStart..<capital])
      guard let lowerCase = (capital..<characters.count).first(where: isLower) else {
        wordStart = capital  // only capitals and others left: one word
        break
      }
      if lowerCase == capital + 1 {
        wordStart = capital  // `Property`: the capital starts a word
      } else {
        words.append(characters[capital..<(lowerCase - 1)])  // `URL` of `URLProperty`
        wordStart = lowerCase - 1
      }
      searchFrom = lowerCase + 1
    }
    words.append(characters[wordStart...])
    return words.map { String($0).lowercased() }.joined(separator: "_")
  }

  /// `one_two_three` → `oneTwoThree`, by the rule of Foundation's `JSONDecoder` (and so
  /// Firebase's): leading and trailing underscores stay; the rest is split at
  /// underscores, the first word lower-cased and the others capitalized. A key without
  /// an underscore inside is left as it is (`ALLCAPS`, `alreadyCamel`).
  static func toCamelCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    let last = key.lastIndex(where: { $0 != "_" })!
    let words = key[first...last].split(separator: "_")
    guard words.count > 1 else { return key }
    let joined = ([words[0].lowercased()] + words.dropFirst().map(\.capitalized)).joined()
    return String(key[..<first]) + joined + String(key[key.index(after: last)...])
  }

  private static let upper = CharacterSet.uppercaseLetters
  private static let lower = CharacterSet.lowercaseLetters
}

/// A key made by a key strategy: the converted name, with the original's `intValue`.
struct ConvertedKey: CodingKey {
  let stringValue: String
  let intValue: Int?
  init(_ stringValue: String, intValue: Int? = nil) {
    self.stringValue = stringValue
    self.intValue = intValue
  }
  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init("\(intValue)", intValue: intValue) }
}

// MARK: - Dates as strings

/// ISO 8601 as Firebase's `.iso8601` writes and reads it (`ISO8601DateFormatter` with
/// `.withInternetDateTime`: `2026-11-29T10:00:00Z`). One formatter, behind a lock: it is
/// not `Sendable` on Linux, and making one per date costs more than using it.
enum InternetDateTime {
  private static let formatter = Mutex(makeFormatter())

  private static func makeFormatter() -> ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = .withInternetDateTime
    return formatter
  }

  static func string(from date: Date) -> String { formatter.withLock { $0.string(from: date) } }
  static func date(from string: String) -> Date? { formatter.withLock { $0.date(from: string) } }
}
