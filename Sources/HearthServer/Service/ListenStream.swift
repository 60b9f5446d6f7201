import Foundation
import HearthCore
import Synchronization

/// One `Listen` call: the targets a client added, each kept live by HearthCore's own
/// views (`QueryView`, `DocumentView`), so that a commit sends only what changed for each
/// target — Google's emulator resends a query's whole result on every commit.
///
/// What a client is sent, as Firestore sends it: for a new target `ADD`, a
/// `DocumentChange` per document, `CURRENT` with a resume token and read time, then a
/// global `NO_CHANGE` (no target IDs), at which the client shows its snapshot; after a
/// commit, a `DocumentChange` for each document added or modified, a `DocumentDelete` for
/// one deleted, a `DocumentRemove` for one that left the query, then the global
/// `NO_CHANGE`. A resumed target (with a resume token or read time from an earlier
/// stream) gets `RESET` after its `ADD` and is then sent whole: the client drops what it
/// held for the target and keeps what comes, so a document deleted while it was away
/// leaves its view too, and one unchanged raises no event. (Firestore may instead send
/// only what changed since; a reset is always correct, as the clients handle it.)
final class ListenStream: Sendable {
  let database: DatabaseName
  private let store: DocumentStore
  /// Refuse queries that need an index not declared, as production does.
  let requireIndexes: Bool
  private let send: @Sendable ([UInt8]) -> Bool
  private let targets = Mutex<[Int32: [TargetObserver]]>([:])

  init(
    database: DatabaseName, store: DocumentStore, requireIndexes: Bool, send: @escaping @Sendable ([UInt8]) -> Bool
  ) {
    self.database = database
    self.store = store
    self.requireIndexes = requireIndexes
    self.send = send
  }

  /// Starts `target`: its first results are sent before any later commit's changes.
  /// A target whose query Firestore refuses is removed with the refusal as its cause.
  ///
  /// - Throws: what the store throws when it cannot be read.
  func add(_ target: FirestoreV1.Target) throws {
    let id = target.targetID
    remove(id, notify: false)
    respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .add, targetIDs: [id])))
    if target.resume != nil {
      respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .reset, targetIDs: [id])))
    }
    var observers: [TargetObserver] = []
    do {
      switch target.kind {
      case .query(let query):
        let model = try FirestoreService.checkedModel(query, listening: true)
        let view: TargetObserver.View =
          query.findNearest == nil ? .query(QueryView(model: model, requireIndexes: requireIndexes)) : .nearest(query)
        let observer = TargetObserver(id: id, view: view, stream: self)
        observer.token = try store.observe(observer, scope: ObservationScope(model.target)) { reader in
          try observer.start(reader)
        }
        observers.append(observer)
      case .documents(let keys):
        for key in keys {
          let observer = TargetObserver(id: id, view: .document(DocumentView(key: key)), stream: self)
          observer.token = try store.observe(observer, scope: .document(key)) { reader in try observer.start(reader) }
          observers.append(observer)
        }
      }
    } catch let error as HearthError {
      for observer in observers { observer.token.map(store.observers.remove) }
      let cause = FirestoreV1.Status(code: Int32(error.code.rawValue), message: error.message)
      respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .remove, targetIDs: [id], cause: cause)))
      return
    }
    targets.withLock { $0[id] = observers }
    respondCurrent(id)
  }

  /// Stops the target: its views no longer follow commits.
  func remove(_ id: Int32, notify: Bool = true) {
    guard let observers = targets.withLock({ $0.removeValue(forKey: id) }) else { return }
    for observer in observers { observer.token.map(store.observers.remove) }
    if notify { respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .remove, targetIDs: [id]))) }
  }

  /// Stops every target (the client went away or half-closed).
  func close() {
    let all = targets.withLock { targets in
      defer { targets.removeAll() }
      return targets.values.flatMap { $0 }
    }
    for observer in all { observer.token.map(store.observers.remove) }
  }

  /// `CURRENT` for `id`, then the global `NO_CHANGE`: the target's results are complete.
  func respondCurrent(_ id: Int32) {
    let time = FirestoreService.now
    respond(
      .targetChange(
        FirestoreV1.TargetChange(
          targetChangeType: .current, targetIDs: [id], resumeToken: Self.resumeToken(time), readTime: time)))
    respondConsistent()
  }

  /// The global `NO_CHANGE`: every target is consistent at its read time.
  func respondConsistent() {
    let time = FirestoreService.now
    respond(
      .targetChange(
        FirestoreV1.TargetChange(targetChangeType: .noChange, resumeToken: Self.resumeToken(time), readTime: time)))
  }

  func respond(_ response: FirestoreV1.ListenResponse) {
    _ = send(response.protobuf(database: database))
  }

  /// A resume token: the read time in microseconds, 8 bytes big-endian.
  static func resumeToken(_ time: Timestamp) -> Data {
    withUnsafeBytes(of: UInt64(bitPattern: time.microseconds).bigEndian) { Data($0) }
  }
}

/// One live view of a target, registered with the store's observers.
///
/// `@unchecked Sendable`: `view` is written in `start` (under the writers' pause of
/// `observe`) and in `commitApplied`, which the store calls one commit at a time;
/// `token` is written once, when `observe` returns, before the stream shares the
/// observer.
final class TargetObserver: CommitObserver, @unchecked Sendable {
  enum View {
    case query(QueryView)
    case document(DocumentView)
    /// A vector search (`find_nearest`), which cannot follow commits by their changes
    /// alone (a document that comes nearer pushes another out): as on Google's emulator,
    /// every commit to its collection or group runs it again and resets the target with
    /// its results.
    case nearest(FirestoreV1.StructuredQuery)
  }

  let id: Int32
  private var view: View
  /// Strong: a commit may still be reaching this observer while its stream closes; the
  /// stream drops its observers when it closes, which ends the cycle.
  private let stream: ListenStream
  var token: Int?

  init(id: Int32, view: View, stream: ListenStream) {
    self.id = id
    self.view = view
    self.stream = stream
  }

  /// The first results, as `DocumentChange`s.
  func start(_ reader: StoreReader) throws {
    switch view {
    case .query(var query):
      let snapshot = try query.start(reader)
      view = .query(query)
      for document in snapshot.documents { changed(document) }
    case .document(var document):
      let snapshot = try document.start(reader)
      view = .document(document)
      if let found = snapshot.document { changed(found) }
    case .nearest(let query):
      for document in try nearest(query, reader) { changed(document) }
    }
  }

  func commitApplied(_ changes: CommitChanges, reader: StoreReader) {
    do {
      switch view {
      case .query(var query):
        let snapshot = try query.update(by: changes, reader: reader)
        view = .query(query)
        guard let snapshot else { return }
        for change in snapshot.changes ?? [] {
          switch change.kind {
          case .added, .modified: changed(change.document)
          case .removed:
            if try reader.encodedDocument(change.document.key) == nil {
              deleted(change.document.key)
            } else {
              stream.respond(
                .documentRemove(
                  FirestoreV1.DocumentRemove(
                    key: change.document.key, removedTargetIDs: [id], readTime: FirestoreService.now)))
            }
          }
        }
      case .document(var document):
        let snapshot = try document.update(by: changes, reader: reader)
        view = .document(document)
        guard let snapshot else { return }
        if let found = snapshot.document { changed(found) } else { deleted(document.key) }
      case .nearest(let query):
        let documents = try nearest(query, reader)
        stream.respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .reset, targetIDs: [id])))
        for document in documents { changed(document) }
        return stream.respondCurrent(id)
      }
      stream.respondConsistent()
    } catch {
      let failure = FirestoreService.hearthError(error)
      let cause = FirestoreV1.Status(code: Int32(failure.code.rawValue), message: failure.message)
      stream.respond(.targetChange(FirestoreV1.TargetChange(targetChangeType: .remove, targetIDs: [id], cause: cause)))
    }
  }

  /// A vector search's results now.
  private func nearest(_ query: FirestoreV1.StructuredQuery, _ reader: StoreReader) throws -> [StoredDocument] {
    let snapshot = ReadSnapshot(
      reader: reader, past: nil, time: FirestoreService.now, requireIndexes: stream.requireIndexes)
    return try FirestoreService.documents(of: query, in: snapshot)
  }

  private func changed(_ document: EncodedDocument) { changed(document.stored) }

  private func changed(_ document: StoredDocument) {
    let wire = FirestoreService.document(document, mask: nil)
    stream.respond(.documentChange(FirestoreV1.DocumentChange(document: wire, targetIDs: [id])))
  }

  private func deleted(_ key: DocumentKey) {
    stream.respond(
      .documentDelete(FirestoreV1.DocumentDelete(key: key, removedTargetIDs: [id], readTime: FirestoreService.now)))
  }
}
