import HearthCore

/// The query rules Firestore's backend enforces, in its words and in the order it checks
/// them, so that the wire server refuses what Google's emulator refuses with the same
/// status and message. HearthCore's checks (`QueryModel.add`, `validateForRun`) follow the
/// client SDKs, which word some of the same rules otherwise and check fewer; they run after
/// these, on the query as the client sent it (an OR of one member still counts as an OR).
enum BackendQueryRules {
  /// Checks the query's filters (joined by AND), each rule over all of them before the next.
  ///
  /// - Throws: `invalidArgument` with the emulator's message for the first rule broken:
  ///   more than one `!=`/`not-in` (unary `IS_NOT_NULL`/`IS_NOT_NAN` are `!=`); `not-in`
  ///   with `in`, `array-contains-any` or any OR; a list operand that is not a list, is
  ///   empty or is over its limit (filter by filter); two array-membership filters in one
  ///   disjunction; an array operator on `__name__`; a value over 1,500 bytes
  ///   (`checkValueSizes`); more than 30 disjunctions. For a
  ///   Listen target (`listening`) the emulator checks the array filters last and
  ///   answers `failedPrecondition` for them, and lets array operators on `__name__`
  ///   through (HearthCore's check then refuses them in the SDKs' words).
  static func check(_ filters: [QueryFilter], listening: Bool = false) throws {
    let fieldFilters = filters.fieldFilters
    if fieldFilters.count(where: { $0.op == .notEqual || $0.op == .notIn }) > 1 {
      throw invalid("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
    }
    if fieldFilters.contains(where: { $0.op == .notIn }),
      fieldFilters.contains(where: { $0.op == .in || $0.op == .arrayContainsAny }) || filters.contains(where: hasOr)
    {
      throw invalid("'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
    }
    for filter in fieldFilters where filter.op.takesList {
      let name = wireName(filter.op)
      guard case .array(let elements) = filter.value else { throw invalid("'\(name)' requires an ArrayValue.") }
      // "an non-empty" is the emulator's own spelling.
      if elements.isEmpty { throw invalid("'\(name)' requires an non-empty ArrayValue.") }
      if elements.count > QueryModel.maxListCount(filter.op) {
        throw invalid("'\(name)' supports up to \(QueryModel.maxListCount(filter.op)) comparison values.")
      }
    }
    if !listening {
      if let problem = QueryModel.arrayMembershipProblem(filters) { throw problem }
      // The backend names `__name__` by its Datastore name, `__key__`.
      if fieldFilters.contains(where: { $0.field.isDocumentID && $0.op.isArrayOperator }) {
        throw invalid("the name __key__ is reserved")
      }
    }
    if !listening { try checkValueSizes(fieldFilters) }
    let disjunctions = filters.reduce(1) { $0 * QueryModel.disjunctionCount($1) }
    if disjunctions > QueryModel.maxDisjunctions {
      throw invalid(
        "Too many disjunctions after normalization. Result had \(disjunctions) disjunctions which is more than the "
          + "maximum of \(QueryModel.maxDisjunctions)")
    }
    if listening, QueryModel.arrayMembershipProblem(filters) != nil {
      throw HearthError(.failedPrecondition, listenArrayMembershipLimit)
    }
  }

  /// The largest value, by Firestore's size rules, that a filter can look up in an index.
  static let maxFilterValueSize = 1500

  /// Checks each value a filter compares a field with (each of a list's) against
  /// `maxFilterValueSize`: Google's emulator refuses a larger one, naming the field (with
  /// `[*]` for the array filters). Cursors are not checked, as the emulator does not.
  ///
  /// - Throws: `invalidArgument` with the emulator's message.
  private static func checkValueSizes(_ fieldFilters: [FieldFilter]) throws {
    for filter in fieldFilters where !filter.field.isDocumentID {
      for value in operands(filter) where DocumentValidation.valueSize(value) > maxFilterValueSize {
        let name = filter.op.isArrayOperator ? "\(filter.field)[*]" : "\(filter.field)"
        throw invalid("value for \(name) is too large to be used in a query")
      }
    }
  }

  /// `filter` as the backend matches it, once the query is checked: a `not-in` operand
  /// that is NaN excludes nothing, for the backend compares it as IEEE 754 does, equal to
  /// nothing (as `in [NaN]` matches nothing), so it is dropped, and a `not-in` of NaN
  /// alone keeps every document whose field exists and is not null (`!= null`).
  /// HearthCore follows the mobile SDKs, which filter the backend's answer with their own
  /// matcher, where NaN equals NaN (docs/semantics.md); server clients (Python, Node's
  /// admin SDK) see the backend's answer, as Google's emulator gives it.
  static func matchingAsTheBackend(_ filter: QueryFilter) -> QueryFilter {
    switch filter {
    case .and(let parts): return .and(parts.map(matchingAsTheBackend))
    case .or(let parts): return .or(parts.map(matchingAsTheBackend))
    case .field(let field):
      guard field.op == .notIn, case .array(let elements) = field.value else { return filter }
      let compared = elements.filter { !$0.isNaN }
      if compared.count == elements.count { return filter }
      if compared.isEmpty { return .field(FieldFilter(field: field.field, op: .notEqual, value: .null)) }
      return .field(FieldFilter(field: field.field, op: .notIn, value: .array(compared)))
    }
  }

  /// Whether the backend reserves `name` (a field name or an ID): it begins and ends with
  /// `__` and has five bytes or more (`ResourcePath.shortestReserved`).
  static func isReserved(_ name: String) -> Bool { DocumentValidation.isReserved(name) }

  /// Google's emulator refuses to read a name with a reserved ID (one that begins and ends
  /// with `__`, five bytes or more), in its words: a document, a query's or a listing's
  /// collection; no such document can be written. A document ID `__id<integer>__` (a
  /// numeric ID) may be read.
  ///
  /// - Throws: `invalidArgument` naming the ID.
  static func checkReservedIDs(_ path: ResourcePath) throws {
    for (index, id) in path.segments.enumerated() where isReserved(id) {
      let document = index % 2 == 1
      // `__id<integer>__` is a document's numeric ID (Datastore's), which may be read.
      if document, isNumericID(id) { continue }
      let kind = document ? "Resource id" : "Collection id"
      throw invalid("\(kind) \"\(id)\" is invalid because it is reserved.")
    }
  }

  /// Whether `id` is `__id` and an integer (optionally negative) and `__`.
  private static func isNumericID(_ id: String) -> Bool {
    guard id.hasPrefix("__id"), id.hasSuffix("__"), id.utf8.count > 6 else { return false }
    let number = id.utf8.dropFirst(4).dropLast(2)
    let digits = number.first == UInt8(ascii: "-") ? number.dropFirst() : number[...]
    return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// Checks the field paths a read names (in a filter, an order, a projection, an
  /// aggregation or a document mask) against the backend's reserved names: a segment that
  /// begins and ends with `__` (five bytes or more; `__name__` alone is the
  /// document's name, and `__name__` inside a path is refused by its Datastore name).
  /// Google's emulator checks this before any other rule of a query.
  ///
  /// - Throws: `invalidArgument` with the emulator's message, naming the segment.
  static func checkFieldPaths(_ paths: some Sequence<FieldPath>) throws {
    for path in paths where !path.isDocumentID {
      for segment in path.segments where isReserved(segment) {
        throw invalid(
          segment == "__name__" ? "the name __key__ is reserved" : "Invalid reserved name in field path \(segment)")
      }
    }
  }

  /// Checks the backend's rules on `__name__`'s values, for RunQuery and aggregations (a
  /// Listen target hears neither), after the filter rules: a cursor's value at
  /// `__name__`'s place in the query's order must be a reference, then every value that a
  /// filter compares `__name__` with (each of an `in` or `not-in` list's) must be one. The
  /// SDKs send a plain ID as a reference; Google's Python client sends one given to a
  /// filter as a string, and Google's emulator refuses it.
  ///
  /// - Throws: `invalidArgument` with the emulator's message.
  static func checkNames(_ model: QueryModel) throws {
    if let place = model.orderBys.firstIndex(where: { $0.field.isDocumentID }) {
      for bound in [model.startAt, model.endAt] {
        guard let values = bound?.values, values.count > place else { continue }
        guard case .reference = values[place] else {
          throw invalid("Cursor __key__ value is not a document reference.")
        }
      }
    }
    try model.filters.forEachFieldFilter { filter in
      guard filter.field.isDocumentID, !filter.op.isArrayOperator else { return }
      for value in operands(filter) {
        guard case .reference = value else { throw invalid("__key__ filter value must be a Key") }
      }
    }
  }

  /// Google's emulator does not read documents by name in descending order: a query or
  /// aggregation ordered first by `__name__` descending, with no filter on another field
  /// whose index it could read instead, fails with FAILED_PRECONDITION (a
  /// `limit_to_last` over `__name__` ascending too, which the clients send reversed). It
  /// is the emulator's refusal, checked after every other rule, on the wire only; Hearth's
  /// own API reads such queries.
  ///
  /// - Throws: `failedPrecondition` with the emulator's message.
  static func checkNameScan(_ model: QueryModel) throws {
    guard let first = model.orderBys.first, first.field.isDocumentID, first.descending else { return }
    var otherField = false
    model.filters.forEachFieldFilter { otherField = otherField || !$0.field.isDocumentID }
    if !otherField {
      throw HearthError(.failedPrecondition, "Firestore does not support descending key scans")
    }
  }

  /// Checks what a sum or average reads as Google's emulator does: never `__name__`, and
  /// only a field the query's projection (`select`, if any) keeps.
  ///
  /// - Throws: `invalidArgument` in the emulator's words.
  static func checkOperands(_ functions: [AggregateFunction], projecting select: [FieldPath]?) throws {
    for field in functions.compactMap(\.field) {
      if field.isDocumentID { throw invalid("Aggregations are not supported for the property: __key__") }
      if let select, !select.contains(where: { $0.isPrefix(of: field) }) {
        throw invalid("The aggregation property \(field) is not present in the base query's property mask.")
      }
    }
  }

  /// Checks sum and average against the backend's rule for `__name__` in their index: a
  /// query ordered explicitly by `__name__`, with a filter on `__name__` (any operator, in
  /// any AND or OR), or with a cursor that holds a `__name__` value (a cursor from a document
  /// snapshot always does), needs an index with the aggregated fields after `__name__`,
  /// which Firestore does not support, unless the query orders by them first (an equality
  /// filter on them does not do). Counts are never refused. This is production's
  /// refusal too (b/306241058): Google's system tests `test_sum_query_with_start_at` and
  /// `test_avg_query_with_start_at` are skipped everywhere until the backend changes.
  ///
  /// - Throws: `invalidArgument` with the emulator's message, naming the fields.
  static func check(_ functions: [AggregateFunction], over model: QueryModel) throws {
    let orderBys = model.orderBys
    guard let name = orderBys.firstIndex(where: { $0.field.isDocumentID }),
      model.explicitOrderBys.contains(where: { $0.field.isDocumentID })
        || model.filters.fieldFilters.contains(where: { $0.field.isDocumentID })
        || (model.startAt?.values.count ?? 0) > name || (model.endAt?.values.count ?? 0) > name
    else { return }
    let ordered = Set(orderBys[..<name].map(\.field))
    var fields: [FieldPath] = []
    for function in functions {
      guard let field = function.field, !ordered.contains(field), !fields.contains(field) else { continue }
      fields.append(field)
    }
    guard !fields.isEmpty else { return }
    let names = fields.sorted { FieldPath.compare($0, $1) < 0 }.map(\.description).joined(separator: ", ")
    throw invalid(
      "This query requires an index that has fields [\(names)] after __name__ and Firestore does not currently "
        + "support such an index. Please try the query again with additional ordering on those fields.")
  }

  /// How a Listen target answers `QueryModel.arrayMembershipLimit`'s rule: Google's
  /// emulator removes the target with this cause, FAILED_PRECONDITION, and checks it after
  /// the disjunction count (RunQuery checks it before, as INVALID_ARGUMENT).
  static let listenArrayMembershipLimit = "Only a single array-contains clause is allowed in a query"

  /// The values a filter compares its field with: each of a list's (`in`, `not-in`,
  /// `array-contains-any`), else its one value.
  private static func operands(_ filter: FieldFilter) -> [Value] {
    if filter.op.takesList, case .array(let elements) = filter.value { return elements }
    return [filter.value]
  }

  /// Whether `filter` is or holds an OR, however many members it has.
  private static func hasOr(_ filter: QueryFilter) -> Bool {
    switch filter {
    case .field: false
    case .and(let parts): parts.contains(where: hasOr)
    case .or: true
    }
  }

  /// The operator's name in query.proto, as the backend's messages write it.
  private static func wireName(_ op: FilterOperator) -> String {
    switch op {
    case .in: "IN"
    case .notIn: "NOT_IN"
    case .arrayContainsAny: "ARRAY_CONTAINS_ANY"
    default: "\(op)"
    }
  }

  private static func invalid(_ message: String) -> HearthError { HearthError(.invalidArgument, message) }
}
