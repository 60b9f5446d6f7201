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
}

/// The candidates of one plan, or of one range of it, in walk order: query order, or its
/// reverse for `limit(toLast:)`. Several streams are merged (see `merge`).
///
/// Its state is read and written by one query on one thread, never across a call that
/// could reach it again, so its properties skip the dynamic exclusivity check (~80
/// instructions an access, paid per document).
final class CandidateStream {
  enum Source {
    /// Index entries, each naming a document and its collection's number (`nil`: not a
    /// document's, or of a collection never registered).
    case entries(RangeWalker, name: (UnsafeRawBufferPointer) throws -> (DocumentKey, CollectionNumber)?)
    /// A collection's documents, from the documents table.
    case documents(RangeWalker, number: CollectionNumber, path: ResourcePath)
    /// Documents looked up by ID, in walk order.
    case ids([String], number: CollectionNumber, path: ResourcePath)
    /// Nothing beyond `ahead`.
    case none
  }

  let source: Source
  /// Whether documents named by whole (uncut) index keys may skip the re-check.
  let enforced: Bool
  /// Candidates read in advance (a cut key's documents, sorted; or a whole unordered
  /// plan), the next one last.
  @exclusivity(unchecked) var ahead: [Candidate] = []
  /// Whether it can hold one document twice (a whole plan read at once, which met a
  /// document once for each array element it holds).
  var mayRepeat = false
  /// An entry read past a cut key's documents, to take next.
  @exclusivity(unchecked) var held: Cursor.Entry?
  @exclusivity(unchecked) var nextID = 0

  /// Whether it is one of several merged in query order (whose documents the merge
  /// orders by their order-by fields).
  let merged: Bool

  init(_ source: Source, enforced: Bool = false, merged: Bool = false) {
    self.source = source
    self.enforced = enforced
    self.merged = merged
  }
}
