import HearthStorage

/// One run of a query (`StoreReader.run`): its plans, the counts for `explain()`, and
/// where cursors fall in each plan's ranges. How it reads and merges the candidates of
/// its plans is in QueryExecution+Streams.swift.
final class QueryExecution {
  let reader: StoreReader
  let query: QueryModel
  let order: QueryOrder
  // Unchecked: one query runs on one thread and never holds an access to these across a
  // call; the dynamic exclusivity check cost ~80 instructions a document.
  @exclusivity(unchecked) var statistics = QueryStatistics(plan: "")
  /// The cursor documents are read through: LMDB finds a key on the page the cursor is
  /// on without walking down from the root, and a query's documents often share pages.
  /// Opened at the first document read (a count from index keys reads none).
  var documents: Cursor? {
    if let opened = documentsCursor { return opened }
    let cursor = try? txn.cursor(tables.documents)
    documentsCursor = .some(cursor)
    return cursor
  }
  @exclusivity(unchecked) private var documentsCursor: Cursor??
  /// The top-level fields a document read decodes: those the query filters and orders on
  /// (and `reading`), UTF-8 in byte order. The rest of each document is stepped over.
  var projection: [[UInt8]] {
    made(&madeProjections.all) { Self.topLevelNames(reading, order.orderBys, conjunctions) }
  }
  /// The fields the caller reads, for documents whose index entries vouch for the query's
  /// own fields.
  var readingProjection: [[UInt8]] { made(&madeProjections.reading) { Self.topLevelNames(reading, [], []) } }
  /// The fields the caller reads and the order-by fields, for such documents of streams
  /// that are merged.
  var mergeProjection: [[UInt8]] {
    made(&madeProjections.merge) { Self.topLevelNames(reading, order.orderBys, []) }
  }
  /// The projections made so far. Each is made at its first use: most runs read with one
  /// of them at most (an index that proves the filters needs only `readingProjection`, a
  /// count from index keys none), and each made costs allocations (~2.7k instructions a
  /// feed query for all three). A stream keeps the one its documents decode
  /// (`CandidateStream.names`): read through these accessors, each document would pay a
  /// retain and a release.
  @exclusivity(unchecked) private var madeProjections: (all: [[UInt8]]?, reading: [[UInt8]]?, merge: [[UInt8]]?)
  /// Whether a document none of whose fields is decoded has its checksum checked when
  /// `copyOut` copies it rather than when it is read (set by the runs that copy their
  /// results out). The check was the first pass over a document's bytes, and paid for
  /// bringing them in from memory; after the copy, which brings them in anyway, it reads
  /// them from the cache; and the bytes, no longer read when the walk meets them, are
  /// prefetched then (`match`). A whole collection (hearth-bench, December 2026): 1.81M
  /// documents/s, 1.9M checked on copy, 2.55M prefetched (3.0M with the pages the walk
  /// enters, `PagePrefetcher`). Every document returned is still checked, and every one
  /// decoded is checked first; one skipped unread (before a start cursor on `__name__`)
  /// is not.
  @exclusivity(unchecked) private(set) var checksOnCopy = false

  /// The aggregated fields: a document lacking one is left out.
  let reading: [FieldPath]
  /// The query's filters as an OR of ANDs (`disjunctiveNormalForm`): one plan each.
  let conjunctions: [[FieldFilter]]
  private let explaining: Bool

  /// - Parameters:
  ///   - reading: the fields an aggregation reads from `matches`,
  ///     decoded beside the query's own. Documents that lack one are left out (before the
  ///     limit), as Firestore aggregates only documents that have every aggregated field.
  ///   - explaining: describe the plans in `statistics.plan`.
  init(reader: StoreReader, query: QueryModel, reading: [FieldPath] = [], explaining: Bool = false) {
    self.reader = reader
    self.query = query
    self.reading = reading
    self.explaining = explaining
    order = QueryOrder(query.orderBys)
    conjunctions = Self.disjunctiveNormalForm(query.filters)
  }

  /// `slot`'s projection, made by `make` and kept there at the first call.
  @inline(__always)
  private func made(_ slot: inout [[UInt8]]?, _ make: () -> [[UInt8]]) -> [[UInt8]] {
    if let made = slot { return made }
    let made = make()
    slot = made
    return made
  }

  /// The distinct first segments (as UTF-8, in byte order) of the read fields, the
  /// order-by fields and the filtered fields, `__name__` left out. Read straight from
  /// each list: arrays of the fields gathered first cost a query ~10 allocations.
  private static func topLevelNames(
    _ reading: [FieldPath], _ orderBys: [OrderBy], _ conjunctions: [[FieldFilter]]
  ) -> [[UInt8]] {
    var names: [[UInt8]] = []
    func add(_ field: FieldPath) {
      guard !field.isDocumentID, let first = field.first, !names.contains(where: { $0.elementsEqual(first.utf8) })
      else { return }
      names.append(Array(first.utf8))
    }
    for field in reading { add(field) }
    for orderBy in orderBys { add(orderBy.field) }
    for conjunction in conjunctions {
      for filter in conjunction { add(filter.field) }
    }
    if names.count > 1 { names.sort { $0.lexicographicallyPrecedes($1) } }
    return names
  }

  var txn: ReadTransaction { reader.txn }
  var tables: Tables { reader.store.tables }

  /// A plan to run, on one collection or (a collection-group index) on the whole group.
  typealias PlannedRead = (plan: AccessPlan, collection: (number: CollectionNumber, path: ResourcePath)?)

  /// The plans of every conjunction, each for the collections it reads.
  ///
  /// - Parameter preferring: plans to take before any other that fits (see `QueryPlanner`).
  func plans(requireIndexes: Bool, preferring: ((AccessPlan, [FieldFilter]) -> Bool)? = nil) throws
    -> [[PlannedRead]]
  {
    let indexes = try reader.store.catalog.current(in: txn)
    let planner = QueryPlanner(
      txn: txn, tables: tables, order: order.orderBys, limit: query.limit, indexes: indexes, preferring: preferring,
      cache: txn is WriteTransaction ? nil : reader.store.planCache)
    if requireIndexes {
      for conjunction in conjunctions {
        if let missing = planner.missingIndex(conjunction, target: query.target, indexes: indexes) {
          throw Self.indexNeeded(missing)
        }
      }
    }
    var collections: [(number: CollectionNumber, path: ResourcePath)]?
    func collectionsRead() throws -> [(number: CollectionNumber, path: ResourcePath)] {
      if let collections { return collections }
      let found: [(number: CollectionNumber, path: ResourcePath)]
      switch query.target {
      case .collection(let path): found = try reader.store.registry.number(of: path, in: txn).map { [($0, path)] } ?? []
      case .group(let collectionID): found = try reader.collectionGroup(collectionID)
      }
      collections = found
      return found
    }
    return try conjunctions.map { conjunction in
      if case .group(let collectionID) = query.target,
        let plan = try planner.groupPlan(conjunction, collectionID: collectionID)
      {
        return [(plan, nil)]
      }
      return try collectionsRead().map { number, path in
        (try planner.plan(conjunction, collection: number, path: path), (number, path))
      }
    }
  }

  func run(requireIndexes: Bool) throws -> QueryResult {
    checksOnCopy = true
    let matches = try matches(requireIndexes: requireIndexes)
    var documents: [EncodedDocument] = []
    documents.reserveCapacity(matches.count)
    try copyOut(matches, pooled: false) { documents.append(EncodedDocument(key: $0, verified: $1.bytes[$2])) }
    return QueryResult(documents: documents, statistics: statistics)
  }

  /// Runs the query, telling `reserve` how many results there are, then handing `each`
  /// them in query order: their keys and where their verified bytes are, copied out of
  /// the read transaction into one buffer they share (one the store kept, see
  /// `ResultBuffers`). The caller builds its own kind of result straight from them, in an
  /// array it sized once, with no array between.
  func run(
    requireIndexes: Bool, reserve: (Int) -> Void,
    _ each: (consuming DocumentKey, ResultBuffer, Range<Int>) throws -> Void
  ) throws {
    checksOnCopy = true
    let matches = try matches(requireIndexes: requireIndexes)
    reserve(matches.count)
    try copyOut(matches, pooled: true, each)
  }

  /// The results in query order, as the query saw them; their bytes are valid only in
  /// this transaction (an aggregation reads the decoded fields alone).
  ///
  /// - Parameter inAnyOrder: the caller needs the results, not their order (an
  ///   aggregation without a limit or cursors): a group's collections are then read one
  ///   after another in any order.
  func matches(requireIndexes: Bool, inAnyOrder: Bool = false) throws -> [Candidate] {
    let reads = try plans(requireIndexes: requireIndexes)
    // One conjunction's plans are not joined into a new array (~850 instructions).
    let planned = reads.count == 1 ? reads[0] : Array(reads.joined())
    var streams: [CandidateStream] = []
    // Streams of one plan that meets each document once need no check for repeats.
    var distinct = false
    var sequence: (() throws -> CandidateStream?)?
    if let inSequence = readInSequence(reads, planned, inAnyOrder: inAnyOrder) {
      // Each plan's stream made when the one before it ends; each plan may vouch for the
      // filters as a lone one does: none is ordered against another's by its fields.
      var index = 0
      let filters = conjunctions.first
      sequence = { [self] in
        while index < inSequence.count {
          let (plan, collection) = inSequence[index]
          index += 1
          if let stream = try self.streams(plan, collection: collection, enforcing: filters).first { return stream }
        }
        return nil
      }
    } else if planned.count == 1 {
      // Taken out once: each use of `planned[0]` copied the plan (its source's arrays, its
      // description's closure), ~500 instructions.
      let (plan, collection) = planned[0]
      distinct = plan.meetsEachDocumentOnce
      // A lone plan may vouch for the filters itself (see `enforces`).
      streams = try self.streams(plan, collection: collection, enforcing: conjunctions.first)
    } else {
      for (plan, collection) in planned { streams += try self.streams(plan, collection: collection, enforcing: nil) }
    }
    var matches = try merge(streams, distinct: distinct, sequence: sequence)
    if query.limitType == .last { matches.reverse() }
    describe(reads)
    statistics.resultsReturned = matches.count
    return matches
  }

  /// The plans of one conjunction's several collections (a group's) to read one after
  /// another instead of merged: in any order for a caller that takes the results so
  /// (without cursors, which the walk would have to meet in order), else `inNameOrder`.
  private func readInSequence(_ reads: [[PlannedRead]], _ planned: [PlannedRead], inAnyOrder: Bool)
    -> [PlannedRead]?
  {
    guard reads.count == 1, planned.count > 1 else { return nil }
    if inAnyOrder, query.startAt == nil, query.endAt == nil, planned.allSatisfy(Self.readsInOneStream) {
      return planned
    }
    return inNameOrder(planned)
  }

  /// The plans of a group's collections in walk order, when the query is ordered by
  /// document name alone, each plan gives one stream (a walk in query order, or its
  /// matches sorted) and no collection lies under a document of another: each
  /// collection's documents then come together in that order (the first segment where
  /// two collections' paths differ orders all their documents), so its plans are read one
  /// after another instead of merged (a merge of a thousand collections compared each
  /// result's path some ten times, and read every collection's first document before the
  /// first result).
  private func inNameOrder(_ planned: [PlannedRead]) -> [PlannedRead]? {
    let orderBys = order.orderBys
    guard orderBys.count == 1, orderBys[0].field.isDocumentID, planned.allSatisfy(Self.readsInOneStream)
    else { return nil }
    // Sorted by their paths' key encodings, which order as `ResourcePath.compare` does
    // (comparing the paths themselves, segment by segment, cost ~8k instructions a
    // collection).
    let keys = planned.map { read in
      var key: [UInt8] = []
      KeyCodec.append(path: read.collection!.path, to: &key)
      return key
    }
    let order = planned.indices.sorted { a, b in
      keys[a].withUnsafeBytes { a in keys[b].withUnsafeBytes { b in Value.compareRaw(a, b) < 0 } }
    }
    var sorted = order.map { planned[$0] }
    // Sorted, a collection under a document of another follows it directly (any path
    // between them has the other's as a prefix too).
    for index in sorted.indices.dropFirst()
    where sorted[index - 1].collection!.path.isPrefix(of: sorted[index].collection!.path) {
      return nil
    }
    // Walked backward for a descending order, and for `limit(toLast:)` of an ascending one.
    let backward = orderBys[0].descending != (query.limitType == .last)
    if backward { sorted.reverse() }
    // The collections wholly on the near side of the cursor the walk starts at are not
    // read: a page of a group costs its own documents, not those of the pages before.
    if let near = query.limitType == .last ? query.endAt : query.startAt,
      case .reference(let key)? = near.values.first
    {
      sorted.removeAll { $0.collection!.path.placement(against: key) == (backward ? .after : .before) }
    }
    return sorted
  }

  /// Whether the plan reads one collection in one stream in walk order: a walk in query
  /// order, or its matches sorted (not ranges merged by their fields), as
  /// `streams(_:collection:enforcing:)` makes them.
  private static func readsInOneStream(_ read: PlannedRead) -> Bool {
    read.collection != nil && (read.plan.forward != nil || read.plan.eachRangeForward == nil)
  }

  /// The results' bytes copied out of the read transaction into one buffer, which their
  /// documents share, handed to `each` in order with where each one's bytes are. Each key
  /// is moved out of its candidate and handed over to keep (copies would retain and
  /// release it). The candidates' array goes back to the store's `ResultBuffers` for the
  /// next merge; the buffer comes from there too when `pooled` (for snapshots, not for
  /// `EncodedDocument`s, whose slices of it listeners keep: a reuse would copy it).
  ///
  /// - Throws: `dataLoss` naming the first result whose copy fails the checksum check
  ///   left to it (`checksOnCopy`).
  private func copyOut(
    _ matches: consuming [Candidate], pooled: Bool,
    _ each: (consuming DocumentKey, ResultBuffer, Range<Int>) throws -> Void
  ) throws {
    let buffers = reader.store.resultBuffers
    let buffer = try matches.withUnsafeBufferPointer { candidates in
      let total = candidates.reduce(0) { $0 + $1.bytes.count }
      // The first candidate whose copy fails its check (`checksOnCopy`).
      var damaged: Int?
      func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var position = 0
        // By index: a loop variable copied each candidate (its key retained and released).
        for index in candidates.indices {
          let bytes = candidates[index].bytes
          guard !bytes.isEmpty else { continue }
          let copy = UnsafeMutableRawBufferPointer(rebasing: buffer[position..<position + bytes.count])
          copy.copyMemory(from: bytes)
          if !candidates[index].checked, damaged == nil, !DocumentCodec.isIntact(UnsafeRawBufferPointer(copy)) {
            damaged = index
          }
          position += bytes.count
        }
      }
      let buffer = pooled ? buffers.buffer(holding: total, fill) : ResultBuffer(holding: total, fill)
      // Its error named from the original, still in the read transaction.
      if let damaged { try DocumentCodec.verify(candidates[damaged].bytes, key: candidates[damaged].document.key) }
      return buffer
    }
    // Taken from the end, which moves a candidate out; reversing first only swaps them.
    matches.withUnsafeMutableBufferPointer { $0.reverse() }
    var start = 0
    while let match = matches.popLast() {
      let end = start + match.bytes.count
      try each(match.document.key, buffer, start..<end)
      start = end
    }
    buffers.keepSpare(matches)
  }

  func describe(_ reads: [[PlannedRead]]) {
    guard explaining else { return }
    let plans = reads.joined().map { $0.plan.describe() }
    statistics.plan = plans.isEmpty ? "no collection to read" : Self.summarize(plans)
  }

  // MARK: - Cursor seeks

  /// Where a cursor on `__name__` falls in this collection's documents table.
  func nameSeek(_ bound: Bound, _ number: CollectionNumber, _ path: ResourcePath) -> (key: [UInt8], id: String)? {
    guard let first = bound.values.first, order.orderBys.first?.field.isDocumentID == true,
      case .reference(let key) = first, key.collectionPath == path
    else { return nil }
    return (KeyLayout.documentKey(number, key.documentID), key.documentID)
  }

  /// Where a cursor falls in index ranges read in query order: at the key of its first
  /// value (when the index is on the first order-by field), and at its document ID among
  /// that key's entries (when the next order-by is `__name__`, or the only one).
  func indexSeek(
    _ bound: Bound, field: FieldPath, prefix: [UInt8], ranges: ArraySlice<KeyRange>, _ path: ResourcePath
  ) -> (key: [UInt8], value: [UInt8]?)? {
    let orderBys = order.orderBys
    func id(at index: Int) -> [UInt8]? {
      guard bound.values.count > index, orderBys[index].field.isDocumentID,
        case .reference(let key) = bound.values[index], key.collectionPath == path
      else { return nil }
      return KeyLayout.idBytes(key.documentID)
    }
    if orderBys[0].field == field, let value = bound.values.first {
      let key = FieldIndex.key(prefix, value)
      // A cut key's entries are not in value order: position at the whole key.
      return (key, key.count >= FieldIndex.maxKeyBytes ? nil : id(at: 1))
    }
    if ranges.count == 1, let range = ranges.first, range.isExact, let id = id(at: 0) { return (range.lower, id) }
    return nil
  }

  /// Where a cursor falls in a declared index read in query order: after the equality
  /// prefix, the cursor's values of the index's ordered fields (as many as it gives in a
  /// row), and its document among their entries when it gives every order-by value.
  func compositeSeek(
    _ bound: Bound, _ index: DeclaredIndex, prefix: [UInt8], rest: [IndexDefinition.Field]
  ) -> (key: [UInt8], value: [UInt8]?)? {
    let orderBys = order.orderBys
    var key = prefix
    var used = 0
    for field in rest {
      guard let position = orderBys.firstIndex(where: { $0.field == field.path }), position < bound.values.count
      else { break }
      CompositeIndex.append(bound.values[position], field.mode, to: &key)
      used += 1
    }
    guard used > 0 || rest.isEmpty else { return nil }
    var value: [UInt8]?
    if used == rest.count, bound.values.count == orderBys.count, case .reference(let name) = bound.values.last! {
      value = CompositeIndex.data(index, name)
    }
    // A cut key's entries are not in value order: position at the whole key.
    if key.count >= FieldIndex.maxKeyBytes { return (Array(key.prefix(FieldIndex.maxKeyBytes)), nil) }
    return (key, value)
  }

  /// Plans repeated over many collections, said once with a count.
  static func summarize(_ plans: [String]) -> String {
    var counts: [(String, Int)] = []
    for plan in plans {
      if let position = counts.firstIndex(where: { $0.0 == plan }) {
        counts[position].1 += 1
      } else {
        counts.append((plan, 1))
      }
    }
    return counts.map { $0.1 > 1 ? "\($0.0) ×\($0.1)" : $0.0 }.joined(separator: "; ")
  }

  /// The error of a query that needs an index not declared, with the index to add.
  static func indexNeeded(_ index: IndexDefinition) -> HearthError {
    let file: IndexFile
    if index.scope == .collectionGroup, index.fields.count == 1 {
      file = IndexFile(
        indexes: [index],
        fieldOverrides: [
          FieldOverride(
            collectionGroup: index.collectionGroup, path: index.fields[0].path,
            collectionModes: [.ascending, .descending, .contains])
        ])
    } else {
      file = IndexFile(indexes: [index])
    }
    return HearthError(
      .failedPrecondition,
      "The query requires an index (Settings.requireIndexes is on). Add it to firestore.indexes.json or declare it "
        + "with declareIndexes(json:): \(file.serialized(pretty: false))")
  }

  // MARK: - Disjunctive normal form

  /// The filters as an OR of ANDs of field filters (`in` lists stay whole: an index
  /// reads them as several ranges).
  static func disjunctiveNormalForm(_ filters: [QueryFilter]) -> [[FieldFilter]] {
    // Most queries AND plain comparisons: their one conjunction needs no expansion.
    var plain: [FieldFilter] = []
    plain.reserveCapacity(filters.count)
    for filter in filters {
      guard case .field(let comparison) = filter else { return distributed(filters) }
      plain.append(comparison)
    }
    return [plain]
  }

  /// ANDs distributed over ORs.
  private static func distributed(_ filters: [QueryFilter]) -> [[FieldFilter]] {
    filters.reduce([[]]) { conjunctions, filter in
      let expanded = expand(filter)
      return conjunctions.flatMap { left in expanded.map { left + $0 } }
    }
  }

  private static func expand(_ filter: QueryFilter) -> [[FieldFilter]] {
    switch filter {
    case .field(let field): [[field]]
    case .and(let parts): disjunctiveNormalForm(parts)
    case .or(let parts): parts.flatMap(expand)
    }
  }
}

extension StoreReader {
  /// Runs `query` on this snapshot: for each conjunction of its filters (an OR splits
  /// into several) and each collection it reads, the plan `QueryPlanner` picks; their
  /// candidates are merged in query order up to the limit, and every document read is
  /// checked against all filters, order-by fields and cursors, unless the index entry
  /// that named it proves the match.
  ///
  /// - Throws: `dataLoss` when a document it reads is damaged.
  ///
  /// - Parameter requireIndexes: refuse, like production Firestore, a query that needs a
  ///   composite or collection-group index that is not declared (`failedPrecondition`,
  ///   naming the index to add).
  ///
  /// - Parameter explaining: describe the plans in `statistics.plan` (for `explain()`).
  package func run(_ query: QueryModel, requireIndexes: Bool = false, explaining: Bool = false) throws -> QueryResult {
    let execution = QueryExecution(reader: self, query: query, explaining: explaining)
    return try execution.run(requireIndexes: requireIndexes)
  }

  /// Runs `query` as `run(_:requireIndexes:explaining:)` does, telling `reserve` the
  /// number of results, then handing `each` them in query order (keys and verified bytes
  /// in one shared buffer) instead of gathering them: the API builds its snapshots
  /// straight from them, in an array sized once, one array less a query.
  ///
  /// - Throws: `dataLoss` when a document it reads is damaged; what `each` throws.
  package func run(
    _ query: QueryModel, requireIndexes: Bool = false, reserve: (Int) -> Void,
    each: (consuming DocumentKey, ResultBuffer, Range<Int>) throws -> Void
  ) throws {
    try QueryExecution(reader: self, query: query).run(requireIndexes: requireIndexes, reserve: reserve, each)
  }
}
