import Foundation
import Testing

/// A document read from standard input (`set DOC -`, `update DOC -`, `add COLLECTION -`)
/// is read up to a bound (issue 13, item 10): past 10 MiB of JSON, Firestore's largest
/// request and ten times its largest document, hearth stops reading and refuses the
/// document as too large, instead of reading an endless input to its end.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct StandardInputLimitTests {
  static let limit = 10 << 20

  @Test func aDocumentFromStandardInputStopsAtTheLimit() throws {
    let scratch = try ScratchDirectory("hearth-stdin-limit")
    let database = scratch.file("db")
    // 64 MiB of zero bytes, as from /dev/zero, without taking the disk space (a sparse
    // file): the shared file offset afterwards tells how much hearth read.
    let endless = scratch.file("zeros")
    try #require(FileManager.default.createFile(atPath: endless, contents: nil))
    let handle = try #require(FileHandle(forUpdatingAtPath: endless))
    try handle.truncate(atOffset: 64 << 20)
    for command in [["set", "users/a", "-"], ["update", "users/a", "-"], ["add", "users", "-"]] {
      try handle.seek(toOffset: 0)
      let outcome = try runRaw(["--db", database] + command, stdin: handle)
      let read = try handle.offset()
      #expect(outcome.exited && outcome.status == 65, "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.hasPrefix("hearth: Document "), "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.contains("is too large"), "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.contains("1048576 bytes (1 MiB)"), "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.hasSuffix(" (invalidArgument)\n"), "\(command): \(outcome.stderr)")
      #expect(read <= UInt64(Self.limit + (1 << 20)), "\(command) read \(read) bytes")
    }
    #expect(!FileManager.default.fileExists(atPath: database))

    // Just under the limit, a document padded with spaces is read whole and written.
    let padded = Array(#"{"a": 1}"#.utf8) + [UInt8](repeating: 0x20, count: Self.limit - 8)
    let outcome = try runRaw(["--db", database, "set", "users/a", "-"], stdin: try scratch.input(padded))
    #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
    let over = padded + [0x20]
    let refused = try runRaw(["--db", database, "set", "users/b", "-"], stdin: try scratch.input(over))
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("users/b is too large"), "\(refused.stderr)")
  }
}
