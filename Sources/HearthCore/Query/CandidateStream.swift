import HearthStorage

/// A document a query read: as the query sees it, and its verified bytes in the read
/// transaction's map (valid while the query runs; copied out once, all results together).
struct Candidate {
  var document: QueryDocument
  var bytes: UnsafeRawBufferPointer
  /// Known to match every filter and to have every order-by field, so the merge does not
  /// check it again: its index entry proves it (and then only the fields the caller reads
  /// were decoded), or it was checked when its plan was read whole.
  var enforced: Bool
  /// Whether its checksum was checked when it was read: always when fields were decoded
  /// from it; otherwise, for a run that copies its results out, when it is copied (see
  /// `QueryExecution.checksOnCopy`).
  var checked = true
  /// Its index entry's bytes that order it among the entries of its plan's other ranges,
  /// when its stream is merged with them by key (see `SortKey`).
  var sortKey: SortKey? = nil
  /// The collection of a document not read yet (`document` then holds its key alone, and
  /// `bytes` nothing): a merge by key orders its entries by their bytes, so each range's
  /// next document is read only when the merge takes it, not when it waits in the heap
  /// (an `in` of 30 values under a limit of 20 read one more document a value than it
  /// returned).
  var unread: CollectionNumber? = nil
}

/// Where an index entry stands among the entries of its plan's other ranges: its key past
/// the range's equality prefix (the ordered fields' values, as the index encodes them),
/// then its data (the document's name). Entries of one index order by these bytes exactly
/// as each range's walk orders its own, so a merge of the ranges compares bytes instead
/// of decoded fields. Both point into the read transaction's map.
struct SortKey {
  let ordered: UnsafeRawBufferPointer
  let name: UnsafeRawBufferPointer

  /// -1, 0 or 1 as this entry's bytes order before, with or after the other's.
  func compare(_ other: SortKey) -> Int {
    let ordered = Value.compareRaw(self.ordered, other.ordered)
    return ordered != 0 ? ordered : Value.compareRaw(name, other.name)
  }
}

/// The candidates of one plan, or of one range of it, in walk order: query order, or its
/// reverse for `limit(toLast:)`. Several streams are merged (see `merge`).
///
/// Its state is read and written by one query on one thread, never across a call that
/// could reach it again, so its properties skip the dynamic exclusivity check (~80
/// instructions an access, paid per document).
final class CandidateStream {
  /// What the stream reads.
  enum Source {
    /// Index entries, each naming a document and its collection's number (`name`).
    case entries
    /// A collection's documents, from the documents table.
    case documents
    /// Documents looked up by ID (`ids`), in walk order.
    case ids
    /// The documents under several exact keys at once (`intersection`), each named by
    /// `name`.
    case intersection
    /// Nothing beyond `ahead`.
    case none
  }

  let source: Source
  // The source's parts are stored properties rather than an enum's payload, which every
  // `next` would copy (retaining each part, ~100 instructions a document).
  /// The walk of index entries or documents.
  let walker: RangeWalker?
  /// The document an index entry names and its collection's number (`nil`: not a
  /// document's, or of a collection never registered).
  let name: ((UnsafeRawBufferPointer) throws -> (DocumentKey, CollectionNumber)?)?
  /// The entries an intersection of exact keys agrees on.
  let intersection: KeyIntersection?
  /// The collection whose documents (or IDs) are read.
  let collection: (number: CollectionNumber, path: ResourcePath)?
  /// The IDs looked up, in walk order.
  let ids: [String]
  /// Whether documents named by whole (uncut) index keys may skip the re-check.
  let enforced: Bool
  /// The top-level fields its documents decode (`QueryExecution.projection(enforced:merged:)`
  /// for its walk: merged with others' or not), held here so that each read passes them
  /// without a retain.
  let names: [[UInt8]]
  /// Candidates read in advance (a cut key's documents, sorted; or a whole unordered
  /// plan), the next one last.
  @exclusivity(unchecked) var ahead: [Candidate] = []
  /// Whether it can hold one document twice (a whole plan read at once, which met a
  /// document once for each array element it holds).
  var mayRepeat = false
  /// An entry read past a cut key's documents, to take next.
  @exclusivity(unchecked) var held: Cursor.Entry?
  @exclusivity(unchecked) var nextID = 0
  /// The map's pages a walk of whole documents enters, prefetched (see `PagePrefetcher`).
  @exclusivity(unchecked) var pages = PagePrefetcher()

  /// Where, in each entry's key, the bytes that order it among the merged ranges' entries
  /// begin (after its range's equality prefix; past the key's end when only the name
  /// orders); `nil` when the merge orders by fields.
  let sortKeyStart: Int?

  private init(
    _ source: Source, walker: RangeWalker? = nil, intersection: KeyIntersection? = nil,
    name: ((UnsafeRawBufferPointer) throws -> (DocumentKey, CollectionNumber)?)? = nil,
    collection: (number: CollectionNumber, path: ResourcePath)? = nil, ids: [String] = [], enforced: Bool = false,
    sortKeyStart: Int? = nil, names: [[UInt8]] = []
  ) {
    self.source = source
    self.walker = walker
    self.intersection = intersection
    self.name = name
    self.collection = collection
    self.ids = ids
    self.enforced = enforced
    self.names = names
    self.sortKeyStart = sortKeyStart
  }

  /// Index entries read by `walker`, each naming a document (`name`).
  static func entries(
    _ walker: RangeWalker, name: @escaping (UnsafeRawBufferPointer) throws -> (DocumentKey, CollectionNumber)?,
    enforced: Bool, sortKeyStart: Int?, names: [[UInt8]]
  ) -> CandidateStream {
    CandidateStream(.entries, walker: walker, name: name, enforced: enforced, sortKeyStart: sortKeyStart, names: names)
  }

  /// The documents `intersection` finds, named by `name`.
  static func intersection(
    _ intersection: KeyIntersection,
    name: @escaping (UnsafeRawBufferPointer) throws -> (DocumentKey, CollectionNumber)?, enforced: Bool,
    names: [[UInt8]]
  ) -> CandidateStream {
    CandidateStream(.intersection, intersection: intersection, name: name, enforced: enforced, names: names)
  }

  /// The documents of collection `path` (number `number`) that `walker` reads.
  static func documents(
    _ walker: RangeWalker, number: CollectionNumber, path: ResourcePath, enforced: Bool, names: [[UInt8]]
  ) -> CandidateStream {
    CandidateStream(.documents, walker: walker, collection: (number, path), enforced: enforced, names: names)
  }

  /// Documents of collection `path` looked up by ID, in walk order.
  static func ids(_ ids: [String], number: CollectionNumber, path: ResourcePath) -> CandidateStream {
    CandidateStream(.ids, collection: (number, path), ids: ids)
  }

  /// Candidates read in advance, in reverse walk order (the next one last).
  static func sorted(_ candidates: [Candidate]) -> CandidateStream {
    let stream = CandidateStream(.none)
    stream.ahead = candidates
    stream.mayRepeat = true
    return stream
  }
}
