/// What a path names: the database root, a collection (odd number of segments) or a
/// document (even number).
enum PathKind: Sendable, Equatable {
  case root, collection, document
}

/// A path typed on the command line, classified before anything is read so that a
/// collection given where a document is needed is a usage error that says so.
///
/// Only the shape is checked here (empty segments, which kind); the rules on IDs
/// (`__reserved__`, length) are Hearth's, reported when the path is used.
struct ShellPath: Equatable {
  let kind: PathKind
  /// Segments joined by `/`, without leading or trailing slashes; empty for the root.
  let path: String

  static let root = ShellPath(kind: .root, path: "")

  /// Parses `text`: one leading and one trailing `/` are ignored (as Hearth does); `/`
  /// alone is the root.
  ///
  /// - Throws: `UsageError.invalidPath` for empty segments (`users//alice`).
  static func parse(_ text: String) throws(UsageError) -> ShellPath {
    var trimmed = Substring(text)
    if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
    if trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    if trimmed.isEmpty {
      if text.isEmpty { throw .invalidPath(text, reason: "a path cannot be empty") }
      return .root
    }
    let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
    if segments.contains(where: \.isEmpty) {
      throw .invalidPath(text, reason: "paths must not contain empty segments (//)")
    }
    return ShellPath(kind: segments.count % 2 == 1 ? .collection : .document, path: String(trimmed))
  }

  /// The path, which must be a document's.
  static func document(_ text: String, for command: String) throws(UsageError) -> String {
    try parse(text).require(.document, for: command)
  }

  /// The path, which must be a collection's.
  static func collection(_ text: String, for command: String) throws(UsageError) -> String {
    try parse(text).require(.collection, for: command)
  }

  func require(_ expected: PathKind, for command: String) throws(UsageError) -> String {
    guard kind == expected else {
      if kind == .root {
        throw .invalidPath("/", reason: "\(command) needs a \(expected == .document ? "document" : "collection") path")
      }
      throw .wrongPathKind(path: path, command: command, expected: expected)
    }
    return path
  }
}
