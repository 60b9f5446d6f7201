/// Reading and changing fields by path inside a document's field map, and computing
/// transforms — the pure part of applying a write.
package enum FieldOperations {
  /// The value at `path`, or `nil` when a segment is missing or crosses a non-map.
  package static func value(at path: FieldPath, in fields: [String: Value]) -> Value? {
    guard let first = path.first, let value = fields[first] else { return nil }
    if path.count == 1 { return value }
    guard case .map(let inner) = value else { return nil }
    return self.value(at: path.dropFirst, in: inner)
  }

  /// Sets `path` to `value`, creating maps along the way and replacing any non-map value
  /// that stands where a map is needed (a vector too: a value of its own type, though
  /// stored as a map, as Google's emulator replaces one under `m.y`).
  package static func set(_ value: Value, at path: FieldPath, in fields: inout [String: Value]) {
    guard let first = path.first else { return }
    if path.count == 1 {
      fields[first] = value
      return
    }
    var inner: [String: Value]
    if case .map(let existing) = fields[first], Value.vectorElements(existing) == nil {
      inner = existing
    } else {
      inner = [:]
    }
    fields[first] = nil  // drop the reference so `inner` is uniquely owned and mutated in place
    set(value, at: path.dropFirst, in: &inner)
    fields[first] = .map(inner)
  }

  /// Deletes `path`; nothing happens when it does not exist (or crosses a vector).
  package static func delete(at path: FieldPath, in fields: inout [String: Value]) {
    guard let first = path.first else { return }
    if path.count == 1 {
      fields[first] = nil
      return
    }
    guard case .map(var inner) = fields[first], Value.vectorElements(inner) == nil else { return }
    fields[first] = nil
    delete(at: path.dropFirst, in: &inner)
    fields[first] = .map(inner)
  }

  /// Applies a patch: each masked path takes its value from `patch`, or is deleted when
  /// `patch` has none.
  package static func apply(patch: [String: Value], mask: [FieldPath], to fields: inout [String: Value]) {
    for path in mask {
      if let value = value(at: path, in: patch) {
        set(value, at: path, in: &fields)
      } else {
        delete(at: path, in: &fields)
      }
    }
  }

  /// The result of `operation` on a field whose current value is `previous`.
  package static func transform(_ operation: TransformOperation, previous: Value?, commitTime: Timestamp) -> Value {
    switch operation {
    case .serverTimestamp:
      // Firestore's REQUEST_TIME: the time the server processed the request, "with
      // millisecond precision" (google/firestore/v1/write.proto), as Google's emulator
      // gives it; Hearth's is its commit time so cut.
      return .timestamp(commitTime.truncatedToMilliseconds)
    case .increment(let operand):
      guard let previous, previous.isNumber else { return operand }
      return add(previous, operand)
    case .arrayUnion(let elements):
      var result: [Value]
      if case .array(let existing) = previous { result = existing } else { result = [] }
      for element in elements where !result.contains(element) { result.append(element) }
      return .array(result)
    case .arrayRemove(let elements):
      guard case .array(let existing) = previous else { return .array([]) }
      return .array(existing.filter { !elements.contains($0) })
    case .minimum(let operand):
      return extreme(previous, operand, keepSmaller: true)
    case .maximum(let operand):
      return extreme(previous, operand, keepSmaller: false)
    }
  }

  /// int + int saturating at Int64's bounds; anything with a double is a double.
  static func add(_ a: Value, _ b: Value) -> Value {
    switch (a, b) {
    case (.integer(let x), .integer(let y)):
      let (sum, overflow) = x.addingReportingOverflow(y)
      if overflow { return .integer(y > 0 ? .max : .min) }
      return .integer(sum)
    default:
      return .double(asDouble(a) + asDouble(b))
    }
  }

  static func asDouble(_ value: Value) -> Double {
    switch value {
    case .integer(let i): Double(i)
    case .double(let d): d
    default: 0
    }
  }

  /// minimum/maximum: a missing or non-numeric field takes the operand; NaN wins (a NaN
  /// field stays, a NaN operand replaces); an equal value (even `1` vs `1.0`) keeps the
  /// field as it is; otherwise the smaller or larger value, with its own type.
  static func extreme(_ previous: Value?, _ operand: Value, keepSmaller: Bool) -> Value {
    guard let previous, previous.isNumber else { return operand }
    if previous.isNaN { return previous }
    if operand.isNaN { return operand }
    let order = Value.compare(operand, previous)
    if order == 0 { return previous }
    return (order < 0) == keepSmaller ? operand : previous
  }
}
