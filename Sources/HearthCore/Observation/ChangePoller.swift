import Dispatch
import HearthStorage
import Synchronization

/// Brings other processes' commits to this process's observers: while any observer is
/// registered, it looks every `interval` at LMDB's last transaction ID (shared memory, no
/// transaction), and when another process has committed, reads the change log from where
/// it stopped and hands the changes to the observers they touch.
///
/// It runs with this process's writes paused, so observers still see one set of changes
/// at a time. This process's own commits are handed over by the commits themselves;
/// their log entries are skipped when nothing came between, and otherwise re-read, which
/// changes nothing a view has already seen.
final class ChangePoller: Sendable {
  static let interval = DispatchTimeInterval.milliseconds(20)
  static let recheckEvery = 50

  private struct State {
    /// The last log sequence whose changes observers have had.
    var sequence: UInt64 = 0
    /// The ID of the last transaction whose log was read.
    var transaction = 0
    /// Polls since the log was last read: every `recheckEvery` polls it is read even when
    /// the transaction ID looks unchanged (a safety net that costs one read a second).
    var quietPolls = 0
    var timer: DispatchSourceTimer?
  }

  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "hearth.change-poller")

  /// Starts polling from `sequence`, the log's end on the state the first observer
  /// started from, and `transaction`, that state's transaction ID, unless already polling.
  func start(store: DocumentStore, from sequence: UInt64, transaction: Int) {
    state.withLock { state in
      guard state.timer == nil else { return }
      state.sequence = sequence
      state.transaction = transaction
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(5))
      timer.setEventHandler { [weak store, weak self] in
        guard let store, let self else { return }
        self.poll(store)
      }
      state.timer = timer
      timer.resume()
    }
  }

  func stop() {
    state.withLock { state in
      state.timer?.cancel()
      state.timer = nil
    }
  }

  /// Records that this process's commit `sequence` has reached the observers: the next
  /// poll starts after it, when nothing came between.
  func committed(_ sequence: UInt64) {
    state.withLock { state in
      if state.sequence &+ 1 == sequence { state.sequence = sequence }
    }
  }

  private func poll(_ store: DocumentStore) {
    let observers = store.observers
    if observers.count == 0 {
      stop()
      return
    }
    let transaction = store.environment.lastTransactionID()
    let due = state.withLock { state in
      state.quietPolls += 1
      return state.transaction != transaction || state.quietPolls >= Self.recheckEvery
    }
    guard due, let log = store.tables.changes else { return }
    try? store.environment.withWritesPaused {
      let from = state.withLock { $0.sequence }
      // The snapshot's own ID, not `transaction`: a commit whose meta page is written but
      // not yet published to readers is then looked for again at the next poll.
      let (changes, last, read) = try store.environment.read { txn in
        let (changes, last) = try ChangeLog.changes(after: from, in: txn, table: log)
        return (changes, last, txn.id)
      }
      state.withLock { state in
        state.sequence = last
        state.transaction = read
        state.quietPolls = 0
      }
      if changes.everything || !changes.keys.isEmpty { observers.notify(changes, store: store) }
    }
  }
}
