import Hearth

// MARK: - The table entries

extension Command {
  static let ls = Command(
    name: "ls", summary: "list root collections, a collection's document IDs, or a document's subcollections",
    usage: "ls [PATH] [--limit N] [--after ID]",
    details: """
      Without a path, lists the root collections. For a collection, lists its document
      IDs in ID order, including documents that do not exist but have subcollections. For
      a document, lists its subcollections. One name per line; a JSON array with --json.
      Page through a long collection with --limit and --after (the last ID shown).
      """,
    examples: ["ls", "ls users --limit 20", "ls users --limit 20 --after alice", "ls users/alice"],
    options: [
      .value("--limit", "N", "list at most N names"),
      .value("--after", "ID", "start after this name (the last one of the previous page)"),
    ],
    arguments: ["PATH"], required: 0, access: .read, aliases: ["list", "dir", "ll", "la", "l"],
    run: BrowseCommands.ls)

  static let tree = Command(
    name: "tree", summary: "show collections, documents and subcollections as a tree, with counts",
    usage: "tree [PATH] [--depth N]",
    details: """
      Draws the database (or the collection or document at PATH) as a tree: collections
      with their number of documents, documents, and their subcollections. A document
      that does not exist but has subcollections is marked (missing). --depth limits how
      many levels are shown. With --json, the tree as nested JSON objects.
      """,
    examples: ["tree", "tree users --depth 2", "tree users/alice"],
    options: [.value("--depth", "N", "show N levels below PATH")],
    arguments: ["PATH"], required: 0, access: .read,
    run: BrowseCommands.tree)
}

// MARK: - Running them

/// `ls` and `tree`: the shape of the database.
enum BrowseCommands {
  static func ls(_ invocation: Invocation) throws {
    let target = try invocation.positional(0).map(ShellPath.parse) ?? .root
    let limit = try invocation.arguments.integer("--limit", in: 1...Int.max)
    let after = invocation.arguments.value("--after")
    let database = try invocation.database()
    var names: [String]
    switch target.kind {
    case .root:
      names = try database.listCollections().map(\.collectionID)
    case .collection:
      names = try database.collection(target.path).listDocuments().map(\.documentID)
      if names.isEmpty { throw CommandFailure.notFound("no documents in collection \(target.path)") }
    case .document:
      let reference = database.document(target.path)
      names = try reference.listCollections().map(\.collectionID)
      if names.isEmpty, try !reference.getDocument().exists { throw try DocumentCommands.missingDocument(reference) }
    }
    // Names come sorted in UTF-8 byte order, the order `--after` pages in.
    if let after {
      names = Array(names.drop { !after.utf8.lexicographicallyPrecedes($0.utf8) })
    }
    if let limit, names.count > limit {
      names = Array(names.prefix(limit))
      if !invocation.json, invocation.session.stdout.isTerminal, let last = names.last {
        let path = target.kind == .root ? "" : " \(target.path)"
        invocation.session.note("… more: ls\(path) --limit \(limit) --after \(Tokenizer.quotedIfNeeded(last))")
      }
    }
    invocation.printNames(names)
  }

  static func tree(_ invocation: Invocation) throws {
    let target = try invocation.positional(0).map(ShellPath.parse) ?? .root
    let depth = try invocation.arguments.integer("--depth", in: 1...Int.max)
    let database = try invocation.database()
    let root: TreeNode
    switch target.kind {
    case .root:
      root = TreeNode(
        name: invocation.session.databasePath, path: "", kind: .database,
        children: try TreeNode.collections(try database.listCollections(), levels: depth.map { $0 - 1 }))
    case .collection:
      root = try TreeNode.collection(database.collection(target.path), levels: depth)
      if case .collection(let count) = root.kind, count == 0, root.children?.isEmpty ?? true {
        throw CommandFailure.notFound("no documents in collection \(target.path)")
      }
    case .document:
      let reference = database.document(target.path)
      root = try TreeNode.document(reference, exists: try reference.getDocument().exists, levels: depth)
      if case .document(exists: false) = root.kind, root.children?.isEmpty ?? true {
        throw try DocumentCommands.missingDocument(reference)
      }
    }
    if invocation.json {
      invocation.printJSON(root.json)
    } else {
      let style = TreeNode.Style(colored: invocation.session.supportsColor)
      for line in root.lines(style: style) { invocation.session.writeLine(line) }
    }
  }
}

/// One node of `tree`'s output.
struct TreeNode {
  enum Kind {
    case database
    case collection(documents: Int)
    case document(exists: Bool)
  }

  let name: String
  let path: String
  let kind: Kind
  /// `nil` when `--depth` stopped before this node's children.
  var children: [TreeNode]?

  // MARK: Building

  /// `levels`: how many levels below this node to read; `nil` for all.
  static func collection(_ collection: CollectionReference, levels: Int?) throws -> TreeNode {
    let existing = Set(try collection.getDocuments().documents.map(\.documentID))
    var node = TreeNode(
      name: collection.collectionID, path: collection.path, kind: .collection(documents: existing.count))
    if levels.map({ $0 > 0 }) ?? true {
      node.children = try collection.listDocuments().map {
        try document($0, exists: existing.contains($0.documentID), levels: levels.map { $0 - 1 })
      }
    }
    return node
  }

  static func document(_ reference: DocumentReference, exists: Bool, levels: Int?) throws -> TreeNode {
    var node = TreeNode(name: reference.documentID, path: reference.path, kind: .document(exists: exists))
    if levels.map({ $0 > 0 }) ?? true {
      node.children = try collections(try reference.listCollections(), levels: levels.map { $0 - 1 })
    }
    return node
  }

  static func collections(_ references: [CollectionReference], levels: Int?) throws -> [TreeNode]? {
    guard levels.map({ $0 >= 0 }) ?? true else { return nil }
    return try references.map { try collection($0, levels: levels) }
  }

  // MARK: Drawing

  /// Escape sequences for the parts of a line, empty without colour.
  struct Style {
    var collection = ""
    var dim = ""
    var reset = ""

    init(colored: Bool) {
      guard colored else { return }
      collection = "\u{1B}[1;34m"
      dim = "\u{1B}[2m"
      reset = "\u{1B}[0m"
    }
  }

  /// The tree drawn with box-drawing characters, one line per node.
  func lines(style: Style) -> [String] {
    var lines = [label(style)]
    appendChildren(to: &lines, prefix: "", style: style)
    return lines
  }

  private func appendChildren(to lines: inout [String], prefix: String, style: Style) {
    guard let children else { return }
    for (position, child) in children.enumerated() {
      let isLast = position == children.count - 1
      lines.append(prefix + (isLast ? "└── " : "├── ") + child.label(style))
      child.appendChildren(to: &lines, prefix: prefix + (isLast ? "    " : "│   "), style: style)
    }
  }

  private func label(_ style: Style) -> String {
    switch kind {
    case .database: return name
    case .collection(let documents):
      let noun = documents == 1 ? "document" : "documents"
      return style.collection + name + style.reset + " " + style.dim + "(\(documents) \(noun))" + style.reset
    case .document(let exists):
      return exists ? name : name + " " + style.dim + "(missing)" + style.reset
    }
  }

  // MARK: JSON

  /// `{"id", "path", "documents": N, "children": [...]}` for a collection,
  /// `{"id", "path", "exists", "collections": [...]}` for a document,
  /// `{"collections": [...]}` for the database; lists cut by `--depth` are left out.
  var json: [(String, Any)] {
    switch kind {
    case .database:
      return [("collections", (children ?? []).map(\.json))]
    case .collection(let documents):
      var members: [(String, Any)] = [("id", name), ("path", path), ("documents", documents)]
      if let children { members.append(("children", children.map(\.json))) }
      return members
    case .document(let exists):
      var members: [(String, Any)] = [("id", name), ("path", path), ("exists", exists)]
      if let children { members.append(("collections", children.map(\.json))) }
      return members
    }
  }
}
