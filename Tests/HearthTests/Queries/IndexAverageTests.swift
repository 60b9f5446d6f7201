import Foundation
import Hearth
import HearthTestSupport
import Testing

// An average whose filters its field's index keys prove is taken from those keys, one
// step a distinct value, without reading a document. Its answer, and a count's beside it,
// must be exactly those of the same aggregation over the documents (read from a twin
// collection group where the field is exempt from indexing): integers and doubles of one
// value, integers past 2^53, NaN, infinities, -0.0, subnormals, non-numbers, missing
// fields, filters of every kind on the field, collection and collection-group scope.

@Suite("Averages from index keys")
struct IndexAverageTests {
  /// The values documents hold in `v`; `nil` leaves the field out.
  private static var values: [Any?] {
    [
      nil, NSNull(), true, -3, 0, -0.0, 1, 1.0, 1.5, 0.1, 7, 9_007_199_254_740_993, Int64.max, Int64.min, 1e308,
      Double.leastNonzeroMagnitude, -2.5, "a", [1], ["k": 1], Timestamp(seconds: 10, nanoseconds: 0),
    ]
  }

  /// The twins (`withTwinGroups`) of 200 pseudo-random documents, `v` exempt in `plain`;
  /// `special` adds NaN and infinities to the values.
  private func withTwins(special: Bool = false, _ body: (Database) throws -> Void) throws {
    let values = Self.values + (special ? [Double.nan, Double.infinity, -Double.infinity] : [])
    try withTwinGroups(
      exempt: ["v"], documents: 200,
      { random, index in
        var fields: [String: Any] = ["k": index % 3]
        if let value = values.randomElement(using: &random)! { fields["v"] = value }
        return fields
      }, body)
  }

  /// Checks that an average of `v` and a count, over `make` of the indexed collection (or
  /// group), answer as over its twin; returns how the indexed one was read.
  @discardableResult
  private func expectSameAsTwin(
    _ db: Database, group: Bool, _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (Query) -> Query
  ) throws -> QueryExplanation {
    let fields = [AggregateField.average("v"), AggregateField.count()]
    func answers(_ query: Query) throws -> [String] {
      let snapshot = try query.aggregate(fields).getAggregation()
      return fields.map { aggregateValue(snapshot.get($0)) }
    }
    let indexed = twin(db, "items", group: group, make)
    #expect(
      try answers(indexed) == answers(twin(db, "plain", group: group, make)), "\(label)", sourceLocation: sourceLocation
    )
    #expect(
      try aggregateValue(
        indexed.aggregate([AggregateField.average("v")]).getAggregation().get(AggregateField.average("v")))
        == answers(indexed)[0], "\(label) alone", sourceLocation: sourceLocation)
    return try indexed.aggregate(fields).explain()
  }

  @Test func averagesAnswerAsTheDocumentsAndReadNone() throws {
    for special in [false, true] {
      try withTwins(special: special) { db in
        for group in [false, true] {
          let scope = "\(group ? "group" : "collection")\(special ? " with NaN" : "")"
          let shapes: [(String, (Query) -> Query)] = [
            ("all", { $0 }),
            ("> 0", { $0.whereField("v", isGreaterThan: 0) }),
            ("-3 <= v < 7", { $0.whereField("v", isGreaterThanOrEqualTo: -3).whereField("v", isLessThan: 7) }),
            ("== 1", { $0.whereField("v", isEqualTo: 1) }),
            ("in", { $0.whereField("v", in: [1, 0.1, "a", 9_007_199_254_740_993]) }),
            ("!= 1", { $0.whereField("v", isNotEqualTo: 1) }),
            ("not-in", { $0.whereField("v", notIn: [0, -3, Int64.max]) }),
            ("order by v desc", { $0.order(by: "v", descending: true) }),
            ("> \"a\"", { $0.whereField("v", isGreaterThan: "a") }),
          ]
          for (shape, make) in shapes {
            let read = try expectSameAsTwin(db, group: group, "\(scope) \(shape)", make)
            #expect(read.documentsRead == 0, "\(scope) \(shape): \(read)")
            #expect(read.plan.hasSuffix("averaged from its keys"), "\(scope) \(shape): \(read)")
          }
        }
      }
    }
  }

  @Test func averagesTheKeysCannotAnswerReadDocuments() throws {
    try withTwins { db in
      let items = db.collection("things/a/items")
      let shapes: [(String, (Query) -> Query)] = [
        ("another field", { $0.whereField("k", isEqualTo: 1) }),
        ("a limit", { $0.whereField("v", isGreaterThan: 0).limit(to: 3) }),
        ("a cursor", { $0.order(by: "v").start(after: [0]) }),
        ("ordered by another field", { $0.order(by: "k") }),
      ]
      for (label, make) in shapes {
        let read = try expectSameAsTwin(db, group: false, label, make)
        #expect(read.documentsRead > 0, "\(label): \(read)")
      }
      // A sum's type depends on whether any value is a double, which keys do not keep.
      let sum = try items.aggregate([AggregateField.sum("v")]).explain()
      #expect(sum.documentsRead > 0, "\(sum)")
    }
  }

  @Test func anAverageOfOneValueIsOneStepWhateverItsDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for i in 0..<500 { batch.setData(["stars": i % 5 + 1], forDocument: db.document("reviews/r\(i)")) }
      try batch.commit()
      let average = db.collection("reviews").aggregate([AggregateField.average("stars")])
      #expect(try average.getAggregation().get(AggregateField.average("stars")) as? Double == 3.0)
      let read = try average.explain()
      #expect(read.indexEntriesRead == 5)
      #expect(read.documentsRead == 0)
      #expect(read.resultsReturned == 500)
    }
  }
}
