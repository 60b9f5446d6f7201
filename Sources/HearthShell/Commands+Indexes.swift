import Foundation
import Hearth

// MARK: - The table entry

extension Command {
  static let indexes = Command(
    name: "indexes", summary: "list declared indexes (firestore.indexes.json), or add, drop or load them",
    usage: "indexes [add SPEC | drop NAME | load FILE]",
    details: """
      Every field is indexed already; declare composite indexes for queries that filter
      on one field and order by another, and collection-group indexes for group: queries
      (with Settings.requireIndexes, production Firestore's rules, queries need them).

      Without an action, prints the declared indexes as a firestore.indexes.json file:
      pretty on a terminal, compact JSON off one or with --json (so 'hearth indexes >
      firestore.indexes.json' saves them).

        add SPEC    declares one index and fills it from the documents, in one commit.
                    SPEC is the collection ID (group:ID for collection-group scope),
                    then the fields in order, separated by commas, each followed by asc
                    (the default), desc, or contains for an array field: the order by
                    of the query it serves. Fields are dotted paths, names with special
                    characters in backticks (`first name`). SPEC may also be JSON: one
                    entry of the file's "indexes" array, or a whole file, such as the
                    one a requireIndexes error holds ('-' reads standard input).
        drop NAME   drops a declared index and removes its entries, in one commit.
                    NAME is the index as 'add' takes it, or its number in the
                    listing's "indexes" array (1 for the first).
        load FILE   declares the indexes and fieldOverrides of a firestore.indexes.json
                    file ('-' reads standard input), filling new ones.

      Declaring adds to the indexes declared; one declared already is left as it is. A
      firestore.indexes.json in the database directory is declared again each time the
      database opens for writing: drop an index there too. Invalid JSON or SPEC exits
      with 65 and changes nothing; dropping an index not declared exits with 1.
      """,
    examples: [
      "indexes",
      "indexes add posts ownerId, createdAt desc",
      "indexes add group:posts tags contains, likes desc",
      "indexes drop posts ownerId, createdAt desc",
      "indexes drop 1",
      "indexes load firestore.indexes.json",
    ],
    arguments: ["ACTION", "ARGUMENTS"], required: 0, access: .write, aliases: ["index", "indices", "idx"],
    variadic: true,
    run: IndexCommands.indexes)
}

// MARK: - Running it

/// `indexes`: the declared indexes, in Firestore's `firestore.indexes.json` format,
/// through Hearth's `declareIndexes(json:)`, `dropIndexes(json:)` and
/// `declaredIndexesJSON()`.
enum IndexCommands {
  static let actions = ["add", "drop", "load"]

  static func indexes(_ invocation: Invocation) throws {
    guard let action = invocation.positional(0) else { return try list(invocation) }
    let words = Array(invocation.arguments.positionals.dropFirst())
    switch action {
    case "add": try add(invocation, words)
    case "drop": try drop(invocation, words)
    case "load": try load(invocation, words)
    default:
      throw UsageError.unknownAction(action, command: "indexes", actions: actions, suggestion: suggestion(action))
    }
  }

  static func list(_ invocation: Invocation) throws {
    let database = try invocation.session.database(for: .read)
    invocation.printJSON(try DeclaredIndexes(database).ordered)
  }

  static func add(_ invocation: Invocation, _ words: [String]) throws {
    let input = try IndexInput(try text(of: words, named: "SPEC", invocation))
    let database = try invocation.session.database(for: .write)
    let before = try DeclaredIndexes(database)
    try database.declareIndexes(json: input.json)
    let after = try DeclaredIndexes(database)
    if let spec = input.spec {
      invocation.session.writeLine(
        after.count > before.count ? "declared index \(spec)" : "index \(spec) was declared already")
    } else {
      invocation.session.writeLine(Self.declared(after.count - before.count, of: after.count))
    }
  }

  static func drop(_ invocation: Invocation, _ words: [String]) throws {
    let text = try text(of: words, named: "NAME", invocation)
    let number = text.allSatisfy(\.isASCII) ? Int(text) : nil
    var input = try number == nil ? IndexInput(text) : nil
    // Look first, read-only: dropping from a database that does not exist must not
    // create it.
    _ = try invocation.session.database(for: .read)
    let database = try invocation.session.database(for: .write)
    if let number {
      let declared = try DeclaredIndexes(database)
      guard number >= 1, number <= declared.entries.count else {
        let count = declared.entries.count
        throw CommandFailure.notFound(
          "no index number \(number): the listing has \(count) \(count == 1 ? "index" : "indexes") "
            + "(see 'indexes')")
      }
      input = try IndexInput(entry: declared.entries[number - 1])
    }
    guard let input else { return }
    let removed: Int
    do {
      removed = try database.dropIndexes(json: input.json)
    } catch let error as HearthError where error.code == .notFound {
      throw CommandFailure.notFound(
        "no declared index \(input.spec ?? "matches the JSON"); 'indexes' lists the declared ones")
    }
    let entries = removed == 1 ? "1 index entry" : "\(removed) index entries"
    invocation.session.writeLine(
      input.spec.map { "dropped index \($0) and its \(entries)" }
        ?? "dropped the indexes of the JSON and their \(entries)")
    let file = database.path + "/firestore.indexes.json"
    if FileManager.default.fileExists(atPath: file) {
      invocation.session.note("note: \(file) is declared again when the database next opens; drop the index there too")
    }
  }

  static func load(_ invocation: Invocation, _ words: [String]) throws {
    guard let file = words.first else { throw UsageError.missingArgument("FILE", usage: invocation.command.usage) }
    if words.count > 1 { throw UsageError.unexpectedArgument(words[1], usage: invocation.command.usage, hint: nil) }
    let text: String
    if file == "-" {
      text = try invocation.jsonArgument(1, name: "FILE", tooLarge: tooLarge)
    } else {
      guard let contents = FileManager.default.contents(atPath: file) else {
        throw CommandFailure.notFound("cannot read the index file \(file)")
      }
      text = try UTF8Input.text(Array(contents), source: file)
    }
    let name = file == "-" ? "standard input" : file
    // Checked before the database is opened: a bad file never creates one.
    do { try Database.validateIndexes(json: text) } catch let error as HearthError {
      throw CommandFailure(error, context: name)
    }
    let database = try invocation.session.database(for: .write)
    let before = try DeclaredIndexes(database).count
    try database.declareIndexes(json: text)
    let after = try DeclaredIndexes(database).count
    invocation.session.writeLine("\(name): " + declared(after - before, of: after))
  }

  // MARK: - Pieces

  /// The words after the action, joined; `-` alone reads standard input.
  private static func text(of words: [String], named name: String, _ invocation: Invocation) throws -> String {
    let text = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { throw UsageError.missingArgument(name, usage: invocation.command.usage) }
    return text == "-" ? try invocation.jsonArgument(1, name: name, tooLarge: tooLarge) : text
  }

  /// More on standard input than `Invocation.maxStandardInput`.
  private static let tooLarge =
    "standard input holds more than \(Invocation.maxStandardInput) bytes: no index file or index is that large"

  /// `2 new indexes declared, 3 in all`.
  private static func declared(_ added: Int, of total: Int) -> String {
    "\(added) new \(added == 1 ? "index" : "indexes") declared, \(total) in all"
  }

  /// The action meant by a word that is not one: `remove` → `drop`; `list` → the
  /// command alone.
  private static func suggestion(_ word: String) -> String? {
    switch word.lowercased() {
    case "remove", "delete", "rm", "del", "undeclare": "drop"
    case "create", "declare", "new", "put", "set", "define": "add"
    case "import", "file", "deploy", "read", "apply": "load"
    case "list", "ls", "show", "get": "indexes"
    default: Suggestions.nearest(to: word, in: actions)
    }
  }
}

/// What `indexes add` or `indexes drop` was given, checked before the database is
/// opened: a `firestore.indexes.json` text, and the SPEC of its one index, for messages.
struct IndexInput {
  let json: String
  let spec: String?

  /// - Throws: `CommandFailure` (bad input, exit 65) for a bad SPEC or bad JSON.
  init(_ text: String) throws {
    guard text.hasPrefix("{") else {
      let spec = try IndexSpec.parse(text)
      json = spec.fileJSON
      self.spec = spec.description
      try Self.validate(json)
      return
    }
    do {
      try ExtendedJSON.validateFields(text)
    } catch let error as HearthError {
      throw CommandFailure(error, context: "indexes")
    }
    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    if object["collectionGroup"] != nil {
      // One entry of the "indexes" array.
      json = #"{"indexes": ["# + text + "]}"
      spec = IndexSpec(entry: object)?.description
    } else {
      json = text
      let entries = object["indexes"] as? [[String: Any]] ?? []
      let overrides = object["fieldOverrides"] as? [Any] ?? []
      spec = entries.count == 1 && overrides.isEmpty ? IndexSpec(entry: entries[0])?.description : nil
    }
    try Self.validate(json)
  }

  /// One entry of the listing.
  init(entry: [String: Any]) throws {
    guard let spec = IndexSpec(entry: entry) else {
      let data = try JSONSerialization.data(withJSONObject: ["indexes": [entry]])
      json = String(decoding: data, as: UTF8.self)
      spec = nil
      return
    }
    json = spec.fileJSON
    self.spec = spec.description
  }

  private static func validate(_ json: String) throws {
    do { try Database.validateIndexes(json: json) } catch let error as HearthError {
      throw CommandFailure(error, context: "indexes")
    }
  }
}

/// The declared indexes as `declaredIndexesJSON()` writes them, parsed.
struct DeclaredIndexes {
  let root: [String: Any]

  init(_ database: Database) throws {
    let text = try database.declaredIndexesJSON()
    root = (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
  }

  /// The `"indexes"` array: what `indexes drop N` numbers.
  var entries: [[String: Any]] { root["indexes"] as? [[String: Any]] ?? [] }

  /// Every declared index: the entries, and the collection-group indexes of the field
  /// overrides.
  var count: Int {
    let overrides = root["fieldOverrides"] as? [[String: Any]] ?? []
    return entries.count
      + overrides.reduce(0) { count, override in
        count
          + (override["indexes"] as? [[String: Any]] ?? []).filter {
            $0["queryScope"] as? String == "COLLECTION_GROUP"
          }.count
      }
  }

  /// The file for printing, members in the order Firestore's CLI writes them
  /// (`collectionGroup`, `queryScope`, `fields`; `fieldPath`, `order`), not sorted.
  var ordered: Any { Self.ordered(root) }

  private static let memberOrder = [
    "collectionGroup", "fieldPath", "order", "arrayConfig", "queryScope", "fields", "indexes", "fieldOverrides",
  ]

  private static func ordered(_ value: Any) -> Any {
    if let object = value as? [String: Any] {
      func rank(_ key: String) -> Int { memberOrder.firstIndex(of: key) ?? memberOrder.count }
      let keys = object.keys.sorted { (rank($0), $0) < (rank($1), $1) }
      return keys.map { ($0, ordered(object[$0]!)) } as [(String, Any)]
    }
    if let array = value as? [Any] { return array.map(ordered) }
    return value
  }
}
