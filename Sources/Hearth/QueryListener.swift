import Foundation
import HearthCore

extension QuerySnapshot {
  /// The API's snapshot of a query view's result (`QueryView` computes it).
  convenience init(query: Query, view: QueryView.Snapshot) {
    let database = query.firestore
    self.init(
      query: query, documents: view.documents.map { QueryDocumentSnapshot(database: database, document: $0) },
      changes: view.changes?.map { change in
        DocumentChange(
          type: change.kind.type, document: QueryDocumentSnapshot(database: database, document: change.document),
          oldIndex: UInt(change.oldIndex ?? NSNotFound), newIndex: UInt(change.newIndex ?? NSNotFound))
      })
  }
}

extension ViewChange.Kind {
  fileprivate var type: DocumentChangeType {
    switch self {
    case .added: .added
    case .modified: .modified
    case .removed: .removed
    }
  }
}

extension Query {
  /// Calls `listener` with the query's results now, then after every commit that changes
  /// them (documents, order, or changes seen through `documentChanges`), in commit order.
  /// A commit that changes nothing this query sees raises no snapshot.
  ///
  /// `listener` runs in the isolation it was written in (`isolation`, the caller's): on
  /// the main actor for top-level code and `@MainActor` types, on an actor for an actor's
  /// method, and on `Settings.dispatchQueue` (the main queue unless set) outside any actor.
  @discardableResult
  public func addSnapshotListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  /// As `addSnapshotListener(_:)`. Hearth's snapshots are never from a cache and never
  /// have pending writes (a write returns once committed), so metadata never changes on
  /// its own and `includeMetadataChanges` adds no snapshot.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, isolation: isolated (any Actor)? = #isolation,
    listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  private func listen(
    on runner: any CallbackRunner, _ listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    firestore.listen(runner, listener) {
      let view = QueryView(model: try runnableModel(), requireIndexes: firestore.requireIndexes)
      return (view, { [self] in QuerySnapshot(query: self, view: $0) })
    }
  }

  /// The query's snapshots as an asynchronous sequence: the current results, then one
  /// snapshot per commit that changes them. Ending the iteration removes the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<QuerySnapshot, Error> {
    snapshotStream(firestore) { listen(on: $0, $1) }
  }

  /// `snapshots(includeMetadataChanges: false)`, as Firebase names it:
  /// `for try await snapshot in query.snapshots`.
  public var snapshots: AsyncThrowingStream<QuerySnapshot, Error> { snapshots() }
}
