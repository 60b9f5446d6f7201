import Foundation
import Synchronization

/// What a process printed, and how it ended.
public struct ProcessOutcome: Sendable {
  /// The exit status, or the signal's number when `endedBySignal`.
  public var status: Int32
  public var stdout: String
  public var stderr: String
  public var endedBySignal = false

  /// Whether it exited with status 0.
  public var succeeded: Bool { status == 0 && !endedBySignal }

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
/// their ends, so that no full pipe can block the child or this process. The helpers are
/// threads of their own, not Dispatch's global queues, which on Linux are the threads
/// Swift's tasks run on: a read blocked there for the child's whole run would hold one of
/// them (two on this machine), and an async caller may run this on a thread of its own.
///
/// The child is started with `posix_spawn` and its pipes read with `read(2)`, not through
/// Foundation's `Process`, whose dispatch sources on Linux can crash libdispatch's event
/// loop (`_dispatch_event_loop_drain`) when many processes start and end at once, as the
/// corruption sweep's do (seen once, December 2026; swiftlang/swift-subprocess#47 met the
/// same crash). The pipes are made close-on-exec as soon as they are made, so that a
/// child another thread starts later holds none of their ends open; and the child closes
/// every descriptor past its standard streams that it would inherit (as `Process` does):
/// Foundation's `Pipe`s and `FileHandle`s are not close-on-exec, and a child holding the
/// write end of another test's pipe would keep that test waiting for its end. A run in
/// another `directory` goes through `env -C` (Glibc's `posix_spawn` has no directory to
/// give), which reports an executable it cannot start by status 126 or 127.
///
/// - Throws: `POSIXError` when the executable cannot be started.
public func runProcess(
  _ executable: URL, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil,
  directory: URL? = nil
) throws -> ProcessOutcome {
  let input = try makePipe()
  let output = try makePipe()
  let errors = try makePipe()
  let pid: pid_t
  do {
    pid = try spawnProcess(
      executable, arguments, streams: (input.read, output.write, errors.write), environment: environment,
      directory: directory)
  } catch {
    for fd in [input.read, input.write, output.read, output.write, errors.read, errors.write] { close(fd) }
    throw error
  }
  for fd in [input.read, output.write, errors.write] { close(fd) }
  Thread.detachNewThread {
    let bytes = Array(stdin.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { write(input.write, $0.baseAddress! + written, $0.count - written) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      written += count
    }
    close(input.write)
  }
  let errorData = Mutex(Data())
  let readErrors = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    let data = readToEnd(errors.read)
    errorData.withLock { $0 = data }
    readErrors.signal()
  }
  let outputData = readToEnd(output.read)
  readErrors.wait()
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  let (code, signaled) = exitCode(status)
  return ProcessOutcome(
    status: code, stdout: String(decoding: outputData, as: UTF8.self),
    stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self), endedBySignal: signaled)
}

/// Starts `executable` with `arguments` and `streams` as its standard input, output and
/// error (this process keeps its own descriptors of them, to close); its process ID. The
/// child holds no other descriptor of this process (see `runProcess`); its environment is
/// this process's unless given, and a `directory` is entered through `env -C`.
///
/// - Throws: `POSIXError` when the executable cannot be started.
public func spawnProcess(
  _ executable: URL, _ arguments: [String], streams: (input: Int32, output: Int32, error: Int32),
  environment: [String: String]? = nil, directory: URL? = nil
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  // dup2 clears close-on-exec on the child's standard streams.
  posix_spawn_file_actions_adddup2(&actions, streams.input, 0)
  posix_spawn_file_actions_adddup2(&actions, streams.output, 1)
  posix_spawn_file_actions_adddup2(&actions, streams.error, 2)
  if let addCloseFrom { _ = addCloseFrom(&actions, 3) }
  let inDirectory = directory.map { ["/usr/bin/env", "-C", $0.path] } ?? []
  let argv = (inDirectory + [executable.path] + arguments).map { strdup($0) } + [nil]
  let environment = environment ?? ProcessInfo.processInfo.environment
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv { free(pointer) }
    for pointer in envp { free(pointer) }
  }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, envp)
  guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
  return pid
}

/// A pipe whose ends are made close-on-exec at once, so that no child started later
/// holds them (Swift's Glibc module does not declare `pipe2`, which would make them so).
///
/// - Throws: `POSIXError` when the system has no descriptor to give.
public func makePipe() throws -> (read: Int32, write: Int32) {
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  return (ends[0], ends[1])
}

/// A wait status's exit code, or the number of the signal that ended the process (then
/// `signaled`): its low seven bits are 0 after an exit, whose code is in the next byte.
public func exitCode(_ status: Int32) -> (code: Int32, signaled: Bool) {
  let signal = status & 0x7f
  return signal == 0 ? ((status >> 8) & 0xff, false) : (signal, true)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's
/// Glibc module does not declare (it needs `_GNU_SOURCE`); `nil` where the C library
/// lacks it.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
  guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
  return unsafeBitCast(
    symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Everything `fd` yields until its end, then closes it.
private func readToEnd(_ fd: Int32) -> Data {
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else { break }
    data.append(contentsOf: buffer[..<count])
  }
  close(fd)
  return data
}
