import CLMDB
import Dispatch
import Foundation
import Testing

@testable import HearthStorage

/// Group commit (Environment+GroupCommit.swift): durable writes of several threads share
/// one transaction, each fails alone, and each returns only after the shared commit.
/// Groups of a known size are made with `holdNextGroup(untilQueued:)`, never by timing.
@Suite struct GroupCommitTests {
  /// Runs `body(thread)` on `count` threads of their own, at once, and waits for them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<count {
      group.enter()
      Thread.detachNewThread {
        body(thread)
        group.leave()
      }
    }
    group.wait()
  }

  struct Refused: Error {}

  @Test func eightWritersHeldTogetherShareOneTransaction() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let before = environment.lastTransactionID()
      let (groupsBefore, requestsBefore) = environment.groupCommits
      let order = Locked<[Int]>([])
      let failures = Locked<[String]>([])
      environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        do {
          let id = try environment.groupedWrite(
            afterCommit: { (id: Int) in
              // After the commit: a new read sees this request's write.
              let seen = try? environment.read { txn throws in try txn.get(bytes("k\(thread)"), in: table) != nil }
              if seen != true { failures.withLock { $0.append("k\(thread) not readable in afterCommit") } }
              order.withLock { $0.append(thread) }
              _ = id
            }
          ) { txn in
            try txn.put(bytes("k\(thread)"), bytes("v\(thread)"), in: table)
            return txn.id
          }
          if id != before + 1 { failures.withLock { $0.append("thread \(thread) committed in transaction \(id)") } }
        } catch {
          failures.withLock { $0.append("thread \(thread): \(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
      // Eight commits, one LMDB transaction.
      #expect(environment.lastTransactionID() == before + 1)
      let (groups, requests) = environment.groupCommits
      #expect(groups - groupsBefore == 1)
      #expect(requests - requestsBefore == 8)
      #expect(Set(order.withLock { $0 }) == Set(0..<8))
      try environment.read { txn throws in
        #expect(try txn.count(table) == 8)
        for thread in 0..<8 { #expect(try txn.get(bytes("k\(thread)"), in: table) != nil) }
      }
    }
  }

  /// The bodies of a group run in queue order and their `afterCommit`s in the same
  /// order: each body sees the writes of those before it.
  @Test func bodiesSeeTheRequestsBeforeThemAndAfterCommitsKeepTheirOrder() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let ran = Locked<[Int]>([])
      let acknowledged = Locked<[Int]>([])
      environment.holdNextGroup(untilQueued: 6)
      Self.onThreads(6) { thread in
        _ = try? environment.groupedWrite(afterCommit: { (count: Int) in acknowledged.withLock { $0.append(count) } }) {
          txn in
          // A counter each request increments: the value it finds is how many ran before.
          let found = try txn.get(bytes("counter"), in: table).map { Int(String(decoding: $0, as: UTF8.self))! } ?? 0
          try txn.put(bytes("counter"), bytes("\(found + 1)"), in: table)
          ran.withLock { $0.append(found) }
          return found
        }
      }
      #expect(ran.withLock { $0 } == Array(0..<6))
      #expect(acknowledged.withLock { $0 } == Array(0..<6))
      try environment.read { txn throws in
        #expect(try txn.get(bytes("counter"), in: table).map { Array($0) } == bytes("6"))
      }
    }
  }

  @Test func aRequestThatThrowsFailsAloneAndChangesNothing() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let before = environment.lastTransactionID()
      let outcomes = Locked<[Int: Bool]>([:])
      environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        do {
          try environment.groupedWrite { txn in
            try txn.put(bytes("k\(thread)"), bytes("v"), in: table)
            try txn.put(bytes("shared"), bytes("\(thread)"), in: table)
            // Two of them refuse after writing.
            if thread % 4 == 1 { throw Refused() }
          }
          outcomes.withLock { $0[thread] = true }
        } catch is Refused {
          outcomes.withLock { $0[thread] = false }
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      let refused = [1, 5]
      #expect(outcomes.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, !refused.contains($0)) }))
      // The group ran again without each refused request: still one commit.
      #expect(environment.lastTransactionID() == before + 1)
      try environment.read { txn throws in
        for thread in 0..<8 {
          #expect((try txn.get(bytes("k\(thread)"), in: table) != nil) == !refused.contains(thread))
        }
        let last = try #require(try txn.get(bytes("shared"), in: table)).map { $0 }
        #expect(!refused.map { bytes("\($0)") }.contains(last))
        #expect(try txn.count(table) == 7)
      }
    }
  }

  /// A request whose `endsGroup` is true is the last of its group: eight held requests
  /// that all end their groups commit in eight transactions.
  @Test func aRequestThatEndsItsGroupIsItsLast() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let before = environment.lastTransactionID()
      environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        do {
          try environment.groupedWrite(endsGroup: { true }) { txn in
            try txn.put(bytes("k\(thread)"), bytes("v"), in: table)
          }
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      #expect(environment.lastTransactionID() == before + 8)
      try environment.read { txn throws in #expect(try txn.count(table) == 8) }
    }
  }

  @Test func aGroupThatOutgrowsTheMapGrowsItAndCommits() throws {
    let directory = TemporaryDirectory()
    var options = Environment.Options()
    options.initialMapSize = 1 << 20
    try withEnvironment(at: directory.path, options: options) { environment in
      let table = try environment.table("t")
      let value = [UInt8](repeating: 7, count: 200_000)
      environment.holdNextGroup(untilQueued: 8)
      Self.onThreads(8) { thread in
        do {
          try environment.groupedWrite { txn in try txn.put(bytes("k\(thread)"), value, in: table) }
        } catch {
          Issue.record("thread \(thread): \(error)")
        }
      }
      #expect(try environment.statistics().mapGrowths >= 1)
      try environment.read { txn throws in #expect(try txn.count(table) == 8) }
    }
  }

  @Test func manyThreadsWritingAtOnceAllLand() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let table = try environment.table("t")
      let before = environment.lastTransactionID()
      let (threads, each) = (12, 20)
      Self.onThreads(threads) { thread in
        for index in 0..<each {
          do {
            try environment.groupedWrite { txn in try txn.put(bytes("t\(thread)-\(index)"), bytes("v"), in: table) }
          } catch {
            Issue.record("thread \(thread): \(error)")
          }
        }
      }
      try environment.read { txn throws in #expect(try txn.count(table) == threads * each) }
      // Never more transactions than commits (fewer when groups formed).
      #expect(environment.lastTransactionID() - before <= threads * each)
    }
  }

  @Test func aGroupedWriteInsideAWriteOnOneThreadFailsInsteadOfDeadlocking() throws {
    let directory = TemporaryDirectory()
    try withEnvironment(at: directory.path) { environment in
      let inWrite = try #require(throws: StorageError.self) {
        try environment.write { _ in try environment.groupedWrite { _ in } }
      }
      #expect(inWrite.code == EDEADLK)
      let inGroup = try #require(throws: StorageError.self) {
        try environment.groupedWrite { _ in try environment.groupedWrite { _ in } }
      }
      #expect(inGroup.code == EDEADLK)
      let writeInGroup = try #require(throws: StorageError.self) {
        try environment.groupedWrite { _ in try environment.write { _ in } }
      }
      #expect(writeInGroup.code == EDEADLK)
    }
  }
}

/// A value the test's threads share, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
