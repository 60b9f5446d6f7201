#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A readers-writer lock over `pthread_rwlock_t`.
///
/// Readers share it; the exclusive side is taken only to change the memory map
/// (`mdb_env_set_mapsize`) and to close the environment, which LMDB allows only while no
/// transaction is active in the process. On glibc it prefers readers, so a thread that
/// already holds it shared may take it shared again (a read inside a write closure).
final class ReadWriteLock: @unchecked Sendable {
  // @unchecked: the pthread lock is the synchronisation primitive itself; its storage is
  // allocated once, never moved, and freed only in deinit.
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>

  init() {
    lock = .allocate(capacity: 1)
    pthread_rwlock_init(lock, nil)
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  func lockShared() { pthread_rwlock_rdlock(lock) }
  func lockExclusive() { pthread_rwlock_wrlock(lock) }
  func unlock() { pthread_rwlock_unlock(lock) }

  func withExclusive<R>(_ body: () throws -> R) rethrows -> R {
    lockExclusive()
    defer { unlock() }
    return try body()
  }
}

/// Marks the threads that are inside a write transaction, so that a nested write on the
/// same thread fails with a clear error instead of deadlocking on the writer lock.
enum WriterThread {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  static func isWriting(_ owner: AnyObject) -> Bool {
    let current: UnsafeMutableRawPointer? = pthread_getspecific(key)
    return current == Unmanaged.passUnretained(owner).toOpaque()
  }

  static func set(_ owner: AnyObject?) {
    pthread_setspecific(key, owner.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
  }
}
