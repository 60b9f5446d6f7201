import Synchronization

/// The plans that queries and counts chose by their shape alone, kept so that the next
/// run of that shape builds only the chosen plan (its key ranges, from its own values)
/// instead of every candidate: a count of 50 distinct keys spent 63k instructions planning
/// and 21k counting; a collection-group query for 20 posts spent 9k of its 130k choosing
/// its one index among the group's, and spends 6.5k with the choice kept.
///
/// A count takes the one candidate whose keys alone answer it, when there is one
/// (`QueryExecution.countFromIndexes`); a query takes a declared index that serves it in
/// order under a limit, or the only candidate of a collection group. Which those are
/// depends on the shape alone, so the choice is kept (counts' apart from queries': a count
/// prefers plans a query of its shape may not). When several fit, the planner weighs
/// estimates (entries counted or sampled), which depend on the data: that choice is made
/// afresh every time.
///
/// The shape holds everything the choice depends on: the collection ID and scope
/// (indexes and field overrides are declared by collection ID), each filter's field,
/// operator and whether its value can match (an `array-contains` of null finds nothing),
/// the whole order (with the implicit order-bys), and whether there is a limit. Filters
/// on `__name__` and, on a collection, those with value lists (`in`, `not-in`,
/// `array-contains-any`) make plans whose form depends on their values (how many IDs fall
/// in the collection, how many distinct keys a list gives, and so whether a declared
/// index reads them in order), and are not cached. A collection group's candidates are
/// its declared indexes alone, each fitting by shape (`QueryPlanner.CompositeLayout`):
/// a list there gives only the key prefixes, which every run builds from its own values,
/// so its choice is kept (a group query for an `in` of 5 owners: 221.7k → 217.1k
/// instructions). A plan built from a kept choice is still checked: the candidate must
/// fit the run's values (else the plan is chosen afresh), a count still checks that the
/// plan's keys answer it, and every plan finds a superset of the matches, so a choice
/// could only ever cost a run its speed, never its result. Choices belong to one version
/// of the index catalog, and are only learnt in read-only transactions, which see
/// committed catalogs alone: a write transaction's catalog may be rolled back and its
/// version number given to another.
final class PlanCache: Sendable {
  struct Shape: Hashable {
    var collectionID: String
    var scope: IndexDefinition.Scope
    var limited: Bool
    /// Counts prefer plans whose keys answer them; queries may choose another.
    var counting: Bool
    var order: [OrderBy]
    var filters: [Filter]

    struct Filter: Hashable {
      var field: FieldPath
      var op: FilterOperator
      var matchable: Bool
    }

    /// Hashes lengths and flags, not the names' text: hashing every field name cost a
    /// look-up ~3k instructions, and the few shapes an app runs rarely share all of these
    /// (equality still compares everything).
    func hash(into hasher: inout Hasher) {
      hasher.combine(collectionID.utf8.count)
      hasher.combine(scope == .collection)
      hasher.combine(limited)
      hasher.combine(counting)
      for orderBy in order {
        hasher.combine(orderBy.field.segments.last?.utf8.count ?? 0)
        hasher.combine(orderBy.descending)
      }
      for filter in filters {
        hasher.combine(filter.field.segments.last?.utf8.count ?? 0)
        hasher.combine(filter.op)
        hasher.combine(filter.matchable)
      }
    }

    /// The shape of a conjunction, or `nil` when its plans depend on more than the shape.
    init?(
      _ filters: [FieldFilter], collectionID: String, scope: IndexDefinition.Scope, order: [OrderBy], limited: Bool,
      counting: Bool
    ) {
      let valueShaped = filters.contains { filter in
        filter.field.isDocumentID
          || (scope == .collection && (filter.op == .in || filter.op == .notIn || filter.op == .arrayContainsAny))
      }
      guard !valueShaped else { return nil }
      self.collectionID = collectionID
      self.scope = scope
      self.limited = limited
      self.counting = counting
      self.order = order
      self.filters = filters.map {
        Filter(field: $0.field, op: $0.op, matchable: QueryMatcher.isMatchable($0.value))
      }
    }
  }

  /// Which candidate a plan was (`QueryPlanner` builds it again from a query's values).
  enum Choice: Sendable {
    /// A declared index, with how it fits the shape.
    case composite(DeclaredIndex, QueryPlanner.CompositeLayout)
    /// The single-field value index of a filtered field.
    case value(FieldPath)
    case arrayElements(FieldPath)
    /// The value index of the first order-by field, which no filter is on.
    case order
    case documents
  }

  /// Shapes kept at most; past it the cache starts again (apps run a few dozen shapes).
  static let capacity = 1024

  private let state = Mutex(State())

  private struct State {
    var version: UInt64 = 0
    var choices: [Shape: Choice] = [:]
  }

  init() {}

  /// The choice for `shape` under the index catalog `version`, if one is known.
  func choice(_ shape: Shape, version: UInt64) -> Choice? {
    state.withLock { $0.version == version ? $0.choices[shape] : nil }
  }

  /// Keeps the choice for `shape` under the index catalog `version`, forgetting those of
  /// other versions.
  func remember(_ choice: Choice, for shape: Shape, version: UInt64) {
    state.withLock { state in
      if state.version != version || state.choices.count >= Self.capacity {
        state.version = version
        state.choices.removeAll(keepingCapacity: true)
      }
      state.choices[shape] = choice
    }
  }
}

extension DocumentStore {
  /// The plans this store's queries and counts chose by shape, made at the first run.
  var planCache: PlanCache {
    planCacheSlot.withLock { slot in
      if let cache = slot as? PlanCache { return cache }
      let cache = PlanCache()
      slot = cache
      return cache
    }
  }
}
