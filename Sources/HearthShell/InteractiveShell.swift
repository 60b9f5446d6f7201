/// What the reader of the interactive shell got.
enum LineInput: Equatable {
  case line(String)
  /// Ctrl-C while typing: the line (and any command it continued) is dropped.
  case interrupted
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
    return input.readLine().map(LineInput.line)
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
      guard case .line(let line) = input else { continue }
      guard let words = readCommand(startingWith: line, reader: reader, session: session) else {
        status = .usage
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

  /// The words of the command that starts with `line`, reading continuation lines while
  /// a quote or bracket is open; `[]` for a blank line, a comment or Ctrl-C, `nil` (after
  /// reporting it) when the input ends with something still open.
  private static func readCommand(startingWith line: String, reader: some LineReader, session: Session) -> [String]? {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return [] }
    var text = line
    while true {
      do {
        return try words(of: text)
      } catch {
        guard let input = reader.readLine(prompt: "...> ") else {
          session.report(CommandFailure(UsageError.unterminated(error)))
          return nil
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
