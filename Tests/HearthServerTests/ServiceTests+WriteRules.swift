import Foundation
import HearthCore
import Testing

@testable import HearthServer

extension ServiceTests {
  /// A commit that writes one document twice: what Google's emulator refuses before
  /// reading anything (status and message as it gave them), and what it applies in turn.
  @Test func repeatedWritesOfADocumentInOneCommitFollowTheBackendsRule() throws {
    try withService { service in
      func create(_ key: DocumentKey) -> Write {
        Write(key: key, kind: .set(["a": .integer(1)]), precondition: .exists(false))
      }
      func set(_ key: DocumentKey) -> Write { Write(key: key, kind: .set(["a": .integer(2)])) }
      func update(_ key: DocumentKey) -> Write {
        Write(key: key, kind: .patch(fields: ["a": .integer(3)], mask: [FieldPath(["a"])]), precondition: .exists(true))
      }
      func delete(_ key: DocumentKey) -> Write { Write(key: key, kind: .delete) }
      let refused: [(String, (DocumentKey) -> Write, (DocumentKey) -> Write, String)] = [
        ("cc", create, create, "Cannot insert then insert an entity in the same request."),
        ("sc", set, create, "Cannot upsert then insert an entity in the same request."),
        ("uc", update, create, "Cannot update then insert an entity in the same request."),
        ("du", delete, update, "Cannot delete then update an entity in the same request."),
      ]
      for existing in [false, true] {
        for (name, first, second, message) in refused {
          let key = try key("c/\(name)-\(existing)")
          if existing { _ = try commit(service, [set(key)]) }
          let error = try #require(throws: HearthError.self) { try commit(service, [first(key), second(key)]) }
          #expect(error.code == .invalidArgument && error.message == message, "\(name), existing \(existing)")
        }
      }
      // Created again right after its delete, or written in any other order: applied in turn.
      let again = try key("c/again")
      _ = try commit(service, [delete(again), create(again)])
      _ = try commit(service, [create(try key("c/cs")), set(try key("c/cs")), update(try key("c/cs"))])
      let stored = try service.batchGetDocuments(
        FirestoreV1.BatchGetDocumentsRequest(database: Self.database, documents: [again, try key("c/cs")]))
      let values = stored.map { response -> Value? in
        guard case .found(let document)? = response.result else { return nil }
        return document.fields["a"]
      }
      #expect(values == [.integer(1), .integer(3)])
      // Invalid data is INVALID_ARGUMENT even where the precondition fails too.
      let nested = Write(key: again, kind: .set(["x": .array([.array([])])]), precondition: .exists(false))
      #expect((try #require(throws: HearthError.self) { try commit(service, [nested]) }).code == .invalidArgument)
    }
  }

  /// Google's emulator answers a limit of 0 with no documents and counts none; it refuses
  /// a sum or average under a cursor that holds a `__name__` value (a snapshot's), or
  /// ordered explicitly by `__name__`, unless the query orders by the field first.
  @Test func aLimitOfZeroAndSumsUnderANameCursorAsGooglesEmulatorAnswers() throws {
    try withService { service in
      let (s, a) = (FieldPath(["s"]), FieldPath(["a"]))
      _ = try commit(
        service,
        [
          Write(key: try key("c/d7"), kind: .set(["s": .integer(5), "a": .integer(1)])),
          Write(key: try key("c/d8"), kind: .set(["s": .integer(6), "a": .integer(2)])),
        ])
      let none = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database, query: query("c", orders: [OrderBy(field: a, descending: false)], limit: 0)))
      #expect(names(none).isEmpty)
      func aggregate(_ structured: FirestoreV1.StructuredQuery, _ function: AggregateFunction) throws -> Value? {
        try service.runAggregationQuery(
          FirestoreV1.RunAggregationQueryRequest(
            database: Self.database,
            query: FirestoreV1.StructuredAggregationQuery(
              query: structured, aggregations: [.init(function: function, alias: "x")]))
        ).first?.result?["x"]
      }
      #expect(try aggregate(query("c", limit: 0), .count) == .integer(0))

      var byS = query("c", orders: [OrderBy(field: s, descending: false)])
      byS.model.startAt = Bound(values: [.integer(5), .reference(try key("c/d7"))], inclusive: true)
      let refused = try #require(throws: HearthError.self) { try aggregate(byS, .sum(a)) }
      #expect(refused.code == .invalidArgument)
      #expect(
        refused.message
          == "This query requires an index that has fields [a] after __name__ and Firestore does not currently "
          + "support such an index. Please try the query again with additional ordering on those fields.")
      #expect(try aggregate(byS, .count) == .integer(2), "counts are not refused")
      #expect(try aggregate(byS, .sum(s)) == .integer(11), "a field the query orders by first is summed")
      byS.model.startAt = Bound(values: [.integer(5)], inclusive: true)
      #expect(try aggregate(byS, .sum(a)) == .integer(3), "a cursor without __name__ is not refused")

      // An explicit order by __name__ puts it in the index as a cursor's value does.
      let name = OrderBy(field: .documentID(), descending: false)
      let aThenName = query("c", orders: [OrderBy(field: a, descending: false), name])
      let byName = try #require(throws: HearthError.self) { try aggregate(aThenName, .average(s)) }
      #expect(byName.message == refused.message.replacingOccurrences(of: "[a]", with: "[s]"))
      let equal = QueryFilter.field(FieldFilter(field: s, op: .equal, value: .integer(5)))
      #expect(
        (try? aggregate(query("c", filters: [equal], orders: [name]), .sum(s))) == nil,
        "an equality on the field does not order by it")
      #expect(try aggregate(aThenName, .sum(a)) == .integer(3))
      let beforeD8 = QueryFilter.field(
        FieldFilter(field: .documentID(), op: .lessThan, value: .reference(try key("c/d8"))))
      #expect((try? aggregate(query("c", filters: [beforeD8]), .sum(a))) == nil, "nor does a filter on __name__")
      let isD8 = QueryFilter.field(FieldFilter(field: .documentID(), op: .equal, value: .reference(try key("c/d8"))))
      #expect((try? aggregate(query("c", filters: [isD8]), .sum(a))) == nil, "an equality too")
      #expect(try aggregate(query("c", filters: [beforeD8]), .count) == .integer(1))
      #expect(
        try aggregate(query("c", filters: [isD8], orders: [OrderBy(field: a, descending: false)]), .sum(a))
          == .integer(2))
      #expect(try aggregate(query("c", orders: [name]), .count) == .integer(2))
    }
  }

  /// Google's emulator refuses a write that transforms a field and a field inside it, and
  /// a numeric transform whose operand is no number, in its words; nothing is written.
  @Test func transformsOfNestedFieldsAndNonNumericOperandsAreRefused() throws {
    try withService { service in
      let d = try key("c/d")
      _ = try commit(service, [Write(key: d, kind: .set(["k": .integer(7), "m": .map(["x": .integer(1)])]))])
      let (m, mx, k) = (FieldPath(["m"]), FieldPath(["m", "x"]), FieldPath(["k"]))
      func transformed(_ transforms: [FieldTransform]) throws -> FirestoreV1.CommitResponse {
        try commit(service, [Write(key: d, kind: .patch(fields: [:], mask: []), transforms: transforms)])
      }
      let nested = try #require(throws: HearthError.self) {
        try transformed([
          FieldTransform(path: m, operation: .serverTimestamp),
          FieldTransform(path: mx, operation: .increment(.integer(1))),
        ])
      }
      #expect(nested.code == .invalidArgument)
      #expect(nested.message == "Cannot transform property m and its nested property at the same time.")
      for operation in [TransformOperation.increment(.string("x")), .maximum(.null), .minimum(.boolean(true))] {
        let refused = try #require(throws: HearthError.self) {
          try transformed([FieldTransform(path: k, operation: operation)])
        }
        #expect(refused.message == "Input must be int64 or double.")
      }
      // Two transforms of one field run one after the other.
      _ = try transformed([
        FieldTransform(path: k, operation: .increment(.integer(1))),
        FieldTransform(path: k, operation: .increment(.integer(1))),
      ])
      let got = try service.getDocument(FirestoreV1.GetDocumentRequest(database: Self.database, key: d))
      #expect(got.fields == ["k": .integer(9), "m": .map(["x": .integer(1)])], "the refused writes changed nothing")
    }
  }

  /// A write's timestamps are cut to microseconds, Firestore's precision, as Google's
  /// emulator cuts them: in fields, maps, arrays and array unions.
  @Test func writtenTimestampsAreCutToMicroseconds() throws {
    try withService { service in
      let d = try key("c/d")
      let fine = Value.timestamp(Timestamp(seconds: 5, nanoseconds: 123_456_789))
      let cut = Value.timestamp(Timestamp(seconds: 5, nanoseconds: 123_456_000))
      _ = try commit(
        service,
        [
          Write(
            key: d, kind: .set(["t": fine, "m": .map(["t": fine]), "a": .array([fine])]),
            transforms: [FieldTransform(path: FieldPath(["u"]), operation: .arrayUnion([fine]))])
        ])
      let got = try service.getDocument(FirestoreV1.GetDocumentRequest(database: Self.database, key: d))
      #expect(got.fields == ["t": cut, "m": .map(["t": cut]), "a": .array([cut]), "u": .array([cut])])
    }
  }

  /// Field names the backend reserves, as Google's emulator takes and refuses them: those
  /// that begin and end with `__` with something between (five bytes or more), compared by
  /// bytes (an accent after the second underscore does not hide it); `__`, `___` and `____`,
  /// which the SDKs refuse before sending, are stored.
  @Test func reservedFieldNamesAreTheBackendsByTheirBytes() throws {
    try withService { service in
      let d = try key("c/d")
      for name in ["__", "___", "____", "__x", "x__", "_\u{301}_x__", "__x_\u{301}_"] {
        #expect(throws: Never.self, "\(name.debugDescription)") {
          _ = try commit(service, [Write(key: d, kind: .set([name: .integer(1), "m": .map([name: .integer(2)])]))])
        }
        let got = try service.getDocument(FirestoreV1.GetDocumentRequest(database: Self.database, key: d))
        #expect(got.fields == [name: .integer(1), "m": .map([name: .integer(2)])], "\(name.debugDescription)")
      }
      for name in ["__x__", "_____", "__\u{301}x__", "__\u{301}__"] {
        for fields in [[name: Value.integer(1)], ["m": .map([name: .integer(1)])]] {
          let error = try #require(throws: HearthError.self) {
            try commit(service, [Write(key: d, kind: .set(fields))])
          }
          #expect(error.code == .invalidArgument, "\(name.debugDescription)")
        }
      }
    }
  }

  /// `not-in` as Google's emulator answers it: a NaN operand equals nothing (as `in [NaN]`
  /// matches nothing), so `not-in [NaN]` keeps the NaN field and every other that exists
  /// and is not null, and NaN beside other operands is as if left out; a count agrees.
  @Test func notInKeepsNaNFieldsAsTheBackendMatches() throws {
    try withService { service in
      let values: [String: Value] = [
        "nan": .double(.nan), "one": .integer(1), "oneDouble": .double(1), "text": .string("a"), "null": .null,
      ]
      _ = try commit(service, values.map { Write(key: try key("c/\($0.key)"), kind: .set(["v": $0.value])) })
      _ = try commit(service, [Write(key: try key("c/missing"), kind: .set(["w": .integer(1)]))])
      func run(_ operands: [Value]) throws -> Set<String> {
        let filter = QueryFilter.field(FieldFilter(field: FieldPath(["v"]), op: .notIn, value: .array(operands)))
        let found = names(
          try service.runQuery(
            FirestoreV1.RunQueryRequest(database: Self.database, query: query("c", filters: [filter]))))
        let counted = try count(service, query("c", filters: [filter]))
        #expect(counted == .integer(Int64(found.count)), "\(operands)")
        return Set(found.map { String($0.dropFirst(2)) })
      }
      #expect(try run([.double(.nan)]) == ["nan", "one", "oneDouble", "text"])
      #expect(try run([.double(.nan), .integer(1)]) == ["nan", "text"])
      #expect(try run([.integer(1)]) == ["nan", "text"])
      #expect(try run([.double(.nan), .null]) == [])
    }
  }
}
