import Foundation
import Hearth

// MARK: - The table entries

extension Command {
  static let get = Command(
    name: "get", summary: "print a document as JSON", usage: "get DOC [--meta]",
    details: """
      Prints the document's fields as one JSON object: pretty and coloured on a terminal,
      compact otherwise. Types JSON lacks are tagged ({"$timestamp": …}, see 'help'), so
      the output can be given back to 'set' unchanged. With --meta the fields are wrapped
      as {"path", "createTime", "updateTime", "fields"}. A missing document fails (exit 1).
      """,
    examples: ["get users/alice", "get users/alice --meta --json"],
    options: [.flag("--meta", "also print the path and the create and update times")],
    arguments: ["DOC"], required: 1, access: .read, aliases: ["cat", "show", "read", "print"],
    run: DocumentCommands.get)

  static let set = Command(
    name: "set", summary: "write a document (replace it, or merge with --merge)", usage: "set DOC JSON [--merge]",
    details: """
      Writes the JSON object as the document's fields, creating the document (and the
      database) when missing. Without --merge the document is replaced; with --merge only
      the given fields change (nested objects merge). JSON '-' reads standard input.
      """,
    examples: [
      #"set users/alice '{"name": "Alice", "joined": {"$timestamp": "2026-11-29T10:00:00Z"}}'"#,
      #"set users/alice '{"address": {"city": "Madrid"}}' --merge"#,
    ],
    options: [.flag("--merge", "change only the given fields and keep the others")],
    arguments: ["DOC", "JSON"], required: 2, access: .write, aliases: ["put", "write", "save"],
    run: DocumentCommands.set)

  static let update = Command(
    name: "update", summary: "update fields of an existing document; keys are field paths",
    usage: "update DOC JSON",
    details: """
      Changes the given fields of an existing document and keeps the others. Keys are
      field paths: "address.city" changes one nested field; a name with dots goes in
      backticks ("`a.b`.c"). Fails (exit 1) when the document does not exist; use 'set'
      to create it. JSON '-' reads standard input.
      """,
    examples: [#"update users/alice '{"address.city": "Madrid", "age": 31}'"#],
    arguments: ["DOC", "JSON"], required: 2, access: .write, aliases: ["patch", "modify", "edit"],
    run: DocumentCommands.update)

  static let add = Command(
    name: "add", summary: "add a document with a new ID and print its path", usage: "add COLLECTION JSON",
    details: """
      Creates a document with a new random 20-character ID in the collection and prints
      its path. JSON '-' reads standard input.
      """,
    examples: [#"add users '{"name": "Bob"}'"#],
    arguments: ["COLLECTION", "JSON"], required: 2, access: .write, aliases: ["insert", "create", "new", "push"],
    run: DocumentCommands.add)

  static let rm = Command(
    name: "rm", summary: "delete a document, or with --recursive everything below it",
    usage: "rm DOC [--recursive] | rm COLLECTION --recursive",
    details: """
      Deletes the document; its subcollections stay unless --recursive is given, which
      deletes them and everything below too. A collection is deleted only with
      --recursive. Deleting something that is not there fails (exit 1) unless --force.
      """,
    examples: ["rm users/alice", "rm users/bob --recursive", "rm users --recursive"],
    options: [
      .flag("--recursive", "also delete subcollections and their documents; needed for a collection"),
      .flag("--force", "succeed when there is nothing to delete"),
    ],
    arguments: ["PATH"], required: 1, access: .write, aliases: ["delete", "del", "remove", "rmdir", "drop"],
    run: DocumentCommands.rm)
}

// MARK: - Running them

/// `get`, `set`, `update`, `add` and `rm`: one document (or one collection) at a time.
enum DocumentCommands {
  static func get(_ invocation: Invocation) throws {
    let path = try ShellPath.document(invocation.arguments.positionals[0], for: "get")
    let reference = try invocation.database().document(path)
    let snapshot = try reference.getDocument()
    guard snapshot.exists, let fields = snapshot.data() else { throw try missingDocument(reference) }
    guard invocation.arguments.has("--meta") else {
      invocation.printJSON(fields)
      return
    }
    let envelope: [(String, Any)] = [
      ("path", path),
      ("createTime", snapshot.createTime?.rfc3339 ?? NSNull()),
      ("updateTime", snapshot.updateTime?.rfc3339 ?? NSNull()),
      ("fields", fields),
    ]
    invocation.printJSON(envelope)
  }

  static func set(_ invocation: Invocation) throws {
    let path = try ShellPath.document(invocation.arguments.positionals[0], for: "set")
    let json = try validJSON(invocation)
    let database = try invocation.database()
    let fields = try invocation.fields(from: json, database: database)
    try database.document(path).setData(fields, merge: invocation.arguments.has("--merge"))
  }

  static func update(_ invocation: Invocation) throws {
    let path = try ShellPath.document(invocation.arguments.positionals[0], for: "update")
    let json = try validJSON(invocation)
    // Reading first: an update of a missing database must not create one.
    _ = try invocation.session.database(for: .read)
    let database = try invocation.database()
    let fields = try invocation.fields(from: json, database: database)
    let reference = database.document(path)
    do {
      var updates: [AnyHashable: Any] = [:]
      for (key, value) in fields { updates[try fieldPathKey(key)] = value }
      try reference.updateData(updates)
    } catch let error as HearthError where error.code == .notFound {
      throw CommandFailure.notFound("no document at \(path): update changes existing documents (use set to create one)")
    }
  }

  static func add(_ invocation: Invocation) throws {
    let path = try ShellPath.collection(invocation.arguments.positionals[0], for: "add")
    let json = try validJSON(invocation)
    let database = try invocation.database()
    let fields = try invocation.fields(from: json, database: database)
    let reference = try database.collection(path).addDocument(data: fields)
    invocation.session.writeLine(reference.path)
  }

  static func rm(_ invocation: Invocation) throws {
    let target = try ShellPath.parse(invocation.arguments.positionals[0])
    if target.kind == .root { throw PathError.invalid("/", reason: "rm needs a document or collection path") }
    let recursive = invocation.arguments.has("--recursive")
    let force = invocation.arguments.has("--force")
    // Look before deleting, read-only: removing from a database that does not exist
    // must not create it, and deleting nothing is worth saying.
    let reader = try invocation.session.database(for: .read)
    switch target.kind {
    case .root:
      return  // refused above
    case .collection:
      guard recursive else {
        throw UsageError.notAllowed(
          "\(target.path) is a collection: deleting it deletes every document in it and below; add --recursive")
      }
      if try reader.collection(target.path).listDocuments().isEmpty {
        if force { return }
        throw CommandFailure.notFound("no documents in collection \(target.path)")
      }
      let database = try invocation.database()
      try database.recursiveDelete(database.collection(target.path))
    case .document:
      let existing = reader.document(target.path)
      let exists = try existing.getDocument().exists
      let subcollections = try existing.listCollections().map(\.collectionID)
      if recursive {
        guard exists || !subcollections.isEmpty else {
          if force { return }
          throw CommandFailure.notFound("nothing at \(target.path)")
        }
        let database = try invocation.database()
        try database.recursiveDelete(database.document(target.path))
        return
      }
      guard exists else {
        if !subcollections.isEmpty {
          throw CommandFailure.notFound(
            "no document at \(target.path), only subcollections (\(subcollections.joined(separator: ", "))); "
              + "rm \(target.path) --recursive deletes them")
        }
        if force { return }
        throw CommandFailure.notFound("no document at \(target.path)")
      }
      try invocation.database().document(target.path).delete()
      if !subcollections.isEmpty && invocation.session.stderr.isTerminal {
        invocation.session.note(
          "note: the subcollections of \(target.path) (\(subcollections.joined(separator: ", "))) were kept; "
            + "rm --recursive deletes them too")
      }
    }
  }

  // MARK: - Pieces

  /// An `update` key: the dotted string itself (Hearth splits it), or, when it uses
  /// backticks for names with special characters (`` `a.b`.c ``), the `FieldPath` of its
  /// segments, as Firestore's canonical field paths are written.
  ///
  /// - Throws: `CommandFailure` (bad input, exit 65) for an unclosed backtick.
  static func fieldPathKey(_ key: String) throws -> AnyHashable {
    guard key.contains("`") else { return AnyHashable(key) }
    var segments: [String] = []
    var segment = ""
    var quoted = false
    var characters = key.makeIterator()
    while let character = characters.next() {
      switch character {
      case "`": quoted.toggle()
      case "\\" where quoted:
        if let escaped = characters.next() { segment.append(escaped) }
      case "." where !quoted:
        segments.append(segment)
        segment = ""
      default: segment.append(character)
      }
    }
    guard !quoted else {
      throw CommandFailure(
        message: "update: field path \(key) has an unclosed backtick", code: "invalidArgument", status: .dataError)
    }
    segments.append(segment)
    return AnyHashable(FieldPath(segments))
  }

  /// The JSON argument, checked before the database is opened so that bad input never
  /// creates a database.
  private static func validJSON(_ invocation: Invocation) throws -> String {
    let target = invocation.arguments.positionals[0]
    let document = invocation.command.name == "add" ? "added to \(target)" : target
    let text = try invocation.jsonArgument(1, tooLarge: Invocation.documentTooLarge(document))
    do {
      try ExtendedJSON.validateFields(text)
    } catch let error as HearthError {
      throw CommandFailure(error, context: invocation.command.name)
    }
    return text
  }

  /// "no document at PATH", saying so when the path still has subcollections (a missing
  /// document that `ls` lists).
  static func missingDocument(_ reference: DocumentReference) throws -> CommandFailure {
    let subcollections = try reference.listCollections().map(\.collectionID)
    guard !subcollections.isEmpty else { return .notFound("no document at \(reference.path)") }
    return .notFound(
      "no document at \(reference.path); it has subcollections: \(subcollections.joined(separator: ", "))")
  }
}
