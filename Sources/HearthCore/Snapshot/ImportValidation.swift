import Foundation

/// The first pass of an import: reads the whole input once and checks every line, so
/// that a bad line stops the import before anything is written.
///
/// Standard input, which cannot be read twice, is copied to a temporary file on the way
/// for the second pass. A small input's documents are kept, so that it is read only once.
final class ImportValidation {
  /// What the second pass reads: the input file, or the copy of standard input.
  let source: String
  private let copy: String?
  /// The number of documents.
  private(set) var count = 0
  /// The documents, when there are at most `DocumentStore.importChunk` of them.
  private(set) var documents: [ImportedDocument]? = []

  /// - Throws: `invalidArgument` as `FILE:LINE: problem` for the first bad line.
  init(path: String) throws {
    let reader = try LineReader(path: path)
    let copyWriter: LineWriter?
    if path == "-" {
      let temporary = NSTemporaryDirectory() + "/hearth-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      copyWriter = try LineWriter(path: temporary)
      copy = temporary
      source = temporary
    } else {
      copyWriter = nil
      copy = nil
      source = path
    }
    do {
      try validate(reader, copyingTo: copyWriter)
      try copyWriter?.finish()
    } catch {
      copyWriter?.abandon()
      if let copy { unlink(copy) }
      throw error
    }
  }

  func removeCopy() {
    if let copy { unlink(copy) }
  }

  static func isBlank(_ line: String) -> Bool { line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

  private func validate(_ reader: LineReader, copyingTo copyWriter: LineWriter?) throws {
    func failure(_ error: Error) -> Error {
      guard let error = error as? HearthError else { return error }
      return HearthError(error.code, "\(reader.name):\(reader.lineNumber): \(error.message)")
    }
    var header: ExportFormat.Header?
    // Where each path was seen, by a 128-bit fingerprint of the path: 1,000,000
    // documents take some 40 MB, where the paths themselves could take many times that.
    var seen: [PathFingerprint: Int] = [:]
    var lastComplete = true
    while let (text, complete) = try reader.nextLine() {
      lastComplete = complete
      try copyWriter?.write(line: text)
      if Self.isBlank(text) { continue }
      do {
        guard header != nil else {
          header = try ExportFormat.header(from: text)
          continue
        }
        let document = try ExportFormat.document(from: text)
        let fingerprint = PathFingerprint(document.key.path.canonical)
        if let first = seen.updateValue(reader.lineNumber, forKey: fingerprint) {
          throw HearthError.invalidArgument("\(document.key) appears twice (first on line \(first))")
        }
        count += 1
        if count <= DocumentStore.importChunk { documents?.append(document) } else { documents = nil }
      } catch {
        throw failure(error)
      }
    }
    guard let header else {
      throw HearthError.invalidArgument(
        #"\#(reader.name): no export header: an export's first line is {"hearth":"export","version":1,...}"#)
    }
    if let expected = header.documents, expected != count {
      throw HearthError.invalidArgument(
        "\(reader.name): the header announces \(expected) documents but the file holds \(count)"
          + (lastComplete ? "" : " (its last line has no line break: the file may be truncated)"))
    }
  }
}

/// Two independent 64-bit hashes of a path's UTF-8 bytes: equal fingerprints mean equal
/// paths but for a chance of about one in 2^64 per pair, negligible for any file. (Not of
/// the `String`: strings hash by canonical equivalence, and IDs that differ only in their
/// Unicode normalization, such as "café" precomposed and decomposed, are two documents.)
private struct PathFingerprint: Hashable {
  let low: UInt64
  let high: UInt64

  init(_ path: String) {
    var first = Hasher()
    var second = Hasher()
    second.combine(0x5BD1_E995 as UInt64)
    var path = path
    path.withUTF8 { bytes in
      first.combine(bytes: UnsafeRawBufferPointer(bytes))
      second.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
    low = UInt64(bitPattern: Int64(first.finalize()))
    high = UInt64(bitPattern: Int64(second.finalize()))
  }
}
