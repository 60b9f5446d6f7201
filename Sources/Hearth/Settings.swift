import Foundation
import Synchronization

/// How durable each commit is.
public enum Durability: Sendable {
  /// fsync at every commit (the default): a commit that returned survives a power loss.
  /// What is synced is the commit's record in the database's journal, one short write;
  /// the data file's pages are synced in bulk at checkpoints.
  case full
  /// No fsync per commit: faster writes; a crash of the process loses nothing, a crash
  /// of the machine may lose the last commits, never consistency (opening replays the
  /// journal from the last checkpoint as far as it reached the disk).
  case relaxed
}

/// Options for opening a database (Firebase's `FirestoreSettings`).
///
/// A class, as Firebase's is, so that ported code compiles unchanged:
///
/// ```swift
/// let settings = FirestoreSettings()
/// settings.cacheSettings = MemoryCacheSettings()
/// db.settings = settings
/// ```
///
/// A database keeps a copy: changing a `Settings` object after it was handed to
/// `Database(path:settings:)` or assigned to `db.settings` changes nothing until it is
/// assigned again, and `db.settings` returns a copy, as Firebase's does.
public final class Settings: Sendable, CustomStringConvertible {
  /// The settings' values, which a database keeps as its own copy.
  struct Values: Sendable {
    var durability = Durability.full
    var requireIndexes = false
    var dispatchQueue = DispatchQueue.main
    var readOnly = false
    var initialMapSize = 64 << 20
    var filePermissions: UInt16 = 0o600
    var cacheSettings: any LocalCacheSettings = PersistentCacheSettings()
    var host = "firestore.googleapis.com"
    var isSSLEnabled = true
    var isPersistenceEnabled = true
    var cacheSizeBytes: Int64 = 100 << 20

    /// Whether a database opened with `self` must be opened again to take `other`: the
    /// options the storage engine is opened with differ.
    func opensDifferently(from other: Values) -> Bool {
      durability != other.durability || readOnly != other.readOnly || initialMapSize != other.initialMapSize
        || filePermissions != other.filePermissions
    }
  }

  private let values: Mutex<Values>

  /// The defaults: `Durability.full`, the main queue, read-write, queries without
  /// declared indexes allowed.
  public init() { values = Mutex(Values()) }

  init(_ values: Values) { self.values = Mutex(values) }

  /// A copy of the values, for a database to keep.
  var snapshot: Values { values.withLock { $0 } }

  private subscript<T: Sendable>(_ key: WritableKeyPath<Values, T>) -> T {
    get { values.withLock { $0[keyPath: key] } }
    set { values.withLock { $0[keyPath: key] = newValue } }
  }

  /// Whether each commit is synced to disk before it returns (`.full`, the default) or
  /// left to the operating system (`.relaxed`).
  public var durability: Durability {
    get { self[\.durability] }
    set { self[\.durability] = newValue }
  }

  /// Reject, like production Firestore, queries that need a composite index that is not
  /// declared.
  public var requireIndexes: Bool {
    get { self[\.requireIndexes] }
    set { self[\.requireIndexes] = newValue }
  }

  /// Where listener callbacks and completion handlers written outside any actor run: the
  /// main queue by default, as in Firebase. A callback written on an actor (top-level
  /// code, a `@MainActor` type) runs on that actor whatever this says, because its type
  /// says it must. Callbacks run one at a time, in the order of the commits that raised
  /// them, even on a concurrent queue.
  ///
  /// A program that never lets the main queue run (no `await` in its top-level code, no
  /// `dispatchMain()` or `RunLoop.main.run()`) receives no callbacks there; give it a
  /// queue of its own here (for callbacks written outside any actor), and Hearth says so
  /// on standard error when a callback has waited 5 s for the main queue.
  public var dispatchQueue: DispatchQueue {
    get { self[\.dispatchQueue] }
    set { self[\.dispatchQueue] = newValue }
  }

  /// Open an existing database without creating it, and refuse writes
  /// (`failedPrecondition`). The doc shell's reading commands use this.
  public var readOnly: Bool {
    get { self[\.readOnly] }
    set { self[\.readOnly] = newValue }
  }

  /// The first size of the memory map in bytes; it grows by itself as data arrives.
  public var initialMapSize: Int {
    get { self[\.initialMapSize] }
    set { self[\.initialMapSize] = newValue }
  }

  /// The permissions of a new database's files: readable and writable by their owner only
  /// by default. Its directory gets the same, with search permission wherever read is
  /// granted (`0o640` gives files `rw-r-----` in a `rwxr-x---` directory). The process's
  /// umask still applies; an existing database keeps its permissions.
  public var filePermissions: UInt16 {
    get { self[\.filePermissions] }
    set { self[\.filePermissions] = newValue }
  }

  // MARK: Firebase's settings that have nothing to configure in Hearth

  /// Firebase's choice of local cache. Accepted and kept so that ported code compiles;
  /// Hearth has no cache in front of a server: every read and write is the database
  /// itself, persistent on disk, whichever kind is set.
  public var cacheSettings: any LocalCacheSettings {
    get { self[\.cacheSettings] }
    set { self[\.cacheSettings] = newValue }
  }

  /// Firebase's backend host (set to an emulator's address in tests). Accepted and kept;
  /// Hearth talks to no server, so it has no effect.
  public var host: String {
    get { self[\.host] }
    set { self[\.host] = newValue }
  }

  /// Whether Firebase uses TLS to reach `host`. Accepted and kept; no effect.
  public var isSSLEnabled: Bool {
    get { self[\.isSSLEnabled] }
    set { self[\.isSSLEnabled] = newValue }
  }

  /// Firebase's older switch for its disk cache (now `cacheSettings`). Accepted and kept;
  /// Hearth's data is always on disk.
  public var isPersistenceEnabled: Bool {
    get { self[\.isPersistenceEnabled] }
    set { self[\.isPersistenceEnabled] = newValue }
  }

  /// Firebase's older cache size limit (now `PersistentCacheSettings(sizeBytes:)`).
  /// Accepted and kept; Hearth keeps every document, with no cache to trim.
  public var cacheSizeBytes: Int64 {
    get { self[\.cacheSizeBytes] }
    set { self[\.cacheSizeBytes] = newValue }
  }

  /// The values Hearth acts on, for logs (Firebase's settings that change nothing left
  /// out).
  public var description: String {
    let values = snapshot
    return
      "Settings(durability: \(values.durability), requireIndexes: \(values.requireIndexes), "
      + "dispatchQueue: \(values.dispatchQueue.label), readOnly: \(values.readOnly), "
      + "initialMapSize: \(values.initialMapSize), filePermissions: 0o\(String(values.filePermissions, radix: 8)))"
  }

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

/// Firebase's `FirestoreCacheSizeUnlimited`, for `cacheSizeBytes` and
/// `PersistentCacheSettings(sizeBytes:)`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let FirestoreCacheSizeUnlimited: Int64 = -1
