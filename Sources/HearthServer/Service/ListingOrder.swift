import HearthCore

/// `ListDocuments`' `order_by`, as Google's emulator reads it: field paths separated by
/// commas (spaces may follow a comma), each optionally followed by one space and `asc` or
/// `desc` in any case (`"likes desc, __name__"`). A listing so ordered is a query: only
/// documents with every field ordered by are listed, ties in the last field's direction by
/// name. `__name__` may only come last, and not alone descending (Firestore scans no key
/// range backwards).
enum ListingOrder {
  /// The orders `text` names; empty for an empty text.
  ///
  /// - Throws: `invalidArgument` for a clause that is not a field path and a direction, or
  ///   a field after `__name__`; `failedPrecondition` for `__name__ desc` alone (the
  ///   emulator's words for each).
  static func parse(_ text: String) throws -> [OrderBy] {
    guard !text.isEmpty else { return [] }
    let clauses = text.split(separator: ",", omittingEmptySubsequences: false)
    var orders: [OrderBy] = []
    for (index, clause) in clauses.enumerated() {
      let trimmed = index == 0 ? clause : clause.drop { $0 == " " }
      guard let order = Self.order(trimmed) else {
        throw HearthError(.invalidArgument, "Invalid order by clause \"\(text)\".")
      }
      if order.field.isDocumentID, index < clauses.count - 1 {
        throw HearthError(.invalidArgument, "order by clause cannot contain more fields after the key")
      }
      orders.append(order)
    }
    if orders.count == 1, orders[0].field.isDocumentID, orders[0].descending {
      throw HearthError(.failedPrecondition, "Firestore does not support descending key scans")
    }
    return orders
  }

  /// Whether `orders` list in name order, as a listing does without `order_by`.
  static func isNameOrder(_ orders: [OrderBy]) -> Bool {
    orders.allSatisfy { $0.field.isDocumentID && !$0.descending }
  }

  /// One clause: a field path, then optionally a space and a direction (a name has no
  /// space outside backticks).
  private static func order(_ clause: Substring) -> OrderBy? {
    var spaces: [Substring.Index] = []
    var quoted = false
    var escaped = false
    for index in clause.indices {
      let character = clause[index]
      if escaped {
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "`" {
        quoted.toggle()
      } else if character == " ", !quoted {
        spaces.append(index)
      }
    }
    var path = clause
    var descending = false
    if let space = spaces.first {
      guard spaces.count == 1 else { return nil }
      switch clause[clause.index(after: space)...].lowercased() {
      case "asc": break
      case "desc": descending = true
      default: return nil
      }
      path = clause[..<space]
    }
    guard !path.isEmpty, let field = try? FieldPath.parse(canonical: String(path)) else { return nil }
    return OrderBy(field: field, descending: descending)
  }
}
