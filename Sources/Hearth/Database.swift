import Foundation
import HearthCore
import Synchronization

/// A Hearth database: a directory of Firestore-style documents, opened in this process.
///
/// ```swift
/// let db = try Database(path: "app.hearth")
/// try db.collection("users").document("alice").setData(["name": "Alice"])
/// ```
///
/// `Database` (also spelled `Firestore`) is safe to use from any thread or task. Several
/// `Database` objects, and several processes, may open one directory at once; each sees
/// the others' commits.
///
/// ## Errors
///
/// Every error is a `HearthError` (Firebase's `FirestoreErrorCode`) with Firestore's code
/// and a message that names the path, the field and the rule. Beside the codes each call
/// lists under `- Throws:`, every read can fail with `failedPrecondition` once the
/// database is closed and `dataLoss` when its file is damaged (restore a backup); every
/// write also with `failedPrecondition` when the database is open read-only or the write
/// was started inside a transaction's closure on the same thread, and with
/// `resourceExhausted` when the disk is full. A write that fails writes nothing (a
/// recursive delete or a large import, which commit in chunks, keep the chunks done). A
/// database that could not be opened (`firestore()`, or settings assigned before first
/// use) throws the reason from every operation.
public final class Database: Sendable {
  /// The database directory (canonical, absolute, once opened).
  public let path: String
  private let removesDirectoryOnClose: Bool
  private let isClosed = Atomic<Bool>(false)
  private let current: Mutex<Opened>
  /// Runs the callbacks behind `snapshots()` streams, on a private queue.
  let streamCallbacks = CallbackPump(queue: DispatchQueue(label: "hearth.snapshots"))

  /// The engine as opened with the settings in force, and the pumps that run callbacks.
  /// Assigning `settings` before first use replaces it; the first use freezes it.
  private struct Opened: Sendable {
    var state: Result<DocumentStore, HearthError>
    var settings: Settings.Values
    /// Runs callbacks written outside any actor, on `settings.dispatchQueue`.
    var callbacks: CallbackPump
    /// Runs callbacks written on the main actor, on the main queue (the same pump as
    /// `callbacks` when that is the main queue, so that they keep one order).
    var mainCallbacks: CallbackPump
    /// Set by the first operation: settings can no longer change.
    var started = false

    init(state: Result<DocumentStore, HearthError>, settings: Settings.Values) {
      self.state = state
      self.settings = settings
      callbacks = CallbackPump(queue: settings.dispatchQueue)
      mainCallbacks =
        settings.dispatchQueue.isMain ? callbacks : CallbackPump(queue: DispatchQueue.main)
    }
  }

  /// Opens the database in directory `path`, creating it when missing (unless
  /// `settings.readOnly`). Opening verifies the file's meta pages, and every page of a
  /// file of up to 64 MiB, before trusting it.
  ///
  /// - Throws: `notFound` for a read-only open of a missing database, or a directory
  ///   without Hearth's tables; `permissionDenied` when this user may not read the
  ///   directory or its files; `failedPrecondition` for another database format;
  ///   `dataLoss` for an empty, truncated or damaged `data.mdb` (restore a backup);
  ///   `resourceExhausted` when a new database does not fit on the disk.
  public convenience init(path: String, settings: Settings = Settings()) throws {
    try self.init(path: path, settings: settings.snapshot, removesDirectoryOnClose: false)
  }

  private init(path: String, settings: Settings.Values, removesDirectoryOnClose: Bool) throws {
    let store = try Self.open(path, settings)
    self.path = store.path
    current = Mutex(Opened(state: .success(store), settings: settings))
    self.removesDirectoryOnClose = removesDirectoryOnClose
  }

  /// A database that could not be opened: every operation throws `error`, until settings
  /// assigned before first use open it.
  private init(failed error: HearthError, path: String, settings: Settings.Values) {
    self.path = path
    current = Mutex(Opened(state: .failure(error), settings: settings))
    self.removesDirectoryOnClose = false
  }

  private static func open(_ path: String, _ settings: Settings.Values) throws -> DocumentStore {
    var options = DocumentStore.Options()
    options.readOnly = settings.readOnly
    options.durable = settings.durability == .full
    options.initialMapSize = settings.initialMapSize
    options.fileMode = settings.filePermissions
    return try DocumentStore(path: path, options: options)
  }

  /// A new database in a temporary directory, deleted by `close()` (or when the object
  /// goes away) — for tests and scratch work.
  ///
  /// - Throws: `permissionDenied` when the temporary directory cannot be written;
  ///   `resourceExhausted` when its disk is full.
  public static func temporary(settings: Settings = Settings()) throws -> Database {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("hearth-\(UUID().uuidString)").path
    return try Database(path: directory, settings: settings.snapshot, removesDirectoryOnClose: true)
  }

  private static let shared = Mutex<Database?>(nil)

  /// The shared default database at `Settings.defaultPath`, opened on first use. When it
  /// cannot be opened, every operation on it throws the reason.
  public static func firestore() -> Database {
    shared.withLock { shared in
      if let database = shared, !database.isClosed.load(ordering: .acquiring) { return database }
      let path = Settings.defaultPath
      let database: Database
      do {
        database = try Database(path: path)
      } catch {
        let reason = error as? HearthError ?? HearthError(.unavailable, "\(error)")
        database = Database(failed: reason, path: path, settings: Settings.Values())
      }
      shared = database
      return database
    }
  }

  /// The database's settings (a copy, as in Firebase: change it, then assign it back).
  ///
  /// As in Firebase, settings can be assigned only before first use (any read, write,
  /// query or listener): the database is opened again with them. Assigned later, they
  /// are refused and the settings stay as they were — a setter cannot throw, and
  /// Firebase's exception would end the process — with Firebase's message on standard
  /// error. Opening with the new settings can fail (`readOnly` on a missing database);
  /// every operation then throws the reason.
  public var settings: Settings {
    get { Settings(current.withLock { $0.settings }) }
    set {
      let values = newValue.snapshot
      let refused = current.withLock { opened -> Bool in
        guard !opened.started, !isClosed.load(ordering: .acquiring) else { return true }
        if opened.settings.opensDifferently(from: values) || (try? opened.state.get()) == nil {
          if case .success(let store) = opened.state { store.close() }
          opened.state = Result { try Self.open(path, values) }.mapError {
            $0 as? HearthError ?? HearthError(.unavailable, "\($0)")
          }
        }
        opened = Opened(state: opened.state, settings: values)
        return false
      }
      if refused {
        Diagnostics.warn(
          "Firestore instance has already been started and its settings can no longer be changed. You can only "
            + "set settings before calling any other methods on a Firestore instance. (The settings of the "
            + "database at \(path) stay as they were.)")
      }
    }
  }

  /// Whether queries refuse what needs an undeclared composite index (the settings in
  /// force, read without counting as a use).
  package var requireIndexes: Bool { current.withLock { $0.settings.requireIndexes } }

  /// Closes the database. Later operations fail with `failedPrecondition`; a temporary
  /// database's directory is deleted. Closing twice is harmless.
  public func close() {
    if isClosed.exchange(true, ordering: .acquiringAndReleasing) { return }
    if case .success(let store) = current.withLock({ $0.state }) { store.close() }
    if removesDirectoryOnClose { try? FileManager.default.removeItem(atPath: path) }
  }

  deinit { close() }

  /// The engine, or the reason there is none. The first call freezes the settings.
  package func engine() throws -> DocumentStore {
    let state = current.withLock { opened in
      opened.started = true
      return opened.state
    }
    switch state {
    case .success(let store):
      if isClosed.load(ordering: .acquiring) {
        throw HearthError(.failedPrecondition, "The database at \(path) is closed")
      }
      return store
    case .failure(let error): throw error
    }
  }

  /// What runs a callback written in `isolation` (the caller's, as `#isolation` gives
  /// it): the main queue for the main actor, the actor itself for another actor, and
  /// `settings.dispatchQueue` for code outside any actor. So a callback runs where its
  /// type says it may, and never traps Swift's isolation check.
  func callbacks(for isolation: (any Actor)?) -> any CallbackRunner {
    guard let isolation else { return current.withLock { $0.callbacks } }
    if isolation === MainActor.shared { return current.withLock { $0.mainCallbacks } }
    return ActorCallbackPump(actor: isolation)
  }

  // MARK: - References

  /// The collection at `path` (an odd number of segments: `users`, `users/alice/posts`).
  /// An invalid path gives a reference whose operations throw `invalidArgument`.
  public func collection(_ path: String) -> CollectionReference {
    CollectionReference(database: self, parsing: path)
  }

  /// The document at `path` (an even number of segments: `users/alice`).
  /// An invalid path gives a reference whose operations throw `invalidArgument`.
  public func document(_ path: String) -> DocumentReference {
    DocumentReference(database: self, parsing: path)
  }

  /// Every collection whose ID is `collectionID`, at any depth, as one query.
  public func collectionGroup(_ collectionID: String) -> Query {
    Query(database: self, group: collectionID)
  }

  /// A new batch: writes that `commit()` applies together, all or none.
  public func batch() -> WriteBatch { WriteBatch(database: self) }

  /// The root collections that hold documents (directly or below), by ID.
  ///
  /// - Throws: as every read, `failedPrecondition` (closed) or `dataLoss` (damaged file).
  public func listCollections() throws -> [CollectionReference] {
    try engine().read { try $0.collectionIDs(under: nil) }
      .map { CollectionReference(database: self, path: ResourcePath([$0])) }
  }

  /// Deletes the document and everything below it: its subcollections, their documents
  /// and theirs. Large trees are deleted in commits of 5,000 documents: as Firestore's, a
  /// recursive delete is not atomic, and one that fails midway leaves what it had not
  /// reached.
  ///
  /// - Throws: `invalidArgument` for a reference made from an invalid path; and the
  ///   errors of every write (see `Database`).
  public func recursiveDelete(_ reference: DocumentReference) throws {
    try engine().deleteRecursively(document: try reference.validKey())
  }

  /// Deletes every document of the collection and everything below them, in commits of
  /// 5,000 documents (not atomic, as in Firestore).
  ///
  /// - Throws: `invalidArgument` for a reference made from an invalid path; and the
  ///   errors of every write (see `Database`).
  public func recursiveDelete(_ reference: CollectionReference) throws {
    try engine().deleteRecursively(collection: try reference.validPath())
  }

  // MARK: - Committing

  @discardableResult
  func commit(_ writes: [Write]) throws -> CommitResult {
    try engine().commit(writes)
  }

  /// Runs blocking work off the Swift concurrency pool, so an fsync does not hold a
  /// cooperative thread.
  func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
  }

  /// Runs `work` now and hands its outcome to `completion`, as Firebase's
  /// completion-handler forms do: on the actor of the caller's `isolation`, or on
  /// `settings.dispatchQueue` for a caller outside any actor.
  func complete<T>(_ isolation: (any Actor)?, _ completion: ((T?, Error?) -> Void)?, _ work: () throws -> T) {
    let outcome = Result { try work() }
    guard let completion else { return }
    let box = CallbackBox { completion(try? outcome.get(), outcome.failure) }
    callbacks(for: isolation).enqueue { box.run() }
  }

  func complete(_ isolation: (any Actor)?, _ completion: ((Error?) -> Void)?, _ work: () throws -> Void) {
    complete(isolation, completion.map { callback in { (_: Void?, error: Error?) in callback(error) } }, work)
  }
}

/// Carries a user's callback to the callback queue.
///
/// `@unchecked Sendable`: the closure is handed over once and run once on that queue;
/// the caller keeps no reference to it, as with Firebase's completion handlers.
struct CallbackBox: @unchecked Sendable {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Database {
  /// The key of a document of this database (opened here or elsewhere in the process on
  /// the same path).
  ///
  /// - Throws: `invalidArgument` for a reference from another database, in Firestore's
  ///   words, or for an invalid path.
  func key(of document: DocumentReference) throws -> DocumentKey {
    guard document.firestore === self || document.firestore.path == path else {
      throw HearthError(
        .invalidArgument,
        "Provided document reference is from a different Cloud Firestore instance. (\(document.path) belongs to "
          + "the database at \(document.firestore.path), not to the one at \(path).)")
    }
    return try document.validKey()
  }
}

/// Two `Database` objects are equal when they open the same database (the same path), as
/// references from either name the same documents.
extension Database: Hashable {
  /// Whether `a` and `b` open the same database directory.
  public static func == (a: Database, b: Database) -> Bool { a === b || a.path == b.path }
  /// Hashes the path, which `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
