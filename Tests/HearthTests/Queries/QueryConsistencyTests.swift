import Foundation
import Hearth
import HearthTestSupport
import Testing

// Many queries over a few hundred pseudo-random documents (a fixed seed), each checked
// against the same query evaluated in plain Swift: every operator, both directions,
// limits, cursors, several inequalities and disjunctions. Small integer fields keep the
// Swift side obvious; the point is to catch planner and index-walk mistakes (ranges,
// reverse walks, unions) that hand-picked fixtures miss.

@Suite("Query consistency against a reference evaluation")
struct QueryConsistencyTests {

  private struct Model {
    let id: String
    let a: Int
    let b: Int?  // missing in some documents
    let tags: [Int]
    let d: Double  // a double field, to mix with integer operands
  }

  private struct Fixture {
    let db: Database
    let collection: CollectionReference
    let models: [Model]
  }

  /// Runs `body` with a database of `count` pseudo-random documents and their models, and
  /// closes it.
  private func withFixture(count: Int = 200, _ body: (Fixture) throws -> Void) throws {
    try withDatabase(settings: relaxed) { db in try body(makeFixture(db, count: count)) }
  }

  private func makeFixture(_ db: Database, count: Int) throws -> Fixture {
    var generator = SplitMix64(seed: 20_261_129)
    var models: [Model] = []
    var documents: [String: [String: Any]] = [:]
    for i in 0..<count {
      let id = String(format: "d%03d", (i * 7919) % 1000)  // IDs not in insertion order
      let a = generator.next(below: 8)
      let b: Int? = generator.next(below: 10) == 0 ? nil : generator.next(below: 8)
      let tags = (0..<generator.next(below: 4)).map { _ in generator.next(below: 6) }
      let d = Double(generator.next(below: 16)) / 2
      models.append(Model(id: id, a: a, b: b, tags: tags, d: d))
      var data: [String: Any] = ["a": a, "tags": tags, "d": d]
      if let b { data["b"] = b }
      documents[id] = data
    }
    let collection = try seed(db.collection("random"), documents)
    return Fixture(db: db, collection: collection, models: models)
  }

  /// The IDs of `models` matching `predicate`, ordered by the key extracted by `key` (then
  /// the ID) in the given direction; documents for which `key` is nil are excluded.
  private func expected(
    _ models: [Model], where predicate: (Model) -> Bool, orderBy key: (Model) -> [Int]? = { _ in [] },
    descending: Bool = false
  ) -> [String] {
    let matching = models.filter(predicate).compactMap { model in key(model).map { (model, $0) } }
    let sorted = matching.sorted { lhs, rhs in
      if lhs.1 != rhs.1 {
        return descending ? rhs.1.lexicographicallyPrecedes(lhs.1) : lhs.1.lexicographicallyPrecedes(rhs.1)
      }
      return descending ? lhs.0.id > rhs.0.id : lhs.0.id < rhs.0.id
    }
    return sorted.map(\.0.id)
  }

  private func check(
    _ query: Query, _ expectedIDs: [String], _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectIDs(query, expectedIDs, label, sourceLocation: sourceLocation)
  }

  @Test func singleFieldOperators() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      for v in 0..<8 {
        check(c.whereField("a", isEqualTo: v), expected(m, where: { $0.a == v }), "a == \(v)")
        check(c.whereField("a", isNotEqualTo: v), expected(m, where: { $0.a != v }, orderBy: { [$0.a] }), "a != \(v)")
        check(c.whereField("a", isLessThan: v), expected(m, where: { $0.a < v }, orderBy: { [$0.a] }), "a < \(v)")
        check(
          c.whereField("a", isLessThanOrEqualTo: v), expected(m, where: { $0.a <= v }, orderBy: { [$0.a] }), "a <= \(v)"
        )
        check(c.whereField("a", isGreaterThan: v), expected(m, where: { $0.a > v }, orderBy: { [$0.a] }), "a > \(v)")
        check(
          c.whereField("a", isGreaterThanOrEqualTo: v), expected(m, where: { $0.a >= v }, orderBy: { [$0.a] }),
          "a >= \(v)")
        check(
          c.whereField("b", isLessThan: v), expected(m, where: { ($0.b ?? 99) < v }, orderBy: { $0.b.map { [$0] } }),
          "b < \(v)")
        check(
          c.whereField("b", isNotEqualTo: v),
          expected(m, where: { $0.b != nil && $0.b != v }, orderBy: { $0.b.map { [$0] } }), "b != \(v)")
        check(c.whereField("tags", arrayContains: v), expected(m, where: { $0.tags.contains(v) }), "tags contains \(v)")
        check(
          c.whereField("d", isEqualTo: v), expected(m, where: { $0.d == Double(v) }), "d == \(v) (an integer operand)")
        check(
          c.whereField("d", isGreaterThan: Double(v) + 0.25),
          expected(m, where: { $0.d > Double(v) + 0.25 }, orderBy: { [Int($0.d * 2)] }), "d > \(v).25")
      }
    }
  }

  @Test func listOperators() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      let lists: [[Int]] = [[0], [1, 3], [7, 2, 5], [0, 1, 2, 3, 4, 5, 6, 7], [9], [3, 3]]
      for list in lists {
        check(c.whereField("a", in: list), expected(m, where: { list.contains($0.a) }), "a in \(list)")
        check(
          c.whereField("a", notIn: list), expected(m, where: { !list.contains($0.a) }, orderBy: { [$0.a] }),
          "a not-in \(list)")
        check(
          c.whereField("b", notIn: list),
          expected(m, where: { $0.b.map { !list.contains($0) } ?? false }, orderBy: { $0.b.map { [$0] } }),
          "b not-in \(list)")
        check(
          c.whereField("tags", arrayContainsAny: list), expected(m, where: { !Set($0.tags).isDisjoint(with: list) }),
          "tags contains any of \(list)")
      }
    }
  }

  @Test func orderLimitsAndCursors() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      let all: (Model) -> Bool = { _ in true }
      for descending in [false, true] {
        let byA = expected(m, where: all, orderBy: { [$0.a] }, descending: descending)
        let direction = descending ? "desc" : "asc"
        check(c.order(by: "a", descending: descending), byA, "order by a \(direction)")
        check(c.order(by: "a", descending: descending).limit(to: 7), Array(byA.prefix(7)), "a \(direction) limit 7")
        check(
          c.order(by: "a", descending: descending).limit(toLast: 7), Array(byA.suffix(7)),
          "a \(direction) limitToLast 7")
        check(
          c.order(by: "b", descending: descending),
          expected(m, where: all, orderBy: { $0.b.map { [$0] } }, descending: descending), "order by b \(direction)")
        check(
          c.order(by: "a", descending: descending).order(by: "b"),
          expected(m, where: all, orderBy: { model in model.b.map { [descending ? -model.a : model.a, $0] } }),
          "order by a \(direction), b asc")
        for v in [0, 3, 7] {
          // In the walk's direction, "at" includes value v and "after" excludes it.
          let before: (Int) -> Bool = { descending ? $0 > v : $0 < v }
          let after: (Int) -> Bool = { descending ? $0 < v : $0 > v }
          let query = c.order(by: "a", descending: descending)
          check(
            query.start(at: [v]), expected(m, where: { !before($0.a) }, orderBy: { [$0.a] }, descending: descending),
            "a \(direction) start at \(v)")
          check(
            query.start(after: [v]), expected(m, where: { after($0.a) }, orderBy: { [$0.a] }, descending: descending),
            "a \(direction) start after \(v)")
          check(
            query.end(at: [v]), expected(m, where: { !after($0.a) }, orderBy: { [$0.a] }, descending: descending),
            "a \(direction) end at \(v)")
          check(
            query.end(before: [v]), expected(m, where: { before($0.a) }, orderBy: { [$0.a] }, descending: descending),
            "a \(direction) end before \(v)")
          check(
            query.start(at: [v]).limit(to: 5),
            Array(expected(m, where: { !before($0.a) }, orderBy: { [$0.a] }, descending: descending).prefix(5)),
            "a \(direction) start at \(v) limit 5")
          check(
            query.end(before: [v]).limit(toLast: 5),
            Array(expected(m, where: { before($0.a) }, orderBy: { [$0.a] }, descending: descending).suffix(5)),
            "a \(direction) end before \(v) limitToLast 5")
          check(
            c.whereField("a", isGreaterThanOrEqualTo: v).order(by: "a", descending: descending).limit(to: 5),
            Array(expected(m, where: { $0.a >= v }, orderBy: { [$0.a] }, descending: descending).prefix(5)),
            "a >= \(v) \(direction) limit 5")
          check(
            c.whereField("a", isLessThan: v).order(by: "a", descending: descending),
            expected(m, where: { $0.a < v }, orderBy: { [$0.a] }, descending: descending), "a < \(v) \(direction)")
          check(
            c.whereField("a", isEqualTo: v).order(by: FieldPath.documentID(), descending: descending).limit(toLast: 3),
            Array(expected(m, where: { $0.a == v }, descending: descending).suffix(3)),
            "a == \(v) by ID \(direction) limitToLast 3")
        }
      }
    }
  }

  @Test func documentCursorsPageThroughEverything() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      for descending in [false, true] {
        let query = c.whereField("a", isGreaterThan: 1).order(by: "a", descending: descending)
        let all = expected(m, where: { $0.a > 1 }, orderBy: { [$0.a] }, descending: descending)
        var pages: [String] = []
        var page = try query.limit(to: 17).getDocuments()
        var rounds = 0
        while let last = page.documents.last, rounds < 100 {
          pages += page.documents.map(\.documentID)
          page = try query.limit(to: 17).start(afterDocument: last).getDocuments()
          rounds += 1
        }
        #expect(pages == all, "paging with start(afterDocument:), descending: \(descending)")
      }
    }
  }

  /// Pages through `query` forward with `start(afterDocument:)` and backward with
  /// `end(beforeDocument:)` + `limit(toLast:)`; both must give `expectedIDs`.
  private func checkPaging(
    _ query: Query, _ expectedIDs: [String], _ label: String, backward checkBackward: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var forward: [String] = []
    var page = try query.limit(to: 7).getDocuments()
    var rounds = 0
    while let last = page.documents.last, rounds <= expectedIDs.count {
      forward += page.documents.map(\.documentID)
      page = try query.limit(to: 7).start(afterDocument: last).getDocuments()
      rounds += 1
    }
    #expect(forward == expectedIDs, "\(label): paging forward", sourceLocation: sourceLocation)
    guard checkBackward else { return }  // limit(toLast:) needs an explicit order-by
    var backward: [String] = []
    page = try query.limit(toLast: 7).getDocuments()
    rounds = 0
    while let first = page.documents.first, rounds <= expectedIDs.count {
      backward = page.documents.map(\.documentID) + backward
      page = try query.limit(toLast: 7).end(beforeDocument: first).getDocuments()
      rounds += 1
    }
    #expect(backward == expectedIDs, "\(label): paging backward", sourceLocation: sourceLocation)
  }

  @Test func pagingThroughFilteredAndOrderedQueries() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      for descending in [false, true] {
        let direction = descending ? "desc" : "asc"
        try checkPaging(
          c.whereField("a", isEqualTo: 3).order(by: "b", descending: descending),
          expected(m, where: { $0.a == 3 }, orderBy: { $0.b.map { [$0] } }, descending: descending),
          "a == 3 by b \(direction)")
        try checkPaging(
          c.whereField("tags", arrayContains: 2).order(by: "a", descending: descending),
          expected(m, where: { $0.tags.contains(2) }, orderBy: { [$0.a] }, descending: descending),
          "tags contains 2 by a \(direction)")
        try checkPaging(
          c.whereField("a", in: [1, 2, 6]).order(by: "d", descending: descending),
          expected(m, where: { [1, 2, 6].contains($0.a) }, orderBy: { [Int($0.d * 2)] }, descending: descending),
          "a in [1, 2, 6] by d \(direction)")
        try checkPaging(
          c.order(by: FieldPath.documentID(), descending: descending),
          expected(m, where: { _ in true }, descending: descending), "by ID \(direction)")
        try checkPaging(
          c.whereField("b", isNotEqualTo: 4).order(by: "b", descending: descending).order(by: "a"),
          expected(
            m, where: { $0.b != nil && $0.b != 4 },
            orderBy: { model in model.b.map { [descending ? -$0 : $0, model.a] } }),
          "b != 4 by b \(direction), a asc")
      }
      try checkPaging(
        c.whereField("a", isGreaterThanOrEqualTo: 3), expected(m, where: { $0.a >= 3 }, orderBy: { [$0.a] }),
        "a >= 3 (implicit order)", backward: false)
    }
  }

  /// `in` and `array-contains-any` read one range a value and merge them in query order
  /// (on declared indexes, and on single-field ones when ordered by document ID); a
  /// document holding two of the values must come out once.
  @Test func pagingThroughMergedRanges() throws {
    try withFixture { f in
      try f.db.declareIndexes(
        json: """
          {"indexes": [
            {"collectionGroup": "random", "queryScope": "COLLECTION",
             "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "d", "order": "DESCENDING"}]},
            {"collectionGroup": "random", "queryScope": "COLLECTION",
             "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "d", "order": "ASCENDING"}]}]}
          """)
      let c = f.collection
      let m = f.models
      let halves = { (model: Model) in [Int(model.d * 2)] }
      for descending in [false, true] {
        let direction = descending ? "desc" : "asc"
        try checkPaging(
          c.whereField("a", in: [6, 1, 2]).order(by: "d", descending: descending),
          expected(m, where: { [1, 2, 6].contains($0.a) }, orderBy: halves, descending: descending),
          "a in [6, 1, 2] by d \(direction)")
        try checkPaging(
          c.whereField("tags", arrayContainsAny: [4, 1]).order(by: "d", descending: descending),
          expected(m, where: { !Set($0.tags).isDisjoint(with: [1, 4]) }, orderBy: halves, descending: descending),
          "tags contains any [4, 1] by d \(direction)")
        try checkPaging(
          c.whereField("tags", arrayContainsAny: [5, 0, 3]).order(by: FieldPath.documentID(), descending: descending),
          expected(m, where: { !Set($0.tags).isDisjoint(with: [0, 3, 5]) }, descending: descending),
          "tags contains any [5, 0, 3] by ID \(direction)")
        try checkPaging(
          c.whereField("b", in: [7, 0]).order(by: FieldPath.documentID(), descending: descending),
          expected(m, where: { [0, 7].contains($0.b) }, descending: descending), "b in [7, 0] by ID \(direction)")
      }
    }
  }

  @Test func compositeQueries() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      for v in [1, 4, 6] {
        for w in [0, 3, 5] {
          check(
            c.whereField("a", isEqualTo: v).whereField("b", isGreaterThan: w),
            expected(m, where: { $0.a == v && ($0.b ?? -1) > w }, orderBy: { $0.b.map { [$0] } }),
            "a == \(v) && b > \(w)")
          check(
            c.whereField("a", isGreaterThan: v).whereField("b", isLessThan: w),
            expected(m, where: { $0.a > v && ($0.b ?? 99) < w }, orderBy: { model in model.b.map { [model.a, $0] } }),
            "a > \(v) && b < \(w)")
          check(
            c.whereFilter(
              Filter.orFilter([Filter.whereField("a", isEqualTo: v), Filter.whereField("b", isEqualTo: w)])),
            expected(m, where: { $0.a == v || $0.b == w }), "a == \(v) || b == \(w)")
          check(
            c.whereFilter(
              Filter.orFilter([Filter.whereField("a", isEqualTo: v), Filter.whereField("tags", arrayContains: w)])
            ).order(by: "a", descending: true),
            expected(m, where: { $0.a == v || $0.tags.contains(w) }, orderBy: { [$0.a] }, descending: true),
            "(a == \(v) || tags contains \(w)) by a desc")
          let either = c.whereFilter(
            Filter.orFilter([Filter.whereField("a", isEqualTo: v), Filter.whereField("b", isEqualTo: w)]))
          let eitherExpected = expected(
            m, where: { $0.a == v || $0.b == w }, orderBy: { model in model.b.map { [model.a, $0] } }, descending: true)
          check(
            either.order(by: "a", descending: true).order(by: "b", descending: true).limit(to: 5),
            Array(eitherExpected.prefix(5)), "(a == \(v) || b == \(w)) by a, b desc limit 5")
          check(
            either.order(by: "a", descending: true).order(by: "b", descending: true).limit(toLast: 5),
            Array(eitherExpected.suffix(5)), "(a == \(v) || b == \(w)) by a, b desc limitToLast 5")
          check(
            c.whereFilter(
              Filter.andFilter([
                Filter.whereField("tags", arrayContainsAny: [v, w]),
                Filter.orFilter([Filter.whereField("a", isLessThan: 2), Filter.whereField("a", isGreaterThan: 5)]),
              ])),
            expected(
              m, where: { !Set($0.tags).isDisjoint(with: [v, w]) && ($0.a < 2 || $0.a > 5) }, orderBy: { [$0.a] }),
            "tags any [\(v), \(w)] && (a < 2 || a > 5)")
          check(
            c.whereField("a", in: [v, w]).whereField("tags", arrayContains: 2),
            expected(m, where: { [v, w].contains($0.a) && $0.tags.contains(2) }), "a in [\(v), \(w)] && tags contains 2"
          )
        }
      }
    }
  }

  @Test func aggregationsAgree() throws {
    try withFixture { f in
      let c = f.collection
      let m = f.models
      for v in 0..<8 {
        // Firestore aggregates only the documents that have every aggregated field (b is
        // missing from some), the count included.
        let matching = m.filter { $0.a >= v && $0.b != nil }
        let snapshot = try c.whereField("a", isGreaterThanOrEqualTo: v).aggregate([
          AggregateField.count(), AggregateField.sum("a"), AggregateField.sum("b"), AggregateField.average("d"),
        ]).getAggregation(source: .server)
        #expect(snapshot.count.intValue == matching.count, "count a >= \(v)")
        #expect(aggregateValue(snapshot.get(AggregateField.sum("a"))) == "int:\(matching.map(\.a).reduce(0, +))")
        #expect(aggregateValue(snapshot.get(AggregateField.sum("b"))) == "int:\(matching.compactMap(\.b).reduce(0, +))")
        let counted = try c.whereField("a", isGreaterThanOrEqualTo: v).count.getAggregation(source: .server)
        #expect(counted.count.intValue == m.filter { $0.a >= v }.count, "a count alone counts every match")
        let ds = matching.map(\.d)
        let average = ds.isEmpty ? "null" : "double:\(ds.reduce(0, +) / Double(ds.count))"
        #expect(aggregateValue(snapshot.get(AggregateField.average("d"))) == average, "average d, a >= \(v)")
      }
    }
  }
}
