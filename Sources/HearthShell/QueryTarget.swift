import Hearth

/// What `query` and `explain` read: a collection (`users/alice/posts`) or every
/// collection with one ID (`group:posts`).
enum QueryTarget: Equatable {
  case collection(String)
  case group(String)

  /// - Throws: `PathError` for a document path, a bad path, or `group:` without a valid
  ///   ID.
  static func parse(_ text: String, for command: String) throws(PathError) -> QueryTarget {
    if text.hasPrefix("group:") {
      return .group(try ShellPath.collectionGroup(String(text.dropFirst("group:".count)), in: text))
    }
    return .collection(try ShellPath.collection(text, for: command))
  }

  func query(in database: Database) -> Query {
    switch self {
    case .collection(let path): database.collection(path)
    case .group(let collectionID): database.collectionGroup(collectionID)
    }
  }
}
