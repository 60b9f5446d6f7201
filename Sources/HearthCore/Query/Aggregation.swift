/// An aggregation over a query's results (docs/semantics.md, "Aggregations").
package enum AggregateFunction: Sendable, Hashable {
  case count
  case sum(FieldPath)
  case average(FieldPath)

  /// Firestore runs at most five aggregations in one query.
  package static let maximumCount = 5

  /// The field a sum or average reads; `nil` for a count.
  package var field: FieldPath? {
    switch self {
    case .count: nil
    case .sum(let field), .average(let field): field
    }
  }

  /// The function's result over `documents`:
  /// - `count`: an integer.
  /// - `sum`: non-numbers are ignored; an integer when every input is an integer and no
  ///   overflow occurs, else a double: the exact sum rounded once (`ExactSum`); NaN makes
  ///   it NaN; no input gives 0.
  /// - `average`: a double, that double sum divided by the count (as Firestore divides);
  ///   no numeric input gives null.
  package func result(over documents: [QueryDocument]) -> Value {
    switch self {
    case .count:
      return .integer(Int64(documents.count))
    case .sum(let field):
      return AggregateFunction.sum(documents.compactMap { $0.value(field) })
    case .average(let field):
      let numbers = documents.compactMap { $0.value(field) }.filter(\.isNumber)
      guard !numbers.isEmpty else { return .null }
      var total = ExactSum()
      for number in numbers { total.add(FieldOperations.asDouble(number)) }
      return .double(total.value / Double(numbers.count))
    }
  }

  /// Integers add up exactly (in 128 bits, so a running total may pass Int64's bounds
  /// on the way); the sum is an integer when every input is one and the total fits, that
  /// total rounded to a double when it does not. With a double among them, every number
  /// is taken as a double (an integer rounded on its own, as Google's emulator takes
  /// 2^53 + 1 beside 1.0) and their exact sum rounded once.
  static func sum(_ values: [Value]) -> Value {
    var integer: Int128 = 0
    var doubles = ExactSum()
    var sawDouble = false
    for value in values {
      switch value {
      case .integer(let i):
        integer += Int128(i)
        doubles.add(Double(i))
      case .double(let d):
        doubles.add(d)
        sawDouble = true
      default:
        continue
      }
    }
    if sawDouble { return .double(doubles.value) }
    return Int64(exactly: integer).map(Value.integer) ?? .double(Double(integer))
  }

}

extension StoreReader {
  /// The results of `functions` over `query`'s results (after its limit, as in
  /// Firestore).
  ///
  /// A limited query with no order of its own (no order-by, no inequality) that sums or
  /// averages a field is read in that field's order, as Firestore serves it from the
  /// field's index: the limit then takes the documents with the smallest values of the
  /// first field summed or averaged (documents without it are not read), and every
  /// function of the request sees those documents. Google's emulator and Google's own
  /// system tests agree (`limit(12).sum("stats.product")` over values 0…0, 1, 2, 2, …).
  package func aggregate(_ query: QueryModel, _ functions: [AggregateFunction], requireIndexes: Bool = false) throws
    -> [Value]
  {
    try aggregation(query, functions, requireIndexes: requireIndexes).values
  }

  /// `aggregate`'s values and what computing them read (with the plans described when
  /// `explaining`, for `AggregateQuery.explain()`): a count whose filters the index keys
  /// prove reads no document (`QueryExecution.countFromIndexes`).
  package func aggregation(
    _ query: QueryModel, _ functions: [AggregateFunction], requireIndexes: Bool = false, explaining: Bool = false
  ) throws -> (values: [Value], statistics: QueryStatistics) {
    let query = query.readForAggregating(functions, stops: query.limit != nil)
    if functions.allSatisfy({ $0 == .count }) {
      let execution = QueryExecution(reader: self, query: query, explaining: explaining)
      if let count = try execution.countFromIndexes(requireIndexes: requireIndexes) {
        return (functions.map { _ in .integer(Int64(count)) }, execution.statistics)
      }
    }
    if let (values, statistics) = try averageFromIndexes(
      query, functions, requireIndexes: requireIndexes, explaining: explaining)
    {
      return (values, statistics)
    }
    let fields = functions.compactMap(\.field)
    let execution = QueryExecution(reader: self, query: query, reading: fields, explaining: explaining)
    // Without a limit, the aggregated documents are the same in any order (a sum is exact).
    let matches = try execution.matches(requireIndexes: requireIndexes, inAnyOrder: query.limit == nil)
    let documents = matches.map(\.document)
    return (functions.map { $0.result(over: documents) }, execution.statistics)
  }

  /// Averages of one field, with counts beside them, taken from that field's value index
  /// without reading a document (`QueryExecution.averageFromIndexes`), or `nil`. The
  /// functions aggregate the documents that have the field: its index holds an entry for
  /// each. A query with no filter and no order of its own is read in the field's order,
  /// which gives the same documents and makes its index a plan.
  private func averageFromIndexes(
    _ query: QueryModel, _ functions: [AggregateFunction], requireIndexes: Bool, explaining: Bool
  ) throws -> (values: [Value], statistics: QueryStatistics)? {
    guard case .average(let field)? = functions.first(where: { $0 != .count }),
      functions.allSatisfy({ $0 == .count || $0 == .average(field) })
    else { return nil }
    var read = query
    // A query with nothing to index needs no index: its reordered copy is not held to one.
    var require = requireIndexes
    if query.filters.isEmpty, query.orderBys.allSatisfy(\.field.isDocumentID) {
      read.explicitOrderBys = [OrderBy(field: field, descending: false)]
      require = false
    }
    let execution = QueryExecution(reader: self, query: read, reading: [field], explaining: explaining)
    guard let found = try execution.averageFromIndexes(of: field, requireIndexes: require) else { return nil }
    let values = functions.map { function -> Value in
      guard function != .count else { return .integer(Int64(found.entries)) }
      return found.numbers == 0 ? .null : .double(found.sum.value / Double(found.numbers))
    }
    return (values, execution.statistics)
  }
}

extension QueryModel {
  /// The query an aggregation of `functions` reads: one with no order of its own that sums
  /// or averages, and `stops` early (at a limit, or past an offset on the wire), is read
  /// in the first aggregated field's order, as Firestore reads it from that field's index
  /// (so documents without the field are not read).
  package func readForAggregating(_ functions: [AggregateFunction], stops: Bool) -> QueryModel {
    guard stops, orderBys.allSatisfy(\.field.isDocumentID), let field = functions.lazy.compactMap(\.field).first
    else { return self }
    var read = self
    read.explicitOrderBys = [OrderBy(field: field, descending: false)]
    return read
  }
}
