import Foundation
import Hearth
import Testing

// Fixtures for the query semantics suites (`Query*Tests.swift`, `AggregationTests.swift`):
// seeding documents in one batch, reading result IDs and paths in order, checking that an
// invalid query fails when it runs, and telling integer aggregation results from doubles.

/// Writes `documents` (document ID → data) into `collection` in one batch and returns the
/// collection.
@discardableResult
func seed(_ collection: CollectionReference, _ documents: [String: [String: Any]]) throws -> CollectionReference {
  let batch = collection.firestore.batch()
  for (id, data) in documents {
    batch.setData(data, forDocument: collection.document(id))
  }
  try batch.commit()
  return collection
}

/// Writes documents at full paths (document path → data) in one batch.
func seed(_ db: Database, paths documents: [String: [String: Any]]) throws {
  let batch = db.batch()
  for (path, data) in documents {
    batch.setData(data, forDocument: db.document(path))
  }
  try batch.commit()
}

/// The IDs of the documents the query returns, in result order.
func ids(_ query: Query) throws -> [String] {
  try query.getDocuments().documents.map(\.documentID)
}

/// The full paths of the documents the query returns, in result order.
func paths(_ query: Query) throws -> [String] {
  try query.getDocuments().documents.map(\.reference.path)
}

/// The values of `field` in the query's results, rendered by `canonical`, in result order.
func values(_ query: Query, _ field: String) throws -> [String] {
  try query.getDocuments().documents.map { canonical($0.get(field)) }
}

/// Runs the query and checks that it fails with `invalidArgument` and a message holding
/// every fragment (compared without regard to case; `"a|b"` accepts either). Returns the error.
@discardableResult
func expectInvalidQuery(
  _ query: Query,
  mentioning fragments: [String] = [],
  _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) -> HearthError? {
  let suffix = comment.map { " — \($0)" } ?? ""
  do {
    let snapshot = try query.getDocuments()
    let found = snapshot.documents.map(\.reference.path)
    Issue.record(
      "expected the query to fail with invalidArgument, but it returned \(found)\(suffix)",
      sourceLocation: sourceLocation)
    return nil
  } catch {
    return invalidArgument(error, fragments, suffix, sourceLocation)
  }
}

/// Checks that `body` (an aggregation, an explain) fails with `invalidArgument` and a message
/// holding every fragment, compared without regard to case.
@discardableResult
func expectInvalidArgument(
  mentioning fragments: [String] = [],
  _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) -> HearthError? {
  let suffix = comment.map { " — \($0)" } ?? ""
  do {
    try body()
    return invalidArgument(nil, fragments, suffix, sourceLocation)
  } catch {
    return invalidArgument(error, fragments, suffix, sourceLocation)
  }
}

/// What was thrown (`nil`: nothing), checked to be `invalidArgument` with every fragment:
/// the `HearthError`, or `nil` after recording why it is not.
private func invalidArgument(
  _ error: Error?, _ fragments: [String], _ suffix: String, _ sourceLocation: SourceLocation
) -> HearthError? {
  guard let error else {
    Issue.record(
      "expected a HearthError(invalidArgument) but nothing was thrown\(suffix)", sourceLocation: sourceLocation)
    return nil
  }
  guard let hearthError = error as? HearthError else {
    Issue.record(
      "expected a HearthError(invalidArgument) but got \(type(of: error)): \(error)\(suffix)",
      sourceLocation: sourceLocation)
    return nil
  }
  checkInvalidArgument(hearthError, fragments, suffix, sourceLocation)
  return hearthError
}

private func checkInvalidArgument(
  _ error: HearthError, _ fragments: [String], _ suffix: String, _ sourceLocation: SourceLocation
) {
  let code = error.code
  let message = error.message
  #expect(
    code == .invalidArgument, "expected invalidArgument, got \(code): \(message)\(suffix)",
    sourceLocation: sourceLocation)
  let lowered = message.lowercased()
  for fragment in fragments {
    // "a|b" accepts either wording (Firestore's SDKs word some rules differently).
    let alternatives = fragment.split(separator: "|").map { $0.lowercased() }
    let present = alternatives.contains { lowered.contains($0) }
    #expect(
      present, "the message should mention \"\(fragment)\": \(message)\(suffix)", sourceLocation: sourceLocation)
  }
}

/// Checks that the query runs (no error) and returns `expected` document IDs in order.
func expectIDs(
  _ query: Query, _ expected: [String], _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectResults(ids, of: query, expected, comment, sourceLocation)
}

/// Checks that the query runs and returns documents at `expected` full paths, in order.
func expectPaths(
  _ query: Query, _ expected: [String], _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectResults(paths, of: query, expected, comment, sourceLocation)
}

/// Checks that the query runs and that `read` (`ids` or `paths`) of its result is `expected`.
private func expectResults(
  _ read: (Query) throws -> [String], of query: Query, _ expected: [String], _ comment: String?,
  _ sourceLocation: SourceLocation
) {
  let prefix = comment.map { "\($0): " } ?? ""
  do {
    let found = try read(query)
    #expect(found == expected, "\(prefix)got \(found), expected \(expected)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("\(prefix)the query failed: \(error); expected \(expected)", sourceLocation: sourceLocation)
  }
}

// MARK: - Aggregation results

/// An aggregation result as a type-tagged string: `int:5`, `double:5.0`, `double:NaN`,
/// `null`, `nil` (absent), or `unexpected(...)`. `NSNumber`s are classified by their stored
/// type, so an integer sum is told apart from a double one.
func aggregateValue(_ value: Any?) -> String {
  guard let value else { return "nil" }
  if value is NSNull { return "null" }
  if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
    let objCType = String(cString: number.objCType)
    switch objCType {
    case "d", "f":
      let d = number.doubleValue
      return d.isNaN ? "double:NaN" : "double:\(d)"
    case "c", "C", "B":
      return "unexpected(bool NSNumber \(number))"
    default:
      return "int:\(number.int64Value)"
    }
  }
  switch value {
  case let i as Int64: return "int:\(i)"
  case let i as Int: return "int:\(i)"
  case let d as Double: return d.isNaN ? "double:NaN" : "double:\(d)"
  default: return "unexpected(\(type(of: value)):\(value))"
  }
}

/// The document IDs `"doc1"`…`"docN"` style helper: `names("doc", 1...3)` → `["doc1", "doc2", "doc3"]`.
func names(_ prefix: String, _ range: ClosedRange<Int>) -> [String] {
  range.map { "\(prefix)\($0)" }
}

/// Firestore's composite-index tests share one collection and tag each document with a
/// `testId`, filtering every query on it; their ports keep both.
let compositeTestID = "test-id-Xq2v9LbT0pM3"

/// Writes `docs` (ID → data), each tagged with `compositeTestID`, into Firestore's
/// composite-index test collection.
func compositeIndexTestDocs(_ db: Database, _ docs: [String: [String: Any]]) throws -> CollectionReference {
  try seed(
    db.collection("composite-index-test-collection"), docs.mapValues { $0.merging(["testId": compositeTestID]) { $1 } })
}

/// The query restricted to the documents of `compositeIndexTestDocs`.
func withTestID(_ query: Query) -> Query { query.whereField("testId", isEqualTo: compositeTestID) }
