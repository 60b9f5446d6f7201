import Foundation
import HearthCore
import Synchronization

/// Whether a snapshot holds writes not yet committed or data from a cache. Hearth's
/// commits are durable when they return, so both are always false.
public struct SnapshotMetadata: Sendable, Equatable {
  public let hasPendingWrites: Bool
  public let isFromCache: Bool

  static let committed = SnapshotMetadata(hasPendingWrites: false, isFromCache: false)
}

/// A document as read at one moment; `exists` is false when it was missing.
///
/// The snapshot holds the document's verified bytes; the first `data()` or `get` builds
/// the fields straight from them and keeps them, so a snapshot that is only checked for
/// existence, or decoded as a struct, costs no dictionary it does not need.
///
/// `@unchecked Sendable`: immutable but for the decoded fields, which `decoded` guards.
public class DocumentSnapshot: @unchecked Sendable {
  public let reference: DocumentReference
  let document: EncodedDocument?
  private let decoded = Mutex<[String: Any]?>(nil)

  init(reference: DocumentReference, document: EncodedDocument?) {
    self.reference = reference
    self.document = document
  }

  public var documentID: String { reference.documentID }
  public var exists: Bool { document != nil }
  public var metadata: SnapshotMetadata { .committed }
  /// When the document was created (beyond the mobile SDK); `nil` when missing.
  public var createTime: Timestamp? { document?.createTime }
  /// When the document was last written; `nil` when missing.
  public var updateTime: Timestamp? { document?.updateTime }

  /// The document's fields, or `nil` when it does not exist.
  public func data() -> [String: Any]? {
    guard let document else { return nil }
    let fields = decoded.withLock { cached -> UncheckedFields in
      if let cached { return UncheckedFields(fields: cached) }
      let fields = document.decode(using: UserDataWriter(database: reference.firestore)).fields
      cached = fields
      return UncheckedFields(fields: fields)
    }
    return fields.fields
  }

  /// The document's fields as stored values, decoded afresh from its bytes (not kept),
  /// or `nil` when it does not exist: what `data(as:)` decodes, without building the
  /// `[String: Any]` of `data()`.
  var storedFields: [String: Value]? { document?.decode(using: ValueBuilder()).fields }

  /// `data()`: Hearth resolves server timestamps at commit, so every behaviour is the same.
  public func data(with serverTimestampBehavior: ServerTimestampBehavior) -> [String: Any]? { data() }

  /// The value at a field path (a dotted `String` or a `FieldPath`), or `nil`.
  public func get(_ field: Any) -> Any? {
    guard var value: Any = data() else { return nil }
    let path: FieldPath
    switch field {
    case let string as String:
      guard let parsed = try? FieldPath.parse(dotted: string) else { return nil }
      path = parsed
    case let fieldPath as FieldPath:
      if fieldPath.isDocumentID { return reference.documentID }
      path = fieldPath
    default: return nil
    }
    for name in path.segments {
      guard let map = value as? [String: Any], let next = map[name] else { return nil }
      value = next
    }
    return value
  }

  public subscript(key: Any) -> Any? { self.get(key) }
}

/// A document that a query returned: it always exists.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
  init(database: Database, document: EncodedDocument) {
    super.init(reference: DocumentReference(database: database, key: document.key), document: document)
  }

  public override func data() -> [String: Any] { super.data() ?? [:] }

  public override func data(with serverTimestampBehavior: ServerTimestampBehavior) -> [String: Any] { data() }
}

/// The result of a query.
///
/// `@unchecked Sendable`: immutable after creation.
public final class QuerySnapshot: @unchecked Sendable {
  public let query: Query
  public let documents: [QueryDocumentSnapshot]
  private let changes: [DocumentChange]?
  public var metadata: SnapshotMetadata { .committed }
  public var count: Int { documents.count }
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

  public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] { documentChanges }
}

public enum DocumentChangeType: Sendable {
  case added, modified, removed
}

/// One change between two snapshots of a query.
public struct DocumentChange: Sendable {
  public let type: DocumentChangeType
  public let document: QueryDocumentSnapshot
  /// The position before the change; `UInt(NSNotFound)` for an added document.
  public let oldIndex: UInt
  /// The position after the change; `UInt(NSNotFound)` for a removed document.
  public let newIndex: UInt
}

/// Carries decoded fields out of the snapshot's lock.
///
/// `@unchecked Sendable`: the fields are an immutable copy-on-write dictionary, read
/// only after the lock has published them.
private struct UncheckedFields: @unchecked Sendable {
  let fields: [String: Any]
}

/// Snapshots are equal when they show the same version of the same document (or both
/// show it missing), as Firebase compares them.
extension DocumentSnapshot: Hashable {
  public static func == (a: DocumentSnapshot, b: DocumentSnapshot) -> Bool {
    a.reference == b.reference && a.document == b.document
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(reference)
    hasher.combine(updateTime)
  }
}

/// Query snapshots are equal when they hold the same documents for the same query.
extension QuerySnapshot: Hashable {
  public static func == (a: QuerySnapshot, b: QuerySnapshot) -> Bool {
    a.query == b.query && a.documents == b.documents
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(query)
    hasher.combine(documents)
  }
}
