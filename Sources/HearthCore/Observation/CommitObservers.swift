import HearthStorage
import Synchronization

/// What one commit changed, as observers see it.
public struct CommitChanges: Sendable {
  /// The documents written or deleted.
  public var keys: [DocumentKey]
  /// Everything may have changed (an import that emptied the database first).
  public var everything = false
  /// The changed documents as stored (`nil` for a deleted one), with their fields, when
  /// the commit kept them: observers then need not read or decode them again.
  public var documents: [DocumentKey: ViewDocument?]?

  public init(keys: [DocumentKey], everything: Bool = false, documents: [DocumentKey: ViewDocument?]? = nil) {
    self.keys = keys
    self.everything = everything
    self.documents = documents
  }

  /// The document at `key` after the commit: as the commit kept it, or read by `reader`.
  public func document(_ key: DocumentKey, reader: StoreReader) throws -> EncodedDocument? {
    if let kept = documents?[key] { return kept?.encoded }
    return try reader.encodedDocument(key)
  }

  /// The document at `key` after the commit with its fields, as `document(_:reader:)`.
  public func viewDocument(_ key: DocumentKey, reader: StoreReader) throws -> ViewDocument? {
    if let kept = documents?[key] { return kept }
    return try reader.encodedDocument(key).map(ViewDocument.init)
  }
}

/// A view that follows commits: a listener's query, document or aggregation.
public protocol CommitObserver: AnyObject, Sendable {
  /// Called after each commit that touches the observer's scope, one commit at a time
  /// and in commit order, with a reader on the state that commit left. It runs before
  /// the next commit of this process can begin, so it must be quick: compute, then hand
  /// work to another queue.
  func commitApplied(_ changes: CommitChanges, reader: StoreReader)
}

/// What an observer watches: the commits that can change what it sees.
public enum ObservationScope: Hashable, Sendable {
  /// The documents of one collection.
  case collection(ResourcePath)
  /// The documents of every collection with this ID.
  case group(String)
  /// One document.
  case document(DocumentKey)
}

/// The observers of one database, indexed by scope: a commit reaches only the observers
/// whose collection, collection group or document it touched, never all of them.
public final class CommitObservers: Sendable {
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

    mutating func update(_ scope: ObservationScope, _ change: (inout Set<Int>) -> Void) {
      switch scope {
      case .collection(let path): Self.update(&byCollection, path, change)
      case .group(let id): Self.update(&byGroup, id, change)
      case .document(let key): Self.update(&byDocument, key, change)
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

  /// How many times observers were handed a commit since the database opened: the
  /// measure of listener fan-out (a commit to one collection reaches only its views).
  public var evaluations: Int { evaluationCount.load(ordering: .relaxed) }

  /// The number of observers registered.
  public var count: Int { state.withLock { $0.entries.count } }

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
  public func remove(_ token: Int) {
    state.withLock { state in
      guard let entry = state.entries.removeValue(forKey: token) else { return }
      state.update(entry.scope) { $0.remove(token) }
    }
  }

  /// The observers a commit's changes touch, each once, in registration order.
  func observers(touchedBy changes: CommitChanges) -> [any CommitObserver] {
    state.withLock { state in
      guard !state.entries.isEmpty else { return [] }
      if changes.everything { return state.entries.sorted { $0.key < $1.key }.map(\.value.observer) }
      var ids: [Int] = []
      for key in changes.keys {
        if !state.byCollection.isEmpty, let found = state.byCollection[key.collectionPath] {
          ids.append(contentsOf: found)
        }
        if !state.byGroup.isEmpty, let found = state.byGroup[key.collectionGroup] { ids.append(contentsOf: found) }
        if !state.byDocument.isEmpty, let found = state.byDocument[key] { ids.append(contentsOf: found) }
      }
      if ids.count > 1 { ids = Array(Set(ids)).sorted() }
      return ids.compactMap { state.entries[$0]?.observer }
    }
  }

  func counted(_ count: Int) { evaluationCount.add(count, ordering: .relaxed) }
}

extension DocumentStore {
  /// Registers `observer` for `scope`, first calling `initial` with a reader on the
  /// current state, while no commit of this process can come between that state and the
  /// registration: the observer then sees every later commit, exactly once.
  ///
  /// - Throws: `failedPrecondition` inside a transaction's closure on the same thread.
  public func observe(
    _ observer: any CommitObserver, scope: ObservationScope, initial: (StoreReader) throws -> Void
  ) throws -> Int {
    try guarded {
      try environment.withWritesPaused {
        let (sequence, transaction) = try environment.read { txn in
          try initial(StoreReader(store: self, txn: txn))
          return (try tables.changes.map { try ChangeLog.lastSequence(in: txn, table: $0) } ?? 0, txn.id)
        }
        poller.start(store: self, from: sequence, transaction: transaction)
        return observers.add(observer, scope: scope)
      }
    }
  }

  /// Hands a commit's changes to the observers they touch, on the state it left. Called
  /// by every commit path right after its commit, before the next commit can begin.
  func notifyObservers(_ changes: CommitChanges) {
    let touched = observers.observers(touchedBy: changes)
    guard !touched.isEmpty else { return }
    observers.counted(touched.count)
    try? environment.read { txn in
      let reader = StoreReader(store: self, txn: txn)
      for observer in touched { observer.commitApplied(changes, reader: reader) }
    }
  }
}
