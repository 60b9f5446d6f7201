import Foundation
import HearthTestSupport
import Testing

/// The README's Swift example is `Examples/Quickstart/main.swift`: the two must not drift,
/// and the example must run; its shell examples must run on the demo database.
@Suite struct ReadmeTests {
  static let root = repositoryRoot

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
    let outcome = try runProcess(try #require(Self.quickstart), [], directory: directory)
    #expect(outcome.succeeded, "\(outcome.stderr)")
    #expect(outcome.stdout == "alice Alice\n[\"followers\"]\n[\"Hello\"]\n")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("quickstart.hearth/data.mdb").path))
  }

  /// Every `hearth …` line of the README's shell examples runs as written, in order,
  /// through `/bin/sh`, after the README's set-up (`withShellExampleSetUp`). Each says
  /// something (on stdout, or on stderr for commands that report there).
  @Test(.enabled(if: demoWriter != nil, "the demo writer is not built (run swift build first)"))
  func theShellExamplesRunAsWrittenAfterTheSetUp() throws {
    try Self.withShellExampleSetUp { run in
      let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
      let blocks = readme.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
      let commands = blocks.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("hearth ") }
      #expect(commands.count >= 13)
      for command in commands {
        let outcome = try run(String(command))
        #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        #expect(!outcome.stdout.isEmpty || !outcome.stderr.isEmpty, "\(command)")
      }
    }
  }

  /// docs/shell.md's promise: every line of its `sh` blocks (but comments) runs as
  /// written, in order, through `/bin/sh`, after the same set-up, and exits with 0; and
  /// where an `output` block follows a `sh` block with only blank lines between, the
  /// block's last command prints exactly that on standard output.
  @Test(.enabled(if: demoWriter != nil, "the demo writer is not built (run swift build first)"))
  func theShellReferenceExamplesRunAsWrittenAndPrintWhatItShows() throws {
    try Self.withShellExampleSetUp { run in
      let page = try String(contentsOf: Self.root.appendingPathComponent("docs/shell.md"), encoding: .utf8)
      let blocks = FencedBlock.all(in: page)
      var commands = 0
      var outputsCompared = 0
      for (position, block) in blocks.enumerated() where block.info == "sh" {
        var lastOutput = ""
        for line in block.lines where !line.isEmpty && !line.hasPrefix("#") {
          let outcome = try run(line)
          #expect(outcome.status == 0, "\(line): \(outcome.stderr)")
          lastOutput = outcome.stdout
          commands += 1
        }
        if position + 1 < blocks.count, blocks[position + 1].info == "output", blocks[position + 1].followsDirectly {
          let expected = blocks[position + 1].lines.map { $0 + "\n" }.joined()
          #expect(lastOutput == expected, "docs/shell.md: the output of \(block.lines.last ?? "")")
          outputsCompared += 1
        }
      }
      #expect(commands >= 40)
      #expect(outputsCompared >= 15)
    }
  }

  /// Runs `body` after the set-up the README asks for, in a temporary directory removed
  /// afterwards: `hearth` installed on the PATH by `Tools/install.sh` (from the debug
  /// build, which `Tools/demo.sh` does from the release build) and `demo.hearth` written
  /// by the demo writer in the current directory. `body` gets a function that runs one
  /// command line through `/bin/sh` there.
  static func withShellExampleSetUp(_ body: (_ run: (String) throws -> ProcessOutcome) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let prefix = directory.appendingPathComponent("prefix")
    var environment = ProcessInfo.processInfo.environment
    environment["HEARTH_INSTALL_FROM"] = hearthExecutable!.deletingLastPathComponent().path
    environment["HEARTH_DATABASE"] = nil
    let install = try runProcess(
      Self.root.appendingPathComponent("Tools/install.sh"), [prefix.path], environment: environment)
    #expect(install.status == 0, "\(install.stderr)")
    #expect(install.stderr.contains("Installed \(prefix.path)/bin/hearth"))
    #expect(install.stderr.contains("is not on your PATH"))
    environment["PATH"] = prefix.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

    let work = directory.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let demo = try runProcess(Self.demoWriter!, [work.appendingPathComponent("demo.hearth").path])
    #expect(demo.status == 0)
    try body { line in
      try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", line], environment: environment, directory: work)
    }
  }
}

/// A fenced code block of a Markdown page: its info string (`sh`, `output`), its lines,
/// and whether only blank lines separate it from the block before it.
struct FencedBlock {
  let info: String
  let lines: [String]
  let followsDirectly: Bool

  /// The page's fenced blocks, in order.
  static func all(in page: String) -> [FencedBlock] {
    var blocks: [FencedBlock] = []
    var open: (info: String, lines: [String], followsDirectly: Bool)?
    var onlyBlankSinceLastBlock = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if var block = open {
        if line == "```" {
          blocks.append(FencedBlock(info: block.info, lines: block.lines, followsDirectly: block.followsDirectly))
          open = nil
          onlyBlankSinceLastBlock = true
        } else {
          block.lines.append(line)
          open = block
        }
      } else if line.hasPrefix("```") {
        open = (String(line.dropFirst(3)), [], onlyBlankSinceLastBlock && !blocks.isEmpty)
      } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
        onlyBlankSinceLastBlock = false
      }
    }
    return blocks
  }
}
