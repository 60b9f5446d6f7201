import Foundation
import Hearth
import HearthCore
import Testing

@testable import HearthShell

/// Options, output formats, errors and exit statuses, help.
@Suite struct ShellBehaviourTests {
  @Test func unknownCommandsSuggestTheNearest() {
    let shell = ShellFixture()
    expectFailure(
      shell.run("lss"), status: .usage, code: "usage", mentioning: ["unknown command 'lss'", "did you mean 'ls'?"])
    expectFailure(shell.run("gte", "users/a"), status: .usage, code: "usage", mentioning: ["did you mean 'get'?"])
    expectFailure(shell.run("upd", "users/a"), status: .usage, code: "usage", mentioning: ["did you mean 'update'?"])
    expectFailure(shell.run("delete", "users/a"), status: .usage, code: "usage", mentioning: ["did you mean 'rm'?"])
    expectFailure(shell.run("frobnicate"), status: .usage, code: "usage", mentioning: ["try 'help'"])
    #expect(!shell.databaseExists)
  }

  @Test func unknownOptionsAndArgumentsAreUsageErrors() {
    let shell = ShellFixture()
    expectFailure(
      shell.run("ls", "--limt", "3"), status: .usage, code: "usage",
      mentioning: ["'--limt'", "did you mean '--limit'?"])
    expectFailure(
      shell.run(arguments: ["--jsn", "ls"]), status: .usage, code: "usage", mentioning: ["did you mean '--json'?"])
    expectFailure(
      shell.run("get"), status: .usage, code: "usage", mentioning: ["missing DOC", "usage: get DOC [--meta]"])
    expectFailure(shell.run("set", "users/a"), status: .usage, code: "usage", mentioning: ["missing JSON"])
    expectFailure(
      shell.run("get", "users/a", "users/b"), status: .usage, code: "usage",
      mentioning: ["unexpected argument 'users/b'"])
    // JSON split apart by the user's shell: the error says to quote it.
    expectFailure(
      shell.run("set", "users/a", "{name:", "A}"), status: .usage, code: "usage", mentioning: ["single quotes"])
    expectFailure(shell.run("get", "users/a", "--meta=yes"), status: .usage, code: "usage")
    expectFailure(shell.run(arguments: ["--db"]), status: .usage, code: "usage", mentioning: ["--db needs a value"])
  }

  @Test func pathsOfTheWrongKindSaySo() {
    let shell = ShellFixture()
    shell.succeed("set", "users/a", "{}")
    expectFailure(
      shell.run("get", "users"), status: .dataError, code: "invalidArgument",
      mentioning: ["users is a collection; get needs a document path", "users/ID"])
    expectFailure(
      shell.run("set", "users", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["users is a collection"])
    expectFailure(
      shell.run("update", "users/a/posts", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["users/a/posts is a collection"])
    expectFailure(
      shell.run("add", "users/a", "{}"), status: .dataError, code: "invalidArgument",
      mentioning: ["users/a is a document; add needs a collection path"])
    expectFailure(
      shell.run("get", "/"), status: .dataError, code: "invalidArgument", mentioning: ["needs a document path"])
  }

  @Test func badJSONIsBadInputWithItsPosition() {
    let shell = ShellFixture()
    expectFailure(
      shell.run("set", "users/a", #"{"name": "A" "age": 3}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["set: Invalid JSON at line 1, column 14: expected ',' or '}'"])
    expectFailure(
      shell.run("set", "users/a", "{\"a\": 1,\n\"b\": tru}"), status: .dataError, code: "invalidArgument",
      mentioning: ["line 2, column 6"])
    expectFailure(
      shell.run("add", "users", #"{"when": {"$timestamp": "yesterday"}}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["$timestamp", "field when"])
    expectFailure(
      shell.run("update", "users/a", #"{"x": {"$oops": 1}}"#), status: .dataError, code: "invalidArgument",
      mentioning: ["Unknown tag \"$oops\""])
    expectFailure(
      shell.run("set", "users/a", "[1]"), status: .dataError, code: "invalidArgument", mentioning: ["JSON object"])
    // Bad input never creates a database.
    #expect(!shell.databaseExists)
  }

  @Test func theDatabaseDefaultsToTheEnvironment() throws {
    let shell = ShellFixture()
    shell.environment["HEARTH_DATABASE"] = shell.path
    let set = shell.run(arguments: ["set", "users/a", #"{"from": "env"}"#])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try shell.run(arguments: ["get", "users/a"]).json() == json(#"{"from": "env"}"#))
    // --db wins, before or after the command.
    let other = ShellFixture()
    other.succeed("set", "users/b", "{}")
    #expect(shell.run(arguments: ["ls", "users", "--db", other.path]).lines == ["b"])
    #expect(shell.run(arguments: ["--db=\(other.path)", "ls", "users"]).lines == ["b"])
    #expect(Session.defaultDatabasePath([:]) == "./default.hearth")
  }

  @Test func outputIsPrettyAndColouredOnATerminalOnly() throws {
    let shell = ShellFixture()
    shell.succeed(
      "set", "users/a", #"{"name": "A", "n": 1, "ok": true, "tags": ["x"], "address": {"city": "M", "zip": "1"}}"#)
    let piped = shell.run("get", "users/a")
    #expect(piped.lines.count == 1)
    #expect(!piped.stdout.contains("\u{1B}"))

    let terminal = shell.run("get", "users/a", terminal: true)
    #expect(terminal.lines.count > 1)
    #expect(terminal.lines[1].hasPrefix("  "))
    #expect(terminal.stdout.contains("\u{1B}[1;34m\"name\"\u{1B}[0m"))

    shell.environment["NO_COLOR"] = "1"
    let noColor = shell.run("get", "users/a", terminal: true)
    #expect(noColor.lines.count > 1)
    #expect(!noColor.stdout.contains("\u{1B}"))
    #expect(try JSONParser.parse(noColor.stdout) == JSONParser.parse(piped.stdout))

    // --json forces machine output, even on a terminal.
    let forced = shell.run("get", "users/a", "--json", terminal: true)
    #expect(forced.stdout == piped.stdout)
  }

  @Test func helpDocumentsEveryCommandWithAnExample() {
    let shell = ShellFixture()
    let overview = shell.succeed("help")
    for command in Command.all {
      #expect(overview.stdout.contains(command.usage), "\(command.name)")
      #expect(!command.examples.isEmpty, "\(command.name)")
      let help = shell.succeed("help", command.name)
      #expect(help.stdout.hasPrefix("usage: \(command.usage)\n"))
      #expect(help.stdout.contains("hearth \(command.examples[0])"))
      for option in command.options { #expect(help.stdout.contains(option.name)) }
      #expect(shell.succeed(command.name, "--help").stdout == help.stdout)
    }
    #expect(shell.run(arguments: ["--help"]).stdout == overview.stdout)
    #expect(shell.run(arguments: ["--help", "get"]).stdout == shell.succeed("help", "get").stdout)
    expectFailure(shell.run("help", "gett"), status: .usage, code: "usage", mentioning: ["did you mean 'get'?"])
    #expect(!shell.databaseExists)
  }

  /// Every example in the help runs (with its own data), so the help cannot rot.
  @Test func helpExamplesRun() throws {
    let shell = ShellFixture()
    shell.succeed("set", "users/bob", "{}")
    let order = ["set", "update", "add", "get", "ls", "tree", "query", "explain", "help", "rm", "exit"]
    for name in order {
      let command = try #require(Command.named(name))
      for example in command.examples {
        let words = try Tokenizer.split(example)
        let outcome = shell.run(arguments: ["--db", shell.path] + words)
        #expect(outcome.status == 0, "hearth \(example): \(outcome.stderr)")
      }
    }
  }

  @Test func exitGivesItsStatusInOneShotModeToo() {
    let shell = ShellFixture()
    #expect(shell.run("exit", "3").status == 3)
    #expect(shell.run("exit").status == 0)
    expectFailure(shell.run("exit", "256"), status: .usage, code: "usage", mentioning: ["0 to 255"])
  }

  @Test func suggestionsUseEditDistance() {
    #expect(Suggestions.editDistance("ls", "ls") == 0)
    #expect(Suggestions.editDistance("sl", "ls") == 1)
    #expect(Suggestions.editDistance("tre", "tree") == 1)
    #expect(Suggestions.editDistance("kitten", "sitting") == 3)
    #expect(Suggestions.nearest(to: "tre", in: ["tree", "rm"]) == "tree")
    #expect(Suggestions.nearest(to: "xyz", in: ["tree", "rm"]) == nil)
    #expect(Command.suggestion(for: "quit") == "exit")
  }

  @Test func pathsAreClassifiedBySegments() throws {
    #expect(try ShellPath.parse("users") == ShellPath(kind: .collection, path: "users"))
    #expect(try ShellPath.parse("/users/alice/") == ShellPath(kind: .document, path: "users/alice"))
    #expect(try ShellPath.parse("/") == .root)
    #expect(throws: PathError.self) { try ShellPath.parse("") }
    #expect(throws: PathError.self) { try ShellPath.parse("a//b") }
    #expect(throws: PathError.self) { try ShellPath.parse("a/..") }
  }
}
