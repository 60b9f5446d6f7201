import Foundation
import Synchronization

/// Runs callbacks one at a time, in the order they were queued: on a dispatch queue
/// (`CallbackPump`) or on an actor (`ActorCallbackPump`).
protocol CallbackRunner: Sendable {
  /// Queues `callback` to run after every callback queued before it.
  func enqueue(_ callback: @escaping @Sendable () -> Void)
}

/// Runs a database's callbacks (listener snapshots, completion handlers) on a dispatch
/// queue, one at a time and in the order they were queued.
///
/// Each `DispatchQueue.async` onto an idle queue wakes a thread, which costs the
/// committing thread as much as the listener's own work. So a commit only appends to
/// `pending`, and wakes the queue only when no block of the pump is on it. That block
/// runs what is pending, and during a burst of commits waits for the next callback in
/// short naps (the next commit is usually microseconds away) before it leaves. It never
/// holds the queue longer than `maximumBlock`, and never naps on the main queue, which
/// must stay free for the app.
final class CallbackPump: CallbackRunner {
  private struct Pending: Sendable {
    var callbacks: [@Sendable () -> Void] = []
    /// A block of the pump is on the queue or running: no need to wake it.
    var scheduled = false
  }

  let queue: DispatchQueue
  private let pending = Mutex(Pending())
  private let naps: Bool
  private let watch: MainQueueWatch?
  private static let nap: UInt32 = 25  // microseconds
  private static let napsBeforeLeaving = 8
  private static let maximumBlock: UInt64 = 10_000_000  // nanoseconds

  init(queue: DispatchQueue) {
    self.queue = queue
    naps = !queue.isMain
    watch = naps ? nil : MainQueueWatch()
  }

  func enqueue(_ callback: @escaping @Sendable () -> Void) {
    let wake = pending.withLock { pending in
      pending.callbacks.append(callback)
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if wake { schedule() }
  }

  private func schedule() {
    watch?.scheduled()
    queue.async { self.drain() }
  }

  private func drain() {
    watch?.started()
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
      if more { schedule() }
      return
    }
  }
}

extension DispatchQueue {
  /// A mark on the main queue: `DispatchQueue.main` is a new object at each use on Linux,
  /// so `===` cannot tell the main queue.
  private static let mainQueueMark: DispatchSpecificKey<Bool> = {
    let mark = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mark, value: true)
    return mark
  }()

  /// Whether this is the main queue.
  var isMain: Bool { getSpecific(key: Self.mainQueueMark) == true }
}

/// Says once per process, on standard error, when callbacks have waited
/// `MainQueueWatch.patience` for the main queue: a program that never lets the main queue
/// run (top-level code that blocks instead of awaiting) would otherwise wait for them in
/// silence.
///
/// One check is outstanding at a time, so a busy pump costs one timer per `patience`.
final class MainQueueWatch: Sendable {
  static let patience = 5.0  // seconds
  private let scheduledDrains = Atomic<Int>(0)
  private let startedDrains = Atomic<Int>(0)
  private let checking = Atomic<Bool>(false)
  private static let warned = Atomic<Bool>(false)

  /// A drain block was put on the main queue.
  func scheduled() {
    let ticket = scheduledDrains.add(1, ordering: .relaxed).newValue
    guard !Self.warned.load(ordering: .relaxed), !checking.exchange(true, ordering: .acquiring) else { return }
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.patience) { [self] in
      checking.store(false, ordering: .releasing)
      guard startedDrains.load(ordering: .acquiring) < ticket else { return }
      guard !Self.warned.exchange(true, ordering: .relaxed) else { return }
      Diagnostics.warn(
        "Hearth: listener and completion callbacks have waited \(Int(Self.patience)) s for the main queue. "
          + "Callbacks written on the main actor (top-level code, @MainActor types) run there, as Firebase's do: "
          + "let the main queue run (await in top-level code, dispatchMain() or RunLoop.main.run()), "
          + "or register from code outside any actor with Settings.dispatchQueue set to a queue of your own.")
    }
  }

  /// A drain block began to run.
  func started() { startedDrains.add(1, ordering: .releasing) }
}

/// Runs callbacks on an actor other than the main actor (a callback written in an actor's
/// method is isolated to it), one at a time and in the order they were queued, through
/// one task at a time.
final class ActorCallbackPump: CallbackRunner {
  private struct Pending: Sendable {
    var callbacks: [@Sendable () -> Void] = []
    var scheduled = false
  }

  private let actor: any Actor
  private let pending = Mutex(Pending())

  init(actor: any Actor) { self.actor = actor }

  func enqueue(_ callback: @escaping @Sendable () -> Void) {
    let wake = pending.withLock { pending in
      pending.callbacks.append(callback)
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if wake { Task { await drain(on: actor) } }
  }

  private func drain(on actor: isolated any Actor) {
    while true {
      let callbacks = pending.withLock { pending in
        let callbacks = pending.callbacks
        pending.callbacks = []
        if callbacks.isEmpty { pending.scheduled = false }
        return callbacks
      }
      if callbacks.isEmpty { return }
      for callback in callbacks { callback() }
    }
  }
}
