import HearthCore

/// Sentinel values for writes: delete a field, or transform it at commit time.
///
/// ```swift
/// try ref.updateData([
///   "likes": FieldValue.increment(1),
///   "tags": FieldValue.arrayUnion(["swift"]),
///   "draft": FieldValue.delete(),
///   "editedAt": FieldValue.serverTimestamp(),
/// ])
/// ```
public struct FieldValue {
  enum Kind {
    case delete
    case serverTimestamp
    case increment(Value)
    case arrayUnion([Any])
    case arrayRemove([Any])
    case minimum(Value)
    case maximum(Value)
  }
  let kind: Kind

  /// Deletes the field (only in `updateData` and `setData(_:merge:)`/`mergeFields:`).
  public static func delete() -> FieldValue { FieldValue(kind: .delete) }
  /// The commit's time to the millisecond (Firestore's precision for it), the same for
  /// every field of one commit.
  public static func serverTimestamp() -> FieldValue { FieldValue(kind: .serverTimestamp) }

  /// Adds to the field: an integer sum saturates at Int64's bounds; a missing or
  /// non-numeric field becomes `n`.
  public static func increment(_ n: Int64) -> FieldValue { FieldValue(kind: .increment(.integer(n))) }
  /// Adds the integer `n` to the field, as `increment(_:)` with an `Int64`.
  public static func increment(_ n: Int) -> FieldValue { FieldValue(kind: .increment(.integer(Int64(n)))) }
  /// Adds the double `n` to the field: the sum is a double (a missing or non-numeric
  /// field becomes `n`).
  public static func increment(_ n: Double) -> FieldValue { FieldValue(kind: .increment(.double(n))) }

  /// Appends each element not already in the array (a missing or non-array field
  /// becomes `[]` first).
  public static func arrayUnion(_ elements: [Any]) -> FieldValue { FieldValue(kind: .arrayUnion(elements)) }
  /// Removes every element equal to one of `elements`.
  public static func arrayRemove(_ elements: [Any]) -> FieldValue { FieldValue(kind: .arrayRemove(elements)) }

  /// Keeps the smaller of the field and `n` (a missing or non-numeric field becomes `n`;
  /// NaN wins).
  public static func minimum(_ n: Int64) -> FieldValue { FieldValue(kind: .minimum(.integer(n))) }
  /// Keeps the smaller of the field and the integer `n`.
  public static func minimum(_ n: Int) -> FieldValue { FieldValue(kind: .minimum(.integer(Int64(n)))) }
  /// Keeps the smaller of the field and the double `n`.
  public static func minimum(_ n: Double) -> FieldValue { FieldValue(kind: .minimum(.double(n))) }
  /// Keeps the larger of the field and `n` (a missing or non-numeric field becomes `n`;
  /// NaN wins).
  public static func maximum(_ n: Int64) -> FieldValue { FieldValue(kind: .maximum(.integer(n))) }
  /// Keeps the larger of the field and the integer `n`.
  public static func maximum(_ n: Int) -> FieldValue { FieldValue(kind: .maximum(.integer(Int64(n)))) }
  /// Keeps the larger of the field and the double `n`.
  public static func maximum(_ n: Double) -> FieldValue { FieldValue(kind: .maximum(.double(n))) }

  /// The name users wrote, for messages.
  var methodName: String {
    switch kind {
    case .delete: "FieldValue.delete()"
    case .serverTimestamp: "FieldValue.serverTimestamp()"
    case .increment: "FieldValue.increment()"
    case .arrayUnion: "FieldValue.arrayUnion()"
    case .arrayRemove: "FieldValue.arrayRemove()"
    case .minimum: "FieldValue.minimum()"
    case .maximum: "FieldValue.maximum()"
    }
  }
}

/// Sentinels are equal when they do the same thing with the same operands (compared
/// exactly: `increment(1)` differs from `increment(1.0)`), as Firebase compares them.
extension FieldValue: Hashable {
  /// Whether `a` and `b` do the same thing with identical operands.
  public static func == (a: FieldValue, b: FieldValue) -> Bool {
    switch (a.kind, b.kind) {
    case (.delete, .delete), (.serverTimestamp, .serverTimestamp): true
    case (.increment(let x), .increment(let y)), (.minimum(let x), .minimum(let y)),
      (.maximum(let x), .maximum(let y)):
      x.isIdentical(to: y)
    case (.arrayUnion(let x), .arrayUnion(let y)), (.arrayRemove(let x), .arrayRemove(let y)):
      sameElements(x, y)
    default: false
    }
  }

  /// Hashes the operation and its number operand (array operands by count).
  public func hash(into hasher: inout Hasher) {
    switch kind {
    case .delete: hasher.combine(0)
    case .serverTimestamp: hasher.combine(1)
    case .increment(let value), .minimum(let value), .maximum(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .arrayUnion(let elements), .arrayRemove(let elements):
      hasher.combine(3)
      hasher.combine(elements.count)
    }
  }

  /// Array operands element by element: scalars exactly, arrays and maps recursively,
  /// references by path.
  private static func sameElements(_ a: [Any], _ b: [Any]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy(sameElement)
  }

  private static func sameElement(_ a: Any, _ b: Any) -> Bool {
    switch (a, b) {
    case (let x as DocumentReference, let y as DocumentReference): return x == y
    case (let x as [Any], let y as [Any]): return sameElements(x, y)
    case (let x as [String: Any], let y as [String: Any]):
      return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameElement(value, $0) } ?? false }
    default:
      guard case .value(let x) = ScalarValue(a), case .value(let y) = ScalarValue(b) else { return false }
      return x.isIdentical(to: y)
    }
  }
}
