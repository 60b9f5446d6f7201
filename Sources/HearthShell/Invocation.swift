import Hearth

/// One run of a command: its parsed arguments and the session it runs in.
struct Invocation {
  let command: Command
  let arguments: Arguments
  let session: Session

  /// Machine output forced: `--json` given before or after the command. (Off a terminal,
  /// output is compact anyway; `--json` also turns `ls` and `tree` into JSON.)
  var json: Bool { session.jsonOutput || arguments.has("--json") }

  /// The positional argument at `index`, if given.
  func positional(_ index: Int) -> String? {
    index < arguments.positionals.count ? arguments.positionals[index] : nil
  }

  func database() throws -> Database { try session.database(for: command.access) }

  // MARK: - Output

  /// Pretty, coloured JSON on a terminal; compact JSON with `--json` or into a pipe.
  func printJSON(_ value: Any) {
    let pretty = !json && session.stdout.isTerminal
    session.writeLine(ExtendedJSON.string(from: value, pretty: pretty, colored: pretty && session.supportsColor))
  }

  /// Names one per line, or a JSON array of strings with `--json`.
  func printNames(_ names: [String]) {
    if json {
      session.writeLine(ExtendedJSON.string(from: names))
    } else {
      for name in names { session.writeLine(name) }
    }
  }

  /// The JSON text of argument `index`, or all of standard input for `-`.
  func jsonArgument(_ index: Int, name: String = "JSON") throws -> String {
    guard let text = positional(index) else {
      throw UsageError.missingArgument(name, usage: command.usage)
    }
    guard text == "-" else { return text }
    if session.isInteractive {
      throw UsageError.notAllowed("'-' (JSON from standard input) works only outside the interactive shell")
    }
    do {
      return try session.stdin.readToEnd()
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(message: "reading standard input: \(error)", code: "io", status: .ioError)
    }
  }

  /// Document data from JSON text; bad JSON fails with exit 65 and the position.
  func fields(from json: String, database: Database) throws -> [String: Any] {
    do {
      return try ExtendedJSON.fields(from: json, database: database)
    } catch let error as HearthError {
      throw CommandFailure(error, context: command.name)
    }
  }
}
