import Foundation
import Hearth

/// The shell's exit statuses, from `sysexits.h` where one fits (docs/shell.md, "Exit statuses").
package enum ExitCode: Int32, Sendable {
  case ok = 0
  /// The operation failed: not found, a failed precondition, damage found.
  case failure = 1
  /// The command was typed wrong (`EX_USAGE`).
  case usage = 64
  /// The input data was wrong: JSON, invalid document data (`EX_DATAERR`).
  case dataError = 65
  /// Reading or writing files failed (`EX_IOERR`), standard output included.
  case ioError = 74
  /// Standard output's reader went away (`hearth export - | head -1`): 128 + SIGPIPE,
  /// the status a shell shows for a process that SIGPIPE ended, so pipelines and
  /// `set -o pipefail` read it as they always have. `hearth` ignores SIGPIPE and ends
  /// with this status itself, quietly: the write fails with `EPIPE` instead of the
  /// signal killing the process midway, so the database is always closed properly.
  case brokenPipe = 141
}

/// A command typed wrong. Reported as `hearth: <message> (usage)`, exit status 64.
enum UsageError: Error, Equatable {
  case unknownCommand(String, suggestion: String?)
  case unknownOption(String, command: String?, suggestion: String?)
  /// A first argument that is none of a command's actions (`indexes remove`).
  case unknownAction(String, command: String, actions: [String], suggestion: String?)
  case missingValue(option: String)
  case invalidValue(option: String, value: String, expected: String)
  case missingArgument(String, usage: String)
  case unexpectedArgument(String, usage: String, hint: String?)
  /// An option that cannot be used here (`--db` inside the interactive shell, `-` for
  /// standard input there).
  case notAllowed(String)
  /// A quote or bracket left open on the command line.
  case unterminated(TokenizerError)

  var message: String {
    switch self {
    case .unknownCommand(let name, let suggestion):
      return "unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; try 'help'")
    case .unknownOption(let option, let command, let suggestion):
      let scope = command.map { " for \($0)" } ?? ""
      return "unknown option '\(option)'\(scope)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .unknownAction(let action, let command, let actions, let suggestion):
      return "unknown action '\(action)' for \(command) (\(actions.joined(separator: ", ")))"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .missingValue(let option):
      return "option \(option) needs a value"
    case .invalidValue(let option, let value, let expected):
      return "invalid value '\(value)' for \(option): expected \(expected)"
    case .missingArgument(let name, let usage):
      return "missing \(name); usage: \(usage)"
    case .unexpectedArgument(let argument, let usage, let hint):
      return "unexpected argument '\(argument)'; usage: \(usage)" + (hint.map { " (\($0))" } ?? "")
    case .notAllowed(let reason):
      return reason
    case .unterminated(let error):
      return error.description
    }
  }
}

/// A command that ran and failed: a one-line message, the code shown in parentheses
/// (Hearth's error code, or `usage`/`io`), and the exit status.
struct CommandFailure: Error {
  var message: String
  var code: String
  var status: ExitCode
  /// Lines printed after the message, such as a query and a caret under the column the
  /// message names.
  var detail: [String] = []

  init(message: String, code: String, status: ExitCode, detail: [String] = []) {
    self.message = message
    self.code = code
    self.status = status
    self.detail = detail
  }

  /// A Hearth error with its exit status: 65 for invalid data, 74 when storage failed
  /// (I/O, permissions, a full disk), 1 for everything else (not found, preconditions).
  init(_ error: HearthError, context: String? = nil) {
    message = context.map { "\($0): \(error.message)" } ?? error.message
    code = "\(error.code)"
    switch error.code {
    case .invalidArgument: status = .dataError
    case .internal, .unavailable, .permissionDenied, .resourceExhausted, .unknown: status = .ioError
    default: status = .failure
    }
  }

  init(_ usage: UsageError) {
    self.init(message: usage.message, code: "usage", status: .usage)
  }

  /// A bad path: bad input data, as Hearth reports an invalid path.
  init(_ path: PathError) {
    self.init(message: path.message, code: "invalidArgument", status: .dataError)
  }

  /// Any error thrown while running a command.
  static func from(_ error: Error, context: String? = nil) -> CommandFailure {
    switch error {
    case let failure as CommandFailure: return failure
    case let usage as UsageError: return CommandFailure(usage)
    case let path as PathError: return CommandFailure(path)
    case let hearth as HearthError: return CommandFailure(hearth, context: context)
    default:
      let text = context.map { "\($0): \(error)" } ?? "\(error)"
      return CommandFailure(message: text, code: "io", status: .ioError)
    }
  }

  /// Standard output failed with `code` (an `errno`): `brokenPipe`, reported quietly,
  /// when its reader went away; an I/O error naming the reason otherwise.
  static func output(_ code: Int32) -> CommandFailure {
    guard code != EPIPE else {
      return CommandFailure(message: "standard output was closed by its reader", code: "io", status: .brokenPipe)
    }
    return CommandFailure(
      message: "cannot write to standard output: \(String(cString: strerror(code)))", code: "io", status: .ioError)
  }

  static func notFound(_ message: String) -> CommandFailure {
    CommandFailure(message: message, code: "notFound", status: .failure)
  }

  /// Ctrl-C stopped the command in the interactive shell.
  static let cancelled = CommandFailure(message: "stopped by Ctrl-C", code: "cancelled", status: .failure)
}
