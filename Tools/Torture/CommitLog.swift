import Foundation

/// A failure the torture run reports and stops on.
struct TortureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The writer's log of acknowledged commits: a header line naming the seed, then one line
/// per commit, in order from 1: `n` once commit `n` has returned (written and fsynced
/// before the next commit begins), or `n found` for a commit that had not returned when
/// its writer was killed but that the next writer found in the database. So every commit
/// the log names must be in the database, and at most the one after the last may be too.
///
/// A kill can cut the last line short; a line without its newline is not a commit.
struct CommitLog {
  let path: String
  let seed: UInt64
  /// Commits `1...count` are in the log.
  var count = 0
  /// How many of them were found rather than acknowledged.
  var found = 0
  /// The length of the log's whole lines.
  var length = 0

  static func header(seed: UInt64) -> String { "hearth-torture writer log, seed \(seed)\n" }

  /// Reads the log at `path`; `nil` when there is none.
  static func read(_ path: String) throws -> CommitLog? {
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) { throw TortureError("cannot read the log \(path)") }
      return nil
    }
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // The part after the last newline: empty, or a line cut short by a kill.
    let cut = lines.removeLast()
    guard let first = lines.first, first.hasPrefix("hearth-torture writer log, seed "),
      let seed = UInt64(first.dropFirst("hearth-torture writer log, seed ".count))
    else {
      throw TortureError("\(path) is not a hearth-torture writer log")
    }
    var log = CommitLog(path: path, seed: seed)
    for (index, line) in lines.dropFirst().enumerated() {
      let fields = line.split(separator: " ")
      guard let number = fields.first.flatMap({ Int($0) }), number == log.count + 1,
        fields.count == 1 || (fields.count == 2 && fields[1] == "found")
      else {
        throw TortureError("\(path) line \(index + 2): expected commit \(log.count + 1), found \"\(line)\"")
      }
      log.count = number
      if fields.count == 2 { log.found += 1 }
    }
    log.length = data.count - cut.utf8.count
    return log
  }

  /// Creates the log with its header, atomically: a log either does not exist or names
  /// its seed.
  static func create(_ path: String, seed: UInt64) throws -> CommitLog {
    let temporary = path + ".new"
    try Data(header(seed: seed).utf8).write(to: URL(fileURLWithPath: temporary))
    try syncFile(temporary)
    guard rename(temporary, path) == 0 else {
      throw TortureError("rename \(temporary): \(String(cString: strerror(errno)))")
    }
    try syncFile(
      (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
    return CommitLog(path: path, seed: seed, length: header(seed: seed).utf8.count)
  }

  private static func syncFile(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw TortureError("open \(path): \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw TortureError("fsync \(path): \(String(cString: strerror(errno)))") }
  }
}

/// Appends lines to the log, each one written and fsynced before `append` returns.
final class LogAppender {
  private let descriptor: Int32
  private let path: String

  /// Opens the log for appending after its whole lines (dropping a line a kill cut short).
  init(_ log: CommitLog) throws {
    path = log.path
    descriptor = open(log.path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw TortureError("open \(log.path): \(String(cString: strerror(errno)))") }
    guard ftruncate(descriptor, off_t(log.length)) == 0, fsync(descriptor) == 0 else {
      throw TortureError("truncate \(log.path): \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(descriptor) }

  func append(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw TortureError("write \(path): \(String(cString: strerror(errno)))") }
      offset += written
    }
    guard fsync(descriptor) == 0 else { throw TortureError("fsync \(path): \(String(cString: strerror(errno)))") }
  }
}
