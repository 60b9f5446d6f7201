import Foundation
import Hearth
import HearthCore
import HearthServer

// MARK: - The table entry

extension Command {
  static let serve = Command(
    name: "serve", summary: "be the Firestore emulator: Google's clients in any language connect to it",
    usage:
      "serve [--db DIR] [--host HOST] [--port PORT] [--ephemeral] [--require-indexes] [--indexes FILE] [--version-retention TIME] [--verbose]",
    details: """
      Serves the Firestore API (gRPC, google.firestore.v1) as Google's emulator does, so
      that Google's own clients and SDKs reach Hearth with FIRESTORE_EMULATOR_HOST set to
      the address it prints. Every project and database a client names is its own Hearth
      database under DIR, created on first use and kept between runs; without --db, or
      with --ephemeral, the data lives in a temporary directory that is removed when the
      server stops (and commits are not synced to disk). Listens on 127.0.0.1:8080
      unless told otherwise (--port 0 picks a free port). Google's emulator's reset
      endpoint works on the same port: curl -X DELETE
      http://HOST:PORT/emulator/v1/projects/P/databases/(default)/documents empties a
      database. --verbose logs one line per call to standard error (method, database,
      status, microseconds). Runs until Ctrl-C or SIGTERM, then lets the calls in flight
      finish. Reads at a past read_time see each database as it was, up to 7 days back
      (--version-retention TIME changes that: 90s, 30m, 1h, 7d; the versions are kept in
      the database's files).
      --require-indexes refuses, as production Firestore does and Google's emulator never
      does, a query that needs a composite or collection-group index not declared
      (FAILED_PRECONDITION, naming the index to add); --indexes FILE declares the indexes
      of a firestore.indexes.json in every database served.
      """,
    examples: [
      "serve --db firestore-data", "serve --ephemeral --port 0 --verbose",
    ],
    options: [
      .value("--db", "DIR", "keep the databases in DIR (default: a temporary directory)"),
      .value("--host", "HOST", "the address to listen on (default 127.0.0.1)"),
      .value("--port", "PORT", "the port to listen on (default 8080; 0 picks a free one)"),
      .flag("--ephemeral", "keep nothing: a temporary directory, removed at the end"),
      .flag("--require-indexes", "refuse queries that need an index not declared, as production does"),
      .value("--indexes", "FILE", "declare the indexes of FILE (firestore.indexes.json) in every database"),
      .value("--version-retention", "TIME", "keep old versions for reads at a past read_time this long (default 7d)"),
      .flag("--verbose", "log one line per call to standard error"),
    ],
    arguments: [], required: 0, access: .none, aliases: ["emulator", "server", "start"],
    run: ServeCommand.serve)
}

// MARK: - Running it

/// `serve`: a `FirestoreServer` until Ctrl-C or SIGTERM.
enum ServeCommand {
  static func serve(_ invocation: Invocation) throws {
    let arguments = invocation.arguments
    let port = try arguments.integer("--port", in: 0...65_535) ?? 8080
    let host = arguments.value("--host") ?? "127.0.0.1"
    let ephemeral = arguments.has("--ephemeral") || arguments.value("--db") == nil
    if arguments.has("--ephemeral"), arguments.value("--db") != nil {
      throw UsageError.notAllowed("--ephemeral keeps nothing, so it takes no --db DIR")
    }
    let directory =
      arguments.value("--db")
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-serve-\(UUID().uuidString)").path
    defer { if ephemeral { try? FileManager.default.removeItem(atPath: directory) } }
    // Calls end on the server's threads: their lines go to the standard error's
    // descriptor itself, one write(2) each.
    let log: (@Sendable (String) -> Void)? = arguments.has("--verbose") ? logLine : nil
    let indexes = try arguments.value("--indexes").map(readIndexFile)
    let retention = try arguments.value("--version-retention").map(duration) ?? ServedDatabases.defaultVersionRetention

    // Caught before the server starts: a SIGTERM sent as soon as the address is printed
    // (as a test harness may) must stop it, not be lost while the handler is set up.
    let stop = StopSignals()
    let server: FirestoreServer
    do {
      server = try FirestoreServer(
        directory: directory, host: host, port: port, durable: !ephemeral,
        requireIndexes: arguments.has("--require-indexes"), indexes: indexes, versionRetention: retention, log: log)
    } catch {
      throw CommandFailure(
        message: "cannot serve on \(host):\(port): \(error) (is another server using the port?)", code: "unavailable",
        status: .ioError)
    }
    let address = host.contains(":") ? "[\(host)]:\(server.port)" : "\(host):\(server.port)"
    invocation.session.writeLine("Hearth is serving the Firestore API on \(address)")
    invocation.session.writeLine(ephemeral ? "data: ephemeral (kept nowhere)" : "data: \(directory)")
    invocation.session.writeLine("export FIRESTORE_EMULATOR_HOST=\(address)")
    invocation.session.stdout.flush()

    stop.wait()
    let stopped = DispatchSemaphore(value: 0)
    Task {
      await server.shutdown()
      stopped.signal()
    }
    stopped.wait()
    invocation.session.stderr.write("hearth: stopped serving\n")
  }

  /// A time such as `90s`, `30m`, `1h` or `7d`.
  ///
  /// - Throws: `UsageError` for anything else.
  static func duration(_ text: String) throws -> Duration {
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0,
      count <= Int64.max / 1_000_000 / unit
    else {
      throw UsageError.notAllowed("--version-retention takes a time such as 90s, 30m, 1h or 7d, not '\(text)'")
    }
    return .seconds(count * unit)
  }

  /// The index file at `path`, parsed.
  ///
  /// - Throws: `invalidArgument` naming the file when it cannot be read or parsed.
  private static func readIndexFile(_ path: String) throws -> IndexFile {
    let text: String
    do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
      throw HearthError(.invalidArgument, "Cannot read \(path): \(error.localizedDescription)")
    }
    do { return try IndexFile.parse(text) } catch let error as HearthError {
      throw HearthError(.invalidArgument, "\(path): \(error.message)")
    }
  }

  @Sendable private static func logLine(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

}

/// Ctrl-C (SIGINT) and SIGTERM, caught from its creation until it is released; `wait()`
/// returns on either.
private final class StopSignals {
  private let terminated = DispatchSemaphore(value: 0)
  private let termination: any DispatchSourceSignal

  init() {
    signal(SIGTERM, SIG_IGN)
    termination = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
    termination.setEventHandler { [terminated] in terminated.signal() }
    termination.resume()
    Interrupts.catchInterrupts()
  }

  func wait() { _ = Interrupts.wait(for: terminated) }

  deinit {
    termination.cancel()
    signal(SIGTERM, SIG_DFL)
  }
}
