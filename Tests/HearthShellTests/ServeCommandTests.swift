import Foundation
import HearthTestSupport
import Testing

/// `hearth serve` as a user runs it: the address it prints, Google's Python client
/// writing through it, SIGTERM stopping it cleanly, and the data kept in DIR as Hearth
/// databases that the shell itself opens.
@Suite(.enabled(if: hearthExecutable != nil, "the hearth executable is not built"))
struct ServeCommandTests {
  /// A running `hearth serve`, and the address it printed.
  final class Server {
    let process: RawProcess
    let address: String

    init(_ arguments: [String]) throws {
      process = try RawProcess(["serve", "--port", "0"] + arguments, timeout: 600)
      var printed: [String] = []
      while let line = process.readLine() {
        printed.append(line)
        if line.hasPrefix("export FIRESTORE_EMULATOR_HOST=") { break }
      }
      guard let line = printed.last, line.hasPrefix("export FIRESTORE_EMULATOR_HOST=") else {
        process.kill()
        throw Failure(description: "hearth serve printed no address: \(printed) \(process.finish().stderr)")
      }
      address = String(line.dropFirst("export FIRESTORE_EMULATOR_HOST=".count))
    }

    /// SIGTERM, then the exit status (the signal's number when a signal ended it).
    func stop() -> Int32 {
      process.signal(SIGTERM)
      let outcome = process.finish()
      return outcome.exited ? outcome.status : 128 + outcome.status
    }

    /// A test that failed before `stop` still stops its server.
    deinit { _ = stop() }
  }

  struct Failure: Error, CustomStringConvertible { let description: String }

  /// Runs `script` with Google's Python client `db` (project `demo`) on `address`; what
  /// it prints.
  func python(_ script: String, address: String) throws -> String {
    let python = JSONSchemaValidator.python
    var environment = ProcessInfo.processInfo.environment
    environment["FIRESTORE_EMULATOR_HOST"] = address
    let program = """
      from google.cloud import firestore
      db = firestore.Client(project="demo")

      """ + script
    let outcome = try runProcess(
      URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", program], environment: environment)
    guard outcome.status == 0 else {
      throw Failure(description: "the Python client exited \(outcome.status) (run Tools/setup.sh?): \(outcome.stderr)")
    }
    return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func servesGooglesClientAndKeepsTheDataInDIR() throws {
    let fixture = ShellFixture()
    let first = try Server(["--db", fixture.path])
    let written = try python(
      """
      db.document("cities/SF").set({"name": "San Francisco", "pop": 860000})
      print(db.document("cities/SF").get().to_dict()["name"])
      """, address: first.address)
    #expect(written == "San Francisco")
    #expect(first.stop() == 0, "SIGTERM ends it cleanly")

    // A new run finds the data, and the shell opens it as the Hearth database it is.
    let second = try Server(["--db", fixture.path])
    defer { _ = second.stop() }
    #expect(try python(#"print(db.document("cities/SF").get().get("pop"))"#, address: second.address) == "860000")
    let database = fixture.path + "/demo/(default)"
    let got = try runRaw(["--db", database, "--json", "get", "cities/SF"])
    #expect(got.stdoutText.contains(#""name":"San Francisco""#), "\(got.stderr)")
  }

  @Test func theREADMEsPythonExampleRunsAsWritten() throws {
    let readme = try String(contentsOf: ReadmeTests.root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = readme.components(separatedBy: "```python\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let example = try #require(blocks.first, "README.md has a Python example")
    let server = try Server(["--ephemeral"])
    defer { _ = server.stop() }
    let python = JSONSchemaValidator.python
    var environment = ProcessInfo.processInfo.environment
    environment["FIRESTORE_EMULATOR_HOST"] = server.address
    let outcome = try runProcess(
      URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", example], environment: environment)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "SF San Francisco 860000\n")
  }

  @Test func anEphemeralServerKeepsNothing() throws {
    let server = try Server(["--ephemeral"])
    #expect(
      try python(#"db.document("a/b").set({"x": 1}); print(db.document("a/b").get().exists)"#, address: server.address)
        == "True")
    #expect(server.stop() == 0)
    let again = try Server([])
    defer { _ = again.stop() }
    #expect(try python(#"print(db.document("a/b").get().exists)"#, address: again.address) == "False")
  }

  /// `--require-indexes` refuses what production would; `--indexes FILE` declares what
  /// it needs in every database served.
  @Test func indexesAreRequiredAndDeclaredWhenAsked() throws {
    let fixture = ShellFixture()
    let query = #"""
      from google.cloud.firestore_v1.base_query import FieldFilter
      q = db.collection("posts").where(filter=FieldFilter("a", "==", 1)).order_by("b", direction="DESCENDING")
      try:
          print(len(list(q.stream())))
      except Exception as error:
          print(type(error).__name__)
      """#
    let strict = try Server(["--ephemeral", "--require-indexes"])
    #expect(try python(query, address: strict.address) == "FailedPrecondition")
    #expect(strict.stop() == 0)

    let file = fixture.path + "-indexes.json"
    defer { try? FileManager.default.removeItem(atPath: file) }
    try #"""
    {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION",
      "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "b", "order": "DESCENDING"}]}]}
    """#.write(toFile: file, atomically: true, encoding: .utf8)
    let declared = try Server(["--ephemeral", "--require-indexes", "--indexes", file])
    defer { _ = declared.stop() }
    #expect(try python(query, address: declared.address) == "0")

    let missing = fixture.run("serve", "--ephemeral", "--port", "0", "--indexes", fixture.path + "-none.json")
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("-none.json"), "\(missing.stderr)")
  }

  /// Eight client threads commit durably through `hearth serve` until the server is killed
  /// with SIGKILL mid-load: every commit a client saw acknowledged is there after a
  /// restart, and `check` finds the database clean.
  @Test func aKilledServerLosesNoAcknowledgedCommit() throws {
    let fixture = ShellFixture()
    let server = try Server(["--db", fixture.path])
    let python = JSONSchemaValidator.python
    // No retries: a write after the kill fails at once instead of backing off.
    let writers = try RawProcess(
      Array(python.dropFirst()) + [
        "-c",
        """
        import threading
        from google.cloud import firestore
        db = firestore.Client(project="demo")
        lock = threading.Lock()
        def writer(w):
            i = 0
            while True:
                try:
                    db.document(f"load/w{w}-{i}").set({"w": w, "i": i, "pad": "x" * 300}, retry=None, timeout=10)
                except Exception:
                    return
                with lock:
                    print(f"w{w}-{i}", flush=True)
                i += 1
        threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        """,
      ], executable: URL(fileURLWithPath: python[0]), environment: ["FIRESTORE_EMULATOR_HOST": server.address],
      timeout: 300)
    var printed: [String] = []
    while printed.count < 300, let line = writers.readLine() { printed.append(line) }
    server.process.kill()
    let killed = server.process.finish()
    let rest = writers.finish()
    printed += rest.stdoutLines
    #expect(!killed.exited && killed.status == SIGKILL)
    let acknowledged = printed.filter { !$0.isEmpty }
    #expect(acknowledged.count >= 300, "the writers were under way when the server was killed")

    let database = fixture.path + "/demo/(default)"
    let check = fixture.run(arguments: ["--db", database, "check"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    let again = try Server(["--db", fixture.path])
    defer { _ = again.stop() }
    let ids = acknowledged.map { "\"\($0)\"" }.joined(separator: ",")
    let missing = try self.python(
      """
      ids = [\(ids)]
      found = db.get_all([db.document(f"load/{i}") for i in ids])
      print(sorted(s.id for s in found if not s.exists))
      """, address: again.address)
    #expect(missing == "[]", "every acknowledged commit survives the kill")
  }

  @Test func theVersionRetentionIsATime() throws {
    let fixture = ShellFixture()
    let refused = fixture.run("serve", "--ephemeral", "--port", "0", "--version-retention", "a week")
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("--version-retention takes a time such as 90s, 30m, 1h or 7d"), "\(refused.stderr)")
    let server = try Server(["--ephemeral", "--version-retention", "1h"])
    #expect(try python(#"print(db.document("a/b").get().exists)"#, address: server.address) == "False")
    #expect(server.stop() == 0)
  }

  @Test func aBusyPortIsAClearError() throws {
    let server = try Server(["--ephemeral"])
    defer { _ = server.stop() }
    let port = String(server.address.split(separator: ":").last ?? "")
    let fixture = ShellFixture()
    let outcome = fixture.run("serve", "--ephemeral", "--port", port)
    #expect(outcome.status == 74)
    #expect(outcome.stderr.contains("cannot serve on 127.0.0.1:\(port)"))
  }
}
