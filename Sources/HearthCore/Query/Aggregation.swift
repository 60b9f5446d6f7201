/// An aggregation over a query's results (SEMANTICS.md, Queries).
public enum AggregateFunction: Sendable, Hashable {
  case count
  case sum(FieldPath)
  case average(FieldPath)

  /// The function's result over `documents`:
  /// - `count`: an integer.
  /// - `sum`: non-numbers are ignored; an integer when every input is an integer and no
  ///   overflow occurs, else a double; NaN makes it NaN; no input gives 0.
  /// - `average`: a double; no numeric input gives null.
  public func result(over documents: [QueryDocument]) -> Value {
    switch self {
    case .count:
      return .integer(Int64(documents.count))
    case .sum(let field):
      return AggregateFunction.sum(documents.compactMap { $0.value(field) })
    case .average(let field):
      let numbers = documents.compactMap { $0.value(field) }.filter(\.isNumber)
      guard !numbers.isEmpty else { return .null }
      let total = numbers.reduce(0.0) { $0 + FieldOperations.asDouble($1) }
      return .double(total / Double(numbers.count))
    }
  }

  static func sum(_ values: [Value]) -> Value {
    var integer: Int64 = 0
    var double = 0.0
    var isInteger = true
    for value in values {
      switch value {
      case .integer(let i):
        double += Double(i)
        if isInteger {
          let (total, overflow) = integer.addingReportingOverflow(i)
          if overflow { isInteger = false } else { integer = total }
        }
      case .double(let d):
        double += d
        isInteger = false
      default:
        continue
      }
    }
    return isInteger ? .integer(integer) : .double(double)
  }
}

extension StoreReader {
  /// The results of `functions` over `query`'s results (after its limit, as in
  /// Firestore).
  public func aggregate(_ query: QueryModel, _ functions: [AggregateFunction]) throws -> [Value] {
    let documents = try run(query).documents.map { QueryDocument(key: $0.key, fields: $0.stored.fields) }
    return functions.map { $0.result(over: documents) }
  }
}
