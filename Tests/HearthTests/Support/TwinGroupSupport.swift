import Foundation
import Hearth
import HearthTestSupport
import Testing

// Twin collection groups for the suites that check what a plan takes from index keys
// alone (`ExclusionRangeTests`, `IndexAverageTests`, `IndexIntersectionTests`): the same
// documents in `things/{a,b}/items`, whose fields are indexed, and in `things/{a,b}/plain`,
// where the fields a query filters on are exempt from indexing, so that its queries read
// and check every document. The two must answer alike.

/// A database holding `count` documents (`make` gives the `index`th from a seeded random
/// source) in both twins, `exempt` fields unindexed in `plain`.
func withTwinGroups(
  exempt: [String], documents count: Int, _ make: (inout SplitMix64, Int) -> [String: Any],
  _ body: (Database) throws -> Void
) throws {
  try withDatabase(settings: relaxed) { db in
    let overrides = exempt.map { #"{"collectionGroup": "plain", "fieldPath": "\#($0)", "indexes": []}"# }
    try db.declareIndexes(json: #"{"fieldOverrides": [\#(overrides.joined(separator: ", "))]}"#)
    var random = SplitMix64(seed: 20_261_208)
    let batch = db.batch()
    for index in 0..<count {
      let fields = make(&random, index)
      let parent = ["a", "b"][index % 2]
      batch.setData(fields, forDocument: db.document("things/\(parent)/items/d\(index)"))
      batch.setData(fields, forDocument: db.document("things/\(parent)/plain/d\(index)"))
    }
    try batch.commit()
    try body(db)
  }
}

/// `make` of the twin `id` (`items` or `plain`): of `things/a`'s collection, or of the group.
func twin(_ db: Database, _ id: String, group: Bool, _ make: (Query) -> Query) -> Query {
  make(group ? db.collectionGroup(id) : db.collection("things/a/\(id)"))
}

/// Checks that `make` gives the same documents, in order, of `items` as of `plain`, and
/// that its count agrees; returns how the `items` query and its count were read.
@discardableResult
func expectSameDocumentsAsTwin(
  _ db: Database, group: Bool, _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ make: (Query) -> Query
) throws -> (query: QueryExplanation, count: QueryExplanation) {
  let indexed = twin(db, "items", group: group, make)
  let names = try indexed.getDocuments().documents.map(\.reference.path)
  let twinNames = try twin(db, "plain", group: group, make).getDocuments().documents.map {
    $0.reference.path.replacingOccurrences(of: "/plain/", with: "/items/")
  }
  #expect(names == twinNames, "\(label)", sourceLocation: sourceLocation)
  #expect(
    try indexed.count.getAggregation().count.intValue == names.count, "\(label)", sourceLocation: sourceLocation)
  return (try indexed.explain(), try indexed.count.explain())
}
