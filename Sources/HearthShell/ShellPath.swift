import Hearth

/// What a path names: the database root, a collection (odd number of segments) or a
/// document (even number).
enum PathKind: Sendable, Equatable {
  case root, collection, document
}

/// A path no command takes, or one of the wrong kind for the command. A path is data, so
/// every one of these is bad input (exit 65, `invalidArgument`), as Hearth's own errors
/// for an invalid path are, whichever command takes the path and whether or not a
/// database is there: a usage error (64) is a command typed wrong, not a path.
enum PathError: Error, Equatable {
  /// The shape is wrong (empty, `//`).
  case invalid(String, reason: String)
  /// A collection where a document is needed, or the reverse, or the root.
  case wrongKind(path: String, command: String, expected: PathKind)
  /// An ID or a depth Hearth refuses, in Hearth's (Firestore's) words.
  case refused(message: String)

  var message: String {
    switch self {
    case .invalid(let path, let reason):
      return "invalid path '\(path)': \(reason)"
    case .wrongKind(let path, let command, let expected):
      switch expected {
      case .document:
        return "\(path) is a collection; \(command) needs a document path (an even number of segments, "
          + "such as \(path)/ID)"
      case .collection:
        return "\(path) is a document; \(command) needs a collection path (an odd number of segments, "
          + "such as \(path)/COLLECTION)"
      case .root:
        return "\(command) takes no path"
      }
    case .refused(let message):
      return message
    }
  }
}

/// A path typed on the command line, checked and classified before anything is read
/// (or opened): its shape (empty segments, which kind) and Hearth's rules on IDs
/// (`.`, `..`, `__reserved__`, length) and depth, so that a bad path is the same error
/// with or without a database.
struct ShellPath: Equatable {
  let kind: PathKind
  /// Segments joined by `/`, without leading or trailing slashes; empty for the root.
  let path: String

  static let root = ShellPath(kind: .root, path: "")

  /// Parses `text`: one leading and one trailing `/` are ignored (as Hearth does); `/`
  /// alone is the root.
  ///
  /// - Throws: `PathError` for an empty path or empty segments (`users//alice`), or an
  ///   ID or depth Hearth refuses.
  static func parse(_ text: String) throws(PathError) -> ShellPath {
    var trimmed = Substring(text)
    if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
    if trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    if trimmed.isEmpty {
      if text.isEmpty { throw .invalid(text, reason: "a path cannot be empty") }
      return .root
    }
    let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
    if segments.contains(where: \.isEmpty) {
      throw .invalid(text, reason: "paths must not contain empty segments (//)")
    }
    do {
      try Database.validatePath(text)
    } catch {
      throw .refused(message: (error as? HearthError)?.message ?? "\(error)")
    }
    return ShellPath(kind: segments.count % 2 == 1 ? .collection : .document, path: String(trimmed))
  }

  /// The path, which must be a document's.
  static func document(_ text: String, for command: String) throws(PathError) -> String {
    try parse(text).require(.document, for: command)
  }

  /// The path, which must be a collection's.
  static func collection(_ text: String, for command: String) throws(PathError) -> String {
    try parse(text).require(.collection, for: command)
  }

  func require(_ expected: PathKind, for command: String) throws(PathError) -> String {
    guard kind == expected else {
      if kind == .root {
        throw .invalid("/", reason: "\(command) needs a \(expected == .document ? "document" : "collection") path")
      }
      throw .wrongKind(path: path, command: command, expected: expected)
    }
    return path
  }

  /// The ID of `group:ID`, checked as `collectionGroup(_:)` checks it.
  ///
  /// - Throws: `PathError` for a missing ID, or one Hearth refuses.
  static func collectionGroup(_ id: String, in text: String) throws(PathError) -> String {
    guard !id.isEmpty else { throw .invalid(text, reason: "group: needs a collection ID, such as group:posts") }
    do {
      try Database.validateCollectionID(id)
    } catch {
      throw .refused(message: (error as? HearthError)?.message ?? "\(error)")
    }
    return id
  }
}
