import Foundation
import HearthCore
import Testing

@testable import HearthServer

/// `find_nearest` (`VectorSearch`): each expectation is what Google's emulator answered
/// for the same documents and request.
extension ServiceTests {
  static func vector(_ numbers: [Double]) -> Value {
    .map(["__type__": .string("__vector__"), "value": .array(numbers.map(Value.double))])
  }

  func writeVectorFixture(_ service: FirestoreService) throws {
    let vectors: [[Double]] = [[1, 0], [0, 1], [1, 1], [2, 2], [-1, 0], [3, 4]]
    var writes = try vectors.enumerated().map { index, numbers in
      Write(
        key: try key("v/d\(index)"),
        kind: .set(["e": Self.vector(numbers), "k": .integer(Int64(index % 2)), "n": .integer(Int64(index))]))
    }
    writes += [
      Write(key: try key("v/x"), kind: .set(["e": .string("notvector"), "k": .integer(0)])),
      Write(key: try key("v/y"), kind: .set(["e": Self.vector([1, 2, 3]), "k": .integer(1)])),
      Write(key: try key("v/z"), kind: .set(["e": Self.vector([0, 0]), "k": .integer(1)])),
      Write(key: try key("v/w"), kind: .set(["k": .integer(1)])),
      Write(key: try key("a/b/v/g1"), kind: .set(["e": Self.vector([1, 0.5])])),
    ]
    _ = try commit(service, writes)
  }

  /// The names and `dist` fields a search answers.
  func nearest(
    _ service: FirestoreService, measure: Int32 = 1, limit: Int32? = 10, threshold: Double? = nil,
    query: [Double] = [1, 0], resultField: String = "dist", group: Bool = false,
    _ shape: (inout FirestoreV1.StructuredQuery) -> Void = { _ in }
  ) throws -> [(String, Value?)] {
    var structured = self.query("v", group: group)
    structured.findNearest = FirestoreV1.FindNearest(
      vectorField: FieldPath(["e"]), queryVector: Self.vector(query), distanceMeasure: measure, limit: limit,
      distanceResultField: resultField, distanceThreshold: threshold)
    shape(&structured)
    return try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: structured))
      .compactMap(\.document).map { ($0.key.path.canonical, $0.fields["dist"]) }
  }

  func names(_ found: [(String, Value?)]) -> [String] { found.map { String($0.0.split(separator: "/").last!) } }

  @Test func aVectorSearchRanksByEachDistanceAsTheEmulatorDoes() throws {
    try withService { service in
      try writeVectorFixture(service)
      let euclidean = try nearest(service, measure: 1)
      #expect(names(euclidean) == ["d0", "d2", "z", "d1", "d4", "d3", "d5"])
      #expect(euclidean.map(\.1) == [0, 1, 1, 2.squareRoot(), 2, 5.squareRoot(), 20.squareRoot()].map(Value.double))
      let cosine = try nearest(service, measure: 2)
      #expect(names(cosine) == ["d0", "d2", "d3", "d5", "d1", "d4", "z"], "a zero vector's NaN comes last")
      #expect(cosine[1].1 == .double(0.29289321881345254) && cosine[3].1 == .double(0.4))
      guard case .double(let nan)? = cosine[6].1 else { throw Unexpected() }
      #expect(nan.isNaN)
      let dot = try nearest(service, measure: 3)
      #expect(names(dot) == ["d5", "d3", "d0", "d2", "d1", "z", "d4"], "largest first, ties by name")
      #expect(try names(nearest(service, measure: 1, limit: 3)) == ["d0", "d2", "z"])
      #expect(try names(nearest(service, query: [1, 2, 3])) == ["y"], "only vectors of the query's dimension")
      #expect(
        try names(nearest(service, group: true)) == ["d0", "g1", "d2", "z", "d1", "d4", "d3", "d5"],
        "a collection group's")
    }
  }

  @Test func aVectorSearchKeepsItsThresholdFiltersAndProjection() throws {
    try withService { service in
      try writeVectorFixture(service)
      #expect(try names(nearest(service, measure: 1, threshold: 1)) == ["d0", "d2", "z"])
      #expect(try names(nearest(service, measure: 2, threshold: 0.3)) == ["d0", "d2", "d3"])
      #expect(try names(nearest(service, measure: 3, threshold: -0.5)) == ["d5", "d3", "d0", "d2", "d1", "z"])
      #expect(try nearest(service, measure: 1, threshold: -1).isEmpty)
      let filtered = try nearest(service) {
        $0.model.filters = [.field(FieldFilter(field: FieldPath(["k"]), op: .equal, value: .integer(1)))]
      }
      #expect(names(filtered) == ["z", "d1", "d3", "d5"])
      // An order-by keeps only documents with its field; the distance still orders them.
      let ordered = try nearest(service, limit: 3) {
        $0.model.explicitOrderBys = [OrderBy(field: FieldPath(["n"]), descending: false)]
      }
      #expect(names(ordered) == ["d0", "d2", "d1"])
      let projected = try nearest(service, limit: 2) { $0.select = [FieldPath(["k"])] }
      #expect(projected.map(\.1) == [nil, nil], "the distance field is projected away as any other")
      // The result field is a name, taken literally, and replaces a field of that name.
      var query = self.query("v")
      query.findNearest = FirestoreV1.FindNearest(
        vectorField: FieldPath(["e"]), queryVector: Self.vector([1, 0]), distanceMeasure: 1, limit: 2,
        distanceResultField: "a.b")
      let literal = try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: query))
      #expect(literal.compactMap { $0.document?.fields["a.b"] } == [.double(0), .double(1)])
      // A count over a search counts its results.
      var counted = self.query("v")
      counted.findNearest = FirestoreV1.FindNearest(
        vectorField: FieldPath(["e"]), queryVector: Self.vector([1, 0]), distanceMeasure: 1, limit: 4)
      #expect(try count(service, counted) == .integer(4))
      // A sum over a search sums the nearest documents that have the field (z has none).
      let summed = try service.runAggregationQuery(
        FirestoreV1.RunAggregationQueryRequest(
          database: Self.database,
          query: FirestoreV1.StructuredAggregationQuery(
            query: counted, aggregations: [FirestoreV1.Aggregation(function: .sum(FieldPath(["n"])), alias: "s")])))
      #expect(summed.first?.result?["s"] == .integer(7), "d0, d2, d1 and d4, as the emulator sums them")
    }
  }

  /// Distances to the last bit, as Google's emulator gave them (its sums run over four
  /// lanes of fused multiply-adds: `VectorSearch.laneSum`).
  @Test func vectorDistancesMatchTheEmulatorsToTheLastBit() throws {
    func distance(_ measure: Int32, _ query: [Double], _ document: [Double]) throws -> Double {
      var structured = self.query("v")
      structured.findNearest = FirestoreV1.FindNearest(
        vectorField: FieldPath(["e"]), queryVector: Self.vector(query), distanceMeasure: measure, limit: 1)
      return try VectorSearch(try #require(structured.findNearest), of: structured).distance(to: document)
    }
    // Each differs from a plain sum in order in its last bits.
    let five = [2.5734219409533416, 0.6217167913166062, -5.882569061225529, -1.0862625390159213, 3.4431439903229304]
    #expect(
      try distance(
        1, five, [3.6466272947711804, 0.6145270996454162, -0.35025972362273095, 5.5298020103736825, 7.664556288763304])
        == 9.661826946554685)
    let eight = [
      9.561032532074524, 0.28469822924742694, -5.086409608327919, -1.0588890155730635, 3.1664064256727897,
      3.0021198737885904, 3.130188807100291, 0.918125038536477,
    ]
    let other = [
      7.266500605793379, 3.923935718156038, -4.777696055412761, -2.6660041647764228, -6.659159309313274,
      5.438758168040625, 0.6518479498575793, 5.581097826763543,
    ]
    #expect(try distance(2, eight, other) == 0.4235817965681198)
    #expect(try distance(3, eight, other) == 100.1234598567102)
    let short = [0.3, 0.3, 0.9]
    #expect(try distance(1, short, [1e-3, 5.0, 7.25]) == 7.905814379303374)
    #expect(try distance(2, short, [0.1, 0.2, 0.7]) == 0.015268072165338209)
    #expect(try distance(3, [-2.5, 1.1, 0.7], [1e-3, 5.0, 7.25]) == 10.572499999999998)
  }

  @Test func anInvalidVectorSearchIsRefusedInTheEmulatorsWords() throws {
    try withService { service in
      try writeVectorFixture(service)
      func refusal(
        measure: Int32 = 1, limit: Int32? = 3, vector: Value? = ServiceTests.vector([1, 0]),
        field: FieldPath? = FieldPath(["e"]),
        resultField: String = "", _ shape: (inout FirestoreV1.StructuredQuery) -> Void = { _ in }
      ) -> String? {
        var query = self.query("v")
        query.findNearest = FirestoreV1.FindNearest(
          vectorField: field, queryVector: vector, distanceMeasure: measure, limit: limit,
          distanceResultField: resultField)
        shape(&query)
        do {
          _ = try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: query))
          return nil
        } catch let error as HearthError {
          return error.code == .invalidArgument ? error.message : "\(error.code)"
        } catch {
          return "\(error)"
        }
      }
      #expect(refusal(measure: 0) == "Unknown Distance Measure.")
      #expect(refusal(measure: 7) == "Unknown Distance Measure.")
      let limitRule = "FindNearest.limit must be a positive integer of no more than 1000"
      #expect(refusal(limit: 0) == limitRule && refusal(limit: 1001) == limitRule && refusal(limit: nil) == limitRule)
      #expect(refusal(limit: 1000) == nil)
      #expect(refusal(vector: Self.vector([])) == "Cannot have a zero length vector.")
      #expect(refusal(vector: .array([.double(1)])) == "Query Value must be of type vector.")
      #expect(refusal(vector: .integer(1)) == "Query Value must be of type vector.")
      #expect(refusal(field: nil) == "Invalid empty property path string.")
      #expect(refusal(resultField: "__name__") == "The distanceResultField.property.name \"__name__\" is reserved.")
      #expect(refusal { $0.model.limit = 2 } == "A query limit cannot be used with FindNearest")
      #expect(refusal { $0.offset = 1 } == "A query offset cannot be used with FindNearest")
      #expect(
        refusal { $0.model.startAt = Bound(values: [.reference(try! self.key("v/d2"))], inclusive: true) }
          == "A cursor cannot be used with FindNearest")
    }
  }
}

extension ServiceTests {
  /// A Listen target's vector search is run again at each commit to its collection, and
  /// the target reset with its results, as Google's emulator sends it (probed: a nearer
  /// document, its delete, a far document, each gave reset, the results, current).
  @Test func aListenedVectorSearchIsResetWithItsResultsAtEachCommit() throws {
    try withService { service in
      _ = try commit(
        service,
        [
          Write(key: try key("v/a"), kind: .set(["e": Self.vector([1, 0])])),
          Write(key: try key("v/b"), kind: .set(["e": Self.vector([0, 1])])),
        ])
      let (stream, taken) = try recordingStream(service)
      defer { stream.close() }
      var search = query("v")
      search.findNearest = FirestoreV1.FindNearest(
        vectorField: FieldPath(["e"]), queryVector: Self.vector([1, 0.1]), distanceMeasure: 1, limit: 1)
      try stream.add(FirestoreV1.Target(kind: .query(search), targetID: 1))
      #expect(taken() == ["add", "change a", "current", "noChange"])
      _ = try commit(service, [Write(key: try key("v/c"), kind: .set(["e": Self.vector([1, 0.05])]))])
      #expect(taken() == ["reset", "change c", "current", "noChange"], "a nearer document takes the place")
      _ = try commit(service, [Write(key: try key("v/c"), kind: .delete)])
      #expect(taken() == ["reset", "change a", "current", "noChange"])
      _ = try commit(service, [Write(key: try key("v/f"), kind: .set(["e": Self.vector([0, 100])]))])
      #expect(taken() == ["reset", "change a", "current", "noChange"], "any commit to the collection resets it")
      _ = try commit(service, [Write(key: try key("other/x"), kind: .set(["e": Self.vector([1, 0.1])]))])
      #expect(taken().isEmpty, "another collection's commits do not")

      search.findNearest?.limit = 0
      try stream.add(FirestoreV1.Target(kind: .query(search), targetID: 2))
      #expect(taken() == ["add", "remove"], "an invalid search is removed with its refusal")
    }
  }
}
