/// Whether documents match a query's filters, with Firestore's semantics (docs/semantics.md,
/// Queries).
package enum QueryMatcher {
  /// Whether `document` satisfies every filter (they are joined by AND).
  package static func matches(_ filters: [QueryFilter], _ document: QueryDocument) -> Bool {
    filters.allSatisfy { matches($0, document) }
  }

  package static func matches(_ filter: QueryFilter, _ document: QueryDocument) -> Bool {
    switch filter {
    case .field(let filter): matches(filter, document)
    case .and(let filters): filters.allSatisfy { matches($0, document) }
    case .or(let filters): filters.contains { matches($0, document) }
    }
  }

  package static func matches(_ filter: FieldFilter, _ document: QueryDocument) -> Bool {
    // A document lacking the field never matches.
    guard let value = document.value(filter.field) else { return false }
    let operand = filter.value
    switch filter.op {
    case .equal:
      return value.typeOrder == operand.typeOrder && Value.compare(value, operand) == 0
    case .notEqual:
      // Types need not match; the field must exist and not be null.
      if case .null = value { return false }
      return Value.compare(value, operand) != 0
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      // Ranges compare within one type class, and never match NaN.
      guard value.typeOrder == operand.typeOrder, !value.isNaN else { return false }
      let result = Value.compare(value, operand)
      switch filter.op {
      case .lessThan: return result < 0
      case .lessThanOrEqual: return result <= 0
      case .greaterThan: return result > 0
      default: return result >= 0
      }
    case .in:
      return listElements(operand).contains { isMatchable($0) && $0 == value }
    case .notIn:
      let elements = listElements(operand)
      if case .null = value { return false }
      if elements.contains(where: { if case .null = $0 { true } else { false } }) { return false }
      return !elements.contains { $0 == value }
    case .arrayContains:
      guard isMatchable(operand), case .array(let elements) = value else { return false }
      return elements.contains(operand)
    case .arrayContainsAny:
      guard case .array(let elements) = value else { return false }
      return listElements(operand).contains { isMatchable($0) && elements.contains($0) }
    }
  }

  /// `in`, `array-contains` and `array-contains-any` never match a null or NaN operand.
  static func isMatchable(_ operand: Value) -> Bool {
    if case .null = operand { return false }
    return !operand.isNaN
  }

  static func listElements(_ operand: Value) -> [Value] {
    if case .array(let elements) = operand { return elements }
    return [operand]
  }
}
