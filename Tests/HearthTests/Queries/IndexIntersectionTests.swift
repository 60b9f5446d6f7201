import Foundation
import Hearth
import HearthTestSupport
import Testing

// Equalities and `array-contains` on several fields, with no declared index for them,
// intersect their single-field indexes' entries: only the matches' documents are read,
// and a count reads none. The results must be exactly those of the same query answered by
// reading every document (the fields exempt from indexing in a twin collection group):
// every value type, NaN, -0.0 beside 0, 1 beside 1.0, null, strings longer than an index
// key, limits, cursors, `limit(toLast:)`, collection and collection-group scope.

@Suite("Single-field indexes intersected")
struct IndexIntersectionTests {
  /// The values documents hold in `a` and `b`; `nil` leaves the field out.
  private static var values: [Any?] {
    [
      nil, NSNull(), true, 0, -0.0, 1, 1.0, Double.nan, "x", "y", String(repeating: "x", count: 600), [1],
      ["k": 1],
    ]
  }

  /// The twins (`withTwinGroups`) of 300 pseudo-random documents, `a`, `b` and `tags`
  /// exempt in `plain`.
  private func withTwins(_ body: (Database) throws -> Void) throws {
    try withTwinGroups(
      exempt: ["a", "b", "tags"], documents: 300,
      { random, _ in
        var fields: [String: Any] = [:]
        if let value = Self.values.randomElement(using: &random)! { fields["a"] = value }
        if let value = Self.values.randomElement(using: &random)! { fields["b"] = value }
        fields["tags"] = (0..<Int.random(in: 0...3, using: &random)).map { _ in
          ["t\(Int.random(in: 0...3, using: &random))", 1, NSNull()].randomElement(using: &random)!
        }
        return fields
      }, body)
  }

  @Test func intersectedEqualitiesAnswerAsTheDocumentsAndReadOnlyTheirMatches() throws {
    try withTwins { db in
      let operands: [Any] = [NSNull(), true, 0, -0.0, 1.0, Double.nan, "x", [1], ["k": 1]]
      for group in [false, true] {
        for a in operands {
          for b in operands {
            let label = "\(group ? "group" : "collection") a == \(a), b == \(b)"
            let read = try expectSameDocumentsAsTwin(db, group: group, label) {
              $0.whereField("a", isEqualTo: a).whereField("b", isEqualTo: b)
            }
            #expect(read.query.plan.contains("intersected"), "\(label): \(read.query)")
            #expect(read.query.documentsRead == read.query.resultsReturned, "\(label): \(read.query)")
            #expect(read.count.documentsRead == 0, "\(label): \(read.count)")
            try expectSameDocumentsAsTwin(db, group: group, "\(label) desc") {
              $0.whereField("a", isEqualTo: a).whereField("b", isEqualTo: b)
                .order(by: FieldPath.documentID(), descending: true)
            }
          }
          let label = "\(group ? "group" : "collection") a == \(a)"
          try expectSameDocumentsAsTwin(db, group: group, "\(label), tags contains t1, b == x") {
            $0.whereField("a", isEqualTo: a).whereField("tags", arrayContains: "t1").whereField("b", isEqualTo: "x")
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label), tags contains null") {
            $0.whereField("a", isEqualTo: a).whereField("tags", arrayContains: NSNull())
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label), b == a cut string") {
            $0.whereField("a", isEqualTo: a).whereField("b", isEqualTo: String(repeating: "x", count: 600))
          }
          try expectSameDocumentsAsTwin(db, group: group, "\(label), tags contains 1, limit 2") {
            $0.whereField("a", isEqualTo: a).whereField("tags", arrayContains: 1).limit(to: 2)
          }
        }
      }
    }
  }

  @Test func intersectedEqualitiesKeepTheirOrderWithCursorsAndLimits() throws {
    try withTwins { db in
      let id = FieldPath.documentID()
      let shapes: [(String, (Query) -> Query)] = [
        ("limit 3", { $0.limit(to: 3) }),
        ("start after d100", { $0.order(by: id).start(after: ["d100"]) }),
        ("end before d50", { $0.order(by: id).end(before: ["d50"]) }),
        ("limit last 3", { $0.order(by: id).limit(toLast: 3) }),
        ("desc", { $0.order(by: id, descending: true) }),
      ]
      for (label, shape) in shapes {
        let read = try expectSameDocumentsAsTwin(db, group: false, label) {
          shape($0.whereField("a", isEqualTo: 1).whereField("tags", arrayContains: "t2"))
        }
        #expect(read.query.plan.contains("intersected"), "\(label): \(read.query)")
        // Walked in either direction, only the matches' documents are read.
        if !label.contains(" before "), !label.contains(" after ") {
          #expect(read.query.documentsRead == read.query.resultsReturned, "\(label): \(read.query)")
        }
      }
    }
  }
}
