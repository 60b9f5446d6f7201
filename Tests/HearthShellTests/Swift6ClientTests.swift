import Foundation
import HearthTestSupport
import Testing

/// Swift 6 programs that depend on Hearth as a package, as an app would
/// (`Tests/Swift6Clients`), built with SwiftPM and run as processes: callbacks written on
/// the main actor — top-level code, a `@MainActor` view model — run there instead of
/// trapping Swift's isolation check (SIGILL), completion handlers run where they were
/// written, `snapshots()` streams deliver in tasks, and handing Hearth a main-actor
/// function from outside any actor does not compile.
@Suite struct Swift6ClientTests {
  static let package = ReadmeTests.root.appendingPathComponent("Tests/Swift6Clients")
  static let scratch = ReadmeTests.root.appendingPathComponent(".build/swift6-clients")
  static let programs = ["Reproduction", "ViewModel", "Completions", "Streams", "BlockedMain"]

  /// Builds one product of the client package; the first build also builds Hearth.
  static func build(_ product: String) throws -> ProcessOutcome {
    try runProcess(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path, "--product", product])
  }

  /// The built programs, or why they did not build: built once for all the tests, off
  /// Swift's cooperative threads, which a minute-long build would otherwise hold (on two
  /// cores, every other async test would wait for it).
  ///
  /// SwiftPM does not always see files added to a path dependency since its last build
  /// here, so a failed build is tried once more from a clean scratch directory.
  static let built = Task {
    await offThePool { () -> Result<URL, BuildFailure> in
      if case .success(let products) = buildAll() { return .success(products) }
      try? FileManager.default.removeItem(at: scratch)
      return buildAll()
    }
  }

  private static func buildAll() -> Result<URL, BuildFailure> {
    do {
      for program in programs {
        let outcome = try build(program)
        guard outcome.status == 0 else { return .failure(BuildFailure(log: outcome.stdout + outcome.stderr)) }
      }
      return .success(scratch.appendingPathComponent("debug"))
    } catch {
      return .failure(BuildFailure(log: "\(error)"))
    }
  }

  /// Runs blocking `work` on a thread of its own and waits for it without holding a
  /// cooperative thread.
  static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work()) }.start()
    }
  }

  struct BuildFailure: Error, CustomStringConvertible {
    let log: String
    var description: String { "the Swift 6 client package did not build:\n\(log)" }
  }

  /// Runs `program` on a new database and gives its outcome.
  func run(_ program: String) async throws -> ProcessOutcome {
    let products = try await Self.built.value.get()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-client-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = await Self.offThePool {
      Result { try runProcess(products.appendingPathComponent(program), [directory.appendingPathComponent("db").path]) }
    }
    return try outcome.get()
  }

  @Test func theIssuesReproductionRunsItsListenerOnTheMainActor() async throws {
    let outcome = try await run("Reproduction")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.hasPrefix("added "), "\(outcome.stdout)")
    #expect(outcome.stdout.split(separator: "\n").count == 1)
  }

  @Test func aMainActorViewModelUpdatesItsStateFromItsListener() async throws {
    let outcome = try await run("ViewModel")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "titles [\"a\", \"b\"]\nupdated true\n")
  }

  @Test func completionHandlersRunWhereTheyWereWritten() async throws {
    let outcome = try await run("Completions")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout == """
        actor 1
        dispatchQueue true
        commit true
        getDocument one
        getDocument(as:) one
        getDocuments 1
        runTransaction true
        setData true
        screen loaded true

        """)
  }

  @Test func snapshotStreamsDeliverInTasks() async throws {
    let outcome = try await run("Streams")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "sizes 2\nfeed b\n")
  }

  /// A tool whose main thread blocks gets its streams, is told on standard error why its
  /// main-actor listener waits, and gets the listener's snapshot once the run loop runs.
  @Test func aBlockedMainThreadIsToldWhyItsListenerWaits() async throws {
    let outcome = try await run("BlockedMain")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout
        == """
        stream while main blocks true
        document stream while main blocks true
        listener while main blocks 0
        listener once the run loop runs 1

        """)
    #expect(outcome.stderr.contains("waited 5 s for the main queue"), "\(outcome.stderr)")
  }

  @Test func aMainActorHandlerFromOutsideAnyActorDoesNotCompile() async throws {
    _ = try await Self.built.value.get()
    let outcome = try await Self.offThePool { Result { try Self.build("MainActorHandlerOffMain") } }.get()
    #expect(outcome.status != 0)
    #expect(outcome.stdout.contains("loses global actor 'MainActor'"), "\(outcome.stdout)\(outcome.stderr)")
  }
}
