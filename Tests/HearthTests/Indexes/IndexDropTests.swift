import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `dropIndexes(json:)`: a dropped index is gone with its entries, in one commit, and
/// the integrity check agrees; `validateIndexes(json:)` checks without a database.
@Suite struct IndexDropTests {
  static let ownerByLikes = """
    {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION",
      "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, {"fieldPath": "likes", "order": "DESCENDING"}]}]}
    """
  static let tagsByLikes = """
    {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
      "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "likes", "order": "ASCENDING"}]}]}
    """

  static func populate(_ db: Database) throws {
    try db.document("posts/p1").setData(["ownerId": "alice", "likes": 3, "tags": ["a", "b"]])
    try db.document("posts/p2").setData(["ownerId": "alice", "likes": 5, "tags": ["a"]])
    try db.document("users/bob/posts/p3").setData(["ownerId": "bob", "likes": 1])
  }

  static var strict: Settings {
    let settings = relaxed
    settings.requireIndexes = true
    return settings
  }

  @Test func droppingRemovesTheIndexAndItsEntries() throws {
    try withDatabase(settings: Self.strict) { db in
      try Self.populate(db)
      let automatic = try db.stats().indexEntries
      try db.declareIndexes(json: Self.ownerByLikes)
      try db.declareIndexes(json: Self.tagsByLikes)
      // ownerByLikes: p1, p2, p3; tagsByLikes: a and b for p1, a for p2.
      #expect(try db.stats().indexEntries == automatic + 6)
      let query = db.collection("posts").whereField("ownerId", isEqualTo: "alice").order(by: "likes", descending: true)
      #expect(try query.getDocuments().documents.map(\.documentID) == ["p2", "p1"])

      #expect(try db.dropIndexes(json: Self.ownerByLikes) == 3)
      #expect(try db.stats().indexEntries == automatic + 3)
      #expect(try db.stats().declaredIndexes == 1)
      expectHearthError(.failedPrecondition, mentioning: ["requires an index"]) { _ = try query.getDocuments() }
      #expect(try db.check().ok)
      // The other index still serves its query.
      let tagged = db.collectionGroup("posts").whereField("tags", arrayContains: "a").order(by: "likes")
      #expect(try tagged.getDocuments().documents.map(\.documentID) == ["p1", "p2"])

      // Declared again, it is filled afresh.
      try db.declareIndexes(json: Self.ownerByLikes)
      #expect(try query.getDocuments().documents.map(\.documentID) == ["p2", "p1"])
      #expect(try db.check().ok)
      // And writes after a drop keep the remaining indexes right.
      #expect(try db.dropIndexes(json: Self.tagsByLikes) == 3)
      try db.document("posts/p4").setData(["ownerId": "alice", "likes": 9, "tags": ["c"]])
      #expect(try db.check().ok)
      #expect(try db.stats().indexEntries == (try db.check().indexEntries))
    }
  }

  @Test func anIndexNotDeclaredIsNotFoundAndNothingIsDropped() throws {
    try withDatabase(settings: relaxed) { db in
      try Self.populate(db)
      try db.declareIndexes(json: Self.ownerByLikes)
      let before = try db.declaredIndexesJSON()
      let entries = try db.stats().indexEntries
      // Two indexes, the second not declared: neither is dropped.
      let both = """
        {"indexes": [\(Self.entry(Self.ownerByLikes)), \(Self.entry(Self.tagsByLikes))]}
        """
      expectHearthError(.notFound, mentioning: ["tags", "is not declared"]) { try db.dropIndexes(json: both) }
      expectHearthError(.invalidArgument, mentioning: ["Field overrides cannot be dropped"]) {
        try db.dropIndexes(
          json: #"{"fieldOverrides": [{"collectionGroup": "posts", "fieldPath": "likes", "indexes": []}]}"#)
      }
      expectHearthError(.invalidArgument, mentioning: ["Invalid index file"]) { try db.dropIndexes(json: "[]") }
      #expect(try db.declaredIndexesJSON() == before)
      #expect(try db.stats().indexEntries == entries)
    }
  }

  @Test func aDropLastsAcrossReopening() throws {
    let path = makeTemporaryPath("hearth-drop")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try withDatabase(at: path, settings: relaxed) { db in
        try Self.populate(db)
        try db.declareIndexes(json: Self.ownerByLikes)
        try db.declareIndexes(json: Self.tagsByLikes)
        try db.dropIndexes(json: Self.ownerByLikes)
      }
    }
    try withDatabase(at: path, settings: relaxed) { db throws in
      #expect(try db.stats().declaredIndexes == 1)
      #expect(!(try db.declaredIndexesJSON().contains("ownerId")))
      #expect(try db.check().ok)
    }
  }

  /// A field name with special characters is written in backticks, and read back so.
  @Test func backtickedFieldPathsReadBackAsDeclared() throws {
    let path = makeTemporaryPath("hearth-backticks")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let json =
      #"{"indexes": [{"collectionGroup": "people", "queryScope": "COLLECTION", "fields": ["#
      + #"{"fieldPath": "`first name`", "order": "ASCENDING"}, {"fieldPath": "`a.b`.c", "order": "DESCENDING"}]}]}"#
    do {
      try withDatabase(at: path, settings: relaxed) { db in
        try db.document("people/ada").setData(["first name": "Ada", "a.b": ["c": 1]])
        try db.declareIndexes(json: json)
        #expect(try db.declaredIndexesJSON().contains(#""fieldPath": "`a.b`.c""#))
      }
    }
    // A new handle reads the stored declaration back: the same fields, so the entry the
    // declaration wrote is the one the check expects.
    let settings = Self.strict
    settings.readOnly = true
    try withDatabase(at: path, settings: settings) { db in
      let report = try db.check()
      #expect(report.ok, "\(report.problems)")
      let query = db.collection("people").whereField(FieldPath(["first name"]), isEqualTo: "Ada")
        .order(by: FieldPath(["a.b", "c"]), descending: true)
      #expect(try query.getDocuments().documents.map(\.documentID) == ["ada"])
    }
  }

  @Test func validateIndexesNeedsNoDatabase() throws {
    try Database.validateIndexes(json: Self.ownerByLikes)
    try Database.validateIndexes(json: "{}")
    expectHearthError(.invalidArgument, mentioning: ["Invalid index file: line 1, column 2"]) {
      try Database.validateIndexes(json: "{")
    }
    expectHearthError(.invalidArgument, mentioning: ["indexes[0].fields is empty"]) {
      try Database.validateIndexes(json: #"{"indexes": [{"collectionGroup": "posts", "fields": []}]}"#)
    }
    expectHearthError(.invalidArgument, mentioning: ["backtick is not closed"]) {
      try Database.validateIndexes(
        json: #"{"indexes": [{"collectionGroup": "p", "fields": [{"fieldPath": "`a", "order": "ASCENDING"}]}]}"#)
    }
  }

  /// The one entry of an index file's `indexes` array, as text.
  static func entry(_ file: String) -> String {
    let start = file.index(after: file.firstIndex(of: "[")!)
    let end = file.lastIndex(of: "]")!
    return String(file[start..<end])
  }
}
