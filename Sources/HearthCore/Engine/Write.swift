/// One write of a commit, in Firestore's mutation model: a plain write (set, patch or
/// delete), then field transforms applied to its result at commit time, guarded by a
/// precondition.
///
/// The public API maps onto it: `setData` is `.set`; `setData(merge:)` and
/// `setData(mergeFields:)` are `.patch` with the merged paths as mask; `updateData` is
/// `.patch` with `precondition: .exists(true)`; `create` is `.set` with
/// `.exists(false)`; `delete` is `.delete`.
public struct Write: Sendable {
  public enum Kind: Sendable {
    /// Replace the whole document with these fields.
    case set([String: Value])
    /// For each path of `mask`: set it to its value in `fields`, or delete it when
    /// `fields` has none there. Other fields stay.
    case patch(fields: [String: Value], mask: [FieldPath])
    case delete
  }

  public enum Precondition: Sendable, Equatable {
    case none
    /// The document must exist (`true`, else `notFound`) or must not (`false`, else
    /// `alreadyExists`).
    case exists(Bool)
  }

  public var key: DocumentKey
  public var kind: Kind
  public var transforms: [FieldTransform]
  public var precondition: Precondition

  public init(key: DocumentKey, kind: Kind, transforms: [FieldTransform] = [], precondition: Precondition = .none) {
    self.key = key
    self.kind = kind
    self.transforms = transforms
    self.precondition = precondition
  }
}

/// A transform of one field, computed from the field's value after the plain write.
public struct FieldTransform: Sendable {
  public var path: FieldPath
  public var operation: TransformOperation

  public init(path: FieldPath, operation: TransformOperation) {
    self.path = path
    self.operation = operation
  }
}

/// Firestore's field transforms (docs/semantics.md, "Writes").
public enum TransformOperation: Sendable {
  /// The commit time (the same value for every field of one commit).
  case serverTimestamp
  /// Adds a number: int + int saturates at Int64's bounds; any double makes a double;
  /// a missing or non-numeric field becomes the operand.
  case increment(Value)
  /// Appends each element not already present (by Firestore equality), in order.
  case arrayUnion([Value])
  /// Removes every element equal to one of these.
  case arrayRemove([Value])
  /// Keeps the smaller (`minimum`) or larger (`maximum`) number; NaN wins; an equal
  /// value leaves the field unchanged; a missing or non-numeric field becomes the operand.
  case minimum(Value)
  case maximum(Value)

  /// The name users wrote, for messages.
  public var name: String {
    switch self {
    case .serverTimestamp: "FieldValue.serverTimestamp()"
    case .increment: "FieldValue.increment()"
    case .arrayUnion: "FieldValue.arrayUnion()"
    case .arrayRemove: "FieldValue.arrayRemove()"
    case .minimum: "FieldValue.minimum()"
    case .maximum: "FieldValue.maximum()"
    }
  }
}
