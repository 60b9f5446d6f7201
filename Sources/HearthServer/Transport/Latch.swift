import Synchronization

/// A one-way gate that tasks wait at until some thread opens it: how the transport's
/// threads (the completion queue's, a handler's) tell an awaiting task that something
/// finished, without blocking a thread of Swift's small cooperative pool.
final class Latch: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  init() {}

  var isOpen: Bool { state.withLock { $0.isOpen } }

  /// Opens the latch (again is harmless) and lets every waiter go on.
  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the latch is open.
  func wait() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state -> Bool in
        if !state.isOpen { state.waiters.append(waiter) }
        return state.isOpen
      }
      if isOpen { waiter.resume() }
    }
  }
}
