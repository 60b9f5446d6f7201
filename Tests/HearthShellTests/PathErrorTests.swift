import Foundation
import Testing

@testable import HearthShell

/// A bad path is bad input data (issue 13, item 12): whatever is wrong with it (an empty
/// segment, an ID Firestore refuses, a collection where a document is needed or the
/// reverse) and whichever command takes it, the exit status is 65 with
/// `invalidArgument` and a message that names the path, before any database is opened.
@Suite struct PathErrorTests {
  /// Paths no command takes, with a fragment of the message that says why.
  static let badPaths: [(path: String, fragment: String)] = [
    ("users//x", "//"), ("users/.", "'.' or '..'"), ("users/..", "'.' or '..'"), ("users/__x__", "reserved"),
    ("../users", "'.' or '..'"), ("users/a/__posts__", "reserved"),
    ("users/" + String(repeating: "x", count: 300), "bytes"),
  ]

  /// Every command that takes a document or collection path, with the rest of its words.
  static func commands(_ path: String) -> [[String]] {
    [
      ["ls", path], ["tree", path], ["get", path], ["set", path, "{}"], ["update", path, "{}"], ["add", path, "{}"],
      ["rm", path], ["rm", path, "--recursive"], ["query", path], ["query", path, "where a == 1"],
      ["explain", path], ["watch", path], ["watch", path, "where a == 1"],
    ]
  }

  @Test func everyCommandCallsABadPathBadInput() {
    let shell = ShellFixture()
    for (path, fragment) in Self.badPaths {
      for command in Self.commands(path) {
        let outcome = shell.run(arguments: ["--db", shell.path] + command)
        expectFailure(outcome, status: .dataError, code: "invalidArgument", mentioning: [fragment])
        #expect(outcome.stderr.contains(String(path.prefix(40))), "\(command): \(outcome.stderr)")
      }
    }
    // Before any database was opened: none was needed, none was made.
    #expect(!shell.databaseExists)
  }

  @Test func theSameOnADatabaseThatExists() {
    let shell = ShellFixture()
    shell.succeed("set", "users/a", "{}")
    for (path, fragment) in Self.badPaths {
      for command in Self.commands(path) {
        expectFailure(
          shell.run(arguments: ["--db", shell.path] + command), status: .dataError, code: "invalidArgument",
          mentioning: [fragment])
      }
    }
    #expect(shell.succeed("ls", "users").lines == ["a"])
  }

  @Test func aPathOfTheWrongKindIsBadInputToo() {
    let shell = ShellFixture()
    let wrong: [(command: [String], fragment: String)] = [
      (["get", "users"], "users is a collection; get needs a document path"),
      (["set", "users", "{}"], "users is a collection"), (["update", "users", "{}"], "users is a collection"),
      (["add", "users/a", "{}"], "users/a is a document; add needs a collection path"),
      (["query", "users/a"], "users/a is a document; query needs a collection path"),
      (["explain", "users/a"], "users/a is a document"),
      (["get", "/"], "get needs a document path"), (["rm", "/"], "rm needs a document or collection path"),
      (["get", ""], "empty"), (["ls", ""], "empty"), (["query", "group:"], "group: needs a collection ID"),
      (["query", "group:a/b"], "a/b"), (["query", "group:__x__"], "reserved"),
    ]
    for (command, fragment) in wrong {
      expectFailure(
        shell.run(arguments: ["--db", shell.path] + command), status: .dataError, code: "invalidArgument",
        mentioning: [fragment])
    }
    #expect(!shell.databaseExists)
  }
}
