import Hearth
import HearthCore

extension QueryClauses {
  /// `base` with these clauses, built with Hearth's public query API: each `where` is one
  /// `whereFilter` of nested `Filter.andFilter` / `Filter.orFilter` / `Filter.whereField`.
  /// Hearth checks the query's rules when it runs.
  ///
  /// - Throws: `QueryTextError` (`.value`) for a value `ExtendedJSON` refuses.
  package func query(from base: Query, database: Database) throws(QueryTextError) -> Query {
    var query = base
    for condition in conditions { query = query.whereFilter(try filter(condition, database)) }
    for order in orders { query = query.order(by: order.field, descending: order.descending) }
    switch limit {
    case .first(let count): query = query.limit(to: count)
    case .last(let count): query = query.limit(toLast: count)
    case nil: break
    }
    if let start {
      let values = try start.values.map { literal throws(QueryTextError) in try value(literal, database) }
      query = start.inclusive ? query.start(at: values) : query.start(after: values)
    }
    if let end {
      let values = try end.values.map { literal throws(QueryTextError) in try value(literal, database) }
      query = end.inclusive ? query.end(at: values) : query.end(before: values)
    }
    return query
  }

  /// The aggregations, in the order typed.
  package var aggregateFields: [AggregateField] {
    aggregations.map { aggregation in
      switch aggregation {
      case .count: .count()
      case .sum(let field): .sum(field)
      case .average(let field): .average(field)
      }
    }
  }

  /// Every value as typed, in order: the extended JSON each becomes and the column where
  /// it starts (for the fuzzing harness, which checks that each is written and read back
  /// as the same JSON).
  package var literals: [(json: JSONValue, column: Int)] {
    func collect(_ condition: Condition) -> [Literal] {
      switch condition {
      case .comparison(_, _, let literal): [literal]
      case .and(let parts), .or(let parts): parts.flatMap(collect)
      }
    }
    let all = conditions.flatMap(collect) + (start?.values ?? []) + (end?.values ?? [])
    return all.map { ($0.json, $0.column) }
  }

  private func filter(_ condition: Condition, _ database: Database) throws(QueryTextError) -> Filter {
    switch condition {
    case .and(let parts):
      return .andFilter(try parts.map { part throws(QueryTextError) in try filter(part, database) })
    case .or(let parts):
      return .orFilter(try parts.map { part throws(QueryTextError) in try filter(part, database) })
    case .comparison(let field, let op, let literal):
      let value = try value(literal, database)
      let list = value as? [Any] ?? [value]
      switch op {
      case .equal: return .whereField(field, isEqualTo: value)
      case .notEqual: return .whereField(field, isNotEqualTo: value)
      case .lessThan: return .whereField(field, isLessThan: value)
      case .lessThanOrEqual: return .whereField(field, isLessThanOrEqualTo: value)
      case .greaterThan: return .whereField(field, isGreaterThan: value)
      case .greaterThanOrEqual: return .whereField(field, isGreaterThanOrEqualTo: value)
      case .in: return .whereField(field, in: list)
      case .notIn: return .whereField(field, notIn: list)
      case .arrayContains: return .whereField(field, arrayContains: value)
      case .arrayContainsAny: return .whereField(field, arrayContainsAny: list)
      }
    }
  }

  private func value(_ literal: Literal, _ database: Database) throws(QueryTextError) -> Any {
    do {
      return try ExtendedJSON.value(fromJSON: literal.json, database: database)
    } catch {
      let message = (error as? HearthError)?.message ?? "\(error)"
      throw QueryTextError(kind: .value, message: message, column: literal.column, text: text)
    }
  }
}
