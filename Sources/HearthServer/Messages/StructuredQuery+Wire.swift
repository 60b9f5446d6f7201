import Foundation
import HearthCore

extension FirestoreV1 {
  /// `google.firestore.v1.StructuredQuery`, decoded into HearthCore's `QueryModel` with
  /// what the model lacks beside it.
  ///
  /// - `model.target`: the parent joined with the collection ID, or with `all_descendants`
  ///   the collection group `.group(collection_id)`. HearthCore's groups span the whole
  ///   database: under a document parent (`isScopedGroup`) the handler must also keep only
  ///   documents under `parent`; an empty `collection_id` with `all_descendants` (the
  ///   Python client's `recursive_delete`) means every document under `parent`, which
  ///   HearthCore's targets cannot say (`model.target` is then `.group("")`).
  /// - `model.filters` holds `where` as one filter (an AND stays a composite);
  ///   `UnaryFilter`s become HearthCore's comparisons: `IS_NULL` is `== null`, `IS_NAN`
  ///   `== NaN`, `IS_NOT_NULL` `!= null`, `IS_NOT_NAN` `!= NaN` (and encode back as unary
  ///   filters, so a `FieldFilter` `EQUAL` to null is re-encoded as `IS_NULL`).
  /// - `model.explicitOrderBys`: `order_by` (an unspecified direction is ascending).
  /// - `start_at`/`end_at` are `Bound`s: `before` is inclusive for a start and exclusive
  ///   for an end.
  /// - `limit` (an `Int32Value`) is `model.limit` with `.first`; `offset`, `select` and
  ///   `find_nearest` have no place in `QueryModel` and are kept here.
  ///
  /// Firestore's rules for queries (operators that conflict, a limit of zero, …) are not
  /// checked by decoding: the handler validates the model as HearthCore's `Query` does.
  package struct StructuredQuery: Sendable {
    package static let protobufName = "google.firestore.v1.StructuredQuery"

    package var model: QueryModel
    /// The path the query runs under (empty for the database's root).
    package var parent: ResourcePath
    package var collectionID: String
    package var allDescendants: Bool
    /// `select`'s field paths; `nil` when absent, empty for a projection of no fields
    /// (every field is returned either way; `[__name__]` returns only names).
    package var select: [FieldPath]?
    package var offset: Int32
    package var findNearest: FindNearest?

    package init(
      model: QueryModel, parent: ResourcePath, collectionID: String, allDescendants: Bool,
      select: [FieldPath]? = nil, offset: Int32 = 0, findNearest: FindNearest? = nil
    ) {
      self.model = model
      self.parent = parent
      self.collectionID = collectionID
      self.allDescendants = allDescendants
      self.select = select
      self.offset = offset
      self.findNearest = findNearest
    }

    /// A collection group query below a document rather than across the database.
    package var isScopedGroup: Bool { allDescendants && !parent.isEmpty }

    static let filterName = "google.firestore.v1.StructuredQuery.Filter"
    static let fieldReferenceName = "google.firestore.v1.StructuredQuery.FieldReference"

    package init(decoding reader: inout ProtobufReader, database: DatabaseName, parent: ResourcePath) throws {
      var selectors: [(String, Bool)] = []
      var filter: QueryFilter?
      var orders: [OrderBy] = []
      var startAt: Bound?
      var endAt: Bound?
      var offset: Int32 = 0
      var limit: Int32?
      var select: [FieldPath]?
      var findNearest: FindNearest?
      while let key = try reader.next() {
        switch key.number {
        case 1:
          select = try reader.message(key, "select", "google.firestore.v1.StructuredQuery.Projection") { projection in
            var fields: [FieldPath] = []
            while let key = try projection.next() {
              if key.number == 2 {
                fields.append(try StructuredQuery.fieldReference(&projection, key, "fields"))
              } else {
                try projection.skip(key)
              }
            }
            return fields
          }
        case 2:
          selectors.append(
            try reader.message(key, "from", "google.firestore.v1.StructuredQuery.CollectionSelector") { selector in
              var id = ""
              var all = false
              while let key = try selector.next() {
                switch key.number {
                case 2: id = try selector.string(key, "collection_id")
                case 3: all = try selector.bool(key, "all_descendants")
                default: try selector.skip(key)
                }
              }
              return (id, all)
            })
        case 3:
          filter = try reader.message(key, "where", StructuredQuery.filterName) {
            try StructuredQuery.decodeFilter(&$0, database: database)
          }
        case 4:
          orders.append(
            try reader.message(key, "order_by", "google.firestore.v1.StructuredQuery.Order") { order in
              var field: FieldPath?
              var descending = false
              while let key = try order.next() {
                switch key.number {
                case 1: field = try StructuredQuery.fieldReference(&order, key, "field")
                case 2:
                  let direction = try order.int32(key, "direction")
                  guard (0...2).contains(direction) else {
                    throw order.error("direction (2)", "\(direction) is not a direction")
                  }
                  descending = direction == 2
                default: try order.skip(key)
                }
              }
              guard let field else { throw order.error("field (1)", "an order must name its field") }
              return OrderBy(field: field, descending: descending)
            })
        case 7: startAt = try StructuredQuery.decodeCursor(&reader, key, "start_at", database: database, start: true)
        case 8: endAt = try StructuredQuery.decodeCursor(&reader, key, "end_at", database: database, start: false)
        case 6:
          offset = try reader.int32(key, "offset")
          guard offset >= 0 else {
            throw reader.error("offset (6)", "the offset must not be negative, but is \(offset)")
          }
        case 5:
          let value = try Wrapper.int32(&reader, key, "limit")
          guard value >= 0 else { throw reader.error("limit (5)", "the limit must not be negative, but is \(value)") }
          limit = value
        case 9: findNearest = try reader.message(key, "find_nearest", as: FindNearest.self, database: database)
        default: try reader.skip(key)
        }
      }
      guard selectors.count == 1, let (collectionID, allDescendants) = selectors.first else {
        throw reader.error("from (2)", "a query must select exactly one collection, but selects \(selectors.count)")
      }
      if collectionID.isEmpty, !allDescendants {
        throw reader.error("from (2)", "a collection ID is required unless all_descendants is set")
      }
      if !allDescendants, collectionID.contains("/") {
        throw reader.error("from (2)", "the collection ID '\(collectionID)' must not contain '/'")
      }
      var model = QueryModel(
        target: allDescendants ? .group(collectionID) : .collection(parent.appending(collectionID)))
      model.filters = filter.map { [$0] } ?? []
      model.explicitOrderBys = orders
      model.startAt = startAt
      model.endAt = endAt
      model.limit = limit.map(Int.init)
      self.init(
        model: model, parent: parent, collectionID: collectionID, allDescendants: allDescendants, select: select,
        offset: offset, findNearest: findNearest)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if let select {
        writer.message(1) { projection in
          for field in select { StructuredQuery.writeFieldReference(2, field, to: &projection) }
        }
      }
      writer.message(2) { selector in
        if !collectionID.isEmpty { selector.string(2, collectionID) }
        if allDescendants { selector.bool(3, true) }
      }
      switch model.filters.count {
      case 0: break
      case 1: writer.message(3) { StructuredQuery.encodeFilter(model.filters[0], to: &$0, database: database) }
      default: writer.message(3) { StructuredQuery.encodeFilter(.and(model.filters), to: &$0, database: database) }
      }
      for order in model.explicitOrderBys {
        writer.message(4) { message in
          StructuredQuery.writeFieldReference(1, order.field, to: &message)
          message.int32(2, order.descending ? 2 : 1)
        }
      }
      if let limit = model.limit { Wrapper.write(5, int32: Int32(clamping: limit), to: &writer) }
      if offset != 0 { writer.int32(6, offset) }
      if let start = model.startAt {
        StructuredQuery.encodeCursor(start.values, before: start.inclusive, 7, to: &writer, database: database)
      }
      if let end = model.endAt {
        StructuredQuery.encodeCursor(end.values, before: !end.inclusive, 8, to: &writer, database: database)
      }
      if let findNearest { writer.message(9, findNearest, database: database) }
    }

    // MARK: - Pieces

    /// A `FieldReference` (its `field_path`, field 2, in canonical form).
    static func fieldReference(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String) throws -> FieldPath {
      try reader.message(key, name, fieldReferenceName) { reference in
        var path: FieldPath?
        while let key = try reference.next() {
          if key.number == 2 {
            let text = try reference.string(key, "field_path")
            path = try reference.check(key, "field_path") { try FieldPath.parse(canonical: text) }
          } else {
            try reference.skip(key)
          }
        }
        guard let path else { throw reference.error("field_path (2)", "a field reference must name a field") }
        return path
      }
    }

    static func writeFieldReference(_ number: Int, _ path: FieldPath, to writer: inout ProtobufWriter) {
      writer.message(number) { $0.string(2, path.canonical) }
    }

    /// A `Cursor` as a `Bound`: `before` means inclusive for a start, exclusive for an end.
    static func decodeCursor(
      _ reader: inout ProtobufReader, _ key: FieldKey, _ name: String, database: DatabaseName, start: Bool
    ) throws -> Bound {
      let (values, before) = try reader.message(key, name, Cursor.protobufName) { cursor in
        let decoded = try Cursor(decoding: &cursor, database: database)
        return (decoded.values, decoded.before)
      }
      return Bound(values: values, inclusive: start ? before : !before)
    }

    static func encodeCursor(
      _ values: [Value], before: Bool, _ number: Int, to writer: inout ProtobufWriter, database: DatabaseName
    ) {
      writer.message(number, Cursor(values: values, before: before), database: database)
    }

    /// A `Filter`: one of a composite, a field or a unary filter.
    static func decodeFilter(_ reader: inout ProtobufReader, database: DatabaseName) throws -> QueryFilter {
      var filter: QueryFilter?
      while let key = try reader.next() {
        switch key.number {
        case 1:
          filter = try reader.message(key, "composite_filter", "google.firestore.v1.StructuredQuery.CompositeFilter") {
            try decodeComposite(&$0, database: database)
          }
        case 2:
          filter = try reader.message(key, "field_filter", "google.firestore.v1.StructuredQuery.FieldFilter") {
            try decodeFieldFilter(&$0, database: database)
          }
        case 3:
          filter = try reader.message(key, "unary_filter", "google.firestore.v1.StructuredQuery.UnaryFilter") {
            try decodeUnaryFilter(&$0)
          }
        default: try reader.skip(key)
        }
      }
      guard let filter else { throw reader.error("filter_type", "a filter must have one of its kinds set") }
      return filter
    }

    static func decodeComposite(_ reader: inout ProtobufReader, database: DatabaseName) throws -> QueryFilter {
      var op: Int32 = 0
      var filters: [QueryFilter] = []
      while let key = try reader.next() {
        switch key.number {
        case 1: op = try reader.int32(key, "op")
        case 2:
          filters.append(try reader.message(key, "filters", filterName) { try decodeFilter(&$0, database: database) })
        default: try reader.skip(key)
        }
      }
      switch op {
      case 1: return .and(filters)
      case 2: return .or(filters)
      default: throw reader.error("op (1)", "\(op) is not a composite operator (AND is 1, OR is 2)")
      }
    }

    static let fieldOperators: [Int32: FilterOperator] = [
      1: .lessThan, 2: .lessThanOrEqual, 3: .greaterThan, 4: .greaterThanOrEqual, 5: .equal, 6: .notEqual,
      7: .arrayContains, 8: .in, 9: .arrayContainsAny, 10: .notIn,
    ]

    static func decodeFieldFilter(_ reader: inout ProtobufReader, database: DatabaseName) throws -> QueryFilter {
      var field: FieldPath?
      var op: Int32 = 0
      var value: Value?
      while let key = try reader.next() {
        switch key.number {
        case 1: field = try fieldReference(&reader, key, "field")
        case 2: op = try reader.int32(key, "op")
        case 3: value = try reader.message(key, "value", as: Value.self, database: database)
        default: try reader.skip(key)
        }
      }
      guard let field else { throw reader.error("field (1)", "a field filter must name its field") }
      guard let filterOperator = fieldOperators[op] else {
        throw reader.error("op (2)", "\(op) is not a field filter operator")
      }
      guard let value else { throw reader.error("value (3)", "a field filter must have a value") }
      return .field(FieldFilter(field: field, op: filterOperator, value: value))
    }

    static func decodeUnaryFilter(_ reader: inout ProtobufReader) throws -> QueryFilter {
      var field: FieldPath?
      var op: Int32 = 0
      while let key = try reader.next() {
        switch key.number {
        case 1: op = try reader.int32(key, "op")
        case 2: field = try fieldReference(&reader, key, "field")
        default: try reader.skip(key)
        }
      }
      guard let field else { throw reader.error("field (2)", "a unary filter must name its field") }
      switch op {
      case 2: return .field(FieldFilter(field: field, op: .equal, value: .double(.nan)))
      case 3: return .field(FieldFilter(field: field, op: .equal, value: .null))
      case 4: return .field(FieldFilter(field: field, op: .notEqual, value: .double(.nan)))
      case 5: return .field(FieldFilter(field: field, op: .notEqual, value: .null))
      default: throw reader.error("op (1)", "\(op) is not a unary operator")
      }
    }

    static func encodeFilter(_ filter: QueryFilter, to writer: inout ProtobufWriter, database: DatabaseName) {
      switch filter {
      case .and(let parts), .or(let parts):
        writer.message(1) { composite in
          if case .and = filter { composite.int32(1, 1) } else { composite.int32(1, 2) }
          for part in parts { composite.message(2) { encodeFilter(part, to: &$0, database: database) } }
        }
      case .field(let field):
        if let unary = unaryOperator(field) {
          writer.message(3) { message in
            message.int32(1, unary)
            writeFieldReference(2, field.field, to: &message)
          }
          return
        }
        writer.message(2) { message in
          writeFieldReference(1, field.field, to: &message)
          message.int32(2, fieldOperators.first { $0.value == field.op }!.key)
          message.message(3, field.value, database: database)
        }
      }
    }

    /// The unary operator a comparison with null or NaN is written as.
    static func unaryOperator(_ filter: FieldFilter) -> Int32? {
      switch (filter.op, filter.value) {
      case (.equal, .null): 3
      case (.notEqual, .null): 5
      case (.equal, .double(let d)) where d.isNaN: 2
      case (.notEqual, .double(let d)) where d.isNaN: 4
      default: nil
      }
    }
  }

  /// `google.firestore.v1.Cursor`: values for a prefix of the query's order, and whether
  /// the position is just before them.
  package struct Cursor: WireMessage {
    package static let protobufName = "google.firestore.v1.Cursor"

    package var values: [Value]
    package var before: Bool

    package init(values: [Value], before: Bool) {
      self.values = values
      self.before = before
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      values = []
      before = false
      while let key = try reader.next() {
        switch key.number {
        case 1: values.append(try reader.message(key, "values", as: Value.self, database: database))
        case 2: before = try reader.bool(key, "before")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      Value.encodeArray(values, field: 1, to: &writer, database: database)
      if before { writer.bool(2, true) }
    }
  }

  /// `StructuredQuery.FindNearest`, a vector search, which HearthCore does not run: it is
  /// decoded so that the handler can refuse it by name.
  package struct FindNearest: WireMessage {
    package static let protobufName = "google.firestore.v1.StructuredQuery.FindNearest"

    package var vectorField: FieldPath?
    package var queryVector: Value?
    /// `DistanceMeasure`: 1 EUCLIDEAN, 2 COSINE, 3 DOT_PRODUCT.
    package var distanceMeasure: Int32
    package var limit: Int32?
    package var distanceResultField: String
    package var distanceThreshold: Double?

    package init(
      vectorField: FieldPath?, queryVector: Value?, distanceMeasure: Int32, limit: Int32?,
      distanceResultField: String = "", distanceThreshold: Double? = nil
    ) {
      self.vectorField = vectorField
      self.queryVector = queryVector
      self.distanceMeasure = distanceMeasure
      self.limit = limit
      self.distanceResultField = distanceResultField
      self.distanceThreshold = distanceThreshold
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      distanceMeasure = 0
      distanceResultField = ""
      while let key = try reader.next() {
        switch key.number {
        case 1: vectorField = try StructuredQuery.fieldReference(&reader, key, "vector_field")
        case 2: queryVector = try reader.message(key, "query_vector", as: Value.self, database: database)
        case 3: distanceMeasure = try reader.int32(key, "distance_measure")
        case 4: limit = try Wrapper.int32(&reader, key, "limit")
        case 5: distanceResultField = try reader.string(key, "distance_result_field")
        case 6: distanceThreshold = try Wrapper.double(&reader, key, "distance_threshold")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if let vectorField { StructuredQuery.writeFieldReference(1, vectorField, to: &writer) }
      if let queryVector { writer.message(2, queryVector, database: database) }
      if distanceMeasure != 0 { writer.int32(3, distanceMeasure) }
      if let limit { Wrapper.write(4, int32: limit, to: &writer) }
      if !distanceResultField.isEmpty { writer.string(5, distanceResultField) }
      if let distanceThreshold { Wrapper.write(6, double: distanceThreshold, to: &writer) }
    }
  }

  /// `google.firestore.v1.StructuredAggregationQuery.Aggregation`: HearthCore's
  /// `AggregateFunction`, with the alias its result is returned under and `count`'s
  /// `up_to`, which HearthCore's functions lack (the handler caps the count).
  package struct Aggregation: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.StructuredAggregationQuery.Aggregation"

    package var function: AggregateFunction
    /// Empty when the client left it to the server (which names results `field_1`, …).
    package var alias: String
    package var countUpTo: Int64?

    package init(function: AggregateFunction, alias: String, countUpTo: Int64? = nil) {
      self.function = function
      self.alias = alias
      self.countUpTo = countUpTo
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      var function: AggregateFunction?
      var alias = ""
      var upTo: Int64?
      while let key = try reader.next() {
        switch key.number {
        case 1:
          upTo = try reader.message(key, "count", "google.firestore.v1.StructuredAggregationQuery.Aggregation.Count") {
            count in
            var upTo: Int64?
            while let key = try count.next() {
              if key.number == 1 { upTo = try Wrapper.int64(&count, key, "up_to") } else { try count.skip(key) }
            }
            return upTo
          }
          function = .count
        case 2:
          function = .sum(
            try Aggregation.operand(
              &reader, key, "sum", "google.firestore.v1.StructuredAggregationQuery.Aggregation.Sum"))
        case 3:
          function = .average(
            try Aggregation.operand(
              &reader, key, "avg", "google.firestore.v1.StructuredAggregationQuery.Aggregation.Avg"))
        case 7: alias = try reader.string(key, "alias")
        default: try reader.skip(key)
        }
      }
      guard let function else { throw reader.error("operator", "an aggregation must have count, sum or avg set") }
      if let upTo, upTo < 0 {
        throw reader.error("count (1)", "up_to must not be negative, but is \(upTo)")
      }
      self.init(function: function, alias: alias, countUpTo: function == .count ? upTo : nil)
    }

    static func operand(_ reader: inout ProtobufReader, _ key: FieldKey, _ name: String, _ type: String) throws
      -> FieldPath
    {
      try reader.message(key, name, type) { message in
        var field: FieldPath?
        while let key = try message.next() {
          if key.number == 1 {
            field = try StructuredQuery.fieldReference(&message, key, "field")
          } else {
            try message.skip(key)
          }
        }
        guard let field else { throw message.error("field (1)", "\(name) must name its field") }
        return field
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch function {
      case .count:
        writer.message(1) { count in if let countUpTo { Wrapper.write(1, int64: countUpTo, to: &count) } }
      case .sum(let field): writer.message(2) { StructuredQuery.writeFieldReference(1, field, to: &$0) }
      case .average(let field): writer.message(3) { StructuredQuery.writeFieldReference(1, field, to: &$0) }
      }
      if !alias.isEmpty { writer.string(7, alias) }
    }
  }

  /// `google.firestore.v1.StructuredAggregationQuery`: a query and its aggregations.
  package struct StructuredAggregationQuery: Sendable {
    package static let protobufName = "google.firestore.v1.StructuredAggregationQuery"

    package var query: StructuredQuery
    package var aggregations: [Aggregation]

    package init(query: StructuredQuery, aggregations: [Aggregation]) {
      self.query = query
      self.aggregations = aggregations
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName, parent: ResourcePath) throws {
      var query: StructuredQuery?
      var aggregations: [Aggregation] = []
      while let key = try reader.next() {
        switch key.number {
        case 1:
          query = try reader.message(key, "structured_query", StructuredQuery.protobufName) {
            try StructuredQuery(decoding: &$0, database: database, parent: parent)
          }
        case 3: aggregations.append(try reader.message(key, "aggregations", as: Aggregation.self, database: database))
        default: try reader.skip(key)
        }
      }
      guard let query else { throw reader.error("structured_query (1)", "the aggregation has no query") }
      self.init(query: query, aggregations: aggregations)
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.message(1) { query.encode(to: &$0, database: database) }
      for aggregation in aggregations { writer.message(3, aggregation, database: database) }
    }
  }
}
