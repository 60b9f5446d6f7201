import Foundation
import Testing

/// Invalid UTF-8 is refused, never stored as U+FFFD (issue 13, item 9): in a command-line
/// argument (named by its position), in JSON from standard input, in an import file or
/// stream, in the lines of a script given to the interactive shell and in an index file
/// (named by line and byte offset). Each is bad input: exit 65, `invalidArgument`.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct InvalidUTF8Tests {
  /// `"café"` in Latin-1: the é is the byte 0xE9, which UTF-8 never has alone.
  static let latin1JSON = Array(#"{"s": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)

  /// Runs `hearth` from bash, so that arguments can hold bytes a Swift `String` cannot:
  /// `script` sees hearth as `$0` and the database as `$1`.
  static func bash(_ script: String, database: String) throws -> RawOutcome {
    guard let hearth = hearthExecutable else { throw CocoaError(.fileNoSuchFile) }
    return try RawProcess(
      ["-c", script, hearth.path, database], executable: URL(fileURLWithPath: "/bin/bash")
    ).finish()
  }

  @Test func anArgumentThatIsNotUTF8IsRefusedByPosition() throws {
    let scratch = try ScratchDirectory("hearth-utf8")
    let database = scratch.file("db")
    let cases: [(script: String, fragments: [String])] = [
      (
        #"exec "$0" --db "$1" set users/a "$(printf '{"s": "caf\xe9"}')""#,
        ["argument 5", "byte 0xE9 at offset 10", #"{"s": "caf\xE9"}"#]
      ),
      (#"exec "$0" --db "$1" set "$(printf 'users/\xff')" '{}'"#, ["argument 4", "byte 0xFF at offset 6"]),
      (#"exec "$0" --db "$(printf '/tmp/\xc3')" ls"#, ["argument 2", "byte 0xC3 at offset 5"]),
      (#"exec "$0" --db "$1" query users "$(printf 'where s == "\xed\xa0\x80"')""#, ["argument 5", "0xED"]),
    ]
    for (script, fragments) in cases {
      let outcome = try Self.bash(script, database: database)
      #expect(outcome.exited && outcome.status == 65, "\(script): \(outcome.stderr)")
      #expect(outcome.stderr.hasPrefix("hearth: ") && outcome.stderr.hasSuffix(" (invalidArgument)\n"), "\(script)")
      for fragment in fragments + ["not valid UTF-8"] {
        #expect(outcome.stderr.contains(fragment), "\(script): \(outcome.stderr) lacks \(fragment)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: database), "nothing was written")
  }

  @Test func jsonFromStandardInputThatIsNotUTF8IsRefusedByLineAndOffset() throws {
    let scratch = try ScratchDirectory("hearth-utf8")
    let database = scratch.file("db")
    // The é on line 2, at byte 10 of the line and byte 12 of the input.
    let input = Array("{\n".utf8) + Array(#" "s": "caf"#.utf8) + [0xE9] + Array("\"\n}\n".utf8)
    for command in [["set", "users/a", "-"], ["add", "users", "-"], ["set", "users/a", "-", "--merge"]] {
      let outcome = try runRaw(["--db", database] + command, stdin: try scratch.input(input))
      #expect(outcome.exited && outcome.status == 65, "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.hasSuffix(" (invalidArgument)\n"), "\(outcome.stderr)")
      for fragment in [
        "standard input:2:", "not valid UTF-8", "byte 0xE9 at offset 10 of the line", "offset 12 from the start",
      ] {
        #expect(outcome.stderr.contains(fragment), "\(command): \(outcome.stderr) lacks \(fragment)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: database))
  }

  @Test func anImportThatIsNotUTF8IsRefusedByLineAndOffset() throws {
    let scratch = try ScratchDirectory("hearth-utf8")
    let database = scratch.file("db")
    let header = Array(#"{"hearth":"export","version":1}"#.utf8) + [0x0A]
    let good = Array(#"{"path":"users/a","fields":{}}"#.utf8) + [0x0A]
    // Line 3: the é at byte 39 of the line.
    let bad = Array(#"{"path":"users/b","fields":{"name":"caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8) + [0x0A]
    let bytes = header + good + bad
    let offset = header.count + good.count + 39
    let file = scratch.file("latin1.jsonl")
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    for (arguments, name) in [(["import", file], file), (["import", "-"], "standard input")] {
      let outcome = try runRaw(["--db", database] + arguments, stdin: try scratch.input(bytes))
      #expect(outcome.exited && outcome.status == 65, "\(arguments): \(outcome.stderr)")
      for fragment in [
        "\(name):3:", "not valid UTF-8", "byte 0xE9 at offset 39 of the line", "offset \(offset) from the start",
      ] {
        #expect(outcome.stderr.contains(fragment), "\(arguments): \(outcome.stderr) lacks \(fragment)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: database))
  }

  @Test func aScriptLineThatIsNotUTF8IsRefusedAndTheScriptGoesOn() throws {
    let scratch = try ScratchDirectory("hearth-utf8")
    let database = scratch.file("db")
    let script =
      Array("set users/a '{}'\n".utf8) + Array("set users/b '".utf8) + Self.latin1JSON + Array("'\n".utf8)
      + Array("set users/c '{}'\nls users\n".utf8)
    let outcome = try runRaw(["--db", database], stdin: try scratch.input(script))
    #expect(outcome.exited, "\(outcome.stderr)")
    #expect(outcome.stdoutLines == ["a", "c"], "\(outcome.stderr)")
    #expect(outcome.stderr.hasPrefix("hearth: standard input:2: the line is not valid UTF-8"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("byte 0xE9 at offset 23 of the line"), "\(outcome.stderr)")
    #expect(outcome.stderr.hasSuffix(" (invalidArgument)\n"))
  }

  @Test func anIndexFileThatIsNotUTF8IsRefusedByLineAndOffset() throws {
    let scratch = try ScratchDirectory("hearth-utf8")
    let database = scratch.file("db")
    let file = scratch.file("firestore.indexes.json")
    let bytes =
      Array("{\"indexes\": [\n  {\"collectionGroup\": \"caf".utf8) + [0xE9]
      + Array(#"", "queryScope": "COLLECTION", "fields": []}]}"#.utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    for arguments in [["indexes", "load", file], ["indexes", "load", "-"]] {
      let outcome = try runRaw(["--db", database] + arguments, stdin: try scratch.input(bytes))
      #expect(outcome.exited && outcome.status == 65, "\(arguments): \(outcome.stderr)")
      for fragment in [":2:", "not valid UTF-8", "byte 0xE9 at offset 26 of the line"] {
        #expect(outcome.stderr.contains(fragment), "\(arguments): \(outcome.stderr) lacks \(fragment)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: database))
  }
}
