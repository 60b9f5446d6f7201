import Foundation
import HearthCore
import Testing

@testable import HearthServer

extension ServiceTests {
  /// Firestore's backend refusals, each the status and message Google's emulator gave for
  /// the same query (RunQuery and RunAggregationQuery alike), and the queries it ran.
  @Test func queriesAreRefusedInTheBackendsWordsAsGooglesEmulatorRefusesThem() throws {
    func field(_ name: String, _ op: FilterOperator, _ value: Value) -> QueryFilter {
      .field(FieldFilter(field: FieldPath([name]), op: op, value: value))
    }
    func list(_ values: [Int]) -> Value { .array(values.map { .integer(Int64($0)) }) }
    func contains(_ name: String, _ value: Int) -> QueryFilter { field(name, .arrayContains, .integer(Int64(value))) }
    func any(_ name: String, _ values: [Int]) -> QueryFilter { field(name, .arrayContainsAny, list(values)) }
    func equal(_ name: String, _ value: Int) -> QueryFilter { field(name, .equal, .integer(Int64(value))) }
    func notEqual(_ name: String, _ value: Value) -> QueryFilter { field(name, .notEqual, value) }
    func among(_ name: String, _ values: [Int]) -> QueryFilter { field(name, .in, list(values)) }
    func notIn(_ name: String, _ values: [Int]) -> QueryFilter { field(name, .notIn, list(values)) }

    let arrays = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
    let notInWith = "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."
    let single = "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."
    let six = Array(0..<6)
    let refused: [(QueryFilter, String)] = [
      (.and([contains("tags", 1), contains("tags", 2)]), arrays),
      (.and([contains("tags", 1), contains("labels", 2)]), arrays),
      (.and([contains("tags", 1), any("tags", [2, 3])]), arrays),
      (.and([any("tags", [2, 3]), contains("tags", 1)]), arrays),
      (.and([contains("tags", 1), any("labels", [2])]), arrays),
      (.and([any("tags", [1]), any("tags", [2])]), arrays),
      (.and([any("tags", [1]), any("labels", [2])]), arrays),
      (.and([contains("tags", 1), contains("tags", 2), contains("tags", 3)]), arrays),
      (.and([contains("tags", 1), contains("labels", 2), notIn("x", [1])]), arrays),
      (.and([contains("tags", 1), contains("tags", 2), field("x", .greaterThan, .integer(1))]), arrays),
      (.and([contains("tags", 1), contains("tags", 2), field("x", .equal, .double(.nan))]), arrays),
      (.and([contains("tags", 1), .and([contains("labels", 2)])]), arrays),
      (.and([.and([contains("tags", 1)]), .and([contains("tags", 2)])]), arrays),
      (.and([contains("tags", 1), .and([contains("tags", 2), equal("x", 1)])]), arrays),
      (.or([.and([contains("tags", 1), contains("labels", 2)]), equal("x", 1)]), arrays),
      (.or([.and([contains("tags", 1), any("tags", [2])]), equal("x", 1)]), arrays),
      (.or([.and([contains("tags", 1), contains("tags", 2)]), equal("x", 1)]), arrays),
      (.and([contains("tags", 1), .or([contains("labels", 2), equal("x", 1)])]), arrays),
      (.and([any("tags", [1]), .or([contains("labels", 2), equal("x", 1)])]), arrays),
      (.and([.or([contains("tags", 1), equal("x", 1)]), .or([contains("labels", 2), equal("y", 1)])]), arrays),
      (.and([contains("tags", 1), .or([contains("labels", 2)])]), arrays),
      (.and([any("tags", [1]), .or([any("labels", [2]), equal("x", 1)])]), arrays),
      (.and([notIn("x", [1]), contains("tags", 1), contains("labels", 2)]), arrays),
      (.and([contains("tags", 1), contains("labels", 2), among("x", six), among("y", six)]), arrays),
      (.and([any("tags", [1]), notIn("x", [1])]), notInWith),
      (.and([notIn("x", [1]), any("tags", [1])]), notInWith),
      (.and([notIn("x", [1]), any("tags", [1]), any("labels", [2])]), notInWith),
      (.and([any("tags", [1]), any("labels", [2]), notIn("x", [1])]), notInWith),
      (.or([contains("tags", 1), notIn("x", [1])]), notInWith),
      (.or([.and([contains("tags", 1), notIn("x", [1])]), equal("y", 1)]), notInWith),
      (.and([notIn("x", [1]), among("y", [1])]), notInWith),
      (.and([among("y", [1]), notIn("x", [1])]), notInWith),
      (.or([notIn("x", [1]), equal("y", 1)]), notInWith),
      (.and([notIn("x", [1]), .or([equal("y", 1), equal("z", 1)])]), notInWith),
      (.or([notIn("x", [1])]), notInWith),
      (.and([notIn("x", [1]), .or([equal("y", 1)])]), notInWith),
      (.and([notIn("x", [1]), among("y", Array(0..<31))]), notInWith),
      (.and([among("x", six), among("y", six), notIn("a", [1])]), notInWith),
      (.and([notIn("x", [1]), notIn("y", [1])]), single),
      (.and([notIn("x", [1]), notEqual("y", .integer(1))]), single),
      (.and([notEqual("y", .integer(1)), notIn("x", [1])]), single),
      (.and([notIn("x", [1]), notIn("y", [1]), among("z", [1])]), single),
      (.and([among("z", [1]), notIn("x", [1]), notIn("y", [1])]), single),
      (.and([notEqual("x", .integer(1)), notEqual("y", .integer(1))]), single),
      (.and([notEqual("x", .null), notEqual("y", .integer(1))]), single),
      (
        .and([notEqual("x", .integer(1)), notEqual("y", .integer(1)), contains("tags", 1), contains("labels", 2)]),
        single
      ),
      (.or([notEqual("x", .integer(1)), notEqual("y", .integer(1))]), single),
      (.and([notEqual("x", .integer(1)), notEqual("y", .integer(1)), among("z", Array(0..<31))]), single),
      (.and([among("x", six), among("y", six), notEqual("a", .integer(1)), notEqual("b", .integer(1))]), single),
      (
        .and([contains("tags", 1), contains("labels", 2), among("x", Array(0..<31))]),
        "'IN' supports up to 30 comparison values."
      ),
      (
        .and([contains("tags", 1), contains("labels", 2), any("z", Array(0..<31))]),
        "'ARRAY_CONTAINS_ANY' supports up to 30 comparison values."
      ),
      (any("tags", Array(0..<31)), "'ARRAY_CONTAINS_ANY' supports up to 30 comparison values."),
      (notIn("x", Array(0..<11)), "'NOT_IN' supports up to 10 comparison values."),
      (among("x", []), "'IN' requires an non-empty ArrayValue."),
      (any("x", []), "'ARRAY_CONTAINS_ANY' requires an non-empty ArrayValue."),
      (notIn("x", []), "'NOT_IN' requires an non-empty ArrayValue."),
      (field("x", .in, .integer(1)), "'IN' requires an ArrayValue."),
      (field("x", .notIn, .integer(1)), "'NOT_IN' requires an ArrayValue."),
      (field("x", .arrayContainsAny, .integer(1)), "'ARRAY_CONTAINS_ANY' requires an ArrayValue."),
      (.and([notIn("x", [1]), notIn("y", [1]), among("z", [])]), single),
      (.and([contains("t", 1), contains("l", 1), among("z", [])]), "'IN' requires an non-empty ArrayValue."),
      (.and([among("x", Array(0..<31)), among("z", [])]), "'IN' supports up to 30 comparison values."),
      (.and([among("z", []), among("x", Array(0..<31))]), "'IN' requires an non-empty ArrayValue."),
      (field("__name__", .arrayContains, .integer(1)), "the name __key__ is reserved"),
      (field("__name__", .arrayContainsAny, list([1])), "the name __key__ is reserved"),
      (.or([field("__name__", .arrayContains, .integer(1)), equal("x", 1)]), "the name __key__ is reserved"),
      (
        .and([field("__name__", .arrayContains, .integer(1)), among("x", six), among("y", six)]),
        "the name __key__ is reserved"
      ),
      (.and([field("__name__", .arrayContains, .integer(1)), contains("tags", 1)]), arrays),
      (
        .and([field("__name__", .arrayContains, .integer(1)), among("z", [])]), "'IN' requires an non-empty ArrayValue."
      ),
      (.and([field("__name__", .arrayContainsAny, list([1])), notIn("x", [1])]), notInWith),
      (
        .and([notEqual("a", .integer(1)), notEqual("b", .integer(1)), field("__name__", .arrayContains, .integer(1))]),
        single
      ),
      (
        .and([among("x", six), among("y", six)]),
        "Too many disjunctions after normalization. Result had 36 disjunctions which is more than the maximum of 30"
      ),
    ]
    // Documents a (tags [1, 2], labels [2], x 1, y 1) and b (tags [3], x 2, y 0).
    let ran: [(QueryFilter, [String])] = [
      (contains("tags", 1), ["c/a"]),
      (.and([contains("tags", 1), field("tags", .in, .array([list([1]), list([1, 2])]))]), ["c/a"]),
      (.and([contains("tags", 1), among("x", [1, 2])]), ["c/a"]),
      (.and([any("tags", [1]), among("x", [1, 2])]), ["c/a"]),
      (.and([contains("tags", 1), notIn("x", [3])]), ["c/a"]),
      (.and([notIn("x", [3]), contains("tags", 1)]), ["c/a"]),
      (.and([contains("tags", 1), notEqual("x", .integer(2))]), ["c/a"]),
      (.and([contains("tags", 3), field("x", .greaterThan, .integer(1))]), ["c/b"]),
      (.and([notIn("x", [3]), field("y", .greaterThan, .integer(0))]), ["c/a"]),
      (.or([contains("tags", 1), contains("tags", 2)]), ["c/a"]),
      (.or([contains("tags", 1), contains("labels", 2)]), ["c/a"]),
      (.or([contains("tags", 1), any("tags", [2, 3])]), ["c/a", "c/b"]),
      (.or([any("tags", [1]), any("labels", [2])]), ["c/a"]),
      (.or([contains("tags", 1), among("x", [1, 2])]), ["c/a", "c/b"]),
      (.or([.and([contains("tags", 1), equal("x", 1)]), .and([contains("labels", 2), equal("y", 1)])]), ["c/a"]),
      (.and([contains("tags", 1), .or([equal("x", 1), equal("y", 1)])]), ["c/a"]),
      (.or([contains("tags", 3), .or([contains("labels", 2), equal("x", 1)])]), ["c/a", "c/b"]),
      (.or([contains("tags", 1)]), ["c/a"]),
      (.or([.and([contains("tags", 1), among("x", [1, 2])]), equal("y", 0)]), ["c/a", "c/b"]),
      (.and([contains("tags", 1), .or([among("x", [1, 2]), equal("y", 1)])]), ["c/a"]),
      (.or([contains("tags", 1), any("labels", [2]), equal("x", 2)]), ["c/a", "c/b"]),
      (notIn("x", Array(0..<10)), []),
      (among("x", Array(0..<30)), ["c/a", "c/b"]),
    ]
    try withService { service in
      _ = try commit(
        service,
        [
          Write(
            key: try key("c/a"),
            kind: .set([
              "tags": list([1, 2]), "labels": list([2]), "x": .integer(1), "y": .integer(1),
            ])),
          Write(key: try key("c/b"), kind: .set(["tags": list([3]), "x": .integer(2), "y": .integer(0)])),
        ])
      func run(_ filter: QueryFilter) throws -> [String] {
        names(
          try service.runQuery(
            FirestoreV1.RunQueryRequest(database: Self.database, query: query("c", filters: [filter]))))
      }
      func count(_ filter: QueryFilter) throws -> Value? { try self.count(service, query("c", filters: [filter])) }
      for (index, (filter, message)) in refused.enumerated() {
        let queried = #expect(throws: HearthError.self, "refused case \(index)") { try run(filter) }
        #expect(queried?.code == .invalidArgument, "refused case \(index)")
        #expect(queried?.message == message, "refused case \(index)")
        let counted = #expect(throws: HearthError.self, "refused case \(index), counted") { try count(filter) }
        #expect(counted?.code == .invalidArgument, "refused case \(index), counted")
        #expect(counted?.message == message, "refused case \(index), counted")
      }
      for (index, (filter, expected)) in ran.enumerated() {
        #expect(try run(filter) == expected, "run case \(index)")
        #expect(try count(filter) == .integer(Int64(expected.count)), "run case \(index), counted")
      }
    }
  }

  /// A Listen target hears the rule on array filters otherwise: Google's emulator removes
  /// it with FAILED_PRECONDITION and its own words, after the disjunction count (the other
  /// rules read as RunQuery's).
  @Test func aListenTargetHearsTheArrayFilterRuleAsTheEmulatorSaysIt() throws {
    func contains(_ name: String, _ value: Int64) -> QueryFilter {
      .field(FieldFilter(field: FieldPath([name]), op: .arrayContains, value: .integer(value)))
    }
    func among(_ name: String, _ count: Int64) -> QueryFilter {
      .field(FieldFilter(field: FieldPath([name]), op: .in, value: .array((0..<count).map { .integer($0) })))
    }
    func refusal(_ filters: [QueryFilter], listening: Bool) -> HearthError? {
      #expect(throws: HearthError.self) {
        try FirestoreService.checkedModel(query("c", filters: filters), listening: listening)
      }
    }
    let two = [contains("tags", 1), contains("labels", 2)]
    let listened = refusal(two, listening: true)
    #expect(listened?.code == .failedPrecondition)
    #expect(listened?.message == "Only a single array-contains clause is allowed in a query")
    let queried = refusal(two, listening: false)
    #expect(queried?.code == .invalidArgument)
    #expect(queried?.message == "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
    let tooMany =
      "Too many disjunctions after normalization. Result had 36 disjunctions which is more than the maximum of 30"
    let both = two + [among("x", 6), among("y", 6)]
    #expect(refusal(both, listening: true)?.message == tooMany)
    #expect(refusal(both, listening: false)?.message == queried?.message)
    let oneEach = QueryFilter.or([contains("tags", 1), contains("labels", 2)])
    #expect(throws: Never.self) { try FirestoreService.checkedModel(query("c", filters: [oneEach]), listening: true) }
  }

  /// A field ordered twice, as the Python client sends it for a snapshot cursor under two
  /// inequality filters on one field: Google's emulator refuses it with INVALID_ARGUMENT
  /// in these words (RunQuery, aggregations and Listen targets alike), after its filter
  /// rules.
  @Test func aFieldOrderedTwiceIsRefusedInTheEmulatorsWords() throws {
    let x = FieldPath(["x"])
    let twice = [OrderBy(field: x, descending: false), OrderBy(field: x, descending: true)]
    for listening in [false, true] {
      let refused = #expect(throws: HearthError.self) {
        try FirestoreService.checkedModel(query("c", orders: twice), listening: listening)
      }
      #expect(refused?.code == .invalidArgument)
      #expect(refused?.message == "order by clause cannot contain duplicate fields x")
    }
    let emptyIn = QueryFilter.field(FieldFilter(field: x, op: .in, value: .array([])))
    let first = #expect(throws: HearthError.self) {
      try FirestoreService.checkedModel(query("c", filters: [emptyIn], orders: twice))
    }
    #expect(first?.message == "'IN' requires an non-empty ArrayValue.")
    let counted = #expect(throws: HearthError.self) {
      try FirestoreService.checkedModel(query("c", orders: twice), aggregating: true)
    }
    #expect(counted?.message == "order by clause cannot contain duplicate fields x")
    #expect(throws: Never.self) {
      try FirestoreService.checkedModel(query("c", orders: [OrderBy(field: x, descending: false)]))
    }
  }

  /// Values compared with `__name__` must be references (Google's Python client sends a
  /// plain ID given to a filter as a string), and Google's emulator does not scan names in
  /// descending order: its refusals, in its order (the filter rules, then a cursor's
  /// value, then the filters' values, then the scan), for RunQuery and aggregations; a
  /// Listen target hears none of them.
  @Test func valuesComparedWithNamesAndDescendingNameScansAreRefusedAsTheEmulatorRefusesThem() throws {
    let name = FieldPath.documentID()
    let a = FieldPath(["a"])
    let d1 = Value.reference(try key("c/d1"))
    func filter(_ field: FieldPath, _ op: FilterOperator, _ value: Value) -> QueryFilter {
      .field(FieldFilter(field: field, op: op, value: value))
    }
    func order(_ field: FieldPath, descending: Bool = false) -> OrderBy {
      OrderBy(field: field, descending: descending)
    }
    func refusal(_ query: FirestoreV1.StructuredQuery, listened: Bool = true) -> HearthError? {
      if listened {
        #expect(throws: Never.self, "a Listen target") { try FirestoreService.checkedModel(query, listening: true) }
      }
      let counted = try? FirestoreService.checkedModel(query, aggregating: true)
      let queried = #expect(throws: HearthError.self) { try FirestoreService.checkedModel(query) }
      #expect(counted == nil, "an aggregation is refused alike")
      return queried
    }
    let notAKey = "__key__ filter value must be a Key"
    for value in [Value.string("d1"), .integer(1), .null] {
      // (Null is compared by equality alone: the client refuses the rest.)
      for op in [FilterOperator.equal, .notEqual, .lessThan, .greaterThanOrEqual] where value != .null || !op.isRange {
        #expect(refusal(query("c", filters: [filter(name, op, value)]))?.message == notAKey)
      }
    }
    #expect(refusal(query("c", filters: [filter(name, .in, .array([d1, .string("d2")]))]))?.message == notAKey)
    #expect(refusal(query("c", filters: [filter(name, .notIn, .array([.string("d2")]))]))?.message == notAKey)
    #expect(
      refusal(query("c", filters: [.or([filter(a, .equal, .integer(1)), filter(name, .equal, .string("d1"))])]))?
        .message == notAKey)
    #expect(
      refusal(
        query("c", filters: [filter(name, .equal, .string("d1")), filter(a, .in, .array([]))]), listened: false)?
        .message == "'IN' requires an non-empty ArrayValue.")

    let keyEquality =
      "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities."
    let b = FieldPath(["b"])
    let equalities = [filter(name, .equal, d1), filter(a, .equal, .integer(1))]
    #expect(
      refusal(query("c", filters: equalities + [filter(b, .greaterThan, .integer(0))]), listened: false)?.message
        == keyEquality, "beside an equality on another field too")
    #expect(
      refusal(
        query("c", filters: [filter(name, .in, .array([d1])), filter(b, .notEqual, .integer(0))]), listened: false)?
        .message == keyEquality, "the SDKs' rule, in the backend's words")
    #expect(throws: Never.self, "with an inequality on __name__ too") {
      try FirestoreService.checkedModel(
        query(
          "c",
          filters: equalities + [
            filter(b, .greaterThan, .integer(0)), filter(name, .greaterThan, .reference(try key("c/d0"))),
          ]))
    }

    let cursor = "Cursor __key__ value is not a document reference."
    var byName = query("c", filters: [filter(name, .equal, .string("d1"))], orders: [order(name)])
    byName.model.startAt = Bound(values: [.integer(1)], inclusive: true)
    #expect(refusal(byName)?.message == cursor, "before the filters' values")
    var byA = query("c", orders: [order(a)])
    byA.model.endAt = Bound(values: [.integer(1), .null], inclusive: false)
    #expect(refusal(byA)?.message == cursor, "at the implicit __name__'s place")
    byA.model.endAt = Bound(values: [.integer(1)], inclusive: false)
    #expect(throws: Never.self) { try FirestoreService.checkedModel(byA) }

    let scan = "Firestore does not support descending key scans"
    for filters in [[], [filter(name, .equal, d1)], [filter(name, .greaterThan, d1)]] {
      let refused = refusal(query("c", filters: filters, orders: [order(name, descending: true)]))
      #expect(refused?.code == .failedPrecondition)
      #expect(refused?.message == scan)
    }
    #expect(refusal(query("items", orders: [order(name, descending: true)], group: true))?.message == scan)
    #expect(
      refusal(query("c", filters: [filter(name, .equal, .integer(3))], orders: [order(name, descending: true)]))?
        .message == notAKey, "the values first")
    for (filters, orders) in [
      ([filter(a, .equal, .integer(1))], [order(name, descending: true)]),
      ([filter(a, .in, .array([.integer(1)]))], [order(name, descending: true)]),
      ([], [order(a), order(name, descending: true)]),
      ([filter(name, .equal, d1)], [order(name)]),
    ] {
      #expect(throws: Never.self) { try FirestoreService.checkedModel(query("c", filters: filters, orders: orders)) }
    }
  }

  /// An aggregation with an offset covers what one without covers: when it sums or
  /// averages, only the documents that have every aggregated field (read in the first's
  /// order when the query has no order of its own), then the offset and the limit, as Google's
  /// emulator counts them (differential seed 9).
  @Test func anAggregationWithAnOffsetCoversTheDocumentsWithItsFields() throws {
    try withService { service in
      _ = try commit(
        service,
        [
          Write(key: try key("c/d7"), kind: .set(["a": .integer(2)])),
          Write(key: try key("c/d8"), kind: .set(["a": .integer(1)])),
          Write(key: try key("c/d9"), kind: .set(["s": .integer(7)])),
        ])
      let a = FieldPath(["a"])
      func aggregate(offset: Int32, limit: Int? = nil, _ functions: [AggregateFunction]) throws -> [Value?] {
        let response = try service.runAggregationQuery(
          FirestoreV1.RunAggregationQueryRequest(
            database: Self.database,
            query: FirestoreV1.StructuredAggregationQuery(
              query: query("c", limit: limit, offset: offset),
              aggregations: functions.enumerated().map { .init(function: $1, alias: "f\($0)") })))
        return functions.indices.map { response.first?.result?["f\($0)"] }
      }
      #expect(try aggregate(offset: 1, [.count]) == [.integer(2)])
      #expect(
        try aggregate(offset: 1, [.count, .sum(a)]) == [.integer(1), .integer(2)],
        "in a's order (d8, d7), d9 without it")
      #expect(
        try aggregate(offset: 1, limit: 1, [.count, .sum(a)]) == [.integer(1), .integer(2)], "in a's order: d8, d7")
      #expect(try aggregate(offset: 2, [.count, .average(a)]) == [.integer(0), .null])
    }
  }

  /// A reserved name (`__x__`) in a field path that a read names (a filter, an order, a
  /// projection, an aggregation, a document mask) is refused before any other rule, in
  /// Google's emulator's words; `__name__` inside a path by its Datastore name.
  @Test func reservedNamesInTheFieldPathsOfReadsAreRefusedFirst() throws {
    let reserved = FieldPath(["m", "__x__"])
    let message = "Invalid reserved name in field path __x__"
    func equal(_ path: FieldPath) -> QueryFilter { .field(FieldFilter(field: path, op: .equal, value: .integer(1))) }
    func refused(_ query: FirestoreV1.StructuredQuery) -> String? {
      (#expect(throws: HearthError.self) { try FirestoreService.checkedModel(query) })?.message
    }
    let emptyIn = QueryFilter.field(FieldFilter(field: FieldPath(["a"]), op: .in, value: .array([])))
    #expect(refused(query("c", filters: [equal(reserved)])) == message)
    #expect(refused(query("c", filters: [emptyIn, equal(reserved)])) == message, "before the filter rules")
    #expect(refused(query("c", orders: [OrderBy(field: reserved, descending: false)])) == message)
    #expect(refused(query("c", select: [reserved])) == message)
    #expect(refused(query("c", filters: [equal(FieldPath(["m", "__name__"]))])) == "the name __key__ is reserved")
    for allowed in ["__x", "x__", "___", "__"] {
      #expect(throws: Never.self) {
        try FirestoreService.checkedModel(query("c", filters: [equal(FieldPath([allowed]))]))
      }
    }
    try withService { service in
      let summed = #expect(throws: HearthError.self) {
        try service.runAggregationQuery(
          FirestoreV1.RunAggregationQueryRequest(
            database: Self.database,
            query: FirestoreV1.StructuredAggregationQuery(
              query: query("c"), aggregations: [FirestoreV1.Aggregation(function: .sum(reserved), alias: "s")])))
      }
      #expect(summed?.message == message)
      let masked = #expect(throws: HearthError.self) {
        try service.getDocument(
          FirestoreV1.GetDocumentRequest(
            database: Self.database, key: try key("c/d"), mask: FirestoreV1.DocumentMask(fieldPaths: [reserved])))
      }
      #expect(masked?.message == message, "before the document is looked for")
    }
  }

  /// A value a filter looks up must fit an index entry: over 1,500 bytes by Firestore's
  /// size rules (a string's UTF-8 bytes + 1, bytes their count, an array its elements'
  /// sum) Google's emulator refuses it, naming the field; a cursor's value is not checked.
  @Test func filterValuesOverFifteenHundredBytesAreRefusedAsTheEmulatorRefusesThem() throws {
    let k = FieldPath(["k"])
    func filter(_ op: FilterOperator, _ value: Value) -> QueryFilter {
      .field(FieldFilter(field: k, op: op, value: value))
    }
    func refusal(_ filter: QueryFilter) -> String? {
      #expect(throws: Never.self, "a Listen target") {
        try FirestoreService.checkedModel(query("c", filters: [filter]), listening: true)
      }
      return (#expect(throws: HearthError.self) { try FirestoreService.checkedModel(query("c", filters: [filter])) })?
        .message
    }
    let big = Value.string(String(repeating: "a", count: 1500))
    let tooLarge = "value for k is too large to be used in a query"
    #expect(refusal(filter(.equal, big)) == tooLarge)
    #expect(refusal(filter(.greaterThan, big)) == tooLarge)
    #expect(refusal(filter(.in, .array([.integer(1), big]))) == tooLarge)
    #expect(refusal(filter(.arrayContains, big)) == "value for k[*] is too large to be used in a query")
    let halves = Value.array([.string(String(repeating: "a", count: 800)), .string(String(repeating: "b", count: 800))])
    #expect(refusal(filter(.equal, halves)) == tooLarge)
    for fits in [
      Value.string(String(repeating: "a", count: 1499)), .bytes(Data(repeating: 1, count: 1500)),
      .array(Array(repeating: .string(String(repeating: "a", count: 700)), count: 2)),
    ] {
      #expect(throws: Never.self) { try FirestoreService.checkedModel(query("c", filters: [filter(.equal, fits)])) }
    }
    var cursor = query("c", orders: [OrderBy(field: k, descending: false)])
    cursor.model.startAt = Bound(values: [big], inclusive: true)
    #expect(throws: Never.self) { try FirestoreService.checkedModel(cursor) }
  }

  /// A name with a reserved ID (`__x__`) is refused when read (a document, a query's or a
  /// listing's collection, a parent), in Google's emulator's words.
  @Test func readsOfReservedIDsAreRefused() throws {
    try withService { service in
      let got = #expect(throws: HearthError.self) {
        try service.getDocument(
          FirestoreV1.GetDocumentRequest(database: Self.database, key: DocumentKey(ResourcePath(["c", "__x__"]))))
      }
      #expect(got?.code == .invalidArgument)
      #expect(got?.message == "Resource id \"__x__\" is invalid because it is reserved.")
      let batched = #expect(throws: HearthError.self) {
        try service.batchGetDocuments(
          FirestoreV1.BatchGetDocumentsRequest(
            database: Self.database, documents: [try key("c/a"), DocumentKey(ResourcePath(["__x__", "d"]))]))
      }
      #expect(batched?.message == "Collection id \"__x__\" is invalid because it is reserved.")
      #expect(throws: Never.self) {
        try service.batchGetDocuments(
          FirestoreV1.BatchGetDocumentsRequest(
            database: Self.database,
            documents: ["__x", "__id7__", "__id-7__"].map { DocumentKey(ResourcePath(["c", $0])) }))
      }
      #expect(throws: HearthError.self, "a collection's numeric-looking ID is still reserved") {
        try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: query("__id7__")))
      }
      let collection = "Collection id \"__x__\" is invalid because it is reserved."
      let queried = #expect(throws: HearthError.self) {
        try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: query("__x__")))
      }
      #expect(queried?.message == collection)
      let grouped = #expect(throws: HearthError.self) {
        try service.runQuery(FirestoreV1.RunQueryRequest(database: Self.database, query: query("__x__", group: true)))
      }
      #expect(grouped?.message == collection)
      let listed = #expect(throws: HearthError.self) {
        try service.listDocuments(
          FirestoreV1.ListDocumentsRequest(database: Self.database, parent: .root, collectionID: "__x__"))
      }
      #expect(listed?.message == collection)
      let under = #expect(throws: HearthError.self) {
        try service.listCollectionIDs(
          FirestoreV1.ListCollectionIdsRequest(database: Self.database, parent: ResourcePath(["c", "__x__"])))
      }
      #expect(under?.message == "Resource id \"__x__\" is invalid because it is reserved.")
    }
  }
}

extension ServiceTests {
  func aggregate(_ service: FirestoreService, _ aggregations: [FirestoreV1.Aggregation], select: [FieldPath]? = nil)
    throws -> [String: Value]
  {
    try service.runAggregationQuery(
      FirestoreV1.RunAggregationQueryRequest(
        database: Self.database,
        query: FirestoreV1.StructuredAggregationQuery(query: query("c", select: select), aggregations: aggregations))
    ).first?.result ?? [:]
  }

  /// What Google's emulator refuses of aggregations, batch writes and listings, with its
  /// status codes (found by probing both servers with Google's Python client).
  @Test func aggregationsBatchWritesAndListingsAreRefusedAsTheEmulatorRefusesThem() throws {
    try withService { service in
      _ = try commit(service, [Write(key: try key("c/d"), kind: .set(["v": .integer(1), "i": .integer(2)]))])
      let v = FieldPath(["v"])
      let reserved = #expect(throws: HearthError.self) {
        try aggregate(service, [FirestoreV1.Aggregation(function: .count, alias: "__x__")])
      }
      #expect(reserved?.code == .invalidArgument && reserved?.message == #"The property.name "__x__" is reserved."#)
      let six = (0..<6).map { FirestoreV1.Aggregation(function: .count, alias: "a\($0)") }
      #expect(#expect(throws: HearthError.self) { try aggregate(service, six) }?.code == .unknown)
      #expect(try aggregate(service, Array(six.prefix(5))).count == 5)
      for function in [AggregateFunction.sum(.documentID()), .average(.documentID())] {
        let name = #expect(throws: HearthError.self) {
          try aggregate(service, [FirestoreV1.Aggregation(function: function, alias: "s")])
        }
        #expect(name?.code == .invalidArgument)
        #expect(name?.message == "Aggregations are not supported for the property: __key__")
      }
      let sum = [FirestoreV1.Aggregation(function: .sum(v), alias: "s")]
      let masked = #expect(throws: HearthError.self) { try aggregate(service, sum, select: [FieldPath(["i"])]) }
      #expect(masked?.message == "The aggregation property v is not present in the base query's property mask.")
      #expect(try aggregate(service, sum, select: [v])["s"] == .integer(1))
      let counted = [FirestoreV1.Aggregation(function: .count, alias: "n")]
      #expect(try aggregate(service, counted, select: [FieldPath(["i"])])["n"] == .integer(1))

      // A batch write naming one document twice writes nothing.
      let twice = #expect(throws: HearthError.self) {
        try service.batchWrite(
          FirestoreV1.BatchWriteRequest(
            database: Self.database,
            writes: [
              FirestoreV1.Write(Write(key: try key("c/g"), kind: .set(["a": .integer(1)]))),
              FirestoreV1.Write(Write(key: try key("c/g"), kind: .set(["b": .integer(2)]))),
            ]))
      }
      #expect(twice?.code == .invalidArgument)
      #expect(twice?.message == "the same document cannot be written more than once in a single request")
      #expect(try count(service, query("c")) == .integer(1))

      // A commit of no writes has no commit time; one of a write has.
      #expect(try commit(service, []).commitTime == nil)
      #expect(try commit(service, [Write(key: try key("c/e"), kind: .set([:]))]).commitTime != nil)

      let slash = #expect(throws: HearthError.self) {
        try service.listDocuments(
          FirestoreV1.ListDocumentsRequest(database: Self.database, parent: .root, collectionID: "a/b"))
      }
      #expect(slash?.code == .invalidArgument)
      #expect(slash?.message == #"Collection id "a/b" is invalid because it contains "/"."#)
    }
  }
}
