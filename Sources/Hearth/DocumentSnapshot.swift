import Foundation
import HearthCore
import Synchronization

/// Whether a snapshot holds writes not yet committed or data from a cache. Hearth's
/// commits are durable when they return, so both are always false.
public struct SnapshotMetadata: Sendable, Equatable {
  /// Whether the snapshot shows local writes the server has not yet confirmed: never in
  /// Hearth, whose writes return once committed.
  public let hasPendingWrites: Bool
  /// Whether the snapshot came from a local cache rather than the server: never in
  /// Hearth, which has no cache in front of its database.
  public let isFromCache: Bool

  static let committed = SnapshotMetadata(hasPendingWrites: false, isFromCache: false)
}

/// A document as read at one moment; `exists` is false when it was missing.
///
/// The snapshot holds the document's verified bytes; the first `data()` or `get` builds
/// the fields straight from them and keeps them, so a snapshot that is only checked for
/// existence, or decoded as a struct, costs no dictionary it does not need.
///
/// `@unchecked Sendable`: immutable but for the decoded fields, which `decodedState`
/// publishes once, atomically.
public class DocumentSnapshot: @unchecked Sendable {
  /// The database the document belongs to.
  let firestore: Database
  /// The document's key (a snapshot is only made of a valid path).
  let key: DocumentKey
  /// The document's verified bytes; `nil` when it does not exist. Held apart from its key
  /// (`document` pairs them) so that a snapshot keeps one key, not two.
  private let bytes: Bytes?
  /// Whether `decodedFields` is set: 0 not yet, 1 while one thread stores it, 2 set.
  private let decodedState = Atomic<UInt8>(0)
  /// The fields `data()` built first, written once (by the thread that moved
  /// `decodedState` from 0) and read only after `decodedState` says 2. Held here rather
  /// than in an object of their own behind an atomic reference: one allocation less a
  /// decoded snapshot. A thread that decodes while another stores returns its own,
  /// equal, fields.
  @exclusivity(unchecked) private var decodedFields: [String: Any]?

  /// A document's bytes: its own (a document read alone, a listener's), or a stretch of
  /// the buffer its query's results share, which the store reuses once no snapshot
  /// holds it (`ResultBuffers`; a slice taken from it and kept longer keeps its bytes).
  enum Bytes {
    case own(ArraySlice<UInt8>)
    case shared(ResultBuffer, Range<Int>)

    var slice: ArraySlice<UInt8> {
      switch self {
      case .own(let bytes): bytes
      case .shared(let buffer, let range): buffer.bytes[range]
      }
    }
  }

  init(database: Database, key: DocumentKey, document: EncodedDocument?) {
    firestore = database
    self.key = key
    bytes = document.map { .own($0.bytes) }
  }

  /// A snapshot of the document `key` whose verified bytes are `bytes`.
  init(database: Database, key: DocumentKey, bytes: Bytes) {
    firestore = database
    self.key = key
    self.bytes = bytes
  }

  /// The stored document, or `nil` when it does not exist.
  var document: EncodedDocument? { bytes.map { EncodedDocument(key: key, verified: $0.slice) } }

  /// The document this snapshot shows: a new reference each time it is asked for, as
  /// Firebase's SDKs make it (a query's results make none unless the caller asks; one
  /// object less a result).
  public var reference: DocumentReference { DocumentReference(database: firestore, key: key) }

  /// The document's ID, the last segment of its path.
  public var documentID: String { key.documentID }
  /// Whether the document existed when it was read.
  public var exists: Bool { bytes != nil }
  /// Always committed data: no pending writes, never from a cache.
  public var metadata: SnapshotMetadata { .committed }
  /// When the document was created (beyond the mobile SDK); `nil` when missing.
  public var createTime: Timestamp? { document?.createTime }
  /// When the document was last written; `nil` when missing.
  public var updateTime: Timestamp? { document?.updateTime }

  /// The document's fields, or `nil` when it does not exist.
  public func data() -> [String: Any]? {
    guard let document else { return nil }
    if decodedState.load(ordering: .acquiring) == 2 { return decodedFields! }
    let fields = document.anyFields(
      reference: { [firestore] in DocumentReference(database: firestore, key: $0) }, vector: VectorValue.init)
    if decodedState.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged {
      decodedFields = fields
      decodedState.store(2, ordering: .releasing)
    }
    return fields
  }

  /// The document's fields as stored values, decoded afresh from its bytes (not kept),
  /// or `nil` when it does not exist: what `data(as:)` decodes, without building the
  /// `[String: Any]` of `data()`.
  var storedFields: [String: Value]? { document?.stored.fields }

  /// `data()`: Hearth resolves server timestamps at commit, so every behaviour is the same.
  public func data(with serverTimestampBehavior: ServerTimestampBehavior) -> [String: Any]? { data() }

  /// The value at a field path (a dotted `String` or a `FieldPath`;
  /// `FieldPath.documentID()` gives the document's ID), or `nil` when the document or
  /// the field is missing.
  public func get(_ field: Any) -> Any? {
    guard var value: Any = data() else { return nil }
    let path: FieldPath
    switch field {
    case let string as String:
      guard let parsed = try? FieldPath.parse(dotted: string) else { return nil }
      path = parsed
    case let fieldPath as FieldPath:
      if fieldPath.isDocumentID { return key.documentID }
      path = fieldPath
    default: return nil
    }
    for name in path.segments {
      guard let map = value as? [String: Any], let next = map[name] else { return nil }
      value = next
    }
    return value
  }

  /// The value at a field path, as `get(_:)`: `snapshot["owner.name"]`.
  public subscript(key: Any) -> Any? { self.get(key) }
}

/// A document that a query returned: it always exists.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
  init(database: Database, document: EncodedDocument) {
    super.init(database: database, key: document.key, bytes: .own(document.bytes))
  }

  /// A query's result: document `key`, whose verified bytes are `bytes`.
  override init(database: Database, key: DocumentKey, bytes: Bytes) {
    super.init(database: database, key: key, bytes: bytes)
  }

  /// The document's fields, never `nil`.
  public override func data() -> [String: Any] { super.data() ?? [:] }

  /// `data()`: server timestamps are resolved at commit.
  public override func data(with serverTimestampBehavior: ServerTimestampBehavior) -> [String: Any] { data() }
}

/// The result of a query.
///
/// `@unchecked Sendable`: immutable after creation.
public final class QuerySnapshot: @unchecked Sendable {
  /// The query that gave these results.
  public let query: Query
  /// The results, in query order.
  public let documents: [QueryDocumentSnapshot]
  private let changes: [DocumentChange]?
  /// Always committed data: no pending writes, never from a cache.
  public var metadata: SnapshotMetadata { .committed }
  /// The number of results.
  public var count: Int { documents.count }
  /// Whether the query returned no document.
  public var isEmpty: Bool { documents.isEmpty }

  init(query: Query, documents: [QueryDocumentSnapshot], changes: [DocumentChange]? = nil) {
    self.query = query
    self.documents = documents
    self.changes = changes
  }

  /// The changes since the previous snapshot; for a one-time read, every document
  /// `added`, in order (made when asked: most readers only want `documents`).
  public var documentChanges: [DocumentChange] {
    changes
      ?? documents.enumerated().map { index, document in
        DocumentChange(type: .added, document: document, oldIndex: UInt(NSNotFound), newIndex: UInt(index))
      }
  }

  /// `documentChanges`: metadata never changes on its own in Hearth, so there are no
  /// metadata-only changes to include.
  public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] { documentChanges }
}

/// How a document changed between two snapshots of a query.
public enum DocumentChangeType: Sendable {
  /// `added`: the document entered the results; `modified`: it stayed and its data
  /// changed; `removed`: it left the results (deleted, or no longer matching).
  case added, modified, removed
}

/// One change between two snapshots of a query.
public struct DocumentChange: Sendable {
  /// Whether the document was added, modified or removed.
  public let type: DocumentChangeType
  /// The document after the change (before it, for a removed one).
  public let document: QueryDocumentSnapshot
  /// The position before the change; `UInt(NSNotFound)` for an added document.
  public let oldIndex: UInt
  /// The position after the change; `UInt(NSNotFound)` for a removed document.
  public let newIndex: UInt
}

/// Snapshots are equal when they show the same version of the same document (or both
/// show it missing), as Firebase compares them.
extension DocumentSnapshot: Hashable {
  /// Whether `a` and `b` show the same version of the same document.
  public static func == (a: DocumentSnapshot, b: DocumentSnapshot) -> Bool {
    a.firestore == b.firestore && a.key == b.key && a.document == b.document
  }

  /// Hashes the document's key and the update time.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(key)
    hasher.combine(updateTime)
  }
}

/// Query snapshots are equal when they hold the same documents for the same query.
extension QuerySnapshot: Hashable {
  /// Whether `a` and `b` hold the same documents for the same query.
  public static func == (a: QuerySnapshot, b: QuerySnapshot) -> Bool {
    a.query == b.query && a.documents == b.documents
  }

  /// Hashes the query and the documents.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(query)
    hasher.combine(documents)
  }
}
