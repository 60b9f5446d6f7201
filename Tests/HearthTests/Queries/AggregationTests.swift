import Foundation
import Hearth
import HearthTestSupport
import Testing

// Aggregations over a query's results: count, sum (integer while every input is an
// integer and the result fits, else double; non-numbers ignored; NaN wins; empty → 0),
// average (double; empty → null), several at once, after filters, order-by exclusion and
// limits (FIRCountTests.mm, FIRAggregateTests.mm, FIRCompositeIndexQueryTests.mm).

@Suite("Aggregations")
struct AggregationTests {

  private func run(_ query: AggregateQuery) throws -> AggregateQuerySnapshot {
    try query.getAggregation(source: .server)
  }

  private func books(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("books"),
      [
        "a": ["author": "authorA", "pages": 100, "year": 1980, "rating": 5, "height": 24.5],
        "b": ["author": "authorB", "pages": 50, "year": 2020, "rating": 4, "height": 25.5],
        "c": ["author": "authorC", "pages": 100, "year": 1980, "rating": 3, "height": 20.0],
        "d": ["author": "authorD", "pages": 50, "year": 2020, "rating": 0, "height": "tall"],
      ])
  }

  // MARK: - count

  @Test func countCountsTheQuerysResults() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      #expect(try run(c.count).count.intValue == 4)
      #expect(try run(c.whereField("pages", isEqualTo: 100).count).count.intValue == 2)
      #expect(try run(c.whereField("author", isEqualTo: "nobody").count).count.intValue == 0)
      #expect(try run(db.collection("empty").count).count.intValue == 0, "a collection that does not exist")
      let viaAggregate = try run(c.aggregate([AggregateField.count()]))
      #expect(viaAggregate.count.intValue == 4)
      #expect(aggregateValue(viaAggregate.get(AggregateField.count())) == "int:4")
    }
  }

  @Test func countHonoursOrderByExclusionAndLimits() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("counted"),
        ["a": ["k": "a"], "b": ["k": "a"], "c": ["k": "a"], "d": ["k": "d"], "e": ["absent": "e"]])
      #expect(try run(c.order(by: "k").count).count.intValue == 4, "a document lacking the order-by field")
      #expect(try run(c.whereField("k", isEqualTo: "a").limit(to: 2).count).count.intValue == 2)
      #expect(try run(c.whereField("k", isEqualTo: "a").order(by: "k").limit(toLast: 2).count).count.intValue == 2)
      #expect(try run(c.whereField("k", isEqualTo: "d").limit(to: 1000).count).count.intValue == 1)
      #expect(try run(c.whereField("k", isNotEqualTo: "a").count).count.intValue == 1)
      #expect(try run(c.order(by: "k").start(after: ["a"]).count).count.intValue == 1)
    }
  }

  // MARK: - sum

  @Test func sumOfIntegersIsAnInteger() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let snapshot = try run(c.aggregate([AggregateField.sum("pages"), AggregateField.sum("rating")]))
      #expect(aggregateValue(snapshot.get(AggregateField.sum("pages"))) == "int:300")
      #expect(aggregateValue(snapshot.get(AggregateField.sum("rating"))) == "int:12")
    }
  }

  @Test func sumWithADoubleIsADoubleAndIgnoresNonNumbers() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      // height: 24.5 + 25.5 + 20.0; "tall" ignored.
      let height = try run(c.aggregate([AggregateField.sum("height")]))
      #expect(aggregateValue(height.get(AggregateField.sum("height"))) == "double:70.0")
      let mixed = try seed(
        db.collection("mixed"),
        [
          "a": ["x": 1], "b": ["x": 2.5], "c": ["x": "3"], "d": ["x": true], "e": ["x": NSNull()], "f": ["y": 1],
          "g": ["x": [4]], "h": ["x": ["v": 5]], "i": ["x": Timestamp(seconds: 6, nanoseconds: 0)],
        ])
      let sum = try run(mixed.aggregate([AggregateField.sum("x"), AggregateField.count()]))
      #expect(aggregateValue(sum.get(AggregateField.sum("x"))) == "double:3.5")
      // Firestore aggregates only the documents that have every aggregated field: "f" has
      // no x. The others count, numbers or not.
      #expect(sum.count.intValue == 8, "count counts documents with the field, not numbers")
      let onlyNumeric = try seed(
        db.collection("numeric"), ["a": ["rating": 5], "b": ["rating": 4], "c": ["rating": "3"], "d": ["rating": 1]])
      let ints = try run(onlyNumeric.aggregate([AggregateField.sum("rating")]))
      #expect(
        aggregateValue(ints.get(AggregateField.sum("rating"))) == "int:10",
        "Firestore's testPerformsSumOnlyOnNumericFields")
    }
  }

  @Test func sumOfNothingIsIntegerZero() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let empty = try run(c.whereField("pages", isGreaterThan: 200).aggregate([AggregateField.sum("pages")]))
      #expect(aggregateValue(empty.get(AggregateField.sum("pages"))) == "int:0")
      let noField = try run(c.aggregate([AggregateField.sum("missing")]))
      #expect(aggregateValue(noField.get(AggregateField.sum("missing"))) == "int:0", "no numeric inputs")
    }
  }

  @Test func sumOverflowBecomesADouble() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(db.collection("overflow"), ["a": ["rating": Int64.max], "b": ["rating": Int64.max]])
      let snapshot = try run(c.aggregate([AggregateField.sum("rating")]))
      let expected = Double(Int64.max) + Double(Int64.max)
      #expect(aggregateValue(snapshot.get(AggregateField.sum("rating"))) == "double:\(expected)")
      let negative = try seed(db.collection("underflow"), ["a": ["r": Int64.min], "b": ["r": -1]])
      let low = try run(negative.aggregate([AggregateField.sum("r")]))
      #expect(aggregateValue(low.get(AggregateField.sum("r"))) == "double:\(Double(Int64.min) - 1)")
    }
  }

  @Test func sumThatFitsStaysAnIntegerEvenIfAPartialSumOverflows() throws {
    try withDatabase(settings: relaxed) { db in
      // Firestore's testPerformsSumThatCanOverflowLongValuesDuringAccumulation: in document
      // order the running sum passes Int64.max, but the result fits.
      let c = try seed(
        db.collection("partial"), ["a": ["rating": Int64.max], "b": ["rating": 1], "c": ["rating": -101]])
      let snapshot = try run(c.aggregate([AggregateField.sum("rating")]))
      #expect(aggregateValue(snapshot.get(AggregateField.sum("rating"))) == "int:\(Int64.max - 100)")
      let negative = try seed(
        db.collection("negative"),
        ["a": ["rating": Int64.max], "b": ["rating": -Int64.max], "c": ["rating": -101], "d": ["rating": -10_000]])
      let n = try run(negative.aggregate([AggregateField.sum("rating")]))
      #expect(aggregateValue(n.get(AggregateField.sum("rating"))) == "int:-10101")
    }
  }

  @Test func sumWithNaNIsNaNAndInfinitiesAdd() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nan"), ["a": ["rating": 5], "b": ["rating": Double.nan], "c": ["rating": 4], "d": ["pages": 1]])
      let snapshot = try run(c.aggregate([AggregateField.sum("rating"), AggregateField.average("rating")]))
      #expect(aggregateValue(snapshot.get(AggregateField.sum("rating"))) == "double:NaN")
      #expect(aggregateValue(snapshot.get(AggregateField.average("rating"))) == "double:NaN")
      let big = try seed(
        db.collection("inf"), ["a": ["r": Double.greatestFiniteMagnitude], "b": ["r": Double.greatestFiniteMagnitude]])
      let inf = try run(big.aggregate([AggregateField.sum("r")]))
      #expect(aggregateValue(inf.get(AggregateField.sum("r"))) == "double:inf")
      let tiny = try seed(db.collection("denorm"), ["a": ["r": Double.leastNonzeroMagnitude]])
      let t = try run(tiny.aggregate([AggregateField.sum("r"), AggregateField.average("r")]))
      #expect(aggregateValue(t.get(AggregateField.sum("r"))) == "double:\(Double.leastNonzeroMagnitude)")
      #expect(aggregateValue(t.get(AggregateField.average("r"))) == "double:\(Double.leastNonzeroMagnitude)")
    }
  }

  // MARK: - average

  @Test func averageIsADouble() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("avg"),
        [
          "a": [
            "intToInt": 10, "floatToInt": 10.5, "mixedToInt": 10, "floatToFloat": 5.5, "mixedToFloat": 8.6,
            "intToFloat": 10,
          ],
          "b": [
            "intToInt": 5, "floatToInt": 9.5, "mixedToInt": 9.5, "floatToFloat": 4.5, "mixedToFloat": 9,
            "intToFloat": 9,
          ],
          "c": [
            "intToInt": 0, "floatToInt": "ignore", "mixedToInt": 10.5, "floatToFloat": 3.5, "mixedToFloat": 10,
            "intToFloat": "ignore",
          ],
        ])
      let cases: [(String, Double)] = [
        ("intToInt", 5), ("floatToInt", 10), ("mixedToInt", 10), ("floatToFloat", 4.5), ("mixedToFloat", 9.2),
        ("intToFloat", 9.5),
      ]
      for (field, expected) in cases {
        // One query each: Firestore runs at most five aggregations at once.
        let snapshot = try run(c.aggregate([AggregateField.average(field)]))
        let value = aggregateValue(snapshot.get(AggregateField.average(field)))
        #expect(value.hasPrefix("double:"), "average(\(field)) should be a double: \(value)")
        let number = Double(value.dropFirst("double:".count)) ?? .nan
        #expect(abs(number - expected) < 1e-12, "average(\(field)) = \(value), expected \(expected)")
      }
    }
  }

  @Test func averageOfNothingIsNull() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let empty = try run(c.whereField("pages", isGreaterThan: 200).aggregate([AggregateField.average("pages")]))
      #expect(aggregateValue(empty.get(AggregateField.average("pages"))) == "null")
      let nonNumeric = try run(c.aggregate([AggregateField.average("author")]))
      #expect(aggregateValue(nonNumeric.get(AggregateField.average("author"))) == "null", "only strings")
    }
  }

  @Test func averageIgnoresNonNumbers() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("avgMixed"), ["a": ["rating": 5], "b": ["rating": 4], "c": ["rating": "3"], "d": ["rating": 6]])
      let snapshot = try run(c.aggregate([AggregateField.count(), AggregateField.average("rating")]))
      #expect(snapshot.count.intValue == 4)
      #expect(aggregateValue(snapshot.get(AggregateField.average("rating"))) == "double:5.0")
      let large = try seed(db.collection("avgLarge"), ["a": ["r": Int64.max], "b": ["r": Int64.max]])
      let big = try run(large.aggregate([AggregateField.average("r")]))
      #expect(aggregateValue(big.get(AggregateField.average("r"))) == "double:\(Double(Int64.max))", "no overflow")
    }
  }

  // MARK: - Several at once, on shaped queries

  @Test func severalAggregationsAtOnce() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let snapshot = try run(
        c.aggregate([
          AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages"),
          AggregateField.sum("height"), AggregateField.average("year"), AggregateField.sum("pages"),
        ]))
      #expect(snapshot.count.intValue == 4)
      #expect(aggregateValue(snapshot.get(AggregateField.count())) == "int:4")
      #expect(aggregateValue(snapshot.get(AggregateField.sum("pages"))) == "int:300")
      #expect(aggregateValue(snapshot.get(AggregateField.average("pages"))) == "double:75.0")
      #expect(aggregateValue(snapshot.get(AggregateField.sum("height"))) == "double:70.0")
      #expect(aggregateValue(snapshot.get(AggregateField.average("year"))) == "double:2000.0")
    }
  }

  @Test func aggregationsOnNestedFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("nested"),
        [
          "a": ["metadata": ["pages": 100, "rating": ["critic": 2, "user": 5]]],
          "b": ["metadata": ["pages": 50, "rating": ["critic": 4, "user": 4]]],
        ])
      let snapshot = try run(
        c.aggregate([
          AggregateField.count(), AggregateField.sum("metadata.pages"), AggregateField.average("metadata.pages"),
          AggregateField.average(FieldPath(["metadata", "rating", "critic"])),
          AggregateField.sum(FieldPath(["metadata", "rating", "user"])),
        ]))
      #expect(snapshot.count.intValue == 2)
      #expect(aggregateValue(snapshot.get(AggregateField.sum("metadata.pages"))) == "int:150")
      #expect(aggregateValue(snapshot.get(AggregateField.average("metadata.pages"))) == "double:75.0")
      #expect(
        aggregateValue(snapshot.get(AggregateField.average(FieldPath(["metadata", "rating", "critic"]))))
          == "double:3.0")
      #expect(aggregateValue(snapshot.get(AggregateField.sum(FieldPath(["metadata", "rating", "user"])))) == "int:9")
      #expect(
        aggregateValue(snapshot.get(AggregateField.sum(FieldPath(["metadata", "pages"])))) == "int:150",
        "a String and a FieldPath name the same aggregation")
    }
  }

  @Test func aggregationsApplyAfterFiltersAndLimits() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let filtered = try run(
        c.whereField("year", isEqualTo: 2020).aggregate([
          AggregateField.count(), AggregateField.sum("rating"), AggregateField.average("pages"),
        ]))
      #expect(filtered.count.intValue == 2)
      #expect(aggregateValue(filtered.get(AggregateField.sum("rating"))) == "int:4")
      #expect(aggregateValue(filtered.get(AggregateField.average("pages"))) == "double:50.0")
      let inFilter = try run(
        c.whereField("rating", in: [5, 3]).aggregate([
          AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("year"),
        ]))
      #expect(inFilter.count.intValue == 2)
      #expect(aggregateValue(inFilter.get(AggregateField.sum("pages"))) == "int:200")
      #expect(aggregateValue(inFilter.get(AggregateField.average("year"))) == "double:1980.0")
      // limit applies before aggregating: the two highest ratings (a: 5, b: 4).
      let limited = try run(
        c.order(by: "rating", descending: true).limit(to: 2).aggregate([
          AggregateField.count(), AggregateField.sum("rating"), AggregateField.average("pages"),
        ]))
      #expect(limited.count.intValue == 2)
      #expect(aggregateValue(limited.get(AggregateField.sum("rating"))) == "int:9")
      #expect(aggregateValue(limited.get(AggregateField.average("pages"))) == "double:75.0")
      let last = try run(
        c.order(by: "rating", descending: true).limit(toLast: 3).aggregate([AggregateField.sum("rating")]))
      #expect(aggregateValue(last.get(AggregateField.sum("rating"))) == "int:7", "ratings 4, 3, 0")
    }
  }

  @Test func aggregationsWithMultipleInequalities() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("mieq"),
        [
          "doc1": ["key": "a", "sort": 5, "v": 0], "doc2": ["key": "aa", "sort": 4, "v": 0],
          "doc3": ["key": "b", "sort": 3, "v": 1], "doc4": ["key": "b", "sort": 2, "v": 1],
          "doc5": ["key": "bb", "sort": 1, "v": 1],
        ])
      let base = c.whereField("key", isGreaterThan: "a").whereField("sort", isGreaterThanOrEqualTo: 1)
      let first = try run(
        base.order(by: "v").aggregate([AggregateField.count(), AggregateField.sum("sort"), AggregateField.average("v")])
      )
      #expect(first.count.intValue == 4)
      let second = try run(
        base.whereField("v", isNotEqualTo: 0).aggregate([
          AggregateField.count(), AggregateField.sum("sort"), AggregateField.average("v"),
        ]))
      #expect(aggregateValue(second.get(AggregateField.count())) == "int:3")
      #expect(aggregateValue(second.get(AggregateField.sum("sort"))) == "int:6")
      #expect(aggregateValue(second.get(AggregateField.average("v"))) == "double:1.0")
    }
  }

  @Test func aggregationsOnAnOrQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let filter = Filter.orFilter([
        Filter.whereField("rating", isEqualTo: 5), Filter.whereField("pages", isEqualTo: 50),
      ])
      let snapshot = try run(c.whereFilter(filter).aggregate([AggregateField.count(), AggregateField.sum("rating")]))
      #expect(snapshot.count.intValue == 3, "a, b, d; none counted twice")
      #expect(aggregateValue(snapshot.get(AggregateField.sum("rating"))) == "int:9")
    }
  }

  @Test func asyncAndCompletionForms() async throws {
    try await withDatabase(settings: relaxed) { db in
      let c = try books(db)
      let viaAsync = try await c.count.getAggregation(source: .server)
      #expect(viaAsync.count.intValue == 4)
      let signal = Signal()
      let result = Box<Int?>(nil)
      c.whereField("pages", isEqualTo: 50).count.getAggregation(source: .server) { snapshot, _ in
        result.value = snapshot?.count.intValue
        signal.fire()
      }
      #expect(signal.wait())
      #expect(result.value == 2)
    }
  }

  @Test func anInvalidQueryFailsWhenAggregated() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try books(db)
      expectInvalidArgument(mentioning: ["positive"]) { _ = try c.limit(to: 0).count.getAggregation(source: .server) }
      expectInvalidArgument(mentioning: ["non-empty"]) {
        _ = try c.whereField("pages", in: []).aggregate([AggregateField.sum("pages")]).getAggregation(source: .server)
      }
      expectInvalidArgument(mentioning: ["notEqual"]) {
        _ = try c.whereField("a", isNotEqualTo: 1).whereField("b", isNotEqualTo: 2).count.getAggregation(
          source: .server)
      }
    }
  }
}
