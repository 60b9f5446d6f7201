import Foundation

/// Firebase's read options, accepted so that ported code compiles. Hearth reads its own
/// database directly: there is no server to skip and no cache to prefer, so every source
/// reads the same committed data.
public enum FirestoreSource: Sendable {
  /// Firebase's server-then-cache, the server only, or the cache only: in Hearth, each
  /// reads the database.
  case `default`, server, cache
}

/// How Firebase shows a `serverTimestamp()` that the server has not yet resolved. Hearth
/// resolves it at commit, before any read can see the document, so every behaviour
/// reads the stored commit time.
public enum ServerTimestampBehavior: Sendable {
  /// Firebase's `null`, local estimate or previous value for a pending timestamp: in
  /// Hearth, each reads the commit time.
  case none, estimate, previous
}

/// Where Firebase's snapshot listener reads: the server and the cache, or the cache only.
/// Hearth listens to its database either way, as every `FirestoreSource` reads it.
public enum ListenSource: Sendable {
  /// Firebase's server and cache, or its cache alone: in Hearth, each listens to the
  /// database.
  case `default`, cache
}

/// Firebase's options of a snapshot listener (`addSnapshotListener(options:listener:)`),
/// accepted so that ported code compiles: a listener with any of them hears what one
/// without them hears (Hearth's metadata never changes on its own, and it has no cache).
public final class SnapshotListenOptions: Sendable {
  /// Where the listener reads (every source listens to the database).
  public let source: ListenSource
  /// Whether metadata-only changes raise snapshots (Hearth's metadata never changes).
  public let includeMetadataChanges: Bool

  /// The default options: the default source, without metadata changes.
  public convenience init() { self.init(source: .default, includeMetadataChanges: false) }

  private init(source: ListenSource, includeMetadataChanges: Bool) {
    self.source = source
    self.includeMetadataChanges = includeMetadataChanges
  }

  /// These options with `includeMetadataChanges` set, as Firebase builds them.
  public func withIncludeMetadataChanges(_ includeMetadataChanges: Bool) -> SnapshotListenOptions {
    SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
  }

  /// These options with `source` set, as Firebase builds them.
  public func withSource(_ source: ListenSource) -> SnapshotListenOptions {
    SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
  }
}

extension DocumentReference {
  /// As `addSnapshotListener(_:)`, whatever the options (see `SnapshotListenOptions`).
  @discardableResult
  public func addSnapshotListener(
    options: SnapshotListenOptions, isolation: isolated (any Actor)? = #isolation,
    listener: @escaping (DocumentSnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    addSnapshotListener(isolation: isolation, listener)
  }

  /// `getDocument()`: every source reads the database.
  ///
  /// - Throws: as `getDocument()`: `invalidArgument` for an invalid path;
  ///   `failedPrecondition` when the database is closed; `dataLoss` for damaged bytes.
  public func getDocument(source: FirestoreSource) throws -> DocumentSnapshot { try getDocument() }

  /// The `async` `getDocument()`: every source reads the database.
  ///
  /// - Throws: as `getDocument()`: `invalidArgument`, `failedPrecondition` or
  ///   `dataLoss`.
  @discardableResult
  public func getDocument(source: FirestoreSource) async throws -> DocumentSnapshot { try await getDocument() }

  /// The completion form of `getDocument()`: every source reads the database.
  public func getDocument(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (DocumentSnapshot?, Error?) -> Void
  ) {
    getDocument(isolation: isolation, completion: completion)
  }
}

extension Query {
  /// As `addSnapshotListener(_:)`, whatever the options (see `SnapshotListenOptions`).
  @discardableResult
  public func addSnapshotListener(
    options: SnapshotListenOptions, isolation: isolated (any Actor)? = #isolation,
    listener: @escaping (QuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    addSnapshotListener(isolation: isolation, listener)
  }

  /// `getDocuments()`: every source reads the database.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument` for a query that breaks
  ///   Firestore's rules; `failedPrecondition` for an undeclared index under
  ///   `requireIndexes`, or a closed database; `dataLoss` for a damaged document.
  public func getDocuments(source: FirestoreSource) throws -> QuerySnapshot { try getDocuments() }

  /// The `async` `getDocuments()`: every source reads the database.
  ///
  /// - Throws: as `getDocuments()`: `invalidArgument`, `failedPrecondition` or
  ///   `dataLoss`.
  @discardableResult
  public func getDocuments(source: FirestoreSource) async throws -> QuerySnapshot { try await getDocuments() }

  /// The completion form of `getDocuments()`: every source reads the database.
  public func getDocuments(
    source: FirestoreSource, isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (QuerySnapshot?, Error?) -> Void
  ) {
    getDocuments(isolation: isolation, completion: completion)
  }
}

extension DocumentSnapshot {
  /// `get(_:)`: server timestamps are resolved at commit.
  public func get(_ field: Any, serverTimestampBehavior: ServerTimestampBehavior) -> Any? { get(field) }

  /// `data(as:decoder:)`: server timestamps are resolved at commit.
  ///
  /// - Throws: as `data(as:decoder:)`: `DecodingError.valueNotFound` for a missing
  ///   document (unless `type` is optional); `DecodingError` naming the document and the
  ///   field when the data does not fit `type`.
  public func data<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior, decoder: Database.Decoder = .init()
  ) throws -> T {
    try data(as: type, decoder: decoder)
  }
}

extension Database {
  /// Firebase's wait until every write made so far has reached the server. A Hearth
  /// write returns once it is committed, so nothing is ever pending: it returns at once.
  public func waitForPendingWrites() {}

  /// The `async` `waitForPendingWrites()`.
  ///
  /// - Throws: nothing: it is marked `throws` only as Firebase's is, so that ported
  ///   `try await` calls compile.
  public func waitForPendingWrites() async throws {}

  /// The completion form of `waitForPendingWrites()`: `completion` is called with `nil`.
  public func waitForPendingWrites(
    isolation: isolated (any Actor)? = #isolation, completion: @escaping (Error?) -> Void
  ) {
    complete(isolation, completion) {}
  }
}
