import Foundation

/// The threads a server's call handlers run on: a task executor of the server's own, so
/// that calls are answered however busy Swift's cooperative pool is (one thread per core,
/// which an app, or a test suite, may hold with blocking work; a starved handler would let
/// its client's deadline pass). Handlers never block here: blocking work goes to threads
/// of its own (the Firestore service's `WorkerThreads`).
final class CallExecutor: TaskExecutor {
  private let pool: ThreadPool

  init(threads count: Int) {
    pool = ThreadPool(threads: count, name: "hearth.serve.calls")
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    let run: @Sendable () -> Void = { job.runSynchronously(on: executor) }
    // After `stop` (a call's last steps after the server shut down): a thread of its own.
    if !pool.submit(run) { Thread.detachNewThread(run) }
  }

  /// Lets the threads run what is queued, then end.
  func stop() { pool.stop() }
}
