import Foundation
import Synchronization

// What the encoder's and decoder's strategies share: the snake-case conversions of the
// key strategies, the key they make, and ISO 8601 dates.

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
