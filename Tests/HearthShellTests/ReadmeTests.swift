import Foundation
import Testing

/// The README's Swift example is `Examples/Quickstart/main.swift`: the two must not drift,
/// and the example must run; its shell examples must run on the demo database.
@Suite struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The built `quickstart` example, next to `hearth`.
  static let quickstart: URL? = hearthExecutable.map {
    $0.deletingLastPathComponent().appendingPathComponent("quickstart")
  }.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

  /// The demo database writer, next to `hearth`.
  static let demoWriter: URL? = hearthExecutable.map {
    $0.deletingLastPathComponent().appendingPathComponent("hearth-demo")
  }.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

  @Test func theSwiftExampleIsTheQuickstartFile() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.root.appendingPathComponent("Examples/Quickstart/main.swift"), encoding: .utf8)
    let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    #expect(blocks.contains(example), "README.md's Swift example differs from Examples/Quickstart/main.swift")
  }

  @Test(.enabled(if: quickstart != nil, "the quickstart example is not built (run swift build first)"))
  func theQuickstartRunsAndPrintsWhatTheReadmeSays() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = Self.quickstart
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(printed == "alice Alice\n[\"followers\"]\n[\"Hello\"]\n")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("quickstart.hearth/data.mdb").path))
  }

  /// Every `hearth --db …` line of the README runs, in order, on a fresh demo database
  /// and says something (on stdout, or on stderr for commands that report there). Files
  /// and databases the lines name (`demo.hearth`, `demo.jsonl`, `demo-backup`, …) live in
  /// a temporary directory.
  @Test(.enabled(if: demoWriter != nil, "the demo writer is not built (run swift build first)"))
  func theShellExamplesRunOnTheDemoDatabase() throws {
    let fixture = ShellFixture()
    let files = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: files) }
    let writer = Process()
    writer.executableURL = Self.demoWriter
    writer.arguments = [fixture.path]
    writer.standardOutput = FileHandle.nullDevice
    try writer.run()
    writer.waitUntilExit()
    #expect(writer.terminationStatus == 0)
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let commands = readme.split(separator: "\n").filter { $0.hasPrefix("hearth --db ") }
    #expect(commands.count >= 9)
    for command in commands {
      let words = Self.shellWords(command.dropFirst("hearth ".count)).map { word in
        if word == "demo.hearth" { return fixture.path }
        let isFile = word.hasSuffix(".hearth") || word.hasSuffix(".jsonl") || word.hasSuffix("-backup")
        return isFile && !word.contains("/") ? files.appendingPathComponent(word).path : word
      }
      let outcome = fixture.run(arguments: words)
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
      #expect(!outcome.stdout.isEmpty || !outcome.stderr.isEmpty, "\(command)")
    }
  }

  /// A command line split as a POSIX shell splits it: on spaces, with '…' and "…" quoting.
  static func shellWords(_ line: Substring) -> [String] {
    var words: [String] = []
    var word: String?
    var quote: Character?
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word!.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        word = word ?? ""
      } else if character == " " {
        if let finished = word { words.append(finished) }
        word = nil
      } else {
        word = (word ?? "") + String(character)
      }
    }
    if let finished = word { words.append(finished) }
    return words
  }
}
