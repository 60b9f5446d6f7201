import CGRPC
import Foundation
import Synchronization

/// gRPC's completion queue, drained by a thread of its own: every operation started on the
/// core (a batch on a call, a request for the next call, the server's shutdown) names a
/// tag, and the core posts the tag here when the operation completes. The tag is a retained
/// `Completion`, whose body the thread runs.
///
/// Bodies run on the queue's thread and must be short: they record results, resume
/// waiting tasks and start follow-up operations. Handlers never run here.
///
/// Nothing may be posted to a queue after `grpc_completion_queue_shutdown`, and a
/// shut-down queue must be drained before it is destroyed. So every operation enters
/// through `submit`, which counts it and refuses new ones once `close` has begun; `close`
/// shuts the queue down only when the count has fallen to zero.
final class CompletionQueue: Sendable {
  let pointer: CorePointer
  private let library: GRPCLibrary
  private let gate = Mutex(Gate())
  private let drained = Latch()
  private let stopped = Latch()

  private struct Gate {
    var isOpen = true
    var pending = 0
  }

  /// What to run when an operation completes, with whether it succeeded.
  private final class Completion: Sendable {
    let body: @Sendable (Bool) -> Void
    init(_ body: @escaping @Sendable (Bool) -> Void) { self.body = body }
  }

  /// The queue keeps `library` initialised until it is destroyed, which is after the
  /// server and every `ServerCall` (each holds its queue) are gone.
  init(library: GRPCLibrary) {
    self.library = library
    pointer = CorePointer(raw: grpc_completion_queue_create_for_next(nil))
    let thread = Thread { [self] in drain() }
    thread.name = "hearth-grpc-completions"
    thread.start()
  }

  /// Starts an operation whose tag `start` hands to gRPC (returning whether gRPC accepted
  /// it); `completed` runs on the queue's thread when it completes. Returns false, without
  /// calling `start`, once the queue is closing, and when gRPC refused the operation.
  func submit(completed: @escaping @Sendable (Bool) -> Void, start: (UnsafeMutableRawPointer) -> Bool) -> Bool {
    let admitted = gate.withLock { gate -> Bool in
      guard gate.isOpen else { return false }
      gate.pending += 1
      return true
    }
    guard admitted else { return false }
    let tag = Unmanaged.passRetained(Completion(completed)).toOpaque()
    if start(tag) { return true }
    Unmanaged<Completion>.fromOpaque(tag).release()
    finishedOne()
    return false
  }

  /// Refuses new operations, waits for the pending ones to complete, then shuts the queue
  /// down and waits for its thread to end. Call it after the server's shutdown completed.
  func close() async {
    let idle = gate.withLock { gate -> Bool in
      gate.isOpen = false
      return gate.pending == 0
    }
    if idle { drained.open() }
    await drained.wait()
    grpc_completion_queue_shutdown(pointer.raw)
    await stopped.wait()
  }

  deinit { grpc_completion_queue_destroy(pointer.raw) }

  private func drain() {
    while true {
      let event = grpc_completion_queue_next(pointer.raw, gpr_inf_future(GPR_CLOCK_REALTIME), nil)
      switch event.type {
      case GRPC_OP_COMPLETE:
        guard let tag = event.tag else { continue }
        let completion = Unmanaged<Completion>.fromOpaque(tag).takeRetainedValue()
        completion.body(event.success != 0)
        finishedOne()
      case GRPC_QUEUE_SHUTDOWN:
        stopped.open()
        return
      default:
        continue  // GRPC_QUEUE_TIMEOUT: the deadline is infinite
      }
    }
  }

  private func finishedOne() {
    let idle = gate.withLock { gate -> Bool in
      gate.pending -= 1
      return !gate.isOpen && gate.pending == 0
    }
    if idle { drained.open() }
  }
}
