import Hearth

/// What a command does with the database, which decides how it is opened.
enum DatabaseAccess: Sendable {
  /// Never opens it (`help`, `exit`).
  case none
  /// Opens it read-only: a wrong path says "no database" instead of creating one.
  case read
  /// Opens it for writing, creating it when missing.
  case write
}

/// One run of the shell: its streams, its options, and the database it has open.
///
/// The database is opened on first use and kept for the commands that follow (in the
/// interactive shell), read-only until a command needs to write.
final class Session {
  let stdin: TextInput
  let stdout: TextOutput
  let stderr: TextOutput
  let environment: [String: String]
  /// The database directory as the user gave it (shown in messages and the prompt).
  private(set) var databasePath: String
  /// `--json` given before the command (or when starting the interactive shell).
  var jsonOutput = false
  /// Inside the interactive shell, where `exit` ends the loop and `-` cannot be stdin.
  var isInteractive = false
  /// Set by `exit`: the status the interactive shell ends with.
  var exitStatus: Int32?

  private var database: Database?
  private var databaseIsWritable = false
  private static let callbackQueue = DispatchQueue(label: "hearth.shell.callbacks")
  /// What the running command created to open the database for writing, so that a
  /// command that fails can take it away again (`discardCreatedDatabase`).
  private var createdByCommand: CreatedDatabase?

  init(stdin: TextInput, stdout: TextOutput, stderr: TextOutput, environment: [String: String]) {
    self.stdin = stdin
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    databasePath = Session.defaultDatabasePath(environment)
  }

  /// `$HEARTH_DATABASE`, else `./default.hearth` (as `Settings.defaultPath`, but from the
  /// environment this session was given, so tests can set it).
  static func defaultDatabasePath(_ environment: [String: String]) -> String {
    if let path = environment["HEARTH_DATABASE"], !path.isEmpty { return path }
    return "./default.hearth"
  }

  /// Points the session at another database, closing the one open.
  func useDatabase(at path: String) {
    guard path != databasePath else { return }
    close()
    databasePath = path
  }

  /// The database, opened as `access` needs: a read-only handle is replaced by a
  /// writable one when a command first writes.
  ///
  /// - Throws: `CommandFailure` "no database at PATH" (exit 1) when reading a database
  ///   that does not exist; Hearth's error otherwise.
  func database(for access: DatabaseAccess) throws -> Database {
    if let database, access != .write || databaseIsWritable { return database }
    close()
    let settings = Settings()
    settings.readOnly = access != .write
    // The shell's main thread waits for commands to finish (`watch` on a semaphore), so
    // callbacks cannot use the main queue.
    settings.dispatchQueue = Self.callbackQueue
    let created = access == .write ? CreatedDatabase(beforeOpening: databasePath) : nil
    do {
      let opened = try Database(path: databasePath, settings: settings)
      database = opened
      databaseIsWritable = access == .write
      if let created { createdByCommand = created }
      return opened
    } catch let error as HearthError where error.code == .notFound && settings.readOnly {
      throw CommandFailure.notFound("no database at \(databasePath)")
    } catch {
      created?.remove(from: databasePath)
      throw error
    }
  }

  /// A command starts: what an earlier command created is no longer this one's to remove.
  func commandWillRun() { createdByCommand = nil }

  /// After a command failed: removes the database it created, while the database holds
  /// nothing and no other process has it open, so that a failed `import` or a refused
  /// `set` into a new path leaves nothing behind. A database holding documents is kept
  /// (a commit that succeeded is never undone), and so is everything that existed before
  /// the command.
  func discardCreatedDatabase() {
    guard let created = createdByCommand, let database else { return }
    createdByCommand = nil
    guard let stats = try? database.stats(), stats.documents == 0, stats.declaredIndexes == 0, stats.processes <= 1
    else { return }
    close()
    created.remove(from: databasePath)
  }

  func close() {
    database?.close()
    database = nil
    databaseIsWritable = false
  }

  // MARK: - Output

  func write(_ text: String) { stdout.write(text) }
  func writeLine(_ text: String) { stdout.write(text + "\n") }

  /// A line on standard error: hints that scripts should not parse.
  func note(_ text: String) { stderr.write(text + "\n") }

  /// Throws once standard output failed (`TextOutput.writeError`), so that a command
  /// stops instead of computing output that cannot be written.
  func checkOutput() throws {
    if let code = stdout.writeError { throw CommandFailure.output(code) }
  }

  /// `hearth: <what> (<code>)` on standard error, then the failure's detail lines;
  /// nothing for a closed standard output (`ExitCode.brokenPipe`), as is the custom for
  /// a pipeline whose reader stopped early.
  func report(_ failure: CommandFailure) {
    stdout.flush()
    guard failure.status != .brokenPipe else { return }
    stderr.write("hearth: \(failure.message) (\(failure.code))\n")
    for line in failure.detail { stderr.write(line + "\n") }
    stderr.flush()
  }

  /// Colours only for a person at a terminal that has them, and not when `NO_COLOR` is
  /// set (no-color.org).
  var supportsColor: Bool {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    return stdout.isTerminal && !noColor && environment["TERM"] != "dumb"
  }
}
