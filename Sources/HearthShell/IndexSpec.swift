import Foundation
import Hearth

/// One declared index as the shell types and prints it: SPEC in `indexes add SPEC`. The
/// collection ID (`group:ID` for collection-group scope, as a query's TARGET), then the
/// indexed fields in order, separated by commas, each followed by `asc` (the default),
/// `desc`, or `contains` for an array field (Firestore's `arrayConfig: CONTAINS`):
///
/// ```
/// posts ownerId, createdAt desc
/// group:posts tags contains, likes desc
/// ```
///
/// It reads as the `order by` of the query the index serves. Fields are dotted paths,
/// names with special characters in backticks (`` `first name` ``), as in queries. A
/// SPEC is one entry of `firestore.indexes.json`'s `"indexes"` array written short, and
/// `description` writes an entry back in this form (what `indexes drop` takes).
struct IndexSpec: Equatable {
  enum Mode: String, Equatable {
    case asc, desc, contains
  }

  struct Field: Equatable {
    var path: FieldPath
    var mode: Mode
  }

  var collectionID: String
  var groupScope: Bool
  var fields: [Field]

  /// `posts ownerId asc, createdAt desc`: the form `parse` reads.
  var description: String {
    (groupScope ? "group:" : "") + collectionID + " "
      + fields.map { "\($0.path.canonical) \($0.mode.rawValue)" }.joined(separator: ", ")
  }

  /// The entry of `firestore.indexes.json`'s `"indexes"` array.
  var entry: [(String, Any)] {
    [
      ("collectionGroup", collectionID), ("queryScope", groupScope ? "COLLECTION_GROUP" : "COLLECTION"),
      (
        "fields",
        fields.map { field -> [(String, Any)] in
          switch field.mode {
          case .asc: [("fieldPath", field.path.canonical), ("order", "ASCENDING")]
          case .desc: [("fieldPath", field.path.canonical), ("order", "DESCENDING")]
          case .contains: [("fieldPath", field.path.canonical), ("arrayConfig", "CONTAINS")]
          }
        }
      ),
    ]
  }

  /// A `firestore.indexes.json` text that declares this index alone.
  var fileJSON: String { ExtendedJSON.string(from: [("indexes", [entry])] as [(String, Any)]) }

  /// The SPEC of an entry of the `"indexes"` array as JSON parsed it, or `nil` when it
  /// does not have that shape.
  init?(entry: [String: Any]) {
    guard let group = entry["collectionGroup"] as? String, let fields = entry["fields"] as? [[String: Any]] else {
      return nil
    }
    collectionID = group
    groupScope = (entry["queryScope"] as? String) == "COLLECTION_GROUP"
    var parsed: [Field] = []
    for field in fields {
      guard let text = field["fieldPath"] as? String, let path = try? FieldPath.parse(canonical: text) else {
        return nil
      }
      switch (field["order"] as? String, field["arrayConfig"] as? String) {
      case ("ASCENDING", nil): parsed.append(Field(path: path, mode: .asc))
      case ("DESCENDING", nil): parsed.append(Field(path: path, mode: .desc))
      case (nil, "CONTAINS"): parsed.append(Field(path: path, mode: .contains))
      default: return nil
      }
    }
    self.fields = parsed
  }

  init(collectionID: String, groupScope: Bool, fields: [Field]) {
    self.collectionID = collectionID
    self.groupScope = groupScope
    self.fields = fields
  }

  /// Parses SPEC text (the words after `add` or `drop`, joined by spaces).
  ///
  /// - Throws: `CommandFailure` (bad input, exit 65) saying what is wrong and where.
  static func parse(_ text: String) throws -> IndexSpec {
    var parser = SpecParser(text)
    do {
      return try parser.parse()
    } catch {
      throw CommandFailure(
        message: "invalid index '\(text)': \(error.message)", code: "invalidArgument", status: .dataError)
    }
  }
}

/// The reader of `IndexSpec.parse`.
private struct SpecParser {
  struct Problem: Error {
    let message: String
  }

  private let characters: [Character]
  private var index = 0

  // Unicode scalars, as query text is read: a backtick or a quote followed by a
  // combining mark is then still a backtick or a quote.
  init(_ text: String) { characters = Tokenizer.scalars(of: text) }

  mutating func parse() throws(Problem) -> IndexSpec {
    skipSpaces()
    var collection = ""
    while let character = current, !character.isWhitespace {
      collection.append(character)
      index += 1
    }
    let groupScope = collection.hasPrefix("group:")
    if groupScope { collection.removeFirst("group:".count) }
    guard !collection.isEmpty else {
      throw Problem(message: "expected a collection ID first, such as posts, or group:posts for a collection group")
    }
    if collection.contains("/") {
      let id = collection.split(separator: "/").last.map(String.init) ?? collection
      throw Problem(
        message: "an index names a collection ID, not a path: write \(groupScope ? "group:" : "")\(id) "
          + "(it serves every collection with that ID)")
    }
    var fields: [IndexSpec.Field] = []
    repeat {
      let path = try parseField(after: fields.last.map { $0.path.canonical + "," } ?? collection)
      var mode = IndexSpec.Mode.asc
      let word = peekWord()
      if let word {
        switch word.lowercased() {
        case "asc", "ascending": mode = .asc
        case "desc", "descending": mode = .desc
        case "contains", "array-contains": mode = .contains
        default:
          throw Problem(message: "expected asc, desc, contains or ',' after \(path.canonical), found '\(word)'")
        }
        index += word.unicodeScalars.count
      }
      fields.append(IndexSpec.Field(path: path, mode: mode))
      skipSpaces()
      if let character = current, character != "," {
        let after = word.map { "\(path.canonical) \($0)" } ?? path.canonical
        throw Problem(message: "expected ',' or the end after '\(after)', found '\(character)'")
      }
    } while take(",")
    if fields.filter({ $0.mode == .contains }).count > 1 {
      throw Problem(message: "an index has at most one contains field")
    }
    if !groupScope, fields.count == 1 {
      throw Problem(
        message: "every field of every collection is indexed already; a one-field index is for collection-group "
          + "queries: group:\(collection) \(fields[0].path.canonical) \(fields[0].mode.rawValue)")
    }
    return IndexSpec(collectionID: collection, groupScope: groupScope, fields: fields)
  }

  /// A dotted field path (`FieldPathText`).
  private mutating func parseField(after context: String) throws(Problem) -> FieldPath {
    skipSpaces()
    let text = FieldPathText(characters: characters, isNameCharacter: Self.isWordCharacter, column: { $0 + 1 })
    do {
      return try text.read(at: &index, after: context)
    } catch {
      throw Problem(message: error.message)
    }
  }

  private var current: Character? { index < characters.count ? characters[index] : nil }

  /// Characters of plain field names and of the words asc, desc and contains.
  private static func isWordCharacter(_ character: Character) -> Bool {
    !character.isWhitespace && !"`,.:()[]{}'\"=<>!/".contains(character)
  }

  /// The word at the cursor, after spaces, without taking it.
  private mutating func peekWord() -> String? {
    skipSpaces()
    var end = index
    while end < characters.count, Self.isWordCharacter(characters[end]) { end += 1 }
    return end > index ? String(characters[index..<end]) : nil
  }

  private mutating func take(_ symbol: Character) -> Bool {
    skipSpaces()
    guard current == symbol else { return false }
    index += 1
    return true
  }

  private mutating func skipSpaces() {
    while let character = current, character.isWhitespace { index += 1 }
  }
}
