import Foundation
import Hearth
import HearthTestSupport
import Testing

/// A progress closure that throws stops an export, a backup or a check (the doc shell's
/// Ctrl-C), leaving nothing behind; an import goes on to the end.
@Suite struct ProgressStopTests {
  struct Stop: Error {}

  /// 2,500 documents of about 1 KB: progress comes every 1,000 documents, and a backup's
  /// every megabyte.
  private func populated(_ body: (Database, String) throws -> Void) throws {
    try withScratchDirectory { directory in
      try withDatabase(at: directory + "/db") { db in
        let text = String(repeating: "x", count: 1000)
        for start in stride(from: 0, to: 2500, by: 500) {
          let batch = db.batch()
          for i in start..<start + 500 { batch.setData(["i": i, "text": text], forDocument: db.document("c/d\(i)")) }
          try batch.commit()
        }
        try body(db, directory)
      }
    }
  }

  @Test func anExportStopsAndLeavesNoFile() throws {
    try populated { db, directory in
      let file = directory + "/out.jsonl"
      var calls = 0
      #expect(throws: Stop.self) {
        try db.export(to: file) { _, _ in
          calls += 1
          throw Stop()
        }
      }
      #expect(calls == 1)
      let left = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(left == ["db"])
    }
  }

  @Test func aBackupStopsAndLeavesNoCopy() throws {
    try populated { db, directory in
      let target = directory + "/backup"
      #expect(throws: Stop.self) { try db.backup(to: target) { _, _ in throw Stop() } }
      #expect((try? FileManager.default.contentsOfDirectory(atPath: target)) ?? [] == [])
      // The directory can take a backup afterwards.
      let manifest = try db.backup(to: target)
      #expect(manifest.documents == 2500)
    }
  }

  @Test func aCheckStops() throws {
    try populated { db, _ in
      #expect(throws: Stop.self) { try db.check { _, _ in throw Stop() } }
      let report = try db.check()
      #expect(report.ok)
    }
  }

  @Test func anImportGoesOnToTheEnd() throws {
    try populated { db, directory in
      let file = directory + "/all.jsonl"
      _ = try db.export(to: file)
      try withDatabase(at: directory + "/copy") { copy in
        var calls = 0
        let summary = try copy.import(from: file) { _, _ in
          calls += 1
          throw Stop()
        }
        #expect(summary.documents == 2500)
        #expect(calls >= 2)
        #expect(try copy.collection("c").count.getAggregation(source: .server).count == 2500)
      }
    }
  }
}
