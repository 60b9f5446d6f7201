import Foundation
import Hearth
import HearthTestSupport
import Testing

@testable import HearthShell

/// What Tab offers, from the text before the cursor (the terminal side is in
/// `TerminalSessionTests`).
@Suite struct CompletionTests {
  let shell = ShellFixture()

  private func completion(_ text: String) -> Completion {
    let session = Session(stdin: InputBuffer(), stdout: OutputBuffer(), stderr: OutputBuffer(), environment: [:])
    session.useDatabase(at: shell.path)
    defer { session.close() }
    return Completion.of(text, session: session)
  }

  private func arrange() throws {
    try shell.withDatabase { db in
      try db.document("users/alice").setData(["name": "Alice", "age": 30])
      try db.document("users/albert").setData(["name": "Albert", "email": "a@x"])
      try db.document("users/bob").setData(["name": "Bob"])
      try db.document("users/alice/posts/p1").setData(["title": "Hello"])
      try db.document("users/alice/followers/bob").setData(["since": 1])
      try db.document("rooms/general").setData(["topic": "All"])
    }
  }

  @Test func commandNames() {
    #expect(completion("").candidates == Command.all.map(\.name))
    #expect(completion("e").candidates == ["explain", "export", "exit"])
    #expect(completion("qu") == Completion(word: "qu", candidates: ["query"]))
    #expect(completion("help wa").candidates == ["watch"])
    #expect(completion("frobnicate x").candidates.isEmpty)
  }

  @Test func pathsLevelByLevel() throws {
    try arrange()
    #expect(completion("ls ").candidates == ["rooms/", "users/"])
    #expect(completion("get us").candidates == ["users/"])
    #expect(completion("get users/al").candidates == ["users/albert", "users/alice"])
    #expect(completion("get users/al").commonPrefix == "users/al")
    #expect(completion("get users/b").candidates == ["users/bob"])
    #expect(completion("ls users/alice/").candidates == ["users/alice/followers/", "users/alice/posts/"])
    #expect(completion("get users/alice/posts/").candidates == ["users/alice/posts/p1"])
    #expect(completion("get users/zed").candidates.isEmpty)
    // Only the first argument is a path.
    #expect(completion("set users/alice us").candidates.isEmpty)
  }

  @Test func queryTextOffersClauseWordsAndFieldNames() throws {
    try arrange()
    let words = completion("query users where a").candidates
    #expect(words.contains("age") && words.contains("and") && words.contains("array-contains"))
    #expect(!words.contains("name"))
    #expect(completion("query users where age > 3 order by n").candidates == ["name", "not-in"])
    #expect(completion("query users where em").candidates == ["email"])
    #expect(completion("explain group:posts where ti").candidates == ["title"])
    #expect(completion("query users --i").candidates == ["--ids"])
  }

  @Test func aMissingDatabaseOffersNoPathsAndIsNotCreated() {
    #expect(completion("get us").candidates.isEmpty)
    #expect(!shell.databaseExists)
  }
}
