import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

/// `hearth export --skip-damaged FILE|-` (issue 13, item 7): every readable document is
/// written, each damaged one is listed on standard error with its path and the reason,
/// and the exit status is 1 (`dataLoss`), as `check`'s on damage.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct ExportSalvageCommandTests {
  static let readable = DamagedDocuments.readable

  /// A closed database in `scratch` with `DamagedDocuments`.
  static func damagedDatabase(in scratch: ScratchDirectory) throws -> String {
    let path = scratch.file("db")
    try DamagedDocuments.write(at: path)
    return path
  }

  /// The paths of an export's document lines.
  static func paths(_ lines: [String]) throws -> [String] {
    try lines.dropFirst().map { line in
      guard case .string(let path)? = try JSONParser.parse(line)["path"] else { return "<\(line)>" }
      return path
    }
  }

  /// Standard error of a salvage: one line per damaged document, then the summary.
  static func expectSalvageReport(
    _ outcome: RawOutcome, exported: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(outcome.exited && outcome.status == 1, "\(outcome.stderr)", sourceLocation: sourceLocation)
    let lines = outcome.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(outcome.stderr)", sourceLocation: sourceLocation)
    guard lines.count == 3 else { return }
    #expect(lines[0].hasPrefix("hearth: skipped damaged document users/a: "), sourceLocation: sourceLocation)
    #expect(lines[1].hasPrefix("hearth: skipped damaged document users/c: "), sourceLocation: sourceLocation)
    #expect(lines[0].contains("checksum") && lines[1].contains("checksum"), sourceLocation: sourceLocation)
    #expect(
      lines[2] == "hearth: exported 3 documents\(exported); skipped 2 damaged documents (dataLoss)",
      sourceLocation: sourceLocation)
  }

  @Test func skipDamagedWritesEveryReadableDocument() throws {
    let scratch = try ScratchDirectory("hearth-salvage")
    let database = try Self.damagedDatabase(in: scratch)

    // Without --skip-damaged, the export stops at the first damaged document, says how
    // to get past it, and leaves no file.
    let file = scratch.file("salvage.jsonl")
    let stopped = try runRaw(["--db", database, "export", file])
    #expect(stopped.exited && stopped.status == 1, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("users/a") && stopped.stderr.contains("--skip-damaged"), "\(stopped.stderr)")
    #expect(stopped.stderr.hasSuffix(" (dataLoss)\n"))
    #expect(!FileManager.default.fileExists(atPath: file))

    let salvaged = try runRaw(["--db", database, "export", "--skip-damaged", file])
    Self.expectSalvageReport(salvaged, exported: " to \(file)")
    let lines = try exportLines(file)
    #expect(try Self.paths(lines) == Self.readable)

    // To standard output: the same documents, the same report.
    let streamed = try runRaw(["--db", database, "export", "-", "--skip-damaged"])
    Self.expectSalvageReport(streamed, exported: "")
    #expect(streamed.stdoutLines.dropFirst() == lines.dropFirst())

    // What was salvaged imports into a new database.
    let copy = scratch.file("copy")
    let imported = try runRaw(["--db", copy, "import", file])
    #expect(imported.status == 0, "\(imported.stderr)")
    for path in Self.readable {
      let document = try runRaw(["--db", copy, "get", path])
      #expect(document.stdoutText == #"{"s":"fine"}"# + "\n", "\(path): \(document.stderr)")
    }
    let sound = try runRaw(["--db", copy, "export", "--skip-damaged", "-"])
    #expect(sound.exited && sound.status == 0 && sound.stderr.isEmpty, "\(sound.stderr)")
    #expect(sound.stdoutLines.count == Self.readable.count + 1)
  }

  @Test func helpExportDescribesTheSalvageMode() throws {
    let help = try runRaw(["help", "export"])
    #expect(help.stdoutText.contains("--skip-damaged"))
    #expect(help.stdoutText.contains("exit status is 1"))
  }
}
