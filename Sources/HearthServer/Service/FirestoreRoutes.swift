import Foundation
import HearthCore

/// The methods of `google.firestore.v1.Firestore` bound to a `FirestoreService`: each
/// request decoded, answered on the worker threads, each response encoded, and every
/// failure a gRPC status with Firestore's code and message. A method not bound here
/// (`Write`, the pipelines) answers UNIMPLEMENTED.
package enum FirestoreRoutes {
  /// The service's methods, as `/google.firestore.v1.Firestore/{Method}`; `log`, when
  /// given, gets one line per call: method, database, status and microseconds.
  package static func handlers(
    _ service: FirestoreService, work: WorkerThreads, log: (@Sendable (String) -> Void)? = nil
  ) -> GRPCHandlers {
    var handlers = GRPCHandlers()
    let route = Route(work: work, log: log)

    route.unary("Commit", into: &handlers) { (request: FirestoreV1.CommitRequest) in
      try service.commit(request).protobuf(database: request.database)
    }
    route.unary("BatchWrite", into: &handlers) { (request: FirestoreV1.BatchWriteRequest) in
      try service.batchWrite(request).protobuf(database: request.database)
    }
    route.unary("GetDocument", into: &handlers) { (request: FirestoreV1.GetDocumentRequest) in
      try service.getDocument(request).protobuf(database: request.database)
    }
    route.unary("CreateDocument", into: &handlers) { (request: FirestoreV1.CreateDocumentRequest) in
      try service.createDocument(request).protobuf(database: request.database)
    }
    route.unary("UpdateDocument", into: &handlers) { (request: FirestoreV1.UpdateDocumentRequest) in
      try service.updateDocument(request).protobuf(database: request.database)
    }
    route.unary("DeleteDocument", into: &handlers) { (request: FirestoreV1.DeleteDocumentRequest) in
      try service.deleteDocument(request)
      return []  // google.protobuf.Empty
    }
    route.unary("ListCollectionIds", into: &handlers) { (request: FirestoreV1.ListCollectionIdsRequest) in
      try service.listCollectionIDs(request).protobuf(database: request.database)
    }
    route.unary("ListDocuments", into: &handlers) { (request: FirestoreV1.ListDocumentsRequest) in
      try service.listDocuments(request).protobuf(database: request.database)
    }
    route.unary("BeginTransaction", into: &handlers) { (request: FirestoreV1.BeginTransactionRequest) in
      try service.beginTransaction(request).protobuf(database: request.database)
    }
    route.unary("PartitionQuery", into: &handlers) { (request: FirestoreV1.PartitionQueryRequest) in
      try service.partitionQuery(request).protobuf(database: request.database)
    }
    route.unary("Rollback", into: &handlers) { (request: FirestoreV1.RollbackRequest) in
      try service.rollback(request)
      return []
    }
    route.streaming("BatchGetDocuments", into: &handlers) { (request: FirestoreV1.BatchGetDocumentsRequest) in
      try service.batchGetDocuments(request).map { $0.protobuf(database: request.database) }
    }
    route.streaming("RunQuery", into: &handlers) { (request: FirestoreV1.RunQueryRequest) in
      try service.runQuery(request).map { $0.protobuf(database: request.database) }
    }
    route.streaming("RunAggregationQuery", into: &handlers) { (request: FirestoreV1.RunAggregationQueryRequest) in
      try service.runAggregationQuery(request).map { $0.protobuf(database: request.database) }
    }
    handlers.bidirectional(prefix + "Listen") { call in
      try await listen(call, service: service, work: work, log: log)
    }
    return handlers
  }

  /// `Listen`: targets added and removed as the client asks, each kept live until the
  /// client removes it or goes away.
  private static func listen(
    _ call: ServerCall, service: FirestoreService, work: WorkerThreads, log: (@Sendable (String) -> Void)?
  ) async throws {
    var stream: ListenStream?
    defer { stream?.close() }
    do {
      for try await bytes in call.requests {
        let request = try FirestoreV1.ListenRequest(protobuf: bytes)
        if stream == nil {
          let store = try service.databases.store(request.database)
          stream = ListenStream(
            database: request.database, store: store, requireIndexes: service.requireIndexes
          ) { call.send($0) }
        }
        guard let stream, stream.database == request.database else {
          throw HearthError(.invalidArgument, "A Listen stream serves one database: \(stream?.database.name ?? "")")
        }
        switch request.targetChange {
        case .addTarget(let target):
          try await work.run { try stream.add(target) }
          log?("Listen \(request.database.name) added target \(target.targetID)")
        case .removeTarget(let id):
          stream.remove(id)
          log?("Listen \(request.database.name) removed target \(id)")
        case nil: break
        }
      }
    } catch {
      throw status(error)
    }
  }

  /// A `HearthError` (or a malformed message) as the status a client gets.
  package static func status(_ error: Error) -> GRPCStatus {
    if let status = error as? GRPCStatus { return status }
    let failure = FirestoreService.hearthError(error)
    return GRPCStatus(GRPCStatusCode(rawValue: Int32(failure.code.rawValue)) ?? .unknown, failure.message)
  }

  static let prefix = "/google.firestore.v1.Firestore/"

  /// How one method is bound: decode, answer on a worker thread, log.
  private struct Route: Sendable {
    let work: WorkerThreads
    let log: (@Sendable (String) -> Void)?

    func unary<Request: FirestoreRequest>(
      _ method: String, into handlers: inout GRPCHandlers,
      _ answer: @escaping @Sendable (Request) throws -> [UInt8]
    ) {
      handlers.unary(FirestoreRoutes.prefix + method) { _, bytes in
        try await measured(method, bytes) { (request: Request) in try answer(request) }
      }
    }

    func streaming<Request: FirestoreRequest>(
      _ method: String, into handlers: inout GRPCHandlers,
      _ answer: @escaping @Sendable (Request) throws -> [[UInt8]]
    ) {
      handlers.serverStreaming(FirestoreRoutes.prefix + method) { call, bytes in
        let responses = try await measured(method, bytes) { (request: Request) in try answer(request) }
        for response in responses { try await call.write(response) }
      }
    }

    /// Decodes the request and answers it on a worker thread, turning any failure into
    /// its status, and logs the call.
    private func measured<Request: FirestoreRequest, Answer: Sendable>(
      _ method: String, _ bytes: [UInt8], _ answer: @escaping @Sendable (Request) throws -> Answer
    ) async throws -> Answer {
      let start = ContinuousClock.now
      var database = "-"
      do {
        let request = try Request(protobuf: bytes)
        database = request.database.name
        let result = try await work.run { try answer(request) }
        log?("\(method) \(database) OK \(microseconds(since: start)) µs")
        return result
      } catch {
        let status = FirestoreRoutes.status(error)
        log?("\(method) \(database) \(status.code) \(microseconds(since: start)) µs: \(status.message)")
        throw status
      }
    }

    private func microseconds(since start: ContinuousClock.Instant) -> Int64 {
      let elapsed = ContinuousClock.now - start
      return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    }
  }
}
