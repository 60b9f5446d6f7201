import Foundation
import Synchronization

/// Ctrl-C in the interactive shell: while a command runs, SIGINT only records a request,
/// which long commands (`watch`) look at to stop, so that Ctrl-C ends the command and
/// not the shell. Outside the interactive shell SIGINT keeps its default: it ends
/// `hearth`.
enum Interrupts {
  private static let requested = Atomic<Bool>(false)

  /// Catches SIGINT from now on. The handler only stores to an atomic, which is safe in
  /// a signal handler.
  static func catchInterrupts() {
    reset()
    signal(SIGINT) { _ in Interrupts.requested.store(true, ordering: .relaxed) }
  }

  /// Forgets a request (before the next command starts).
  static func reset() { requested.store(false, ordering: .relaxed) }

  /// Whether Ctrl-C was pressed since the command started.
  static var isRequested: Bool { requested.load(ordering: .relaxed) }

  /// Waits for `semaphore`; `false` when Ctrl-C came first.
  static func wait(for semaphore: DispatchSemaphore) -> Bool {
    while semaphore.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
      if isRequested { return false }
    }
    return true
  }
}
