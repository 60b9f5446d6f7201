import Foundation
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

  /// The most that `-` reads from standard input: 10 MiB, Firestore's largest API
  /// request. A document is at most 1 MiB by Firestore's size rules; its JSON can be
  /// several times that (escapes, `$` tags, whitespace), never ten times, so more input
  /// than this is refused before it is all read (`hearth set DOC - < /dev/zero` ends).
  static let maxStandardInput = 10 << 20

  /// The JSON text of argument `index`, or standard input for `-`, read up to
  /// `maxStandardInput` bytes.
  ///
  /// - Parameter tooLarge: the message when standard input holds more than that.
  /// - Throws: `CommandFailure` (bad input, exit 65) with `tooLarge`, or naming the line
  ///   and byte offset of input that is not UTF-8.
  func jsonArgument(_ index: Int, name: String = "JSON", tooLarge: String) throws -> String {
    guard let text = positional(index) else {
      throw UsageError.missingArgument(name, usage: command.usage)
    }
    guard text == "-" else { return text }
    if session.isInteractive {
      throw UsageError.notAllowed("'-' (JSON from standard input) works only outside the interactive shell")
    }
    var bytes: [UInt8] = []
    while true {
      let chunk: [UInt8]
      do {
        chunk = try session.stdin.read(upTo: 1 << 16)
      } catch let failure as CommandFailure {
        throw failure
      } catch {
        throw CommandFailure(message: "reading standard input: \(error)", code: "io", status: .ioError)
      }
      if chunk.isEmpty { break }
      bytes += chunk
      if bytes.count > Self.maxStandardInput {
        throw CommandFailure(message: tooLarge, code: "invalidArgument", status: .dataError)
      }
    }
    return try UTF8Input.text(bytes, source: "standard input")
  }

  /// The JSON of a document given as `-`: the message when standard input holds more
  /// than `maxStandardInput` bytes, in the words Hearth uses for a document too large.
  static func documentTooLarge(_ document: String) -> String {
    "Document \(document) is too large: standard input holds more than \(maxStandardInput) bytes of JSON, "
      + "far beyond the limit of 1048576 bytes (1 MiB) by Firestore's size rules."
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
