import HearthStorage
import Synchronization

/// What follows commits: a front end's listener, which drives its `LiveView` (a query,
/// document or aggregation) and delivers the snapshots.
package protocol CommitObserver: AnyObject, Sendable {
  /// Called after each commit that touches the observer's scope, one commit at a time
  /// and in commit order, with a reader on the state that commit left. It runs before
  /// the next commit of this process can begin, so it must be quick: compute, then hand
  /// work to another queue.
  func commitApplied(_ changes: CommitChanges, reader: StoreReader)
}

/// What an observer watches: the commits that can change what it sees.
package enum ObservationScope: Hashable, Sendable {
  /// The documents of one collection.
  case collection(ResourcePath)
  /// The documents of every collection with this ID.
  case group(String)
  /// One document.
  case document(DocumentKey)
  /// Every commit, after the observers of the other scopes (snapshots in sync).
  case everyCommit

  /// The scope of a query's results.
  package init(_ target: QueryModel.Target) {
    switch target {
    case .collection(let path): self = .collection(path)
    case .group(let id): self = .group(id)
    }
  }
}

/// The observers of one database, indexed by scope: a commit reaches only the observers
/// whose collection, collection group or document it touched, never all of them. It
/// follows the store's commits (attached on first use, as `DocumentStore.observers`):
/// this process's commits hand it their changes, and its poller brings other processes'.
package final class CommitObservers: CommitFollower {
  private struct Entry: Sendable {
    let scope: ObservationScope
    let observer: any CommitObserver
  }

  private struct State: Sendable {
    var nextID = 0
    var entries: [Int: Entry] = [:]
    // One index per kind of scope, so that a commit hashes only what some observer
    // watches (most databases have no group or document listeners).
    var byCollection: [ResourcePath: Set<Int>] = [:]
    var byGroup: [String: Set<Int>] = [:]
    var byDocument: [DocumentKey: Set<Int>] = [:]
    var everyCommit: Set<Int> = []

    mutating func update(_ scope: ObservationScope, _ change: (inout Set<Int>) -> Void) {
      switch scope {
      case .collection(let path): Self.update(&byCollection, path, change)
      case .group(let id): Self.update(&byGroup, id, change)
      case .document(let key): Self.update(&byDocument, key, change)
      case .everyCommit: change(&everyCommit)
      }
    }

    private static func update<Key: Hashable>(
      _ index: inout [Key: Set<Int>], _ key: Key, _ change: (inout Set<Int>) -> Void
    ) {
      var ids = index.removeValue(forKey: key) ?? []
      change(&ids)
      if !ids.isEmpty { index[key] = ids }
    }
  }

  private let state = Mutex(State())
  private let evaluationCount = Atomic<Int>(0)
  /// Brings other processes' commits to the observers.
  let poller = ChangePoller()

  /// How many times observers were handed a commit since the database opened: the
  /// measure of listener fan-out (a commit to one collection reaches only its views).
  package var evaluations: Int { evaluationCount.load(ordering: .relaxed) }

  /// The number of observers registered.
  package var count: Int { state.withLock { $0.entries.count } }

  /// Registers `observer`; returns the token that `remove(_:)` takes.
  func add(_ observer: any CommitObserver, scope: ObservationScope) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.entries[id] = Entry(scope: scope, observer: observer)
      state.update(scope) { $0.insert(id) }
      return id
    }
  }

  /// Unregisters the observer of `token`. Removing twice is harmless.
  package func remove(_ token: Int) {
    state.withLock { state in
      guard let entry = state.entries.removeValue(forKey: token) else { return }
      state.update(entry.scope) { $0.remove(token) }
    }
  }

  /// The observers a commit's changes touch, each once, in registration order; those of
  /// every commit last, once the others have had it.
  func observers(touchedBy changes: CommitChanges) -> (views: [any CommitObserver], everyCommit: [any CommitObserver]) {
    state.withLock { state in
      guard !state.entries.isEmpty else { return ([], []) }
      let everyCommit = state.everyCommit.sorted().compactMap { state.entries[$0]?.observer }
      if changes.everything {
        let views = state.entries.filter { $0.value.scope != .everyCommit }.sorted { $0.key < $1.key }
        return (views.map(\.value.observer), everyCommit)
      }
      var ids: [Int] = []
      for key in changes.keys {
        if !state.byCollection.isEmpty, let found = state.byCollection[key.collectionPath] {
          ids.append(contentsOf: found)
        }
        if !state.byGroup.isEmpty, let found = state.byGroup[key.collectionGroup] { ids.append(contentsOf: found) }
        if !state.byDocument.isEmpty, let found = state.byDocument[key] { ids.append(contentsOf: found) }
      }
      if ids.count > 1 { ids = Array(Set(ids)).sorted() }
      return (ids.compactMap { state.entries[$0]?.observer }, everyCommit)
    }
  }

  /// Hands a commit's changes to the observers they touch, on the state it left (a
  /// reader of `store`), before the next commit can begin.
  func notify(_ changes: CommitChanges, store: DocumentStore) {
    let (views, everyCommit) = observers(touchedBy: changes)
    guard !views.isEmpty || !everyCommit.isEmpty else { return }
    evaluationCount.add(views.count, ordering: .relaxed)
    try? store.environment.read { txn in
      let reader = StoreReader(store: store, txn: txn)
      for observer in views + everyCommit { observer.commitApplied(changes, reader: reader) }
    }
  }

  // MARK: - Following the store's commits

  package var isFollowing: Bool { count > 0 }

  package func follows(_ keys: [DocumentKey]) -> Bool {
    !observers(touchedBy: CommitChanges(keys: keys)).views.isEmpty
  }

  package func committed(_ changes: CommitChanges, logSequence: UInt64, store: DocumentStore) {
    notify(changes, store: store)
    poller.committed(logSequence)
  }

  package func storeClosed() { poller.stop() }
}

extension DocumentStore {
  /// The listeners' views, told about every commit of this process and, through their
  /// poller, of other processes.
  package var observers: CommitObservers { follower(CommitObservers.init) }

  /// Registers `observer` for `scope`, first calling `initial` with a reader on the
  /// current state, while no commit of this process can come between that state and the
  /// registration: the observer then sees every later commit, exactly once.
  ///
  /// - Throws: `failedPrecondition` inside a transaction's closure on the same thread.
  package func observe(
    _ observer: any CommitObserver, scope: ObservationScope, initial: (StoreReader) throws -> Void
  ) throws -> Int {
    try guarded {
      try environment.withWritesPaused {
        let (sequence, transaction) = try environment.read { txn in
          try initial(StoreReader(store: self, txn: txn))
          return (try tables.changes.map { try ChangeLog.lastSequence(in: txn, table: $0) } ?? 0, txn.id)
        }
        let observers = observers
        observers.poller.start(store: self, from: sequence, transaction: transaction)
        return observers.add(observer, scope: scope)
      }
    }
  }
}
