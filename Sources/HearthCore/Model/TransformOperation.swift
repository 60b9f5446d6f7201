/// Firestore's field transforms (docs/semantics.md, "Writes").
package enum TransformOperation: Sendable {
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
  package var name: String {
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
