/// The streams' next candidates, the first in walk order on top: at most one a stream.
///
/// The candidates stay in their stream's slot of `heads` and the heap orders the streams'
/// numbers, so that sifting swaps integers: a swapped or compared candidate would be
/// copied, which retains and releases its key and fields. Candidates with sort keys
/// (`SortKey`) are compared by those, kept beside them, without touching the candidates.
struct CandidateHeap {
  private var heads: [Candidate?]
  /// Each stream's head's sort key, when it has one.
  private var keys: [SortKey?]
  /// The streams that have a candidate in `heads`, a binary heap in walk order.
  private var streams: [Int] = []
  /// Whether the walk meets sort keys in ascending byte order.
  private let keysForward: Bool
  /// The walk order of candidates without sort keys.
  private let precedes: (Candidate, Candidate) throws -> Bool

  init(streams count: Int, keysForward: Bool, _ precedes: @escaping (Candidate, Candidate) throws -> Bool) {
    heads = Array(repeating: nil, count: count)
    keys = Array(repeating: nil, count: count)
    streams.reserveCapacity(count)
    self.keysForward = keysForward
    self.precedes = precedes
  }

  /// Whether stream `a`'s candidate comes before stream `b`'s.
  @inline(__always) private func before(_ a: Int, _ b: Int) throws -> Bool {
    if let x = keys[a], let y = keys[b] {
      let position = x.compare(y)
      return keysForward ? position < 0 : position > 0
    }
    return try precedes(heads[a]!, heads[b]!)
  }

  /// Takes `candidate` as the next of `stream`, which has none in the heap.
  mutating func insert(_ candidate: consuming Candidate, stream: Int) throws {
    keys[stream] = candidate.sortKey
    // Moved: assigned as it is, it was copied and the parameter destroyed (~200
    // instructions an insert, retaining and releasing its key and fields).
    heads[stream] = consume candidate
    streams.append(stream)
    var child = streams.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard try before(streams[child], streams[parent]) else { break }
      streams.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the first candidate and its stream.
  mutating func popFirst() throws -> (candidate: Candidate, stream: Int)? {
    guard !streams.isEmpty else { return nil }
    streams.swapAt(0, streams.count - 1)
    let first = streams.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var least = parent
      if left < streams.count, try before(streams[left], streams[least]) { least = left }
      if right < streams.count, try before(streams[right], streams[least]) { least = right }
      guard least != parent else { break }
      streams.swapAt(parent, least)
      parent = least
    }
    return (heads[first].take()!, first)
  }
}
