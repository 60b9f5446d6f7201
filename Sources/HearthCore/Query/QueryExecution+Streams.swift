import HearthStorage

/// How a run reads its plans: each plan gives one or more `CandidateStream`s (walks of
/// its key ranges, or its documents read whole and sorted), and `merge` takes their
/// candidates in query order, checks them, and stops at the limit.
extension QueryExecution {
  /// Whether `a` comes before `b` in the walk's order, by their order-by fields. (Two
  /// candidates with sort keys are ordered by those, in `CandidateHeap`.)
  ///
  /// - Throws: `dataLoss` when a document's order-by fields cannot be decoded.
  func walkOrder(_ a: Candidate, _ b: Candidate) throws -> Bool {
    let position = order.compare(try orderable(a), try orderable(b))
    return query.limitType == .last ? position > 0 : position < 0
  }

  /// The candidate's document with its order-by fields. A merge by key leaves a document
  /// unread, or decodes only the fields the caller reads of one its entry proves; when it
  /// meets a cut key's document, which only fields can order, it reads or decodes them
  /// here.
  private func orderable(_ candidate: Candidate) throws -> QueryDocument {
    let key = candidate.document.key
    if let number = candidate.unread {
      // Read now, beside the cut key's (and again if the merge takes it); a document
      // gone is skipped when taken.
      return try load(key, number: number, enforced: true, names: mergeProjection)?.document ?? candidate.document
    }
    guard candidate.sortKey != nil, candidate.enforced else { return candidate.document }
    return QueryDocument(key: key, fields: try decode(candidate.bytes, key, mergeProjection))
  }

  /// The streams of one plan: one walk when reading it yields query order; one walk a
  /// range, to merge, when each range does; otherwise everything it finds, sorted.
  ///
  /// - Parameter filters: the query's only conjunction, when this is its only plan.
  func streams(
    _ plan: AccessPlan, collection: (number: CollectionNumber, path: ResourcePath)?, enforcing filters: [FieldFilter]?
  ) throws -> [CandidateStream] {
    let last = query.limitType == .last
    let near = last ? query.endAt : query.startAt
    if let direction = plan.forward {
      let enforced = filters.map { enforces(plan, $0) } ?? false
      return try walks(plan, collection, [plan.ranges[...]], forward: direction != last, near: near, enforced)
    }
    if let direction = plan.eachRangeForward {
      // Entries whose keys prove the filters skip the re-check here too. A lone plan's
      // ranges are of one index, so the merge orders its entries by their bytes; the
      // ranges of several plans are ordered by their documents' order-by fields.
      let enforced = filters.map { enforces(plan, $0) } ?? false
      return try walks(
        plan, collection, plan.ranges.indices.map { plan.ranges[$0...$0] }, forward: direction != last,
        near: near, enforced, merged: true, keyed: filters != nil)
    }
    let all = try walks(plan, collection, [plan.ranges[...]], forward: true, near: nil)[0]
    var found: [Candidate] = []
    while var candidate = try next(all) {
      let document = candidate.document
      if order.includes(document), QueryMatcher.matches(query.filters, document),
        order.isWithin(start: query.startAt, end: query.endAt, document)
      {
        candidate.enforced = true
        found.append(candidate)
      }
    }
    try found.sort { try walkOrder($1, $0) }
    return [CandidateStream.sorted(found)]
  }

  /// One stream for each of `walks`, a walk over some of the plan's ranges (a declared
  /// index's walk `i` reads the ranges of its equality prefix `i`, for a cursor's seek;
  /// `keyed`: the entries carry the bytes that order them among the other walks', see
  /// `SortKey`). The plan's parts are taken once for all its walks: the ranges of an `in`
  /// copied its source (retaining each part) and chose its projection once a walk.
  private func walks(
    _ plan: AccessPlan, _ collection: (number: CollectionNumber, path: ResourcePath)?, _ walks: [ArraySlice<KeyRange>],
    forward: Bool, near: Bound?, _ enforced: Bool = false, merged: Bool = false, keyed: Bool = false
  ) throws -> [CandidateStream] {
    let names = projection(enforced: enforced, merged: merged)
    switch plan.source {
    case .ids(let ids):
      let (number, path) = collection!
      return [CandidateStream.ids(forward ? ids : ids.reversed(), number: number, path: path)]
    case .documents:
      let (number, path) = collection!
      let start = near.flatMap { nameSeek($0, number, path) }.map { (key: $0.key, value: [UInt8]?.none) }
      return try walks.map { ranges in
        let walker = try RangeWalker(txn, tables.documents, ranges, forward: forward, start: start)
        return CandidateStream.documents(walker, number: number, path: path, enforced: enforced, names: names)
      }
    case .intersection(_, let keys):
      let (number, path) = collection!
      let intersection = try KeyIntersection(txn, tables.indexEntries, keys: keys, forward: forward)
      return [
        CandidateStream.intersection(
          intersection, name: { KeyLayout.documentID($0).map { (DocumentKey(collection: path, id: $0), number) } },
          enforced: enforced, names: names)
      ]
    case .index(let field, let kind, let prefix, _):
      let (number, path) = collection!
      // Merged only when the query orders by name alone (ordered by the field, its ranges
      // are read one after another): its entries order by their data, the document ID.
      let sortKeyStart = keyed ? Int.max : nil
      let name = { (data: UnsafeRawBufferPointer) in
        KeyLayout.documentID(data).map { (DocumentKey(collection: path, id: $0), number) }
      }
      return try walks.map { ranges in
        let start =
          kind == .value ? near.flatMap { indexSeek($0, field: field, prefix: prefix, ranges: ranges, path) } : nil
        let walker = try RangeWalker(txn, tables.indexEntries, ranges, forward: forward, start: start)
        return CandidateStream.entries(
          walker, name: name, enforced: enforced, sortKeyStart: sortKeyStart, names: names)
      }
    case .composite(let declared, let layout, let prefixes, _):
      let rest = layout.rest
      // Consecutive entries of a group's walk mostly name one collection under an equality
      // on a leading field (one user's posts), and where only their names order them (an
      // array-contains page: by their documents' paths); each then names its document
      // faster by the bytes of the last's (kept a walk: merged walks interleave their
      // collections). Ordered by a field, they interleave collections, and the comparison
      // would mostly miss.
      let pinned = declared.definition.fields.dropLast(rest.count).contains { $0.mode != .contains }
      let remembers = pinned || rest.isEmpty
      let descending = declared.definition.namesDescending
      let inCollection = collection.map { number, path in
        { (data: UnsafeRawBufferPointer) in
          CompositeIndex.documentKey(declared, data, in: path, descending: descending).map { ($0, number) }
        }
      }
      return try walks.indices.map { index in
        let start = near.flatMap { compositeSeek($0, declared, prefix: prefixes[index], rest: rest) }
        let walker = try RangeWalker(txn, tables.indexEntries, walks[index], forward: forward, start: start)
        // The fields after the equality prefix are the ordered ones (`QueryPlanner.layout`).
        let sortKeyStart = keyed ? prefixes[index].count : nil
        guard let inCollection else {
          let naming = GroupNaming(declared, descending: descending, remembers: remembers)
          return CandidateStream.entries(
            walker, name: { [self] in try groupDocument($0, naming) }, enforced: enforced,
            sortKeyStart: sortKeyStart, names: names)
        }
        return CandidateStream.entries(
          walker, name: inCollection, enforced: enforced, sortKeyStart: sortKeyStart, names: names)
      }
    }
  }

  /// Whether every entry the plan reads (under a whole key) is a match with every
  /// order-by field: its keys prove the filters (`keysProve`), without cursors to check.
  /// (Asked only of plans whose walks, or each range's, are in query order.)
  private func enforces(_ plan: AccessPlan, _ filters: [FieldFilter]) -> Bool {
    query.startAt == nil && query.endAt == nil && keysProve(plan, filters)
  }

  /// Whether the plan's key ranges prove every filter: they are exact keys of each
  /// filter's values (one filter a field), or the bounds of the range filters on the one
  /// field it walks, or the keys between those a `!=` or `not-in` excludes when they leave
  /// out exactly its values (`AccessPlan.excludesExactly`). (`array-contains-any` may meet
  /// a document under several keys.) A key
  /// range holds exactly the values its range filters admit when they are on one field:
  /// the planner bounds each range within its type class, and leaves NaN, which no range
  /// matches, out of number ranges.
  func keysProve(_ plan: AccessPlan, _ filters: [FieldFilter]) -> Bool {
    // A few filters at most: linear checks over the one array cost less than sets of field
    // paths or filtered copies (this runs for every query and count).
    let rangeField = filters.first(where: \.op.isRange)?.field
    for (index, filter) in filters.enumerated() {
      if filter.op.isRange {
        guard filter.field == rangeField else { return false }
      } else if filters[..<index].contains(where: { !$0.op.isRange && $0.field == filter.field }) {
        return false
      }
    }
    let exact = filters.lazy.filter { !$0.op.isRange }
    switch plan.source {
    case .documents: return filters.isEmpty
    case .ids: return false
    // Made only of a conjunction whose every filter is one of its exact keys.
    case .intersection: return true
    case .index(let field, let kind, _, _):
      return exact.allSatisfy { filter in
        guard filter.field == field else { return false }
        guard kind == .value else { return filter.op.isArrayOperator }
        return filter.op == .equal || filter.op == .in
          || ((filter.op == .notEqual || filter.op == .notIn) && plan.excludesExactly)
      }
        && (rangeField == nil
          || (kind == .value && rangeField == field && exact.allSatisfy { $0.op == .notEqual || $0.op == .notIn }))
    case .composite(let index, let layout, _, _):
      let prefixFields = index.definition.fields.dropLast(layout.rest.count)
      return exact.allSatisfy { filter in
        (filter.op == .equal || filter.op == .in || filter.op.isArrayOperator)
          && prefixFields.contains { $0.path == filter.field }
      } && (rangeField == nil || rangeField == layout.rest.first?.path)
    }
  }

  /// The stream's next candidate, or `nil` when it has no more.
  func next(_ stream: CandidateStream) throws -> Candidate? {
    if let candidate = stream.ahead.popLast() { return candidate }
    switch stream.source {
    case .none:
      return nil
    case .ids:
      let (number, path) = stream.collection!
      while stream.nextID < stream.ids.count {
        stream.nextID += 1
        let key = DocumentKey(collection: path, id: stream.ids[stream.nextID - 1])
        if let candidate = try load(key, number: number, enforced: false, names: projection) {
          return candidate
        }
      }
      return nil
    case .intersection:
      let intersection = stream.intersection!
      while true {
        let before = intersection.entriesRead
        let found = try intersection.next()
        statistics.indexEntriesRead += intersection.entriesRead - before
        guard let data = found else { return nil }
        guard let (key, number) = try stream.name!(data),
          let candidate = try load(key, number: number, enforced: stream.enforced, names: stream.names)
        else { continue }
        return candidate
      }
    case .documents:
      guard let (key, bytes) = try stream.walker!.next() else { return nil }
      stream.pages.enter(key.baseAddress)
      guard let id = KeyLayout.documentID(inKey: key) else {
        throw HearthError.dataLoss("A document key in collection \(stream.collection!.path) is not valid UTF-8")
      }
      return try match(
        DocumentKey(collection: stream.collection!.path, id: id), bytes, enforced: stream.enforced,
        names: stream.names)
    case .entries:
      // The walker and the naming closure are used through `stream`: local copies cost a
      // retain and a release each, a document (~130 instructions of a feed's result).
      while true {
        let entry: Cursor.Entry
        if let held = stream.held {
          entry = held
          stream.held = nil
        } else {
          guard let read = try stream.walker!.next() else { return nil }
          statistics.indexEntriesRead += 1
          entry = read
        }
        let cut = FieldIndex.mayBeTruncated(entry.key)
        guard let (key, number) = try stream.name!(entry.value) else { continue }
        // A whole key orders its entry by bytes when the merge compares them: its document
        // is read when the merge takes it, and then needs no order-by fields.
        if !cut, let sortKeyStart = stream.sortKeyStart {
          let ordered = UnsafeRawBufferPointer(rebasing: entry.key[min(sortKeyStart, entry.key.count)...])
          return Candidate(
            document: QueryDocument(key: key, fields: [:]), bytes: UnsafeRawBufferPointer(start: nil, count: 0),
            enforced: stream.enforced, sortKey: SortKey(ordered: ordered, name: entry.value), unread: number)
        }
        if cut {
          guard let candidate = try cutKeyDocuments(stream, entry.key, key, number) else { continue }
          return candidate
        }
        // The stream's projection passed as it is: choosing one into a local would retain it.
        guard let candidate = try load(key, number: number, enforced: stream.enforced, names: stream.names) else {
          continue
        }
        return candidate
      }
    }
  }

  /// The first of the documents whose entries share the cut key `cutKey` (the first named
  /// `key`, in collection `number`), which may stand for several values: all of them are
  /// read and ordered, the rest left in `stream.ahead`. Apart from `next`, whose one read
  /// of a whole key's document stays inlined.
  private func cutKeyDocuments(
    _ stream: CandidateStream, _ cutKey: UnsafeRawBufferPointer, _ key: DocumentKey, _ number: CollectionNumber
  ) throws -> Candidate? {
    guard let candidate = try load(key, number: number, enforced: false, names: projection) else { return nil }
    var group = [candidate]
    while let read = try stream.walker!.next() {
      statistics.indexEntriesRead += 1
      guard read.key.elementsEqual(cutKey) else {
        stream.held = read
        break
      }
      if let (key, number) = try stream.name!(read.value),
        let candidate = try load(key, number: number, enforced: false, names: projection)
      {
        group.append(candidate)
      }
    }
    try group.sort { try walkOrder($1, $0) }
    stream.ahead = group
    return stream.ahead.popLast()
  }

  /// The streams merged in walk order, each document once, checked against the filters,
  /// order-by fields and cursors, up to the limit. A stream is read only when its next
  /// candidate is needed, so a limited query reads no more than it returns, plus one
  /// candidate a stream.
  ///
  /// - Parameters:
  ///   - distinct: no document is in two of the streams (the ranges of a plan that
  ///     `meetsEachDocumentOnce`).
  ///   - sequence: instead of `streams`, streams to read one after another, each made
  ///     when the one before it ends (so that a limit met early makes no more walks):
  ///     they are in walk order (`inNameOrder`), or the caller takes the results in any
  ///     order, and meet no document twice.
  func merge(
    _ streams: [CandidateStream], distinct: Bool, sequence: (() throws -> CandidateStream?)? = nil
  ) throws -> [Candidate] {
    let last = query.limitType == .last
    let near = last ? query.endAt : query.startAt
    let far = last ? query.startAt : query.endAt
    // A lone walk, or walks in sequence, are read straight, without a heap to order them
    // against each other: `alone` is the one being read.
    var alone = try sequence?()
    // One walk meets each document once; several streams, or a whole plan read at once,
    // can meet one twice.
    var mayRepeat =
      (streams.count > 1 && !distinct) || streams.contains(where: \.mayRepeat) || alone?.mayRepeat == true
    let straight = sequence != nil || (streams.count == 1 && !mayRepeat)
    if sequence == nil, straight { alone = streams[0] }
    // Streams with sort keys are the ranges of one plan, walked in one direction.
    let keysForward = streams.first { $0.sortKeyStart != nil }?.walker?.forward ?? true
    // Only merged streams need a heap (its arrays and closure cost a lone walk's query
    // ~2k instructions).
    var heads: CandidateHeap? =
      straight
      ? nil : CandidateHeap(streams: streams.count, keysForward: keysForward) { [self] in try walkOrder($0, $1) }
    if !straight {
      for (index, stream) in streams.enumerated() {
        if let candidate = try next(stream) { try heads!.insert(candidate, stream: index) }
      }
    }
    // An enforced candidate needs no check when nothing is read and no cursor bounds it.
    let provenEnough = reading.isEmpty && far == nil && near == nil
    // The array the last query's results were in, when it handed it back (see
    // `ResultBuffers`). Without a limit, room for a page of results: each doubling moves
    // them all.
    var results = reader.store.resultBuffers.spareArray(of: Candidate.self)
    results.reserveCapacity(min(query.limit ?? 128, 256))
    var previous: DocumentKey?
    var refill: Int?
    while query.limit.map({ results.count < $0 }) ?? true {
      var candidate: Candidate
      if straight {
        guard let stream = alone else { break }
        guard let read = try next(stream) else {
          alone = try sequence?()
          if alone?.mayRepeat == true { mayRepeat = true }
          continue
        }
        candidate = read
      } else {
        if let stream = refill, let read = try next(streams[stream]) { try heads!.insert(read, stream: stream) }
        guard let (read, stream) = try heads!.popFirst() else { break }
        refill = stream
        candidate = read
      }
      // Copies of one document (met under several array elements, or by several
      // conjunctions of an OR) come out of the merge together.
      if mayRepeat {
        guard candidate.document.key != previous else { continue }
        previous = candidate.document.key
      }
      if let number = candidate.unread {
        let names = projection(enforced: candidate.enforced, merged: false)
        guard let read = try load(candidate.document.key, number: number, enforced: candidate.enforced, names: names)
        else { continue }
        candidate = read
      }
      if !candidate.enforced || !provenEnough {
        guard accepts(candidate.document, enforced: candidate.enforced) else { continue }
        if let far, isBeyond(far, candidate.document, isStart: last) { break }
        if let near, isBeyond(near, candidate.document, isStart: !last) { continue }
      }
      // Moved, not copied: a copy would retain and release its key and fields.
      results.append(consume candidate)
    }
    return results
  }

  /// Whether a candidate matches the filters and has every order-by field (unless its
  /// entry proved both) and every field the caller reads.
  private func accepts(_ document: QueryDocument, enforced: Bool) -> Bool {
    (enforced || (order.includes(document) && QueryMatcher.matches(query.filters, document)))
      && reading.allSatisfy({ document.value($0) != nil })
  }

  /// The document a collection-group index entry names, and its collection's number:
  /// the collection is found by the entry's bytes (`CollectionRegistry.collection(named:)`),
  /// so that an entry builds only its ID; when the walk `remembers`, an entry of the
  /// collection its last entry named is known by comparing those bytes.
  private func groupDocument(_ data: UnsafeRawBufferPointer, _ naming: GroupNaming) throws
    -> (DocumentKey, CollectionNumber)?
  {
    try CompositeIndex.withAscendingNames(data, descending: naming.descending) { names in
      if let known = naming.collection, let id = CompositeIndex.plainID(data, names: names, collection: known.names) {
        return (DocumentKey(collection: known.path, id: id), known.number)
      }
      let registry = reader.store.registry
      guard let (collection, id) = CompositeIndex.groupNames(names) else {
        // An escaped zero byte in a segment: decoded whole.
        guard let key = CompositeIndex.documentKey(naming.index, names: names, in: nil),
          let number = try registry.number(ofCollectionOf: key, in: txn)
        else { return nil }
        return (key, number)
      }
      guard let id = UTF8Text.string(id),
        let (path, number) = try registry.collection(
          named: collection, in: txn,
          decoding: { CompositeIndex.documentKey(naming.index, names: names, in: nil)?.collectionPath })
      else { return nil }
      if naming.remembers {
        naming.collection = (UnsafeRawBufferPointer(rebasing: data[..<collection.count]), path, number)
      }
      return (DocumentKey(collection: path, id: id), number)
    }
  }

  /// Reads a document by key in collection `number`; `nil` when it is gone (an index
  /// entry never outlives its document within one snapshot, so this is only defensive).
  private func load(_ key: consuming DocumentKey, number: CollectionNumber, enforced: Bool, names: [[UInt8]]) throws
    -> Candidate?
  {
    let found = try KeyLayout.withDocumentKey(number, key.documentID) { storageKey in
      try documents.map { try $0.seek(exactly: storageKey)?.value } ?? txn.get(storageKey, in: tables.documents)
    }
    guard let bytes = found else { return nil }
    return try match(key, bytes, enforced: enforced, names: names)
  }

  /// A document read: its bytes verified once (before any field is decoded, or when
  /// copied out, see `checksOnCopy`), and the fields `names` decoded (see
  /// `projection(enforced:merged:)`). The key is consumed (moved into the candidate):
  /// a copy retained and released its collection's path and ID, a document.
  private func match(
    _ key: consuming DocumentKey, _ bytes: UnsafeRawBufferPointer, enforced: Bool, names: [[UInt8]]
  ) throws -> Candidate {
    statistics.documentsRead += 1
    let checked = !names.isEmpty || !checksOnCopy
    if checked {
      try DocumentCodec.verify(bytes, key: key)
    } else {
      // Its bytes are next read when copied out, after the rest of the walk: they come
      // in from memory meanwhile instead of stalling the copy.
      prefetch(bytes)
    }
    let fields = try decode(bytes, key, names)
    return Candidate(
      document: QueryDocument(key: key, fields: fields), bytes: bytes, enforced: enforced, checked: checked)
  }

  /// The fields a document read decodes: only those the caller reads when its index entry
  /// vouches for the rest (`enforced`), and then the order-by fields too when `merged`
  /// orders it among other streams' by its fields; otherwise every field the query looks at.
  func projection(enforced: Bool, merged: Bool) -> [[UInt8]] {
    enforced ? (merged ? mergeProjection : readingProjection) : projection
  }

  private func decode(_ bytes: UnsafeRawBufferPointer, _ key: DocumentKey, _ names: [[UInt8]]) throws
    -> [String: Value]
  {
    names.isEmpty ? Dictionary() : try DocumentCodec.decodeFields(bytes, key: key, named: names)
  }

  /// Whether `document` lies past `bound` on the far side (before a start cursor, after
  /// an end cursor) in query order.
  private func isBeyond(_ bound: Bound, _ document: QueryDocument, isStart: Bool) -> Bool {
    let position = order.compare(bound, document)
    return isStart ? (bound.inclusive ? position > 0 : position >= 0) : (bound.inclusive ? position < 0 : position <= 0)
  }
}

/// How a walk of a collection-group index names its entries' documents: the index, the
/// direction its names are stored in (asked once: `namesDescending` looks through the
/// fields, and passing the index itself to each entry's naming copied it, retaining its
/// fields and group name), and, when `remembers`, the collection the walk's last entry
/// named: its names before the document's ID as the entry stores them (in the read
/// transaction's map, valid while the query runs), its path and its number.
private final class GroupNaming {
  let index: DeclaredIndex
  let descending: Bool
  let remembers: Bool
  @exclusivity(unchecked) var collection: (names: UnsafeRawBufferPointer, path: ResourcePath, number: CollectionNumber)?

  init(_ index: DeclaredIndex, descending: Bool, remembers: Bool) {
    self.index = index
    self.descending = descending
    self.remembers = remembers
  }
}
