import Foundation
import Testing

@testable import HearthCore

/// The core's live views, driven as a front end drives them: commit, then hand the view
/// the commit's changes on the state it left. Only `Value`s and encoded documents go in
/// and come out.
@Suite struct LiveViewTests {
  private static let likes = FieldPath(["likes"])

  /// A view of `posts` by likes, most first, with an optional limit.
  private static func postsByLikes(limit: Int? = nil) -> QueryModel {
    var model = QueryModel(target: .collection(ResourcePath(["posts"])))
    model.explicitOrderBys = [OrderBy(field: likes, descending: true)]
    model.limit = limit
    return model
  }

  private static func post(_ id: String, likes: Int64) throws -> Write {
    Write(key: try DocumentKey(parsing: "posts/\(id)"), kind: .set(["likes": .integer(likes)]))
  }

  private static func delete(_ path: String) throws -> Write {
    Write(key: try DocumentKey(parsing: path), kind: .delete)
  }

  /// Commits `writes` and hands their changes to `view`.
  private static func update<View: LiveView>(_ view: inout View, _ store: DocumentStore, _ writes: [Write]) throws
    -> View.Snapshot?
  {
    let changes = CommitChanges(keys: try store.commit(writes).changedKeys)
    return try store.read { try view.update(by: changes, reader: $0) }
  }

  private static func ids(_ documents: [EncodedDocument]) -> [String] { documents.map(\.key.documentID) }

  /// Each change carries its kind and its positions counted as Firestore counts them:
  /// removals first, then additions, then modifications, each applied in turn.
  @Test func aQueryViewReportsEachChangeWithItsOldAndNewIndex() throws {
    try withStore { store in
      try store.commit([Self.post("a", likes: 30), Self.post("b", likes: 20), Self.post("c", likes: 10)])
      var view = QueryView(model: Self.postsByLikes(), requireIndexes: false)
      let first = try store.read { try view.start($0) }
      #expect(Self.ids(first.documents) == ["a", "b", "c"])
      #expect(first.changes == nil)

      let next = try #require(
        try Self.update(
          &view, store, [Self.delete("posts/a"), Self.post("d", likes: 15), Self.post("c", likes: 40)]))
      #expect(Self.ids(next.documents) == ["c", "b", "d"])
      let changes = try #require(next.changes)
      #expect(changes.map(\.kind) == [.removed, .added, .modified])
      #expect(Self.ids(changes.map(\.document)) == ["a", "d", "c"])
      // a leaves [a b c] from 0; d enters [b c] at 1; c moves from 2 of [b d c] to 0.
      #expect(changes.map(\.oldIndex) == [0, nil, 2])
      #expect(changes.map(\.newIndex) == [nil, 1, 0])
      #expect(Self.ids(view.documents.map(\.encoded)) == ["c", "b", "d"])
    }
  }

  /// A commit outside the query's collection, or one that rewrites a result with the
  /// same data, gives no snapshot.
  @Test func aQueryViewIsQuietWhenNothingItShowsChanged() throws {
    try withStore { store in
      try store.commit([Self.post("a", likes: 30)])
      var view = QueryView(model: Self.postsByLikes(), requireIndexes: false)
      _ = try store.read { try view.start($0) }
      let elsewhere = Write(key: try DocumentKey(parsing: "posts/a/comments/x"), kind: .set(["likes": .integer(1)]))
      #expect(try Self.update(&view, store, [elsewhere]) == nil)
      #expect(try Self.update(&view, store, [Self.post("a", likes: 30)]) == nil)
      #expect(try Self.update(&view, store, [Self.post("a", likes: 31)])?.changes?.map(\.kind) == [.modified])
    }
  }

  /// A document leaving a full limit window needs a refill (the next document beyond
  /// the window is not in the view); a change that leaves the window full does not.
  @Test func aQueryViewWithALimitKnowsWhenItNeedsARefill() throws {
    try withStore { store in
      try store.commit([Self.post("a", likes: 30), Self.post("b", likes: 20), Self.post("c", likes: 10)])
      var view = QueryView(model: Self.postsByLikes(limit: 2), requireIndexes: false)
      #expect(Self.ids(try store.read { try view.start($0) }.documents) == ["a", "b"])

      let raise = CommitChanges(keys: try store.commit([Self.post("b", likes: 50)]).changedKeys)
      let raised = try store.read { try view.compute(raise, reader: $0) }
      guard case .documents(let documents) = raised else {
        Issue.record("A change inside a full window needs no refill: \(raised)")
        return
      }
      #expect(Self.ids(documents.map(\.encoded)) == ["b", "a"])
      _ = try store.read { try view.update(by: raise, reader: $0) }

      let removal = CommitChanges(keys: try store.commit([Self.delete("posts/a")]).changedKeys)
      let removed = try store.read { try view.compute(removal, reader: $0) }
      guard case .needsRefill = removed else {
        Issue.record("A document leaving a full window needs a refill: \(removed)")
        return
      }
      let refilled = try #require(try store.read { try view.update(by: removal, reader: $0) })
      #expect(Self.ids(refilled.documents) == ["b", "c"])
      #expect(refilled.changes?.map(\.kind) == [.removed, .added])
      #expect(refilled.changes?.map(\.newIndex) == [nil, 1])
    }
  }

  /// A document view shows the document's data and existence; a rewrite with the same
  /// data shows nothing new.
  @Test func aDocumentViewFollowsOneDocument() throws {
    try withStore { store in
      let key = try DocumentKey(parsing: "posts/a")
      var view = DocumentView(key: key)
      #expect(try store.read { try view.start($0) }.document == nil)
      #expect(view.scope == .document(key))

      let created = try #require(try Self.update(&view, store, [Self.post("a", likes: 1)]))
      #expect(created.document?.stored.fields == ["likes": .integer(1)])
      #expect(try Self.update(&view, store, [Self.post("a", likes: 1)]) == nil)
      #expect(try Self.update(&view, store, [Self.delete("posts/a")])?.document == nil)
      #expect(view.document == nil)
      #expect(try Self.update(&view, store, [Self.delete("posts/a")]) == nil)
    }
  }

  /// A live aggregation's values follow the changed documents alone and equal what a
  /// fresh run of the aggregation gives.
  @Test func anAggregateViewKeepsItsValuesFromTheChangedDocuments() throws {
    try withStore { store in
      try store.commit([Self.post("a", likes: 30), Self.post("b", likes: 20)])
      let model = Self.postsByLikes()
      let functions: [AggregateFunction] = [.count, .sum(Self.likes), .average(Self.likes)]
      var view = AggregateView(model: model, functions: functions, requireIndexes: false)
      #expect(try store.read { try view.start($0) }.values == [.integer(2), .integer(50), .double(25)])

      let next = try #require(
        try Self.update(&view, store, [Self.delete("posts/a"), Self.post("c", likes: 4), Self.post("d", likes: 0)]))
      #expect(next.values == [.integer(3), .integer(24), .double(8)])
      #expect(try store.read { try $0.aggregate(model, functions) } == next.values)
      // Zero likes more on a document that had none changes no value.
      #expect(try Self.update(&view, store, [Self.post("d", likes: 0)]) == nil)
    }
  }
}
