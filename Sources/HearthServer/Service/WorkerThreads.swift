import Foundation
import HearthCore
import Synchronization

/// Threads of the server's own for the work that blocks: a read or a commit waits on LMDB
/// (a durable commit on its sync), which must not hold one of Swift's cooperative threads
/// (there is one per core; blocking them, or Dispatch's global queue, stalls every other
/// call). A call's handler awaits its work here.
package final class WorkerThreads: Sendable {
  private struct Queue {
    var jobs: [@Sendable () -> Void] = []
    var head = 0
    var stopped = false
  }

  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)
  private let count: Int

  /// Starts `count` threads, which wait for work until `stop`.
  package init(count: Int) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { [self] in work() }
      thread.name = "hearth.serve.worker.\(index)"
      thread.start()
    }
  }

  /// Runs `body` on a worker thread and returns (or throws) what it does.
  package func run<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
      let accepted = queue.withLock { queue -> Bool in
        guard !queue.stopped else { return false }
        queue.jobs.append { continuation.resume(with: Result { try body() }) }
        return true
      }
      if accepted {
        available.signal()
      } else {
        continuation.resume(throwing: HearthError(.unavailable, "The server is shutting down"))
      }
    }
  }

  /// Lets the threads finish the work queued, then end.
  package func stop() {
    queue.withLock { $0.stopped = true }
    for _ in 0..<count { available.signal() }
  }

  private func work() {
    while true {
      available.wait()
      let job = queue.withLock { queue -> (@Sendable () -> Void)?? in
        guard queue.head < queue.jobs.count else { return queue.stopped ? .some(nil) : nil }
        let job = queue.jobs[queue.head]
        queue.head += 1
        if queue.head > 64, queue.head * 2 > queue.jobs.count {
          queue.jobs.removeFirst(queue.head)
          queue.head = 0
        }
        return job
      }
      switch job {
      case .some(.some(let job)): job()
      case .some(.none): return
      case .none: continue
      }
    }
  }
}
