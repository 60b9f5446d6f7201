import Foundation
import HearthTestSupport
import Synchronization

// `hearth` run as a process with the standard streams a test chooses (a FIFO, a device,
// a file given as bytes, a pipe closed early), and how it ended as its parent sees it:
// by `exit` with a status, or by a signal.

/// How a process ended and what it printed.
struct RawOutcome {
  /// Ended by `exit`; `false` when a signal ended it.
  var exited: Bool
  /// The exit status, or the signal's number when `exited` is false.
  var status: Int32
  /// Standard output, when it was a pipe (empty otherwise).
  var stdout: Data
  var stderr: String

  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

  /// As `ShellOutcome`, with standard output as text.
  var shellOutcome: ShellOutcome { ShellOutcome(status: status, stdout: stdoutText, stderr: stderr) }

  var stdoutLines: [String] {
    var lines = stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// A running process: standard input from a file handle (or nothing), standard output into
/// a file handle or a pipe this object reads, standard error read to its end in the
/// background, and a watchdog that kills it after `timeout` seconds so that a test fails
/// instead of hanging.
///
/// Started with `spawnProcess` (`posix_spawn`), not Foundation's `Process` (see
/// `runProcess` in HearthTestSupport): the child inherits this thread's blocked signals
/// and ignored ones, as `Process`'s children do, and no descriptor but its streams.
final class RawProcess: @unchecked Sendable {
  private let pid: pid_t
  private let output: FileHandle?
  private var pending = Data()
  private let errors = Mutex(Data())
  private let errorsRead = DispatchSemaphore(value: 0)
  /// The child's wait status once it has been reaped; the lock is held while reaping or
  /// signalling it, so that no signal goes to a process ID reaped and given to another.
  private let ended = Mutex<Int32?>(nil)

  /// Starts `executable` (the built `hearth` by default) with `arguments`.
  ///
  /// - Parameters:
  ///   - stdin: standard input; `nil` is `/dev/null`.
  ///   - stdout: standard output; `nil` is a pipe that `readLine` and `finish` read.
  ///   - stderr: standard error; `nil` is a pipe read in the background, for `finish`.
  ///   - directory: the working directory; `nil` is the test's.
  init(
    _ arguments: [String], executable: URL? = hearthExecutable, stdin: FileHandle? = nil, stdout: FileHandle? = nil,
    stderr: FileHandle? = nil, directory: String? = nil, environment: [String: String] = [:], timeout: Double = 60
  ) throws {
    guard let executable else { throw CocoaError(.fileNoSuchFile) }
    var variables = ProcessInfo.processInfo.environment
    variables["HEARTH_DATABASE"] = nil
    variables["HEARTH_HISTORY"] = ""
    variables.merge(environment) { $1 }
    let nothing = stdin == nil ? open("/dev/null", O_RDONLY | O_CLOEXEC) : nil
    let outputPipe = stdout == nil ? try makePipe() : nil
    let errorPipe = stderr == nil ? try makePipe() : nil
    // This process's copies of the child's ends: closed once it has them.
    let childEnds = [nothing, outputPipe?.write, errorPipe?.write].compactMap { $0 }
    do {
      pid = try spawnProcess(
        executable, arguments,
        streams: (
          stdin?.fileDescriptor ?? nothing!, stdout?.fileDescriptor ?? outputPipe!.write,
          stderr?.fileDescriptor ?? errorPipe!.write
        ),
        environment: variables, directory: directory.map { URL(fileURLWithPath: $0) })
    } catch {
      for fd in childEnds + [outputPipe?.read, errorPipe?.read].compactMap({ $0 }) { close(fd) }
      throw error
    }
    for fd in childEnds { close(fd) }
    output = outputPipe.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
    if let errorPipe {
      let errorReader = FileHandle(fileDescriptor: errorPipe.read, closeOnDealloc: true)
      Thread.detachNewThread { [self] in
        let data = errorReader.readDataToEndOfFile()
        errors.withLock { $0 = data }
        errorsRead.signal()
      }
    } else {
      errorsRead.signal()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in self?.kill() }
  }

  /// The next line of standard output (a pipe), without its newline; `nil` at the end.
  func readLine() -> String? {
    guard let output else { return nil }
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending = Data(pending[(newline + 1)...])
        return line
      }
      let chunk = output.availableData
      if chunk.isEmpty { return nil }
      pending.append(chunk)
    }
  }

  /// Closes this end of the standard output pipe: the reader goes away, as `head` does
  /// once it has its lines.
  func closeOutput() {
    try? output?.close()
  }

  var isRunning: Bool { ended.withLock { reaped(&$0) == nil } }

  /// Kills the process if it is still running. SIGKILL, not SIGTERM: a process started
  /// from a test runner's thread inherits its blocked signals (libdispatch blocks them),
  /// so SIGTERM would wait forever.
  func kill() { signal(SIGKILL) }

  /// Sends `signal` to the process if it is still running (SIGTERM to a `hearth serve`,
  /// which waits for it whether or not it is blocked).
  func signal(_ signal: Int32) {
    ended.withLock { status in
      if reaped(&status) == nil { Foundation.kill(pid, signal) }
    }
  }

  /// Waits for the end: how the process ended, and what it printed that `readLine` did
  /// not return.
  func finish(readingOutput: Bool = true) -> RawOutcome {
    var rest = Data()
    if readingOutput, let output { rest = (try? output.readToEnd()) ?? Data() }
    errorsRead.wait()
    errorsRead.signal()  // for the next call: `finish` may be asked again
    // Waits for the end without reaping (`WNOWAIT`), then reaps under the lock.
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
    let status = ended.withLock { reaped(&$0) } ?? 0
    let (code, signaled) = exitCode(status)
    return RawOutcome(
      exited: !signaled, status: code, stdout: pending + rest,
      stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
  }

  /// The wait status, reaping the child if it has ended; `nil` while it runs. Called with
  /// `ended` locked.
  private func reaped(_ status: inout Int32?) -> Int32? {
    if let status { return status }
    var raw: Int32 = 0
    if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
    return status
  }
}

extension RawProcess {
  /// Starts `executable` with its standard output read into a `LineInbox` as it arrives
  /// (for a test that waits for a line with a timeout while the process runs on).
  static func withLines(
    _ arguments: [String], executable: URL? = hearthExecutable, stderr: FileHandle? = nil,
    environment: [String: String] = [:], timeout: Double = 60
  ) throws -> (RawProcess, LineInbox) {
    let pipe = try makePipe()
    let writeEnd = FileHandle(fileDescriptor: pipe.write, closeOnDealloc: true)
    let inbox = LineInbox(FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true))
    defer { try? writeEnd.close() }  // The child has its copy: the inbox meets the end with it.
    let process = try RawProcess(
      arguments, executable: executable, stdout: writeEnd, stderr: stderr, environment: environment, timeout: timeout)
    return (process, inbox)
  }
}

/// Lines of a pipe as they arrive, read on a thread of their own (not a Dispatch source,
/// which `FileHandle.readabilityHandler` is: see `runProcess`).
final class LineInbox: @unchecked Sendable {
  private let condition = NSCondition()
  private var lines: [String] = []
  private var partial = Data()
  private var ended = false

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      // `read(2)` itself: `FileHandle.read(upToCount:)` waits until it has the whole count.
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        condition.withLock {
          partial.append(contentsOf: buffer[..<count])
          while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
          }
          condition.broadcast()
        }
      }
      condition.withLock {
        ended = true
        condition.broadcast()
      }
    }
  }

  /// The next line, without its newline; `nil` when none came within `timeout` seconds
  /// or the pipe ended.
  func next(timeout: TimeInterval = 5) -> String? {
    condition.withLock {
      let deadline = Date().addingTimeInterval(timeout)
      while lines.isEmpty && !ended { if !condition.wait(until: deadline) { return nil } }
      return lines.isEmpty ? nil : lines.removeFirst()
    }
  }
}

/// Runs `hearth ARGUMENTS...` to its end.
func runRaw(
  _ arguments: [String], stdin: FileHandle? = nil, stdout: FileHandle? = nil, environment: [String: String] = [:]
) throws -> RawOutcome {
  try RawProcess(arguments, stdin: stdin, stdout: stdout, environment: environment).finish()
}

/// A scratch directory for one test, removed when the value goes away.
final class ScratchDirectory {
  let path: String

  init(_ label: String) throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }

  /// A file holding `bytes`, opened for reading (to be a process's standard input).
  func input(_ bytes: [UInt8], name: String = "stdin-\(UUID().uuidString)") throws -> FileHandle {
    let path = file(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
    return handle
  }
}

/// The kind of file at `path` (`S_IFREG`, `S_IFIFO`, `S_IFCHR`, `S_IFLNK`, …), not
/// following a symbolic link; `nil` when there is nothing there.
func fileKind(_ path: String) -> mode_t? {
  var status = stat()
  guard lstat(path, &status) == 0 else { return nil }
  return status.st_mode & S_IFMT
}
