import Foundation
import HearthCore

/// `whereField`, `whereFilter`, `order(by:)`, limits and cursors: each returns a new query.
extension Query {
  // MARK: - Filters (a String field path)

  /// Documents whose `field` equals `value`, by Firestore's value equality (`3 == 3.0`).
  public func whereField(_ field: String, isEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isEqualTo: value))
  }
  /// Documents whose `field` exists, is not null and differs from `value`.
  public func whereField(_ field: String, isNotEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isNotEqualTo: value))
  }
  /// Documents whose `field` is less than `value`, compared within `value`'s type (numbers
  /// with numbers, strings with strings, …).
  public func whereField(_ field: String, isLessThan value: Any) -> Query {
    whereFilter(.whereField(field, isLessThan: value))
  }
  /// Documents whose `field` is less than or equal to `value`, within `value`'s type.
  public func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isLessThanOrEqualTo: value))
  }
  /// Documents whose `field` is greater than `value`, within `value`'s type.
  public func whereField(_ field: String, isGreaterThan value: Any) -> Query {
    whereFilter(.whereField(field, isGreaterThan: value))
  }
  /// Documents whose `field` is greater than or equal to `value`, within `value`'s type.
  public func whereField(_ field: String, isGreaterThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(field, isGreaterThanOrEqualTo: value))
  }
  /// Documents whose `field` is an array holding `value`.
  public func whereField(_ field: String, arrayContains value: Any) -> Query {
    whereFilter(.whereField(field, arrayContains: value))
  }
  /// Documents whose `field` is an array holding one of `values` (at most 30).
  public func whereField(_ field: String, arrayContainsAny values: [Any]) -> Query {
    whereFilter(.whereField(field, arrayContainsAny: values))
  }
  /// Documents whose `field` equals one of `values` (at most 30).
  public func whereField(_ field: String, in values: [Any]) -> Query { whereFilter(.whereField(field, in: values)) }
  /// Documents whose `field` exists, is not null and equals none of `values` (at most 10).
  public func whereField(_ field: String, notIn values: [Any]) -> Query {
    whereFilter(.whereField(field, notIn: values))
  }

  // MARK: - Filters (a FieldPath)

  /// Documents whose `path` equals `value`, by Firestore's value equality (`3 == 3.0`).
  public func whereField(_ path: FieldPath, isEqualTo value: Any) -> Query {
    whereFilter(.whereField(path, isEqualTo: value))
  }
  /// Documents whose `path` exists, is not null and differs from `value`.
  public func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Query {
    whereFilter(.whereField(path, isNotEqualTo: value))
  }
  /// Documents whose `path` is less than `value`, compared within `value`'s type (numbers
  /// with numbers, strings with strings, …).
  public func whereField(_ path: FieldPath, isLessThan value: Any) -> Query {
    whereFilter(.whereField(path, isLessThan: value))
  }
  /// Documents whose `path` is less than or equal to `value`, within `value`'s type.
  public func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(path, isLessThanOrEqualTo: value))
  }
  /// Documents whose `path` is greater than `value`, within `value`'s type.
  public func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Query {
    whereFilter(.whereField(path, isGreaterThan: value))
  }
  /// Documents whose `path` is greater than or equal to `value`, within `value`'s type.
  public func whereField(_ path: FieldPath, isGreaterThanOrEqualTo value: Any) -> Query {
    whereFilter(.whereField(path, isGreaterThanOrEqualTo: value))
  }
  /// Documents whose `path` is an array holding `value`.
  public func whereField(_ path: FieldPath, arrayContains value: Any) -> Query {
    whereFilter(.whereField(path, arrayContains: value))
  }
  /// Documents whose `path` is an array holding one of `values` (at most 30).
  public func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Query {
    whereFilter(.whereField(path, arrayContainsAny: values))
  }
  /// Documents whose `path` equals one of `values` (at most 30).
  public func whereField(_ path: FieldPath, in values: [Any]) -> Query { whereFilter(.whereField(path, in: values)) }
  /// Documents whose `path` exists, is not null and equals none of `values` (at most 10).
  public func whereField(_ path: FieldPath, notIn values: [Any]) -> Query {
    whereFilter(.whereField(path, notIn: values))
  }

  /// Adds a filter, which may be an AND or OR of others (`Filter.andFilter`,
  /// `Filter.orFilter`); an OR may expand to at most 30 disjunctions.
  public func whereFilter(_ filter: Filter) -> Query {
    adding { model in try model.add(try resolve(filter, in: model)) }
  }

  // MARK: - Order and limits

  /// Orders the results by a field (a dotted path), after the order-bys already given.
  /// Documents without the field are left out, as in Firestore; ties are ordered by
  /// document ID.
  public func order(by field: String, descending: Bool = false) -> Query {
    adding { model in try model.add(OrderBy(field: try fieldPath(.dotted(field)), descending: descending)) }
  }

  /// Orders the results by a field path (`FieldPath.documentID()` for the document ID,
  /// which must come last).
  public func order(by path: FieldPath, descending: Bool = false) -> Query {
    adding { model in try model.add(OrderBy(field: try fieldPath(.path(path)), descending: descending)) }
  }

  /// The first `n` results (`n` must be positive).
  public func limit(to n: Int) -> Query { adding { try $0.setLimit(n, .first) } }

  /// The last `n` results, still in query order. Needs an `order(by:)`.
  public func limit(toLast n: Int) -> Query { adding { try $0.setLimit(n, .last) } }

  // MARK: - Cursors

  /// Starts at the position given by values of the order-by fields (a prefix of them, in
  /// their order), including documents at that position.
  public func start(at values: [Any]) -> Query { cursor(values, "start(at:)", start: true, inclusive: true) }
  /// Starts after the position given by values of the order-by fields.
  public func start(after values: [Any]) -> Query { cursor(values, "start(after:)", start: true, inclusive: false) }
  /// Ends at the position given by values of the order-by fields, including it.
  public func end(at values: [Any]) -> Query { cursor(values, "end(at:)", start: false, inclusive: true) }
  /// Ends before the position given by values of the order-by fields.
  public func end(before values: [Any]) -> Query { cursor(values, "end(before:)", start: false, inclusive: false) }

  /// Starts at a document's position: its values of every order-by field and its ID.
  /// The snapshot must exist and hold every order-by field.
  public func start(atDocument document: DocumentSnapshot) -> Query { cursor(document, start: true, inclusive: true) }
  /// Starts after a document's position, as in paging from the last document read.
  public func start(afterDocument document: DocumentSnapshot) -> Query {
    cursor(document, start: true, inclusive: false)
  }
  /// Ends at a document's position, including it.
  public func end(atDocument document: DocumentSnapshot) -> Query { cursor(document, start: false, inclusive: true) }
  /// Ends before a document's position.
  public func end(beforeDocument document: DocumentSnapshot) -> Query {
    cursor(document, start: false, inclusive: false)
  }

  private func cursor(_ values: [Any], _ method: String, start: Bool, inclusive: Bool) -> Query {
    adding { model in
      guard values.count <= model.explicitOrderBys.count else {
        throw HearthError(
          .invalidArgument,
          "Invalid query. You are trying to start or end a query using more values than were specified in the order "
            + "by: \(method) has \(values.count) values for \(model.explicitOrderBys.count) order(by:) clauses.")
      }
      let orderBys = model.orderBys
      let converted = try zip(values, orderBys).map { raw, orderBy in
        orderBy.field.isDocumentID
          ? try referenceValue(raw, in: model, cursor: method)
          : try reader.argument(raw, insideArray: false, field: orderBy.field)
      }
      set(Bound(values: converted, inclusive: inclusive), start: start, in: &model)
    }
  }

  private func cursor(_ document: DocumentSnapshot, start: Bool, inclusive: Bool) -> Query {
    adding { model in
      guard let stored = document.document?.stored else {
        throw HearthError(
          .invalidArgument,
          "Invalid query. You are trying to start or end a query using a document that doesn't exist.")
      }
      let position = QueryDocument(key: stored.key, fields: stored.fields)
      let values = try model.orderBys.map { orderBy in
        guard let value = position.value(orderBy.field) else {
          throw HearthError(
            .invalidArgument,
            "Invalid query. You are trying to start or end a query using a document for which the field "
              + "'\(orderBy.field)' (used as the order by) does not exist.")
        }
        return value
      }
      set(Bound(values: values, inclusive: inclusive), start: start, in: &model)
    }
  }

  private func set(_ bound: Bound, start: Bool, in model: inout QueryModel) {
    if start { model.startAt = bound } else { model.endAt = bound }
  }

  // MARK: - Reading the user's values

  private var reader: UserDataReader { UserDataReader(database: firestore, query: model.target) }

  private func fieldPath(_ input: Filter.FieldPathInput) throws -> FieldPath {
    switch input {
    case .dotted(let string):
      return try FieldPath.parse(dotted: string)
    case .path(let path):
      try path.validate()
      return path
    }
  }

  private func resolve(_ filter: Filter, in model: QueryModel) throws -> QueryFilter {
    switch filter.kind {
    case .and(let parts): return .and(try parts.map { try resolve($0, in: model) })
    case .or(let parts): return .or(try parts.map { try resolve($0, in: model) })
    case .field(let input, let op, let raw):
      let field = try fieldPath(input)
      return .field(FieldFilter(field: field, op: op, value: try operand(raw, op, field: field, in: model)))
    }
  }

  /// A filter's operand as a value; for `FieldPath.documentID()`, document references.
  private func operand(_ raw: Any, _ op: FilterOperator, field: FieldPath, in model: QueryModel) throws -> Value {
    let list = op.takesList ? (raw as? [Any] ?? [raw]) : nil
    if field.isDocumentID {
      // Array operators on document IDs are refused by the query's own checks.
      if op.isArrayOperator { return .null }
      if let list { return .array(try list.map { try referenceValue($0, in: model) }) }
      return try referenceValue(raw, in: model)
    }
    if let list { return .array(try list.map { try reader.argument($0, insideArray: false, field: field) }) }
    return try reader.argument(raw, insideArray: false, field: field)
  }

  /// A document ID value: a plain ID in a collection query, a full document path in a
  /// collection-group query, or a `DocumentReference`.
  ///
  /// - Parameter cursor: the cursor method it is a value of (`nil` for a filter), whose
  ///   messages Firestore words differently.
  private func referenceValue(_ raw: Any, in model: QueryModel, cursor: String? = nil) throws -> Value {
    if let reference = raw as? DocumentReference { return .reference(try reference.validKey()) }
    guard let id = raw as? String else {
      if let cursor {
        throw HearthError(
          .invalidArgument,
          "Invalid query. Expected a string for the document ID in \(cursor), but it was of type: \(type(of: raw))")
      }
      throw HearthError(
        .invalidArgument,
        "Invalid query. When querying by document ID you must provide a valid string or DocumentReference, but it "
          + "was of type: \(type(of: raw))")
    }
    if id.isEmpty {
      throw HearthError(
        .invalidArgument,
        "Invalid query. When querying by document ID you must provide a valid document ID, but it was an empty string.")
    }
    switch model.target {
    case .collection(let collection):
      if id.utf8.contains(UInt8(ascii: "/")), cursor != nil {
        throw HearthError(
          .invalidArgument,
          "Invalid query. When querying a collection and ordering by document ID, you must pass a plain document "
            + "ID, but '\(id)' contains a slash.")
      }
      if id.utf8.contains(UInt8(ascii: "/")) {
        throw HearthError(
          .invalidArgument,
          "Invalid query. When querying a collection by document ID you must provide a plain document ID, but "
            + "'\(id)' contains a '/' character.")
      }
      return .reference(DocumentKey(collection: collection, id: id))
    case .group:
      let path = try ResourcePath.parse(id, what: "Document ID")
      guard path.count % 2 == 0 else {
        throw HearthError(
          .invalidArgument,
          "Invalid query. When querying a collection group by document ID, the value provided must result in a valid "
            + "document path, but '\(id)' is not because it has an odd number of segments.")
      }
      return .reference(DocumentKey(path))
    }
  }
}
