import Foundation
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

  /// The built programs, or why they did not build (built once for all the tests).
  static let built: Result<URL, BuildFailure> = {
    do {
      for program in programs {
        let outcome = try build(program)
        guard outcome.status == 0 else { return .failure(BuildFailure(log: outcome.stdout + outcome.stderr)) }
      }
      return .success(scratch.appendingPathComponent("debug"))
    } catch {
      return .failure(BuildFailure(log: "\(error)"))
    }
  }()

  struct BuildFailure: Error, CustomStringConvertible {
    let log: String
    var description: String { "the Swift 6 client package did not build:\n\(log)" }
  }

  /// Runs `program` on a new database and gives its outcome.
  func run(_ program: String) throws -> ProcessOutcome {
    let products = try Self.built.get()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-client-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try runProcess(products.appendingPathComponent(program), [directory.appendingPathComponent("db").path])
  }

  @Test func theIssuesReproductionRunsItsListenerOnTheMainActor() throws {
    let outcome = try run("Reproduction")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.hasPrefix("added "), "\(outcome.stdout)")
    #expect(outcome.stdout.split(separator: "\n").count == 1)
  }

  @Test func aMainActorViewModelUpdatesItsStateFromItsListener() throws {
    let outcome = try run("ViewModel")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "titles [\"a\", \"b\"]\nupdated true\n")
  }

  @Test func completionHandlersRunWhereTheyWereWritten() throws {
    let outcome = try run("Completions")
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

  @Test func snapshotStreamsDeliverInTasks() throws {
    let outcome = try run("Streams")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "sizes 2\nfeed b\n")
  }

  /// A tool whose main thread blocks gets its streams, is told on standard error why its
  /// main-actor listener waits, and gets the listener's snapshot once the run loop runs.
  @Test func aBlockedMainThreadIsToldWhyItsListenerWaits() throws {
    let outcome = try run("BlockedMain")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout
        == "stream while main blocks true\nlistener while main blocks 0\nlistener once the run loop runs 1\n")
    #expect(outcome.stderr.contains("waited 5 s for the main queue"), "\(outcome.stderr)")
  }

  @Test func aMainActorHandlerFromOutsideAnyActorDoesNotCompile() throws {
    _ = try Self.built.get()
    let outcome = try Self.build("MainActorHandlerOffMain")
    #expect(outcome.status != 0)
    #expect(outcome.stdout.contains("loses global actor 'MainActor'"), "\(outcome.stdout)\(outcome.stderr)")
  }
}
