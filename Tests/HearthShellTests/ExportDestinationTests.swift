import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Where `export FILE` writes (issue 13, item 5): a regular file is replaced whole (a
/// temporary file renamed over it, so a failed export leaves the old one); a FIFO or a
/// device is written into directly and stays what it was; a symbolic link is followed,
/// and its target gets the export while the link stays a link.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct ExportDestinationTests {
  /// A database with `count` documents.
  static func database(in scratch: ScratchDirectory, count: Int = 3) throws -> String {
    let path = scratch.file("db")
    return try withDatabase(at: path) { database in
      let batch = database.batch()
      for index in 0..<count { batch.setData(["n": index], forDocument: database.document("users/u\(index)")) }
      try batch.commit()
      return path
    }
  }

  /// Checks that `lines` are a whole export of `count` documents.
  static func expectExport(_ lines: [String], of count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lines.count == count + 1, "\(lines)", sourceLocation: sourceLocation)
    #expect(lines.first?.contains(#""documents":\#(count)"#) == true, "\(lines)", sourceLocation: sourceLocation)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(#"{"path":"users/u"#) }, sourceLocation: sourceLocation)
  }

  @Test func aFIFOIsWrittenIntoAndStaysAFIFO() throws {
    let scratch = try ScratchDirectory("hearth-export-to")
    let database = try Self.database(in: scratch, count: 500)
    let fifo = scratch.file("export.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    // The reader: opened without waiting for a writer, so that it never blocks, even when
    // an export replaces the FIFO instead of writing into it.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let process = try RawProcess(["--db", database, "export", fifo])
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var ended = false
    while true {
      let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress!, $0.count) }
      if count > 0 {
        received += buffer[..<count]
        continue
      }
      // Nothing to read (no writer yet, or one that has not written): once hearth has
      // ended, everything it wrote is in the FIFO, so read what is left and stop.
      if ended { break }
      if !process.isRunning { ended = true }
      var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
      _ = poll(&poller, 1, 20)
    }
    let outcome = process.finish()
    #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
    #expect(fileKind(fifo) == S_IFIFO, "the FIFO is still a FIFO")
    let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    Self.expectExport(lines, of: 500)
    #expect(!FileManager.default.fileExists(atPath: fifo + ".partial"))
  }

  @Test func aSymbolicLinkIsFollowedToItsTarget() throws {
    let scratch = try ScratchDirectory("hearth-export-to")
    let database = try Self.database(in: scratch)
    let fileManager = FileManager.default
    try fileManager.createDirectory(atPath: scratch.file("exports"), withIntermediateDirectories: false)
    let target = scratch.file("exports/latest.jsonl")
    try Data("old export\n".utf8).write(to: URL(fileURLWithPath: target))
    // A relative link into another directory, and a link to that link.
    let link = scratch.file("latest.jsonl")
    try #require(symlink("exports/latest.jsonl", link) == 0)
    let linkToLink = scratch.file("current.jsonl")
    try #require(symlink("latest.jsonl", linkToLink) == 0)

    for name in [link, linkToLink] {
      let outcome = try runRaw(["--db", database, "export", name])
      #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
      #expect(fileKind(name) == S_IFLNK, "\(name) is still a link")
      #expect(fileKind(target) == S_IFREG)
      Self.expectExport(try exportLines(target), of: 3)
    }
    #expect(try fileManager.destinationOfSymbolicLink(atPath: link) == "exports/latest.jsonl")
    #expect(try fileManager.contentsOfDirectory(atPath: scratch.file("exports")) == ["latest.jsonl"])

    // A link whose target does not exist yet: the export creates the target.
    let dangling = scratch.file("next.jsonl")
    try #require(symlink("exports/next.jsonl", dangling) == 0)
    let outcome = try runRaw(["--db", database, "export", dangling])
    #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
    #expect(fileKind(dangling) == S_IFLNK)
    Self.expectExport(try exportLines(scratch.file("exports/next.jsonl")), of: 3)
  }

  @Test func aDeviceIsWrittenIntoAndStaysADevice() throws {
    let scratch = try ScratchDirectory("hearth-export-to")
    let database = try Self.database(in: scratch)
    // First a device node of our own (the same device as /dev/full) where the system
    // allows making one: an export that replaced its device would replace this one, not
    // the machine's /dev/full.
    let own = scratch.file("full")
    // Linux's number of device 1:7 (major in bits 8-19, minor in bits 0-7).
    if mknod(own, S_IFCHR | 0o600, dev_t(1 << 8 | 7)) == 0 {
      let outcome = try runRaw(["--db", database, "export", own])
      #expect(outcome.exited && outcome.status == 74, "\(outcome.stderr)")
      try #require(fileKind(own) == S_IFCHR, "the device node is still a device")
    }
    let outcome = try runRaw(["--db", database, "export", "/dev/full"])
    #expect(outcome.exited && outcome.status == 74, "\(outcome.stderr)")
    #expect(outcome.stderr.hasPrefix("hearth: ") && outcome.stderr.hasSuffix(" (resourceExhausted)\n"))
    #expect(outcome.stderr.contains("/dev/full") && outcome.stderr.contains("No space left on device"))
    #expect(fileKind("/dev/full") == S_IFCHR, "/dev/full is still a device")
    #expect(!FileManager.default.fileExists(atPath: "/dev/full.partial"))

    // /dev/null takes the whole export.
    let null = try runRaw(["--db", database, "export", "/dev/null"])
    #expect(null.exited && null.status == 0, "\(null.stderr)")
    #expect(fileKind("/dev/null") == S_IFCHR)
  }

  @Test func aDirectoryIsRefusedAndARegularFileReplacedWhole() throws {
    let scratch = try ScratchDirectory("hearth-export-to")
    let database = try Self.database(in: scratch)
    let directory = scratch.file("dir")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    let refused = try runRaw(["--db", database, "export", directory])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("\(directory) is a directory"), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)

    // A regular file is replaced whole, and nothing is left beside it.
    let file = scratch.file("out.jsonl")
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: file))
    let outcome = try runRaw(["--db", database, "export", file])
    #expect(outcome.exited && outcome.status == 0, "\(outcome.stderr)")
    Self.expectExport(try exportLines(file), of: 3)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["db", "dir", "out.jsonl"])
  }
}

/// The lines of a file, without line breaks.
func exportLines(_ path: String) throws -> [String] {
  try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
}
