import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the shell writes: standard output and standard error in the `hearth` process,
/// in-memory buffers in tests.
public protocol TextOutput: AnyObject {
  func write(_ text: String)
  /// Whether a person is watching (a terminal): then output is pretty and coloured.
  var isTerminal: Bool { get }
  /// Pushes out anything buffered; called after each command and before each prompt.
  func flush()
  /// The `errno` of the first write that failed (`EPIPE` when the reader went away,
  /// `ENOSPC` on a full disk), after which nothing more is written; `nil` while every
  /// write succeeded. The shell turns it into the command's failure, so that output cut
  /// short never ends with status 0.
  var writeError: Int32? { get }
}

extension TextOutput {
  public var writeError: Int32? { nil }
}

/// Where the shell reads: lines of the interactive shell, and JSON given as `-`.
public protocol TextInput: AnyObject {
  /// The next line without its line break, or `nil` at the end of input.
  func readLine() -> String?
  /// Everything left.
  ///
  /// - Throws: when reading fails (an I/O error).
  func readToEnd() throws -> String
  /// Whether a person is typing (a terminal): then the interactive shell prompts.
  var isTerminal: Bool { get }
}

// MARK: - In memory

/// Output collected in memory, for tests and for embedding the shell.
public final class OutputBuffer: TextOutput {
  public private(set) var text = ""
  public let isTerminal: Bool

  public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

  public func write(_ text: String) { self.text += text }
  public func flush() {}

  /// The text split into lines, without the empty string after a final line break.
  public var lines: [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// Input given up front, for tests and for scripts run in-process.
public final class InputBuffer: TextInput {
  private var remaining: Substring
  public let isTerminal: Bool

  public init(_ text: String = "", isTerminal: Bool = false) {
    remaining = Substring(text)
    self.isTerminal = isTerminal
  }

  public func readLine() -> String? {
    guard !remaining.isEmpty else { return nil }
    if let newline = remaining.firstIndex(of: "\n") {
      let line = remaining[..<newline]
      remaining = remaining[remaining.index(after: newline)...]
      return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
    defer { remaining = "" }
    return String(remaining)
  }

  public func readToEnd() throws -> String {
    defer { remaining = "" }
    return String(remaining)
  }
}

// MARK: - The process's own streams

/// A file descriptor (1 or 2), buffered so that a long listing is a few `write` calls,
/// not one per line.
public final class FileDescriptorOutput: TextOutput {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  public let isTerminal: Bool
  public private(set) var writeError: Int32?

  public static func standardOutput() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 1) }
  public static func standardError() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 2) }

  public init(descriptor: Int32) {
    self.descriptor = descriptor
    isTerminal = isatty(descriptor) == 1
  }

  public func write(_ text: String) {
    guard writeError == nil else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes the buffer out, retrying partial writes and interrupted calls. The first
  /// error (a closed pipe, a full disk) is kept in `writeError` and drops the rest: what
  /// follows it could only be a piece of the output, so nothing more is written.
  public func flush() {
    var written = 0
    buffer.withUnsafeBytes { bytes in
      while written < bytes.count, writeError == nil {
        let result = systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if result > 0 {
          written += result
        } else if result < 0 && errno == EINTR {
          continue
        } else {
          // `write` returns 0 only for an empty write; never loop on it.
          writeError = result < 0 ? errno : EIO
        }
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { flush() }
}

/// `write(2)`, named apart from `TextOutput.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #else
    Darwin.write(descriptor, bytes, count)
  #endif
}

/// The process's standard input.
public final class StandardInput: TextInput {
  public let isTerminal: Bool

  public init() { isTerminal = isatty(0) == 1 }

  public func readLine() -> String? { Swift.readLine(strippingNewline: true) }

  public func readToEnd() throws -> String {
    let data = try FileHandle.standardInput.readToEnd() ?? Data()
    guard let text = String(data: data, encoding: .utf8) else {
      throw CommandFailure(
        message: "standard input is not valid UTF-8 text", code: "invalidArgument", status: .dataError)
    }
    return text
  }
}
