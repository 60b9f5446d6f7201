import Foundation
import Hearth
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthShell

// The fixture of the shell tests: a database path in a fresh temporary directory, and
// `run`, which drives `Shell.run` with in-memory streams and returns what it printed.

/// What one run of the shell did.
struct ShellOutcome {
  let status: Int32
  let stdout: String
  let stderr: String

  var lines: [String] {
    var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Standard output parsed as JSON, with object members in a fixed order so that
  /// comparisons do not depend on formatting or key order.
  func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    #expect(status == 0, "stderr: \(stderr)", sourceLocation: sourceLocation)
    return canonical(try JSONParser.parse(stdout))
  }
}

/// `value` with every object's members sorted by key, recursively.
func canonical(_ value: JSONValue) -> JSONValue {
  switch value {
  case .array(let elements): return .array(elements.map(canonical))
  case .object(let members):
    return .object(
      members.map { ($0.key, canonical($0.value)) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
  default: return value
  }
}

/// JSON text parsed and put in canonical order, for expected values.
func json(_ text: String) throws -> JSONValue { canonical(try JSONParser.parse(text)) }

/// `text` without ANSI colour sequences (ESC [ … m).
func withoutColors(_ text: String) -> String {
  var result = ""
  var scalars = text.unicodeScalars.makeIterator()
  while let scalar = scalars.next() {
    guard scalar == "\u{1B}" else {
      result.unicodeScalars.append(scalar)
      continue
    }
    while let next = scalars.next(), next != "m" {}
  }
  return result
}

/// A database directory that does not exist yet (the shell creates it on the first
/// write), removed when the fixture goes away.
final class ShellFixture {
  let path: String
  var environment: [String: String] = [:]

  init() {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-shell-\(UUID().uuidString)").path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Runs `hearth --db PATH ARGUMENTS...`.
  @discardableResult
  func run(_ arguments: String..., stdin: String = "", terminal: Bool = false) -> ShellOutcome {
    run(arguments: ["--db", path] + arguments, stdin: stdin, terminal: terminal)
  }

  /// Runs `hearth ARGUMENTS...` exactly as given (no `--db`).
  func run(arguments: [String], stdin: String = "", terminal: Bool = false, stdinIsTerminal: Bool = false)
    -> ShellOutcome
  {
    let output = OutputBuffer(isTerminal: terminal)
    let errors = OutputBuffer(isTerminal: terminal)
    let status = Shell.run(
      arguments: arguments, environment: environment, stdin: InputBuffer(stdin, isTerminal: stdinIsTerminal),
      stdout: output, stderr: errors)
    return ShellOutcome(status: status, stdout: output.text, stderr: errors.text)
  }

  /// Runs a command that must succeed.
  @discardableResult
  func succeed(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> ShellOutcome {
    let outcome = run(arguments: ["--db", path] + arguments)
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
    #expect(outcome.stderr.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
    return outcome
  }

  /// Opens the fixture's database through the public API (to arrange or check data).
  func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    try HearthTestSupport.withDatabase(at: path, body)
  }

  var databaseExists: Bool { FileManager.default.fileExists(atPath: path) }
}

/// Checks a failed run: its status, and a one-line `hearth: … (code)` message on stderr
/// containing every fragment.
func expectFailure(
  _ outcome: ShellOutcome, status: ExitCode, code: String, mentioning fragments: [String] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(outcome.status == status.rawValue, "stderr: \(outcome.stderr)", sourceLocation: sourceLocation)
  #expect(outcome.stderr.hasPrefix("hearth: "), "\(outcome.stderr)", sourceLocation: sourceLocation)
  #expect(outcome.stderr.hasSuffix(" (\(code))\n"), "\(outcome.stderr)", sourceLocation: sourceLocation)
  #expect(
    outcome.stderr.filter { $0 == "\n" }.count == 1, "one line: \(outcome.stderr)", sourceLocation: sourceLocation)
  for fragment in fragments {
    #expect(outcome.stderr.contains(fragment), "\(outcome.stderr) lacks \(fragment)", sourceLocation: sourceLocation)
  }
}
