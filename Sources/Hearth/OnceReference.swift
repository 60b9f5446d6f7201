import Synchronization

/// An object set at most once and read without a lock, as `AtomicLazyReference` keeps
/// one. This one is compiled into the module that uses it: the standard library's type
/// ran its `load` and `storeIfNil` as unspecialized calls with a metadata lookup each,
/// ~1,200 instructions a `data()`; here both are a few atomic instructions.
struct OnceReference<Object: AnyObject>: ~Copyable {
  /// Holds one retain of the stored object, released with the reference.
  private let stored = Atomic<Unmanaged<Object>?>(nil)

  init() {}

  /// The object stored, or `nil` when none is yet.
  func load() -> Object? {
    stored.load(ordering: .acquiring)?.takeUnretainedValue()
  }

  /// Stores `object` unless another was stored first; returns the one stored, which
  /// every caller then shares.
  func storeIfNil(_ object: Object) -> Object {
    let retained = Unmanaged.passRetained(object)
    let (stored, current) = stored.compareExchange(
      expected: nil, desired: retained, ordering: .acquiringAndReleasing)
    if stored { return object }
    retained.release()
    return current!.takeUnretainedValue()
  }

  deinit { stored.load(ordering: .relaxed)?.release() }
}
