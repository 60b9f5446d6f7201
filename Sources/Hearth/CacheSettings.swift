import Foundation

/// Firebase's local-cache configuration types, accepted so that ported code compiles
/// unchanged (`settings.cacheSettings = PersistentCacheSettings(sizeBytes: 100 << 20 as NSNumber)`).
///
/// Firebase keeps a cache in front of its server; Hearth is the database itself, always
/// persistent on disk, so none of these changes what Hearth does. They keep what they
/// were given, so that a program can read back what it set.
public protocol LocalCacheSettings: Sendable {}

/// Firebase's persistent disk cache, with an optional size limit in bytes.
public final class PersistentCacheSettings: LocalCacheSettings, CustomStringConvertible {
  /// The size limit given, or `nil` for Firebase's default (100 MB).
  public let sizeBytes: Int64?

  /// Firebase's default size limit.
  public init() { sizeBytes = nil }
  /// A size limit in bytes (`FirestoreCacheSizeUnlimited` for none), kept and unused.
  public init(sizeBytes: NSNumber) { self.sizeBytes = sizeBytes.int64Value }

  /// `PersistentCacheSettings(sizeBytes: …)`.
  public var description: String { "PersistentCacheSettings(sizeBytes: \(sizeBytes.map(String.init) ?? "default"))" }
}

/// Firebase's memory-only cache, with its garbage collector's settings.
public final class MemoryCacheSettings: LocalCacheSettings, CustomStringConvertible {
  /// The collector given (eager by default), kept and unused.
  public let garbageCollectorSettings: any MemoryGarbageCollectorSettings

  /// A memory cache with the eager collector, Firebase's default.
  public init() { garbageCollectorSettings = MemoryEagerGCSettings() }
  /// A memory cache with the given collector.
  public init(garbageCollectorSettings: any MemoryGarbageCollectorSettings) {
    self.garbageCollectorSettings = garbageCollectorSettings
  }

  /// `MemoryCacheSettings(…)`, with the collector's description.
  public var description: String { "MemoryCacheSettings(\(garbageCollectorSettings))" }
}

/// How Firebase's memory cache drops documents.
public protocol MemoryGarbageCollectorSettings: Sendable {}

/// Firebase's eager collector: drops documents no listener needs.
public final class MemoryEagerGCSettings: MemoryGarbageCollectorSettings, CustomStringConvertible {
  /// The eager collector (it has no options).
  public init() {}
  /// `MemoryEagerGCSettings()`.
  public var description: String { "MemoryEagerGCSettings()" }
}

/// Firebase's least-recently-used collector, with an optional size limit in bytes.
public final class MemoryLRUGCSettings: MemoryGarbageCollectorSettings, CustomStringConvertible {
  /// The size limit given, or `nil` for Firebase's default (100 MB).
  public let sizeBytes: Int64?

  /// Firebase's default size limit.
  public init() { sizeBytes = nil }
  /// A size limit in bytes, kept and unused.
  public init(sizeBytes: NSNumber) { self.sizeBytes = sizeBytes.int64Value }

  /// `MemoryLRUGCSettings(sizeBytes: …)`.
  public var description: String { "MemoryLRUGCSettings(sizeBytes: \(sizeBytes.map(String.init) ?? "default"))" }
}
