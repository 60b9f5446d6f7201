import Foundation
import HearthCore

/// Declared indexes, in the format of Firestore's `firestore.indexes.json`.
///
/// Hearth keeps an automatic index on every field (and every array element) at
/// collection scope, as Firestore does; declare composite indexes for queries that
/// filter on one field and order by another, and collection-group indexes
/// (`fieldOverrides` with `"queryScope": "COLLECTION_GROUP"`, or composite indexes with
/// that scope) for collection-group queries. Queries run without them too, on the best
/// index there is — unless `Settings.requireIndexes` asks for production Firestore's
/// rules. A `firestore.indexes.json` beside the database's files is declared when the
/// database opens.
extension Database {
  /// Declares the indexes of a `firestore.indexes.json` text, adding them to those
  /// declared; new indexes are filled from the existing documents in the same commit.
  ///
  /// ```swift
  /// try db.declareIndexes(json: """
  ///   {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION",
  ///     "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"},
  ///                {"fieldPath": "createdAt", "order": "DESCENDING"}]}]}
  ///   """)
  /// ```
  ///
  /// - Throws: `invalidArgument` naming the entry that is not valid (nothing is declared
  ///   then); and the errors of every write (see `Database`).
  public func declareIndexes(json: String) throws {
    try engine().declareIndexes(IndexFile.parse(json))
  }

  /// Declares the indexes of a `firestore.indexes.json` file.
  ///
  /// - Throws: `notFound` for a missing file, `invalidArgument` for an invalid one (text
  ///   that is not UTF-8 included, naming its line and byte offset); and the errors of
  ///   every write (see `Database`).
  public func declareIndexes(fromFile path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw HearthError(.notFound, "Cannot read the index file \(path)")
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      // The JSON parser names the position of the first byte that is not UTF-8.
      do { _ = try JSONParser.parse(utf8: Array(data)) } catch {
        throw HearthError(.invalidArgument, "\(path): invalid JSON at \(error)")
      }
      throw HearthError(.invalidArgument, "\(path) is not UTF-8 text")
    }
    do { try declareIndexes(json: text) } catch let error as HearthError where error.code == .invalidArgument {
      throw HearthError(.invalidArgument, "\(path): \(error.message)")
    }
  }

  /// Drops declared indexes, given as a `firestore.indexes.json` text, and removes their
  /// entries, all in one commit. Each index must be declared as written (collection
  /// group, scope, fields and their orders); a collection-group single-field index is
  /// written as a one-field entry of `indexes` with `"queryScope": "COLLECTION_GROUP"`.
  ///
  /// ```swift
  /// try db.dropIndexes(json: """
  ///   {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION",
  ///     "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"},
  ///                {"fieldPath": "createdAt", "order": "DESCENDING"}]}]}
  ///   """)
  /// ```
  ///
  /// A `firestore.indexes.json` beside the database's files declares its indexes again
  /// when the database next opens: drop an index there too.
  ///
  /// - Returns: the number of index entries removed.
  /// - Throws: `notFound` naming an index that is not declared (then nothing is
  ///   dropped); `invalidArgument` for invalid JSON or for `fieldOverrides`, which cannot
  ///   be dropped (declare the override again with the indexes the field should keep);
  ///   and the errors of every write (see `Database`).
  @discardableResult
  public func dropIndexes(json: String) throws -> Int {
    try engine().dropIndexes(IndexFile.parse(json))
  }

  /// The declared indexes, as a `firestore.indexes.json` text (the automatic
  /// single-field indexes are not listed).
  ///
  /// - Throws: as every read, `failedPrecondition` (closed) or `dataLoss` (damaged file).
  public func declaredIndexesJSON() throws -> String {
    try engine().declaredIndexes().serialized()
  }

  /// Checks that `json` is a valid `firestore.indexes.json` text, without a database: so
  /// that a tool can refuse bad input before it opens (or creates) anything.
  ///
  /// - Throws: the `invalidArgument` error `declareIndexes(json:)` would throw.
  public static func validateIndexes(json: String) throws {
    _ = try IndexFile.parse(json)
  }
}
