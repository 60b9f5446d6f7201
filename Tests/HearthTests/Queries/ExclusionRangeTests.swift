import Foundation
import Hearth
import HearthTestSupport
import Testing

// `!=` and `not-in` read the ranges between the keys of the values they exclude, and,
// when those keys are whole, trust them: no document is read to be rejected, and a count
// reads none. Their results must be exactly those of the same query answered by reading
// every document (the field exempt from indexing in a twin collection group): every value
// type, NaN, -0.0 beside 0, 1 beside 1.0, null, strings longer than an index key, missing
// fields, both directions, limits, collection and collection-group scope.

@Suite("!= and not-in from index ranges")
struct ExclusionRangeTests {
  /// The values documents hold in `v`; `nil` leaves the field out.
  private static var values: [Any?] {
    [
      nil, NSNull(), false, true, -3, 0, -0.0, 1, 1.0, 1.5, 7, Double.nan, Double.infinity, -Double.infinity, "",
      "a", "b", String(repeating: "x", count: 600) + "1", String(repeating: "x", count: 600) + "2", [1], [1, 2],
      ["k": 1], Timestamp(seconds: 10, nanoseconds: 0),
    ]
  }

  /// Whether a `!=` or `not-in` of `operand` has a key cut at the length limit, and so
  /// reads the documents under it.
  private static func isCut(_ operand: Any) -> Bool { (operand as? String).map { $0.count > 500 } ?? false }

  /// The twins (`withTwinGroups`) of 160 pseudo-random documents, `v` exempt in `plain`.
  private func withTwins(_ body: (Database) throws -> Void) throws {
    try withTwinGroups(
      exempt: ["v"], documents: 160,
      { random, index in
        var fields: [String: Any] = ["k": index % 3]
        if let value = Self.values.randomElement(using: &random)! { fields["v"] = value }
        return fields
      }, body)
  }

  @Test func notEqualReadsOnlyItsMatches() throws {
    try withTwins { db in
      let operands: [Any] = [
        NSNull(), false, 0, -0.0, 1, 1.0, 7, Double.nan, Double.infinity, "a", "",
        String(repeating: "x", count: 600) + "1",
        [1], ["k": 1], Timestamp(seconds: 10, nanoseconds: 0), "absent",
      ]
      for group in [false, true] {
        for operand in operands {
          let label = "\(group ? "group" : "collection") v != \(operand)"
          let read = try expectSameDocumentsAsTwin(db, group: group, label) {
            $0.whereField("v", isNotEqualTo: operand)
          }
          if !Self.isCut(operand) {
            #expect(read.query.documentsRead == read.query.resultsReturned, "\(label): \(read.query)")
            #expect(read.count.documentsRead == 0, "\(label): \(read.count)")
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) desc") {
            $0.whereField("v", isNotEqualTo: operand).order(by: "v", descending: true)
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) limit 4") {
            $0.whereField("v", isNotEqualTo: operand).limit(to: 4)
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) last 3") {
            $0.whereField("v", isNotEqualTo: operand).order(by: "v").limit(toLast: 3)
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) and k == 1") {
            $0.whereField("v", isNotEqualTo: operand).whereField("k", isEqualTo: 1)
          }
        }
      }
    }
  }

  @Test func notInReadsOnlyItsMatches() throws {
    try withTwins { db in
      let lists: [[Any]] = [
        [1], [1, 1.0], [0, "a", false], [-0.0, Double.nan], [Double.nan], [NSNull()], ["a", NSNull()],
        [[1], ["k": 1], Timestamp(seconds: 10, nanoseconds: 0)], [String(repeating: "x", count: 600) + "2", "b"],
        [-Double.infinity, Double.infinity, true, ""],
      ]
      for group in [false, true] {
        for list in lists {
          let label = "\(group ? "group" : "collection") v not-in \(list)"
          let read = try expectSameDocumentsAsTwin(db, group: group, label) { $0.whereField("v", notIn: list) }
          if !list.contains(where: Self.isCut) {
            #expect(read.query.documentsRead == read.query.resultsReturned, "\(label): \(read.query)")
            #expect(read.count.documentsRead == 0, "\(label): \(read.count)")
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) desc limit 5") {
            $0.whereField("v", notIn: list).order(by: "v", descending: true).limit(to: 5)
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label) after 1") {
            $0.whereField("v", notIn: list).order(by: "v").start(after: [1])
          }
        }
      }
    }
  }

  @Test func aRangeLessExcludedValuesReadsOnlyItsMatches() throws {
    try withTwins { db in
      let shapes: [(String, (Query) -> Query)] = [
        ("v > 0, v != 1", { $0.whereField("v", isGreaterThan: 0).whereField("v", isNotEqualTo: 1) }),
        ("v > 0, v != -3", { $0.whereField("v", isGreaterThan: 0).whereField("v", isNotEqualTo: -3) }),
        ("v >= 0, v != 0", { $0.whereField("v", isGreaterThanOrEqualTo: 0).whereField("v", isNotEqualTo: -0.0) }),
        (
          "-3 <= v < 7, not-in",
          {
            $0.whereField("v", isGreaterThanOrEqualTo: -3).whereField("v", isLessThan: 7)
              .whereField("v", notIn: [0, 1.0, 100, Double.nan])
          }
        ),
        ("v > a, v != b", { $0.whereField("v", isGreaterThan: "a").whereField("v", isNotEqualTo: "b") }),
        ("v < 7, v != null", { $0.whereField("v", isLessThan: 7).whereField("v", isNotEqualTo: NSNull()) }),
        ("v < 7, not-in null", { $0.whereField("v", isLessThan: 7).whereField("v", notIn: [1, NSNull()]) }),
      ]
      for group in [false, true] {
        for (shape, make) in shapes {
          let label = "\(group ? "group" : "collection") \(shape)"
          let read = try expectSameDocumentsAsTwin(db, group: group, label, make)
          #expect(read.query.documentsRead == read.query.resultsReturned, "\(label): \(read.query)")
          #expect(read.count.documentsRead == 0, "\(label): \(read.count)")
          try expectSameDocumentsAsTwin(db, group: group, "\(label) desc limit 3") {
            make($0).order(by: "v", descending: true).limit(to: 3)
          }
        }
      }
    }
  }

  @Test func aValueMostDocumentsHoldIsSteppedOverNotRead() throws {
    try withDatabase(settings: relaxed) { db in
      let batch = db.batch()
      for i in 0..<300 {
        batch.setData(["status": i % 100 == 0 ? "open" : "done"], forDocument: db.document("tasks/t\(i)"))
      }
      try batch.commit()
      let open = db.collection("tasks").whereField("status", isNotEqualTo: "done")
      let explanation = try open.limit(to: 2).explain()
      #expect(explanation.resultsReturned == 2)
      #expect(explanation.documentsRead == 2)
      #expect(explanation.indexEntriesRead == 2)
      let count = try open.count.explain()
      #expect(count.resultsReturned == 3)
      #expect(count.documentsRead == 0)
      #expect(count.plan.contains("less 1 value"))
      let none = try db.collection("tasks").whereField("status", notIn: ["open", NSNull()]).count.explain()
      #expect(none.resultsReturned == 0)
      #expect(none.indexEntriesRead == 0)
    }
  }
}
