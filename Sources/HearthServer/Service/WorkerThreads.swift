import Foundation
import HearthCore

/// Threads of the server's own for the work that blocks: a read or a commit waits on LMDB
/// (a durable commit on its sync), which must not hold one of Swift's cooperative threads
/// (there is one per core; blocking them, or Dispatch's global queue, stalls every other
/// call). A call's handler awaits its work here.
package final class WorkerThreads: Sendable {
  private let pool: ThreadPool

  /// Starts `count` threads, which wait for work until `stop`.
  package init(count: Int) {
    pool = ThreadPool(threads: count, name: "hearth.serve.worker")
  }

  /// Runs `body` on a worker thread and returns (or throws) what it does.
  ///
  /// - Throws: what `body` throws; `unavailable` once the threads have stopped.
  package func run<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
      let accepted = pool.submit { continuation.resume(with: Result { try body() }) }
      if !accepted { continuation.resume(throwing: HearthError(.unavailable, "The server is shutting down")) }
    }
  }

  /// Lets the threads finish the work queued, then end.
  package func stop() { pool.stop() }
}
