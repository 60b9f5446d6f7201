/// The streams' next candidates, the first in walk order on top.
struct CandidateHeap {
  private var items: [(candidate: Candidate, stream: Int)] = []
  let precedes: (Candidate, Candidate) -> Bool

  init(_ precedes: @escaping (Candidate, Candidate) -> Bool) { self.precedes = precedes }

  mutating func insert(_ candidate: Candidate, stream: Int) {
    items.append((candidate, stream))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(items[child].candidate, items[parent].candidate) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popFirst() -> (candidate: Candidate, stream: Int)? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let first = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var least = parent
      if left < items.count, precedes(items[left].candidate, items[least].candidate) { least = left }
      if right < items.count, precedes(items[right].candidate, items[least].candidate) { least = right }
      guard least != parent else { return first }
      items.swapAt(parent, least)
      parent = least
    }
  }
}
