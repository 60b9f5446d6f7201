import Foundation
import Synchronization

/// Runs a database's callbacks (listener snapshots, completion handlers) on its
/// `Settings.dispatchQueue`, one at a time and in the order they were queued.
///
/// Each `DispatchQueue.async` onto an idle queue wakes a thread, which costs the
/// committing thread as much as the listener's own work. So a commit only appends to
/// `pending`, and wakes the queue only when no block of the pump is on it. That block
/// runs what is pending, and during a burst of commits waits for the next callback in
/// short naps (the next commit is usually microseconds away) before it leaves. It never
/// holds the queue longer than `maximumBlock`, and never naps on the main queue, which
/// must stay free for the app.
final class CallbackPump: Sendable {
  private struct Pending: Sendable {
    var callbacks: [@Sendable () -> Void] = []
    /// A block of the pump is on the queue or running: no need to wake it.
    var scheduled = false
  }

  private let queue: DispatchQueue
  private let pending = Mutex(Pending())
  private let naps: Bool
  private static let nap: UInt32 = 25  // microseconds
  private static let napsBeforeLeaving = 8
  private static let maximumBlock: UInt64 = 10_000_000  // nanoseconds

  init(queue: DispatchQueue) {
    self.queue = queue
    naps = queue !== DispatchQueue.main
  }

  /// Queues `callback` to run after every callback queued before it.
  func enqueue(_ callback: @escaping @Sendable () -> Void) {
    let wake = pending.withLock { pending in
      pending.callbacks.append(callback)
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if wake { queue.async { self.drain() } }
  }

  private func drain() {
    let start = DispatchTime.now().uptimeNanoseconds
    var idleNaps = 0
    while true {
      let callbacks = pending.withLock { pending in
        defer { pending.callbacks = [] }
        return pending.callbacks
      }
      for callback in callbacks { callback() }
      idleNaps = callbacks.isEmpty ? idleNaps + 1 : 0
      let overdue = DispatchTime.now().uptimeNanoseconds - start > Self.maximumBlock
      if naps, !overdue, idleNaps <= Self.napsBeforeLeaving {
        usleep(Self.nap)
        continue
      }
      let more = pending.withLock { pending in
        if pending.callbacks.isEmpty { pending.scheduled = false }
        return pending.scheduled
      }
      if more { queue.async { self.drain() } }
      return
    }
  }
}
