import CGRPC
import Synchronization

/// One call from a client, as its handler sees it: who called what with which metadata, the
/// client's messages as they arrive, and a way to answer with messages — from any thread,
/// at any time, while the call lasts. Messages are raw bytes: the codec is the caller's.
///
/// The handler's return ends the call with status OK, a thrown `GRPCStatus` with that
/// status, any other error with `unknown`. The call may end first: when the client cancels
/// or vanishes (or its deadline passes, or the server shuts down), the client's messages
/// end and sending fails; the handler learns it there, or from `isCancelled`, and should
/// return.
///
/// gRPC 1.51 ends a cancelled call's messages as it ends a half-closed one's: the pending
/// receive completes successfully with no message, and only the call's close, a moment
/// later, says it was cancelled. So `receive` returns nil for both; a handler that must
/// tell them apart sends next, which fails after a cancel (and sets `isCancelled`).
///
/// gRPC's core lets a call have one receive and one send in flight at a time; a call
/// serialises its sends through a queue of its own (so `send` never waits) and starts each
/// receive when the handler asks for the next message (so a slow handler slows the client
/// instead of filling memory).
package final class ServerCall: Sendable {
  /// The method's path, `/{package}.{Service}/{Method}`.
  package let method: String
  package let metadata: GRPCMetadata
  /// The client's connection as gRPC names it (`ipv4:127.0.0.1:54321`; after
  /// `SharedPortListener` handed it over, the descriptor's name).
  package let peer: String

  private let queue: CompletionQueue
  private let state: Mutex<State>

  private enum Outgoing {
    /// A message, and the writer waiting for it to leave, if any.
    case message([UInt8], CheckedContinuation<Void, any Error>?)
    case status(GRPCStatus)
  }

  private struct State {
    /// The call, until gRPC is done with it: it ended and no operation is in flight.
    var call: CorePointer?
    /// Operations started and not yet completed.
    var pending = 0
    /// RECV_CLOSE_ON_SERVER completed: the status reached the client, or the call ended
    /// without (`cancelled`).
    var isClosed = false
    var isCancelled = false
    var isReceiving = false
    /// The client sent its last message.
    var isHalfClosed = false
    var isSending = false
    var sentInitialMetadata = false
    /// The status is queued: nothing more may be sent.
    var isFinishing = false
    var outbox = FIFO<Outgoing>()
  }

  init(call: CorePointer, method: String, metadata: GRPCMetadata, peer: String, queue: CompletionQueue) {
    self.method = method
    self.metadata = metadata
    self.peer = peer
    self.queue = queue
    state = Mutex(State(call: call))
  }

  /// True once the call has learned that it ended without its status reaching the client:
  /// its close said so, or a send or receive failed.
  package var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// The client's next message, or nil once its messages ended: it half-closed, or (see
  /// above) it went away.
  /// - Throws: `GRPCStatus.callEnded` once the call is known to have ended; `failedPrecondition` when
  ///   another `receive` is still waiting (one at a time).
  package func receive() async throws -> [UInt8]? {
    try await withCheckedThrowingContinuation { (receiver: CheckedContinuation<[UInt8]?, any Error>) in
      let refusal = state.withLock { state -> Result<[UInt8]?, any Error>? in
        if state.isHalfClosed { return .success(nil) }
        if state.isReceiving {
          return .failure(GRPCStatus(.failedPrecondition, "receive() while another receive() waits"))
        }
        guard !state.isClosed else { return .failure(GRPCStatus.callEnded) }
        let slot = ResultSlot<UnsafeMutablePointer<grpc_byte_buffer>?>(nil)
        let started = startBatch(&state, [hearth_grpc_op_recv_message(slot.pointer)]) { [self] success in
          received(slot.pointer.pointee, success: success, receiver)
        }
        guard started else { return .failure(GRPCStatus.callEnded) }
        state.isReceiving = true
        return nil
      }
      if let refusal { receiver.resume(with: refusal) }
    }
  }

  /// The client's messages, until they end (see `receive`).
  package var requests: Requests { Requests(call: self) }

  /// The call's only request, for methods whose client sends one (unary, server streaming).
  /// - Throws: `internal` when the client half-closed without sending one.
  package func request() async throws -> [UInt8] {
    guard let message = try await receive() else {
      throw GRPCStatus(.internal, "\(method) expects a request message and the client sent none")
    }
    return message
  }

  /// Queues a message for the client and returns at once, from any thread (a listener
  /// pushing a change). False when the call has ended, or its handler has returned.
  @discardableResult
  package func send(_ message: [UInt8]) -> Bool {
    enqueue(.message(message, nil))
  }

  /// Sends a message and returns once gRPC has taken it (past flow control): a writer that
  /// waits for each message cannot outrun a slow client.
  /// - Throws: `GRPCStatus.callEnded` when the call ended before the message left.
  package func write(_ message: [UInt8]) async throws {
    try await withCheckedThrowingContinuation { (writer: CheckedContinuation<Void, any Error>) in
      if !enqueue(.message(message, writer)) { writer.resume(throwing: GRPCStatus.callEnded) }
    }
  }

  /// Started by the server on the completion queue's thread: asks for the call's end, then
  /// runs the handler as a task of its own, never on that thread.
  func start(_ handler: @escaping GRPCHandlers.Handler, on executor: CallExecutor) {
    let cancelled = ResultSlot<Int32>(0)
    let started = state.withLock { state in
      startBatch(&state, [hearth_grpc_op_recv_close_on_server(cancelled.pointer)]) { [self] _ in
        closed(cancelled: cancelled.pointer.pointee != 0)
      }
    }
    guard started else {
      // The queue is closing: the call can never run, nor complete anything.
      state.withLock { state in
        if let call = state.call { grpc_call_unref(call.raw) }
        state.call = nil
        state.isClosed = true
        state.isCancelled = true
      }
      return
    }
    Task(executorPreference: executor) { [self] in await run(handler) }
  }

  private func run(_ handler: GRPCHandlers.Handler) async {
    let status: GRPCStatus
    do {
      try await handler(self)
      status = .ok
    } catch let thrown as GRPCStatus {
      status = thrown
    } catch {
      status = GRPCStatus(.unknown, String(describing: error))
    }
    _ = enqueue(.status(status))
  }

  private func enqueue(_ item: Outgoing) -> Bool {
    state.withLock { state -> Bool in
      guard !state.isClosed, !state.isFinishing else { return false }
      if case .status = item { state.isFinishing = true }
      state.outbox.append(item)
      pump(&state)
      return true
    }
  }

  /// Starts the next send unless one is in flight. Initial metadata (none of the server's
  /// own: gRPC adds what HTTP/2 needs) goes with the first.
  private func pump(_ state: inout State) {
    guard !state.isSending, let item = state.outbox.popFirst() else { return }
    var ops: [grpc_op] = []
    if !state.sentInitialMetadata { ops.append(hearth_grpc_op_send_initial_metadata()) }
    let started: Bool
    switch item {
    case .message(let bytes, let writer):
      let buffer = OutgoingBuffer(bytes)
      ops.append(hearth_grpc_op_send_message(buffer.pointer))
      started = startBatch(&state, ops) { [self] success in
        withExtendedLifetime(buffer) { sent(success: success, writer) }
      }
      if !started { writer?.resume(throwing: GRPCStatus.callEnded) }
    case .status(let status):
      var details = grpc_slice_from_copied_string(status.message)
      defer { grpc_slice_unref(details) }
      // gRPC copies the details during grpc_call_start_batch.
      started = withUnsafeMutablePointer(to: &details) { details in
        ops.append(
          hearth_grpc_op_send_status_from_server(grpc_status_code(rawValue: .init(status.code.rawValue)), details))
        return startBatch(&state, ops) { [self] success in sent(success: success, nil) }
      }
    }
    guard started else {
      failOutbox(&state)
      return
    }
    state.sentInitialMetadata = true
    state.isSending = true
  }

  /// Ends every queued send: the call can no longer carry them.
  private func failOutbox(_ state: inout State) {
    while let item = state.outbox.popFirst() {
      if case .message(_, let writer?) = item { writer.resume(throwing: GRPCStatus.callEnded) }
    }
  }

  private func sent(success: Bool, _ writer: CheckedContinuation<Void, any Error>?) {
    completed { state in
      state.isSending = false
      if success {
        writer?.resume()
        pump(&state)
      } else {
        state.isCancelled = true
        writer?.resume(throwing: GRPCStatus.callEnded)
        failOutbox(&state)
      }
    }
  }

  private func received(
    _ buffer: UnsafeMutablePointer<grpc_byte_buffer>?, success: Bool,
    _ receiver: CheckedContinuation<[UInt8]?, any Error>
  ) {
    let bytes = buffer.map(consumeMessage)
    let outcome = completed { state -> Result<[UInt8]?, any Error> in
      state.isReceiving = false
      guard success else {
        state.isCancelled = true
        return .failure(GRPCStatus.callEnded)
      }
      switch bytes {
      case .none:
        state.isHalfClosed = true
        return .success(nil)
      case .some(.none):
        return .failure(GRPCStatus(.internal, "a message that cannot be decompressed"))
      case .some(.some(let bytes)):
        return .success(bytes)
      }
    }
    receiver.resume(with: outcome)
  }

  private func closed(cancelled: Bool) {
    completed { state in
      state.isClosed = true
      state.isCancelled = state.isCancelled || cancelled
      failOutbox(&state)
    }
  }

  /// Starts a batch on the call, counting it; false once the call or the queue is gone.
  private func startBatch(_ state: inout State, _ ops: [grpc_op], completed: @escaping @Sendable (Bool) -> Void)
    -> Bool
  {
    guard let call = state.call else { return false }
    let started = queue.submit(completed: completed) { tag in
      ops.withUnsafeBufferPointer {
        grpc_call_start_batch(call.raw, $0.baseAddress, $0.count, tag, nil) == GRPC_CALL_OK
      }
    }
    if started { state.pending += 1 }
    return started
  }

  /// Runs a completed operation's update; releases the call once it ended and nothing is
  /// in flight, whether or not the handler still holds this object.
  private func completed<Value: Sendable>(_ update: (inout State) -> Value) -> Value {
    let (result, finished) = state.withLock { state -> (Value, CorePointer?) in
      state.pending -= 1
      let result = update(&state)
      guard state.isClosed, state.pending == 0, let call = state.call else { return (result, nil) }
      state.call = nil
      return (result, call)
    }
    if let finished { grpc_call_unref(finished.raw) }
    return result
  }

  /// The client's messages as an asynchronous sequence (`for try await request in
  /// call.requests`), ending when the client half-closes.
  package struct Requests: AsyncSequence, Sendable {
    package typealias Element = [UInt8]
    let call: ServerCall

    package struct AsyncIterator: AsyncIteratorProtocol {
      let call: ServerCall
      package mutating func next() async throws -> [UInt8]? { try await call.receive() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(call: call) }
  }
}

/// A first-in first-out queue with amortised constant-time removal at the front (a call may
/// queue thousands of messages for a slow client).
struct FIFO<Element> {
  private var incoming: [Element] = []
  private var outgoing: [Element] = []

  mutating func append(_ element: Element) { incoming.append(element) }

  mutating func popFirst() -> Element? {
    if outgoing.isEmpty {
      outgoing = incoming.reversed()
      incoming = []
    }
    return outgoing.popLast()
  }
}
