import Foundation

/// Writes lines to a file (or standard output) through a buffer, with plain `write(2)`
/// calls: constant memory however much is written.
///
/// A regular file (or a path where nothing is yet) is written under a temporary name next
/// to it and renamed into place by `finish()`, so an export that fails midway never
/// leaves a truncated file that looks like a whole one, and leaves the old file as it
/// was. A FIFO or a device (`/dev/null`, a tape, a pipe another program reads) cannot be
/// replaced that way without destroying it: it is opened and written as it is, like
/// standard output. A symbolic link is followed: its target is written (replaced, or
/// written into), and the link stays a link.
final class LineWriter {
  /// Where the lines go.
  private enum Destination {
    /// Standard output, or a FIFO or device written in place (`path` names it).
    case inPlace(path: String?)
    /// A regular file, written as `temporary` and renamed to `path`.
    case replacing(path: String, temporary: String)
  }

  private let descriptor: Int32
  private let destination: Destination
  private var buffer: [UInt8] = []
  private var isClosed = false
  private static let flushSize = 1 << 20

  /// `path` `-` is standard output.
  ///
  /// - Throws: `invalidArgument` for a directory; the error of `open(2)` naming `path`.
  init(path: String) throws {
    buffer.reserveCapacity(Self.flushSize + 4096)
    guard path != "-" else {
      descriptor = STDOUT_FILENO
      destination = .inPlace(path: nil)
      return
    }
    let target = try Self.followingLinks(path)
    var status = stat()
    let kind = stat(target, &status) == 0 ? status.st_mode & S_IFMT : nil
    if kind == S_IFDIR {
      throw HearthError.invalidArgument("\(path) is a directory; an export is written to a file")
    }
    if let kind, kind != S_IFREG {
      // Not truncated or created: a FIFO or device takes the lines as they come.
      descriptor = open(target, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw LineFiles.failure(errno, "open", path) }
      destination = .inPlace(path: path)
      return
    }
    let temporary = target + ".partial"
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw LineFiles.failure(errno, "create", temporary) }
    destination = .replacing(path: target, temporary: temporary)
  }

  func write(line: String) throws {
    buffer.append(contentsOf: line.utf8)
    buffer.append(0x0A)
    if buffer.count >= Self.flushSize { try flush() }
  }

  private func flush() throws {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 {
        if errno == EINTR { continue }
        throw LineFiles.failure(errno, "write", name)
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The destination as messages name it.
  private var name: String {
    switch destination {
    case .inPlace(let path): path ?? "standard output"
    case .replacing(let path, _): path
    }
  }

  /// Writes what is buffered and, for a regular file, makes it durable under its final
  /// name.
  func finish() throws {
    try flush()
    guard !isClosed else { return }
    switch destination {
    case .inPlace(nil): return
    case .inPlace:
      isClosed = true
      guard Foundation.close(descriptor) == 0 else { throw LineFiles.failure(errno, "close", name) }
    case .replacing(let path, let temporary):
      guard fsync(descriptor) == 0 else { throw LineFiles.failure(errno, "fsync", temporary) }
      Foundation.close(descriptor)
      isClosed = true
      guard rename(temporary, path) == 0 else {
        let error = LineFiles.failure(errno, "rename", path)
        unlink(temporary)
        throw error
      }
    }
  }

  /// Gives up: closes and removes the temporary file (nothing, once `finish()` ran); a
  /// FIFO or device is only closed.
  func abandon() {
    guard !isClosed else { return }
    switch destination {
    case .inPlace(nil): return
    case .inPlace: break
    case .replacing(_, let temporary): unlink(temporary)
    }
    Foundation.close(descriptor)
    isClosed = true
  }

  /// `path` with symbolic links followed to what they point at (which may not exist yet),
  /// relative links read from the link's directory.
  ///
  /// - Throws: `invalidArgument` for a loop of links.
  private static func followingLinks(_ path: String) throws -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
      var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &target, target.count - 1)
      guard count >= 0 else { throw LineFiles.failure(errno, "readlink", current) }
      let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let directory = (current as NSString).deletingLastPathComponent
      current = link.hasPrefix("/") || directory.isEmpty ? link : directory + "/" + link
    }
    throw HearthError.invalidArgument("\(path) is a loop of symbolic links")
  }
}

/// Reads a file (or standard input) line by line, through a buffer: constant memory
/// however long the file, one line at a time however long the line (up to `maxLine`).
final class LineReader {
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  let name: String
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The number of the line last returned, from 1.
  private(set) var lineNumber = 0
  /// The offset of the next line from the start of the input.
  private var lineStart = 0
  /// Longer lines are an error: far beyond the largest document (1 MiB by Firestore's
  /// rules, a few times that as JSON), far below what would strain memory.
  static let maxLine = 64 << 20

  /// `path` `-` is standard input.
  init(path: String) throws {
    if path == "-" {
      descriptor = STDIN_FILENO
      ownsDescriptor = false
      name = "standard input"
    } else {
      var status = stat()
      if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
        throw HearthError.invalidArgument("\(path) is a directory, not an export file")
      }
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw LineFiles.failure(errno, "open", path) }
      ownsDescriptor = true
      name = path
    }
  }

  deinit { if ownsDescriptor { Foundation.close(descriptor) } }

  /// The next line without its line break, or `nil` at the end. The last line may lack a
  /// line break; `complete` tells whether it had one.
  func nextLine() throws -> (text: String, complete: Bool)? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        defer { start = newline + 1 }
        return (try text(buffer[start..<newline]), true)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return (try text(buffer[start...]), false)
      }
      if buffer.count - start > Self.maxLine {
        throw HearthError.invalidArgument(
          "\(name):\(lineNumber + 1): the line is longer than \(Self.maxLine >> 20) MiB")
      }
      try fill()
    }
  }

  /// The next line's text, counted.
  ///
  /// - Throws: `invalidArgument` naming the line, the first byte that is not UTF-8 and
  ///   its offsets, in the line and from the start.
  private func text(_ bytes: ArraySlice<UInt8>) throws -> String {
    lineNumber += 1
    let start = lineStart
    lineStart += bytes.count + 1
    guard let text = String(validating: bytes, as: UTF8.self) else {
      let offset = JSONParser.firstInvalidUTF8Offset(Array(bytes)) ?? 0
      let byte = String(bytes[bytes.startIndex + offset], radix: 16, uppercase: true)
      throw HearthError.invalidArgument(
        "\(name):\(lineNumber): the line is not valid UTF-8: byte 0x\(byte.count == 1 ? "0" : "")\(byte) at offset "
          + "\(offset) of the line (offset \(start + offset) from the start)")
    }
    return text
  }

  private func fill() throws {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    let chunk = 1 << 20
    let oldCount = buffer.count
    // From an array, not `repeatElement`: unspecialized (in a debug build) the generic
    // append takes a third of a second per MiB; from an array it is a copy.
    buffer.append(contentsOf: [UInt8](repeating: 0, count: chunk))
    var count: Int
    repeat {
      count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + oldCount, chunk) }
    } while count < 0 && errno == EINTR
    guard count >= 0 else { throw LineFiles.failure(errno, "read", name) }
    buffer.removeLast(chunk - count)
    if count == 0 { atEnd = true }
  }
}

enum LineFiles {
  /// An I/O failure as a `HearthError` naming the file.
  static func failure(_ code: Int32, _ operation: String, _ path: String) -> HearthError {
    let reason = String(cString: strerror(code))
    switch code {
    case ENOENT: return HearthError(.notFound, "Cannot \(operation) \(path): \(reason)")
    case EACCES, EPERM, EROFS: return HearthError(.permissionDenied, "Cannot \(operation) \(path): \(reason)")
    case ENOSPC, EDQUOT: return HearthError(.resourceExhausted, "Cannot \(operation) \(path): \(reason)")
    default: return HearthError(.internal, "Cannot \(operation) \(path): \(reason)")
    }
  }
}
