import CDeflate
import Foundation
import HearthStorage

/// File work that must survive a crash: copies and small files flushed to disk before
/// they are renamed into place, and checksums of large files read in pieces.
enum DurableFiles {
  /// The size and CRC-32 of a file; `sync` first flushes it to disk.
  static func checksum(ofFile path: String, sync: Bool) throws -> (bytes: Int, crc32: UInt32) {
    var crc: UInt32 = 0
    var total = 0
    try forEachPiece(ofFile: path, sync: sync) { piece in
      crc = libdeflate_crc32(crc, piece.baseAddress, piece.count)
      total += piece.count
    }
    return (total, crc)
  }

  /// Copies a file to `destination` and flushes it to disk.
  static func copyDurably(_ source: String, to destination: String) throws {
    let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw LineFiles.failure(errno, "create", destination) }
    do {
      try forEachPiece(ofFile: source, sync: false) { piece in
        var offset = 0
        while offset < piece.count {
          let written = write(output, piece.baseAddress! + offset, piece.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw LineFiles.failure(errno, "write", destination)
          }
          offset += written
        }
      }
      guard fsync(output) == 0 else { throw LineFiles.failure(errno, "fsync", destination) }
      close(output)
    } catch {
      close(output)
      unlink(destination)
      throw error
    }
  }

  /// Calls `body` with the file's bytes, 1 MiB at a time; `sync` first flushes the file.
  private static func forEachPiece(
    ofFile path: String, sync: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw LineFiles.failure(errno, "open", path) }
    defer { close(descriptor) }
    if sync && fsync(descriptor) != 0 { throw LineFiles.failure(errno, "fsync", path) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw LineFiles.failure(errno, "read", path)
      }
      if count == 0 { return }
      try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  /// Writes a small file under a temporary name, flushes it and renames it into place.
  static func writeDurably(_ text: String, to path: String) throws {
    let writer = try LineWriter(path: path)
    do {
      try writer.write(line: String(text.dropLast()))
      try writer.finish()
    } catch {
      writer.abandon()
      throw error
    }
    syncDirectory((path as NSString).deletingLastPathComponent)
  }

  /// Flushes a directory's entries (a rename in it) to disk.
  static func syncDirectory(_ path: String) { Environment.syncDirectory(path) }
}
