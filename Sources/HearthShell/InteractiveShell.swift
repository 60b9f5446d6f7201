/// What the reader of the interactive shell got.
enum LineInput: Equatable {
  case line(String)
  /// Ctrl-C while typing: the line (and any command it continued) is dropped.
  case interrupted
  /// A line that is not UTF-8, dropped with the command it belongs to; the message
  /// names the line and the byte.
  case invalid(message: String)
}

/// Reads the lines of the interactive shell: `LineEditor` at a terminal,
/// `PlainLineReader` otherwise.
protocol LineReader {
  /// The next line, after showing `prompt`; `nil` at the end of input (Ctrl-D).
  func readLine(prompt: String) -> LineInput?
}

/// Lines from a `TextInput`, prompting only when a person is typing at a terminal (a
/// script piped in gets no prompts mixed into its output).
struct PlainLineReader: LineReader {
  let input: TextInput
  let output: TextOutput

  func readLine(prompt: String) -> LineInput? {
    if input.isTerminal {
      output.write(prompt)
      output.flush()
    }
    do {
      return try input.readLine().map(LineInput.line)
    } catch {
      return .invalid(message: CommandFailure.from(error).message)
    }
  }
}

/// The interactive shell: prompt `hearth:<db>> `, read a line, run it, until `exit` or
/// the end of input.
///
/// A line with a quote or JSON bracket left open continues on the next line (prompt
/// `...> `), so JSON can be pasted across lines. Lines starting with `#` are comments.
enum InteractiveShell {
  /// - Returns: the status given to `exit`, else the last command's status (as `sh`
  ///   does, so a script piped in reports its last failure).
  static func run(_ session: Session, reader: some LineReader) -> Int32 {
    session.isInteractive = true
    let name = session.databasePath.split(separator: "/").last.map(String.init) ?? session.databasePath
    let prompt = "hearth:\(name)> "
    if session.stdin.isTerminal {
      session.writeLine("Hearth shell on \(session.databasePath). Type 'help' for commands, 'exit' or Ctrl-D to leave.")
    }
    var status = ExitCode.ok
    while session.exitStatus == nil {
      guard let input = reader.readLine(prompt: prompt) else {
        if session.stdin.isTerminal { session.writeLine("") }
        break
      }
      let line: String
      switch input {
      case .line(let text): line = text
      case .interrupted: continue
      case .invalid(let message):
        status = reportInvalid(message, in: session)
        continue
      }
      let words: [String]
      do {
        words = try readCommand(startingWith: line, reader: reader, session: session)
      } catch {
        session.report(error)
        status = error.status
        continue
      }
      if words.isEmpty { continue }
      Interrupts.reset()
      status = Shell.execute(words, in: session)
      // Nobody reads the output any more (`hearth < script | head`): the rest of the
      // script could only fail the same way.
      if status == .brokenPipe { return status.rawValue }
      // The terminal echoed ^C where the output stopped: the prompt goes below it.
      if Interrupts.isRequested { session.writeLine("") }
    }
    session.stdout.flush()
    return session.exitStatus ?? status.rawValue
  }

  /// The words of a command line; for a command that reads query text, with the quotes
  /// of its arguments kept for the query language.
  private static func words(of text: String) throws(TokenizerError) -> [String] {
    if let name = Tokenizer.firstWord(of: text), Command.named(name)?.readsQueryText == true {
      return try Tokenizer.splitKeepingQuotes(text)
    }
    return try Tokenizer.split(text)
  }

  /// Reports a line that is not UTF-8 (bad input, exit 65).
  private static func reportInvalid(_ message: String, in session: Session) -> ExitCode {
    let failure = CommandFailure(message: message, code: "invalidArgument", status: .dataError)
    session.report(failure)
    return failure.status
  }

  /// The words of the command that starts with `line`, reading continuation lines while
  /// a quote or bracket is open; `[]` for a blank line, a comment or Ctrl-C.
  ///
  /// - Throws: `CommandFailure` when the input ends with something still open (usage),
  ///   or a continuation line is not UTF-8 (bad input).
  private static func readCommand(startingWith line: String, reader: some LineReader, session: Session)
    throws(CommandFailure) -> [String]
  {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return [] }
    var text = line
    while true {
      do {
        return try words(of: text)
      } catch {
        guard let input = reader.readLine(prompt: "...> ") else {
          throw CommandFailure(UsageError.unterminated(error))
        }
        if case .invalid(let message) = input {
          throw CommandFailure(message: message, code: "invalidArgument", status: .dataError)
        }
        guard case .line(let more) = input else { return [] }
        // A final backslash joins the lines (as in sh); an open quote or bracket keeps
        // the line break.
        if error.kind == .escape {
          text = String(text.dropLast()) + more
        } else {
          text += "\n" + more
        }
      }
    }
  }
}
