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
    // A 64-bit fingerprint of each path and its line (16 bytes a document, where the
    // paths themselves would take many times that); equal fingerprints are checked
    // against the paths themselves once the pass is over.
    var seen: [PathSighting] = []
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
        seen.append(PathSighting(document.key, line: reader.lineNumber))
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
    try copyWriter?.finish()
    try checkDuplicates(&seen, name: reader.name)
    if let expected = header.documents, expected != count {
      throw HearthError.invalidArgument(
        "\(reader.name): the header announces \(expected) documents but the file holds \(count)"
          + (lastComplete ? "" : " (its last line has no line break: the file may be truncated)"))
    }
  }

  /// Throws for the first line (in file order) whose path an earlier line has.
  private func checkDuplicates(_ seen: inout [PathSighting], name: String) throws {
    seen.sort { ($0.fingerprint, $0.line) < ($1.fingerprint, $1.line) }
    // Lines whose fingerprint an earlier line shares: maybe duplicates.
    var suspects: [(line: Int, earlier: [Int])] = []
    var start = 0
    while start < seen.count {
      var end = start + 1
      while end < seen.count && seen[end].fingerprint == seen[start].fingerprint { end += 1 }
      if end - start > 1 {
        let lines = seen[start..<end].map(\.line)
        for index in 1..<lines.count { suspects.append((lines[index], Array(lines[..<index]))) }
      }
      start = end
    }
    guard !suspects.isEmpty else { return }
    // Read the suspects' paths: equal fingerprints of different paths are no duplicates.
    let wanted = Set(suspects.flatMap { [$0.line] + $0.earlier })
    var paths: [Int: String] = [:]
    let reader = try LineReader(path: source)
    while let (text, _) = try reader.nextLine(), paths.count < wanted.count {
      if wanted.contains(reader.lineNumber) {
        paths[reader.lineNumber] = try ExportFormat.document(from: text).key.description
      }
    }
    for (line, earlier) in suspects.sorted(by: { $0.line < $1.line }) {
      if let path = paths[line], let first = earlier.first(where: { paths[$0] == path }) {
        throw HearthError.invalidArgument("\(name):\(line): \(path) appears twice (first on line \(first))")
      }
    }
  }
}

/// Where a path was seen: a 64-bit hash of its UTF-8 bytes (canonically equivalent but
/// different strings are different paths, as they are different keys), and the line.
private struct PathSighting {
  let fingerprint: UInt64
  let line: Int

  init(_ key: DocumentKey, line: Int) {
    var hasher = Hasher()
    var path = key.description
    path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    fingerprint = UInt64(bitPattern: Int64(hasher.finalize()))
    self.line = line
  }
}
