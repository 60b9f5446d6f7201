import Foundation
import HearthCore
import HearthServer

/// The messages of Python/wire_cases.py, by the same names, as Swift builds them from
/// HearthCore's values: each must encode to exactly the bytes Python serializes, and each
/// of Python's decodes back to it.
enum WireCases {
  static let database = DatabaseName(projectID: "demo-proj", databaseID: "(default)")

  static func key(_ path: String) -> DocumentKey {
    DocumentKey(ResourcePath(path.split(separator: "/").map(String.init)))
  }

  static func path(_ path: String) -> ResourcePath { ResourcePath(path.split(separator: "/").map(String.init)) }

  static func ts(_ seconds: Int64, _ nanos: Int32 = 0) -> Timestamp { Timestamp(seconds: seconds, nanoseconds: nanos) }

  static func field(_ canonical: String) -> FieldPath { try! FieldPath.parse(canonical: canonical) }

  static func ref(_ path: String) -> Value { .reference(key(path)) }

  /// The decoder of each case type, by the name the Python script uses.
  static let decoders: [String: @Sendable ([UInt8]) throws -> any WireMessage] = [
    "Value": { try Value(protobuf: $0, database: database) },
    "Document": { try FirestoreV1.Document(protobuf: $0, database: database) },
    "DocumentMask": { try FirestoreV1.DocumentMask(protobuf: $0, database: database) },
    "Precondition": { try FirestoreV1.Precondition(protobuf: $0, database: database) },
    "Write": { try FirestoreV1.Write(protobuf: $0, database: database) },
    "WriteResult": { try FirestoreV1.WriteResult(protobuf: $0, database: database) },
    "CommitRequest": { try FirestoreV1.CommitRequest(protobuf: $0) },
    "CommitResponse": { try FirestoreV1.CommitResponse(protobuf: $0, database: database) },
    "BatchWriteRequest": { try FirestoreV1.BatchWriteRequest(protobuf: $0) },
    "BatchWriteResponse": { try FirestoreV1.BatchWriteResponse(protobuf: $0, database: database) },
    "BatchGetDocumentsRequest": { try FirestoreV1.BatchGetDocumentsRequest(protobuf: $0) },
    "BatchGetDocumentsResponse": { try FirestoreV1.BatchGetDocumentsResponse(protobuf: $0, database: database) },
    "GetDocumentRequest": { try FirestoreV1.GetDocumentRequest(protobuf: $0) },
    "ListDocumentsRequest": { try FirestoreV1.ListDocumentsRequest(protobuf: $0) },
    "ListDocumentsResponse": { try FirestoreV1.ListDocumentsResponse(protobuf: $0, database: database) },
    "ListCollectionIdsRequest": { try FirestoreV1.ListCollectionIdsRequest(protobuf: $0) },
    "ListCollectionIdsResponse": { try FirestoreV1.ListCollectionIdsResponse(protobuf: $0, database: database) },
    "CreateDocumentRequest": { try FirestoreV1.CreateDocumentRequest(protobuf: $0) },
    "UpdateDocumentRequest": { try FirestoreV1.UpdateDocumentRequest(protobuf: $0) },
    "DeleteDocumentRequest": { try FirestoreV1.DeleteDocumentRequest(protobuf: $0) },
    "BeginTransactionRequest": { try FirestoreV1.BeginTransactionRequest(protobuf: $0) },
    "BeginTransactionResponse": { try FirestoreV1.BeginTransactionResponse(protobuf: $0, database: database) },
    "RollbackRequest": { try FirestoreV1.RollbackRequest(protobuf: $0) },
    "RunQueryRequest": { try FirestoreV1.RunQueryRequest(protobuf: $0) },
    "RunQueryResponse": { try FirestoreV1.RunQueryResponse(protobuf: $0, database: database) },
    "RunAggregationQueryRequest": { try FirestoreV1.RunAggregationQueryRequest(protobuf: $0) },
    "RunAggregationQueryResponse": { try FirestoreV1.RunAggregationQueryResponse(protobuf: $0, database: database) },
    "PartitionQueryRequest": { try FirestoreV1.PartitionQueryRequest(protobuf: $0) },
    "PartitionQueryResponse": { try FirestoreV1.PartitionQueryResponse(protobuf: $0, database: database) },
    "ListenRequest": { try FirestoreV1.ListenRequest(protobuf: $0) },
    "ListenResponse": { try FirestoreV1.ListenResponse(protobuf: $0, database: database) },
  ]

  /// The Swift type name each case's message has, to check the table against the script.
  static func typeName(_ message: any WireMessage) -> String {
    String(describing: type(of: message)).split(separator: ".").last.map(String.init) ?? ""
  }

  static let everyTransform: [FieldTransform] = [
    FieldTransform(path: field("t"), operation: .serverTimestamp),
    FieldTransform(path: field("n.i"), operation: .increment(.integer(1))),
    FieldTransform(path: field("n.d"), operation: .increment(.double(-2.5))),
    FieldTransform(path: field("max"), operation: .maximum(.integer(10))),
    FieldTransform(path: field("min"), operation: .minimum(.double(-1.0))),
    FieldTransform(path: FieldPath(["a b"]), operation: .arrayUnion([.integer(1), .string("x")])),
    FieldTransform(path: field("r"), operation: .arrayRemove([.null, .integer(2)])),
  ]

  static func filter(_ path: String, _ op: FilterOperator, _ value: Value) -> QueryFilter {
    .field(FieldFilter(field: field(path), op: op, value: value))
  }

  static func query(
    _ parent: String, _ collection: String, allDescendants: Bool = false,
    _ build: (inout FirestoreV1.StructuredQuery) -> Void = { _ in }
  ) -> FirestoreV1.StructuredQuery {
    let parentPath = path(parent)
    var query = FirestoreV1.StructuredQuery(
      model: QueryModel(target: allDescendants ? .group(collection) : .collection(parentPath.appending(collection))),
      parent: parentPath, collectionID: collection, allDescendants: allDescendants)
    build(&query)
    return query
  }

  static func document(
    _ path: String, _ fields: [String: Value], _ create: Timestamp? = nil, _ update: Timestamp? = nil
  ) -> FirestoreV1.Document {
    FirestoreV1.Document(key: key(path), fields: fields, createTime: create, updateTime: update)
  }

  static func write(_ write: HearthCore.Write, _ precondition: FirestoreV1.Precondition? = nil) -> FirestoreV1.Write {
    FirestoreV1.Write(write, currentDocument: precondition)
  }

  // swift-format-ignore
  static let all: [String: any WireMessage] = {
    var cases: [String: any WireMessage] = [
      "value-null": Value.null,
      "value-true": Value.boolean(true),
      "value-false": Value.boolean(false),
      "value-int-zero": Value.integer(0),
      "value-int-min": Value.integer(.min),
      "value-int-max": Value.integer(.max),
      "value-int-minus-one": Value.integer(-1),
      "value-double-nan": Value.double(.nan),
      "value-double-negative-zero": Value.double(-0.0),
      "value-double-zero": Value.double(0),
      "value-double-infinity": Value.double(.infinity),
      "value-double-negative-infinity": Value.double(-.infinity),
      "value-double-tiny": Value.double(.leastNonzeroMagnitude),
      "value-double-pi": Value.double(3.141592653589793),
      "value-timestamp-nanos": Value.timestamp(ts(1_764_410_400, 123_456_789)),
      "value-timestamp-epoch": Value.timestamp(ts(0)),
      "value-timestamp-min": Value.timestamp(ts(-62_135_596_800)),
      "value-timestamp-max": Value.timestamp(ts(253_402_300_799, 999_999_999)),
      "value-timestamp-before-epoch": Value.timestamp(ts(-1, 5)),
      "value-string-empty": Value.string(""),
      "value-string-unicode": Value.string("h\u{E9}llo \u{1F525} \u{0} e\u{301}"),
      "value-bytes-empty": Value.bytes(Data()),
      "value-bytes": Value.bytes(Data([0, 1, 0x7F, 0x80, 0xFF])),
      "value-reference": ref("users/alice/posts/p1"),
      "value-geo-point": Value.geoPoint(GeoPoint(latitude: 37.7749, longitude: -122.4194)),
      "value-geo-point-zero": Value.geoPoint(GeoPoint(latitude: 0, longitude: 0)),
      "value-geo-point-negative-zero": Value.geoPoint(GeoPoint(latitude: -0.0, longitude: 180)),
      "value-array-empty": Value.array([]),
      "value-array-mixed": Value.array([
        .integer(1), .double(2.5), .string("x"), .null, .map(["k": .array([.boolean(true)])]), .bytes(Data([0])),
      ]),
      "value-map-empty": Value.map([:]),
      "value-map-nested": Value.map([
        "": .string("empty key"), "\u{E9}": .integer(1),
        "\u{1F600}": .map(["deep": .map(["deeper": .array([.integer(1), .map(["deepest": .null])])])]),
        "b": .integer(2), "a": .integer(3), "Z": .integer(4), "aa": .integer(5), "a.b": .integer(6), "`q`": .integer(7),
      ]),
      "value-unknown-fields": Value.map(["x": .integer(1)]),

      "document-full": document(
        "users/alice",
        ["name": .string("Alice"), "age": .integer(30), "tags": .array([.string("a"), .string("b")]),
          "address": .map(["city": .string("Madrid")])],
        ts(1_764_410_400, 1000), ts(1_764_410_401, 999_999_000)),
      "document-empty": document("c/d", [:]),
      "document-deep": document("a/b/c/d/e/f", ["x": ref("a/b")]),
      "mask": FirestoreV1.DocumentMask(fieldPaths: [
        field("a"), field("a.b"), FieldPath(["x.y", "z"]), FieldPath(["with space"]), .documentID(),
      ]),
      "precondition-exists": FirestoreV1.Precondition.exists(true),
      "precondition-not-exists": FirestoreV1.Precondition.exists(false),
      "precondition-update-time": FirestoreV1.Precondition.updateTime(ts(1_764_410_400, 5000)),

      "write-set": write(
        HearthCore.Write(key: key("cities/SF"), kind: .set(["pop": .integer(860000), "name": .string("San Francisco")]))),
      "write-patch": write(
        HearthCore.Write(
          key: key("cities/SF"),
          kind: .patch(fields: ["pop": .integer(1), "a": .map(["b": .integer(2)])], mask: [field("pop"), field("a.b"), field("gone")])),
        .exists(true)),
      "write-create": write(HearthCore.Write(key: key("cities/LA"), kind: .set(["x": .integer(1)])), .exists(false)),
      "write-delete": write(HearthCore.Write(key: key("cities/SF"), kind: .delete)),
      "write-delete-update-time": write(
        HearthCore.Write(key: key("cities/SF"), kind: .delete), .updateTime(ts(1_764_410_400, 123_000))),
      "write-update-transforms": write(
        HearthCore.Write(
          key: key("cities/SF"), kind: .patch(fields: ["x": .integer(1)], mask: [field("x")]), transforms: everyTransform),
        .exists(true)),
      "write-transform": FirestoreV1.Write(
        HearthCore.Write(key: key("cities/SF"), kind: .patch(fields: [:], mask: []), transforms: everyTransform),
        operation: .transform),
      "write-result": FirestoreV1.WriteResult(
        updateTime: ts(1_764_410_400, 1000), transformResults: [.timestamp(ts(1)), .integer(5)]),
      "write-result-empty": FirestoreV1.WriteResult(updateTime: nil),
    ]

    cases.merge([
      "commit-request": FirestoreV1.CommitRequest(
        database: database,
        writes: [
          write(HearthCore.Write(key: key("cities/SF"), kind: .set(["pop": .integer(1)]))),
          write(HearthCore.Write(key: key("cities/LA"), kind: .delete)),
        ]),
      "commit-request-unknown-fields": FirestoreV1.CommitRequest(
        database: database,
        writes: [
          write(HearthCore.Write(key: key("cities/SF"), kind: .set(["pop": .integer(1)]))),
          write(HearthCore.Write(key: key("cities/LA"), kind: .delete)),
        ]),
      "commit-request-transaction": FirestoreV1.CommitRequest(
        database: database, writes: [], transaction: Data([0x11, 0x4C, 0x00, 0xFF])),
      "commit-response": FirestoreV1.CommitResponse(
        writeResults: [.init(updateTime: ts(1_764_410_400, 686_916_000)), .init(updateTime: nil)],
        commitTime: ts(1_764_410_400, 686_916_000)),
      "batch-write-request": FirestoreV1.BatchWriteRequest(
        database: database, writes: [write(HearthCore.Write(key: key("a/b"), kind: .delete))],
        labels: ["b": "2", "a": "1", "\u{E9}": "3"]),
      "batch-write-response": FirestoreV1.BatchWriteResponse(
        writeResults: [.init(updateTime: ts(5)), .init(updateTime: nil)],
        status: [.init(code: 0, message: ""), .init(code: 6, message: "Document already exists: a/b")]),
      "batch-get-request-transaction": FirestoreV1.BatchGetDocumentsRequest(
        database: database, documents: [key("cities/SF"), key("cities/LA")],
        mask: .init(fieldPaths: [field("pop")]), consistency: .transaction(Data("tx".utf8))),
      "batch-get-request-new-read-only": FirestoreV1.BatchGetDocumentsRequest(
        database: database, documents: [key("cities/SF")],
        consistency: .newTransaction(.init(mode: .readOnly(readTime: ts(100))))),
      "batch-get-request-new-read-write": FirestoreV1.BatchGetDocumentsRequest(
        database: database, documents: [key("cities/SF")],
        consistency: .newTransaction(.init(mode: .readWrite(retryTransaction: Data("old".utf8))))),
      "batch-get-request-read-time": FirestoreV1.BatchGetDocumentsRequest(
        database: database, documents: [key("a/b")], consistency: .readTime(ts(7, 8000))),
      "batch-get-response-found": FirestoreV1.BatchGetDocumentsResponse(
        result: .found(document("cities/SF", ["pop": .integer(1)], ts(1), ts(2))), readTime: ts(3)),
      "batch-get-response-missing": FirestoreV1.BatchGetDocumentsResponse(
        result: .missing(key("cities/XX")), readTime: ts(3)),
      "batch-get-response-transaction": FirestoreV1.BatchGetDocumentsResponse(
        result: nil, transaction: Data("new-tx".utf8), readTime: nil),
      "get-document-request": FirestoreV1.GetDocumentRequest(
        database: database, key: key("cities/SF"), mask: .init(fieldPaths: [field("a")]),
        consistency: .transaction(Data("t".utf8))),
      "get-document-request-read-time": FirestoreV1.GetDocumentRequest(
        database: database, key: key("cities/SF"), consistency: .readTime(ts(9))),
      "list-documents-request": FirestoreV1.ListDocumentsRequest(
        database: database, parent: path("cities/SF"), collectionID: "landmarks", pageSize: 20, pageToken: "next",
        orderBy: "name", mask: .init(fieldPaths: []), consistency: .readTime(ts(10)), showMissing: true),
      "list-documents-request-root": FirestoreV1.ListDocumentsRequest(
        database: database, parent: .root, collectionID: "cities", consistency: .transaction(Data("t".utf8))),
      "list-documents-response": FirestoreV1.ListDocumentsResponse(
        documents: [document("cities/SF", ["a": .integer(1)]), document("cities/LA", [:])], nextPageToken: "tok"),
      "list-collection-ids-request": FirestoreV1.ListCollectionIdsRequest(
        database: database, parent: path("cities/SF"), pageSize: 5, pageToken: "p", readTime: ts(11)),
      "list-collection-ids-request-root": FirestoreV1.ListCollectionIdsRequest(database: database, parent: .root),
      "list-collection-ids-response": FirestoreV1.ListCollectionIdsResponse(
        collectionIDs: ["cities", "\u{E9}"], nextPageToken: "n"),
      "create-document-request": FirestoreV1.CreateDocumentRequest(
        database: database, parent: path("users/alice"), collectionID: "posts", documentID: "p1",
        fields: ["a": .integer(1), "b": .map(["c": .string("d")])], mask: .init(fieldPaths: [field("a")])),
      "update-document-request": FirestoreV1.UpdateDocumentRequest(
        database: database, document: document("users/alice", ["a": .integer(2)]),
        updateMask: .init(fieldPaths: [field("a"), field("b")]), mask: .init(fieldPaths: [field("a")]),
        currentDocument: .updateTime(ts(12, 13000))),
      "update-document-request-set": FirestoreV1.UpdateDocumentRequest(
        database: database, document: document("users/alice", ["a": .integer(2)])),
      "delete-document-request": FirestoreV1.DeleteDocumentRequest(
        database: database, key: key("users/alice"), currentDocument: .exists(true)),
      "begin-transaction-request": FirestoreV1.BeginTransactionRequest(database: database, options: nil),
      "begin-transaction-request-read-only": FirestoreV1.BeginTransactionRequest(
        database: database, options: .init(mode: .readOnly(readTime: ts(14)))),
      "begin-transaction-request-read-only-latest": FirestoreV1.BeginTransactionRequest(
        database: database, options: .init(mode: .readOnly(readTime: nil))),
      "begin-transaction-request-retry": FirestoreV1.BeginTransactionRequest(
        database: database, options: .init(mode: .readWrite(retryTransaction: Data("r".utf8)))),
      "begin-transaction-response": FirestoreV1.BeginTransactionResponse(transaction: Data([0, 1]) + Data("tx".utf8)),
      "rollback-request": FirestoreV1.RollbackRequest(database: database, transaction: Data("tx".utf8)),
    ]) { first, _ in first }

    cases.merge(queryCases) { first, _ in first }
    cases.merge(listenCases) { first, _ in first }
    return cases
  }()

  // swift-format-ignore
  static let queryCases: [String: any WireMessage] = {
    let everyOperator = QueryFilter.and([
      filter("lt", .lessThan, .integer(1)),
      filter("le", .lessThanOrEqual, .double(2.5)),
      filter("gt", .greaterThan, .string("b")),
      filter("ge", .greaterThanOrEqual, .timestamp(ts(5))),
      filter("eq", .equal, .map(["m": .integer(1)])),
      filter("ne", .notEqual, .boolean(false)),
      filter("tags", .arrayContains, .string("x")),
      filter("in", .in, .array([.integer(1), .integer(2)])),
      filter("any", .arrayContainsAny, .array([.string("a"), .null])),
      filter("nin", .notIn, .array([.integer(3)])),
      filter("__name__", .greaterThan, ref("cities/A")),
      .or([filter("n", .equal, .double(.nan)), filter("z", .equal, .null)]),
      .field(FieldFilter(field: FieldPath(["a b", "c"]), op: .notEqual, value: .double(.nan))),
      filter("nn", .notEqual, .null),
    ])
    let full = query("", "cities") { q in
      q.select = [field("name"), FieldPath(["a b"])]
      q.model.filters = [everyOperator]
      q.model.explicitOrderBys = [OrderBy(field: field("pop"), descending: true), OrderBy(field: .documentID(), descending: false)]
      q.model.startAt = Bound(values: [.integer(10), ref("cities/B")], inclusive: true)
      q.model.endAt = Bound(values: [.integer(1)], inclusive: true)
      q.offset = 3
      q.model.limit = 10
    }
    let group = query("cities/SF", "landmarks", allDescendants: true) { q in
      q.model.endAt = Bound(values: [ref("cities/SF/landmarks/z")], inclusive: false)
      q.model.startAt = Bound(values: [ref("cities/SF/landmarks/a")], inclusive: false)
    }
    let kindless = query("", "", allDescendants: true) { q in
      q.select = [.documentID()]
      q.model.limit = 5000
    }
    let zero = query("", "c") { q in
      q.select = []
      q.model.limit = 0
    }
    let or = query("", "cities") { q in
      q.model.filters = [.or([filter("a", .equal, .integer(1)), .and([filter("b", .equal, .integer(2)), filter("c", .lessThan, .integer(3))])])]
    }
    let aggregated = query("", "cities") { q in q.model.filters = [filter("pop", .greaterThan, .integer(0))] }
    return [
      "run-query-request-full": FirestoreV1.RunQueryRequest(database: database, query: full, consistency: .transaction(Data("tx".utf8))),
      "run-query-request-simple": FirestoreV1.RunQueryRequest(
        database: database, query: query("", "cities") { $0.model.filters = [filter("pop", .greaterThan, .integer(1))] }),
      "run-query-request-scoped-group": FirestoreV1.RunQueryRequest(
        database: database, query: group, consistency: .newTransaction(.init(mode: .readOnly(readTime: nil)))),
      "run-query-request-kindless": FirestoreV1.RunQueryRequest(database: database, query: kindless, consistency: .readTime(ts(15))),
      "run-query-request-limit-zero": FirestoreV1.RunQueryRequest(database: database, query: zero),
      "run-query-request-or": FirestoreV1.RunQueryRequest(database: database, query: or),
      "run-query-response-document": FirestoreV1.RunQueryResponse(
        document: document("cities/SF", ["pop": .integer(1)], ts(1), ts(2)), readTime: ts(3), skippedResults: 2),
      "run-query-response-transaction": FirestoreV1.RunQueryResponse(document: nil, transaction: Data("tx".utf8), readTime: ts(3)),
      "run-query-response-done": FirestoreV1.RunQueryResponse(document: nil, readTime: ts(4), done: true),
      "run-aggregation-query-request": FirestoreV1.RunAggregationQueryRequest(
        database: database,
        query: .init(query: aggregated, aggregations: [
          .init(function: .count, alias: "c", countUpTo: 5),
          .init(function: .count, alias: ""),
          .init(function: .sum(field("pop")), alias: "s"),
          .init(function: .average(field("a.b")), alias: "field_1"),
        ])),
      "run-aggregation-query-request-read-time": FirestoreV1.RunAggregationQueryRequest(
        database: database, query: .init(query: query("a/b", "c"), aggregations: [.init(function: .count, alias: "")]),
        consistency: .readTime(ts(16))),
      "run-aggregation-query-response": FirestoreV1.RunAggregationQueryResponse(
        result: ["c": .integer(5), "s": .double(1.5), "field_1": .null], transaction: Data("t".utf8), readTime: ts(17)),
      "partition-query-request": FirestoreV1.PartitionQueryRequest(
        database: database,
        query: query("", "cities", allDescendants: true) { $0.model.explicitOrderBys = [OrderBy(field: .documentID(), descending: false)] },
        partitionCount: 4, pageToken: "t", pageSize: 2, readTime: ts(18)),
      "partition-query-response": FirestoreV1.PartitionQueryResponse(
        partitions: [.init(values: [ref("cities/M")], before: false), .init(values: [ref("cities/T")], before: false)],
        nextPageToken: "x"),
    ]
  }()

  // swift-format-ignore
  static let listenCases: [String: any WireMessage] = {
    let queryTarget = query("", "cities") { $0.model.filters = [filter("pop", .greaterThan, .integer(0))] }
    return [
      "listen-request-documents": FirestoreV1.ListenRequest(
        database: database,
        targetChange: .addTarget(.init(
          kind: .documents([key("cities/SF"), key("cities/LA")]), resume: .resumeToken(Data([1, 2])), targetID: 20601, once: true)),
        labels: ["goog-listen-tags": "x"]),
      "listen-request-query": FirestoreV1.ListenRequest(
        database: database,
        targetChange: .addTarget(.init(kind: .query(queryTarget), resume: .readTime(ts(19)), targetID: 2, expectedCount: 3))),
      "listen-request-remove": FirestoreV1.ListenRequest(database: database, targetChange: .removeTarget(20601)),
      "listen-response-add": FirestoreV1.ListenResponse.targetChange(.init(targetChangeType: .add, targetIDs: [20601])),
      "listen-response-no-change": FirestoreV1.ListenResponse.targetChange(
        .init(targetChangeType: .noChange, resumeToken: Data("tok".utf8), readTime: ts(20, 5000))),
      "listen-response-current": FirestoreV1.ListenResponse.targetChange(
        .init(targetChangeType: .current, targetIDs: [1, 2], resumeToken: Data("r".utf8), readTime: ts(21))),
      "listen-response-remove": FirestoreV1.ListenResponse.targetChange(
        .init(targetChangeType: .remove, targetIDs: [7], cause: .init(code: 3, message: "bad query"))),
      "listen-response-reset": FirestoreV1.ListenResponse.targetChange(.init(targetChangeType: .reset, targetIDs: [-1, .max])),
      "listen-response-document-change": FirestoreV1.ListenResponse.documentChange(
        .init(document: document("cities/SF", ["pop": .integer(1)], ts(1), ts(2)), targetIDs: [20601], removedTargetIDs: [3, 4])),
      "listen-response-document-delete": FirestoreV1.ListenResponse.documentDelete(
        .init(key: key("cities/SF"), removedTargetIDs: [20601], readTime: ts(22))),
      "listen-response-document-remove": FirestoreV1.ListenResponse.documentRemove(
        .init(key: key("cities/SF"), removedTargetIDs: [20601], readTime: ts(23))),
      "listen-response-filter": FirestoreV1.ListenResponse.filter(.init(targetID: 20601, count: 12)),
    ]
  }()
}
