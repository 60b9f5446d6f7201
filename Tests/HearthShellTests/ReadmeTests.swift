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

  /// Every `hearth …` line of the README's shell examples runs as written, in order,
  /// through `/bin/sh`, after the README's set-up: `hearth` installed on the PATH by
  /// `Tools/install.sh` (from the debug build, which `Tools/demo.sh` does from the
  /// release build) and `demo.hearth` written by the demo writer in the current directory.
  /// Each says something (on stdout, or on stderr for commands that report there).
  @Test(.enabled(if: demoWriter != nil, "the demo writer is not built (run swift build first)"))
  func theShellExamplesRunAsWrittenAfterTheSetUp() throws {
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

    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = readme.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let commands = blocks.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("hearth ") }
    #expect(commands.count >= 13)
    for command in commands {
      let outcome = try runProcess(
        URL(fileURLWithPath: "/bin/sh"), ["-c", String(command)], environment: environment, directory: work)
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
      #expect(!outcome.stdout.isEmpty || !outcome.stderr.isEmpty, "\(command)")
    }
  }
}
