import HearthStorage

/// Damaged pages told in Hearth's terms: for the `documents` table, the paths of the
/// documents a damaged page held (those whose keys can still be read on it, else the
/// range of paths its parent page gives it); for the other tables, what they hold.
///
/// Paths are named from the `collections` table, read by the verifier when its pages
/// are intact; a collection it cannot name is shown by its number (`collection #12`).
struct DamageReport {
  let verification: PageVerification
  private let collections: [UInt64: String]
  /// Paths listed per damaged page before "and N more".
  static let namesPerPage = 10

  init(_ verification: PageVerification) {
    self.verification = verification
    var collections: [UInt64: String] = [:]
    for entry in verification.contextEntries[KeyLayout.TableName.collections] ?? [] {
      guard entry.key.count == 8, let number = entry.key.withUnsafeBytes({ KeyLayout.readBigEndian($0) }),
        let path = String(validating: entry.value, as: UTF8.self)
      else { continue }
      collections[number] = path
    }
    self.collections = collections
  }

  /// One line per damaged page, with what it held.
  var problems: [String] {
    verification.damage.map { page in
      let held = held(by: page)
      return page.description + (held.isEmpty ? "" : "; \(held)")
    }
  }

  /// `check`'s report: no documents checked, every damaged page a problem.
  var integrityReport: IntegrityReport {
    var report = IntegrityReport()
    report.problems = problems
    report.problems.append(
      "the documents and indexes were not checked, since the file's pages are damaged: \(DocumentStore.restoreAdvice)"
    )
    return report
  }

  private func held(by page: DamagedPage) -> String {
    guard case .table(let table) = page.area else {
      switch page.area {
      case .tableCatalog: return "it lists the tables: every table may be unreachable"
      case .freeList: return "it lists free pages (no documents; the next write could reuse a page in use)"
      default: return ""
      }
    }
    guard table == KeyLayout.TableName.documents else {
      return "it held \(Self.contents[table] ?? "entries of table '\(table)'")"
    }
    if !page.keys.isEmpty {
      let names = page.keys.prefix(Self.namesPerPage).map(documentName)
      let more = page.keys.count > Self.namesPerPage ? " and \(page.keys.count - Self.namesPerPage) more" : ""
      return "it held documents \(names.joined(separator: ", "))\(more)"
    }
    switch (page.lowerKey.map(documentName), page.upperKey.map(documentName)) {
    case (nil, nil): return "it held every document"
    case (let lower?, nil): return "it held the documents from \(lower) on"
    case (nil, let upper?): return "it held the documents before \(upper)"
    case (let lower?, let upper?): return "it held the documents from \(lower) up to \(upper)"
    }
  }

  /// What each table other than `documents` holds, for a report's reader.
  static let contents: [String: String] = [
    KeyLayout.TableName.meta: "the database's format and counters",
    KeyLayout.TableName.collections: "collection registrations (collection numbers and paths)",
    KeyLayout.TableName.children: "the lists of subcollections",
    KeyLayout.TableName.groups: "the lists of collection groups",
    KeyLayout.TableName.indexEntries: "index entries (queries may miss documents)",
    KeyLayout.TableName.changes: "the change log that other processes' listeners read",
    KeyLayout.TableName.versions: "old versions of documents (reads at a past time may be wrong)",
    KeyLayout.TableName.versionTimes: "the times of old versions of documents (reads at a past time may be wrong)",
  ]

  /// The document path of a `documents` key (`users/alice`), as far as it can be told.
  private func documentName(_ key: [UInt8]) -> String {
    guard let number = key.withUnsafeBytes({ KeyLayout.readBigEndian($0) }) else {
      return "(a key of \(key.count) bytes)"
    }
    let collection = collections[number] ?? "collection #\(number)"
    guard key.count > 8 else { return collection }
    let id = String(validating: key[8...], as: UTF8.self) ?? "(an ID that is not UTF-8)"
    return "\(collection)/\(id)"
  }
}
