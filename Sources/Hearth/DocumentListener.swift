import Foundation
import HearthCore

extension DocumentReference {
  /// Calls `listener` with the document now, then after every commit that changes its
  /// data or its existence (`exists == false` when missing or deleted), in commit order.
  /// A rewrite with the same data raises no snapshot.
  ///
  /// `listener` runs in the isolation it was written in (`isolation`, the caller's): on
  /// the main actor for top-level code and `@MainActor` types, on an actor for an actor's
  /// method, and on `Settings.dispatchQueue` (the main queue unless set) outside any actor.
  @discardableResult
  public func addSnapshotListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping (DocumentSnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  /// As `addSnapshotListener(_:)`; metadata never changes on its own in Hearth.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, isolation: isolated (any Actor)? = #isolation,
    listener: @escaping (DocumentSnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    listen(on: firestore.callbacks(for: isolation), listener)
  }

  private func listen(
    on runner: any CallbackRunner, _ listener: @escaping (DocumentSnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    firestore.listen(runner, listener) {
      let key = try validKey()
      return (
        DocumentView(key: key),
        { [firestore] in DocumentSnapshot(database: firestore, key: key, document: $0.document) }
      )
    }
  }

  /// The document's snapshots as an asynchronous sequence; ending the iteration removes
  /// the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<DocumentSnapshot, Error> {
    snapshotStream(firestore) { listen(on: $0, $1) }
  }

  /// `snapshots(includeMetadataChanges: false)`, as Firebase names it:
  /// `for try await snapshot in reference.snapshots`.
  public var snapshots: AsyncThrowingStream<DocumentSnapshot, Error> { snapshots() }
}
