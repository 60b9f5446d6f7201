import Foundation
import Hearth

// MARK: - The table entries

extension Command {
  static let export = Command(
    name: "export", summary: "write every document as JSON Lines, to a file or '-' (standard output)",
    usage: "export FILE|- [--skip-damaged]",
    details: """
      Writes every document, in path order, as JSON Lines: a header line, then one
      {"path", "createTime", "updateTime", "fields"} object per document, fields in
      extended JSON. It reads one consistent snapshot while the app keeps writing. A
      regular FILE is replaced only once the export is whole (a failed export leaves the
      old one); a FIFO or a device is written into as it is, and a symbolic link is
      followed to its target. '-' writes to standard output. 'import' reads it back.

      A damaged document stops the export (exit 1, dataLoss). --skip-damaged salvages
      what is left: every readable document is written, each damaged one is listed on
      standard error with its path and what is wrong, and the header's count is null.
      When documents were skipped the exit status is 1, as for 'check', with everything
      readable written.
      """,
    examples: ["export backup.jsonl", "export - | gzip > backup.jsonl.gz", "export rescued.jsonl --skip-damaged"],
    options: [.flag("--skip-damaged", "write every readable document and list the damaged ones on stderr")],
    arguments: ["FILE"], required: 1, access: .read, aliases: ["dump", "save-all"],
    run: SnapshotCommands.export)

  static let `import` = Command(
    name: "import", summary: "load an export; merge by default, --replace empties the database first",
    usage: "import FILE|- [--replace]",
    details: """
      Loads a file written by 'export' ('-' reads standard input). Every line is checked
      before anything is written: a bad line fails with its line number and changes
      nothing. Documents keep their create and update times; a document already at the
      same path is replaced, others stay, unless --replace empties the database first.
      """,
    examples: ["import backup.jsonl", "import backup.jsonl --replace", "gunzip -c backup.jsonl.gz | hearth import -"],
    options: [.flag("--replace", "empty the database first, so it holds exactly the file's documents")],
    arguments: ["FILE"], required: 1, access: .write, aliases: ["load", "restore-json"],
    run: SnapshotCommands.import)

  static let backup = Command(
    name: "backup", summary: "copy the database, consistent and compacted, while the app keeps writing",
    usage: "backup DIR",
    details: """
      Copies the database into the new directory DIR: one consistent snapshot, free
      space left out, taken while other processes go on reading and writing. DIR gets
      the copy and a manifest.json (time, documents, size, checksum) that 'restore'
      checks. DIR must not exist or be empty.
      """,
    examples: ["backup backups/2026-11-29"],
    arguments: ["DIR"], required: 1, access: .read, aliases: ["snapshot", "copy", "cp"],
    run: SnapshotCommands.backup)

  static let restore = Command(
    name: "restore", summary: "replace the database with a backup",
    usage: "restore DIR [--force]",
    details: """
      Checks the backup in DIR against its manifest, then replaces the database with it
      in one step: a crash leaves the old database or the new one, never a mix. Refused
      while another process has the database open, unless --force (that process keeps
      its old copy until it reopens, and what it writes meanwhile is lost).
      """,
    examples: ["restore backups/2026-11-29", "restore backups/2026-11-29 --force"],
    options: [.flag("--force", "restore even while another process has the database open")],
    arguments: ["DIR"], required: 1, access: .none, aliases: ["rollback", "recover"],
    run: SnapshotCommands.restore)

  static let check = Command(
    name: "check", summary: "verify every document and index entry; exit 1 on damage", usage: "check",
    details: """
      First verifies every page of data.mdb with plain reads (page numbers, types, keys,
      overflow chains, the table records), so that damage is found instead of followed:
      each damaged page is reported with the documents it held. Then reads the whole
      database on one snapshot and verifies that every document passes its checksum and
      decodes, that every document has each index entry its fields call for and the
      indexes hold no other, and that collections are registered where they belong.
      Prints 'ok' or one line per problem (exit 1); --json prints
      {"ok": …, "problems": […]}. A database too damaged to open (an empty or truncated
      data.mdb) is reported the same way.
      """,
    examples: ["check", "check --json"],
    arguments: [], required: 0, access: .read, aliases: ["verify", "fsck", "integrity"],
    run: SnapshotCommands.check)
}

// MARK: - Running them

/// `export`, `import`, `backup` and `restore`: the whole database at once.
enum SnapshotCommands {
  static func export(_ invocation: Invocation) throws {
    let file = invocation.arguments.positionals[0]
    let skipDamaged = invocation.arguments.has("--skip-damaged")
    let session = invocation.session
    let database = try invocation.database()
    let progress = ProgressLine(session: session, verb: "exported")
    defer { progress.finish() }
    let summary: ExportSummary
    do {
      if file == "-" {
        summary = try database.export(
          into: { line in
            session.writeLine(line)
            try session.checkOutput()
          }, skipDamaged: skipDamaged, progress: progress.update)
      } else {
        summary = try database.export(to: file, skipDamaged: skipDamaged, progress: progress.update)
      }
    } catch let error as HearthError where error.code == .dataLoss && !skipDamaged {
      throw CommandFailure(
        message: "\(error.message); 'export --skip-damaged' writes every readable document and lists the damaged ones",
        code: "\(error.code)", status: .failure)
    }
    progress.finish()
    let destination = file == "-" ? "" : " to \(file)"
    guard summary.damaged.isEmpty else {
      for damaged in summary.damaged {
        session.note("hearth: skipped damaged document \(damaged.path): \(damaged.reason)")
      }
      throw CommandFailure(
        message: "exported \(summary.documents) documents\(destination); skipped \(summary.damaged.count) damaged "
          + "documents", code: "dataLoss", status: .failure)
    }
    if file != "-" { session.note("exported \(summary.documents) documents\(destination)") }
  }

  static func `import`(_ invocation: Invocation) throws {
    var file = invocation.arguments.positionals[0]
    var copy: String?
    if file == "-" {
      copy = try copyStandardInput(invocation)
      file = copy!
    }
    defer { if let copy { unlink(copy) } }
    let database = try invocation.database()
    let progress = ProgressLine(session: invocation.session, verb: "imported")
    let mode: ImportMode = invocation.arguments.has("--replace") ? .replace : .merge
    let summary: ImportSummary
    do {
      summary = try database.import(from: file, mode: mode, progress: progress.update)
    } catch let error as HearthError {
      progress.finish()
      // The message names the file and line; for standard input, name it so.
      let message = copy.map { error.message.replacingOccurrences(of: $0, with: "standard input") } ?? error.message
      throw CommandFailure(HearthError(error.code, message))
    }
    progress.finish()
    invocation.session.note("imported \(summary.documents) documents" + (copy == nil ? " from \(file)" : ""))
  }

  static func backup(_ invocation: Invocation) throws {
    let directory = invocation.arguments.positionals[0]
    let progress = ProgressLine(session: invocation.session, verb: "copied", unit: .bytes)
    let manifest = try invocation.database().backup(to: directory, progress: progress.update)
    progress.finish()
    if invocation.json {
      invocation.printJSON(
        [
          ("path", directory), ("documents", manifest.documents), ("bytes", manifest.bytes),
          ("createdAt", manifest.createdAt),
        ] as [(String, Any)])
    } else {
      invocation.session.writeLine(
        "backed up \(manifest.documents) documents (\(ByteCount.text(manifest.bytes))) to \(directory)")
    }
  }

  static func restore(_ invocation: Invocation) throws {
    let directory = invocation.arguments.positionals[0]
    let session = invocation.session
    // The shell's own handle would count as "open in this process".
    session.close()
    try Database.restore(from: directory, to: session.databasePath, force: invocation.arguments.has("--force"))
    session.writeLine("restored \(session.databasePath) from \(directory)")
  }

  /// Checks through `Database.check(path:)`, which reports a database too damaged to
  /// open instead of refusing it.
  static func check(_ invocation: Invocation) throws {
    let progress = ProgressLine(session: invocation.session, verb: "checked")
    let path = invocation.session.databasePath
    let report: CheckReport
    do {
      report = try Database.check(path: path, progress: progress.update)
    } catch let error as HearthError where error.code == .notFound {
      throw CommandFailure.notFound("no database at \(path)")
    }
    progress.finish()
    if invocation.json {
      invocation.printJSON([("ok", report.ok), ("problems", report.problems)] as [(String, Any)])
    } else if report.ok {
      invocation.session.writeLine(
        "ok: \(report.documents) documents, \(report.indexEntries) index entries, \(report.collections) collections")
    } else {
      for problem in report.problems { invocation.session.writeLine(problem) }
    }
    if !report.ok {
      throw CommandFailure(
        message: "the database at \(invocation.session.databasePath) is damaged: \(report.problems.count) problems",
        code: "dataLoss", status: .failure)
    }
  }

  /// Copies standard input to a temporary file (import reads its input twice), byte for
  /// byte: the import checks the lines, UTF-8 included, and names the bad one.
  private static func copyStandardInput(_ invocation: Invocation) throws -> String {
    if invocation.session.isInteractive {
      throw UsageError.notAllowed("'-' (standard input) works only outside the interactive shell")
    }
    let path = NSTemporaryDirectory() + "/hearth-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CommandFailure(message: "cannot create a temporary file at \(path)", code: "io", status: .ioError)
    }
    defer { try? handle.close() }
    do {
      while true {
        let chunk = try invocation.session.stdin.read(upTo: 1 << 20)
        if chunk.isEmpty { return path }
        try handle.write(contentsOf: chunk)
      }
    } catch {
      unlink(path)
      throw CommandFailure.from(error, context: "copying standard input to \(path)")
    }
  }
}

/// A progress line on standard error (`imported 12000 of 100000 documents (12%)`,
/// `copied 12 MB of 140 MB (8%)`), redrawn in place; only when standard error is a
/// terminal, where a person watches it.
final class ProgressLine {
  enum Unit {
    case documents
    case bytes
  }

  private let session: Session
  private let verb: String
  private let unit: Unit
  private var shown = false
  private var lastDraw = Date.distantPast

  init(session: Session, verb: String, unit: Unit = .documents) {
    self.session = session
    self.verb = verb
    self.unit = unit
  }

  /// Draws the line; throws `cancelled` after Ctrl-C, which stops an export, a backup or
  /// a check (an import goes on to the end, never left half done).
  func update(_ done: Int, _ total: Int?) throws {
    if Interrupts.isRequested { throw CommandFailure.cancelled }
    guard session.stderr.isTerminal, Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = Date()
    shown = true
    let amount = { (count: Int) in self.unit == .bytes ? ByteCount.text(count) : "\(count)" }
    var text = "\(verb) \(amount(done))" + (total.map { " of \(amount($0))" } ?? "")
    if unit == .documents { text += " documents" }
    if let total, total > 0 { text += " (\(min(done * 100 / total, 100))%)" }
    session.stderr.write("\r\u{1B}[K" + text)
    session.stderr.flush()
  }

  /// Clears the line.
  func finish() {
    guard shown else { return }
    shown = false
    session.stderr.write("\r\u{1B}[K")
    session.stderr.flush()
  }
}

/// Sizes for people: `512 bytes`, `3.4 MB`, `1.2 GB` (powers of 1,000, as disks are sold).
enum ByteCount {
  static func text(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) bytes" }
    let units = ["kB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1000
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
  }
}
