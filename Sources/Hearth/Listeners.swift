import Foundation
import HearthCore
import Synchronization

/// What `addSnapshotListener` returns: `remove()` stops the listener.
public protocol ListenerRegistration: AnyObject {
  /// Stops the listener. Once it returns, the listener's callback never runs again, not
  /// even for commits made before the call. Safe to call from inside the callback, and
  /// more than once.
  func remove()
}

/// Hands a listener's snapshots to its callback through a callback runner (the one for the
/// isolation the listener was written in), in the order they were made, until `mute()`.
///
/// `@unchecked Sendable`: `callback` is guarded by `lock`, which is held while the
/// callback runs, so that `mute()` from another thread waits for a running callback and
/// none starts after it returns; the lock is recursive, so the callback may mute itself.
/// Views ask `isMuted` from inside commits, which must never wait for a callback (a
/// callback may itself write), so it is a separate atomic flag.
final class ListenerDelivery<Snapshot>: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var callback: ((Snapshot?, Error?) -> Void)?
  private let muted = Atomic<Bool>(false)
  private let pump: any CallbackRunner

  init(pump: any CallbackRunner, callback: @escaping (Snapshot?, Error?) -> Void) {
    self.pump = pump
    self.callback = callback
  }

  var isMuted: Bool { muted.load(ordering: .acquiring) }

  /// Queues one call of the callback with what `make` gives (made on the queue).
  func deliver(_ make: @escaping @Sendable () -> (Snapshot?, Error?)) {
    pump.enqueue { [self] in
      lock.lock()
      defer { lock.unlock() }
      guard let callback else { return }
      let (snapshot, error) = make()
      callback(snapshot, error)
    }
  }

  /// Delivers `error` and stops: Firestore ends a listener after its first error.
  func fail(_ error: Error) {
    muted.store(true, ordering: .releasing)
    pump.enqueue { [self] in
      lock.lock()
      defer { lock.unlock() }
      guard let callback else { return }
      self.callback = nil
      callback(nil, error)
    }
  }

  func mute() {
    muted.store(true, ordering: .releasing)
    lock.lock()
    callback = nil
    lock.unlock()
  }
}

/// The registration of one listener: mutes its delivery, then unregisters its view.
final class HearthListenerRegistration<Snapshot>: ListenerRegistration, @unchecked Sendable {
  // @unchecked: `token` is set once, before the registration is handed out.
  private let delivery: ListenerDelivery<Snapshot>
  private let store: DocumentStore?
  private let token: Int?

  init(delivery: ListenerDelivery<Snapshot>, store: DocumentStore?, token: Int?) {
    self.delivery = delivery
    self.store = store
    self.token = token
  }

  func remove() {
    delivery.mute()
    if let store, let token { store.observers.remove(token) }
  }
}

/// A listener's view, driven by the store's commits: each snapshot its core view makes
/// goes to the delivery, made into the API's snapshot by `snapshot` on the delivery's
/// queue.
///
/// `@unchecked Sendable`: `view` is read and written only under the database's writer
/// pause (in `start` and in `commitApplied`), one commit at a time.
final class ViewListener<View: LiveView, Delivered>: CommitObserver, @unchecked Sendable {
  private var view: View
  private let delivery: ListenerDelivery<Delivered>
  private let snapshot: @Sendable (View.Snapshot) -> Delivered

  init(_ view: View, delivery: ListenerDelivery<Delivered>, snapshot: @escaping @Sendable (View.Snapshot) -> Delivered)
  {
    self.view = view
    self.delivery = delivery
    self.snapshot = snapshot
  }

  /// The first snapshot, on the state the listener starts from.
  func start(_ reader: StoreReader) throws {
    deliver(try view.start(reader))
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    do {
      guard let next = try view.update(by: changes, reader: reader) else { return }
      deliver(next)
    } catch {
      delivery.fail(error)
    }
  }

  private func deliver(_ result: View.Snapshot) {
    let snapshot = snapshot
    delivery.deliver { (snapshot(result), nil) }
  }
}

extension Database {
  /// Registers the listener `callback`, run by `runner`, through the view `makeView`
  /// builds and the function that makes its snapshots into the API's, starting the view
  /// on the current state. A failure (an invalid query, a closed database) reaches the
  /// listener as its one callback.
  func listen<View: LiveView, Snapshot>(
    _ runner: any CallbackRunner, _ callback: @escaping (Snapshot?, Error?) -> Void,
    _ makeView: () throws -> (view: View, snapshot: @Sendable (View.Snapshot) -> Snapshot)
  ) -> ListenerRegistration {
    let delivery = ListenerDelivery(pump: runner, callback: callback)
    do {
      let (view, snapshot) = try makeView()
      let listener = ViewListener(view, delivery: delivery, snapshot: snapshot)
      let store = try engine()
      let token = try store.observe(listener, scope: view.scope, initial: listener.start)
      return HearthListenerRegistration(delivery: delivery, store: store, token: token)
    } catch {
      delivery.fail(error)
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
  }
}

/// Carries a registration into a stream's termination handler.
///
/// `@unchecked Sendable`: `remove()` is safe from any thread.
private struct RegistrationBox: @unchecked Sendable {
  let registration: ListenerRegistration
  init(_ registration: ListenerRegistration) { self.registration = registration }
}

/// A listener's snapshots as an asynchronous sequence: `add` registers the listener with
/// the runner it is given (the database's stream pump, on a private queue: a stream's
/// consumer runs in its own task, so the callback need not run on any actor, and must not
/// wait for a main queue that a program may be blocking); ending the iteration removes
/// it, and an error ends the sequence.
func snapshotStream<Snapshot: Sendable>(
  _ database: Database,
  _ add: (any CallbackRunner, @escaping (Snapshot?, Error?) -> Void) -> ListenerRegistration
) -> AsyncThrowingStream<Snapshot, Error> {
  AsyncThrowingStream { continuation in
    let registration = add(database.streamCallbacks) { snapshot, error in
      if let snapshot { continuation.yield(snapshot) } else { continuation.finish(throwing: error) }
    }
    let box = RegistrationBox(registration)
    continuation.onTermination = { _ in box.registration.remove() }
  }
}

// MARK: - Statistics

/// How much work listeners cause (beyond Firestore): for checking that a commit reaches
/// only the views it can change.
public struct ListenerStatistics: Sendable, Equatable {
  /// The listeners registered now.
  public var listeners: Int
  /// How many times a view was handed a commit since the database opened: one per view
  /// whose collection, group or document a commit touched.
  public var viewEvaluations: Int
}

extension Database {
  /// The listeners registered on this database now and the views its commits have reached;
  /// zeros once the database is closed (or when it could not be opened).
  public var listenerStatistics: ListenerStatistics {
    guard let store = try? engine() else { return ListenerStatistics(listeners: 0, viewEvaluations: 0) }
    return ListenerStatistics(listeners: store.observers.count, viewEvaluations: store.observers.evaluations)
  }
}
