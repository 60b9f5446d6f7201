import HearthCore

/// A database's resource name, `projects/{project_id}/databases/{database_id}`, and the
/// names of the documents and collections inside it
/// (`projects/P/databases/D/documents/{path}`), which every request and response
/// carries.
///
/// Names are read structurally: non-empty segments separated by single slashes. Document
/// IDs are not checked against the rules for writes (a query cursor from the Python client's
/// `recursive_delete` names `cities/__id-9223372036854775808__`, an ID writes may not
/// use); the handler that writes validates the key as HearthCore's `ResourcePath.validate`
/// does.
package struct DatabaseName: Hashable, Sendable, CustomStringConvertible {
  package let projectID: String
  package let databaseID: String

  package init(projectID: String, databaseID: String) {
    self.projectID = projectID
    self.databaseID = databaseID
  }

  /// `projects/P/databases/D`.
  package var name: String { "projects/\(projectID)/databases/\(databaseID)" }
  /// `projects/P/databases/D/documents`: the parent of root collections.
  package var documentsName: String { name + "/documents" }
  package var description: String { name }

  /// Parses `projects/P/databases/D`.
  ///
  /// - Throws: `invalidArgument` naming the expected form.
  package init(parsing text: String) throws {
    let segments = text.split(separator: "/", omittingEmptySubsequences: false)
    guard segments.count == 4, segments[0] == "projects", segments[2] == "databases", !segments[1].isEmpty,
      !segments[3].isEmpty
    else {
      throw HearthError(
        .invalidArgument, "'\(text)' is not a database name: expected projects/{project_id}/databases/{database_id}")
    }
    self.init(projectID: String(segments[1]), databaseID: String(segments[3]))
  }

  /// Splits `projects/P/databases/D/documents[/path]` into the database and the path
  /// under `documents` (empty for the root).
  ///
  /// - Throws: `invalidArgument` for another form or an empty segment.
  package static func parseResource(_ text: String) throws -> (database: DatabaseName, path: ResourcePath) {
    let segments = text.split(separator: "/", omittingEmptySubsequences: false)
    guard segments.count >= 5, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents",
      !segments[1].isEmpty, !segments[3].isEmpty
    else {
      throw HearthError(
        .invalidArgument,
        "'\(text)' is not a resource name: expected projects/{project_id}/databases/{database_id}/documents/{path}")
    }
    let path = segments.dropFirst(5)
    if path.contains(where: \.isEmpty) {
      throw HearthError(.invalidArgument, "'\(text)' has an empty segment: names must not contain // or end with /")
    }
    return (
      DatabaseName(projectID: String(segments[1]), databaseID: String(segments[3])), ResourcePath(path.map(String.init))
    )
  }

  /// The path under `documents` of a resource name in this database (empty for the root).
  ///
  /// - Throws: `invalidArgument` for a malformed name or one in another database.
  package func path(_ text: String) throws -> ResourcePath {
    let (database, path) = try DatabaseName.parseResource(text)
    guard database == self else {
      throw HearthError(.invalidArgument, "'\(text)' is not in the request's database \(name)")
    }
    return path
  }

  /// The key of a document name in this database.
  ///
  /// - Throws: `invalidArgument` for a malformed name, another database, or a path that
  ///   names a collection (an odd number of segments).
  package func documentKey(_ text: String) throws -> DocumentKey {
    let path = try path(text)
    guard !path.isEmpty, path.count % 2 == 0 else {
      throw HearthError(
        .invalidArgument,
        "'\(text)' is not a document name: its path must have an even number of segments, but it has \(path.count)")
    }
    return DocumentKey(path)
  }

  /// The path of a parent name: the documents root or a document.
  ///
  /// - Throws: `invalidArgument` for a malformed name, another database, or a collection.
  package func parentPath(_ text: String) throws -> ResourcePath {
    let path = try path(text)
    guard path.count % 2 == 0 else {
      throw HearthError(
        .invalidArgument,
        "'\(text)' is not a parent: expected the database's documents or a document, but it names a collection")
    }
    return path
  }

  /// The resource name of a path under `documents`.
  package func name(of path: ResourcePath) -> String {
    path.isEmpty ? documentsName : documentsName + "/" + path.canonical
  }

  package func name(of key: DocumentKey) -> String { name(of: key.path) }
}
