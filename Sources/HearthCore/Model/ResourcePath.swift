/// A slash-separated path of collection and document IDs, such as `users/alice/posts`.
///
/// Paths are compared segment by segment (each by UTF-8 bytes), then by length, which is
/// Firestore's document-ID (`__name__`) order.
package struct ResourcePath: Hashable, Sendable, CustomStringConvertible {
  package let segments: [String]

  /// A path of already-valid segments. Use `parse` for user input.
  package init(_ segments: [String]) { self.segments = segments }

  package static let root = ResourcePath([])

  /// The longest ID Hearth stores, in UTF-8 bytes. Firestore allows 1,500; Hearth keeps a
  /// document's key (collection number + ID) and its index entries within LMDB's 511-byte
  /// key limit, so IDs stop at 256 bytes.
  package static let maxIDBytes = 256
  /// The deepest nesting Hearth stores: 100 collections in a path, as in Firestore.
  package static let maxCollectionDepth = 100

  package var description: String { canonical }
  /// The segments joined by `/`, without a leading slash.
  package var canonical: String { segments.joined(separator: "/") }
  package var count: Int { segments.count }
  package var isEmpty: Bool { segments.isEmpty }
  package var last: String? { segments.last }

  /// Segments are equal when their UTF-8 bytes are, as Firestore compares IDs (Swift's
  /// own `String ==` would also equate canonically equivalent spellings such as
  /// `"\u{E9}"` and `"e\u{301}"`, which are different IDs).
  package static func == (a: ResourcePath, b: ResourcePath) -> Bool {
    a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy { Value.compareUTF8($0, $1) == 0 }
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(segments.count)
    for var segment in segments {
      segment.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  package var parent: ResourcePath? {
    segments.isEmpty ? nil : ResourcePath(Array(segments.dropLast()))
  }

  package func appending(_ segment: String) -> ResourcePath {
    var extended: [String] = []
    extended.reserveCapacity(segments.count + 1)
    extended += segments
    extended.append(segment)
    return ResourcePath(extended)
  }
  package func appending(_ path: ResourcePath) -> ResourcePath { ResourcePath(segments + path.segments) }

  package func isPrefix(of other: ResourcePath) -> Bool {
    other.segments.count >= segments.count && zip(segments, other.segments).allSatisfy { $0 == $1 }
  }

  /// -1, 0 or 1: segment by segment (`NumericID.compare`: numeric IDs first, the rest
  /// in UTF-8 byte order), then the shorter path first.
  package func compare(_ other: ResourcePath) -> Int {
    for (a, b) in zip(segments, other.segments) {
      let result = NumericID.compare(a, b)
      if result != 0 { return result }
    }
    return Value.order(segments.count, other.segments.count)
  }

  /// Where this collection's documents fall in name order against the document at `key`.
  enum Placement: Equatable {
    /// All of them order before it, or all after it.
    case before, after
    /// It is this collection's document `id` (`isKey`), or lies under it: the documents
    /// before `id` order before `key`, those after it after, and `id` itself, when not
    /// `key`, is an ancestor of it, which orders first.
    case around(id: String, isKey: Bool)
  }

  /// Where this collection's documents fall against the document at `key`: the first
  /// segment where the paths differ decides for all of them.
  func placement(against key: DocumentKey) -> Placement {
    let parent = key.collectionPath.segments
    for (index, segment) in segments.enumerated() {
      let order = NumericID.compare(segment, index < parent.count ? parent[index] : key.documentID)
      if order != 0 { return order < 0 ? .before : .after }
      // This collection lies under `key`'s document, which orders before all it holds.
      if index == parent.count { return .after }
    }
    let isKey = segments.count == parent.count
    return .around(id: isKey ? key.documentID : parent[segments.count], isKey: isKey)
  }

  // MARK: - Parsing and validation

  /// Parses a path string as the Swift SDK does: one leading and one trailing `/` are
  /// ignored; `//`, an empty path, and invalid IDs are rejected. A relative path that
  /// `startsWithDocument` (a document's path below a collection) may have a numeric ID
  /// (`NumericID`) first, and every other segment after.
  ///
  /// - Throws: `invalidArgument` naming the path and the rule broken.
  package static func parse(_ string: String, what: String = "Path", startsWithDocument: Bool = false) throws
    -> ResourcePath
  {
    ResourcePath(try segments(of: string, what: what, startsWithDocument: startsWithDocument))
  }

  /// The checked segments of the path `string` (see `parse`), in one pass over its UTF-8
  /// bytes and one array of the exact size: a path is parsed each time a reference is
  /// made. The few segments whose bytes may break a rule are checked by
  /// `problem(withID:)`, which words the error.
  static func segments(of string: String, what: String, startsWithDocument: Bool = false) throws -> [String] {
    var copy = string
    let slash = UInt8(ascii: "/")
    let segments = try copy.withUTF8 { bytes -> [String] in
      var slashes = 0
      var previous: UInt8 = 0
      for byte in bytes {
        if byte == slash {
          if previous == slash {
            throw HearthError.invalidArgument("Invalid path (\(string)). Paths must not contain // in them.")
          }
          slashes += 1
        }
        previous = byte
      }
      var start = bytes.first == slash ? 1 : 0
      var end = bytes.count
      if end > start, bytes[end - 1] == slash { end -= 1 }
      guard start < end else { throw HearthError.invalidArgument("\(what) cannot be empty.") }
      var segments: [String] = []
      segments.reserveCapacity(slashes + 1 - start - (end < bytes.count ? 1 : 0))
      for position in start...end where position == end || bytes[position] == slash {
        let segment = UnsafeBufferPointer(rebasing: bytes[start..<position])
        let id = String(decoding: segment, as: UTF8.self)
        if mayBreakARule(segment),
          let problem = problem(withID: id, isDocumentID: (segments.count % 2 == 1) != startsWithDocument)
        {
          throw HearthError.invalidArgument("Invalid path (\(string)). \(problem)")
        }
        segments.append(id)
        start = position + 1
      }
      return segments
    }
    if (segments.count + 1) / 2 > maxCollectionDepth {
      throw HearthError.invalidArgument(
        "Invalid path (\(abbreviated(string))). It is \((segments.count + 1) / 2) collections deep; "
          + "Hearth supports at most \(maxCollectionDepth) levels of nesting.")
    }
    return segments
  }

  /// Whether a segment between slashes (never empty, never holding `/`) might be `.` or
  /// `..`, reserved (`__…__`) or too long: only then is `problem(withID:)` asked.
  private static func mayBreakARule(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = id.count
    return count > maxIDBytes || (count <= 2 && id[0] == UInt8(ascii: "."))
      || (count >= shortestReserved && id[0] == UInt8(ascii: "_") && id[1] == UInt8(ascii: "_"))
  }

  /// The shortest name the backend reserves: `__.+__`, IDs and field names alike (Google's
  /// emulator stores `__`, `___` and `____`).
  package static let shortestReserved = 5

  /// Whether `name` begins and ends with `__` and has `shortest` bytes or more. Compared by
  /// bytes, as the SDKs and the backend compare: Swift's `hasPrefix` compares characters,
  /// and an accent joined to the second underscore (`"__\u{301}x__"`) would hide it.
  package static func isUnderscored(_ name: UnsafeBufferPointer<UInt8>, shortest: Int) -> Bool {
    let count = name.count
    let underscore = UInt8(ascii: "_")
    return count >= max(shortest, 2) && name[0] == underscore && name[1] == underscore
      && name[count - 2] == underscore && name[count - 1] == underscore
  }

  /// Checks every segment and the depth of an assembled path.
  package func validate(original: String? = nil) throws {
    for (index, segment) in segments.enumerated() {
      if let problem = ResourcePath.problem(withID: segment, isDocumentID: index % 2 == 1) {
        throw HearthError.invalidArgument("Invalid path (\(original ?? canonical)). \(problem)")
      }
    }
    if (segments.count + 1) / 2 > ResourcePath.maxCollectionDepth {
      throw HearthError.invalidArgument(
        "Invalid path (\(ResourcePath.abbreviated(original ?? canonical))). It is \((segments.count + 1) / 2) collections deep; "
          + "Hearth supports at most \(ResourcePath.maxCollectionDepth) levels of nesting.")
    }
  }

  /// Why `id` cannot be a collection or document ID, or `nil` when it can. Its bytes are
  /// checked, as Firestore's SDKs check them (a reference is checked each time one is made);
  /// reserved are the backend's (`isUnderscored`, `shortestReserved`), but for a document's
  /// numeric ID (`NumericID`).
  package static func problem(withID id: String, isDocumentID: Bool = false) -> String? {
    var text = id
    // Contiguous bytes: a string's UTF-8 view steps an index a byte (~800 instructions
    // for a short ID, paid for every segment of every path made).
    let (bytes, slash, dotsOnly, reserved) = text.withUTF8 { utf8 in
      let dot = UInt8(ascii: ".")
      return (
        utf8.count, utf8.contains(UInt8(ascii: "/")), utf8.allSatisfy { $0 == dot },
        isUnderscored(utf8, shortest: shortestReserved)
      )
    }
    if bytes == 0 { return "IDs must not be empty." }
    if slash { return "ID '\(id)' must not contain '/'." }
    if bytes <= 2, dotsOnly { return "An ID must not be '.' or '..'." }
    if reserved, !isDocumentID || NumericID.number(id) == nil {
      return "ID '\(id)' is reserved: IDs must not begin and end with '__'."
    }
    if bytes > maxIDBytes {
      return "ID '\(abbreviated(id))' is \(bytes) bytes long; Hearth supports IDs of at most "
        + "\(maxIDBytes) bytes (Firestore: 1,500)."
    }
    return nil
  }

  /// Long text cut for messages.
  static func abbreviated(_ text: String) -> String {
    text.count > 60 ? String(text.prefix(40)) + "…" + String(text.suffix(12)) : text
  }
}

/// The key of a document: a path with an even number of segments
/// (`users/alice`, `users/alice/posts/p1`).
///
/// Held as the collection's path and the document's ID, so that the keys of one
/// collection's documents (a query's results) share one path array instead of each
/// allocating its own; `path` joins them when asked.
package struct DocumentKey: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The path of the collection holding the document.
  package let collectionPath: ResourcePath
  /// The document's ID, the last segment of its path.
  package let documentID: String

  /// A key from a path known to have an even, non-zero number of valid segments.
  package init(_ path: ResourcePath) {
    precondition(path.count >= 2 && path.count % 2 == 0, "not a document path: \(path)")
    collectionPath = ResourcePath(Array(path.segments.dropLast()))
    documentID = path.segments[path.count - 1]
  }

  /// The key of document `id` in collection `collection` (a valid collection path and ID).
  package init(collection: ResourcePath, id: String) {
    precondition(collection.count % 2 == 1, "not a collection path: \(collection)")
    collectionPath = collection
    documentID = id
  }

  /// Parses a document path string.
  ///
  /// - Throws: `invalidArgument` for an invalid path or an odd number of segments.
  package init(parsing string: String) throws {
    var segments = try ResourcePath.segments(of: string, what: "Document path")
    guard segments.count % 2 == 0 else {
      throw HearthError.invalidArgument(
        "Invalid document reference. Document references must have an even number of segments, "
          + "but \(ResourcePath(segments)) has \(segments.count).")
    }
    // The ID is taken off the parsed array, which then is the collection's path.
    documentID = segments.removeLast()
    collectionPath = ResourcePath(segments)
  }

  /// The document's whole path (built when asked).
  package var path: ResourcePath { collectionPath.appending(documentID) }
  /// The number of segments in the document's path.
  package var depth: Int { collectionPath.count + 1 }
  /// The collection's ID, the group a collection-group query matches.
  package var collectionGroup: String { collectionPath.segments[collectionPath.count - 1] }

  package var description: String { collectionPath.canonical + "/" + documentID }

  /// Equal when the IDs' and the collection paths' UTF-8 bytes are (the IDs first: they
  /// tell apart most keys, and keys of one collection share their path).
  package static func == (a: DocumentKey, b: DocumentKey) -> Bool {
    Value.compareUTF8(a.documentID, b.documentID) == 0 && a.collectionPath == b.collectionPath
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(collectionPath)
    var id = documentID
    id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// -1, 0 or 1: the paths' order (segment by segment as `NumericID.compare` orders
  /// them, `zeroByteFirst` or not, then the shorter first), without joining them.
  package func compare(_ other: DocumentKey, zeroByteFirst: Bool = true) -> Int {
    let mine = collectionPath.segments
    let theirs = other.collectionPath.segments
    let shared = min(mine.count, theirs.count)
    for index in 0..<shared {
      let result = NumericID.compare(mine[index], theirs[index], zeroByteFirst: zeroByteFirst)
      if result != 0 { return result }
    }
    if mine.count == theirs.count {
      return NumericID.compare(documentID, other.documentID, zeroByteFirst: zeroByteFirst)
    }
    // One path goes on past the other's collection: the shorter one's ID meets a segment
    // of the longer one's collection path.
    if mine.count < theirs.count {
      let result = NumericID.compare(documentID, theirs[shared], zeroByteFirst: zeroByteFirst)
      return result != 0 ? result : -1
    }
    let result = NumericID.compare(mine[shared], other.documentID, zeroByteFirst: zeroByteFirst)
    return result != 0 ? result : 1
  }

  package static func < (a: DocumentKey, b: DocumentKey) -> Bool { a.compare(b) < 0 }
}
