import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the shell writes: standard output and standard error in the `hearth` process,
/// in-memory buffers in tests.
package protocol TextOutput: AnyObject {
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
  package var writeError: Int32? { nil }
}

/// Where the shell reads: lines of the interactive shell, and JSON or an export given as
/// `-`.
package protocol TextInput: AnyObject {
  /// The next line without its line break (`\n` or `\r\n`), or `nil` at the end of input.
  ///
  /// - Throws: `invalidArgument` naming the line and the byte offsets when the line is
  ///   not valid UTF-8 (the line is consumed; the next call reads the one after it).
  func readLine() throws -> String?
  /// Up to `count` bytes of what is left, as they are (JSON given as `-` and imports,
  /// which the shell checks and bounds itself); empty at the end.
  ///
  /// - Throws: when reading fails (an I/O error).
  func read(upTo count: Int) throws -> [UInt8]
  /// Whether a person is typing (a terminal): then the interactive shell prompts.
  var isTerminal: Bool { get }
}

/// Where the next line starts, for the messages about a line that is not UTF-8.
struct LinePosition {
  /// The number of lines read so far.
  var lines = 0
  /// The offset of the next line from the start of the input.
  var offset = 0

  /// The line `bytes` (with its line break, `length` bytes in all) as text, counted.
  mutating func text(of bytes: ArraySlice<UInt8>, length: Int) throws(CommandFailure) -> String {
    lines += 1
    let start = offset
    offset += length
    var line = bytes
    if line.last == 0x0A { line = line.dropLast() }
    if line.last == 0x0D { line = line.dropLast() }
    return try UTF8Input.line(line, source: "standard input", number: lines, start: start)
  }
}

// MARK: - In memory

/// Output collected in memory, for tests and for embedding the shell.
package final class OutputBuffer: TextOutput {
  package private(set) var text = ""
  package let isTerminal: Bool

  package init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

  package func write(_ text: String) { self.text += text }
  package func flush() {}

  /// The text split into lines, without the empty string after a final line break.
  package var lines: [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// Input given up front, for tests and for scripts run in-process.
package final class InputBuffer: TextInput {
  private let bytes: [UInt8]
  private var next = 0
  private var position = LinePosition()
  package let isTerminal: Bool

  package convenience init(_ text: String = "", isTerminal: Bool = false) {
    self.init(bytes: Array(text.utf8), isTerminal: isTerminal)
  }

  /// Input of any bytes, UTF-8 or not.
  package init(bytes: [UInt8], isTerminal: Bool = false) {
    self.bytes = bytes
    self.isTerminal = isTerminal
  }

  package func readLine() throws -> String? {
    guard next < bytes.count else { return nil }
    let end = bytes[next...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
    let line = bytes[next..<end]
    next = end
    return try position.text(of: line, length: line.count)
  }

  package func read(upTo count: Int) throws -> [UInt8] {
    let end = min(next + count, bytes.count)
    defer { next = end }
    return Array(bytes[next..<end])
  }
}

// MARK: - The process's own streams

/// A file descriptor (1 or 2), buffered so that a long listing is a few `write` calls,
/// not one per line.
package final class FileDescriptorOutput: TextOutput {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  package let isTerminal: Bool
  package private(set) var writeError: Int32?

  package static func standardOutput() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 1) }
  package static func standardError() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 2) }

  package init(descriptor: Int32) {
    self.descriptor = descriptor
    isTerminal = isatty(descriptor) == 1
  }

  package func write(_ text: String) {
    guard writeError == nil else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes the buffer out, retrying partial writes and interrupted calls. The first
  /// error (a closed pipe, a full disk) is kept in `writeError` and drops the rest: what
  /// follows it could only be a piece of the output, so nothing more is written.
  package func flush() {
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

/// The process's standard input, file descriptor 0, read with `read(2)` through a buffer
/// of its own (lines and bytes come from the same buffer).
package final class StandardInput: TextInput {
  package let isTerminal: Bool
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  private var position = LinePosition()

  package init() { isTerminal = isatty(0) == 1 }

  package func readLine() throws -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let line = buffer[start...newline]
        start = newline + 1
        return try position.text(of: line, length: line.count)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = buffer[start...]
        start = buffer.count
        return try position.text(of: line, length: line.count)
      }
      // A line is read whole, as `readLine()` always did; so is a terminal's line.
      try fill(1 << 16)
    }
  }

  package func read(upTo count: Int) throws -> [UInt8] {
    if start == buffer.count && !atEnd { try fill(count) }
    let end = min(start + count, buffer.count)
    defer { start = end }
    return Array(buffer[start..<end])
  }

  /// Reads up to `count` more bytes into the buffer (one `read(2)`, which a terminal
  /// answers with a line); `atEnd` at the end of input.
  private func fill(_ count: Int) throws {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    let oldCount = buffer.count
    buffer.append(contentsOf: [UInt8](repeating: 0, count: count))
    var read: Int
    repeat {
      read = buffer.withUnsafeMutableBytes { systemRead(0, $0.baseAddress! + oldCount, count) }
    } while read < 0 && errno == EINTR
    if read < 0 {
      let code = errno
      buffer.removeLast(count)
      throw CommandFailure(
        message: "cannot read standard input: \(String(cString: strerror(code)))", code: "io", status: .ioError)
    }
    buffer.removeLast(count - read)
    if read == 0 { atEnd = true }
  }
}

/// `read(2)`, named apart from `TextInput.read`.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(descriptor, bytes, count)
  #else
    Darwin.read(descriptor, bytes, count)
  #endif
}
