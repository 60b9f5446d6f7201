import Foundation
import HearthCore

extension FirestoreV1 {
  /// Reads the `structured_query` of a request whose parent is `parent`.
  static func decodeQuery(
    _ reader: inout ProtobufReader, _ key: FieldKey, database: DatabaseName, parent: ResourcePath
  ) throws -> StructuredQuery {
    try reader.message(key, "structured_query", StructuredQuery.protobufName) {
      try StructuredQuery(decoding: &$0, database: database, parent: parent)
    }
  }

  /// The parent path of a query request, which its query's target needs (field 1).
  static func peekParent(_ reader: ProtobufReader, database: DatabaseName) throws -> ResourcePath {
    let name = try reader.peekString(1, "parent") ?? ""
    do {
      return try database.parentPath(name)
    } catch let failure as HearthError {
      throw reader.error("parent (1)", failure.message)
    }
  }

  /// `RunQueryRequest`: a query under `parent`, with a consistency selector (fields 5,
  /// 6, 7). `explain_options` is not read (Google's emulator ignores it too).
  package struct RunQueryRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.RunQueryRequest"

    package var database: DatabaseName
    package var query: StructuredQuery
    package var consistency: ConsistencySelector?

    package init(database: DatabaseName, query: StructuredQuery, consistency: ConsistencySelector? = nil) {
      self.database = database
      self.query = query
      self.consistency = consistency
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      let parent = try FirestoreV1.peekParent(reader, database: database)
      var query: StructuredQuery?
      while let key = try reader.next() {
        switch key.number {
        case 2: query = try FirestoreV1.decodeQuery(&reader, key, database: database, parent: parent)
        case 5, 6, 7:
          consistency = try ConsistencySelector.decode(
            &reader, key, transaction: 5, newTransaction: 6, readTime: 7, database: database)
        default: try reader.skip(key)
        }
      }
      guard let query else { throw reader.error("structured_query (2)", "the query is missing") }
      self.query = query
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: query.parent))
      writer.message(2) { query.encode(to: &$0, database: database) }
      consistency?.encode(to: &writer, transaction: 5, newTransaction: 6, readTime: 7, database: database)
    }
  }

  /// `RunQueryResponse`: one result (or none, with the transaction begun or a progress
  /// read time), the documents skipped by the offset since the last response, and `done`.
  package struct RunQueryResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.RunQueryResponse"

    package var document: Document?
    package var transaction: Data
    package var readTime: Timestamp?
    package var skippedResults: Int32
    package var done: Bool

    package init(
      document: Document?, transaction: Data = Data(), readTime: Timestamp?, skippedResults: Int32 = 0,
      done: Bool = false
    ) {
      self.document = document
      self.transaction = transaction
      self.readTime = readTime
      self.skippedResults = skippedResults
      self.done = done
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(document: nil, readTime: nil)
      while let key = try reader.next() {
        switch key.number {
        case 1: document = try reader.message(key, "document", as: Document.self, database: database)
        case 2: transaction = try reader.bytes(key, "transaction")
        case 3: readTime = try Timestamp.decode(&reader, key, "read_time")
        case 4: skippedResults = try reader.int32(key, "skipped_results")
        case 6: done = try reader.bool(key, "done")
        default: try reader.skip(key)
        }
      }
    }

    /// `done` is a oneof member: written when true (a false `done` is never sent).
    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if let document { writer.message(1, document, database: database) }
      if !transaction.isEmpty { writer.bytes(2, transaction) }
      if let readTime { writer.message(3, readTime, database: database) }
      if skippedResults != 0 { writer.int32(4, skippedResults) }
      if done { writer.bool(6, true) }
    }
  }

  /// `RunAggregationQueryRequest`: aggregations over a query under `parent`, with a
  /// consistency selector (fields 4, 5, 6).
  package struct RunAggregationQueryRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.RunAggregationQueryRequest"

    package var database: DatabaseName
    package var query: StructuredAggregationQuery
    package var consistency: ConsistencySelector?

    package init(database: DatabaseName, query: StructuredAggregationQuery, consistency: ConsistencySelector? = nil) {
      self.database = database
      self.query = query
      self.consistency = consistency
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      let parent = try FirestoreV1.peekParent(reader, database: database)
      var query: StructuredAggregationQuery?
      while let key = try reader.next() {
        switch key.number {
        case 2:
          query = try reader.message(key, "structured_aggregation_query", StructuredAggregationQuery.protobufName) {
            try StructuredAggregationQuery(decoding: &$0, database: database, parent: parent)
          }
        case 4, 5, 6:
          consistency = try ConsistencySelector.decode(
            &reader, key, transaction: 4, newTransaction: 5, readTime: 6, database: database)
        default: try reader.skip(key)
        }
      }
      guard let query else { throw reader.error("structured_aggregation_query (2)", "the query is missing") }
      self.query = query
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: query.query.parent))
      writer.message(2) { query.encode(to: &$0, database: database) }
      consistency?.encode(to: &writer, transaction: 4, newTransaction: 5, readTime: 6, database: database)
    }
  }

  /// `RunAggregationQueryResponse`: the `AggregationResult` (each aggregation's value
  /// under its alias), the transaction begun, the read time.
  package struct RunAggregationQueryResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.RunAggregationQueryResponse"

    /// `AggregationResult.aggregate_fields`; `nil` when the response carries no result.
    package var result: [String: Value]?
    package var transaction: Data
    package var readTime: Timestamp?

    package init(result: [String: Value]?, transaction: Data = Data(), readTime: Timestamp?) {
      self.result = result
      self.transaction = transaction
      self.readTime = readTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(result: nil, readTime: nil)
      while let key = try reader.next() {
        switch key.number {
        case 1:
          result = try reader.message(key, "result", "google.firestore.v1.AggregationResult") {
            try Value.decodeMap(&$0, field: 2, database: database)
          }
        case 2: transaction = try reader.bytes(key, "transaction")
        case 3: readTime = try Timestamp.decode(&reader, key, "read_time")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if let result { writer.message(1) { Value.encodeMap(result, field: 2, to: &$0, database: database) } }
      if !transaction.isEmpty { writer.bytes(2, transaction) }
      if let readTime { writer.message(3, readTime, database: database) }
    }

    package static func == (a: RunAggregationQueryResponse, b: RunAggregationQueryResponse) -> Bool {
      let sameResult =
        switch (a.result, b.result) {
        case (nil, nil): true
        case (let x?, let y?): Value.identicalFields(x, y)
        default: false
        }
      return sameResult && a.transaction == b.transaction && a.readTime == b.readTime
    }
  }

  /// `PartitionQueryRequest`: split a query into `partition_count` ranges. (Google's
  /// emulator answers UNIMPLEMENTED.)
  package struct PartitionQueryRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.PartitionQueryRequest"

    package var database: DatabaseName
    package var query: StructuredQuery
    package var partitionCount: Int64
    package var pageToken: String
    package var pageSize: Int32
    package var readTime: Timestamp?

    package init(
      database: DatabaseName, query: StructuredQuery, partitionCount: Int64, pageToken: String = "",
      pageSize: Int32 = 0, readTime: Timestamp? = nil
    ) {
      self.database = database
      self.query = query
      self.partitionCount = partitionCount
      self.pageToken = pageToken
      self.pageSize = pageSize
      self.readTime = readTime
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseOfResource(reader, 1, "parent")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      let parent = try FirestoreV1.peekParent(reader, database: database)
      var query: StructuredQuery?
      partitionCount = 0
      pageToken = ""
      pageSize = 0
      while let key = try reader.next() {
        switch key.number {
        case 2: query = try FirestoreV1.decodeQuery(&reader, key, database: database, parent: parent)
        case 3: partitionCount = try reader.int64(key, "partition_count")
        case 4: pageToken = try reader.string(key, "page_token")
        case 5: pageSize = try reader.int32(key, "page_size")
        case 6: readTime = try Timestamp.decode(&reader, key, "read_time")
        default: try reader.skip(key)
        }
      }
      guard let query else { throw reader.error("structured_query (2)", "the query is missing") }
      self.query = query
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, database.name(of: query.parent))
      writer.message(2) { query.encode(to: &$0, database: database) }
      if partitionCount != 0 { writer.int64(3, partitionCount) }
      if !pageToken.isEmpty { writer.string(4, pageToken) }
      if pageSize != 0 { writer.int32(5, pageSize) }
      if let readTime { writer.message(6, readTime, database: database) }
    }
  }

  /// `PartitionQueryResponse`: split points as cursors, and the next page's token.
  package struct PartitionQueryResponse: WireMessage {
    package static let protobufName = "google.firestore.v1.PartitionQueryResponse"

    package var partitions: [Cursor]
    package var nextPageToken: String

    package init(partitions: [Cursor], nextPageToken: String = "") {
      self.partitions = partitions
      self.nextPageToken = nextPageToken
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.init(partitions: [])
      while let key = try reader.next() {
        switch key.number {
        case 1: partitions.append(try reader.message(key, "partitions", as: Cursor.self, database: database))
        case 2: nextPageToken = try reader.string(key, "next_page_token")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for cursor in partitions { writer.message(1, cursor, database: database) }
      if !nextPageToken.isEmpty { writer.string(2, nextPageToken) }
    }
  }
}
