import Foundation
import Testing

/// The README's Swift example is `Examples/Quickstart/main.swift`: the two must not drift,
/// and the example must run.
@Suite struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The built `quickstart` example, next to `hearth`.
  static let quickstart: URL? = hearthExecutable.map {
    $0.deletingLastPathComponent().appendingPathComponent("quickstart")
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
    #expect(printed == "alice Alice\n[\"followers\"]\n")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("quickstart.hearth/data.mdb").path))
  }
}
