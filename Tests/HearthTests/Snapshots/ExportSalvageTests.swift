import Foundation
import Hearth
import HearthTestSupport
import Testing

/// `export(to:skipDamaged:)` (issue 13, item 7): an export stops at the first damaged
/// document, naming it; with `skipDamaged: true` it writes every readable document and
/// returns the damaged ones, so that what is left can be recovered.
@Suite struct ExportSalvageTests {
  static let readable = DamagedDocuments.readable

  /// A closed database at `directory/db` with `DamagedDocuments`.
  static func damagedDatabase(in directory: String) throws -> String {
    let path = directory + "/db"
    try DamagedDocuments.write(at: path)
    return path
  }

  @Test func anExportStopsAtTheFirstDamagedDocumentAndLeavesNoFile() throws {
    try withScratchDirectory { directory in
      try withDatabase(at: try Self.damagedDatabase(in: directory)) { db in
        let file = directory + "/out.jsonl"
        expectHearthError(.dataLoss, mentioning: ["users/a", "damaged"]) { try db.export(to: file) }
        #expect(!FileManager.default.fileExists(atPath: file))
      }
    }
  }

  @Test func skippingDamagedDocumentsExportsEveryReadableOne() throws {
    try withScratchDirectory { directory in
      try withDatabase(at: try Self.damagedDatabase(in: directory)) { db in
        let file = directory + "/salvage.jsonl"
        let summary = try db.export(to: file, skipDamaged: true)
        #expect(summary.documents == Self.readable.count)
        #expect(summary.damaged.map(\.path) == ["users/a", "users/c"])
        for damaged in summary.damaged {
          #expect(damaged.reason.contains("checksum"), "\(damaged)")
          #expect(!damaged.reason.hasPrefix("Document"), "the reason, without the path again: \(damaged.reason)")
        }
        let lines = try exportLines(file)
        #expect(lines.dropFirst().map(ExportFile.path(ofLine:)) == Self.readable)
        // The header cannot count documents before the walk has found which are readable.
        #expect(lines.first?.contains(#""documents":null"#) == true, "\(lines.first ?? "")")

        // The salvaged file imports: every readable document, whole.
        try withDatabase(settings: relaxed) { copy in
          #expect(try copy.import(from: file).documents == Self.readable.count)
          for path in Self.readable {
            #expect(try copy.document(path).getDocument().get("s") as? String == "fine", "\(path)")
          }

          // The same through a stream.
          var streamed: [String] = []
          let streamedSummary = try db.export(into: { streamed.append($0) }, skipDamaged: true)
          #expect(streamedSummary == summary)
          #expect(Array(streamed.dropFirst()) == Array(lines.dropFirst()))
          // With progress reported.
          var reported = 0
          let withProgress = try db.export(
            to: directory + "/again.jsonl", skipDamaged: true, progress: { done, _ in reported = done })
          #expect(withProgress == summary)
          #expect(reported == Self.readable.count)
        }
      }
    }
  }

  @Test func aSoundDatabaseLosesNothingToTheSalvageMode() throws {
    try withScratchDirectory { directory in
      try withDatabase(at: directory + "/db", settings: relaxed) { db in
        for path in Self.readable { try db.document(path).setData(["s": "fine"]) }
        let plain = try exportFile(db, to: directory + "/plain.jsonl")
        let salvage = try db.export(to: directory + "/salvage.jsonl", skipDamaged: true)
        #expect(salvage.documents == plain.summary.documents)
        #expect(salvage.damaged.isEmpty)
        #expect(Array(try exportLines(directory + "/salvage.jsonl").dropFirst()) == plain.documents)
      }
    }
  }
}
