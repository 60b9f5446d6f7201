/// A coding path as a chain from a value back to the document, built as decoding goes
/// down and turned into the `[CodingKey]` that `codingPath` and errors show only when
/// they ask for it.
///
/// Copying `codingPath + [key]` for every value cost more than converting the value
/// itself, and almost nothing reads it: a value converted directly (a string, a number)
/// never builds its node at all — the containers pass it as an `@autoclosure` — and a
/// nested container or decoder adds one small node. Swift's own `JSONDecoder` does the
/// same.
indirect enum CodingPathNode {
  case root
  case key(any CodingKey, parent: CodingPathNode)
  case index(Int, parent: CodingPathNode)

  /// The path as `Decoder.codingPath` gives it, from the document down; an array
  /// element's key is an `IndexKey`.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while true {
      switch node {
      case .root: return keys.reversed()
      case .key(let key, let parent):
        keys.append(key)
        node = parent
      case .index(let index, let parent):
        keys.append(IndexKey(index))
        node = parent
      }
    }
  }
}
