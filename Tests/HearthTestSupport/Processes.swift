import Foundation
import Synchronization

/// What a process printed, and how it ended.
public struct ProcessOutcome: Sendable {
  /// The exit status, or the signal's number when `endedBySignal`.
  public var status: Int32
  public var stdout: String
  public var stderr: String
  public var endedBySignal = false

  public init(status: Int32, stdout: String, stderr: String, endedBySignal: Bool = false) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
    self.endedBySignal = endedBySignal
  }
}

/// Runs `executable` to its end with `stdin` as its standard input.
///
/// Standard input is written from another thread while both output pipes are read to
/// their ends, so that no full pipe can block the child or this process.
///
/// - Throws: what `Process.run()` throws when the executable cannot be started.
public func runProcess(
  _ executable: URL, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil,
  directory: URL? = nil
) throws -> ProcessOutcome {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let directory { process.currentDirectoryURL = directory }
  let input = Pipe()
  let output = Pipe()
  let errors = Pipe()
  process.standardInput = input
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let writer = input.fileHandleForWriting
  DispatchQueue.global().async {
    writer.write(Data(stdin.utf8))
    try? writer.close()
  }
  let errorData = Mutex(Data())
  let readErrors = DispatchSemaphore(value: 0)
  let errorReader = errors.fileHandleForReading
  DispatchQueue.global().async {
    let data = errorReader.readDataToEndOfFile()
    errorData.withLock { $0 = data }
    readErrors.signal()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  readErrors.wait()
  process.waitUntilExit()
  return ProcessOutcome(
    status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
    stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
    endedBySignal: process.terminationReason == .uncaughtSignal)
}
