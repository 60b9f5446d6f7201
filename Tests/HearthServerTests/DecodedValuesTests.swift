import Foundation
import HearthCore
import HearthServer
import Testing

/// What the Python client's messages decode to, in HearthCore's terms: the values,
/// writes and queries a handler receives.
@Suite struct DecodedValuesTests {
  static let cases: [String: (type: String, bytes: [UInt8])] = {
    guard let cases = try? WireCasesScript.cases() else { return [:] }
    return Dictionary(cases.map { ($0.name, ($0.type, $0.bytes)) }) { first, _ in first }
  }()

  func decoded<T>(_ name: String, as type: T.Type) throws -> T {
    let item = try #require(Self.cases[name], "no Python case \(name) (is google-cloud-firestore installed?)")
    let decode = try #require(WireCases.decoders[item.type])
    return try #require(try decode(item.bytes) as? T)
  }

  func value(_ name: String) throws -> Value { try decoded(name, as: Value.self) }

  @Test func numbersKeepTheirKindAndBits() throws {
    guard case .integer(let min) = try value("value-int-min"), case .integer(let max) = try value("value-int-max")
    else {
      Issue.record("integers did not decode as integers")
      return
    }
    #expect(min == .min && max == .max)
    guard case .double(let nan) = try value("value-double-nan"),
      case .double(let negativeZero) = try value("value-double-negative-zero"),
      case .double(let infinity) = try value("value-double-negative-infinity")
    else {
      Issue.record("doubles did not decode as doubles")
      return
    }
    #expect(nan.isNaN)
    #expect(negativeZero == 0 && negativeZero.sign == .minus)
    #expect(infinity == -.infinity)
    // 0.0 is a double, not the integer 0 (Value's == would equate them).
    guard case .double = try value("value-double-zero") else {
      Issue.record("0.0 did not decode as a double")
      return
    }
  }

  @Test func timestampsReferencesBytesAndPoints() throws {
    guard case .timestamp(let time) = try value("value-timestamp-nanos") else { throw Unexpected() }
    #expect(time.seconds == 1_764_410_400 && time.nanoseconds == 123_456_789)
    guard case .timestamp(let early) = try value("value-timestamp-before-epoch") else { throw Unexpected() }
    #expect(early.seconds == -1 && early.nanoseconds == 5)
    guard case .reference(let key) = try value("value-reference") else { throw Unexpected() }
    #expect(key.path.segments == ["users", "alice", "posts", "p1"])
    guard case .bytes(let data) = try value("value-bytes") else { throw Unexpected() }
    #expect(Array(data) == [0, 1, 0x7F, 0x80, 0xFF])
    guard case .geoPoint(let point) = try value("value-geo-point-negative-zero") else { throw Unexpected() }
    #expect(point.latitude.sign == .minus && point.longitude == 180)
  }

  @Test func mapsKeepUnicodeAndEmptyKeys() throws {
    guard case .map(let fields) = try value("value-map-nested") else { throw Unexpected() }
    #expect(fields.count == 9)
    #expect(fields[""]?.isIdentical(to: .string("empty key")) == true)
    #expect(fields["\u{E9}"]?.isIdentical(to: .integer(1)) == true)
    #expect(fields["a.b"]?.isIdentical(to: .integer(6)) == true)
    guard case .map(let emoji) = fields["\u{1F600}"], case .map(let deep) = emoji["deep"],
      case .array(let deeper) = deep["deeper"]
    else { throw Unexpected() }
    #expect(deeper.count == 2)
    guard case .string(let text) = try value("value-string-unicode") else { throw Unexpected() }
    #expect(Array(text.utf8) == Array("h\u{E9}llo \u{1F525} \u{0} e\u{301}".utf8))
  }

  @Test func writesBecomeHearthCoreWrites() throws {
    let patch = try decoded("write-patch", as: FirestoreV1.Write.self)
    guard case .patch(let fields, let mask) = patch.write.kind else { throw Unexpected() }
    #expect(mask.map(\.segments) == [["pop"], ["a", "b"], ["gone"]])
    #expect(fields["pop"]?.isIdentical(to: .integer(1)) == true)
    #expect(patch.write.precondition == .exists(true))
    #expect(patch.write.key.path.segments == ["cities", "SF"])

    let set = try decoded("write-set", as: FirestoreV1.Write.self)
    guard case .set = set.write.kind else { throw Unexpected() }
    #expect(set.write.precondition == .none)

    let create = try decoded("write-create", as: FirestoreV1.Write.self)
    #expect(create.write.precondition == .exists(false))

    let delete = try decoded("write-delete-update-time", as: FirestoreV1.Write.self)
    guard case .delete = delete.write.kind else { throw Unexpected() }
    #expect(delete.write.precondition == .updateTime(Timestamp(seconds: 1_764_410_400, nanoseconds: 123_000)))

    for name in ["write-update-transforms", "write-transform"] {
      let write = try decoded(name, as: FirestoreV1.Write.self)
      let operations = write.write.transforms.map(\.operation)
      #expect(
        write.write.transforms.map(\.path.segments) == [
          ["t"], ["n", "i"], ["n", "d"], ["max"], ["min"], ["a b"], ["r"],
        ])
      guard operations.count == 7, case .serverTimestamp = operations[0], case .increment(.integer(1)) = operations[1],
        case .increment(.double(-2.5)) = operations[2], case .maximum(.integer(10)) = operations[3],
        case .minimum(.double(-1)) = operations[4], case .arrayUnion(let union) = operations[5],
        case .arrayRemove(let remove) = operations[6]
      else { throw Unexpected() }
      #expect(union.count == 2 && remove.count == 2)
    }
    let transform = try decoded("write-transform", as: FirestoreV1.Write.self)
    #expect(transform.operation == .transform)
    guard case .patch(let none, let empty) = transform.write.kind else { throw Unexpected() }
    #expect(none.isEmpty && empty.isEmpty)
  }

  @Test func queriesBecomeQueryModels() throws {
    let request = try decoded("run-query-request-full", as: FirestoreV1.RunQueryRequest.self)
    let query = request.query
    guard case .collection(let collection) = query.model.target else { throw Unexpected() }
    #expect(collection.segments == ["cities"])
    #expect(query.select?.map(\.segments) == [["name"], ["a b"]])
    #expect(query.offset == 3 && query.model.limit == 10 && query.model.limitType == .first)
    #expect(query.model.explicitOrderBys.map(\.descending) == [true, false])
    #expect(query.model.explicitOrderBys[1].field.isDocumentID)
    #expect(query.model.startAt?.inclusive == true && query.model.startAt?.values.count == 2)
    #expect(query.model.endAt?.inclusive == true)
    #expect(request.consistency == .transaction(Data("tx".utf8)))
    guard query.model.filters.count == 1, case .and(let parts) = query.model.filters[0] else { throw Unexpected() }
    let comparisons = parts.compactMap { part -> FieldFilter? in
      if case .field(let filter) = part { return filter }
      return nil
    }
    #expect(
      comparisons.map(\.op) == [
        .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal, .notEqual, .arrayContains, .in,
        .arrayContainsAny, .notIn, .greaterThan, .notEqual, .notEqual,
      ])
    // The unary filters: IS_NOT_NAN and IS_NOT_NULL are != NaN and != null.
    #expect(comparisons[11].value.isNaN && comparisons[11].field.segments == ["a b", "c"])
    #expect(comparisons[12].value.isIdentical(to: .null))
    guard case .or(let either) = parts[11], either.count == 2, case .field(let isNaN) = either[0],
      case .field(let isNull) = either[1]
    else { throw Unexpected() }
    #expect(isNaN.op == .equal && isNaN.value.isNaN)
    #expect(isNull.op == .equal && isNull.value.isIdentical(to: .null))

    let group = try decoded("run-query-request-scoped-group", as: FirestoreV1.RunQueryRequest.self).query
    #expect(group.model.target == .group("landmarks"))
    #expect(group.isScopedGroup && group.parent.segments == ["cities", "SF"])
    // end_at before: exclusive; start_at after: exclusive.
    #expect(group.model.endAt?.inclusive == false && group.model.startAt?.inclusive == false)

    let kindless = try decoded("run-query-request-kindless", as: FirestoreV1.RunQueryRequest.self).query
    #expect(kindless.allDescendants && kindless.collectionID.isEmpty && kindless.model.limit == 5000)

    let zero = try decoded("run-query-request-limit-zero", as: FirestoreV1.RunQueryRequest.self).query
    #expect(zero.model.limit == 0 && zero.select == [])
  }

  @Test func aggregationsKeepAliasesAndUpTo() throws {
    let request = try decoded("run-aggregation-query-request", as: FirestoreV1.RunAggregationQueryRequest.self)
    #expect(
      request.query.aggregations == [
        .init(function: .count, alias: "c", countUpTo: 5), .init(function: .count, alias: ""),
        .init(function: .sum(FieldPath(["pop"])), alias: "s"),
        .init(function: .average(FieldPath(["a", "b"])), alias: "field_1"),
      ])
  }

  @Test func listenTargets() throws {
    let documents = try decoded("listen-request-documents", as: FirestoreV1.ListenRequest.self)
    guard case .addTarget(let target) = documents.targetChange, case .documents(let keys) = target.kind else {
      throw Unexpected()
    }
    #expect(keys.map(\.path.canonical) == ["cities/SF", "cities/LA"])
    #expect(target.targetID == 20601 && target.once && target.resume == .resumeToken(Data([1, 2])))
    #expect(documents.labels == ["goog-listen-tags": "x"])
    let query = try decoded("listen-request-query", as: FirestoreV1.ListenRequest.self)
    guard case .addTarget(let queryTarget) = query.targetChange, case .query(let structured) = queryTarget.kind else {
      throw Unexpected()
    }
    #expect(structured.model.target == .collection(ResourcePath(["cities"])))
    #expect(queryTarget.expectedCount == 3 && queryTarget.resume == .readTime(Timestamp(seconds: 19, nanoseconds: 0)))
    let remove = try decoded("listen-request-remove", as: FirestoreV1.ListenRequest.self)
    guard case .removeTarget(20601) = remove.targetChange else { throw Unexpected() }
  }

  struct Unexpected: Error {}
}
