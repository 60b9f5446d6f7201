import Foundation
import Synchronization

/// Warnings Hearth cannot return as errors (a refused `db.settings` assignment, callbacks
/// starved of the main queue), written to standard error as Firebase logs its own.
enum Diagnostics {
  private static let observer = Mutex<(@Sendable (String) -> Void)?>(nil)

  static func warn(_ message: String) {
    if let observer = observer.withLock({ $0 }) {
      observer(message)
    } else {
      FileHandle.standardError.write(Data((message + "\n").utf8))
    }
  }

  /// Sends warnings to `observer` instead of standard error while `body` runs (tests).
  static func observing<T>(_ observer: @escaping @Sendable (String) -> Void, _ body: () throws -> T) rethrows -> T {
    let previous = self.observer.withLock { current in
      defer { current = observer }
      return current
    }
    defer { self.observer.withLock { $0 = previous } }
    return try body()
  }
}
