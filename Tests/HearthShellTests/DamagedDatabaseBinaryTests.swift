import Foundation
import HearthTestSupport
import Synchronization
import Testing

/// The built `hearth` on damaged and forbidden databases: a truncated or empty `data.mdb`
/// ends every command with `dataLoss` (it used to end with SIGBUS, or make a new
/// database), another user's database with `permissionDenied` (it used to say "no
/// database at …").
@Suite(
  .enabled(
    if: hearthExecutable != nil && ReadmeTests.demoWriter != nil,
    "hearth and hearth-demo are not built next to the tests (run swift build first)"))
struct DamagedDatabaseBinaryTests {
  /// A small demo database in a fresh directory, removed afterwards.
  final class DemoCopy {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-damaged-\(UUID().uuidString)")
      .path
    var path: String { directory + "/demo.hearth" }
    var dataFile: String { path + "/data.mdb" }

    init(users: Int = 20) throws {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let outcome = try runProcess(try #require(ReadmeTests.demoWriter), [path, "--users", "\(users)"])
      try #require(outcome.status == 0, "hearth-demo: \(outcome.stderr)")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var dataFileSize: Int { ((try? FileManager.default.attributesOfItem(atPath: dataFile))?[.size] as? Int) ?? -1 }
  }

  /// Runs the built `hearth` (at the lowest priority when `niced`, so that a long run of
  /// them leaves the processor to the other tests first).
  static func hearth(_ arguments: [String], stdin: String = "", niced: Bool = false) throws -> ProcessOutcome {
    var environment = ProcessInfo.processInfo.environment
    environment["HEARTH_DATABASE"] = nil
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let executable = try #require(hearthExecutable)
    let nice = URL(fileURLWithPath: "/usr/bin/nice")
    if niced, FileManager.default.isExecutableFile(atPath: nice.path) {
      return try runProcess(nice, ["-n", "19", executable.path] + arguments, stdin: stdin, environment: environment)
    }
    return try runProcess(executable, arguments, stdin: stdin, environment: environment)
  }

  /// The commands of the acceptance sweep, and a write.
  static let commands: [[String]] = [
    ["get", "users/alice"], ["query", "group:posts", "where", "likes", ">=", "100", "limit", "5"], ["export", "-"],
    ["stats"], ["check"], ["set", "users/zed", #"{"n": 1}"#],
  ]

  @Test func aTruncatedDataFileEndsEveryCommandWithDataLoss() throws {
    let demo = try DemoCopy()
    let backup = demo.directory + "/backup"
    try #require(try Self.hearth(["--db", demo.path, "backup", backup]).status == 0)
    let size = demo.dataFileSize
    try #require(truncate(demo.dataFile, off_t(size / 2)) == 0)
    for command in Self.commands {
      let outcome = try Self.hearth(["--db", demo.path] + command)
      #expect(!outcome.endedBySignal, "\(command) ended by signal \(outcome.status)")
      #expect(outcome.status == 1, "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.hasSuffix("(dataLoss)\n"), "\(command): \(outcome.stderr)")
      let said = command[0] == "check" ? outcome.stdout : outcome.stderr
      #expect(said.contains("data.mdb is \(size / 2) bytes"), "\(command): \(said)")
      #expect(said.contains("the file was cut short"), "\(command): \(said)")
    }
    #expect(demo.dataFileSize == size / 2, "nothing wrote to the damaged file")
    // What the message says to do works.
    let restore = try Self.hearth(["--db", demo.path, "restore", backup])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(try Self.hearth(["--db", demo.path, "check"]).stdout.hasPrefix("ok: "))
  }

  @Test func anEmptyDataFileIsDamageAndTheNextSetDoesNotReplaceIt() throws {
    let demo = try DemoCopy()
    try #require(truncate(demo.dataFile, 0) == 0)
    for command in Self.commands {
      let outcome = try Self.hearth(["--db", demo.path] + command)
      #expect(outcome.status == 1, "\(command): \(outcome.stderr)")
      let said = command[0] == "check" ? outcome.stdout : outcome.stderr
      #expect(said.contains("data.mdb is empty (0 bytes)"), "\(command): \(said)")
    }
    #expect(demo.dataFileSize == 0, "set did not make a new database over the empty file")
  }

  /// Several processes creating one new database at once all succeed: none sees the data
  /// file between LMDB's creating it and its writing the meta pages (which would look
  /// like an empty file, damage).
  @Test func processesCreatingOneDatabaseAtOnceAllSucceed() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-create-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for round in 0..<4 {
      let path = directory + "/db\(round)"
      let outcomes = Mutex<[ProcessOutcome]>([])
      DispatchQueue.concurrentPerform(iterations: 4) { writer in
        let outcome = try? Self.hearth(["--db", path, "set", "items/w\(writer)", #"{"n": 1}"#])
        outcomes.withLock { $0.append(outcome ?? ProcessOutcome(status: -1, stdout: "", stderr: "did not run")) }
      }
      for outcome in outcomes.withLock({ $0 }) { #expect(outcome.status == 0, "round \(round): \(outcome.stderr)") }
      #expect(try Self.hearth(["--db", path, "ls", "items"]).stdout == "w0\nw1\nw2\nw3\n")
    }
  }

  /// As root (the tests' user here), permissions do not stop this process: the command
  /// runs as `nobody` (through `setpriv`); as another user, the directory is made mode 000.
  @Test(
    .enabled(
      if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "running as root without /usr/bin/setpriv to drop privileges"))
  func anotherUsersDatabaseIsAPermissionErrorNotAMissingOne() throws {
    let demo = try DemoCopy(users: 3)
    try #require(chmod(demo.directory, 0o755) == 0)
    let asRoot = geteuid() == 0
    try #require(chmod(demo.path, asRoot ? 0o700 : 0o000) == 0)
    defer { chmod(demo.path, 0o700) }
    for command in [["ls"], ["get", "users/alice"], ["check"], ["set", "users/zed", #"{"n": 1}"#]] {
      let arguments = ["--db", demo.path] + command
      let outcome =
        asRoot
        ? try runProcess(
          URL(fileURLWithPath: "/usr/bin/setpriv"),
          ["--reuid=65534", "--regid=65534", "--clear-groups", try #require(hearthExecutable).path] + arguments,
          environment: ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"])
        : try Self.hearth(arguments)
      #expect(outcome.status == 74, "\(command): \(outcome.stderr)")
      #expect(outcome.stderr.hasPrefix("hearth: Permission denied: cannot open the database at"), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("has mode 0\(asRoot ? 700 : 0)"), "\(outcome.stderr)")
      #expect(outcome.stderr.hasSuffix("(permissionDenied)\n"), "\(outcome.stderr)")
    }
  }
}
