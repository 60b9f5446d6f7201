/// One write of a commit, in Firestore's mutation model: a plain write (set, patch or
/// delete), then field transforms applied to its result at commit time, guarded by a
/// precondition.
///
/// The public API maps onto it: `setData` is `.set`; `setData(merge:)` and
/// `setData(mergeFields:)` are `.patch` with the merged paths as mask; `updateData` is
/// `.patch` with `precondition: .exists(true)`; `create` is `.set` with
/// `.exists(false)`; `delete` is `.delete`.
package struct Write: Sendable {
  package enum Kind: Sendable {
    /// Replace the whole document with these fields.
    case set([String: Value])
    /// For each path of `mask`: set it to its value in `fields`, or delete it when
    /// `fields` has none there. Other fields stay.
    case patch(fields: [String: Value], mask: [FieldPath])
    case delete
  }

  package enum Precondition: Sendable, Equatable {
    case none
    /// The document must exist (`true`, else `notFound`) or must not (`false`, else
    /// `alreadyExists`).
    case exists(Bool)
    /// The document must exist and have been last updated at this time, else
    /// `failedPrecondition` (Firestore's `current_document.update_time`, with which a
    /// client writes only over the version it read); a time after its last update is
    /// `invalidArgument`, as in Firestore.
    case updateTime(Timestamp)
  }

  package var key: DocumentKey
  package var kind: Kind
  package var transforms: [FieldTransform]
  package var precondition: Precondition

  package init(key: DocumentKey, kind: Kind, transforms: [FieldTransform] = [], precondition: Precondition = .none) {
    self.key = key
    self.kind = kind
    self.transforms = transforms
    self.precondition = precondition
  }
}

/// A transform of one field, computed from the field's value after the plain write.
package struct FieldTransform: Sendable {
  package var path: FieldPath
  package var operation: TransformOperation

  package init(path: FieldPath, operation: TransformOperation) {
    self.path = path
    self.operation = operation
  }
}
