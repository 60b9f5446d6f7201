/// A path to a field inside a document: `FieldPath(["address", "city"])`, or the string
/// `"address.city"` in APIs that take dotted strings. `FieldPath(["a.b"])` is one field
/// whose name contains a dot.
///
/// A path made with invalid names (an empty list, an empty name) can be built but is
/// rejected with `invalidArgument` when a write or query uses it.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
  package let segments: [String]

  public init(_ fieldNames: [String]) { segments = fieldNames }

  /// The document's ID (`__name__`), for queries and ordering.
  public static func documentID() -> FieldPath { name }

  /// `documentID()`, made once: every query orders by it.
  private static let name = FieldPath(["__name__"])

  /// Whether this is `documentID()` (asked many times a query: no array is built to ask).
  package var isDocumentID: Bool { segments.count == 1 && segments[0] == "__name__" }
  package var isEmpty: Bool { segments.isEmpty }
  package var count: Int { segments.count }
  package var first: String? { segments.first }
  package var last: String? { segments.last }

  package func appending(_ name: String) -> FieldPath { FieldPath(segments + [name]) }
  package var dropFirst: FieldPath { FieldPath(Array(segments.dropFirst())) }
  package var parent: FieldPath { FieldPath(Array(segments.dropLast())) }

  /// Whether `self` equals `other` or is one of its ancestors (`a` is a prefix of `a.b`).
  package func isPrefix(of other: FieldPath) -> Bool {
    segments.count <= other.segments.count && zip(segments, other.segments).allSatisfy { $0 == $1 }
  }

  /// Firestore's canonical form: segments joined by `.`, each quoted with backticks unless
  /// it is a plain identifier (`` `a.b`.c ``), with `\` and `` ` `` escaped.
  package var canonical: String {
    segments.map { segment in
      if FieldPath.isPlainIdentifier(segment) { return segment }
      // By scalars: a backtick that an accent follows is one `Character` with it.
      var escaped = String.UnicodeScalarView()
      for scalar in segment.unicodeScalars {
        if scalar == "\\" || scalar == "`" { escaped.append("\\") }
        escaped.append(scalar)
      }
      return "`" + String(escaped) + "`"
    }.joined(separator: ".")
  }

  public var description: String { canonical }

  // MARK: - Length

  /// Firestore's limit, in UTF-8 bytes, on a field name and on a field path written with
  /// dots (`address.city`), wherever it comes from: a document's keys at any depth (the
  /// path from the document's root, arrays adding nothing), an update's keys, `mergeFields`,
  /// a query's fields, an index or an import.
  ///
  /// The emulator refuses a 1,501-byte name ("The property.name is longer than 1500
  /// bytes.") and a nested name whose path is longer than 1,500 bytes, and keeps
  /// 1,500. In update paths, masks and queries it already refuses a path of exactly
  /// 1,500 bytes ("property path is longer than 1500 bytes."); Hearth keeps 1,500 there
  /// too, so that every field a document can hold can also be updated and queried.
  package static let maxBytes = 1500

  /// The length in UTF-8 bytes of the path written with dots, without quoting (`a.b` is
  /// 3): what Firestore's limit counts.
  package var dottedByteCount: Int {
    segments.reduce(Swift.max(segments.count - 1, 0)) { $0 + $1.utf8.count }
  }

  /// Why the path is longer than Firestore allows (naming it, cut short), or `nil`.
  package var lengthProblem: String? {
    let bytes = dottedByteCount
    guard bytes > FieldPath.maxBytes else { return nil }
    return "Field path \(ResourcePath.abbreviated(canonical)) is \(FieldPath.tooLong(bytes))"
  }

  /// `1501 bytes long; Firestore allows …`: the rule, for a path of `bytes` bytes.
  static func tooLong(_ bytes: Int) -> String {
    "\(bytes) bytes long; Firestore allows field names and paths of at most \(maxBytes) bytes."
  }

  static func isPlainIdentifier(_ segment: String) -> Bool {
    guard let first = segment.utf8.first, !(0x30...0x39).contains(first) else { return false }
    return segment.utf8.allSatisfy { byte in
      (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
        || byte == 0x5F
    }
  }

  /// Parses a dotted field path string (`"owner.email"`), as `updateData` keys and
  /// `mergeFields` are read.
  ///
  /// - Throws: `invalidArgument` for an empty path or segment, or the characters `~*/[]`.
  package static func parse(dotted string: String) throws -> FieldPath {
    // One pass over the UTF-8 bytes (the reserved characters are all ASCII); a lone name
    // (most paths a query names) is kept as it is, without splitting or decoding.
    var copy = string
    let (reserved, dots) = copy.withUTF8 { bytes in
      var reserved = false
      var dots = false
      for byte in bytes {
        switch byte {
        case 0x7E, 0x2A, 0x2F, 0x5B, 0x5D: reserved = true
        case 0x2E: dots = true
        default: continue
        }
      }
      return (reserved, dots)
    }
    if !reserved, !dots, !string.isEmpty, string.utf8.count <= maxBytes { return FieldPath([string]) }
    if reserved {
      throw HearthError.invalidArgument(
        "Invalid field path (\(string)). Paths must not contain '~', '*', '/', '[', or ']'")
    }
    let segments = copy.withUTF8 { bytes in
      bytes.split(separator: 0x2E, omittingEmptySubsequences: false).map {
        String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
      }
    }
    if segments.contains(where: \.isEmpty) {
      throw HearthError.invalidArgument(
        "Invalid field path (\(string)). Paths must not be empty, begin with '.', end with '.', or contain '..'")
    }
    if string.utf8.count > maxBytes {
      throw HearthError.invalidArgument(
        "Invalid field path (\(ResourcePath.abbreviated(string))). It is \(tooLong(string.utf8.count))")
    }
    return FieldPath(segments)
  }

  /// Parses Firestore's canonical form, as `canonical` writes it: dotted names, each plain
  /// or in backticks with `\` escaping (`` `first name`.city ``, `` `a.b` ``). Without
  /// backticks it reads a path as `parse(dotted:)` does. Index files use this form, so
  /// that a declared index on a name with special characters reads back as declared.
  ///
  /// - Throws: `invalidArgument` for an empty path or name, a backtick left open, or the
  ///   characters `~*/[]` outside backticks.
  package static func parse(canonical string: String) throws -> FieldPath {
    guard string.utf8.contains(UInt8(ascii: "`")) else { return try parse(dotted: string) }
    var segments: [String] = []
    // Read by scalars, not `Character`s: an accent after a backtick, a backslash or a `.`
    // would join it into one `Character`, and hide it (the emulator reads
    // `` `\u{301}__x__` `` as the name `\u{301}__x__`).
    var segment = String.UnicodeScalarView()
    var quoted = false
    var wasQuoted = false
    var scalars = string.unicodeScalars.makeIterator()
    func finish() throws {
      if segment.isEmpty || (!wasQuoted && segment.contains(where: { "~*/[]".unicodeScalars.contains($0) })) {
        throw HearthError.invalidArgument(
          "Invalid field path (\(string)). Names must not be empty, and outside backticks must not contain '~', "
            + "'*', '/', '[', or ']'")
      }
      segments.append(String(segment))
      segment = String.UnicodeScalarView()
      wasQuoted = false
    }
    while let scalar = scalars.next() {
      switch scalar {
      case "`":
        quoted.toggle()
        wasQuoted = true
      case "\\" where quoted:
        if let escaped = scalars.next() { segment.append(escaped) }
      case "." where !quoted: try finish()
      default: segment.append(scalar)
      }
    }
    guard !quoted else {
      throw HearthError.invalidArgument("Invalid field path (\(string)). A backtick is not closed")
    }
    try finish()
    let path = FieldPath(segments)
    if path.dottedByteCount > maxBytes {
      throw HearthError.invalidArgument(
        "Invalid field path (\(ResourcePath.abbreviated(string))). It is \(tooLong(path.dottedByteCount))")
    }
    return path
  }

  /// Checks a path built from names (`FieldPath([...])`).
  package func validate() throws {
    if segments.isEmpty {
      throw HearthError.invalidArgument("Invalid field path. Provided names must not be empty.")
    }
    if let index = segments.firstIndex(where: \.isEmpty) {
      throw HearthError.invalidArgument(
        "Invalid field name at index \(index). Field names must not be empty.")
    }
    let bytes = dottedByteCount
    if bytes > FieldPath.maxBytes {
      throw HearthError.invalidArgument(
        "Invalid field path (\(ResourcePath.abbreviated(canonical))). It is \(FieldPath.tooLong(bytes))")
    }
  }
}
