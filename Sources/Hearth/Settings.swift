import Foundation
import Synchronization

/// How durable each commit is.
public enum Durability: Sendable {
  /// fsync at every commit (the default): a commit that returned survives a power loss.
  case full
  /// No fsync per commit: much faster writes; a crash of the process loses nothing, a
  /// crash of the machine may lose the last commits (never consistency on file systems
  /// that keep write order, such as ext4 and APFS).
  case relaxed
}

/// Options for opening a database.
public struct Settings: Sendable {
  public var durability: Durability = .full
  /// Reject, like production Firestore, queries that need a composite index that is not
  /// declared.
  public var requireIndexes = false
  /// Where listener callbacks and completion handlers run; a private serial queue by
  /// default. They run one at a time, in the order of the commits that raised them,
  /// even on a concurrent queue.
  public var dispatchQueue: DispatchQueue = DispatchQueue(label: "hearth.callbacks")
  /// Open an existing database without creating it, and refuse writes
  /// (`failedPrecondition`). The doc shell's reading commands use this.
  public var readOnly = false
  /// The first size of the memory map in bytes; it grows by itself as data arrives.
  public var initialMapSize = 64 << 20
  /// The permissions of a new database's files: readable and writable by their owner only
  /// by default. Its directory gets the same, with search permission wherever read is
  /// granted (`0o640` gives files `rw-r-----` in a `rwxr-x---` directory). The process's
  /// umask still applies; an existing database keeps its permissions.
  public var filePermissions: UInt16 = 0o600

  public init() {}

  /// The path `Database.firestore()` opens: the `HEARTH_DATABASE` environment variable,
  /// else `./default.hearth`. Settable, before the first `firestore()` call.
  public static var defaultPath: String {
    get {
      defaultPathOverride.withLock { $0 }
        ?? ProcessInfo.processInfo.environment["HEARTH_DATABASE"] ?? "./default.hearth"
    }
    set { defaultPathOverride.withLock { $0 = newValue } }
  }
  private static let defaultPathOverride = Mutex<String?>(nil)
}
