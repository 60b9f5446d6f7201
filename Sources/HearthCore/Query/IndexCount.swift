import HearthStorage

/// Counts answered from index keys alone, without reading a document: when the one plan
/// of every collection read holds exactly the query's results as entries (its key ranges
/// enforce every filter and order-by field), the count is the number of entries in those
/// ranges.
///
/// The entries under one key (one value of the indexed fields) are LMDB duplicates, and
/// LMDB keeps their number with the key (`mdb_cursor_count`), so a count visits one entry
/// per distinct key, not one per document: `published == true` over 100,000 documents is
/// one seek, and `likes >= 500` one step per distinct number of likes. `explain()` counts
/// the keys visited as the index entries read.
extension QueryExecution {
  /// The number of results, or `nil` when some plan needs the documents (an `or`, a
  /// cursor, a filter the keys cannot prove, a key cut at LMDB's length limit at a bound
  /// of its range).
  func countFromIndexes(requireIndexes: Bool) throws -> Int? {
    guard query.startAt == nil, query.endAt == nil else { return nil }
    let reads = try plans(requireIndexes: requireIndexes) { [self] in coveringRanges($0, $1) != nil }
    guard reads.count == 1, let conjunction = conjunctions.first else { return nil }
    var total = 0
    var documents: Cursor?
    var entries: Cursor?
    for (plan, _) in reads[0] {
      if case .intersection(_, let keys) = plan.source {
        total += try countIntersection(keys, upTo: query.limit.map { $0 - total })
        if let limit = query.limit, total >= limit { break }
        continue
      }
      guard let ranges = coveringRanges(plan, conjunction) else { return nil }
      let cursor: Cursor
      if case .documents = plan.source {
        cursor = try documents ?? txn.cursor(tables.documents)
        documents = cursor
      } else {
        cursor = try entries ?? txn.cursor(tables.indexEntries)
        entries = cursor
      }
      // An `in` listing one value twice (`1` and `1.0`) gives one key range twice.
      var counted: [KeyRange] = []
      for range in ranges where !range.isEmpty && !counted.contains(range) {
        counted.append(range)
        let remaining = query.limit.map { $0 - total }
        guard let count = try countEntries(cursor, range, upTo: remaining) else { return nil }
        total += count
      }
      if let limit = query.limit, total >= limit { break }
    }
    describe(reads)
    if !statistics.plan.isEmpty { statistics.plan += ", counted from its keys" }
    let count = query.limit.map { min($0, total) } ?? total
    statistics.resultsReturned = count
    return count
  }

  /// The entries in `range`, one step per distinct key, stopping at `limit`.
  ///
  /// A key cut at the length limit stands for every value whose key starts with it: all
  /// inside the range, unless the cut key is a prefix of one of the range's bounds (then
  /// `nil`: the documents must be read).
  private func countEntries(_ cursor: Cursor, _ range: KeyRange, upTo limit: Int?) throws -> Int? {
    let distinct = cursor.table.isDuplicateSorted
    var entry = try cursor.seek(atLeast: range.lower)
    if !range.lowerInclusive, let (key, _) = entry, key.elementsEqual(range.lower) {
      entry = try distinct ? cursor.nextKey() : cursor.next()
    }
    var count = 0
    while let (key, _) = entry {
      let counted = try range.upper.withUnsafeBytes { upper in
        try cursor.countEntries(
          from: key, below: upper, inclusive: range.upperInclusive, limit: limit.map { $0 - count } ?? .max,
          stopLength: distinct ? FieldIndex.maxKeyBytes : .max)
      }
      count += counted.entries
      statistics.indexEntriesRead += counted.keys
      guard let cut = counted.stoppedAt else { break }
      // A cut key inside the range: its values lie beyond a bound it is a prefix of.
      guard !range.lower.starts(with: cut), !range.upper.starts(with: cut) else { return nil }
      statistics.indexEntriesRead += 1
      count += try cursor.duplicateCount()
      if let limit, count >= limit { break }
      entry = try cursor.nextKey()
    }
    return count
  }

  /// The plan's ranges when its entries are exactly the results, each document once: its
  /// keys prove every filter (`keysProve`; NaN is left out of number ranges), none is an
  /// `array-contains-any`, and it orders by nothing a document could lack beyond the
  /// indexed fields.
  private func coveringRanges(_ plan: AccessPlan, _ filters: [FieldFilter]) -> [KeyRange]? {
    guard keysProve(plan, filters), !filters.contains(where: { $0.op == .arrayContainsAny }) else { return nil }
    let ordered = order.orderBys.dropLast()
    switch plan.source {
    case .documents, .ids:
      guard ordered.isEmpty else { return nil }
    case .index(let field, _, _, _):
      guard ordered.allSatisfy({ $0.field == field }) else { return nil }
    case .composite:
      // The index's fields past its equality prefix are the order-by fields
      // (`QueryPlanner.layout`).
      break
    case .intersection:
      // Counted by `countIntersection`: its keys' entries are not the results.
      return nil
    }
    return plan.ranges
  }

  /// The documents under every one of `keys`, up to `limit` (`KeyIntersection`).
  private func countIntersection(_ keys: [[UInt8]], upTo limit: Int?) throws -> Int {
    let intersection = try KeyIntersection(txn, tables.indexEntries, keys: keys, forward: true)
    var count = 0
    while limit.map({ count < $0 }) ?? true, try intersection.next() != nil { count += 1 }
    statistics.indexEntriesRead += intersection.entriesRead
    return count
  }
}

/// What an average's walk of its field's keys found: the entries (documents with the
/// field), and the numbers among them with their exact sum (`ExactSum`).
struct KeyedAverage {
  var entries = 0
  var numbers = 0
  var sum = ExactSum()
}

extension QueryExecution {
  /// The entries, numbers and their sum that an average of `field` (with counts beside
  /// it) aggregates, read from the keys of `field`'s value index alone, or `nil` when the
  /// documents must be read: the one plan of each collection is that index, its keys
  /// prove every filter (`coveringRanges`), and the query has no limit or cursor. Each
  /// distinct key is read once: a number's key holds its exact value (`KeyCodec.double
  /// (numberKey:)`), added as many times as the key has entries. (A sum is not taken so:
  /// its type depends on whether any value is a double, which keys do not keep.)
  func averageFromIndexes(of field: FieldPath, requireIndexes: Bool) throws -> KeyedAverage? {
    // Only filters on the field itself can be proven by its keys: any other is known
    // before planning (which the documents' path would then do again).
    guard query.startAt == nil, query.endAt == nil, query.limit == nil, conjunctions.count == 1,
      conjunctions[0].allSatisfy({ $0.field == field })
    else { return nil }
    let reads = try plans(requireIndexes: requireIndexes) { [self] plan, filters in
      Self.isValueIndex(plan, on: field) && coveringRanges(plan, filters) != nil
    }
    let conjunction = conjunctions[0]
    var found = KeyedAverage()
    var cursor: Cursor?
    for (plan, _) in reads[0] {
      guard Self.isValueIndex(plan, on: field), case .index(_, _, let prefix, _) = plan.source,
        let ranges = coveringRanges(plan, conjunction)
      else { return nil }
      let entries = try cursor ?? txn.cursor(tables.indexEntries)
      cursor = entries
      for range in ranges where !range.isEmpty {
        guard try average(entries, range, after: prefix.count, into: &found) else { return nil }
      }
    }
    describe(reads)
    if !statistics.plan.isEmpty { statistics.plan += ", averaged from its keys" }
    statistics.resultsReturned = found.entries
    return found
  }

  private static func isValueIndex(_ plan: AccessPlan, on field: FieldPath) -> Bool {
    if case .index(field, .value, _, _) = plan.source { return true }
    return false
  }

  /// Adds the entries of `range` (keys of one value index whose prefix is `prefixLength`
  /// bytes) to `found`, one step a distinct key; `false` when a key cut at the length limit
  /// is a prefix of a bound (its values may lie outside the range).
  private func average(_ cursor: Cursor, _ range: KeyRange, after prefixLength: Int, into found: inout KeyedAverage)
    throws -> Bool
  {
    var entry = try cursor.seek(atLeast: range.lower)
    if !range.lowerInclusive, let (key, _) = entry, key.elementsEqual(range.lower) { entry = try cursor.nextKey() }
    while let (key, _) = entry, range.isBelowUpper(key) {
      if FieldIndex.mayBeTruncated(key), range.lower.starts(with: key) || range.upper.starts(with: key) { return false }
      let count = try cursor.duplicateCount()
      statistics.indexEntriesRead += 1
      found.entries += count
      if key.count > prefixLength, key[prefixLength] == KeyCodec.Label.number.rawValue {
        guard let number = KeyCodec.double(numberKey: UnsafeRawBufferPointer(rebasing: key[(prefixLength + 1)...]))
        else { return false }
        found.numbers += count
        found.sum.add(number, times: count)
      }
      entry = try cursor.nextKey()
    }
    return true
  }
}
