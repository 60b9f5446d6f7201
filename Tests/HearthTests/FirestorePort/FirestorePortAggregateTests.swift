import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's aggregation tests, ported case by case with their data and expected results:
// FIRCountTests.mm, FIRAggregateTests.mm, the aggregation cases of
// FIRCompositeIndexQueryTests.mm, and the Swift AggregationIntegrationTests.swift.
// Where Firestore's test has a "standard" and an "enterprise" backend branch, the standard
// (Cloud Firestore) expectation is ported. Terminate and network cases are left out; the
// equality cases (of aggregate queries and their snapshots) are at the end.

@Suite("Firestore port: aggregations")
struct FirestorePortAggregateTests {

  private func run(_ query: AggregateQuery) throws -> AggregateQuerySnapshot {
    try query.getAggregation(source: .server)
  }

  private func number(_ value: Any?) -> NSNumber? { value as? NSNumber }

  private func threeK(_ db: Database) throws -> CollectionReference {
    try seed(db.collection("c"), ["a": ["k": "a"], "b": ["k": "b"], "c": ["k": "c"]])
  }

  private func twoBooks(_ db: Database) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": [
          "author": "authorA", "title": "titleA", "pages": 100, "height": 24.5, "weight": 24.1, "foo": 1, "bar": 2,
          "baz": 3,
        ],
        "b": [
          "author": "authorB", "title": "titleB", "pages": 50, "height": 25.5, "weight": 75.5, "foo": 1, "bar": 2,
          "baz": 3,
        ],
      ])
  }

  // MARK: - FIRCountTests.mm

  // FIRCountTests.testCanRunCountQuery
  @Test func testCanRunCountQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try threeK(db)
      #expect(try run(c.count).count == NSNumber(value: 3))
    }
  }

  // FIRCountTests.testCanRunCountWithFilters
  @Test func testCanRunCountWithFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try threeK(db)
      #expect(try run(c.whereField("k", isEqualTo: "b").count).count == NSNumber(value: 1))
    }
  }

  // FIRCountTests.testCanRunCountWithOrderBys
  @Test func testCanRunCountWithOrderBys() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), ["a": ["k": "a"], "b": ["k": "b"], "c": ["k": "c"], "d": ["absent": "d"]])
      #expect(try run(c.order(by: "k").count).count == NSNumber(value: 3))
    }
  }

  // FIRCountTests.testCanRunCollectionGroupCountQuery
  @Test func testCanRunCollectionGroupCountQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "bq8ZkT2xLmN4pR7sV1wY"
      let paths = [
        "abc/123/\(cg)/cg-doc1", "abc/123/\(cg)/cg-doc2", "\(cg)/cg-doc3", "\(cg)/cg-doc4",
        "def/456/\(cg)/cg-doc5", "\(cg)/virtual-doc/nested-coll/not-cg-doc", "x\(cg)/not-cg-doc",
        "\(cg)x/not-cg-doc", "abc/123/\(cg)x/not-cg-doc", "abc/123/x\(cg)/not-cg-doc", "abc/\(cg)",
      ]
      try seed(db, paths: Dictionary(uniqueKeysWithValues: paths.map { ($0, ["x": "a"] as [String: Any]) }))
      #expect(try run(db.collectionGroup(cg).count).count == NSNumber(value: 5))
    }
  }

  // FIRCountTests.testCanRunCountWithFiltersAndLimits
  @Test func testCanRunCountWithFiltersAndLimits() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"), ["a": ["k": "a"], "b": ["k": "a"], "c": ["k": "a"], "d": ["k": "d"]])
      do {
        #expect(try run(c.limit(to: 2).whereField("k", isEqualTo: "a").count).count == NSNumber(value: 2))
      } catch {
        Issue.record("limit(to: 2) k == a count failed: \(error)")
      }
      do {
        #expect(try run(c.limit(toLast: 2).whereField("k", isEqualTo: "a").count).count == NSNumber(value: 2))
      } catch {
        Issue.record("limit(toLast: 2) k == a count (no order by) failed: \(error)")
      }
      do {
        #expect(try run(c.limit(toLast: 1000).whereField("k", isEqualTo: "d").count).count == NSNumber(value: 1))
      } catch {
        Issue.record("limit(toLast: 1000) k == d count (no order by) failed: \(error)")
      }
    }
  }

  // FIRCountTests.testCanRunCountOnNonExistentCollection
  @Test func testCanRunCountOnNonExistentCollection() throws {
    try withDatabase(settings: relaxed) { db throws in
      let c = db.collection("c")
      #expect(try run(c.count).count == NSNumber(value: 0))
      #expect(try run(c.whereField("k", isEqualTo: "a").count).count == NSNumber(value: 0))
    }
  }

  /// Settings that refuse a query without its composite index, as Firestore does.
  private var requiringIndexes: Settings {
    let settings = Settings()
    settings.durability = .relaxed
    settings.requireIndexes = true
    return settings
  }

  // FIRCountTests.testFailWithMessageWithConsoleLinkIfMissingIndex (Settings.requireIndexes = true)
  @Test func testCountFailWithMessageWithConsoleLinkIfMissingIndex() throws {
    try withDatabase(settings: requiringIndexes) { db in
      let q = db.collection("c").whereField("field1", isEqualTo: 42).whereField("field2", isLessThan: 99)
      do {
        _ = try run(q.count)
        Issue.record("expected a missing-index error")
      } catch {
        #expect("\(error)".lowercased().contains("index"), "\(error)")
      }
    }
  }

  // MARK: - FIRAggregateTests.mm

  // FIRAggregateTests.testCanRunAggregateQuery
  @Test func testCanRunAggregateQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let s = try run(
        c.aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages")]))
      #expect(number(s.get(AggregateField.count())) == NSNumber(value: 2))
      #expect(s.count == NSNumber(value: 2))
      #expect(number(s.get(AggregateField.sum("pages"))) == NSNumber(value: 150))
      #expect(number(s.get(AggregateField.average("pages"))) == NSNumber(value: 75.0))
    }
  }

  // FIRAggregateTests.testCanRunEmptyAggregateQuery
  @Test func testCanRunEmptyAggregateQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      do {
        let s = try run(c.aggregate([]))
        Issue.record("expected an error, got a snapshot with count \(s.count)")
      } catch {
        #expect("\(error)".contains("Aggregations can not be empty"), "\(error)")
      }
    }
  }

  // FIRAggregateTests.testAggregateOnFieldNameWithMaxLength
  @Test func testAggregateOnFieldNameWithMaxLength() throws {
    try withDatabase(settings: relaxed) { db in
      let digits = Array("0123456789")
      let longField = String((0..<1499).map { digits[$0 % 10] })
      let c = try seed(db.collection("c"), ["a": [longField: 1], "b": [longField: 2]])
      let s = try run(c.aggregate([AggregateField.sum(longField)]))
      #expect(number(s.get(AggregateField.sum(longField))) == NSNumber(value: 3))
    }
  }

  // FIRAggregateTests.testCanGetDuplicateAggregations
  @Test func testCanGetDuplicateAggregations() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let s = try run(c.aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.sum("pages")]))
      #expect(number(s.get(AggregateField.count())) == NSNumber(value: 2))
      #expect(number(s.get(AggregateField.sum("pages"))) == NSNumber(value: 150))
    }
  }

  // FIRAggregateTests.testCannotPerformMoreThanMaxAggregations
  @Test func testCannotPerformMoreThanMaxAggregations() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let query = c.aggregate([
        AggregateField.count(), AggregateField.sum("pages"), AggregateField.sum("weight"),
        AggregateField.average("pages"), AggregateField.average("weight"), AggregateField.average("foo"),
      ])
      do {
        _ = try run(query)
        Issue.record("expected an error for 6 aggregations (max is 5)")
      } catch {
        #expect("\(error)".contains("maximum number of aggregations"), "\(error)")
      }
    }
  }

  // FIRAggregateTests.testThrowsAnErrorWhenGettingTheResultOfAnUnrequestedAggregation
  // (Firestore raises an exception; Hearth's non-throwing get(_:) answers nil. `count` on the
  // snapshot cannot throw in Swift and is not checked.)
  @Test func testThrowsAnErrorWhenGettingTheResultOfAnUnrequestedAggregation() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let s = try run(c.aggregate([AggregateField.sum("pages")]))
      #expect(s.get(AggregateField.count()) == nil, "'count()' was not requested")
      #expect(s.get(AggregateField.sum("foo")) == nil, "'sum(foo)' was not requested")
      #expect(s.get(AggregateField.average("pages")) == nil, "'avg(pages)' was not requested")
    }
  }

  private func fourRatedBooks(_ db: Database, ratings: [Any]) throws -> CollectionReference {
    try seed(
      db.collection("c"),
      [
        "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": ratings[0]],
        "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": ratings[1]],
        "c": ["author": "authorC", "title": "titleC", "pages": 100, "year": 1980, "rating": ratings[2]],
        "d": ["author": "authorD", "title": "titleD", "pages": 50, "year": 2020, "rating": ratings[3]],
      ])
  }

  // FIRAggregateTests.testPerformsAggregationWhenUsingInOperator
  @Test func testPerformsAggregationWhenUsingInOperator() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try fourRatedBooks(db, ratings: [5, 4, 3, 0])
      let s = try run(
        c.whereField("rating", in: [5, 3]).aggregate([
          AggregateField.sum("rating"), AggregateField.average("rating"), AggregateField.count(),
        ]))
      #expect(number(s.get(AggregateField.count()))?.intValue == 2)
      #expect(number(s.get(AggregateField.sum("rating")))?.intValue == 8)
      #expect(number(s.get(AggregateField.average("rating")))?.doubleValue == 4.0)
    }
  }

  // FIRAggregateTests.testPerformsAggregationsOnNestedMapValues
  @Test func testPerformsAggregationsOnNestedMapValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": [
            "author": "authorA", "title": "titleA", "metadata": ["pages": 100, "rating": ["critic": 2, "user": 5]],
          ],
          "b": [
            "author": "authorB", "title": "titleB", "metadata": ["pages": 50, "rating": ["critic": 4, "user": 4]],
          ],
        ])
      let s = try run(
        c.aggregate([
          AggregateField.sum("metadata.pages"), AggregateField.average("metadata.pages"), AggregateField.count(),
        ]))
      #expect(number(s.get(AggregateField.count()))?.intValue == 2)
      #expect(number(s.get(AggregateField.sum("metadata.pages")))?.intValue == 150)
      #expect(number(s.get(AggregateField.average("metadata.pages")))?.doubleValue == 75.0)
    }
  }

  private func ratings(_ db: Database, _ values: [String: Any], withAuthors: Bool = true) throws -> CollectionReference
  {
    var docs: [String: [String: Any]] = [:]
    for (id, rating) in values {
      docs[id] =
        withAuthors
        ? ["author": "author\(id.uppercased())", "title": "title\(id.uppercased())", "rating": rating]
        : ["rating": rating]
    }
    return try seed(db.collection("c"), docs)
  }

  // FIRAggregateTests.testPerformsSumThatOverflowsMaxLong (standard edition)
  @Test func testPerformsSumThatOverflowsMaxLong() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Int64.max, "b": Int64.max])
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      #expect(number(s.get(AggregateField.sum("rating")))?.doubleValue == Double(Int64.max) + Double(Int64.max))
    }
  }

  // FIRAggregateTests.testPerformsSumThatCanOverflowLongValuesDuringAccumulation
  @Test func testPerformsSumThatCanOverflowLongValuesDuringAccumulation() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Int64.max, "b": Int64(1), "c": Int64(-101)])
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      let value = s.get(AggregateField.sum("rating"))
      #expect(number(value)?.int64Value == Int64.max - 100, "got \(aggregateValue(value))")
    }
  }

  // FIRAggregateTests.testPerformsSumThatIsNegative (standard edition)
  @Test func testPerformsSumThatIsNegative() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Int64.max, "b": -Int64.max, "c": Int64(-101), "d": Int64(-10000)])
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      let value = s.get(AggregateField.sum("rating"))
      #expect(number(value)?.int64Value == -10101, "got \(aggregateValue(value))")
    }
  }

  // FIRAggregateTests.testPerformsSumThatIsPositiveInfinity
  @Test func testPerformsSumThatIsPositiveInfinity() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Double.greatestFiniteMagnitude, "b": Double.greatestFiniteMagnitude])
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      #expect(number(s.get(AggregateField.sum("rating"))) == NSNumber(value: Double.infinity))
    }
  }

  // FIRAggregateTests.testPerformsSumThatIsNegativeInfinity
  @Test func testPerformsSumThatIsNegativeInfinity() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": -Double.greatestFiniteMagnitude, "b": -Double.greatestFiniteMagnitude])
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      #expect(number(s.get(AggregateField.sum("rating"))) == NSNumber(value: -Double.infinity))
    }
  }

  // FIRAggregateTests.testPerformsSumThatIsValidButCouldOverflowDuringAggregation
  // (the longLongValue half of the original is left out: converting ±inf to Int64 is undefined)
  @Test func testPerformsSumThatIsValidButCouldOverflowDuringAggregation() throws {
    try withDatabase(settings: relaxed) { db in
      let m = Double.greatestFiniteMagnitude
      let c = try ratings(db, ["a": m, "b": m, "c": -m, "d": -m], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      let d = number(s.get(AggregateField.sum("rating")))?.doubleValue
      #expect(d == -Double.infinity || d == 0 || d == Double.infinity, "got \(String(describing: d))")
    }
  }

  // FIRAggregateTests.testPerformsSumOverResultSetOfZeroDocuments (standard edition)
  @Test func testPerformsSumOverResultSetOfZeroDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let s = try run(c.whereField("pages", isGreaterThan: 200).aggregate([AggregateField.sum("pages")]))
      #expect(number(s.get(AggregateField.sum("pages"))) == NSNumber(value: 0))
    }
  }

  // FIRAggregateTests.testPerformsSumOnlyOnNumericFields
  @Test func testPerformsSumOnlyOnNumericFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": 5, "b": 4, "c": "3", "d": 1], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.count(), AggregateField.sum("rating")]))
      #expect(number(s.get(AggregateField.count()))?.intValue == 4)
      #expect(number(s.get(AggregateField.sum("rating")))?.int64Value == 10)
    }
  }

  // FIRAggregateTests.testPerformsSumOfMinIEEE754
  @Test func testPerformsSumOfMinIEEE754() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Double.leastNonzeroMagnitude], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.sum("rating")]))
      #expect(number(s.get(AggregateField.sum("rating")))?.doubleValue == Double.leastNonzeroMagnitude)
    }
  }

  // FIRAggregateTests.testPerformsAverageOfVariousNumericTypes
  @Test func testPerformsAverageOfVariousNumericTypes() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": [
            "x": 1, "intToInt": 10, "floatToInt": 10.5, "mixedToInt": 10, "floatToFloat": 5.5, "mixedToFloat": 8.6,
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
        let agg = AggregateField.average(field)
        let s = try run(c.aggregate([agg]))
        let got = number(s.get(agg))
        #expect(got?.intValue == NSNumber(value: expected).intValue, "\(field): \(aggregateValue(s.get(agg)))")
        #expect(
          abs((got?.doubleValue ?? .nan) - expected) <= 0.00000000000001, "\(field): \(aggregateValue(s.get(agg)))")
      }
    }
  }

  // FIRAggregateTests.testPerformsAverageCausingUnderflow
  @Test func testPerformsAverageCausingUnderflow() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Double.leastNonzeroMagnitude, "b": 0.0], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.average("rating")]))
      #expect(number(s.get(AggregateField.average("rating")))?.doubleValue == 0.0)
    }
  }

  // FIRAggregateTests.testPerformsAverageOfMinIEEE754
  @Test func testPerformsAverageOfMinIEEE754() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": Double.leastNonzeroMagnitude], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.average("rating")]))
      #expect(number(s.get(AggregateField.average("rating")))?.doubleValue == Double.leastNonzeroMagnitude)
    }
  }

  // FIRAggregateTests.testPerformsAverageOverflowIEEE754DuringAccumulation
  @Test func testPerformsAverageOverflowIEEE754DuringAccumulation() throws {
    try withDatabase(settings: relaxed) { db in
      let m = Double.greatestFiniteMagnitude
      let c = try ratings(db, ["a": m, "b": m], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.average("rating")]))
      let value = s.get(AggregateField.average("rating"))
      #expect(number(value)?.doubleValue == Double.infinity, "got \(aggregateValue(value))")
    }
  }

  // FIRAggregateTests.testPerformsAverageOverResultSetOfZeroDocuments
  @Test func testPerformsAverageOverResultSetOfZeroDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let s = try run(c.whereField("pages", isGreaterThan: 200).aggregate([AggregateField.average("pages")]))
      #expect(s.get(AggregateField.average("pages")) is NSNull)
    }
  }

  // FIRAggregateTests.testPerformsAverageOnlyOnNumericFields
  @Test func testPerformsAverageOnlyOnNumericFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try ratings(db, ["a": 5, "b": 4, "c": "3", "d": 6], withAuthors: false)
      let s = try run(c.aggregate([AggregateField.count(), AggregateField.average("rating")]))
      #expect(number(s.get(AggregateField.count()))?.intValue == 4)
      #expect(number(s.get(AggregateField.average("rating")))?.doubleValue == 5.0)
    }
  }

  // FIRAggregateTests.testFailWithMessageWithConsoleLinkIfMissingIndex (Settings.requireIndexes = true)
  @Test func testAggregateFailWithMessageWithConsoleLinkIfMissingIndex() throws {
    try withDatabase(settings: requiringIndexes) { db in
      let q = db.collection("c").whereField("field1", isEqualTo: 42).whereField("field2", isLessThan: 99)
      do {
        _ = try run(
          q.aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages")]))
        Issue.record("expected a missing-index error")
      } catch {
        #expect("\(error)".lowercased().contains("index"), "\(error)")
      }
    }
  }

  // MARK: - FIRCompositeIndexQueryTests.mm (aggregation cases; `testId` field and filter kept)

  // FIRCompositeIndexQueryTests.testCanRunAggregateCollectionGroupQuery
  @Test func testCanRunAggregateCollectionGroupQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let cg = "composite-index-test-collection"
      let paths = [
        "abc/123/\(cg)/cg-doc1", "abc/123/\(cg)/cg-doc2", "\(cg)/cg-doc3", "\(cg)/cg-doc4",
        "def/456/\(cg)/cg-doc5", "\(cg)/virtual-doc/nested-coll/not-cg-doc", "x\(cg)/not-cg-doc",
        "\(cg)x/not-cg-doc", "abc/123/\(cg)x/not-cg-doc", "abc/123/x\(cg)/not-cg-doc", "abc/\(cg)",
      ]
      try seed(
        db,
        paths: Dictionary(
          uniqueKeysWithValues: paths.map { ($0, ["a": 2, "testId": compositeTestID] as [String: Any]) }))
      let s = try run(
        withTestID(db.collectionGroup(cg)).aggregate([
          AggregateField.count(), AggregateField.sum("a"), AggregateField.average("a"),
        ]))
      #expect(number(s.get(AggregateField.count())) == NSNumber(value: 5))
      #expect(number(s.get(AggregateField.sum("a"))) == NSNumber(value: 10))
      #expect(number(s.get(AggregateField.average("a"))) == NSNumber(value: 2.0))
    }
  }

  // FIRCompositeIndexQueryTests.testCanPerformMaxAggregations
  @Test func testCanPerformMaxAggregations() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": 5.0],
          "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": 4.0],
        ])
      let s = try run(
        withTestID(c).aggregate([
          AggregateField.count(), AggregateField.sum("pages"), AggregateField.sum("year"),
          AggregateField.average("pages"),
          AggregateField.average("rating"),
        ]))
      #expect(number(s.get(AggregateField.count())) == NSNumber(value: 2))
      #expect(number(s.get(AggregateField.sum("pages"))) == NSNumber(value: 150))
      #expect(number(s.get(AggregateField.sum("year"))) == NSNumber(value: 4000))
      #expect(number(s.get(AggregateField.average("pages"))) == NSNumber(value: 75.0))
      #expect(number(s.get(AggregateField.average("rating")))?.doubleValue == 4.5)
    }
  }

  // FIRCompositeIndexQueryTests.testPerformsAggregationsWhenNaNExistsForSomeFieldValues
  @Test func testPerformsAggregationsWhenNaNExistsForSomeFieldValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": 5],
          "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": 4],
          "c": ["author": "authorC", "title": "titleC", "pages": 100, "year": 1980, "rating": Float.nan],
          "d": ["author": "authorD", "title": "titleD", "pages": 50, "year": 2020, "rating": 0],
        ])
      let s = try run(
        withTestID(c).aggregate([
          AggregateField.sum("rating"), AggregateField.sum("pages"), AggregateField.average("rating"),
          AggregateField.average("year"),
        ]))
      #expect(aggregateValue(s.get(AggregateField.sum("rating"))) == "double:NaN")
      #expect(number(s.get(AggregateField.sum("pages")))?.intValue == 300)
      #expect(aggregateValue(s.get(AggregateField.average("rating"))) == "double:NaN")
      #expect(number(s.get(AggregateField.average("year")))?.doubleValue == 2000.0)
    }
  }

  // FIRCompositeIndexQueryTests.testPerformsAggregationWhenUsingArrayContainsAnyOperator
  @Test func testPerformsAggregationWhenUsingArrayContainsAnyOperator() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "a": ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": [5, 1000]],
          "b": ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": [4]],
          "c": ["author": "authorC", "title": "titleC", "pages": 100, "year": 1980, "rating": [2222, 3]],
          "d": ["author": "authorD", "title": "titleD", "pages": 50, "year": 2020, "rating": [0]],
        ])
      let s = try run(
        withTestID(c.whereField("rating", arrayContainsAny: [5, 3])).aggregate([
          AggregateField.sum("rating"), AggregateField.sum("pages"), AggregateField.average("rating"),
          AggregateField.average("pages"), AggregateField.count(),
        ]))
      #expect(number(s.get(AggregateField.count()))?.intValue == 2)
      #expect(number(s.get(AggregateField.sum("rating")))?.intValue == 0)
      #expect(number(s.get(AggregateField.sum("pages")))?.intValue == 200)
      #expect(s.get(AggregateField.average("rating")) is NSNull)
      #expect(number(s.get(AggregateField.average("pages")))?.doubleValue == 100.0)
    }
  }

  // FIRCompositeIndexQueryTests.testMultipleInequalityInAggregateQuery
  @Test func testMultipleInequalityInAggregateQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try compositeIndexTestDocs(
        db,
        [
          "doc1": ["key": "a", "sort": 5, "v": 0], "doc2": ["key": "aa", "sort": 4, "v": 0],
          "doc3": ["key": "b", "sort": 3, "v": 1], "doc4": ["key": "b", "sort": 2, "v": 1],
          "doc5": ["key": "bb", "sort": 1, "v": 1],
        ])
      var s = try run(
        withTestID(
          c.whereField("key", isGreaterThan: "a").whereField("sort", isGreaterThanOrEqualTo: 1).order(
            by: "v", descending: false)
        )
        .aggregate([AggregateField.count(), AggregateField.sum("sort"), AggregateField.average("v")]))
      #expect(s.count == NSNumber(value: 4))
      s = try run(
        withTestID(
          c.whereField("key", isGreaterThan: "a").whereField("sort", isGreaterThanOrEqualTo: 1).whereField(
            "v", isNotEqualTo: 0)
        )
        .aggregate([AggregateField.count(), AggregateField.sum("sort"), AggregateField.average("v")]))
      #expect(number(s.get(AggregateField.count())) == NSNumber(value: 3))
      #expect(number(s.get(AggregateField.sum("sort")))?.intValue == 6)
      #expect(number(s.get(AggregateField.average("v"))) == NSNumber(value: 1.0))
    }
  }

  // MARK: - AggregationIntegrationTests.swift

  // AggregationIntegrationTests.testCount
  @Test func swift_testCount() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: [:])
      #expect(try c.count.getAggregation(source: .server).count == 1)
    }
  }

  // AggregationIntegrationTests.testCanRunAggregateQuery
  @Test func swift_testCanRunAggregateQuery() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: [
        "author": "authorA", "title": "titleA", "pages": 100, "height": 24.5, "weight": 24.1, "foo": 1, "bar": 2,
        "baz": 3,
      ])
      try c.addDocument(data: [
        "author": "authorB", "title": "titleB", "pages": 50, "height": 25.5, "weight": 75.5, "foo": 1, "bar": 2,
        "baz": 3,
      ])
      let s = try c.aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages")])
        .getAggregation(source: .server)
      #expect(s.get(AggregateField.count()) as? NSNumber == 2)
      #expect(s.get(AggregateField.sum("pages")) as? NSNumber == 150)
      #expect(s.get(AggregateField.sum("pages")) as? Double == 150)
      #expect(s.get(AggregateField.sum("pages")) as? Int64 == 150)
      #expect(s.get(AggregateField.average("pages")) as? NSNumber == 75.0)
      #expect(s.get(AggregateField.average("pages")) as? Double == 75.0)
      #expect(s.get(AggregateField.average("pages")) as? Int64 == 75)
    }
  }

  // AggregationIntegrationTests.testCannotPerformMoreThanMaxAggregations
  @Test func swift_testCannotPerformMoreThanMaxAggregations() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: [
        "author": "authorA", "title": "titleA", "pages": 100, "height": 24.5, "weight": 24.1, "foo": 1, "bar": 2,
        "baz": 3,
      ])
      do {
        _ = try c.aggregate([
          AggregateField.count(), AggregateField.sum("pages"), AggregateField.sum("weight"),
          AggregateField.average("pages"), AggregateField.average("weight"), AggregateField.average("foo"),
        ]).getAggregation(source: .server)
        Issue.record("Error expected.")
      } catch {
        #expect("\(error)".contains("maximum number of aggregations"), "\(error)")
      }
    }
  }

  // AggregationIntegrationTests.testPerformsAggregationsWhenNaNExistsForSomeFieldValues
  @Test func swift_testPerformsAggregationsWhenNaNExistsForSomeFieldValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: ["author": "authorA", "title": "titleA", "pages": 100, "year": 1980, "rating": 4])
      try c.addDocument(data: ["author": "authorB", "title": "titleB", "pages": 50, "year": 2020, "rating": Double.nan])
      let s = try c.aggregate([
        AggregateField.sum("pages"), AggregateField.sum("rating"), AggregateField.average("pages"),
        AggregateField.average("rating"),
      ]).getAggregation(source: .server)
      #expect(s.get(AggregateField.sum("pages")) as? NSNumber == 150)
      #expect((s.get(AggregateField.sum("rating")) as? Double)?.isNaN ?? false)
      #expect(s.get(AggregateField.average("pages")) as? NSNumber == 75.0)
      #expect((s.get(AggregateField.average("rating")) as? Double)?.isNaN ?? false)
    }
  }

  // AggregationIntegrationTests.testThrowsAnErrorWhenGettingTheResultOfAnUnrequestedAggregation
  // (Firestore raises an exception; Hearth's get(_:) answers nil; `count` is not checked)
  @Test func swift_testThrowsAnErrorWhenGettingTheResultOfAnUnrequestedAggregation() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: [:])
      let s = try c.aggregate([AggregateField.average("foo")]).getAggregation(source: .server)
      #expect(s.get(AggregateField.count()) == nil)
      #expect(s.get(AggregateField.sum("foo")) == nil)
      #expect(s.get(AggregateField.average("bar")) == nil)
    }
  }

  // AggregationIntegrationTests.testPerformsAggregationsOnNestedMapValues
  @Test func swift_testPerformsAggregationsOnNestedMapValues() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: ["metadata": ["pages": 100, "rating": ["critic": 2, "user": 5]]])
      try c.addDocument(data: ["metadata": ["pages": 50, "rating": ["critic": 4, "user": 4]]])
      let s = try c.aggregate([
        AggregateField.count(), AggregateField.sum("metadata.pages"), AggregateField.average("metadata.pages"),
      ]).getAggregation(source: .server)
      #expect(s.get(AggregateField.count()) as? NSNumber == 2)
      #expect(s.get(AggregateField.sum(FieldPath(["metadata", "pages"]))) as? NSNumber == 150)
      #expect(s.get(AggregateField.sum("metadata.pages")) as? NSNumber == 150)
      #expect(s.get(AggregateField.average(FieldPath(["metadata", "pages"]))) as? Double == 75.0)
    }
  }

  // AggregationIntegrationTests.testSumOverflow
  @Test func swift_testSumOverflow() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: [
        "longOverflow": Int64.max, "accumulationOverflow": Int64.max,
        "positiveInfinity": Double.greatestFiniteMagnitude, "negativeInfinity": -Double.greatestFiniteMagnitude,
      ])
      try c.addDocument(data: [
        "longOverflow": Int64.max, "accumulationOverflow": 1,
        "positiveInfinity": Double.greatestFiniteMagnitude, "negativeInfinity": -Double.greatestFiniteMagnitude,
      ])
      try c.addDocument(data: [
        "longOverflow": Int64.max, "accumulationOverflow": -101,
        "positiveInfinity": Double.greatestFiniteMagnitude, "negativeInfinity": -Double.greatestFiniteMagnitude,
      ])
      let s = try c.aggregate([
        AggregateField.sum("longOverflow"), AggregateField.sum("accumulationOverflow"),
        AggregateField.sum("positiveInfinity"), AggregateField.sum("negativeInfinity"),
      ]).getAggregation(source: .server)
      #expect(
        s.get(AggregateField.sum("longOverflow")) as? Double == Double(Int64.max) + Double(Int64.max)
          + Double(Int64.max))
      let acc = s.get(AggregateField.sum("accumulationOverflow"))
      #expect(acc as? Int64 == Int64.max - 100, "got \(aggregateValue(acc))")
      #expect(s.get(AggregateField.sum("positiveInfinity")) as? Double == Double.infinity)
      #expect(s.get(AggregateField.sum("negativeInfinity")) as? Double == -Double.infinity)
    }
  }

  // AggregationIntegrationTests.testAverageOverflow
  @Test func swift_testAverageOverflow() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      for _ in 0..<3 {
        try c.addDocument(data: [
          "longOverflow": Int64.max, "doubleOverflow": Double.greatestFiniteMagnitude,
          "negativeInfinity": -Double.greatestFiniteMagnitude,
        ])
      }
      let s = try c.aggregate([
        AggregateField.average("longOverflow"), AggregateField.average("doubleOverflow"),
        AggregateField.average("negativeInfinity"),
      ]).getAggregation(source: .server)
      let long = s.get(AggregateField.average("longOverflow"))
      #expect(long as? Double == Double(Int64.max), "got \(aggregateValue(long))")
      let dbl = s.get(AggregateField.average("doubleOverflow"))
      #expect(dbl as? Double == Double.infinity, "got \(aggregateValue(dbl))")
      let neg = s.get(AggregateField.average("negativeInfinity"))
      #expect(neg as? Double == -Double.infinity, "got \(aggregateValue(neg))")
    }
  }

  // AggregationIntegrationTests.testAverageUnderflow
  @Test func swift_testAverageUnderflow() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: ["underflowSmall": Double.leastNonzeroMagnitude])
      try c.addDocument(data: ["underflowSmall": 0])
      let s = try c.aggregate([AggregateField.average("underflowSmall")]).getAggregation(source: .server)
      #expect(s.get(AggregateField.average("underflowSmall")) as? Double == 0.0)
    }
  }

  // AggregationIntegrationTests.testPerformsAggregateOverResultSetOfZeroDocuments (standard edition)
  @Test func swift_testPerformsAggregateOverResultSetOfZeroDocuments() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: ["pages": 100])
      try c.addDocument(data: ["pages": 50])
      let s = try c.whereField("pages", isGreaterThan: 200)
        .aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages")])
        .getAggregation(source: .server)
      #expect(s.get(AggregateField.count()) as? NSNumber == 0)
      #expect(s.get(AggregateField.average("pages")) as? NSNull == NSNull())
      #expect(s.get(AggregateField.sum("pages")) as? NSNumber == 0)
    }
  }

  // AggregationIntegrationTests.testPerformsAggregateOverResultSetOfZeroFields (standard edition:
  // "aggregation is performed on documents matching the query AND documents that have all
  // aggregated fields")
  @Test func swift_testPerformsAggregateOverResultSetOfZeroFields() throws {
    try withDatabase(settings: relaxed) { db in
      let c = db.collection("c")
      try c.addDocument(data: ["pages": 100])
      try c.addDocument(data: ["pages": 50])
      let s = try c.aggregate([
        AggregateField.count(), AggregateField.sum("notInMyDocs"), AggregateField.average("notInMyDocs"),
      ]).getAggregation(source: .server)
      let count = s.get(AggregateField.count())
      #expect(count as? NSNumber == 0, "count got \(aggregateValue(count))")
      #expect(s.get(AggregateField.sum("notInMyDocs")) as? NSNumber == 0)
      #expect(s.get(AggregateField.average("notInMyDocs")) as? NSNull == NSNull())
    }
  }

  // MARK: - Equality (FIRCountTests.mm, FIRAggregateTests.mm)

  /// Checks `a == b` and equal hashes.
  private func expectEqual<T: Hashable>(_ a: T, _ b: T, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a == b, sourceLocation: sourceLocation)
    #expect(a.hashValue == b.hashValue, sourceLocation: sourceLocation)
  }

  /// Checks `a != b` and different hashes.
  private func expectDifferent<T: Hashable>(_ a: T, _ b: T, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a != b, sourceLocation: sourceLocation)
    #expect(a.hashValue != b.hashValue, sourceLocation: sourceLocation)
  }

  /// The queries of the `…QueryEquals` cases, each aggregated by `field`.
  private func equalityQueries(_ db: Database, _ field: AggregateField) -> [AggregateQuery] {
    let coll1 = db.collection("c")
    let sub = coll1.document("bar").collection("baz")
    return [
      coll1.aggregate([field]), db.collection(coll1.path).aggregate([field]),
      sub.whereField("a", isEqualTo: 1).limit(to: 100).aggregate([field]),
      sub.whereField("a", isEqualTo: 1).limit(to: 100).aggregate([field]),
      sub.whereField("b", isEqualTo: 1).order(by: "c").aggregate([field]),
      sub.whereField("b", isEqualTo: 1).order(by: "c").aggregate([field]),
    ]
  }

  // FIRCountTests.testAggregateQueryEquals
  @Test func testAggregateQueryEquals() throws {
    try withDatabase(settings: relaxed) { db in
      let coll1 = db.collection("c")
      let sub = coll1.document("bar").collection("baz")
      let query1 = coll1.count
      let query1Same = db.collection(coll1.path).count
      let query2 = sub.whereField("a", isEqualTo: 1).limit(to: 100).count
      let query2Same = sub.whereField("a", isEqualTo: 1).limit(to: 100).count
      let query3 = sub.whereField("b", isEqualTo: 1).order(by: "c").count
      let query3Same = sub.whereField("b", isEqualTo: 1).order(by: "c").count
      expectEqual(query1, query1Same)
      expectEqual(query2, query2Same)
      expectEqual(query3, query3Same)
      expectDifferent(query1, query2)
      expectDifferent(query2, query3)
    }
  }

  // FIRCountTests.testSnapshotEquals
  @Test func testSnapshotEquals() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try threeK(db)
      let snapshot1 = try run(c.whereField("k", isEqualTo: "b").count)
      let snapshot1Same = try run(c.whereField("k", isEqualTo: "b").count)
      let snapshot2 = try run(c.whereField("k", isEqualTo: "a").count)
      try c.document("d").setData(["k": "a"])
      let snapshot2Different = try run(c.whereField("k", isEqualTo: "a").count)
      let snapshot3 = try run(c.whereField("k", isEqualTo: "b").count)
      let snapshot3Different = try run(c.whereField("k", isEqualTo: "c").count)
      expectEqual(snapshot1, snapshot1Same)
      #expect(snapshot1.query == c.whereField("k", isEqualTo: "b").count)
      expectDifferent(snapshot1, snapshot2)
      expectDifferent(snapshot2, snapshot2Different)
      expectDifferent(snapshot3, snapshot3Different)
    }
  }

  // FIRAggregateTests.testCountAggregateFieldQueryEquals, testSumAggregateFieldQueryEquals,
  // testAverageAggregateFieldQueryEquals
  @Test(arguments: ["count", "sum", "average"])
  func testAggregateFieldQueryEquals(_ kind: String) throws {
    try withDatabase(settings: relaxed) { db in
      let field: AggregateField
      let byPath: AggregateField
      let other: AggregateField
      switch kind {
      case "count": (field, byPath, other) = (.count(), .count(), .sum("baz"))
      case "sum": (field, byPath, other) = (.sum("baz"), .sum(FieldPath(["baz"])), .count())
      default: (field, byPath, other) = (.average("baz"), .average(FieldPath(["baz"])), .count())
      }
      let queries = equalityQueries(db, field)
      expectEqual(queries[0], queries[1])
      expectEqual(queries[0], db.collection("c").aggregate([byPath]))
      expectEqual(queries[2], queries[3])
      expectEqual(queries[4], queries[5])
      if kind == "count" {
        let sub = db.collection("c").document("bar").collection("baz")
        expectEqual(queries[2], sub.whereField("a", isEqualTo: 1).limit(to: 100).count)
        expectEqual(queries[4], sub.whereField("b", isEqualTo: 1).order(by: "c").count)
      }
      expectDifferent(queries[0], queries[2])
      expectDifferent(queries[2], queries[4])
      expectDifferent(queries[0], db.collection("c").aggregate([other]))
    }
  }

  // FIRAggregateTests.testAggregateFieldQueryNotEquals
  @Test func testAggregateFieldQueryNotEquals() throws {
    try withDatabase(settings: relaxed) { db in
      let coll = db.collection("c")
      let query1 = coll.aggregate([.count()])
      let query2 = coll.aggregate([.sum("baz")])
      let query3 = coll.aggregate([.average("baz")])
      expectDifferent(query1, query2)
      expectDifferent(query2, query3)
      expectDifferent(query3, query1)
      let baseQuery = coll.document("bar").collection("baz").whereField("a", isEqualTo: 1).limit(to: 100)
      let query4 = baseQuery.aggregate([.count()])
      let query5 = baseQuery.aggregate([.sum("baz")])
      let query6 = baseQuery.aggregate([.average("baz")])
      expectDifferent(query4, query5)
      expectDifferent(query5, query6)
      expectDifferent(query6, query4)
    }
  }

  // FIRAggregateTests.testAggregateFieldQuerySnapshotEquality
  @Test func testAggregateFieldQuerySnapshotEquality() throws {
    try withDatabase(settings: relaxed) { db in
      let c = try twoBooks(db)
      let all: [AggregateField] = [
        .count(), .sum("pages"), .sum("weight"), .average("pages"), .average("weight"),
      ]
      let snapshot1 = try run(c.aggregate(all))
      let snapshot2 = try run(c.aggregate(all))
      let snapshot3 = try run(c.aggregate(Array(all.prefix(4))))
      let snapshot4 = try run(c.whereField("pages", isGreaterThan: 50).aggregate(all))
      expectEqual(snapshot1, snapshot2)
      expectDifferent(snapshot1, snapshot3)
      expectDifferent(snapshot1, snapshot4)
      expectDifferent(snapshot3, snapshot4)
    }
  }
}
