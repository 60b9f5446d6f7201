import Foundation
import HearthStorage

/// What `DocumentStore.check()` found.
package struct IntegrityReport: Sendable {
  /// Each problem, naming the document path or the table involved (at most
  /// `IntegrityCheck.maxProblems`, then a line saying how many more).
  package var problems: [String] = []
  package var documents = 0
  package var indexEntries = 0
  package var collections = 0

  package var ok: Bool { problems.isEmpty }
}

extension DocumentStore {
  /// Checks the whole database on one read snapshot, after verifying every page of the
  /// file with plain reads (`ReadTransaction.verifyPages`): damaged pages are reported
  /// with the documents they held, and then nothing else is read. On intact pages:
  /// - every document's bytes pass their checksum and decode, its key names a registered
  ///   collection, and its fields obey the document rules;
  /// - every document has each index entry its fields call for (automatic and declared),
  ///   and the index table holds no other entry (the two counts agree);
  /// - every registered collection has a valid path, is in its collection group, and is
  ///   listed under its parent.
  ///
  /// It reads every document once and looks up each expected index entry: time grows with
  /// the database, memory does not.
  package func check(progress: ProgressHandler? = nil) throws -> IntegrityReport {
    try readVerified(always: true) { reader, verification in
      if let verification, !verification.isIntact { return DamageReport(verification).integrityReport }
      var check = IntegrityCheck(reader: reader, progress: progress)
      return try check.run()
    }
  }

  /// Checks the database in directory `path` as `check(progress:)` does, also when it is
  /// too damaged to open: then the report lists what opening found (an empty or
  /// truncated `data.mdb`, damaged meta pages or pages) and the documents lost.
  ///
  /// - Throws: `notFound` when there is no database at `path`; `permissionDenied`.
  package static func check(path: String, progress: ProgressHandler? = nil) throws -> IntegrityReport {
    var options = Options()
    options.readOnly = true
    let store: DocumentStore
    do {
      store = try DocumentStore(reportingDamageOf: path, options: options)
    } catch let damage as StorageDamage {
      var verification = damage.verification
      if verification.pagesVerified == 0, verification.pageSize > 0,
        let walked = try? Environment.verifyUnopenedDataFile(
          in: path, contextTables: [KeyLayout.TableName.collections])
      {
        verification = walked
      }
      return DamageReport(verification).integrityReport
    }
    defer { store.close() }
    return try store.check(progress: progress)
  }

  /// Runs `body` on a read snapshot whose pages were verified first, when `always` or
  /// when opening did not verify every page (a file above
  /// `Environment.Options.wholeFileVerificationLimit`); `body` gets the verification,
  /// `nil` when none ran. For walks over whole tables, which LMDB must not make over a
  /// damaged page.
  func readVerified<R>(always: Bool = false, _ body: (StoreReader, PageVerification?) throws -> R) throws -> R {
    try guarded {
      var attempts = 0
      while true {
        do {
          return try environment.read { txn in
            var verification: PageVerification?
            if always || !environment.verifiedEveryPageAtOpen {
              verification = try txn.verifyPages(contextTables: [KeyLayout.TableName.collections])
            }
            return try body(StoreReader(store: self, txn: txn), verification)
          }
        } catch let error as StorageError where error.code == EAGAIN && attempts < 10 {
          // Writers committed twice since the snapshot began: its meta page is gone.
          attempts += 1
        }
      }
    }
  }

  /// Runs `body` like `readVerified`, refusing a damaged file with `StorageDamage`.
  func readIntact<R>(_ body: (StoreReader) throws -> R) throws -> R {
    try readVerified { reader, verification in
      if let verification, !verification.isIntact { throw StorageDamage(verification) }
      return try body(reader)
    }
  }
}

/// The state of one `check()`.
private struct IntegrityCheck {
  static let maxProblems = 1000

  let reader: StoreReader
  let progress: ProgressHandler?
  var report = IntegrityReport()
  private var omitted = 0

  init(reader: StoreReader, progress: ProgressHandler?) {
    self.reader = reader
    self.progress = progress
  }

  private var txn: ReadTransaction { reader.txn }
  private var tables: Tables { reader.store.tables }

  mutating func problem(_ text: String) {
    if report.problems.count < Self.maxProblems { report.problems.append(text) } else { omitted += 1 }
  }

  mutating func run() throws -> IntegrityReport {
    let paths = try checkCollections()
    try checkDocuments(paths)
    if omitted > 0 { report.problems.append("… and \(omitted) more problems") }
    return report
  }

  /// The `collections` table against `groups` and `children`; returns number → path.
  mutating func checkCollections() throws -> [UInt64: ResourcePath] {
    var paths: [UInt64: ResourcePath] = [:]
    let cursor = try txn.cursor(tables.collections)
    var entry = try cursor.first()
    while let (key, value) = entry {
      defer { entry = try? cursor.next() }
      guard let number = CollectionNumber(key), key.count == 8 else {
        problem("collections: a key of \(key.count) bytes is not a collection number")
        continue
      }
      guard let text = UTF8Text.string(value), let path = try? ResourcePath.parse(text), path.count % 2 == 1 else {
        problem("collections: collection \(number.rawValue) has no valid collection path")
        continue
      }
      paths[number.rawValue] = path
    }
    report.collections = paths.count
    let numbers = Dictionary(paths.map { ($0.value, $0.key) }, uniquingKeysWith: min)
    for (raw, path) in paths {
      let number = CollectionNumber(rawValue: raw)
      let id = path.segments[path.count - 1]
      if try !reader.store.registry.group(id, in: txn).contains(number) {
        problem("collection \(path) is missing from its collection group '\(id)'")
      }
      let parentKey: [UInt8]
      if path.count == 1 {
        parentKey = KeyLayout.parentKey(.root, "")
      } else {
        let parentCollection = ResourcePath(Array(path.segments.dropLast(2)))
        guard let parentNumber = numbers[parentCollection] else {
          problem("collection \(path): its parent collection \(parentCollection) is not registered")
          continue
        }
        parentKey = KeyLayout.parentKey(CollectionNumber(rawValue: parentNumber), path.segments[path.count - 2])
      }
      if try !reader.store.registry.children(under: parentKey, in: txn).contains(where: { $0.number == number }) {
        problem("collection \(path) is not listed under its parent")
      }
    }
    return paths
  }

  /// Every document, and the index entries it calls for.
  mutating func checkDocuments(_ paths: [UInt64: ResourcePath]) throws {
    let indexes = try reader.store.catalog.current(in: txn)
    let entries = try txn.cursor(tables.indexEntries)
    let cursor = try txn.cursor(tables.documents)
    let total = try txn.count(tables.documents)
    var expectedEntries = 0
    var entry = try cursor.first()
    while let (storageKey, bytes) = entry {
      defer { entry = try? cursor.next() }
      report.documents += 1
      if report.documents % 1000 == 0 {
        reader.store.environment.releaseMappedPages()
        try progress?(report.documents, total)
      }
      guard let number = CollectionNumber(storageKey), let collection = paths[number.rawValue] else {
        problem("documents: a document is keyed by an unregistered collection number")
        continue
      }
      guard let id = KeyLayout.documentID(inKey: storageKey) else {
        problem("documents: a document ID in \(collection) is not valid UTF-8")
        continue
      }
      let key = DocumentKey(collection: collection, id: id)
      let document: StoredDocument
      do {
        document = try DocumentCodec.decode(bytes, key: key)
        try DocumentValidation.validate(document.fields, of: key)
      } catch let error as HearthError {
        problem("\(key): \(error.message)")
        continue
      }
      var expected: [([UInt8], [UInt8])] = []
      let documentID = KeyLayout.idBytes(id)
      for indexKey in Set(FieldIndex.keys(number, document.fields, indexes.modes(key.collectionGroup))) {
        expected.append((indexKey, documentID))
      }
      for index in indexes.indexes where index.definition.collectionGroup == key.collectionGroup {
        let data = CompositeIndex.data(index, key)
        for indexKey in Set(CompositeIndex.keys(index, number, document.fields)) { expected.append((indexKey, data)) }
      }
      expectedEntries += expected.count
      for (indexKey, data) in expected {
        let found = try entries.seek(exactly: indexKey, valueAtLeast: data)
        if found.map({ !$0.value.elementsEqual(data) }) ?? true {
          problem("\(key): an index entry is missing (\(Self.describe(indexKey)))")
        }
      }
    }
    report.indexEntries = try txn.count(tables.indexEntries)
    if report.indexEntries != expectedEntries {
      problem(
        "indexEntries: the table holds \(report.indexEntries) entries where the documents call for \(expectedEntries)"
          + (report.indexEntries > expectedEntries ? " (entries left behind by removed or changed documents)" : ""))
    }
  }

  /// An index key's first bytes in hex, to tell entries apart in a report.
  static func describe(_ key: [UInt8]) -> String {
    key.prefix(24).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
      .joined() + (key.count > 24 ? "…" : "")
  }
}
