import CTestTerminal
import Foundation

/// The built `hearth` run on a pseudo-terminal, as a person at a terminal runs it: the
/// child is a session leader whose controlling terminal is the pty, so the line
/// discipline turns a typed Ctrl-C into SIGINT as a real terminal does.
final class PseudoTerminal {
  private let master: Int32
  private let child: pid_t
  /// Everything the child wrote, escape sequences included.
  private(set) var output = ""

  init(executable: URL, arguments: [String], environment: [String: String]) throws {
    var name = [CChar](repeating: 0, count: 128)
    master = hearth_test_open_pty(&name, name.count)
    guard master >= 0 else { throw POSIXError(.ENODEV) }
    let replica = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A new session: the first terminal it opens becomes its controlling terminal.
    posix_spawnattr_setflags(&attributes, hearth_test_spawn_setsid())
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, replica, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    child = pid
  }

  deinit {
    kill(child, SIGKILL)
    var status: Int32 = 0
    waitpid(child, &status, 0)
    close(master)
  }

  /// Types `keys` (`"\r"` is Enter, `"\u{03}"` Ctrl-C, `"\t"` Tab).
  func type(_ keys: String) {
    var bytes = Array(keys.utf8)
    while !bytes.isEmpty {
      let written = write(master, bytes, bytes.count)
      guard written > 0 else { return }
      bytes.removeFirst(written)
    }
  }

  /// Reads until the output since `mark` contains `text`, or `timeout` passes; returns
  /// whether it came. Escape sequences are removed before looking, so `text` is what a
  /// person sees.
  @discardableResult
  func waitFor(_ text: String, after mark: Int = 0, timeout: TimeInterval = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if visible(from: mark).contains(text) { return true }
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return false }
      readAvailable(waitingUpTo: min(remaining, 0.1))
    }
  }

  /// Waits until the line editor has the terminal (canonical mode off). libedit prints
  /// its prompt a moment before it switches the terminal over, and a control key typed
  /// in between is taken by the terminal's line discipline (Ctrl-D arrives as NUL).
  /// People do not type that fast; tests wait for this before such keys.
  @discardableResult
  func waitUntilEditing(timeout: TimeInterval = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var settings = termios()
    while Date() < deadline {
      if tcgetattr(master, &settings) == 0, settings.c_lflag & tcflag_t(ICANON) == 0 { return true }
      readAvailable(waitingUpTo: 0.01)
    }
    return false
  }

  /// Where the output ends now, for `waitFor(_:after:)` and `visible(from:)`.
  var mark: Int { output.utf8.count }

  /// The output from `mark` on, without escape sequences and carriage returns.
  func visible(from mark: Int = 0) -> String {
    // Carriage returns go first, byte by byte: "\r\n" is one Character to Swift.
    let tail = String(decoding: output.utf8.dropFirst(mark).filter { $0 != 13 }, as: UTF8.self)
    return tail.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
  }

  /// Waits for the child to exit; its exit status, or `nil` after `timeout`.
  func waitForExit(timeout: TimeInterval = 15) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while Date() < deadline {
      readAvailable(waitingUpTo: 0.05)
      if waitpid(child, &status, WNOHANG) == child {
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
      }
    }
    return nil
  }

  private func readAvailable(waitingUpTo seconds: TimeInterval) {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &buffer, buffer.count)
    if count > 0 { output += String(decoding: buffer[..<count], as: UTF8.self) }
  }
}
