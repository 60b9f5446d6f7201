import Hearth

/// What Tab offers in the interactive shell: command names first, then paths (root
/// collections, a collection's document IDs, a document's subcollections), and inside
/// query text the clause words and the field names of the target's documents.
///
/// Pure text in, candidates out (the database is read through `Session`), so that it is
/// tested without a terminal; `LineEditor` inserts what it finds.
struct Completion: Equatable {
  /// The word being completed: the text after the last space before the cursor.
  let word: String
  /// Whole words that can replace `word`, sorted. A path that goes deeper ends in `/`.
  let candidates: [String]

  /// How many document IDs are offered at most: enough to choose from, quick on a large
  /// collection.
  static let documentLimit = 200
  /// How many documents of a query's target are sampled for field names.
  static let fieldSample = 20

  static let queryWords = [
    "where", "and", "or", "order", "by", "asc", "desc", "limit", "last", "start", "end", "at", "after", "before",
    "count", "sum", "avg", "in", "not-in", "array-contains", "array-contains-any",
  ]

  /// The completions of the line `text` up to the cursor.
  static func of(_ text: String, session: Session) -> Completion {
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let word = text.last == " " || text.isEmpty ? "" : words.last ?? ""
    let index = word.isEmpty ? words.count : words.count - 1
    guard index > 0 else {
      return Completion(word: word, candidates: matching(Command.all.map(\.name), word))
    }
    let command = Command.named(words[0])
    let options = (command?.options.map(\.name) ?? []) + ["--help"]
    if word.hasPrefix("-") { return Completion(word: word, candidates: matching(options, word)) }
    guard let command else { return Completion(word: word, candidates: []) }
    if command.name == "help" {
      return Completion(word: word, candidates: index == 1 ? matching(Command.all.map(\.name), word) : [])
    }
    let takesPath = command.argumentNames.first.map { ["PATH", "DOC", "COLLECTION", "TARGET"].contains($0) } ?? false
    guard takesPath else { return Completion(word: word, candidates: []) }
    if index == 1 { return Completion(word: word, candidates: paths(completing: word, session: session)) }
    guard command.readsQueryText else { return Completion(word: word, candidates: []) }
    let fields = fieldNames(of: words[1], session: session)
    return Completion(word: word, candidates: matching(Set(queryWords + fields).sorted(), word))
  }

  /// The longest text every candidate starts with (at least `word` when they all
  /// extend it).
  var commonPrefix: String {
    guard var prefix = candidates.first else { return word }
    for candidate in candidates.dropFirst() {
      while !candidate.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  private static func matching(_ names: [String], _ word: String) -> [String] {
    names.filter { $0.hasPrefix(word) }
  }

  /// Paths that extend `word`: below the last `/` typed, the names of what is there.
  private static func paths(completing word: String, session: Session) -> [String] {
    guard let database = try? session.database(for: .read) else { return [] }
    let slash = word.lastIndex(of: "/")
    let parent = slash.map { String(word[..<$0]) } ?? ""
    let partial = slash.map { String(word[word.index(after: $0)...]) } ?? word
    let prefix = parent.isEmpty ? "" : parent + "/"
    let parentPath = parent.isEmpty ? ShellPath.root : (try? ShellPath.parse(parent))
    var names: [String]
    let goesDeeper: Bool
    switch parentPath?.kind {
    case .root:
      names = (try? database.listCollections().map(\.collectionID)) ?? []
      goesDeeper = true
    case .collection:
      names = documentIDs(in: database.collection(parent), startingWith: partial)
      goesDeeper = false
    case .document:
      names = (try? database.document(parent).listCollections().map(\.collectionID)) ?? []
      goesDeeper = true
    case nil: return []
    }
    names = names.filter { $0.hasPrefix(partial) }
    return names.map { prefix + $0 + (goesDeeper ? "/" : "") }
  }

  /// Up to `documentLimit` IDs from `partial` on, in ID order, read through the ID index.
  private static func documentIDs(in collection: CollectionReference, startingWith partial: String) -> [String] {
    var query: Query = collection.order(by: FieldPath.documentID())
    if !partial.isEmpty { query = query.start(at: [partial]) }
    let snapshot = try? query.limit(to: documentLimit).getDocuments()
    return (snapshot?.documents ?? []).map(\.documentID).prefix { $0.hasPrefix(partial) }
  }

  /// The top-level field names of a few documents of `target` (`group:ID` for a group).
  private static func fieldNames(of target: String, session: Session) -> [String] {
    guard let database = try? session.database(for: .read) else { return [] }
    let query: Query
    if target.hasPrefix("group:") {
      query = database.collectionGroup(String(target.dropFirst("group:".count)))
    } else if let path = try? ShellPath.parse(target), path.kind == .collection {
      query = database.collection(path.path)
    } else {
      return []
    }
    let documents = (try? query.limit(to: fieldSample).getDocuments().documents) ?? []
    return Set(documents.flatMap { $0.data().keys }).sorted()
  }
}
