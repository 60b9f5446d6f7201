import Foundation
import Synchronization

/// Threads of a server's own that run submitted work in order of submission: the call
/// handlers' executor (`CallExecutor`) and the service's blocking work (`WorkerThreads`)
/// each have one, so that neither depends on Swift's cooperative pool or Dispatch's
/// global queues, which other code may hold.
final class ThreadPool: Sendable {
  private struct Queue {
    var jobs: [@Sendable () -> Void] = []
    var head = 0
    var stopped = false
  }

  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)
  private let count: Int

  /// Starts `count` threads named `name.0`, `name.1`, …, which wait for work until `stop`.
  init(threads count: Int, name: String) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { [self] in work() }
      thread.name = "\(name).\(index)"
      thread.start()
    }
  }

  /// Queues `job`; false once the pool has stopped (the job is not run).
  func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
    let accepted = queue.withLock { queue -> Bool in
      guard !queue.stopped else { return false }
      queue.jobs.append(job)
      return true
    }
    if accepted { available.signal() }
    return accepted
  }

  /// Lets the threads run what is queued, then end.
  func stop() {
    queue.withLock { $0.stopped = true }
    for _ in 0..<count { available.signal() }
  }

  private func work() {
    while true {
      available.wait()
      let next = queue.withLock { queue -> (@Sendable () -> Void)?? in
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
      case .some(.some(let job)): job()
      case .some(.none): return
      case .none: continue
      }
    }
  }
}
