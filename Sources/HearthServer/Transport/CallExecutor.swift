import Foundation
import Synchronization

/// The threads a server's call handlers run on: a task executor of the server's own, so
/// that calls are answered however busy Swift's cooperative pool is (one thread per core,
/// which an app, or a test suite, may hold with blocking work; a starved handler would let
/// its client's deadline pass). Handlers never block here: blocking work goes to threads
/// of its own (the Firestore service's `WorkerThreads`).
final class CallExecutor: TaskExecutor {
  private struct Queue {
    var jobs: [UnownedJob] = []
    var head = 0
    var stopped = false
  }

  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)
  private let count: Int

  init(threads count: Int) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { [self] in work() }
      thread.name = "hearth.serve.calls.\(index)"
      thread.start()
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let accepted = queue.withLock { queue -> Bool in
      guard !queue.stopped else { return false }
      queue.jobs.append(job)
      return true
    }
    if accepted {
      available.signal()
    } else {
      // After `stop` (a call's last steps after the server shut down): a thread of its own.
      let executor = asUnownedTaskExecutor()
      Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
  }

  /// Lets the threads run what is queued, then end.
  func stop() {
    queue.withLock { $0.stopped = true }
    for _ in 0..<count { available.signal() }
  }

  private func work() {
    let executor = asUnownedTaskExecutor()
    while true {
      available.wait()
      let next = queue.withLock { queue -> UnownedJob?? in
        guard queue.head < queue.jobs.count else { return queue.stopped ? .some(nil) : nil }
        let job = queue.jobs[queue.head]
        queue.head += 1
        if queue.head > 256, queue.head * 2 > queue.jobs.count {
          queue.jobs.removeFirst(queue.head)
          queue.head = 0
        }
        return job
      }
      switch next {
      case .some(.some(let job)): job.runSynchronously(on: executor)
      case .some(.none): return
      case .none: continue
      }
    }
  }
}
