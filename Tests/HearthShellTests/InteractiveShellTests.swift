import Foundation
import Hearth
import HearthCore
import Testing

@testable import HearthShell

/// The interactive loop, driven through standard input.
@Suite struct InteractiveShellTests {
  @Test func runsEachLine() throws {
    let shell = ShellFixture()
    let outcome = shell.run(
      arguments: ["--db", shell.path],
      stdin: """
        # a comment, then a blank line

        set users/a {"name": "A B", "tags": ["x y"]}
        get users/a
        ls users
        exit

        """)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    try #require(outcome.lines.count == 2)
    #expect(try canonical(JSONParser.parse(outcome.lines[0])) == json(#"{"name": "A B", "tags": ["x y"]}"#))
    #expect(outcome.lines[1] == "a")
    // No prompt when standard input is not a terminal.
    #expect(!outcome.stdout.contains("hearth:"))
  }

  @Test func continuesLinesWhileJSONIsOpen() throws {
    let shell = ShellFixture()
    let outcome = shell.run(
      arguments: ["--db", shell.path],
      stdin: """
        set users/a {
          "name": "Multi line",
          "n": [1,
                2]
        }
        set users/b \\
          {"joined": true}
        get users/a
        get users/b
        """)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    try #require(outcome.lines.count == 2)
    #expect(try canonical(JSONParser.parse(outcome.lines[0])) == json(#"{"name": "Multi line", "n": [1, 2]}"#))
    #expect(try canonical(JSONParser.parse(outcome.lines[1])) == json(#"{"joined": true}"#))
  }

  @Test func reportsErrorsAndKeepsGoing() {
    let shell = ShellFixture()
    shell.succeed("set", "users/a", "{}")
    let outcome = shell.run(
      arguments: ["--db", shell.path],
      stdin: """
        lss
        get users
        set users/a {"a": }
        ls users
        get users/nobody
        """)
    let errors = outcome.stderr.split(separator: "\n")
    #expect(errors.count == 4, "\(outcome.stderr)")
    #expect(errors[0].contains("did you mean 'ls'?"))
    #expect(errors[1].contains("users is a collection"))
    #expect(errors[2].contains("line 1, column 7"))
    #expect(errors[3].contains("no document at users/nobody"))
    #expect(outcome.lines == ["a"])
    // Like sh: the status of the last command.
    #expect(outcome.status == ExitCode.failure.rawValue)
  }

  @Test func exitTakesAStatus() {
    let shell = ShellFixture()
    #expect(shell.run(arguments: ["--db", shell.path], stdin: "exit 3\nls\n").status == 3)
    #expect(shell.run(arguments: ["--db", shell.path], stdin: "help\n").status == 0)
    let bad = shell.run(arguments: ["--db", shell.path], stdin: "exit nope\n")
    #expect(bad.status == ExitCode.usage.rawValue)
  }

  @Test func endOfInputWithSomethingOpenIsReported() {
    let shell = ShellFixture()
    let outcome = shell.run(arguments: ["--db", shell.path], stdin: #"set users/a {"a": 1"#)
    #expect(outcome.status == ExitCode.usage.rawValue)
    #expect(outcome.stderr.contains("unbalanced '{'"))
  }

  @Test func promptsOnATerminal() {
    let shell = ShellFixture()
    let outcome = shell.run(
      arguments: ["--db", shell.path], stdin: "help exit\n", terminal: true, stdinIsTerminal: true)
    let name = URL(fileURLWithPath: shell.path).lastPathComponent
    #expect(outcome.stdout.contains("hearth:\(name)> "))
    #expect(outcome.stdout.contains("usage: exit [STATUS]"))
    #expect(outcome.stdout.hasPrefix("Hearth shell on \(shell.path)"))
  }

  @Test func startOptionsStayAtTheStart() {
    let shell = ShellFixture()
    let outcome = shell.run(arguments: ["--db", shell.path], stdin: "ls --db /tmp/elsewhere\nset users/a - \n")
    let errors = outcome.stderr.split(separator: "\n")
    #expect(errors.count == 2)
    #expect(errors[0].contains("--db can only be given when starting hearth"))
    #expect(errors[1].contains("only outside the interactive shell"))
  }

  @Test func keepsTheDatabaseOpenAcrossCommands() throws {
    let shell = ShellFixture()
    let outcome = shell.run(
      arguments: ["--db", shell.path, "--json"],
      stdin: """
        ls
        add users {"n": 1}
        ls
        update users/nobody {"n": 2}
        """)
    // The first `ls` finds no database; `add` creates it; the second `ls` sees it.
    #expect(outcome.stderr.contains("no database at"))
    #expect(outcome.stderr.contains("no document at users/nobody"))
    try #require(outcome.lines.count == 2, "\(outcome.stdout)")
    #expect(outcome.lines[1] == #"["users"]"#)
  }
}
