import HearthCore

/// The import's line parser (`ExportFormat`). The input, as UTF-8 text, is read as a
/// header line and as a document line:
///
/// - each returns what the line says or throws `invalidArgument` (a header of a newer
///   version: `failedPrecondition`);
/// - a document that reads is valid (`DocumentValidation` accepts it), and the line
///   `ExportFormat.line` writes for it (times left out stamped as an import would) reads
///   back as the same document and writes again as the same line, so an export always
///   imports;
/// - it also survives the stored form: `DocumentCodec` round-trips it exactly.
enum ImportLineTarget {
  static func run(_ input: UnsafeRawBufferPointer) throws {
    let text = String(decoding: input, as: UTF8.self)
    do {
      let header = try ExportFormat.header(from: text)
      try require(header.version >= 1 && header.version <= ExportFormat.version, "header version \(header.version)")
      try require((header.documents ?? 0) >= 0, "header announces \(header.documents ?? 0) documents")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      try requireHearthError(error, .invalidArgument, .failedPrecondition, from: "ExportFormat.header")
    }

    let imported: ImportedDocument
    do {
      imported = try ExportFormat.document(from: text)
    } catch {
      try requireHearthError(error, .invalidArgument, from: "ExportFormat.document")
      return
    }
    do {
      try DocumentValidation.validate(imported.fields, of: imported.key)
    } catch {
      throw PropertyViolation("an imported document is invalid: \(error)")
    }
    // An import stamps missing times with its commit time.
    let commitTime = Timestamp(seconds: 1_764_410_400, nanoseconds: 123_456_000)
    let createTime = imported.createTime ?? imported.updateTime ?? commitTime
    let document = StoredDocument(
      key: imported.key, fields: imported.fields, createTime: createTime, updateTime: imported.updateTime ?? createTime)
    let line = ExportFormat.line(document)
    let again: ImportedDocument
    do {
      again = try ExportFormat.document(from: line)
    } catch {
      throw PropertyViolation("an exported line does not import: \(error): \(line)")
    }
    try require(again.key == document.key, "the line's path reads back as \(again.key), not \(document.key)")
    try require(
      again.createTime == document.createTime && again.updateTime == document.updateTime,
      "the line's times read back as \(String(describing: again.createTime)), "
        + "\(String(describing: again.updateTime)): \(line)")
    try require(
      Value.identicalFields(again.fields, document.fields), "the line's fields read back differently: \(line)")
    let stored = StoredDocument(
      key: again.key, fields: again.fields, createTime: again.createTime!, updateTime: again.updateTime!)
    try require(ExportFormat.line(stored) == line, "the line is not stable: \(line)")

    let bytes = DocumentCodec.encode(document)
    do {
      let decoded = try DocumentCodec.decode(bytes, key: document.key)
      try require(Value.identicalFields(decoded.fields, document.fields), "stored form changes the fields: \(line)")
    } catch let error as HearthError {
      throw PropertyViolation("an imported document's stored form does not decode: \(error): \(line)")
    }
  }
}
