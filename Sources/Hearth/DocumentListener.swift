import Foundation
import HearthCore

/// A document listener's view: the document as last delivered.
///
/// `@unchecked Sendable`: as `QueryView`.
final class DocumentView: CommitObserver, @unchecked Sendable {
  private let reference: DocumentReference
  private let key: DocumentKey
  private let delivery: ListenerDelivery<DocumentSnapshot>
  private var current: EncodedDocument?

  init(reference: DocumentReference, key: DocumentKey, delivery: ListenerDelivery<DocumentSnapshot>) {
    self.reference = reference
    self.key = key
    self.delivery = delivery
  }

  func start(_ reader: StoreReader) throws {
    current = try reader.encodedDocument(key)
    let (reference, document) = (reference, current)
    delivery.deliver { (DocumentSnapshot(reference: reference, document: document), nil) }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    let next: EncodedDocument?
    do {
      next = try changes.document(key, reader: reader)
    } catch {
      delivery.fail(error)
      return
    }
    switch (current, next) {
    case (nil, nil): return
    case (let old?, let new?) where old.hasSameFields(as: new): return
    default: break
    }
    current = next
    let reference = reference
    delivery.deliver { (DocumentSnapshot(reference: reference, document: next), nil) }
  }
}

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
    firestore.listen(runner, listener) { delivery in
      let key = try validKey()
      let view = DocumentView(reference: self, key: key, delivery: delivery)
      return (view, .document(key), view.start)
    }
  }

  /// The document's snapshots as an asynchronous sequence; ending the iteration removes
  /// the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<DocumentSnapshot, Error> {
    snapshotStream(firestore) { listen(on: $0, $1) }
  }
}
