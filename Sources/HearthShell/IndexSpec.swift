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

/// The reader of `IndexSpec.parse`, over the tokens `CommandLexer` reads.
private struct SpecParser {
  struct Problem: Error {
    let message: String
  }

  private var lexer: CommandLexer

  init(_ text: String) { lexer = CommandLexer(text, words: .indexSpec) }

  mutating func parse() throws(Problem) -> IndexSpec {
    lexer.skipSpaces()
    var collection = ""
    while let character = lexer.current, !character.isWhitespace {
      collection.append(character)
      lexer.index += 1
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
      let word = lexer.peekWord()
      if let word {
        switch word.lowercased() {
        case "asc", "ascending": mode = .asc
        case "desc", "descending": mode = .desc
        case "contains", "array-contains": mode = .contains
        default:
          throw Problem(message: "expected asc, desc, contains or ',' after \(path.canonical), found '\(word)'")
        }
        lexer.takeWord(word)
      }
      fields.append(IndexSpec.Field(path: path, mode: mode))
      lexer.skipSpaces()
      if let character = lexer.current, character != "," {
        let after = word.map { "\(path.canonical) \($0)" } ?? path.canonical
        throw Problem(message: "expected ',' or the end after '\(after)', found '\(character)'")
      }
    } while lexer.takeSymbol(",")
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
    lexer.skipSpaces()
    do {
      return try FieldPathText.read(from: &lexer, after: context)
    } catch {
      throw Problem(message: error.message)
    }
  }
}
