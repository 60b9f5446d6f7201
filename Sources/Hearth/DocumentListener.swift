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
  /// data or its existence (`exists == false` when missing or deleted), on
  /// `Settings.dispatchQueue`, in commit order. A rewrite with the same data raises no
  /// snapshot.
  @discardableResult
  public func addSnapshotListener(_ listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
    addSnapshotListener(includeMetadataChanges: false, listener: listener)
  }

  /// As `addSnapshotListener(_:)`; metadata never changes on its own in Hearth.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, listener: @escaping (DocumentSnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    firestore.listen(listener) { delivery in
      let key = try validKey()
      let view = DocumentView(reference: self, key: key, delivery: delivery)
      return (view, .document(key), view.start)
    }
  }

  /// The document's snapshots as an asynchronous sequence; ending the iteration removes
  /// the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<DocumentSnapshot, Error> {
    snapshotStream { addSnapshotListener(includeMetadataChanges: includeMetadataChanges, listener: $0) }
  }
}
