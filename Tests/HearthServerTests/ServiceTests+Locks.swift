import Foundation
import HearthCore
import Testing

@testable import HearthServer

/// The locks of read-write transactions (`ServerTransactions`): shared for reads, a
/// query's on its whole collection or group, exclusive for writes, settled by age
/// (wound-wait), as Firestore's and Google's emulator's are.
extension ServiceTests {
  func begin(_ service: FirestoreService) throws -> Data {
    try service.beginTransaction(FirestoreV1.BeginTransactionRequest(database: Self.database, options: nil))
      .transaction
  }

  func get(_ service: FirestoreService, _ path: String, in transaction: Data) throws -> Value? {
    let response = try service.batchGetDocuments(
      FirestoreV1.BatchGetDocumentsRequest(
        database: Self.database, documents: [try key(path)], consistency: .transaction(transaction)))
    guard case .found(let document)? = response.first?.result else { return nil }
    return document.fields["n"]
  }

  func set(_ path: String, _ n: Int64) throws -> Write {
    Write(key: try key(path), kind: .set(["n": .integer(n)]))
  }

  /// Runs `body` on a thread of its own; the signal fires when it has returned.
  func detached(_ body: @escaping @Sendable () throws -> Void) -> Signal {
    let done = Signal()
    Thread.detachNewThread {
      try? body()
      done.fire()
    }
    return done
  }

  @Test func transactionsReadOneDocumentAtOnceAndAYoungerWriterWaitsForTheOlderReader() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: older) == .integer(1))
      #expect(try get(service, "c/a", in: younger) == .integer(1), "a read does not wait for another reader")
      let committed = detached { _ = try commit(service, [try set("c/a", 2)], transaction: younger) }
      #expect(!committed.wait(seconds: 0.3), "the younger one's write waits while the older one holds its read")
      // The older one writes something else: the younger one's write then follows it.
      _ = try commit(service, [try set("c/b", 1)], transaction: older)
      #expect(committed.wait(seconds: 20))
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(2))
    }
  }

  @Test func aWaitForAnOlderTransactionGivesUpAtTheLockTimeout() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: older) == .integer(1))
      #expect(try get(service, "c/a", in: younger) == .integer(1))
      let refused = try #require(throws: HearthError.self) {
        try commit(service, [try set("c/a", 2)], transaction: younger)
      }
      #expect(refused.code == .aborted && refused.message.hasPrefix("Transaction lock timeout"))
      _ = try commit(service, [try set("c/a", 3)], transaction: older)
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(3))
    }
  }

  @Test func anOlderTransactionWoundsAYoungerReaderOfWhatItWrites() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: younger) == .integer(1))
      #expect(try get(service, "c/a", in: older) == .integer(1))
      // Its grace is 0 here: the older one's write takes the document from the younger one.
      _ = try commit(service, [try set("c/a", 2)], transaction: older)
      let aborted = try #require(throws: HearthError.self) {
        try commit(service, [try set("c/a", 5)], transaction: younger)
      }
      #expect(aborted.code == .aborted)
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(2))
      // The retry keeps the wounded one's age: it is now the oldest.
      let retry = try service.beginTransaction(
        FirestoreV1.BeginTransactionRequest(
          database: Self.database, options: FirestoreV1.TransactionOptions(mode: .readWrite(retryTransaction: younger)))
      ).transaction
      let newer = try begin(service)
      #expect(try get(service, "c/a", in: newer) == .integer(2))
      #expect(try get(service, "c/a", in: retry) == .integer(2))
      _ = try commit(service, [try set("c/a", 3)], transaction: retry)
      #expect(throws: HearthError.self) { try commit(service, [], transaction: newer) }
      // A retry of a transaction never begun is refused, as Google's emulator refuses it.
      let unknown = try #require(throws: HearthError.self) {
        try service.beginTransaction(
          FirestoreV1.BeginTransactionRequest(
            database: Self.database,
            options: FirestoreV1.TransactionOptions(mode: .readWrite(retryTransaction: Data("never".utf8)))))
      }
      #expect(unknown.code == .invalidArgument)
      #expect(unknown.message == "Invalid transaction.")
    }
  }

  @Test func anOlderTransactionLetsAYoungerReaderCommitWithinTheGrace() throws {
    try withService(woundGrace: .seconds(60)) { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: younger) == .integer(1))
      #expect(try get(service, "c/a", in: older) == .integer(1))
      let committed = detached { _ = try commit(service, [try set("c/a", 6)], transaction: older) }
      #expect(!committed.wait(seconds: 0.3), "the older one's write waits for the younger reader")
      _ = try commit(service, [try set("c/b", 5)], transaction: younger)
      #expect(committed.wait(seconds: 20), "which committed instead of being aborted")
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(6))
      #expect(try get(service, "c/b", in: try begin(service)) == .integer(5))
    }
  }

  @Test func anOlderTransactionWoundsAWaitingYoungerHolderAtOnce() throws {
    // A grace longer than the test: only the younger one's wait can end the older one's.
    try withService(woundGrace: .seconds(600)) { service in
      _ = try commit(service, [try set("c/a", 1), try set("c/b", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: older) == .integer(1))
      #expect(try get(service, "c/b", in: younger) == .integer(1))
      let olderCommitted = detached { _ = try commit(service, [try set("c/b", 2)], transaction: older) }
      #expect(!olderCommitted.wait(seconds: 0.3), "the older one gives the younger one its grace")
      // The younger one now waits for the older one's document: a cycle, which the
      // older one breaks by wounding it.
      let aborted = try #require(throws: HearthError.self) {
        try commit(service, [try set("c/a", 7)], transaction: younger)
      }
      #expect(aborted.code == .aborted)
      #expect(olderCommitted.wait(seconds: 20))
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(1))
      #expect(try get(service, "c/b", in: try begin(service)) == .integer(2))
    }
  }

  @Test func aWriteOutsideTransactionsWaitsForTheirLocks() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let transaction = try begin(service)
      #expect(try get(service, "c/a", in: transaction) == .integer(1))
      let written = detached { _ = try commit(service, [try set("c/a", 9)]) }
      #expect(!written.wait(seconds: 0.3), "the plain write waits for the transaction")
      _ = try commit(service, [try set("c/a", 2)], transaction: transaction)
      #expect(written.wait(seconds: 20))
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(9), "and lands after it")
    }
  }

  /// A plain write that waits for a transaction's lock past Google's emulator's lock
  /// timeout (2 s) fails with ABORTED, and writes nothing; the transaction goes on.
  @Test func aWriteOutsideTransactionsGivesUpAtTheLockTimeout() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let transaction = try begin(service)
      #expect(try get(service, "c/a", in: transaction) == .integer(1))
      let refused = try #require(throws: HearthError.self) { try commit(service, [try set("c/a", 9)]) }
      #expect(refused.code == .aborted && refused.message.hasPrefix("Transaction lock timeout"))
      _ = try commit(service, [try set("c/a", 2)], transaction: transaction)
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(2))
    }
  }

  /// Google's emulator locks a transaction's query's whole collection, whatever its
  /// filters: a write into it waits (an insert, an update of a document the query did
  /// not return, a delete), and writes beside it do not.
  @Test func aQueryInATransactionLocksItsCollection() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1), try set("c/b", 7)])
      let transaction = try begin(service)
      let none = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database,
          query: query(
            "c", filters: [.field(FieldFilter(field: FieldPath(["n"]), op: .greaterThan, value: .integer(9)))]),
          consistency: .transaction(transaction)))
      #expect(names(none).isEmpty)
      _ = try commit(service, [try set("other/x", 1), try set("c/a/sub/x", 1)])
      let waits = [try set("c/new", 99), try set("c/b", 8), Write(key: try key("c/a"), kind: .delete)].map { write in
        detached { _ = try commit(service, [write]) }
      }
      for waited in waits { #expect(!waited.wait(seconds: 0.2), "writes into the collection wait for the query") }
      // Another transaction reads the collection meanwhile; the query's own
      // transaction writes into it, and its end lets the others write.
      let other = try begin(service)
      #expect(try get(service, "c/b", in: other) == .integer(7))
      _ = try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: other))
      _ = try commit(service, [try set("c/summary", 0)], transaction: transaction)
      for waited in waits { #expect(waited.wait(seconds: 20)) }
      let now = try begin(service)
      #expect(try get(service, "c/new", in: now) == .integer(99))
      #expect(try get(service, "c/b", in: now) == .integer(8))
      #expect(try get(service, "c/a", in: now) == nil)
    }
  }

  @Test func aGroupQueryOrACountInATransactionLocksWhatItReads() throws {
    try withService { service in
      _ = try commit(service, [try set("a/b/c/x", 1), try set("c/y", 2)])
      let grouped = try begin(service)
      let found = try service.runQuery(
        FirestoreV1.RunQueryRequest(
          database: Self.database, query: query("c", group: true), consistency: .transaction(grouped)))
      #expect(names(found) == ["a/b/c/x", "c/y"])
      let deep = detached { _ = try commit(service, [try set("p/q/r/s/c/z", 3)]) }
      #expect(!deep.wait(seconds: 0.2), "a write into any collection of the group waits")
      _ = try commit(service, [try set("a/b/d/x", 1)])
      _ = try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: grouped))
      #expect(deep.wait(seconds: 20), "until the transaction ends")

      let counting = try begin(service)
      let counted = try service.runAggregationQuery(
        FirestoreV1.RunAggregationQueryRequest(
          database: Self.database,
          query: FirestoreV1.StructuredAggregationQuery(
            query: query("c"), aggregations: [FirestoreV1.Aggregation(function: .count, alias: "n")]),
          consistency: .transaction(counting)))
      #expect(counted.first?.result?["n"] == .integer(1))
      let insert = detached { _ = try commit(service, [try set("c/new", 4)]) }
      #expect(!insert.wait(seconds: 0.2), "a count's collection is locked as a query's")
      _ = try commit(service, [try set("c/count", 1)], transaction: counting)
      #expect(insert.wait(seconds: 20))
      #expect(try get(service, "c/new", in: try begin(service)) == .integer(4))
    }
  }

  @Test func anOlderTransactionWoundsAYoungerOneWhoseQueryItWritesInto() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let younger = try begin(service)
      #expect(
        names(
          try service.runQuery(
            FirestoreV1.RunQueryRequest(database: Self.database, query: query("c"), consistency: .transaction(younger)))
        )
          == ["c/a"])
      _ = try commit(service, [try set("c/new", 1)], transaction: older)
      let aborted = try #require(throws: HearthError.self) {
        try commit(service, [try set("c/count", 1)], transaction: younger)
      }
      #expect(aborted.code == .aborted)
    }
  }

  /// A retry of an aborted transaction, keeping its age.
  func retry(_ service: FirestoreService) throws -> Data {
    let aborted = try begin(service)
    _ = try service.rollback(FirestoreV1.RollbackRequest(database: Self.database, transaction: aborted))
    return try service.beginTransaction(
      FirestoreV1.BeginTransactionRequest(
        database: Self.database, options: FirestoreV1.TransactionOptions(mode: .readWrite(retryTransaction: aborted)))
    ).transaction
  }

  /// A retry reads for update: no other transaction reads the document meanwhile, so
  /// that transactions a hot document aborted once then take turns instead of aborting
  /// one another again, and new ones read after them; a freed lock goes to the oldest
  /// waiter (eight clients incrementing one counter all finish within their five
  /// attempts; with retries sharing with readers, under load one sometimes did not).
  @Test func aRetryReadsForUpdateSoRetriesAndNewTransactionsTakeTurns() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let first = try retry(service)
      let second = try retry(service)
      #expect(try get(service, "c/a", in: first) == .integer(1))
      let fresh = try begin(service)
      let freshSeen = Box<Value?>(nil)
      let freshRead = detached { freshSeen.value = try get(service, "c/a", in: fresh) }
      #expect(!freshRead.wait(seconds: 0.3), "a new transaction's read waits for the retry")
      let secondSeen = Box<Value?>(nil)
      let secondRead = detached { secondSeen.value = try get(service, "c/a", in: second) }
      #expect(!secondRead.wait(seconds: 0.3), "the second retry waits for the first")
      _ = try commit(service, [try set("c/a", 2)], transaction: first)
      #expect(secondRead.wait(seconds: 20), "the older waiter reads first")
      #expect(secondSeen.value == .integer(2), "what the first committed")
      #expect(!freshRead.wait(seconds: 0.3), "while the younger one waits on")
      _ = try commit(service, [try set("c/a", 3)], transaction: second)
      #expect(freshRead.wait(seconds: 20))
      #expect(freshSeen.value == .integer(3))
      _ = try commit(service, [try set("c/a", 4)], transaction: fresh)
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(4), "no one was aborted")
    }
  }

  /// A transaction that holds a document's lock reads it again, and commits its write,
  /// at once, though an older one waits for the lock (the waiter waits for it, and would
  /// wound it only after its grace).
  @Test func aHolderReadsAndWritesBeforeAnOlderWaiter() throws {
    try withService(woundGrace: .seconds(60)) { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try begin(service)
      let holder = try retry(service)
      #expect(try get(service, "c/a", in: holder) == .integer(1))
      let seen = Box<Value?>(nil)
      let olderRead = detached { seen.value = try get(service, "c/a", in: older) }
      #expect(!olderRead.wait(seconds: 0.3), "the older one waits for the retry's lock")
      #expect(try get(service, "c/a", in: holder) == .integer(1))
      _ = try commit(service, [try set("c/a", 2)], transaction: holder)
      #expect(olderRead.wait(seconds: 20))
      #expect(seen.value == .integer(2))
    }
  }

  /// A read whose lock does not come within the lock timeout (2 s) still answers, and its
  /// transaction aborts at its commit, which clients retry (a read's ABORTED they do not).
  @Test func aReadThatOutwaitsTheLockTimeoutAbortsItsCommit() throws {
    try withService { service in
      _ = try commit(service, [try set("c/a", 1)])
      let older = try retry(service)
      #expect(try get(service, "c/a", in: older) == .integer(1))
      let younger = try begin(service)
      #expect(try get(service, "c/a", in: younger) == .integer(1))
      let aborted = try #require(throws: HearthError.self) {
        try commit(service, [try set("c/b", 1)], transaction: younger)
      }
      #expect(aborted.code == .aborted)
      #expect(aborted.message == "Transaction lock timeout: c/a stayed locked by another transaction")
      _ = try commit(service, [try set("c/a", 2)], transaction: older)
      #expect(try get(service, "c/a", in: try begin(service)) == .integer(2))
      #expect(try get(service, "c/b", in: try begin(service)) == nil, "the aborted commit wrote nothing")
    }
  }

  /// A value set on one thread and read on another after a `Signal`.
  final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
  }

  /// A one-shot event between threads.
  final class Signal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func fire() { semaphore.signal() }
    func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
  }
}
