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

/// Hands a listener's snapshots to its callback on the callback queue, in the order they
/// were made, until `mute()`.
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
  private let queue: DispatchQueue

  init(queue: DispatchQueue, callback: @escaping (Snapshot?, Error?) -> Void) {
    self.queue = queue
    self.callback = callback
  }

  var isMuted: Bool { muted.load(ordering: .acquiring) }

  /// Queues one call of the callback with what `make` gives (made on the queue).
  func deliver(_ make: @escaping @Sendable () -> (Snapshot?, Error?)) {
    queue.async { [self] in
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
    queue.async { [self] in
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

extension Database {
  /// Registers `view` for `scope`, starting it on the current state; a failure (an
  /// invalid query, a closed database) reaches the listener as its one callback.
  func listen<Snapshot>(
    _ view: some CommitObserver, scope: ObservationScope, delivery: ListenerDelivery<Snapshot>,
    start: (StoreReader) throws -> Void
  ) -> ListenerRegistration {
    do {
      let store = try engine()
      let token = try store.observe(view, scope: scope, initial: start)
      return HearthListenerRegistration(delivery: delivery, store: store, token: token)
    } catch {
      delivery.fail(error)
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
  }
}

extension ObservationScope {
  init(_ target: QueryModel.Target) {
    switch target {
    case .collection(let path): self = .collection(path)
    case .group(let id): self = .group(id)
    }
  }
}

// MARK: - Query listeners

/// A query listener's view: its current result, kept up to date from the documents each
/// commit changed. Each changed document of the view's collection or group is read and
/// checked against the query (filters, order-by fields, cursors) and put in or taken out
/// of the sorted result; the query runs again only to refill a `limit` window that a
/// document left, when what lies beyond the window might now belong in it.
///
/// `@unchecked Sendable`: `current` is read and written only under the database's
/// writer pause (at the start and in `commitApplied`), one commit at a time.
final class QueryView: CommitObserver, @unchecked Sendable {
  private let query: Query
  private let model: QueryModel
  private let order: QueryOrder
  private let requireIndexes: Bool
  private let delivery: ListenerDelivery<QuerySnapshot>
  private var current: [ViewDocument] = []

  init(query: Query, model: QueryModel, delivery: ListenerDelivery<QuerySnapshot>) {
    self.query = query
    self.model = model
    order = QueryOrder(model.orderBys)
    requireIndexes = query.firestore.settings.requireIndexes
    self.delivery = delivery
  }

  /// The first snapshot: every result `added`, in order.
  func start(_ reader: StoreReader) throws {
    current = try run(reader)
    let (query, documents) = (query, current.map(\.encoded))
    delivery.deliver { (Self.snapshot(query, documents, changes: nil), nil) }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    let next: [ViewDocument]
    do {
      next = try changes.everything ? run(reader) : updated(by: changes.keys, reader) ?? run(reader)
    } catch {
      delivery.fail(error)
      return
    }
    let viewChanges = ViewChanges.between(current, next, order: order)
    guard !viewChanges.isEmpty else { return }
    current = next
    let (query, documents) = (query, next.map(\.encoded))
    delivery.deliver { (Self.snapshot(query, documents, changes: viewChanges), nil) }
  }

  private func run(_ reader: StoreReader) throws -> [ViewDocument] {
    try reader.run(model, requireIndexes: requireIndexes).documents.map(ViewDocument.init)
  }

  /// The result after the documents at `keys` changed, or `nil` when the query must run
  /// again to refill its limit window.
  private func updated(by keys: [DocumentKey], _ reader: StoreReader) throws -> [ViewDocument]? {
    var next = current
    var changed = false
    for key in Set(keys) where model.isInScope(key) {
      changed = true
      if let position = next.firstIndex(where: { $0.encoded.key == key }) { next.remove(at: position) }
      guard let encoded = try reader.encodedDocument(key) else { continue }
      let document = ViewDocument(encoded)
      guard model.matches(document.query, order: order) else { continue }
      var low = 0
      var high = next.count
      while low < high {
        let middle = (low + high) / 2
        if order.compare(next[middle].query, document.query) < 0 { low = middle + 1 } else { high = middle }
      }
      next.insert(document, at: low)
    }
    guard changed else { return current }
    guard let limit = model.limit else { return next }
    // Documents beyond a full window, unchanged, all sort past its old edge: the window
    // is right when at least `limit` documents come before that edge.
    let fromEnd = model.limitType == .last
    if current.count >= limit, let edge = fromEnd ? current.first?.query : current.last?.query {
      let inside = next.count { document in
        let position = order.compare(document.query, edge)
        return fromEnd ? position >= 0 : position <= 0
      }
      if inside < limit { return nil }
    }
    if next.count > limit {
      if fromEnd { next.removeFirst(next.count - limit) } else { next.removeLast(next.count - limit) }
    }
    return next
  }

  private static func snapshot(_ query: Query, _ documents: [EncodedDocument], changes: [ViewChange]?)
    -> QuerySnapshot
  {
    let database = query.firestore
    return QuerySnapshot(
      query: query, documents: documents.map { QueryDocumentSnapshot(database: database, document: $0) },
      changes: changes?.map { change in
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
  /// them (documents, order, or changes seen through `documentChanges`), on
  /// `Settings.dispatchQueue`, in commit order. A commit that changes nothing this query
  /// sees raises no snapshot.
  @discardableResult
  public func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
    addSnapshotListener(includeMetadataChanges: false, listener: listener)
  }

  /// As `addSnapshotListener(_:)`. Hearth's snapshots are never from a cache and never
  /// have pending writes (a write returns once committed), so metadata never changes on
  /// its own and `includeMetadataChanges` adds no snapshot.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    let delivery = ListenerDelivery(queue: firestore.settings.dispatchQueue, callback: listener)
    let model: QueryModel
    do {
      model = try runnableModel()
    } catch {
      delivery.fail(error)
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
    let view = QueryView(query: self, model: model, delivery: delivery)
    return firestore.listen(view, scope: ObservationScope(model.target), delivery: delivery, start: view.start)
  }

  /// The query's snapshots as an asynchronous sequence: the current results, then one
  /// snapshot per commit that changes them. Ending the iteration removes the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<QuerySnapshot, Error> {
    AsyncThrowingStream { continuation in
      let registration = addSnapshotListener(includeMetadataChanges: includeMetadataChanges) { snapshot, error in
        if let snapshot { continuation.yield(snapshot) } else { continuation.finish(throwing: error) }
      }
      let box = RegistrationBox(registration)
      continuation.onTermination = { _ in box.registration.remove() }
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

// MARK: - Document listeners

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
      next = try reader.encodedDocument(key)
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
    let delivery = ListenerDelivery(queue: firestore.settings.dispatchQueue, callback: listener)
    let key: DocumentKey
    do {
      key = try validKey()
    } catch {
      delivery.fail(error)
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
    let view = DocumentView(reference: self, key: key, delivery: delivery)
    return firestore.listen(view, scope: .document(key), delivery: delivery, start: view.start)
  }

  /// The document's snapshots as an asynchronous sequence; ending the iteration removes
  /// the listener.
  public func snapshots(includeMetadataChanges: Bool = false) -> AsyncThrowingStream<DocumentSnapshot, Error> {
    AsyncThrowingStream { continuation in
      let registration = addSnapshotListener(includeMetadataChanges: includeMetadataChanges) { snapshot, error in
        if let snapshot { continuation.yield(snapshot) } else { continuation.finish(throwing: error) }
      }
      let box = RegistrationBox(registration)
      continuation.onTermination = { _ in box.registration.remove() }
    }
  }
}

// MARK: - Live aggregations

/// A live aggregation's view: the values last delivered and, for a query without a
/// limit, its members (`LiveAggregation`), kept from the changed documents alone; with a
/// limit, the aggregation runs again.
///
/// `@unchecked Sendable`: as `QueryView`.
final class AggregateView: CommitObserver, @unchecked Sendable {
  private let query: AggregateQuery
  private let model: QueryModel
  private let order: QueryOrder
  private let functions: [AggregateFunction]
  private let requireIndexes: Bool
  private let delivery: ListenerDelivery<AggregateQuerySnapshot>
  private var live: LiveAggregation?
  private var current: [Value] = []

  init(
    query: AggregateQuery, model: QueryModel, functions: [AggregateFunction],
    delivery: ListenerDelivery<AggregateQuerySnapshot>
  ) {
    self.query = query
    self.model = model
    order = QueryOrder(model.orderBys)
    self.functions = functions
    requireIndexes = query.query.firestore.settings.requireIndexes
    self.delivery = delivery
  }

  func start(_ reader: StoreReader) throws {
    current = try evaluate(reader)
    let (query, values) = (query, current)
    delivery.deliver { (query.snapshot(values), nil) }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    guard !delivery.isMuted else { return }
    let next: [Value]
    do {
      if changes.everything || live == nil {
        next = try evaluate(reader)
      } else {
        for key in Set(changes.keys) where model.isInScope(key) {
          let document = try reader.encodedDocument(key).map { ViewDocument($0).query }
          live?.update(key, to: document.flatMap { model.matches($0, order: order) ? $0 : nil })
        }
        next = live?.results ?? []
      }
    } catch {
      delivery.fail(error)
      return
    }
    guard !next.elementsEqual(current, by: Self.same) else { return }
    current = next
    let query = query
    delivery.deliver { (query.snapshot(next), nil) }
  }

  /// The values from the query's results, and the members kept for later commits.
  private func evaluate(_ reader: StoreReader) throws -> [Value] {
    guard model.limit == nil else {
      return try reader.aggregate(model, functions, requireIndexes: requireIndexes)
    }
    let documents = try reader.run(model, requireIndexes: requireIndexes).documents.map { ViewDocument($0).query }
    let aggregation = LiveAggregation(functions, order: order, documents: documents)
    live = aggregation
    return aggregation.results
  }

  /// The same result, bit for bit (so a NaN sum is unchanged by another NaN).
  private static func same(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    default: Value.compare(a, b) == 0 && a.typeOrder == b.typeOrder
    }
  }
}

extension AggregateQuery {
  /// A live aggregation, beyond Firestore: calls `listener` with the values now, then
  /// whenever a commit changes them, on `Settings.dispatchQueue`, in commit order.
  @discardableResult
  public func addSnapshotListener(_ listener: @escaping (AggregateQuerySnapshot?, Error?) -> Void)
    -> ListenerRegistration
  {
    let database = query.firestore
    let delivery = ListenerDelivery(queue: database.settings.dispatchQueue, callback: listener)
    let model: QueryModel
    let functions: [AggregateFunction]
    do {
      (model, functions) = try runnable()
    } catch {
      delivery.fail(error)
      return HearthListenerRegistration(delivery: delivery, store: nil, token: nil)
    }
    let view = AggregateView(query: self, model: model, functions: functions, delivery: delivery)
    return database.listen(view, scope: ObservationScope(model.target), delivery: delivery, start: view.start)
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
  public var listenerStatistics: ListenerStatistics {
    guard let store = try? engine() else { return ListenerStatistics(listeners: 0, viewEvaluations: 0) }
    return ListenerStatistics(listeners: store.observers.count, viewEvaluations: store.observers.evaluations)
  }
}
