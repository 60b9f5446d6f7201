import Foundation
import Hearth
import Testing

// Fixtures for the listener suites (`ListenerTests`, `FirestorePortListenerTests`): a
// recorder that keeps every snapshot a listener delivers and lets a test wait for the next
// one with a timeout, or check that none arrives during a short quiet period; and renderings
// of query snapshots (document IDs, changes with their indexes) that compare exactly.

/// How long a test waits for a snapshot it expects.
let listenerEventTimeout: Double = 5

/// How long an async test waits for a stream's snapshots. Longer than
/// `listenerEventTimeout`: the stream's consumer needs one of Swift's cooperative threads,
/// which on a two-core machine other tests' synchronous waits can hold for tens of seconds;
/// the timeout is there to end a hang, not to time the delivery.
let streamTimeout: Double = 120

/// How long a test waits to be sure that no snapshot arrives.
let listenerQuietPeriod: Double = 0.2

/// Settings for a listener test: no fsync per commit, and a fresh private callback queue
/// (or `queue`), so that a slow or stuck callback in one test cannot delay another.
func listenerSettings(queue: DispatchQueue? = nil) -> Settings {
  let settings = Settings()
  settings.durability = .relaxed
  if let queue { settings.dispatchQueue = queue }
  return settings
}

/// Keeps what a listener delivers, in delivery order. `handler` is the listener; `next()`
/// waits for the next snapshot not yet taken; `expectNoMore()` checks that nothing new
/// arrives during a quiet period. Errors and deliveries without a snapshot are kept apart,
/// and `expectNoErrors()` reports them.
final class EventRecorder<Snapshot>: @unchecked Sendable {
  // @unchecked: every stored property is guarded by `condition`.
  private let condition = NSCondition()
  private var snapshots: [Snapshot] = []
  private var errors: [String] = []
  private var emptyDeliveries = 0
  private var taken = 0
  private let describe: (Snapshot) -> String

  init(describe: @escaping (Snapshot) -> String) {
    self.describe = describe
  }

  /// The listener to register.
  var handler: @Sendable (Snapshot?, Error?) -> Void {
    { [self] snapshot, error in record(snapshot, error) }
  }

  func record(_ snapshot: Snapshot?, _ error: Error?) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    if let error { errors.append("\(type(of: error)): \(error)") }
    if let snapshot {
      snapshots.append(snapshot)
    } else if error == nil {
      emptyDeliveries += 1
    }
  }

  /// Every snapshot delivered so far.
  var all: [Snapshot] {
    condition.lock()
    defer { condition.unlock() }
    return snapshots
  }

  /// How many snapshots were delivered so far.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return snapshots.count
  }

  /// Waits (up to `timeout` seconds) for the next snapshot not yet taken, and takes it.
  /// Records an issue and returns nil when none arrives.
  func next(
    _ what: String = "the next snapshot", timeout: Double = listenerEventTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Snapshot? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while snapshots.count <= taken {
      if !condition.wait(until: deadline) && snapshots.count <= taken {
        Issue.record(
          "no snapshot arrived within \(timeout) s while waiting for \(what) (\(taken) taken before)",
          sourceLocation: sourceLocation)
        return nil
      }
    }
    taken += 1
    return snapshots[taken - 1]
  }

  /// Waits until `count` snapshots in all were delivered; false (and an issue) on timeout.
  @discardableResult
  func waitForCount(
    _ count: Int, timeout: Double = listenerEventTimeout, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while snapshots.count < count {
      if !condition.wait(until: deadline) && snapshots.count < count {
        Issue.record(
          "only \(snapshots.count) of \(count) snapshots arrived within \(timeout) s", sourceLocation: sourceLocation)
        return false
      }
    }
    return true
  }

  /// Checks that no snapshot beyond those taken arrives within `seconds` (and none is
  /// waiting already).
  func expectNoMore(
    _ comment: String = "", within seconds: Double = listenerQuietPeriod,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while snapshots.count <= taken && condition.wait(until: deadline) {}
    if snapshots.count > taken {
      let extra = snapshots[taken...].map(describe)
      Issue.record(
        "unexpected snapshot(s) \(comment.isEmpty ? "" : "(\(comment)) ")after the \(taken) expected: \(extra)",
        sourceLocation: sourceLocation)
      taken = snapshots.count
    }
  }

  /// Checks that the listener was never given an error, nor called without a snapshot.
  func expectNoErrors(sourceLocation: SourceLocation = #_sourceLocation) {
    condition.lock()
    defer { condition.unlock() }
    #expect(errors.isEmpty, "the listener was given errors: \(errors)", sourceLocation: sourceLocation)
    #expect(
      emptyDeliveries == 0, "the listener was called \(emptyDeliveries) time(s) with neither snapshot nor error",
      sourceLocation: sourceLocation)
  }
}

typealias QueryRecorder = EventRecorder<QuerySnapshot>
typealias DocumentRecorder = EventRecorder<DocumentSnapshot>
typealias AggregateRecorder = EventRecorder<AggregateQuerySnapshot>

extension EventRecorder where Snapshot == QuerySnapshot {
  convenience init(paths: Bool = false) {
    self.init(describe: { describeSnapshot($0, paths: paths) })
  }
}

extension EventRecorder where Snapshot == DocumentSnapshot {
  convenience init() {
    self.init(describe: describeDocument)
  }
}

extension EventRecorder where Snapshot == AggregateQuerySnapshot {
  convenience init(fields: [AggregateField]) {
    self.init(describe: { describeAggregate($0, fields) })
  }
}

// MARK: - Renderings

/// `UInt(NSNotFound)` as the SDK spells a missing index.
let notFoundIndex = UInt(NSNotFound)

private func index(_ value: UInt) -> String { value == notFoundIndex ? "-" : String(value) }

/// A change as `"added y -/0"`, `"modified a 0/3"`, `"removed c 2/-"` (old/new index).
func describeChange(_ change: DocumentChange, paths: Bool = false) -> String {
  let type: String
  switch change.type {
  case .added: type = "added"
  case .modified: type = "modified"
  case .removed: type = "removed"
  }
  let name = paths ? change.document.reference.path : change.document.documentID
  return "\(type) \(name) \(index(change.oldIndex))/\(index(change.newIndex))"
}

func describeChanges(_ snapshot: QuerySnapshot, paths: Bool = false) -> [String] {
  snapshot.documentChanges.map { describeChange($0, paths: paths) }
}

func describeIDs(_ snapshot: QuerySnapshot, paths: Bool = false) -> [String] {
  snapshot.documents.map { paths ? $0.reference.path : $0.documentID }
}

func describeSnapshot(_ snapshot: QuerySnapshot, paths: Bool = false) -> String {
  "docs \(describeIDs(snapshot, paths: paths)) changes \(describeChanges(snapshot, paths: paths))"
}

func describeDocument(_ snapshot: DocumentSnapshot) -> String {
  snapshot.exists ? "\(snapshot.reference.path) \(canonical(snapshot.data()))" : "\(snapshot.reference.path) missing"
}

func describeAggregate(_ snapshot: AggregateQuerySnapshot, _ fields: [AggregateField]) -> String {
  "count \(snapshot.count) " + fields.map { aggregateValue(snapshot.get($0)) }.joined(separator: " ")
}

/// The documents' data in order, rendered by `canonical`.
func describeData(_ snapshot: QuerySnapshot) -> [String] {
  snapshot.documents.map { canonical($0.data()) }
}

// MARK: - Expectations

/// Checks a query snapshot: its documents (IDs, or full paths with `paths`) in order, and its
/// changes as `describeChange` renders them, in order. Also checks that the metadata says
/// committed, and that every change that is not a removal names the document at its new
/// index. A nil snapshot (a timeout already recorded) is skipped.
func expectSnapshot(
  _ snapshot: QuerySnapshot?, ids: [String], changes: [String], paths: Bool = false, _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let snapshot else { return }
  let prefix = comment.isEmpty ? "" : "\(comment): "
  let foundIDs = describeIDs(snapshot, paths: paths)
  #expect(foundIDs == ids, "\(prefix)documents \(foundIDs), expected \(ids)", sourceLocation: sourceLocation)
  let foundChanges = describeChanges(snapshot, paths: paths)
  #expect(
    foundChanges == changes, "\(prefix)changes \(foundChanges), expected \(changes)", sourceLocation: sourceLocation)
  #expect(snapshot.count == ids.count, "\(prefix)count", sourceLocation: sourceLocation)
  #expect(snapshot.isEmpty == ids.isEmpty, "\(prefix)isEmpty", sourceLocation: sourceLocation)
  #expect(!snapshot.metadata.hasPendingWrites, "\(prefix)hasPendingWrites", sourceLocation: sourceLocation)
  #expect(!snapshot.metadata.isFromCache, "\(prefix)isFromCache", sourceLocation: sourceLocation)
  for change in snapshot.documentChanges where change.newIndex != notFoundIndex {
    let position = Int(change.newIndex)
    guard position < snapshot.documents.count else {
      Issue.record(
        "\(prefix)change \(describeChange(change)) points past the \(snapshot.documents.count) documents",
        sourceLocation: sourceLocation)
      continue
    }
    let atIndex = snapshot.documents[position]
    #expect(
      atIndex.reference.path == change.document.reference.path,
      "\(prefix)change \(describeChange(change)) but the document at that index is \(atIndex.reference.path)",
      sourceLocation: sourceLocation)
    #expect(
      canonical(atIndex.data()) == canonical(change.document.data()),
      "\(prefix)change \(describeChange(change)) carries other data than the document at its index",
      sourceLocation: sourceLocation)
  }
}

/// Checks a document snapshot: missing when `data` is nil, else existing with exactly `data`.
func expectDocument(
  _ snapshot: DocumentSnapshot?, path: String, data: [String: Any]?, _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let snapshot else { return }
  let prefix = comment.isEmpty ? "" : "\(comment): "
  #expect(snapshot.reference.path == path, "\(prefix)path", sourceLocation: sourceLocation)
  #expect(
    snapshot.exists == (data != nil), "\(prefix)exists is \(snapshot.exists): \(describeDocument(snapshot))",
    sourceLocation: sourceLocation)
  expectSame(snapshot.data(), data, "\(prefix)data", sourceLocation: sourceLocation)
  #expect(!snapshot.metadata.hasPendingWrites, "\(prefix)hasPendingWrites", sourceLocation: sourceLocation)
  #expect(!snapshot.metadata.isFromCache, "\(prefix)isFromCache", sourceLocation: sourceLocation)
}

/// Waits up to `timeout` seconds for `condition`, polling; false when it never held.
func waitUntil(timeout: Double = listenerEventTimeout, _ condition: () -> Bool) -> Bool {
  let deadline = Date(timeIntervalSinceNow: timeout)
  while !condition() {
    if Date() > deadline { return false }
    usleep(500)
  }
  return true
}

/// A zero-padded document ID, so that ID order is numeric order.
func paddedID(_ prefix: String, _ number: Int) -> String {
  prefix + String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
}
