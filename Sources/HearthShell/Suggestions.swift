/// "Did you mean…?" for mistyped command and option names.
enum Suggestions {
  /// The candidate closest to `input`: a unique candidate that `input` starts (`upd` →
  /// `update`), else the nearest by edit distance when it is close enough to be a typo
  /// (at most one edit in four characters, at least one).
  static func nearest(to input: String, in candidates: [String]) -> String? {
    guard !input.isEmpty else { return nil }
    let prefixed = candidates.filter { $0.hasPrefix(input) }
    if prefixed.count == 1 { return prefixed[0] }
    let limit = max(1, input.count / 4)
    let scored = candidates.map { (candidate: $0, distance: editDistance(input, $0)) }
      .filter { $0.distance <= limit }
    return scored.min { $0.distance < $1.distance }?.candidate
  }

  /// Levenshtein distance with adjacent transpositions counted as one edit (`sl` → `ls`).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased())
    let b = Array(b.lowercased())
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
