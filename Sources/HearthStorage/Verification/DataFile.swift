import Foundation

/// `data.mdb` opened for plain reads (`pread`), never mapped: a page read this way that
/// lies past the end of the file is an error to report, not a `SIGBUS`.
final class DataFile {
  let path: String
  private let descriptor: Int32

  /// Opens the file read-only.
  ///
  /// - Throws: `StorageError` with the `errno` of `open` (`ENOENT`, `EACCES`, …).
  init(path: String) throws(StorageError) {
    self.path = path
    descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw StorageError(code: errno, operation: "open \(path)") }
  }

  deinit { Foundation.close(descriptor) }

  /// The file's size now, in bytes.
  func size() throws(StorageError) -> Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw StorageError(code: errno, operation: "fstat \(path)") }
    return Int(info.st_size)
  }

  /// `count` bytes from `offset`, or fewer when the file ends before (an empty array at
  /// or past its end).
  ///
  /// - Throws: `StorageError` when the read itself fails (`EIO`: the disk).
  func read(offset: Int, count: Int) throws(StorageError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw StorageError(code: errno, operation: "pread \(path) at \(offset + done)")
      }
      if result == 0 { break }
      done += result
    }
    if done < count { bytes.removeLast(count - done) }
    return bytes
  }
}
