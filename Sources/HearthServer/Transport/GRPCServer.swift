import CGRPC
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A gRPC server on gRPC's C core, answering plaintext HTTP/2 (as Google's emulator does;
/// clients reach it through `FIRESTORE_EMULATOR_HOST`) with the handlers it was given.
///
/// It serves from `init` until `shutdown`, which must be called to release it: the
/// completion queue's thread keeps it alive until then.
///
/// Calls are taken with `grpc_server_request_call`, unregistered, so one table dispatches
/// every method by path. A handler runs as a task of its own, never on the completion
/// queue's thread, so a slow handler slows only its call. The tasks prefer the server's
/// own executor (`CallExecutor`), so that calls are answered however busy Swift's
/// cooperative pool is; a handler that blocks for long (waiting on a lock another call
/// holds) should still do that work on a thread of its own.
///
/// Threads: the completion queue's (`CompletionQueue`), the handlers' four (`CallExecutor`),
/// with `http`, the listener's and one
/// per new connection while it is classified (`SharedPortListener`); gRPC's own besides.
package final class GRPCServer: Sendable {
  /// The port the server listens on: the one asked for, or the one the system chose for 0.
  package let port: Int

  /// A Firestore request may reach 10 MiB (a commit of 500 writes).
  private static let maxReceiveMessageLength: Int32 = 16 << 20
  /// Requests for calls kept open at once: more calls than this arriving together wait in
  /// gRPC until a request frees up (each taken call asks for the next at once).
  private static let waitingRequests = 16

  private let queue: CompletionQueue
  /// Where the handlers run (not Swift's cooperative pool, which may be busy).
  private let executor = CallExecutor(threads: 4)
  private let handlers: GRPCHandlers
  private let state: Mutex<State>
  private let stopped = Latch()
  /// Hearth's own listener, when the port also answers HTTP/1.1; else gRPC listens itself.
  private let listener: SharedPortListener?

  private struct State {
    /// The server, until destroyed at the end of the shutdown.
    var server: CorePointer?
    var isShuttingDown = false
  }

  /// Why a server could not start.
  package struct StartError: Error, CustomStringConvertible {
    package let description: String
  }

  /// Starts serving on `host:port`; port 0 lets the system choose a free one (see `port`).
  /// With `http`, plain HTTP/1.1 requests to the same port go to it (see
  /// `SharedPortListener`); without, gRPC listens itself.
  /// - Throws: `StartError` when the address cannot be bound.
  package init(host: String = "127.0.0.1", port: Int = 0, handlers: GRPCHandlers, http: HTTPHandler? = nil) throws {
    let library = GRPCLibrary()
    let listener = try http.map { _ in try SharedPortListener(host: host, port: port) }
    guard let server = hearth_grpc_server_create(Self.maxReceiveMessageLength) else {
      throw StartError(description: "gRPC could not create a server")
    }
    var bound = listener?.port ?? 0
    if listener == nil {
      let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
      let credentials = grpc_insecure_server_credentials_create()
      bound = Int(grpc_server_add_http2_port(server, address, credentials))
      grpc_server_credentials_release(credentials)
      guard bound > 0 else {
        grpc_server_destroy(server)  // never started, no listener: nothing to shut down
        throw StartError(description: "cannot listen on \(address)")
      }
    }
    queue = CompletionQueue(library: library)
    grpc_server_register_completion_queue(server, queue.pointer.raw, nil)
    grpc_server_start(server)
    self.port = bound
    self.handlers = handlers
    self.listener = listener
    state = Mutex(State(server: CorePointer(raw: server)))
    for _ in 0..<Self.waitingRequests { requestCall() }
    if let listener, let http {
      listener.start(handOver: { [self] connection in handOver(connection) }, http: http)
    }
  }

  /// Gives an accepted HTTP/2 connection to gRPC, which owns the descriptor from then on;
  /// closes it instead once the server is shutting down.
  private func handOver(_ connection: Int32) {
    let handed = state.withLock { state -> Bool in
      guard let server = state.server, !state.isShuttingDown else { return false }
      let credentials = grpc_insecure_server_credentials_create()
      grpc_server_add_channel_from_fd(server.raw, connection, credentials)
      grpc_server_credentials_release(credentials)
      return true
    }
    if !handed { close(connection) }
  }

  /// Stops listening and taking calls, lets the calls in flight finish for `grace`, then
  /// cancels those still running (their handlers' requests end and sends fail), and
  /// releases the server, its queue and its thread. Returns once all is released; a second
  /// call waits for the first. A handler that outlives its call keeps only its
  /// `ServerCall`, which then refuses everything; an HTTP/1.1 exchange under way finishes
  /// on its own thread.
  package func shutdown(grace: Duration = .seconds(5)) async {
    let server = state.withLock { state -> CorePointer? in
      defer { state.isShuttingDown = true }
      return state.isShuttingDown ? nil : state.server
    }
    guard let server else {
      await stopped.wait()
      return
    }
    await listener?.stop()
    let notified = Latch()
    let submitted = queue.submit(
      completed: { _ in notified.open() },
      start: { tag in
        grpc_server_shutdown_and_notify(server.raw, queue.pointer.raw, tag)
        return true
      })
    if !submitted { notified.open() }
    let forcing = Task { [self] in
      try? await Task.sleep(for: grace)
      guard !notified.isOpen else { return }
      state.withLock { state in
        if let server = state.server { grpc_server_cancel_all_calls(server.raw) }
      }
    }
    await notified.wait()
    forcing.cancel()
    await forcing.value
    state.withLock { state in
      if let server = state.server { grpc_server_destroy(server.raw) }
      state.server = nil
    }
    await queue.close()
    executor.stop()
    stopped.open()
  }

  /// Asks gRPC for the next call; it completes on the queue's thread with `accepted`, or
  /// fails there once the server shuts down.
  private func requestCall() {
    let request = CallRequest()
    state.withLock { state in
      guard let server = state.server else { return }
      _ = queue.submit(completed: { [self] success in accepted(request, success: success) }) { tag in
        grpc_server_request_call(
          server.raw, request.call, request.details, request.metadata, queue.pointer.raw, queue.pointer.raw, tag)
          == GRPC_CALL_OK
      }
    }
  }

  private func accepted(_ request: CallRequest, success: Bool) {
    guard success, let call = request.call.pointee else { return }
    requestCall()
    let method = string(of: request.details.pointee.method)
    let array = request.metadata.pointee
    let metadata = (0..<array.count).map { index in
      GRPCMetadata.Entry(name: string(of: array.metadata[index].key), value: string(of: array.metadata[index].value))
    }
    var peer = ""
    if let address = grpc_call_get_peer(call) {
      peer = String(cString: address)
      gpr_free(address)
    }
    let serverCall = ServerCall(
      call: CorePointer(raw: call), method: method, metadata: GRPCMetadata(metadata), peer: peer, queue: queue)
    serverCall.start(handlers.handler(for: method), on: executor)
  }
}

/// Where `grpc_server_request_call` writes the call it hands over, alive until that
/// request completes.
///
/// @unchecked Sendable: gRPC writes the fields before posting the request's completion, and
/// only the completion queue's thread reads them, after taking that completion.
private final class CallRequest: @unchecked Sendable {
  let call = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 1)
  let details = UnsafeMutablePointer<grpc_call_details>.allocate(capacity: 1)
  let metadata = UnsafeMutablePointer<grpc_metadata_array>.allocate(capacity: 1)

  init() {
    call.initialize(to: nil)
    grpc_call_details_init(details)
    grpc_metadata_array_init(metadata)
  }

  /// The call itself is the `ServerCall`'s now; the metadata's slices are the call's.
  deinit {
    grpc_call_details_destroy(details)
    grpc_metadata_array_destroy(metadata)
    call.deallocate()
    details.deallocate()
    metadata.deallocate()
  }
}
