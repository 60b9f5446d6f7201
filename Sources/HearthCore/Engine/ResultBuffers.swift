import Dispatch
import Synchronization

/// The bytes of one query's results, which their snapshots share: each result is a
/// stretch of `bytes`.
///
/// `@unchecked Sendable`: `bytes` is written only by `ResultBuffers.buffer`, while no
/// one but the pool and the query filling it holds the buffer.
package final class ResultBuffer: @unchecked Sendable {
  /// Unchecked for exclusivity: snapshots on any thread read it, and it is written only
  /// while none holds the buffer.
  @exclusivity(unchecked) package fileprivate(set) var bytes: [UInt8]

  /// A buffer of `count` bytes, written by `fill` (given all of them, uninitialized).
  package init(holding count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
    bytes = [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
      fill(UnsafeMutableRawBufferPointer(bytes))
      initialized = count
    }
  }
}

/// Buffers of results kept for the next queries, each handed out again once every
/// snapshot that shared it is gone.
///
/// Why: a page of results is a request of more than 1 KiB, and such a request makes glibc
/// first consolidate the small objects freed since (the previous page's snapshots, more
/// than its per-thread cache of 7 a size holds), after which every object the query makes
/// comes from glibc's slow path. A buffer taken from here makes no request; nor does the
/// merge's array of candidates, the other such request, kept here between queries
/// (`spareArray`). Measured (callgrind, December 2026): a whole collection of 100 read in
/// 11% fewer instructions, a feed of 20, a range of 50 and an `in` of 5 in ~3% fewer;
/// keeping either alone saved nothing, and a buffer a result instead of a shared one cost
/// 8–18% more.
///
/// A buffer is reused only for results it fits within four times over, so that a kept
/// snapshot never holds much more than its query's bytes; at most `kept` are kept, none
/// smaller than `smallest` (a request glibc serves without consolidating) nor larger
/// than `largest`.
///
/// One buffer larger than that (a large collection, or a group, read at once) is kept
/// too, and so is a large spare array, but only for `largeKeptFor` after the last query
/// that used it: glibc maps such a request afresh, and it is faulted in page by page as
/// the results are copied into it. Reading a group of 100,000 posts (~36 MB) again and
/// again went from 0.72–0.92M to 0.92–1.13M documents/s (hearth-bench, December 2026).
/// Kept for a moment, it serves an app that reads large results one after another, and
/// is given back once the app stops.
package final class ResultBuffers: Sendable {
  private struct State {
    var buffers: [ResultBuffer] = []
    /// An empty array handed back by the last query, kept for its capacity.
    var spare: AnyObject?
    /// Counts the arrays handed back: a release scheduled before the last does nothing.
    var spareUses = 0
    /// The last buffer larger than `largest`, while `largeKeptFor` has not passed since a
    /// query took it.
    var large: ResultBuffer?
    /// Counts the queries that took `large`: a release scheduled before the last of them
    /// does nothing.
    var largeUses = 0
  }
  private let state = Mutex(State())

  static let kept = 4
  static let smallest = 1 << 10
  static let largest = 1 << 20
  static let largeKeptFor = DispatchTimeInterval.seconds(1)

  package init() {}

  /// A buffer holding `count` bytes, written by `fill` (given all of them to write over).
  package func buffer(holding count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> ResultBuffer {
    // A smaller request does not make glibc consolidate.
    guard count >= Self.smallest else { return ResultBuffer(holding: count, fill) }
    if count > Self.largest { return large(holding: count, fill) }
    let reused = state.withLock { state -> ResultBuffer? in
      for index in state.buffers.indices where isKnownUniquelyReferenced(&state.buffers[index]) {
        if Self.fits(state.buffers[index], count) { return state.buffers[index] }
      }
      return nil
    }
    guard let reused else {
      let buffer = ResultBuffer(holding: count, fill)
      keep(buffer)
      return buffer
    }
    refill(reused, count, fill)
    return reused
  }

  /// Whether `buffer` holds `count` bytes without holding more than four times as many.
  private static func fits(_ buffer: ResultBuffer, _ count: Int) -> Bool {
    let capacity = buffer.bytes.capacity
    return capacity >= count && capacity <= count * 4
  }

  /// `buffer(holding:_:)` for more than `largest` bytes: the kept large buffer when no
  /// snapshot holds it and it fits, else a new one kept in its place; either way kept
  /// for `largeKeptFor` from now.
  private func large(holding count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> ResultBuffer {
    let reused = state.withLock { state -> ResultBuffer? in
      guard state.large != nil, isKnownUniquelyReferenced(&state.large!), Self.fits(state.large!, count) else {
        return nil
      }
      return state.large
    }
    let buffer: ResultBuffer
    if let reused {
      refill(reused, count, fill)
      buffer = reused
    } else {
      buffer = ResultBuffer(holding: count, fill)
    }
    let uses = state.withLock { state in
      state.large = buffer
      state.largeUses += 1
      return state.largeUses
    }
    afterLargeKeptFor { state in
      if state.largeUses == uses { state.large = nil }
    }
    return buffer
  }

  /// Runs `release` under the pool's lock once `largeKeptFor` has passed (unless the
  /// pool is gone by then).
  private func afterLargeKeptFor(_ release: @escaping @Sendable (inout State) -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.largeKeptFor) { [weak self] in
      self?.state.withLock { release(&$0) }
    }
  }

  /// Writes `count` bytes over a kept buffer that no snapshot holds any more.
  private func refill(_ reused: ResultBuffer, _ count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
    // Every snapshot that read it released it before the check above saw it unique.
    atomicMemoryFence(ordering: .acquiring)
    // Bytes past `count` are left as they are: results are read by their ranges.
    if reused.bytes.count < count {
      reused.bytes.append(contentsOf: repeatElement(0, count: count - reused.bytes.count))
    }
    reused.bytes.withUnsafeMutableBytes { fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<count])) }
  }

  /// The array the last query handed back (`keepSpare`), emptied, or a new one.
  package func spareArray<Element>(of: Element.Type) -> [Element] {
    state.withLock { state in
      guard let box = state.spare as? SpareArray<Element> else { return [] }
      return box.take()
    }
  }

  /// Keeps `array`'s storage (emptied) for the next `spareArray`. One larger than
  /// `largest` is kept only when its query filled at least a quarter of it, and only for
  /// `largeKeptFor` (as a large buffer is: it too was faulted in afresh).
  package func keepSpare<Element>(_ array: consuming [Element]) {
    let bytes = array.capacity * MemoryLayout<Element>.stride
    let isLarge = bytes > Self.largest
    if isLarge, array.count * MemoryLayout<Element>.stride * 4 < bytes { return }
    array.removeAll(keepingCapacity: true)
    let spare = array
    let uses = state.withLock { state in
      if let box = state.spare as? SpareArray<Element> {
        box.array = spare
      } else {
        state.spare = SpareArray(spare)
      }
      state.spareUses += 1
      return state.spareUses
    }
    guard isLarge else { return }
    afterLargeKeptFor { state in
      if state.spareUses == uses { state.spare = nil }
    }
  }

  /// Whether an array is kept for the next `spareArray` (for tests: asking does not take it).
  var keepsSpare: Bool { state.withLock { $0.spare != nil } }

  /// An array kept for its capacity, in a box that stays (no allocation a query).
  /// `@unchecked Sendable`: used under the pool's lock only, and kept only when empty, so
  /// no element crosses threads.
  private final class SpareArray<Element>: @unchecked Sendable {
    var array: [Element]
    init(_ array: [Element]) { self.array = array }
    func take() -> [Element] {
      var taken: [Element] = []
      swap(&taken, &array)
      return taken
    }
  }

  /// Keeps `buffer` for reuse, in place of one that no snapshot holds when all are kept.
  private func keep(_ buffer: ResultBuffer) {
    guard buffer.bytes.capacity <= Self.largest else { return }
    state.withLock { state in
      if state.buffers.count < Self.kept {
        state.buffers.append(buffer)
      } else if let idle = state.buffers.indices.first(where: { isKnownUniquelyReferenced(&state.buffers[$0]) }) {
        state.buffers[idle] = buffer
      }
    }
  }
}
