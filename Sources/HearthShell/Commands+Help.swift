import Hearth

// MARK: - The table entries

extension Command {
  static let help = Command(
    name: "help", summary: "list the commands, or explain one", usage: "help [COMMAND]",
    details: "Without a command, lists every command; with one, its usage, options and examples.",
    examples: ["help", "help set"],
    arguments: ["COMMAND"], required: 0, access: .none, aliases: ["man", "?", "info", "usage"],
    run: SessionCommands.help)

  static let exit = Command(
    name: "exit", summary: "leave the interactive shell (Ctrl-D does too)", usage: "exit [STATUS]",
    details: "Leaves the interactive shell, with exit status STATUS (default 0).",
    examples: ["exit"],
    arguments: ["STATUS"], required: 0, access: .none, aliases: ["quit", "q", "bye", "logout"],
    run: SessionCommands.exit)
}

// MARK: - Running them

/// `help` and `exit`: about the shell itself.
enum SessionCommands {
  static func help(_ invocation: Invocation) throws {
    guard let name = invocation.positional(0) else {
      invocation.session.write(HelpText.overview)
      return
    }
    guard let command = Command.named(name) else {
      throw UsageError.unknownCommand(name, suggestion: Command.suggestion(for: name))
    }
    invocation.session.write(HelpText.command(command))
  }

  static func exit(_ invocation: Invocation) throws {
    let status = try invocation.positional(0).map { text throws(UsageError) in
      guard let status = Int32(text), (0...255).contains(status) else {
        throw UsageError.invalidValue(option: "exit", value: text, expected: "a status from 0 to 255")
      }
      return status
    }
    invocation.session.exitStatus = status ?? 0
  }
}

/// The texts of `help`, built from the command table so they cannot drift from it.
enum HelpText {
  static var overview: String {
    let width = Command.all.map(\.usage.count).max() ?? 0
    var text = """
      hearth: inspect and edit a Hearth database

      usage: hearth [--db PATH] [--json] COMMAND [ARGS...]   run one command
             hearth [--db PATH]                              interactive shell

      commands:

      """
    for command in Command.all {
      text += "  " + command.usage.padding(to: width) + "  " + command.summary + "\n"
    }
    text += "\noptions:\n"
    let optionWidth = GlobalOption.all.map(\.synopsis.count).max() ?? 0
    for option in GlobalOption.all {
      text += "  " + option.synopsis.padding(to: optionWidth) + "  " + option.summary + "\n"
    }
    text += """

      paths: a collection has an odd number of segments (users, users/alice/posts), a
      document an even number (users/alice).

      JSON values: plain JSON (a number without fraction or exponent is an integer), plus
        {"$timestamp": "2026-11-29T10:00:00.123456Z"}  {"$ref": "users/alice"}
        {"$geo": [40.4, -3.7]}  {"$bytes": "AAEC"}  {"$double": "NaN"} ("Infinity",
        "-Infinity", or {"$double": 2} for a whole-number double)
        and {"$literal": {"$x": 1}} for a map whose only key starts with '$'.

      queries: query users 'where age >= 18 and country == "ES" order by age limit 10';
        'help query' lists the clauses, operators and value forms.

      interactive shell: emacs-style line editing; Tab completes commands, paths and
        field names; Ctrl-P/Ctrl-N walk the history, kept in ~/.hearth_history (or
        $HEARTH_HISTORY; empty keeps none); Ctrl-C drops the line or stops a running
        watch; Ctrl-D or 'exit' leaves.

      exit status: 0 ok, 1 the operation failed (not found...), 64 usage error,
      65 bad input data (JSON, paths, query syntax), 74 I/O error (standard output
      included), 141 standard output closed by its reader (hearth ... | head).

      'help COMMAND' (or 'hearth COMMAND --help') explains a command.

      """
    return text
  }

  static func command(_ command: Command) -> String {
    var text = "usage: \(command.usage)\n\n\(command.summary.prefix(1).uppercased() + command.summary.dropFirst()).\n"
    text += "\n" + command.details + "\n"
    if !command.options.isEmpty {
      text += "\noptions:\n"
      let width = command.options.map(\.synopsis.count).max() ?? 0
      for option in command.options {
        text += "  " + option.synopsis.padding(to: width) + "  " + option.summary + "\n"
      }
    }
    text += command.examples.count == 1 ? "\nexample:\n" : "\nexamples:\n"
    for example in command.examples {
      // A pipeline into hearth (`gunzip -c f | hearth import -`) already names it: adding
      // `hearth ` in front printed "hearth gunzip …", a command that does not exist.
      text += example.contains("| hearth ") ? "  \(example)\n" : "  hearth \(example)\n"
    }
    return text
  }
}

extension String {
  /// Padded with spaces to `width` characters (never cut).
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
