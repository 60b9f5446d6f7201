import Foundation
import HearthCore
import HearthServer

/// The seed corpora (Tools/Fuzz/Corpus/TARGET/): small inputs that reach every part of
/// each target, from which the fuzzer mutates. `HearthFuzzingTests` checks that the
/// committed corpus holds every seed, and writes them when `HEARTH_WRITE_FUZZ_SEEDS=1`.
extension FuzzTarget {
  public var seeds: [[UInt8]] {
    switch self {
    case .documentCodec: FuzzSeeds.documentCodec
    case .keyCodec: FuzzSeeds.keyCodec
    case .extendedJSON: FuzzSeeds.extendedJSON.map { Array($0.utf8) }
    case .query: FuzzSeeds.query.map { Array($0.utf8) }
    case .importLine: FuzzSeeds.importLines.map { Array($0.utf8) }
    case .firestoreRequest: FuzzSeeds.firestoreRequests
    }
  }

  /// A seed's file name: its FNV-1a hash, so that the same seed always has the same name.
  public static func seedName(_ seed: [UInt8]) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in seed { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    let digits = String(hash, radix: 16)
    return "seed-" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}

enum FuzzSeeds {
  static let key = DocumentKey(ResourcePath(["users", "alice"]))

  /// Sample documents: every type, nesting, edge numbers, Unicode and empty names.
  static let documents: [(createTime: Int64, updateTime: Int64, fields: [String: Value])] = [
    (0, 0, [:]),
    (
      1_764_410_400_000_000, 1_764_410_400_123_456,
      ["name": .string("Alice"), "age": .integer(30), "score": .double(2.5), "admin": .boolean(false)]
    ),
    (
      -62_135_596_800_000_000, 253_402_300_799_999_999,
      [
        "null": .null, "t": .boolean(true), "int": .integer(.min), "max": .integer(.max), "nan": .double(.nan),
        "inf": .double(-.infinity), "zero": .double(-0.0), "tiny": .double(.leastNonzeroMagnitude),
        "when": .timestamp(Timestamp(seconds: 1_764_410_400, nanoseconds: 123_456_789)),
        "blob": .bytes(Data([0, 1, 2, 0xFF])), "ref": .reference(DocumentKey(ResourcePath(["users", "bob"]))),
        "geo": .geoPoint(GeoPoint(latitude: 40.4, longitude: -3.7)),
      ]
    ),
    (
      5, 6,
      [
        "tags": .array([.string("swift"), .string("lmdb"), .integer(1), .null]),
        "address": .map(["city": .string("Madrid"), "zip": .string("28001"), "geo": .map(["lat": .double(40.4)])]),
        "": .string("empty name"), "é": .string("\u{E9}"), "e\u{301}x": .string("e\u{301}"),
        "nul\u{0}": .string("a\u{0}b"),
      ]
    ),
    (
      -1, 1,
      [
        "deep": .map(["a": .map(["b": .map(["c": .array([.map(["d": .array([.integer(1)])])])])])]),
        "ref": .reference(DocumentKey(ResourcePath(["users", "alice", "posts", "p1"]))),
      ]
    ),
  ]

  static var documentCodec: [[UInt8]] {
    var seeds: [[UInt8]] = []
    for document in documents {
      let stored = StoredDocument(
        key: key, fields: document.fields, createTime: Timestamp(microseconds: document.createTime),
        updateTime: Timestamp(microseconds: document.updateTime))
      let bytes = DocumentCodec.encode(stored)
      seeds.append([0] + bytes)
      seeds.append([1] + bytes.dropFirst(DocumentCodecTarget.headerSize))
      var input: [UInt8] = [2]
      withUnsafeBytes(of: document.createTime.littleEndian) { input += $0 }
      withUnsafeBytes(of: document.updateTime.littleEndian) { input += $0 }
      FuzzValues.appendFields(document.fields, to: &input)
      seeds.append(input)
    }
    seeds.append([0])
    seeds.append([1])
    return seeds
  }

  /// Pairs whose order is subtle, then strings and paths.
  static let valuePairs: [(Value, Value)] = [
    (.integer(1), .double(1)), (.double(-0.0), .double(0)), (.double(.nan), .double(-.infinity)),
    (.integer(1 << 53 + 1), .double(0x1p53)), (.integer(.max), .double(0x1p63)), (.integer(.min), .double(-0x1p63)),
    (.double(.leastNonzeroMagnitude), .double(0)), (.double(0.1), .double(0.2)), (.integer(-1), .double(-0.5)),
    (.string("a"), .string("a\u{0}")), (.string(""), .string("\u{0}")), (.string("é"), .string("e\u{301}")),
    (.bytes(Data([0])), .bytes(Data())), (.bytes(Data([1, 0])), .bytes(Data([1]))),
    (.timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_999)), .timestamp(Timestamp(seconds: 0, nanoseconds: 0))),
    (
      .reference(DocumentKey(ResourcePath(["a", "b"]))),
      .reference(DocumentKey(ResourcePath(["a", "b", "c", "d"])))
    ),
    (.geoPoint(GeoPoint(latitude: -0.0, longitude: 1)), .geoPoint(GeoPoint(latitude: 0, longitude: 1))),
    (.geoPoint(GeoPoint(latitude: .nan, longitude: 0)), .geoPoint(GeoPoint(latitude: -90, longitude: 0))),
    (.array([.integer(1)]), .array([.integer(1), .null])), (.array([]), .array([.null])),
    (.map(["a": .integer(1)]), .map(["a": .integer(1), "b": .null])), (.map([:]), .map(["": .null])),
    (.null, .boolean(false)), (.boolean(true), .integer(0)),
    (.map(["a": .array([.double(1)])]), .map(["a": .array([.integer(1)])])),
  ]

  static var keyCodec: [[UInt8]] {
    valuePairs.enumerated().map { index, pair in
      var input = FuzzValues.input(for: pair.0) + FuzzValues.input(for: pair.1)
      input.append(UInt8(index % 4))  // directions
      for text in ["a", "a\u{0}"] {
        input.append(UInt8(text.utf8.count))
        input += text.utf8
      }
      for path in [["users", "alice"], ["users", "alice", "posts"]] {
        input.append(UInt8(path.count))
        for segment in path {
          input.append(UInt8(segment.utf8.count))
          input += segment.utf8
        }
      }
      return input
    }
  }

  static let extendedJSON: [String] = [
    #"{"name":"Alice","age":30,"score":2.0,"admin":false,"nothing":null}"#,
    #"{"when":{"$timestamp":"2026-11-29T10:00:00.123456Z"},"offset":{"$timestamp":"2026-11-29T11:00:00+01:00"}}"#,
    #"{"ref":{"$ref":"users/alice"},"deep":{"$ref":"users/alice/posts/p1"}}"#,
    #"{"geo":{"$geo":[40.4,-3.7]},"edge":{"$geo":[-90,180]}}"#,
    #"{"blob":{"$bytes":"AAEC/w=="},"empty":{"$bytes":""}}"#,
    #"[{"$double":"NaN"},{"$double":"Infinity"},{"$double":"-Infinity"},{"$double":"-0.0"},{"$double":2}]"#,
    #"{"$literal":{"$x":1}}"#, #"{"a":{"$literal":{"$timestamp":"not a tag"}}}"#,
    #"{"$unknown":1}"#, #"{"$timestamp":"2026-02-30T00:00:00Z"}"#, #"{"$geo":[91,0]}"#, #"{"$ref":"users"}"#,
    "[1,-1,0,-0,9223372036854775807,-9223372036854775808,9223372036854775808]",
    "[0.1,1e16,1E+2,5e-324,1.7976931348623157e308,2.2250738585072014e-308,1e999,-0.0]",
    #"["\u00e9","e\u0301","\ud83d\ude00","\\\"\/\b\f\n\r\t","\u2028\u0000"]"#,
    #"{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}"#,
    "\u{FEFF}{\"bom\":true}", " \t\r\n{}\n", "[1,]", #"{"a":1,"a":2}"#, "01", "'single'", #""\ud800""#,
    "nul", "truex", "[", "{\"a\"", "-", "1.", "1e", "\"\u{7}\"", "{\"a\":1}}",
  ]

  static let query: [String] = [
    "where age >= 18 and country == \"ES\" order by age limit 10",
    "where likes >= 10 and (tags array-contains \"swift\" or pinned == true) order by createdAt desc limit 20",
    "where a == 1 or b == 2 and (c == 3 or d in [4]) order by a desc, b",
    "where ((age < 18) or (age > 65 and (country == 'ES')))",
    "where tags array-contains-any [\"a\", 'b'] and status not-in [\"x\"]",
    "where __name__ == ref(\"users/alice\")", "where `first name` == 'Al\\'ice' and `a.b`.c != null",
    "where when > ts(\"2026-01-01T00:00:00Z\") order by when",
    "where loc == geo(40.4, -3.7) and blob == bytes(\"AAEC\")",
    "where x == NaN or y == Infinity or z == -Infinity or w == -0.0 or v == 1e6",
    "where address == {\"city\": \"Madrid\", 'zip': [1, 2.5, true]}",
    "order by age, __name__ start after 31, \"users/bob\" end before 70 limit last 2",
    "order by age start at 31 end at 45", "order by createdAt desc start after ts(\"2026-01-01T00:00:00Z\")",
    "where likes > 100 count", "where likes > 100 count, sum likes, avg likes", "sum score avg `the score`",
    "'where a == 1' order by a", "WHERE A == 1 ORDER BY A DESC LIMIT 1", "where a in []", "where a == 01",
    "where a == foo(1)", "where a == geo(1 2)", "where a == ts(2026)", "where a <> 1", "where a = 1",
    "sort by a", "limit 99999999999999999999999", "where a == \"\\u00e9\\ud83d\\ude00\"", "where a.",
    "where (age < 3", "where a == 1 b == 2", "order by a limit 1 limit 2", "where a == \\",
    "query users 'where a == 1'", "set users/a {\"name\": \"A B\"} --merge", "a\"b c\" 'it'\"'\"'s' \\x",
  ]

  static let importLines: [String] = [
    #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00.000000Z","documents":2}"#,
    #"{"hearth":"export","version":1,"exportedAt":null,"documents":null}"#,
    #"{"hearth":"export","version":2}"#, #"{"hearth":"export","version":0}"#,
    #"{"path":"users/alice","createTime":"2026-11-29T10:00:00Z","updateTime":"2026-11-29T10:00:00.123456Z","fields":{"name":"Alice"}}"#,
    #"{"path":"users/alice/posts/p1","fields":{"likes":3,"tags":["a","b"],"when":{"$timestamp":"2026-01-01T00:00:00Z"}}}"#,
    #"{"path":"a/b","createTime":"2026-11-29T10:00:00+01:00","fields":{"r":{"$ref":"a/c"},"g":{"$geo":[1,2]},"b":{"$bytes":"AA=="}}}"#,
    #"{"path":"a/b","fields":{"$literal":{"$x":{"$double":"NaN"}}}}"#,
    #"{"path":"a/b","fields":{"m":{"n":{"o":[1.5,-0.0,null,true]}}}}"#,
    #"{"path":"a/b","updateTime":"2026-01-01T00:00:00Z","createTime":"2026-01-02T00:00:00Z","fields":{}}"#,
    #"{"path":"a","fields":{}}"#, #"{"path":"a/b","fields":{"__x__":1}}"#, #"{"path":"a/b","fields":{"a":[[1]]}}"#,
    #"{"path":"a/b","extra":1,"fields":{}}"#, #"{"path":"a/b"}"#, #"{"path":"/a//b","fields":{}}"#,
    #"{"path":"a/b","createTime":"0001-01-01T00:00:00Z","updateTime":"9999-12-31T23:59:59.999999999Z","fields":{}}"#,
    "[1,2]", "", "not json",
  ]

  /// One valid message of each request type (a value for the sixteenth selector), each
  /// preceded by its selector byte.
  static var firestoreRequests: [[UInt8]] {
    let database = FirestoreRequestTarget.database
    let key = DocumentKey(ResourcePath(["cities", "SF"]))
    let fields: [String: Value] = [
      "n": .integer(.min), "d": .double(-0.0), "nan": .double(.nan), "s": .string("\u{E9}"), "b": .bytes(Data([0xFF])),
      "t": .timestamp(Timestamp(seconds: -1, nanoseconds: 5)), "r": .reference(key),
      "g": .geoPoint(GeoPoint(latitude: 1, longitude: -2)), "a": .array([.null, .boolean(true)]),
      "m": .map(["": .map(["x": .integer(1)])]),
    ]
    let transforms = [
      FieldTransform(path: FieldPath(["t"]), operation: .serverTimestamp),
      FieldTransform(path: FieldPath(["a b"]), operation: .arrayUnion([.integer(1)])),
      FieldTransform(path: FieldPath(["n"]), operation: .increment(.double(1.5))),
    ]
    let writes = [
      FirestoreV1.Write(Write(key: key, kind: .set(fields))),
      FirestoreV1.Write(
        Write(
          key: key, kind: .patch(fields: ["x": .integer(1)], mask: [FieldPath(["x"]), FieldPath(["y", "z"])]),
          transforms: transforms), currentDocument: .exists(true)),
      FirestoreV1.Write(
        Write(key: key, kind: .delete), currentDocument: .updateTime(Timestamp(seconds: 5, nanoseconds: 0))),
      FirestoreV1.Write(
        Write(key: key, kind: .patch(fields: [:], mask: []), transforms: transforms), operation: .transform),
    ]
    var query = QueryModel(target: .collection(ResourcePath(["cities"])))
    query.filters = [
      .and([
        .field(FieldFilter(field: FieldPath(["pop"]), op: .greaterThan, value: .integer(1))),
        .or([
          .field(FieldFilter(field: FieldPath(["n"]), op: .equal, value: .double(.nan))),
          .field(FieldFilter(field: FieldPath(["tags"]), op: .in, value: .array([.string("a")]))),
        ]),
        .field(FieldFilter(field: FieldPath(["z"]), op: .notEqual, value: .null)),
      ])
    ]
    query.explicitOrderBys = [OrderBy(field: FieldPath(["pop"]), descending: true)]
    query.startAt = Bound(values: [.integer(10)], inclusive: true)
    query.endAt = Bound(values: [.integer(1)], inclusive: false)
    query.limit = 10
    let structured = FirestoreV1.StructuredQuery(
      model: query, parent: .root, collectionID: "cities", allDescendants: false, select: [.documentID()], offset: 2)
    let group = FirestoreV1.StructuredQuery(
      model: QueryModel(target: .group("landmarks")), parent: ResourcePath(["cities", "SF"]),
      collectionID: "landmarks", allDescendants: true)
    let requests: [any FirestoreRequest] = [
      FirestoreV1.CommitRequest(database: database, writes: writes, transaction: Data([1, 2])),
      FirestoreV1.BatchGetDocumentsRequest(
        database: database, documents: [key], mask: .init(fieldPaths: [FieldPath(["a"])]),
        consistency: .newTransaction(.init(mode: .readOnly(readTime: Timestamp(seconds: 1, nanoseconds: 0))))),
      FirestoreV1.RunQueryRequest(database: database, query: structured, consistency: .transaction(Data([7]))),
      FirestoreV1.RunAggregationQueryRequest(
        database: database,
        query: .init(
          query: group,
          aggregations: [
            .init(function: .count, alias: "c", countUpTo: 9), .init(function: .sum(FieldPath(["pop"])), alias: "s"),
            .init(function: .average(FieldPath(["pop"])), alias: ""),
          ])),
      FirestoreV1.ListenRequest(
        database: database,
        targetChange: .addTarget(
          .init(kind: .query(structured), resume: .resumeToken(Data([9])), targetID: 20601, expectedCount: 3)),
        labels: ["k": "v"]),
      FirestoreV1.BeginTransactionRequest(
        database: database, options: .init(mode: .readWrite(retryTransaction: Data([3])))),
      FirestoreV1.RollbackRequest(database: database, transaction: Data([3])),
      FirestoreV1.BatchWriteRequest(database: database, writes: Array(writes.prefix(2)), labels: ["a": "b"]),
      FirestoreV1.GetDocumentRequest(
        database: database, key: key, consistency: .readTime(Timestamp(seconds: 2, nanoseconds: 3))),
      FirestoreV1.ListDocumentsRequest(
        database: database, parent: .root, collectionID: "cities", pageSize: 5, mask: .init(fieldPaths: []),
        showMissing: true),
      FirestoreV1.ListCollectionIdsRequest(database: database, parent: key.path, pageSize: 3),
      FirestoreV1.CreateDocumentRequest(
        database: database, parent: key.path, collectionID: "c", documentID: "d", fields: ["x": .integer(1)]),
      FirestoreV1.UpdateDocumentRequest(
        database: database, document: .init(key: key, fields: ["x": .integer(2)]),
        updateMask: .init(fieldPaths: [FieldPath(["x"])]), currentDocument: .exists(true)),
      FirestoreV1.DeleteDocumentRequest(database: database, key: key, currentDocument: .exists(false)),
      FirestoreV1.PartitionQueryRequest(database: database, query: group, partitionCount: 4),
    ]
    var seeds = requests.enumerated().map { index, request in
      [UInt8(index)] + request.protobuf()
    }
    seeds.append([UInt8(FirestoreRequestTarget.types.count)] + Value.map(fields).protobuf(database: database))
    return seeds
  }
}
