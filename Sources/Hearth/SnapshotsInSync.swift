import HearthCore

/// Hands its delivery each commit after every other observer has had it (an
/// `everyCommit` observer): the listeners that commit reached have queued their snapshots.
final class SnapshotsInSyncObserver: CommitObserver, @unchecked Sendable {
  // @unchecked: the delivery is Sendable in all but name (`ListenerDelivery`).
  private let delivery: ListenerDelivery<Void>

  init(delivery: ListenerDelivery<Void>) { self.delivery = delivery }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    delivery.deliver { ((), nil) }
  }
}

extension Database {
  /// Calls `listener` once now and then after every commit (this process's and other
  /// processes'), once the snapshot listeners that commit reached have been handed their
  /// snapshots: Firebase's "snapshots in sync" moment. With no server to catch up with,
  /// every commit is one. A listener written in the same isolation as the snapshot
  /// listeners runs after theirs, in commit order; one on a closed database is never
  /// called.
  @discardableResult
  public func addSnapshotsInSyncListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping () -> Void
  ) -> ListenerRegistration {
    let delivery = ListenerDelivery<Void>(pump: callbacks(for: isolation)) { _, _ in listener() }
    do {
      let store = try engine()
      let token = try store.observe(SnapshotsInSyncObserver(delivery: delivery), scope: .everyCommit) { _ in
        delivery.deliver { ((), nil) }
      }
      return HearthListenerRegistration(delivery: delivery, store: store, token: token)
    } catch {
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
  }
}
