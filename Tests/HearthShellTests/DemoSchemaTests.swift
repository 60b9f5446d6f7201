import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// `Schemas/demo/` holds one JSON Schema per collection of the demo database that
/// `hearth-demo` writes, describing a document's fields as the shell prints them. The
/// demo database, exported, must match them: every document against the schema of its
/// collection, every collection with a schema, every schema used. Hand-made bad
/// documents must not match, so that the schemas say something.
@Suite(.enabled(if: ReadmeTests.demoWriter != nil, "the demo writer is not built (run swift build first)"))
struct DemoSchemaTests {
  static let schemas = ReadmeTests.root.appendingPathComponent("Schemas")

  /// The collection IDs that have a schema, `Schemas/demo/ID.schema.json`.
  static func schemaCollections() throws -> Set<String> {
    let suffix = ".schema.json"
    let files = try FileManager.default.contentsOfDirectory(atPath: schemas.appendingPathComponent("demo").path)
    return Set(files.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) })
  }

  static func schemaName(_ collection: String) -> String { "demo/\(collection).schema.json" }

  /// Writes the demo database into `fixture` with the built `hearth-demo`.
  static func writeDemo(into fixture: ShellFixture) throws {
    let outcome = try runProcess(try #require(ReadmeTests.demoWriter), [fixture.path])
    try #require(outcome.succeeded, "\(outcome.stderr)")
  }

  @Test func theDemoDatabaseMatchesItsCollectionSchemas() throws {
    let fixture = ShellFixture()
    try Self.writeDemo(into: fixture)
    let lines = fixture.succeed("export", "-").lines
    try #require(lines.count > 1)

    // Each document's fields, as the export writes them, by the ID of its collection.
    var documents: [(path: String, collection: String, fields: String)] = []
    for line in lines.dropFirst() {
      let document = try JSONParser.parse(line)
      guard case .string(let path) = document["path"], let fields = document["fields"] else {
        Issue.record("not a document line: \(line)")
        continue
      }
      let segments = path.split(separator: "/")
      documents.append((path, String(segments[segments.count - 2]), JSONWriter().string(from: fields)))
    }
    let collections = Set(documents.map(\.collection))
    let schemaCollections = try Self.schemaCollections()
    #expect(
      collections.subtracting(schemaCollections).isEmpty,
      "demo collections without a schema in Schemas/demo: \(collections.subtracting(schemaCollections).sorted())")
    #expect(
      schemaCollections.subtracting(collections).isEmpty,
      "schemas in Schemas/demo that no demo document uses: \(schemaCollections.subtracting(collections).sorted())")

    // What `hearth get` prints for the first document of each collection is checked too.
    var checked = documents.filter { schemaCollections.contains($0.collection) }
    var seen: Set<String> = []
    for document in checked where seen.insert(document.collection).inserted {
      let printed = fixture.succeed("get", document.path).lines
      #expect(printed.count == 1, "get \(document.path) prints one line: \(printed)")
      checked.append((document.path + " (get)", document.collection, printed.joined()))
    }
    let verdicts = try JSONSchemaValidator.verdicts(checked.map { (Self.schemaName($0.collection), $0.fields) })
    var rejected: [String: Int] = [:]
    for (document, verdict) in zip(checked, verdicts) {
      guard let verdict else { continue }
      rejected[document.collection, default: 0] += 1
      // The first few rejections of a collection are enough to see what is wrong.
      if rejected[document.collection]! <= 3 {
        Issue.record("\(Self.schemaName(document.collection)) rejects \(document.path) \(document.fields): \(verdict)")
      }
    }
    #expect(rejected.isEmpty, "rejected documents by collection: \(rejected)")
  }

  /// The Python recipe of `Schemas/README.md` runs: it is silent on the demo's export
  /// (its header and the first documents of each collection, to keep the test fast) and
  /// names what is wrong with a bad line.
  @Test func theReadmeRecipeChecksTheDemoExport() throws {
    let readme = try String(contentsOf: Self.schemas.appendingPathComponent("README.md"), encoding: .utf8)
    let recipe = try #require(
      readme.components(separatedBy: "```python\n").dropFirst().first?.components(separatedBy: "```").first,
      "Schemas/README.md has a Python example")
    let fixture = ShellFixture()
    try Self.writeDemo(into: fixture)
    let lines = fixture.succeed("export", "-").lines
    var taken: [String: Int] = [:]
    let sample =
      try lines.prefix(1)
      + lines.dropFirst().filter { line in
        guard case .string(let path) = try JSONParser.parse(line)["path"] else { return true }
        let collection = String(path.split(separator: "/").dropLast().last ?? "")
        taken[collection, default: 0] += 1
        return taken[collection]! <= 20
      }
    #expect(Set(taken.keys) == (try Self.schemaCollections()), "documents of each demo collection: \(taken)")

    func run(_ lines: [String]) throws -> (status: Int32, printed: String) {
      let file = fixture.path + ".jsonl"
      defer { try? FileManager.default.removeItem(atPath: file) }
      try lines.map { $0 + "\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
      let python = JSONSchemaValidator.python
      let outcome = try runProcess(
        URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", recipe, file], directory: ReadmeTests.root)
      return (outcome.status, outcome.stdout)
    }
    let good = try run(Array(sample))
    #expect(good.status == 0 && good.printed.isEmpty, "\(good)")
    let post = try #require(sample.firstIndex { $0.contains("/posts/") })
    var bad = Array(sample)
    bad[post] = bad[post].replacing(/"likes":([0-9]+)/) { #""likes":\#($0.1).0"# }
    #expect(bad[post] != sample[post])
    let complaint = try run(bad)
    #expect(complaint.status == 0)
    #expect(
      complaint.printed.contains("['likes']: ") && complaint.printed.contains("is not of type 'integer'"),
      "\(complaint)")
  }

  /// A valid document of each collection, as `(field, JSON text)` pairs.
  static let examples: [String: [(String, String)]] = [
    "users": [
      ("dateCreated", #"{"$timestamp":"2026-05-28T20:26:40Z"}"#), ("email", #""alice@example.com""#),
      ("isPremium", "true"), ("profileImage", #""https://example.com/avatars/alice.png""#),
      ("userId", #""alice""#), ("username", #""Alice""#),
    ],
    "posts": [
      ("createdAt", #"{"$timestamp":"2026-05-28T22:28:19Z"}"#), ("likes", "328"), ("ownerId", #""alice""#),
      ("ratings", #"{"bob":"4","user042":"1"}"#), ("tags", #"["swift","music","swift"]"#),
      ("title", #""Alice's post #3""#),
    ],
    "following": [("since", #"{"$timestamp":"2026-05-28T20:26:40Z"}"#)],
    "followers": [("since", #"{"$timestamp":"2026-05-28T20:26:40.123456Z"}"#)],
    "rooms": [
      ("createdAt", #"{"$timestamp":"2026-05-28T20:26:40Z"}"#),
      ("lastMessageAt", #"{"$timestamp":"2026-11-30T00:46:46.958359Z"}"#), ("members", #"["heidi","rupert"]"#),
      ("messageCount", "22"), ("name", ##""#announcements""##),
    ],
    "messages": [
      ("from", #""rupert""#), ("sentAt", #"{"$timestamp":"2026-05-28T20:28:14Z"}"#),
      ("text", #""Message 3 in #announcements""#),
    ],
  ]

  /// A change to an example document.
  enum Change {
    /// Drops the field.
    case remove(String)
    /// Sets the field (adding it if missing) to the JSON text.
    case set(String, String)

    /// The field the change is about.
    var field: String {
      switch self {
      case .remove(let name), .set(let name, _): name
      }
    }

    func applied(to fields: [(String, String)]) -> [(String, String)] {
      switch self {
      case .remove(let name): return fields.filter { $0.0 != name }
      case .set(let name, let value):
        guard fields.contains(where: { $0.0 == name }) else { return fields + [(name, value)] }
        return fields.map { $0.0 == name ? (name, value) : $0 }
      }
    }
  }

  static func text(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(JSONWriter.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  /// Documents the schemas accept besides the examples: changes to an example.
  static let valid: [(collection: String, change: [Change])] = [
    ("users", [.remove("email"), .remove("profileImage")]),
    ("users", [.set("isPremium", "false"), .remove("email")]),
    ("posts", [.set("ratings", "{}"), .set("likes", "0"), .set("tags", #"["coffee"]"#)]),
    ("rooms", [.remove("lastMessageAt"), .set("messageCount", "0")]),
  ]

  /// Documents the schemas reject: an example with one change, and why it is wrong.
  static let invalid: [(collection: String, change: Change, why: String)] = [
    ("users", .remove("userId"), "a required field is missing"),
    ("users", .remove("dateCreated"), "a required timestamp is missing"),
    ("users", .set("dateCreated", #""2026-05-28T20:26:40Z""#), "a string where a timestamp is required"),
    ("users", .set("dateCreated", "1780000000"), "an integer where a timestamp is required"),
    ("users", .set("isPremium", #""yes""#), "a string where a boolean is required"),
    ("users", .set("email", "null"), "an absent optional is not null"),
    ("users", .set("email", #""alice""#), "not an email address"),
    ("users", .set("age", "30"), "an extra field"),
    ("users", .set("userId", #""a/b""#), "a user ID with a slash"),
    ("posts", .remove("createdAt"), "a required field is missing"),
    ("posts", .set("createdAt", #""2026-05-28T22:28:19Z""#), "a string where a timestamp is required"),
    ("posts", .set("createdAt", #"{"$timestamp":"yesterday"}"#), "a timestamp that is not RFC 3339"),
    ("posts", .set("likes", #"{"$double":2}"#), "an integer field given as a tagged double"),
    ("posts", .set("likes", "2.5"), "an integer field given as a double"),
    ("posts", .set("likes", "2.0"), "an integer field given as a whole double"),
    ("posts", .set("likes", "-1"), "a negative like count"),
    ("posts", .set("likes", #""328""#), "a string where an integer is required"),
    ("posts", .set("tags", #""swift""#), "a string where an array of strings is required"),
    ("posts", .set("tags", "[1]"), "an array of integers where an array of strings is required"),
    ("posts", .set("tags", "[]"), "no tag"),
    ("posts", .set("ratings", #"{"bob":4}"#), "an integer rating where the demo writes strings"),
    ("posts", .set("ratings", #"{"bob":"9"}"#), "a rating out of 1…5"),
    ("posts", .set("body", #""text""#), "an extra field"),
    ("following", .remove("since"), "a required field is missing"),
    ("following", .set("since", #""2026-05-28T20:26:40Z""#), "a string where a timestamp is required"),
    ("following", .set("since", #"{"$ref":"users/alice"}"#), "a reference where a timestamp is required"),
    ("following", .set("active", "true"), "an extra field"),
    ("followers", .remove("since"), "a required field is missing"),
    ("followers", .set("since", "1780000000.5"), "a double where a timestamp is required"),
    ("followers", .set("userId", #""bob""#), "an extra field"),
    ("rooms", .remove("name"), "a required field is missing"),
    ("rooms", .remove("lastMessageAt"), "a room with messages but no lastMessageAt"),
    ("rooms", .set("createdAt", #""2026-05-28T20:26:40Z""#), "a string where a timestamp is required"),
    ("rooms", .set("messageCount", #"{"$double":2}"#), "an integer field given as a tagged double"),
    ("rooms", .set("messageCount", "2.5"), "an integer field given as a double"),
    ("rooms", .set("messageCount", "22.0"), "an integer field given as a whole double"),
    ("rooms", .set("members", #""heidi""#), "a string where an array is required"),
    ("rooms", .set("members", #"["heidi","heidi"]"#), "a member twice"),
    ("rooms", .set("members", "[]"), "no member"),
    ("rooms", .set("name", #""general""#), "a name without '#'"),
    ("rooms", .set("topic", #""chat""#), "an extra field"),
    ("messages", .remove("from"), "a required field is missing"),
    ("messages", .set("sentAt", #""2026-05-28T20:28:14Z""#), "a string where a timestamp is required"),
    ("messages", .set("from", #"{"$ref":"users/rupert"}"#), "a reference where a user ID string is required"),
    ("messages", .set("text", "7"), "an integer where a string is required"),
    ("messages", .set("likes", "1"), "an extra field"),
  ]

  @Test func theSchemasAcceptTheExamplesAndRejectBadDocuments() throws {
    let collections = try Self.schemaCollections()
    #expect(Set(Self.examples.keys) == collections, "an example document for each schema of Schemas/demo")
    #expect(
      Set(Self.invalid.map(\.collection)) == collections, "bad documents for each schema of Schemas/demo")

    let examples = Self.examples.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    let good: [(collection: String, fields: String)] =
      examples.map { ($0.0, Self.text($0.1)) }
      + Self.valid.map {
        ($0.collection, Self.text($0.change.reduce(Self.examples[$0.collection]!) { $1.applied(to: $0) }))
      }
    let bad: [(collection: String, fields: String, field: String, why: String)] = Self.invalid.map {
      ($0.collection, Self.text($0.change.applied(to: Self.examples[$0.collection]!)), $0.change.field, $0.why)
    }
    let checks =
      good.map { (Self.schemaName($0.collection), $0.fields) } + bad.map { (Self.schemaName($0.collection), $0.fields) }
    let verdicts = try JSONSchemaValidator.verdicts(checks)
    for (document, verdict) in zip(good, verdicts) {
      #expect(verdict == nil, "\(Self.schemaName(document.collection)) rejects \(document.fields): \(verdict ?? "")")
    }
    // Rejected for the change made, which the complaint names (not for something else).
    for (document, verdict) in zip(bad, verdicts.dropFirst(good.count)) {
      let schema = Self.schemaName(document.collection)
      #expect(verdict != nil, "\(schema) accepts \(document.fields) (\(document.why))")
      #expect(
        verdict?.contains("'\(document.field)'") != false,
        "\(schema) rejects \(document.fields) (\(document.why)) for another reason: \(verdict ?? "")")
    }
  }
}
