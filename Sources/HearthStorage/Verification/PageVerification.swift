/// What the page verifier found in `data.mdb`: the damaged pages, and facts about the
/// pages that verified.
package struct PageVerification: Sendable, Equatable {
  /// The data file's path.
  package var file: String
  package var fileSize: Int
  /// 0 when the meta pages are too damaged to tell.
  package var pageSize: Int
  /// The last page the verified commit uses (`mm_last_pg`).
  package var lastPage: Int
  /// The commit whose pages were verified.
  package var transactionID: Int
  /// Every damaged page found, in the order the walk met them.
  package var damage: [DamagedPage] = []
  /// Whether every tree was walked (`false`: only the meta pages and the table catalog).
  package var coversEveryPage: Bool
  /// The pages read and verified.
  package var pagesVerified = 0
  /// The entries of the tables asked for (`contextTables`) when their trees verified
  /// intact, so that the layer above can name what the damaged pages held.
  package var contextEntries: [String: [Entry]] = [:]

  package var isIntact: Bool { damage.isEmpty }

  /// A key and its value, copied out of the file.
  package struct Entry: Sendable, Equatable {
    package var key: [UInt8]
    package var value: [UInt8]
  }
}

/// One damaged page (or meta page, or file-level fault) and what it held, as far as the
/// verifier can tell.
package struct DamagedPage: Sendable, Equatable {
  package enum Area: Sendable, Equatable {
    /// A meta page (0 or 1), or the file as a whole (its size).
    case metaPages
    /// LMDB's list of free pages.
    case freeList
    /// The main table, which lists the named tables.
    case tableCatalog
    /// A named table (for a duplicate-sorted table, also the pages of one key's values).
    case table(String)
  }

  /// The page number (for a bad reference, the page holding the reference).
  package var page: Int
  package var area: Area
  /// "branch page", "leaf page", "overflow page", "meta page", …
  package var role: String
  /// What is wrong, in words (`node 3's key runs past the end of the page`).
  package var problem: String
  /// The damaged part held keys at or after this one (`nil`: from the table's start).
  package var lowerKey: [UInt8]?
  /// … and before this one (`nil`: to the table's end).
  package var upperKey: [UInt8]?
  /// Keys that could still be read on the page.
  package var keys: [[UInt8]] = []
  /// For the pages of one key's values in a duplicate-sorted table: that key.
  package var valuesOf: [UInt8]?

  /// `page 12 (documents, leaf page): node 3's key runs past the end of the page`.
  package var description: String {
    let place: String
    switch area {
    case .metaPages where role == "data file": return problem
    case .metaPages: place = role
    case .freeList: place = "free list, \(role)"
    case .tableCatalog: place = "table catalog, \(role)"
    case .table(let name): place = "\(name), \(role)"
    }
    return "page \(page) (\(place)): \(problem)"
  }
}

/// A data file whose pages failed verification: opening it is refused, since LMDB would
/// follow its damaged pages with nothing to stop it from reading outside the file.
package struct StorageDamage: Error, CustomStringConvertible, Sendable, Equatable {
  package let verification: PageVerification

  package init(_ verification: PageVerification) { self.verification = verification }

  /// `/db/data.mdb is damaged: page 12 (documents, leaf page): … (and 3 more damaged pages)`.
  package var description: String {
    let damage = verification.damage
    guard let first = damage.first else { return "\(verification.file) verified intact" }
    let more = damage.count > 1 ? " (and \(damage.count - 1) more damaged pages)" : ""
    return "\(verification.file) is damaged: \(first.description)\(more)"
  }
}
