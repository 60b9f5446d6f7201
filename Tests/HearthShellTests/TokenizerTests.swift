import Testing

@testable import HearthShell

@Suite struct TokenizerTests {
  @Test(arguments: [
    ("ls", ["ls"]),
    ("  get   users/a  ", ["get", "users/a"]),
    ("", []),
    ("\t", []),
    (#"set users/a {"name": "A B"}"#, ["set", "users/a", #"{"name": "A B"}"#]),
    (#"set users/a {"name": "A B"} --merge"#, ["set", "users/a", #"{"name": "A B"}"#, "--merge"]),
    (
      #"set users/a {"s": "a } b { \" c", "n": {"m": [1, {"x": "]"}]}}"#,
      ["set", "users/a", #"{"s": "a } b { \" c", "n": {"m": [1, {"x": "]"}]}}"#]
    ),
    (#"set users/a {"name": "O'Brien"}"#, ["set", "users/a", #"{"name": "O'Brien"}"#]),
    ("x [1, 2] y", ["x", "[1, 2]", "y"]),
    (#"a 'single quoted' "double quoted""#, ["a", "single quoted", "double quoted"]),
    (#"'{"name": "A B"}'"#, [#"{"name": "A B"}"#]),
    (#""say \"hi\" \\ \n""#, [#"say "hi" \ \n"#]),
    (#"a\ b c"#, ["a b", "c"]),
    (#"ab"c d"e"#, ["abc de"]),
    (#"'' """#, ["", ""]),
    ("a{b", ["a{b"]),
    ("x' y 'z", ["x y z"]),
    ("{\"a\":\n 1}", ["{\"a\":\n 1}"]),
    ("ls 'a'\"'\"'b'", ["ls", "a'b"]),
  ])
  func splitsWords(line: String, words: [String]) throws {
    #expect(try Tokenizer.split(line) == words)
  }

  @Test(arguments: [
    ("get 'users/a", TokenizerError(kind: .singleQuote, column: 5)),
    (#"get "users/a"#, TokenizerError(kind: .doubleQuote, column: 5)),
    (#"set users/a {"name": "A"#, TokenizerError(kind: .doubleQuote, column: 22)),
    (#"set users/a {"a": {"b": 1}"#, TokenizerError(kind: .bracket("{"), column: 13)),
    ("x [1, [2]", TokenizerError(kind: .bracket("["), column: 3)),
    (#"ls \"#, TokenizerError(kind: .escape, column: 4)),
  ])
  func reportsWhatIsLeftOpen(line: String, error: TokenizerError) {
    #expect(throws: error) { try Tokenizer.split(line) }
  }

  @Test func quotesWordsForHints() throws {
    for word in ["plain", "with space", "it's", "", "{json}", "a\"b"] {
      #expect(try Tokenizer.split(Tokenizer.quotedIfNeeded(word)) == [word])
    }
    #expect(Tokenizer.quotedIfNeeded("alice") == "alice")
  }
}
