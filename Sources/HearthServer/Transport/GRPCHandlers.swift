/// The methods a server answers, by path (`/google.firestore.v1.Firestore/Commit`), each
/// with its handler; a call to any other method ends `unimplemented`, as gRPC's own
/// servers answer it. One handler shape serves every kind of method (in gRPC's core every
/// call is a stream both ways); `unary`, `serverStreaming` and `bidirectional` say which
/// kind a method is and take the reading of its single request off the handler.
package struct GRPCHandlers: Sendable {
  /// Answers one call; see `ServerCall` for how its end becomes the call's status.
  package typealias Handler = @Sendable (ServerCall) async throws -> Void

  private var handlers: [String: Handler] = [:]

  package init() {}

  /// One request, one response (`Commit`, `GetDocument`, `BeginTransaction`, `Rollback`).
  package mutating func unary(
    _ method: String, _ respond: @escaping @Sendable (ServerCall, _ request: [UInt8]) async throws -> [UInt8]
  ) {
    handlers[method] = { call in
      let response = try await respond(call, call.request())
      try await call.write(response)
    }
  }

  /// One request, any number of responses, which `respond` writes (`RunQuery`,
  /// `RunAggregationQuery`, `BatchGetDocuments`).
  package mutating func serverStreaming(
    _ method: String, _ respond: @escaping @Sendable (ServerCall, _ request: [UInt8]) async throws -> Void
  ) {
    handlers[method] = { call in try await respond(call, call.request()) }
  }

  /// Requests and responses both ways at any time (`Listen`, `Write`): the handler reads
  /// `call.requests` and sends whenever it likes, from any thread.
  package mutating func bidirectional(_ method: String, _ handler: @escaping Handler) {
    handlers[method] = handler
  }

  /// The method's handler, or one that answers `unimplemented`.
  func handler(for method: String) -> Handler {
    handlers[method] ?? { call in throw GRPCStatus(.unimplemented, "Method not found: \(call.method)") }
  }
}
