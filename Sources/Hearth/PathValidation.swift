import HearthCore

extension Database {
  /// Checks a document or collection path as making a reference does (segments, IDs,
  /// depth), without a database: so that a tool (the doc shell) refuses a bad path
  /// before it opens, or creates, anything.
  ///
  /// - Throws: `invalidArgument` naming the path and the rule broken, in the words a
  ///   reference's operations would use.
  package static func validatePath(_ path: String) throws {
    _ = try ResourcePath.parse(path)
  }

  /// Checks a collection ID as `collectionGroup(_:)` does, without a database.
  ///
  /// - Throws: `invalidArgument` naming the ID and the rule broken.
  package static func validateCollectionID(_ collectionID: String) throws {
    if let problem = Query.problem(withCollectionID: collectionID) { throw problem }
  }
}
