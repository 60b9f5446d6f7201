import Hearth
import HearthCore

/// The clauses of a query typed in the shell (docs/shell.md, "`query` and `explain`"),
/// parsed; the text after TARGET:
///
/// ```
/// where likes >= 10 and (tags array-contains "swift" or pinned == true)
///   order by createdAt desc limit 20 start after ts("2026-01-01T00:00:00Z")
/// ```
///
/// - `where EXPR`: comparisons `FIELD OP VALUE` joined by `and` and `or` (`and` binds
///   tighter) and grouped by parentheses. Several `where` clauses are ANDed.
/// - `order by F [asc|desc][, F [asc|desc]...]`, repeatable.
/// - `limit N`, `limit last N`; `start at|after V[, V...]`, `end at|before V[, V...]`.
/// - Last, any of `count`, `sum F`, `avg F`: the query's aggregation instead of its
///   documents.
///
/// Keywords are case-insensitive and clauses may come in any order; the query is built
/// in Firestore's (filters, order, limit, cursors). A field is a dotted path whose names
/// are plain words or backtick-quoted (`` `a.b`.c ``, with `\` escaping); `__name__` is
/// the document ID. A value is JSON (a number without fraction or exponent is an
/// integer), a single- or double-quoted string, `ts("RFC 3339")`, `ref("path")`,
/// `geo(lat, lng)`, `bytes("base64")`, `NaN`, `Infinity` or `-Infinity`; lists and
/// objects may hold any of these. A quoted string where a clause belongs is read as
/// clauses, so `query users 'where a == 1'` means the same in the interactive shell as in
/// a Unix shell.
///
/// Values are kept as extended JSON text and become Swift values with
/// `ExtendedJSON.value(from:database:)` when the query is built.
package struct QueryClauses {
  enum Operator: String, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case `in` = "in"
    case notIn = "not-in"
    case arrayContains = "array-contains"
    case arrayContainsAny = "array-contains-any"

    /// Takes a list of values (`in [1, 2]`).
    var takesList: Bool { self == .in || self == .notIn || self == .arrayContainsAny }
  }

  /// A value as typed, as extended JSON (`ts("…")` is `{"$timestamp": "…"}`), and the
  /// column where it starts.
  struct Literal: Equatable {
    let json: JSONValue
    let column: Int

    /// Written as a list (`in [1, 2]`), as `in`, `not-in` and `array-contains-any` need.
    var isList: Bool {
      if case .array = json { true } else { false }
    }
  }

  indirect enum Condition: Equatable {
    case comparison(FieldPath, Operator, Literal)
    case and([Condition])
    case or([Condition])
  }

  struct Order: Equatable {
    let field: FieldPath
    let descending: Bool
  }

  enum Limit: Equatable {
    case first(Int)
    case last(Int)
  }

  struct Cursor: Equatable {
    let values: [Literal]
    let inclusive: Bool
  }

  enum Aggregation: Equatable {
    case count
    case sum(FieldPath)
    case average(FieldPath)

    /// Its key in the output object: `count`, `sum` or `avg`.
    var key: String {
      switch self {
      case .count: "count"
      case .sum: "sum"
      case .average: "avg"
      }
    }
  }

  /// The clauses as typed, which error carets point into.
  package let text: String
  /// One per `where` clause, all ANDed.
  var conditions: [Condition] = []
  var orders: [Order] = []
  var limit: Limit?
  var start: Cursor?
  var end: Cursor?
  var aggregations: [Aggregation] = []

  /// - Throws: `QueryTextError` at the column where the text goes wrong.
  package static func parse(_ text: String) throws(QueryTextError) -> QueryClauses {
    var parser = ClauseParser(text)
    return try parser.parseClauses()
  }
}
