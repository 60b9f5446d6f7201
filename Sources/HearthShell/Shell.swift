import Foundation

/// The doc shell, `hearth`: one command and exit, or an interactive shell.
///
/// ```
/// hearth [--db PATH] [--json] COMMAND [ARGS...]   # one command, then exit
/// hearth [--db PATH]                              # interactive shell
/// ```
///
/// It is a library so that tests (and tools) can drive it without a process: `run` takes
/// the arguments and the three streams and returns the exit status. The `hearth`
/// executable only calls `main()`.
///
/// For example:
///
/// ```swift
/// let output = OutputBuffer()
/// let status = Shell.run(
///   arguments: ["--db", path, "get", "users/alice"], stdin: InputBuffer(), stdout: output,
///   stderr: OutputBuffer())
/// // status == 0, output.text == "{\"name\":\"Alice\"}\n"
/// ```
package enum Shell {
  /// Runs the shell as the `hearth` process: its arguments, environment and standard
  /// streams.
  package static func main() -> Int32 {
    // Signals blocked by whoever started hearth (a thread of a test runner, a service
    // manager) are inherited: unblock them, so that SIGTERM and Ctrl-C reach it.
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    // A reader that goes away (`hearth export - | head -1`) makes writes fail with EPIPE
    // instead of killing hearth midway: it closes the database and ends quietly with
    // `ExitCode.brokenPipe`.
    signal(SIGPIPE, SIG_IGN)
    let arguments: [String]
    do {
      arguments = try commandLineArguments()
    } catch {
      let errors = FileDescriptorOutput.standardError()
      errors.write("hearth: \(error.message) (\(error.code))\n")
      errors.flush()
      return error.status.rawValue
    }
    return run(
      arguments: arguments, environment: ProcessInfo.processInfo.environment, stdin: StandardInput(),
      stdout: FileDescriptorOutput.standardOutput(), stderr: FileDescriptorOutput.standardError())
  }

  /// The process's arguments after the program name, each checked to be UTF-8:
  /// `CommandLine.arguments` would turn an invalid byte into U+FFFD, storing what the
  /// user never wrote.
  ///
  /// - Throws: `CommandFailure` (bad input, exit 65) naming the argument by position.
  private static func commandLineArguments() throws(CommandFailure) -> [String] {
    var arguments: [String] = []
    for position in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[position] else { continue }
      let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
      arguments.append(try UTF8Input.argument(bytes, position: position))
    }
    return arguments
  }

  /// Runs one command line (`arguments`, without the program name), or the interactive
  /// shell when there is no command.
  ///
  /// - Returns: the exit status (`ExitCode`): 0 ok, 1 failed, 64 usage, 65 bad data,
  ///   74 I/O (standard output included), 141 standard output closed by its reader.
  package static func run(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    stdin: TextInput, stdout: TextOutput, stderr: TextOutput
  ) -> Int32 {
    let session = Session(stdin: stdin, stdout: stdout, stderr: stderr, environment: environment)
    defer {
      session.close()
      stderr.flush()
    }
    var status = run(arguments, in: session)
    // Output still buffered can fail too: a run whose output was cut short never ends 0.
    stdout.flush()
    if status == ExitCode.ok.rawValue, let code = stdout.writeError {
      let failure = CommandFailure.output(code)
      session.report(failure)
      status = failure.status.rawValue
    }
    return status
  }

  /// Runs the command line in `session`: global options, then one command or the
  /// interactive shell.
  private static func run(_ arguments: [String], in session: Session) -> Int32 {
    let stdout = session.stdout
    let commandIndex: Int
    let globals: Arguments
    do {
      commandIndex = try indexOfCommand(in: arguments)
      globals = try Arguments.parse(arguments[..<commandIndex], options: GlobalOption.all, command: nil)
    } catch {
      session.report(CommandFailure(error))
      return ExitCode.usage.rawValue
    }
    if let path = globals.value(GlobalOption.database.name) { session.useDatabase(at: path) }
    session.jsonOutput = globals.has(GlobalOption.json.name)

    guard commandIndex < arguments.count else {
      if globals.has(GlobalOption.help.name) {
        stdout.write(HelpText.overview)
        return ExitCode.ok.rawValue
      }
      return InteractiveShell.run(session, reader: lineReader(for: session))
    }
    var words = Array(arguments[commandIndex...])
    if globals.has(GlobalOption.help.name) { words.append(GlobalOption.help.name) }
    let status = execute(words, in: session)
    return session.exitStatus ?? status.rawValue
  }

  /// Runs one command, given as words (`["get", "users/alice"]`), reporting any failure
  /// on standard error as `hearth: <what> (<code>)`.
  static func execute(_ words: [String], in session: Session) -> ExitCode {
    guard let name = words.first else { return .ok }
    session.commandWillRun()
    do {
      guard let command = Command.named(name) else {
        throw UsageError.unknownCommand(name, suggestion: Command.suggestion(for: name))
      }
      let arguments = try Arguments.parse(
        words.dropFirst(), options: command.options + GlobalOption.all, command: name)
      if arguments.has(GlobalOption.help.name) {
        session.write(HelpText.command(command))
        return .ok
      }
      if let path = arguments.value(GlobalOption.database.name) {
        guard !session.isInteractive else {
          throw UsageError.notAllowed("--db can only be given when starting hearth")
        }
        session.useDatabase(at: path)
      }
      try checkArity(arguments, of: command, interactive: session.isInteractive)
      try command.run(Invocation(command: command, arguments: arguments, session: session))
      session.stdout.flush()
      try session.checkOutput()
      return .ok
    } catch {
      let failure = CommandFailure.from(error)
      session.discardCreatedDatabase()
      session.report(failure)
      return failure.status
    }
  }

  /// The line editor when a person types at a terminal, else plain lines.
  private static func lineReader(for session: Session) -> any LineReader {
    if session.stdin is StandardInput, session.stdin.isTerminal, session.stdout.isTerminal,
      let editor = LineEditor(session: session, historyFile: historyFile(session.environment))
    {
      Interrupts.catchInterrupts()
      return editor
    }
    return PlainLineReader(input: session.stdin, output: session.stdout)
  }

  /// `$HEARTH_HISTORY` (empty: keep none), else `~/.hearth_history`.
  static func historyFile(_ environment: [String: String]) -> String? {
    if let file = environment["HEARTH_HISTORY"] { return file.isEmpty ? nil : file }
    return environment["HOME"].map { $0 + "/.hearth_history" }
  }

  /// Where the command name is: after the global options that precede it.
  ///
  /// - Throws: `UsageError.unknownOption` for an option that is not global there.
  private static func indexOfCommand(in arguments: [String]) throws(UsageError) -> Int {
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      guard word.hasPrefix("-"), word != "-" else { return index }
      let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
      switch name {
      case GlobalOption.database.name: index += word.contains("=") ? 1 : 2
      case GlobalOption.json.name, GlobalOption.help.name, "-h": index += 1
      default:
        throw .unknownOption(
          name, command: nil, suggestion: Suggestions.nearest(to: name, in: GlobalOption.all.map(\.name)))
      }
    }
    return min(index, arguments.count)
  }

  private static func checkArity(_ arguments: Arguments, of command: Command, interactive: Bool) throws(UsageError) {
    let count = arguments.positionals.count
    if count < command.arity.lowerBound {
      throw .missingArgument(command.argumentNames[count], usage: command.usage)
    }
    if count > command.arity.upperBound {
      // Outside the interactive shell, JSON split into words means the user's shell
      // took it apart: it needs quotes there.
      let takesJSON = command.argumentNames.contains("JSON")
      let hint = takesJSON && !interactive ? "put the JSON in single quotes: '{\"name\": \"A B\"}'" : nil
      throw .unexpectedArgument(arguments.positionals[command.arity.upperBound], usage: command.usage, hint: hint)
    }
  }
}
