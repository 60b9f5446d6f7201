import Foundation
import Hearth
import Testing

// Fixtures for the export, import, backup and restore suites: scratch directories, export
// files read back as lines, a database holding every value type and edge value, and the
// segment-by-segment path order exports follow.

/// Creates a fresh directory, runs `body` with its path, and removes it.
func withScratchDirectory<T>(_ body: (String) throws -> T) throws -> T {
  let directory = makeTemporaryPath("hearth-snapshots")
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  return try body(directory)
}

/// An export file read back: its header line and its document lines, in file order.
struct ExportFile {
  var path: String
  var header: String
  var documents: [String]
  var summary: ExportSummary

  /// The header's members other than `exportedAt` (which differs between any two
  /// exports), rendered for comparison.
  var headerWithoutTime: [String: String] {
    let object = (try? JSONSerialization.jsonObject(with: Data(header.utf8))) as? [String: Any] ?? [:]
    return object.filter { $0.key != "exportedAt" }.mapValues { "\($0)" }
  }

  /// The `path` of each document line, in file order.
  var paths: [String] { documents.map(Self.path(ofLine:)) }

  /// The `path` member of a document line.
  static func path(ofLine line: String) -> String {
    let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    return object?["path"] as? String ?? "<no path in \(line)>"
  }
}

/// Exports `db` to `file` and reads the file back.
func exportFile(_ db: Database, to file: String) throws -> ExportFile {
  let summary = try db.export(to: file)
  let lines = try exportLines(file)
  return ExportFile(path: file, header: lines.first ?? "", documents: Array(lines.dropFirst()), summary: summary)
}

/// The lines of a file, without line breaks (a final line break ends the last line).
func exportLines(_ file: String) throws -> [String] {
  let text = try String(contentsOfFile: file, encoding: .utf8)
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  if lines.last == "" { lines.removeLast() }
  return lines
}

/// The document lines of an export of `db`, written into `directory` under `name`.
func exportedDocuments(_ db: Database, in directory: String, name: String = "check.jsonl") throws -> [String] {
  try exportFile(db, to: directory + "/" + name).documents
}

/// Writes `lines` to `file`, each followed by a line break.
func writeLines(_ lines: [String], to file: String) throws {
  try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
}

/// Records an issue for each line that differs, and for a different number of lines.
func expectSameLines(
  _ actual: [String], _ expected: [String], _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    actual.count == expected.count, "\(comment): \(actual.count) lines, expected \(expected.count)",
    sourceLocation: sourceLocation)
  for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
    Issue.record(
      "\(comment): line \(index + 1) differs:\n  got      \(a)\n  expected \(e)", sourceLocation: sourceLocation)
  }
}

// MARK: - Path order

/// Whether path `a` comes before path `b` in export order: segment by segment, each
/// segment in UTF-8 byte order, a path before the paths below it.
func precedesInPathOrder(_ a: String, _ b: String) -> Bool {
  let x = a.split(separator: "/", omittingEmptySubsequences: false)
  let y = b.split(separator: "/", omittingEmptySubsequences: false)
  for (s, t) in zip(x, y) where s.utf8.elementsEqual(t.utf8) == false {
    return s.utf8.lexicographicallyPrecedes(t.utf8)
  }
  return x.count < y.count
}

// MARK: - A database of every value type

/// Documents holding every value type and edge value, at paths that exercise the path
/// order: unicode and emoji IDs, IDs that sort differently by segment than as text,
/// documents under missing parents, collections several levels deep.
enum AllTypes {
  static let when = Timestamp(seconds: 1_764_410_400, nanoseconds: 123_456_000)

  /// Maps nested `levels` deep around an array: `{"level1": {"level2": … {"bottom": [true, "deepest"]}}}`;
  /// 19 maps and the array are the 20 levels Firestore allows.
  static func nested(_ levels: Int) -> [String: Any] {
    var map: [String: Any] = ["bottom": [true, "deepest"] as [Any]]
    for level in stride(from: levels - 1, through: 1, by: -1) { map = ["level\(level)": map] }
    return map
  }

  static func everyValue(_ db: Database) -> [String: Any] {
    let allBytes = Data((0...255).map { UInt8($0) })
    return [
      // Null, booleans, integers.
      "null": NSNull(), "true": true, "false": false,
      "zero": 0, "minusOne": -1, "int64Min": Int64.min, "int64Max": Int64.max, "twoTo53Plus1": 9_007_199_254_740_993,
      // Doubles, every special one.
      "nan": Double.nan, "negativeZero": -0.0, "positiveZero": 0.0, "infinity": Double.infinity,
      "negativeInfinity": -Double.infinity, "one": 1.0, "tenth": 0.1, "pi": Double.pi,
      "leastNonzero": Double.leastNonzeroMagnitude, "leastNormal": Double.leastNormalMagnitude,
      "greatest": Double.greatestFiniteMagnitude, "lowest": -Double.greatestFiniteMagnitude,
      "int64MaxAsDouble": Double(Int64.max), "int64MinAsDouble": Double(Int64.min), "bigWhole": 1e21,
      "tinyNegative": -1.5e-300,
      // Timestamps.
      "timestamp": when, "microsecond": Timestamp(seconds: 0, nanoseconds: 1_000),
      "beforeEpoch": Timestamp(seconds: -1, nanoseconds: 999_999_000), "epoch": Timestamp(seconds: 0, nanoseconds: 0),
      "firstMoment": Timestamp(seconds: -62_135_596_800, nanoseconds: 0),
      "lastMoment": Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000),
      // Strings.
      "empty": "", "nul": "a\u{0}b\u{0}", "escapes": "line1\nline2\r\t\"quoted\" back\\slash \u{7F}\u{1B}[31m",
      "separators": "\u{2028}\u{2029}", "unicode": "héllo wörld 日本語 👩‍👩‍👧 🔥", "lastScalar": "\u{10FFFF}",
      "combining": "cafe\u{301}",
      // Bytes.
      "bytes": Data([0, 0, 1, 0, 255, 0]), "noBytes": Data(), "zeroByte": Data([0]), "allBytes": allBytes,
      // References and geopoints.
      "reference": db.document("users/a"), "emojiReference": db.document("emoji/🔥/sub/x"),
      "missingReference": db.document("ghosts/missing"),
      "origin": GeoPoint(latitude: 0, longitude: 0), "southWest": GeoPoint(latitude: -90, longitude: -180),
      "northEast": GeoPoint(latitude: 90, longitude: 180),
      "precise": GeoPoint(latitude: 40.416775, longitude: -3.70379),
      "signedZeroGeo": GeoPoint(latitude: -0.0, longitude: -0.0),
      // Arrays and maps, empty and mixed.
      "emptyArray": [Any](), "emptyMap": [String: Any](),
      "mixed": [
        1, 1.0, "1", NSNull(), true, [String: Any](), ["inner": [Any]()], Data([0]), -0.0, Double.nan, when,
      ] as [Any],
      "arrayOfMaps": [["a": [1, 2]], ["b": ["c": [Any]()]]] as [Any],
      "deep": nested(19),
      // Field names: dots, backticks, dollars, unicode.
      "a.b": "dotted", "`tick`": "backticks", "back`tick": 1, "$dollar": "not alone", "日本": "kanji", "🔥": "emoji",
      "with space": 1, "line\nbreak": 2,
      // Maps whose only key starts with `$`: written as `$literal` so they do not read as tags.
      "literalTimestamp": ["$timestamp": "2026-11-29T10:00:00Z"], "literalRef": ["$ref": "users/a"],
      "literalLiteral": ["$literal": ["x": 1]], "literalUnknown": ["$x": ["$y": 1]], "literalDollar": ["$": 0],
      "literalDouble": ["$double": "NaN"],
      "twoDollarKeys": ["$a": 1, "$b": 2],
    ]
  }

  /// Every document the database holds, path → data.
  static func documents(_ db: Database) -> [(String, [String: Any])] {
    [
      ("values/all", everyValue(db)),
      ("values/empty", [:]),
      // Documents whose only field starts with `$`.
      ("values/onlyDollar", ["$type": "user"]),
      ("values/onlyTimestampName", ["$timestamp": "2026-11-29T10:00:00Z"]),
      ("values/onlyLiteralName", ["$literal": ["a": 1]]),
      // Path order: `a`, `a/x/y`, `a!` (`!` sorts before `/` as text), `ab`.
      ("users/a", ["name": "a"]),
      ("users/a/posts/p", ["title": "p"]),
      ("users/a/posts/p/comments/c", ["text": "c"]),
      ("users/a/x/y", ["n": 1]),
      ("users/a!", ["name": "a!"]),
      ("users/ab", ["name": "ab"]),
      ("users/b", ["name": "b"]),
      ("users/b/posts/q", ["title": "q"]),
      // IDs sorted by UTF-8 bytes (UTF-16 would put the emoji before U+FF71).
      ("emoji/🔥", ["e": 1]),
      ("emoji/👩‍👩‍👧", ["e": 2]),
      ("emoji/z", ["e": 3]),
      ("emoji/é", ["e": 4]),
      ("emoji/\u{FF71}", ["e": 5]),
      ("emoji/🔥/sub/x", ["e": 6]),
      ("🔥col/doc", ["e": 7]),
      // Unusual IDs.
      ("ids/line\nbreak", ["n": 1]),
      ("ids/quote\"d", ["n": 2]),
      ("ids/back\\slash", ["n": 3]),
      ("ids/with space", ["n": 4]),
      ("ids/tab\there", ["n": 5]),
      // Documents under parents that do not exist.
      ("ghosts/missing/children/c1", ["n": 1]),
      ("ghosts/missing/children/c1/deeper/d1", ["n": 2]),
      ("ghosts/also/missing/x/children/c2", ["n": 3]),
    ]
  }

  /// Writes every document, then updates one so that its update time differs from its
  /// create time.
  static func populate(_ db: Database) throws {
    for (path, data) in documents(db) { try db.document(path).setData(data) }
    try db.document("values/updated").setData(["version": 1])
    try db.document("values/updated").updateData(["version": 2, "note": "updated"])
  }

  /// The paths `populate` writes.
  static func paths(_ db: Database) -> [String] { documents(db).map(\.0) + ["values/updated"] }
}
