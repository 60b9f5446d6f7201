/// The export format (docs/file-formats.md, "Exports"): JSON Lines, a header line, then one
/// document per line in path order.
///
/// ```
/// {"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00.000000Z","documents":2}
/// {"path":"users/alice","createTime":"…Z","updateTime":"…Z","fields":{"name":"Alice"}}
/// {"path":"users/alice/posts/p1","createTime":"…Z","updateTime":"…Z","fields":{"likes":3}}
/// ```
///
/// Fields are extended JSON (`ExtendedJSONCodec`) with keys in UTF-8 byte order, times are
/// RFC 3339 with microseconds, so the same documents always give the same lines.
package enum ExportFormat {
  package static let version = 1

  /// The header line. `documents` is `nil` when the count is unknown.
  package static func header(exportedAt: Timestamp, documents: Int?) -> String {
    let members: [(key: String, value: JSONValue)] = [
      ("hearth", .string("export")), ("version", .integer(Int64(version))),
      ("exportedAt", .string(RFC3339.format(Timestamp(microseconds: exportedAt.microseconds)))),
      ("documents", documents.map { .integer(Int64($0)) } ?? .null),
    ]
    return JSONWriter().string(from: .object(members))
  }

  /// One document's line.
  package static func line(_ document: StoredDocument) -> String {
    JSONWriter().string(
      from: .object([
        ("path", .string(document.key.description)),
        ("createTime", .string(RFC3339.format(document.createTime))),
        ("updateTime", .string(RFC3339.format(document.updateTime))),
        // As a map value, so that fields whose only name starts with `$` are written
        // `{"$literal": {…}}`, the form `document(from:)` (and `ExtendedJSON`) reads back.
        ("fields", ExtendedJSONCodec.json(from: .map(document.fields))),
      ]))
  }

  /// What a header line says.
  package struct Header: Sendable {
    package var version: Int
    package var exportedAt: Timestamp?
    /// The number of document lines that follow, when the writer knew it.
    package var documents: Int?
  }

  /// Reads the header line.
  ///
  /// - Throws: `invalidArgument` saying what is wrong (the caller adds the line number);
  ///   `failedPrecondition` for a newer version.
  package static func header(from text: String) throws -> Header {
    let json = try parse(text)
    guard case .object = json, json["hearth"] == .string("export") else {
      throw HearthError.invalidArgument(
        #"the first line is not an export header: expected {"hearth":"export","version":1,...}"#)
    }
    guard case .integer(let version) = json["version"], version >= 1 else {
      throw HearthError.invalidArgument("the header's \"version\" must be a positive integer")
    }
    guard version <= self.version else {
      throw HearthError(
        .failedPrecondition, "the export has format version \(version); this Hearth reads version \(self.version)")
    }
    var header = Header(version: Int(version))
    switch json["exportedAt"] {
    case .string(let text)?:
      guard let time = RFC3339.parse(text) else {
        throw HearthError.invalidArgument("the header's \"exportedAt\" is not an RFC 3339 time: \(text)")
      }
      header.exportedAt = time
    case nil, .null?: break
    default: throw HearthError.invalidArgument("the header's \"exportedAt\" must be a string")
    }
    switch json["documents"] {
    case .integer(let count)? where count >= 0: header.documents = Int(count)
    case nil, .null?: break
    default: throw HearthError.invalidArgument("the header's \"documents\" must be a count or null")
    }
    return header
  }

  /// Reads a document line. Times may be left out (an import then stamps the document
  /// with its commit time, as a write would).
  ///
  /// - Throws: `invalidArgument` saying what is wrong (the caller adds the line number).
  package static func document(from text: String) throws -> ImportedDocument {
    let json = try parse(text)
    guard case .object(let members) = json else {
      throw HearthError.invalidArgument("expected a JSON object, found \(json.typeName)")
    }
    let known: Set = ["path", "createTime", "updateTime", "fields"]
    if let unknown = members.first(where: { !known.contains($0.key) }) {
      throw HearthError.invalidArgument(
        "unknown member \"\(unknown.key)\" (a line has \"path\", \"createTime\", \"updateTime\" and \"fields\")")
    }
    guard case .string(let path)? = json["path"] else {
      throw HearthError.invalidArgument("\"path\" must be a string with the document's path")
    }
    let key = try DocumentKey(parsing: path)
    func time(_ name: String) throws -> Timestamp? {
      switch json[name] {
      case nil, .null?: return nil
      case .string(let text)?:
        guard let time = RFC3339.parse(text) else {
          throw HearthError.invalidArgument("\(key): \"\(name)\" is not an RFC 3339 time: \(text)")
        }
        // As for `$timestamp` values: a time the offset carries out of the years 0001–9999
        // would be exported as year 0000 or 10000, which no import reads.
        guard time.isInFirestoreRange else {
          throw HearthError.invalidArgument("\(key): \"\(name)\" is outside the years 0001 to 9999 in UTC: \(text)")
        }
        return time
      default: throw HearthError.invalidArgument("\(key): \"\(name)\" must be a string")
      }
    }
    let createTime = try time("createTime")
    let updateTime = try time("updateTime")
    if let createTime, let updateTime, updateTime < createTime {
      throw HearthError.invalidArgument("\(key): \"updateTime\" is before \"createTime\"")
    }
    guard let fieldsJSON = json["fields"] else {
      throw HearthError.invalidArgument("\(key): \"fields\" is missing (use {} for a document without fields)")
    }
    let fields: [String: Value]
    do {
      fields = try ExtendedJSONCodec.fields(from: fieldsJSON)
    } catch let error as HearthError {
      throw HearthError(error.code, "\(key): \(error.message)")
    }
    try DocumentValidation.validate(fields, of: key)
    return ImportedDocument(key: key, fields: fields, createTime: createTime, updateTime: updateTime)
  }
}

extension ExportFormat {
  /// Parses one line; a syntax error names its column (the caller names the line).
  fileprivate static func parse(_ text: String) throws -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw HearthError.invalidArgument("invalid JSON at column \(error.column): \(error.message)")
    }
  }
}

/// A document read from an export line; times the line left out are `nil`.
package struct ImportedDocument: Sendable {
  package var key: DocumentKey
  package var fields: [String: Value]
  package var createTime: Timestamp?
  package var updateTime: Timestamp?
}
