import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `export(to:)` and `import(from:mode:)` (docs/file-formats.md, "Exports"): an export read
/// back gives the same documents, times and lines; import rebuilds the indexes, merges or
/// replaces, and refuses a bad file as a whole, naming the line and the problem.
@Suite struct ExportImportTests {
  // MARK: - Round trip

  @Test func exportImportExportGivesTheSameLines() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { source in
        try AllTypes.populate(source)
        let first = try exportFile(source, to: directory + "/first.jsonl")
        let paths = AllTypes.paths(source)
        #expect(first.summary.documents == paths.count)
        #expect(first.documents.count == paths.count)
        #expect(Set(first.paths) == Set(paths))

        try withDatabase(settings: relaxed) { target in
          let imported = try target.import(from: first.path)
          #expect(imported.documents == paths.count)
          let report = try target.check()
          #expect(report.ok, "the imported database's integrity check: \(report.problems.prefix(5))")
          let second = try exportFile(target, to: directory + "/second.jsonl")
          expectSameLines(second.documents, first.documents, "the export of the imported database")
          #expect(second.headerWithoutTime == first.headerWithoutTime)
          #expect(second.headerWithoutTime["documents"] == "\(paths.count)")

          // The same data and times, read through the API.
          #expect(try databaseContents(target) == databaseContents(source))
          for path in paths {
            let original = try source.document(path).getDocument()
            let copy = try target.document(path).getDocument()
            #expect(copy.exists, "\(path) was imported")
            expectSame(copy.data(), original.data(), path)
            #expect(copy.createTime != nil && copy.createTime == original.createTime, "\(path): createTime")
            #expect(copy.updateTime != nil && copy.updateTime == original.updateTime, "\(path): updateTime")
          }
          let updated = try target.document("values/updated").getDocument()
          let created = try #require(updated.createTime)
          #expect(created < (try #require(updated.updateTime)), "the update kept its two times")
          // Parents that never existed are still missing; their subcollections are there.
          #expect(!(try target.document("ghosts/missing").getDocument().exists))
          #expect(try target.document("ghosts/missing").collection("children").getDocuments().count == 1)
        }
      }
    }
  }

  @Test func eachLineHoldsItsDocumentInExtendedJSON() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try AllTypes.populate(db)
        let file = try exportFile(db, to: directory + "/values.jsonl")
        // The header.
        #expect(file.header.hasPrefix(#"{"hearth":"export","version":1,"exportedAt":""#), "\(file.header)")
        #expect(file.header.hasSuffix(#"Z","documents":\#(file.documents.count)}"#), "\(file.header)")
        // Each line's fields, read as extended JSON, are the document's data.
        for line in file.documents {
          let path = ExportFile.path(ofLine: line)
          #expect(line.hasPrefix(#"{"path":"#) && line.contains(#","createTime":""#), "\(line)")
          let fields = try #require(fieldsText(of: line), "\(line)")
          do {
            let data = try ExtendedJSON.fields(from: fields, database: db)
            expectSame(data, try db.document(path).getDocument().data(), "the fields of \(path)")
          } catch {
            Issue.record("the fields of \(path) do not read back as extended JSON: \(error)\n  \(fields)")
          }
        }
        // The extended JSON of edge values, as written.
        let all = try #require(file.documents.first { ExportFile.path(ofLine: $0) == "values/all" })
        let forms = [
          #""nan":{"$double":"NaN"}"#, #""infinity":{"$double":"Infinity"}"#,
          #""negativeInfinity":{"$double":"-Infinity"}"#, #""negativeZero":-0.0"#, #""positiveZero":0.0"#,
          #""one":1.0"#, #""int64Min":-9223372036854775808"#, #""int64Max":9223372036854775807"#,
          #""bytes":{"$bytes":"AAABAP8A"}"#, #""noBytes":{"$bytes":""}"#,
          #""microsecond":{"$timestamp":"1970-01-01T00:00:00.000001Z"}"#,
          #""beforeEpoch":{"$timestamp":"1969-12-31T23:59:59.999999Z"}"#,
          #""firstMoment":{"$timestamp":"0001-01-01T00:00:00Z"}"#,
          #""lastMoment":{"$timestamp":"9999-12-31T23:59:59.999999Z"}"#,
          #""reference":{"$ref":"users/a"}"#, #""origin":{"$geo":[0.0,0.0]}"#,
          #""southWest":{"$geo":[-90.0,-180.0]}"#, #""emptyArray":[]"#, #""emptyMap":{}"#,
          #""nul":"a\u0000b\u0000""#, #""separators":"\u2028\u2029""#,
          #""literalTimestamp":{"$literal":{"$timestamp":"2026-11-29T10:00:00Z"}}"#,
          #""literalLiteral":{"$literal":{"$literal":{"x":1}}}"#,
          #""literalUnknown":{"$literal":{"$x":{"$literal":{"$y":1}}}}"#, #""twoDollarKeys":{"$a":1,"$b":2}"#,
          #""a.b":"dotted""#, #""`tick`":"backticks""#,
        ]
        for form in forms { #expect(all.contains(form), "values/all should hold \(form)") }
        // A document whose only field name starts with `$` is a `$literal` map.
        let onlyDollar = try #require(file.documents.first { ExportFile.path(ofLine: $0) == "values/onlyDollar" })
        #expect(onlyDollar.hasSuffix(#""fields":{"$literal":{"$type":"user"}}}"#), "\(onlyDollar)")
        #expect(!file.documents.joined().contains("\n") && !file.documents.joined().contains("\r"))
      }
    }
  }

  @Test func documentsComeInPathOrderParentsBeforeTheirSubcollections() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try AllTypes.populate(db)
        let paths = try exportFile(db, to: directory + "/order.jsonl").paths
        #expect(paths == paths.sorted(by: precedesInPathOrder), "\(paths)")
        let users = paths.filter { $0.hasPrefix("users/") }
        #expect(
          users == [
            "users/a", "users/a/posts/p", "users/a/posts/p/comments/c", "users/a/x/y", "users/a!", "users/ab",
            "users/b",
            "users/b/posts/q",
          ])
        let emoji = paths.filter { $0.hasPrefix("emoji/") }
        #expect(emoji == ["emoji/z", "emoji/é", "emoji/\u{FF71}", "emoji/👩‍👩‍👧", "emoji/🔥", "emoji/🔥/sub/x"])
        let ghosts = paths.filter { $0.hasPrefix("ghosts/") }
        #expect(
          ghosts == [
            "ghosts/also/missing/x/children/c2", "ghosts/missing/children/c1", "ghosts/missing/children/c1/deeper/d1",
          ])
        // Collections too are in UTF-8 order: `emoji` … `values`, then `🔥col`.
        let collections = paths.map { String($0.prefix { $0 != "/" }) }
        #expect(collections.last == "🔥col")
      }
    }
  }

  @Test func idsThatDifferOnlyInUnicodeNormalizationStayTwoDocuments() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { source in
        // "café" precomposed (NFC) and decomposed (NFD): equal as Swift strings, two IDs.
        try source.document("norm/caf\u{E9}").setData(["form": "NFC"])
        try source.document("norm/cafe\u{301}").setData(["form": "NFD"])
        #expect(try source.collection("norm").getDocuments().count == 2)
        let first = try exportFile(source, to: directory + "/norm.jsonl")
        #expect(first.documents.count == 2)
        try withDatabase(settings: relaxed) { target in
          #expect(try target.import(from: first.path).documents == 2)
          expectSameLines(try exportedDocuments(target, in: directory), first.documents, "normalization")
        }
      }
    }
  }

  @Test func anEmptyDatabaseExportsAHeaderAlone() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        let file = try exportFile(db, to: directory + "/empty.jsonl")
        #expect(file.summary.documents == 0)
        #expect(file.documents.isEmpty)
        #expect(file.headerWithoutTime == ["hearth": "export", "version": "1", "documents": "0"])
        try withDatabase(settings: relaxed) { target throws in
          #expect(try target.import(from: file.path).documents == 0)
          #expect(try target.listCollections().isEmpty)
          // No temporary file is left beside the export.
          #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["empty.jsonl"])
        }
      }
    }
  }

  @Test func anExportReplacesItsFileWholeAndFailsWithoutLeavingOne() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        let file = directory + "/out.jsonl"
        try Data("old contents\n".utf8).write(to: URL(fileURLWithPath: file))
        try db.document("a/1").setData(["n": 1])
        #expect(try exportFile(db, to: file).documents.map(ExportFile.path(ofLine:)) == ["a/1"])
        let missing = directory + "/no/such/dir/out.jsonl"
        expectHearthError(.notFound, mentioning: [missing]) { try db.export(to: missing) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.jsonl"])
      }
    }
  }

  @Test func aReadOnlyDatabaseRefusesAnImport() throws {
    try withScratchDirectory { directory in
      let path = directory + "/db"
      try withDatabase(at: path, settings: relaxed) { db in
        try db.document("a/1").setData(["n": 1])
        try db.export(to: directory + "/a.jsonl")
      }
      let settings = relaxed
      settings.readOnly = true
      try withDatabase(at: path, settings: settings) { readOnly throws in
        expectHearthError(.failedPrecondition, mentioning: ["read-only"]) {
          try readOnly.import(from: directory + "/a.jsonl", mode: .replace)
        }
        #expect(try readOnly.document("a/1").getDocument().exists)
        // Export reads only: it works.
        #expect(try readOnly.export(to: directory + "/b.jsonl").documents == 1)
      }
    }
  }

  // MARK: - Indexes

  /// 60 people in three teams, with ages, tags and a nested city.
  private func people(_ db: Database) throws {
    let batch = db.batch()
    for i in 0..<60 {
      batch.setData(
        [
          "team": "t\(i % 3)", "age": i, "tags": ["x\(i % 4)", "all"],
          "profile": ["city": i % 2 == 0 ? "Madrid" : "Lyon"],
        ], forDocument: db.document("people/p\(i)"))
    }
    try batch.commit()
  }

  private let teamByAge = """
    {"indexes": [{"collectionGroup": "people", "queryScope": "COLLECTION",
      "fields": [{"fieldPath": "team", "order": "ASCENDING"}, {"fieldPath": "age", "order": "DESCENDING"}]}]}
    """

  @Test func importBuildsTheIndexesQueriesUse() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { source in
        try people(source)
        try source.export(to: directory + "/people.jsonl")

        let settings = relaxed
        settings.requireIndexes = true
        try withDatabase(settings: settings) { target in
          try target.import(from: directory + "/people.jsonl")
          let people = target.collection("people")

          let team = people.whereField("team", isEqualTo: "t1")
          let teamPlan = try team.explain()
          #expect(!teamPlan.plan.contains("scan") && teamPlan.plan.contains("index"), "\(teamPlan)")
          #expect(teamPlan.resultsReturned == 20 && teamPlan.documentsRead == 20, "\(teamPlan)")
          #expect(teamPlan.indexEntriesRead == 20, "\(teamPlan)")
          #expect(Set(try ids(team)) == Set(stride(from: 1, to: 60, by: 3).map { "p\($0)" }))

          let older = people.whereField("age", isGreaterThanOrEqualTo: 55).order(by: "age")
          let olderPlan = try older.explain()
          #expect(!olderPlan.plan.contains("scan") && olderPlan.documentsRead == 5, "\(olderPlan)")
          #expect(try ids(older) == ["p55", "p56", "p57", "p58", "p59"])

          let tagged = people.whereField("tags", arrayContains: "x2")
          let taggedPlan = try tagged.explain()
          #expect(taggedPlan.plan.contains("array index") && taggedPlan.documentsRead == 15, "\(taggedPlan)")

          let nested = people.whereField("profile.city", isEqualTo: "Lyon")
          let nestedPlan = try nested.explain()
          #expect(!nestedPlan.plan.contains("scan") && nestedPlan.documentsRead == 30, "\(nestedPlan)")

          // Equality and order on another field needs a composite index: declared after
          // the import, it is filled from the imported documents.
          let ordered = people.whereField("team", isEqualTo: "t2").order(by: "age", descending: true).limit(to: 3)
          expectHearthError(.failedPrecondition, mentioning: ["index"]) { _ = try ordered.getDocuments() }
          try target.declareIndexes(json: teamByAge)
          let orderedPlan = try ordered.explain()
          #expect(orderedPlan.plan.contains("composite") && orderedPlan.documentsRead == 3, "\(orderedPlan)")
          #expect(try ids(ordered) == ["p59", "p56", "p53"])
        }
      }
    }
  }

  @Test func importFillsACompositeIndexDeclaredBefore() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { source in
        try people(source)
        try source.export(to: directory + "/people.jsonl")

        let settings = relaxed
        settings.requireIndexes = true
        try withDatabase(settings: settings) { target in
          try target.declareIndexes(json: teamByAge)
          try target.import(from: directory + "/people.jsonl")
          let ordered = target.collection("people").whereField("team", isEqualTo: "t0").order(
            by: "age", descending: true)
          let plan = try ordered.explain()
          #expect(plan.plan.contains("composite") && plan.indexEntriesRead <= 21 && plan.documentsRead == 20, "\(plan)")
          #expect(try ids(ordered) == stride(from: 57, through: 0, by: -3).map { "p\($0)" })
          // A replace import rebuilds it too.
          try target.import(from: directory + "/people.jsonl", mode: .replace)
          #expect(try ids(ordered.limit(to: 2)) == ["p57", "p54"])
        }
      }
    }
  }

  // MARK: - Merge and replace

  /// Runs `body` with a database holding `people/keep`, `people/same` and `other/x`, and a
  /// file with `people/same` (other fields) and `people/fresh`.
  private func withMergeFixture(_ directory: String, _ body: (Database, String) throws -> Void) throws {
    let file = directory + "/merge.jsonl"
    try writeLines(
      [
        #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":2}"#,
        #"{"path":"people/fresh","createTime":"2020-01-01T00:00:00Z","updateTime":"2020-01-02T00:00:00Z","fields":{"team":"new","n":1}}"#,
        #"{"path":"people/same","createTime":"2020-01-01T00:00:00.000001Z","updateTime":"2020-01-03T00:00:00Z","fields":{"team":"new"}}"#,
      ], to: file)
    try withDatabase(settings: relaxed) { db in
      try db.document("people/keep").setData(["team": "old", "n": 0])
      try db.document("people/same").setData(["team": "old", "extra": true, "n": 2])
      try db.document("other/x").setData(["team": "old"])
      try body(db, file)
    }
  }

  @Test func mergeKeepsOtherDocumentsAndReplacesThoseInTheFile() throws {
    try withScratchDirectory { directory in
      try withMergeFixture(directory) { db, file in
        #expect(try db.import(from: file, mode: .merge).documents == 2)
        #expect(try db.check().ok, "index entries after a merge import")
        let people = db.collection("people")
        #expect(try ids(people) == ["fresh", "keep", "same"])
        let same = try people.document("same").getDocument()
        expectSame(same.data(), ["team": "new"], "people/same is replaced, not merged field by field")
        #expect(same.createTime == Timestamp(seconds: 1_577_836_800, nanoseconds: 1_000))
        #expect(same.updateTime == Timestamp(seconds: 1_578_009_600, nanoseconds: 0))
        // Its old index entries are gone, its new ones there.
        #expect(try ids(people.whereField("team", isEqualTo: "old")) == ["keep"])
        #expect(try ids(people.whereField("extra", isEqualTo: true)).isEmpty)
        #expect(try ids(people.whereField("n", isGreaterThanOrEqualTo: 0).order(by: "n")) == ["keep", "fresh"])
        #expect(try ids(people.whereField("team", isEqualTo: "new")) == ["fresh", "same"])
        #expect(try db.document("other/x").getDocument().exists)
        #expect(try db.collectionGroup("people").count.getAggregation(source: .server).count.intValue == 3)
        // Later writes come after the imported times.
        try db.document("people/later").setData(["n": 9])
        let later = try #require(try db.document("people/later").getDocument().updateTime)
        #expect(later > Timestamp(seconds: 1_578_009_600, nanoseconds: 0))
      }
    }
  }

  @Test func replaceEmptiesTheDatabaseFirst() throws {
    try withScratchDirectory { directory in
      try withMergeFixture(directory) { db, file in
        #expect(try db.import(from: file, mode: .replace).documents == 2)
        #expect(try db.check().ok, "index entries after a replace import")
        #expect(try ids(db.collection("people")) == ["fresh", "same"])
        #expect(!(try db.document("other/x").getDocument().exists))
        #expect(try db.listCollections().map(\.collectionID) == ["people"])
        #expect(try ids(db.collection("people").whereField("team", isEqualTo: "old")).isEmpty)
        #expect(try ids(db.collection("other").whereField("team", isEqualTo: "old")).isEmpty)
        #expect(try ids(db.collection("people").whereField("n", isGreaterThanOrEqualTo: 0)) == ["fresh"])
        // An export of nothing, imported with .replace, empties the database.
        let empty = directory + "/empty.jsonl"
        try writeLines(
          [#"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":0}"#], to: empty)
        #expect(try db.import(from: empty, mode: .replace).documents == 0)
        #expect(try db.listCollections().isEmpty)
        #expect(try ids(db.collection("people").whereField("team", isEqualTo: "new")).isEmpty)
      }
    }
  }

  // MARK: - Bad input

  static let header3 = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":3}"#

  static func line(_ path: String, _ fields: String = #"{"n":1}"#) -> String {
    #"{"path":"\#(path)","createTime":"2026-11-29T10:00:00Z","updateTime":"2026-11-29T10:00:01Z","fields":\#(fields)}"#
  }

  /// A bad export file, and what the error message must hold besides the file's path.
  struct BadFile: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var fragments: [String]
    /// Whether to try `.merge` too (validation comes before either mode: `.replace`, the
    /// one that would empty the database, is always tried).
    var bothModes = false
    var testDescription: String { name }
  }

  static let badFiles: [BadFile] = {
    let a = line("people/a")
    let b = line("people/b")
    let c = line("people/c")
    func file(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
    return [
      BadFile(
        name: "truncated.jsonl", text: file([header3, a, b]) + String(c.prefix(40)),
        fragments: [":4:", "JSON at"],
        bothModes: true),
      BadFile(
        name: "notjson.jsonl", text: file([header3, a, "this is not JSON", c]), fragments: [":3:", "JSON at"]),
      BadFile(
        name: "timestamptag.jsonl", text: file([header3, line("people/a", #"{"when":{"$timestamp":5}}"#), b, c]),
        fragments: [":2:", "$timestamp", "when", "RFC 3339"], bothModes: true),
      BadFile(
        name: "unknowntag.jsonl", text: file([header3, a, line("people/b", #"{"x":{"$foo":1}}"#), c]),
        fragments: [":3:", "Unknown tag", "$foo"]),
      BadFile(
        name: "doubleslash.jsonl", text: file([header3, a, line("users//a"), c]), fragments: [":3:", "users//a"]),
      BadFile(
        name: "oddpath.jsonl", text: file([header3, a, b, line("people/c/posts")]),
        fragments: [":4:", "people/c/posts", "even number of segments"]),
      BadFile(
        name: "duplicate.jsonl", text: file([header3, a, b, line("people/a", #"{"n":2}"#)]),
        fragments: [":4:", "people/a", "appears twice", "first on line 2"], bothModes: true),
      BadFile(
        name: "duplicateslash.jsonl", text: file([header3, a, b, line("/people/a/")]),
        fragments: [":4:", "first on line 2"]),
      BadFile(name: "noheader.jsonl", text: file([a, b, c]), fragments: [":1:", "not an export header"]),
      BadFile(
        name: "count.jsonl", text: file([header3.replacingOccurrences(of: ":3}", with: ":5}"), a, b, c]),
        fragments: ["announces 5 documents", "holds 3"], bothModes: true),
      BadFile(
        name: "cutatline.jsonl", text: file([header3, a]) + b, fragments: ["announces 3", "holds 2", "truncated"]),
      BadFile(
        name: "unknownmember.jsonl", text: file([header3, a, #"{"path":"people/b","fields":{},"extra":1}"#, c]),
        fragments: [":3:", "unknown member", "extra"]),
      BadFile(
        name: "times.jsonl",
        text: file([
          header3, a, b,
          #"{"path":"people/c","createTime":"2026-11-29T10:00:00Z","updateTime":"2020-01-01T00:00:00Z","fields":{}}"#,
        ]), fragments: [":4:", "updateTime", "before"]),
      BadFile(
        name: "version.jsonl",
        text: file([header3.replacingOccurrences(of: #""version":1"#, with: #""version":0"#), a, b, c]),
        fragments: [":1:", "version"]),
      BadFile(name: "empty.jsonl", text: "", fragments: ["no export header"], bothModes: true),
      BadFile(name: "blank.jsonl", text: "\n  \n", fragments: ["no export header"]),
    ]
  }()

  @Test(arguments: badFiles)
  func aBadFileIsRefusedWholeNamingTheLineAndTheProblem(_ bad: BadFile) throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try db.document("people/z").setData(["team": "keep"])
        try db.document("people/a").setData(["team": "original"])
        let before = try exportedDocuments(db, in: directory, name: "before.jsonl")
        let file = directory + "/" + bad.name
        try Data(bad.text.utf8).write(to: URL(fileURLWithPath: file))
        for mode in bad.bothModes ? [ImportMode.replace, .merge] : [.replace] {
          expectHearthError(.invalidArgument, mentioning: [file] + bad.fragments, "\(bad.name), \(mode)") {
            try db.import(from: file, mode: mode)
          }
        }
        expectSameLines(try exportedDocuments(db, in: directory, name: "after.jsonl"), before, "after \(bad.name)")
        #expect(try ids(db.collection("people").whereField("team", isEqualTo: "original")) == ["a"])
      }
    }
  }

  @Test func invalidUTF8IsRefusedNamingTheLine() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try db.document("people/z").setData(["team": "keep"])
        let file = directory + "/latin1.jsonl"
        var bytes = Array((Self.header3 + "\n" + Self.line("people/a") + "\n").utf8)
        bytes += Array(#"{"path":"people/b","fields":{"name":"caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8) + [0x0A]
        bytes += Array((Self.line("people/c") + "\n").utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        expectHearthError(.invalidArgument, mentioning: [file + ":3:", "UTF-8", "byte 0xE9 at offset 40 of the line"]) {
          try db.import(from: file, mode: .replace)
        }
        #expect(try ids(db.collection("people")) == ["z"])
      }
    }
  }

  @Test func importingAMissingFileIsNotFound() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try db.document("people/z").setData(["team": "keep"])
        let missing = directory + "/nothing-here.jsonl"
        expectHearthError(.notFound, mentioning: [missing]) { try db.import(from: missing, mode: .replace) }
        expectHearthError(.invalidArgument, mentioning: [directory]) { try db.import(from: directory) }
        #expect(try ids(db.collection("people")) == ["z"])
      }
    }
  }

  // MARK: - Many documents

  /// An export of 11,000 `items` and 1,100 `parts` below them (one every tenth item), in
  /// path order: what `export` must write for the same documents.
  private static func bigExport() -> [String] {
    var lines: [String] = []
    let base = Timestamp(seconds: 1_700_000_000, nanoseconds: 0).microseconds
    for i in 0..<11_000 {
      let id = "i" + String(repeating: "0", count: 5 - String(i).count) + String(i)
      let created = Timestamp(microseconds: base + Int64(i) * 7)
      let updated = Timestamp(microseconds: base + Int64(i) * 7 + 1_000_003)
      let times = #""createTime":"\#(created.rfc3339)","updateTime":"\#(updated.rfc3339)""#
      lines.append(#"{"path":"items/\#(id)",\#(times),"fields":{"group":\#(i % 7),"n":\#(i),"name":"item \#(i)"}}"#)
      if i % 10 == 0 {
        lines.append(#"{"path":"items/\#(id)/parts/p",\#(times),"fields":{"of":\#(i)}}"#)
      }
    }
    return lines
  }

  @Test func aLargeImportCrossesChunksAndMergesIdempotently() throws {
    try withScratchDirectory { directory in
      let expected = Self.bigExport()
      #expect(expected.count == 12_100)
      // The file holds the lines out of order (import does not need path order), and
      // blank lines, before the header too, which import skips however large the file.
      var shuffled = expected
      var generator = SplitMix64(seed: 42)
      shuffled.shuffle(using: &generator)
      let header = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":12100}"#
      let file = directory + "/big.jsonl"
      try writeLines(["", header, ""] + shuffled[..<6000] + [" \t"] + shuffled[6000...] + ["", ""], to: file)

      try withDatabase(settings: relaxed) { db in
        let reports = Box<[Int]>([])
        let summary = try db.import(from: file, mode: .merge) { done, total in
          #expect(total == 12_100)
          reports.mutate { $0.append(done) }
        }
        #expect(summary.documents == 12_100)
        #expect(reports.value.last == 12_100)
        #expect(reports.value == reports.value.sorted(), "progress only grows: \(reports.value)")

        let items = db.collection("items")
        #expect(try items.count.getAggregation(source: .server).count.intValue == 11_000)
        #expect(try db.collectionGroup("parts").count.getAggregation(source: .server).count.intValue == 1_100)
        let group = items.whereField("group", isEqualTo: 3)
        #expect(try group.count.getAggregation(source: .server).count.intValue == 1_571)
        let groupPlan = try group.limit(to: 10).explain()
        #expect(!groupPlan.plan.contains("scan") && groupPlan.documentsRead == 10, "\(groupPlan)")
        #expect(try ids(items.order(by: "n", descending: true).limit(to: 3)) == ["i10999", "i10998", "i10997"])
        #expect(try ids(items.whereField("name", isEqualTo: "item 5000")) == ["i05000"])
        #expect(try ids(db.collectionGroup("parts").whereField("of", isEqualTo: 10_990)) == ["p"])

        let exported = try exportFile(db, to: directory + "/again.jsonl")
        #expect(exported.summary.documents == 12_100)
        expectSameLines(exported.documents, expected, "the export of the large import")

        // Merging the same file again changes nothing.
        #expect(try db.import(from: file, mode: .merge).documents == 12_100)
        #expect(try items.count.getAggregation(source: .server).count.intValue == 11_000)
        #expect(try group.count.getAggregation(source: .server).count.intValue == 1_571)
        #expect(try ids(items.whereField("name", isEqualTo: "item 5000")) == ["i05000"])
        expectSameLines(try exportedDocuments(db, in: directory), expected, "after a second merge")
      }
    }
  }

  // MARK: - JSON Schema

  /// Checks `lines` against `Schemas/` (`JSONSchemaValidator`); returns a verdict per
  /// line: `nil` when valid, the validator's complaint otherwise. In `.file` mode the first
  /// line is a header.
  static func schemaVerdicts(_ lines: [String], firstIsHeader: Bool) throws -> [String?] {
    try JSONSchemaValidator.verdicts(
      lines.enumerated().map { number, line in
        (firstIsHeader && number == 0 ? "export-header.schema.json" : "export-line.schema.json", line)
      })
  }

  @Test func exportLinesAreValidAgainstTheSchemas() throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        try AllTypes.populate(db)
        let file = try exportFile(db, to: directory + "/values.jsonl")
        let lines = [file.header] + file.documents
        let verdicts = try Self.schemaVerdicts(lines, firstIsHeader: true)
        #expect(verdicts.count == lines.count)
        for (line, verdict) in zip(lines, verdicts) where verdict != nil {
          Issue.record("the schema rejects \(line): \(verdict!)")
        }
      }
    }
  }

  static let times = #""createTime":"2026-11-29T10:00:00Z","updateTime":"2026-11-29T10:00:01Z""#

  /// Lines the schema must reject, which import rejects too (checked below; the bad
  /// files above check more).
  static let invalidLines = [
    #"{"path":"people/a",\#(times),"fields":{"t":{"$timestamp":"2026-11-29"}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"$type":"user"}}"#,
    #"{"path":"people/a",\#(times),"fields":{"g":{"$geo":[91,0]}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"g":{"$geo":[1]}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"b":{"$bytes":"not base64!"}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"d":{"$double":"nan"}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"r":{"$ref":"users"}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"l":{"$literal":5}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"x":[[1]]}}"#,
    #"{"path":"people/a",\#(times),"fields":[1]}"#,
    #"{"path":"people/a",\#(times)}"#,
    #"{"path":"people/__a__",\#(times),"fields":{}}"#,
    #"{"path":"people/..",\#(times),"fields":{}}"#,
    #"{"path":"people/a","createTime":"yesterday","fields":{}}"#,
    #"{"path":5,"fields":{}}"#,
  ]

  /// Lines the schema must reject whose import errors `badFiles` checks.
  static let invalidLinesOfBadFiles = [
    #"{"path":"people/a",\#(times),"fields":{"t":{"$timestamp":5}}}"#,
    #"{"path":"people/a",\#(times),"fields":{"x":{"$foo":1}}}"#,
    #"{"path":"people/a",\#(times),"fields":{},"extra":1}"#,
    #"{"path":"people//a",\#(times),"fields":{}}"#,
    #"{"path":"people/a/posts",\#(times),"fields":{}}"#,
  ]

  /// Lines the schema accepts, which import accepts too.
  static let validLines = [
    #"{"path":"people/v1","fields":{}}"#,
    #"{"path":"people/v2","createTime":null,"updateTime":null,"fields":{"d":{"$double":2}}}"#,
    #"{"path":"people/v3",\#(times),"fields":{"$literal":{"$type":"user"}}}"#,
    #"{"path":"people/v4",\#(times),"fields":{"m":{"$timestamp":"2026-11-29T10:00:00Z","x":1}}}"#,
    #"{"path":"people/v5",\#(times),"fields":{"t":{"$timestamp":"2026-11-29T11:00:00.5+01:00"}}}"#,
    #"{"path":"people/v6",\#(times),"fields":{"d":{"$double":"-Infinity"},"e":{"$double":1.5}}}"#,
    #"{"path":"a/b/c/d",\#(times),"fields":{"r":{"$ref":"a/b/c/d"},"l":{"$literal":{}}}}"#,
    #"{"path":"people/___",\#(times),"fields":{"g":{"$geo":[-90,180.0]},"b":{"$bytes":"AA=="}}}"#,
  ]

  @Test func theLineSchemaRejectsInvalidLinesAndAcceptsValidOnes() throws {
    let invalid = Self.invalidLines + Self.invalidLinesOfBadFiles
    let verdicts = try Self.schemaVerdicts(invalid + Self.validLines, firstIsHeader: false)
    #expect(verdicts.count == invalid.count + Self.validLines.count)
    for (line, verdict) in zip(invalid, verdicts) {
      #expect(verdict != nil, "the schema accepts \(line)")
    }
    for (line, verdict) in zip(Self.validLines, verdicts.dropFirst(invalid.count)) {
      #expect(verdict == nil, "the schema rejects \(line): \(verdict ?? "")")
    }
    // Import takes the valid lines.
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        let file = directory + "/valid.jsonl"
        let header = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":8}"#
        try writeLines([header] + Self.validLines, to: file)
        #expect(try db.import(from: file).documents == Self.validLines.count)
        expectSame(try db.document("people/v3").getDocument().data(), ["$type": "user"])
      }
    }
  }

  @Test(arguments: invalidLines)
  func importRejectsWhatTheLineSchemaRejects(_ line: String) throws {
    try withScratchDirectory { directory in
      try withDatabase(settings: relaxed) { db in
        let file = directory + "/invalid.jsonl"
        let header = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":1}"#
        try writeLines([header, line], to: file)
        expectHearthError(.invalidArgument, mentioning: [file + ":2:"], line) { try db.import(from: file) }
        #expect(try db.listCollections().isEmpty)
      }
    }
  }

  @Test func theHeaderSchemaRejectsBadHeaders() throws {
    let good = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00.000001Z","documents":0}"#
    let bad = [
      #"{"hearth":"backup","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":0}"#,
      #"{"hearth":"export","version":0,"exportedAt":"2026-11-29T10:00:00Z","documents":0}"#,
      #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":-1}"#,
      #"{"hearth":"export","version":1,"exportedAt":"today","documents":0}"#,
      #"{"version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":0}"#,
    ]
    for header in [good] + bad {
      let verdicts = try Self.schemaVerdicts([header], firstIsHeader: true)
      #expect(verdicts.count == 1)
      #expect((verdicts.first! == nil) == (header == good), "\(header): \(String(describing: verdicts.first!))")
    }
    let streamed = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":null}"#
    #expect(try Self.schemaVerdicts([streamed], firstIsHeader: true) == [nil])
  }
}

/// The text of the `fields` member of an export line (its last member).
private func fieldsText(of line: String) -> String? {
  guard let range = line.range(of: #","fields":"#), line.hasSuffix("}") else { return nil }
  return String(line[range.upperBound..<line.index(before: line.endIndex)])
}
