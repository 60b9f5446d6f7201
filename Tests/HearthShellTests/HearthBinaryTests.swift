import Foundation
import HearthTestSupport
import Testing

/// The built `hearth` executable, next to the test bundle in the products directory
/// (`.build/<triple>/debug/`), when it was built (`swift build`, or
/// `swift build --build-tests`).
let hearthExecutable: URL? = {
  var directories: [URL] = []
  if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
  directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
  directories.append(Bundle.main.bundleURL)
  if let first = CommandLine.arguments.first {
    directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
  }
  for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
    directories.append(bundle.bundleURL.deletingLastPathComponent())
  }
  return directories.lazy.map { $0.appendingPathComponent("hearth") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

/// `hearth` run as a process: the one test of `main.swift`, exit statuses and real
/// standard streams.
@Suite(
  .enabled(if: hearthExecutable != nil, "the hearth executable is not built next to the tests (run swift build first)"))
struct HearthBinaryTests {
  typealias Outcome = ProcessOutcome

  func run(_ arguments: [String], stdin: String = "") throws -> Outcome {
    guard let executable = hearthExecutable else { throw CocoaError(.fileNoSuchFile) }
    var environment = ProcessInfo.processInfo.environment
    environment["HEARTH_DATABASE"] = nil
    return try runProcess(executable, arguments, stdin: stdin, environment: environment)
  }

  @Test func runsCommandsAsAProcess() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-binary-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }

    let missing = try run(["--db", path, "ls"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "hearth: no database at \(path) (notFound)\n")
    #expect(!FileManager.default.fileExists(atPath: path))

    let set = try run(["--db", path, "set", "users/alice", #"{"name": "Alice", "score": 2.0}"#])
    #expect(set.status == 0, "\(set.stderr)")
    let get = try run(["--db", path, "get", "users/alice"])
    #expect(get.status == 0)
    #expect(get.stdout == #"{"name":"Alice","score":2.0}"# + "\n")

    let usage = try run(["--db", path, "lss"])
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("did you mean 'ls'?"))
    let badJSON = try run(["--db", path, "set", "users/bob", "{"])
    #expect(badJSON.status == 65)

    let interactive = try run(["--db", path], stdin: "ls users\nexit 7\n")
    #expect(interactive.status == 7)
    #expect(interactive.stdout == "alice\n")
  }
}

/// Another process that holds a database open: the built `hearth` as an interactive
/// shell reading commands from a pipe that stays open, once it has answered `get DOC`.
final class OpenShellProcess {
  private let process: RawProcess
  private let input: FileHandle

  /// Starts it and waits until its answer to `get document` contains `answer`.
  init(database path: String, document: String, answer: String) throws {
    let pipe = try makePipe()
    input = FileHandle(fileDescriptor: pipe.write, closeOnDealloc: true)
    let readEnd = FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true)
    defer { try? readEnd.close() }  // The child has its copy.
    process = try RawProcess(["--db", path], stdin: readEnd, timeout: 300)
    input.write(Data("get \(document) --json\n".utf8))
    while let line = process.readLine(), !line.contains(answer) {}
  }

  /// Ends its input, so it exits, and waits for it.
  func close() throws {
    try input.close()
    _ = process.finish()
  }
}
