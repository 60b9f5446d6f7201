import Foundation
import Testing

@testable import HearthCore

/// A buffer of query results is handed out again only once nothing but the pool holds it,
/// only for results it fits within four times over, and bytes sliced from it keep their
/// values however it is reused (see `ResultBuffers`).
@Suite struct ResultBuffersTests {
  private func filled(_ pool: ResultBuffers, _ count: Int, with byte: UInt8) -> ResultBuffer {
    pool.buffer(holding: count) { $0.initializeMemory(as: UInt8.self, repeating: byte) }
  }

  @Test func aBufferIsReusedOnlyOnceNoSnapshotHoldsIt() {
    let pool = ResultBuffers()
    var first: ResultBuffer? = filled(pool, 2000, with: 1)
    let firstID = ObjectIdentifier(first!)
    let second = filled(pool, 2000, with: 2)
    #expect(ObjectIdentifier(second) != firstID)
    #expect(first!.bytes.prefix(2000).allSatisfy { $0 == 1 })
    first = nil
    let third = filled(pool, 1500, with: 3)
    #expect(ObjectIdentifier(third) == firstID)
    #expect(third.bytes.prefix(1500).allSatisfy { $0 == 3 })
    #expect(second.bytes.prefix(2000).allSatisfy { $0 == 2 })
  }

  @Test func aBufferIsNotReusedForResultsFarSmallerOrLarger() {
    let pool = ResultBuffers()
    var large: ResultBuffer? = filled(pool, 8000, with: 1)
    let largeID = ObjectIdentifier(large!)
    large = nil
    let small = filled(pool, 1500, with: 2)
    #expect(ObjectIdentifier(small) != largeID)
    let larger = filled(pool, 9000, with: 3)
    #expect(ObjectIdentifier(larger) != largeID)
    #expect(larger.bytes.count == 9000)
    let fitting = filled(pool, 7000, with: 4)
    #expect(ObjectIdentifier(fitting) == largeID)
    #expect(fitting.bytes.prefix(7000).allSatisfy { $0 == 4 })
  }

  @Test func bytesSlicedFromABufferKeepTheirValuesWhenItIsReused() {
    let pool = ResultBuffers()
    var buffer: ResultBuffer? = filled(pool, 4096, with: 7)
    let bufferID = ObjectIdentifier(buffer!)
    let slice = buffer!.bytes[100..<200]
    buffer = nil
    let reused = filled(pool, 4096, with: 8)
    #expect(ObjectIdentifier(reused) == bufferID)
    #expect(reused.bytes.prefix(4096).allSatisfy { $0 == 8 })
    #expect(slice.allSatisfy { $0 == 7 })
  }

  @Test func smallResultsTakeNoBufferFromThePool() {
    let pool = ResultBuffers()
    var kept: ResultBuffer? = filled(pool, 2000, with: 1)
    let keptID = ObjectIdentifier(kept!)
    kept = nil
    let small = filled(pool, 600, with: 2)
    #expect(ObjectIdentifier(small) != keptID)
    #expect(small.bytes == [UInt8](repeating: 2, count: 600))
  }

  @Test func aSpareArrayComesBackEmptyWithItsCapacity() {
    let pool = ResultBuffers()
    #expect(pool.spareArray(of: Int.self).capacity == 0)
    var array: [Int] = []
    array.reserveCapacity(100)
    array += [1, 2, 3]
    pool.keepSpare(array)
    // Another element type finds none; the array kept stays for its own type.
    #expect(pool.spareArray(of: String.self).isEmpty)
    let spare = pool.spareArray(of: Int.self)
    #expect(spare.isEmpty)
    #expect(spare.capacity >= 100)
    #expect(pool.spareArray(of: Int.self).capacity == 0)
  }

  @Test func aLargeBufferIsReusedByTheNextLargeResultsOnceNoSnapshotHoldsIt() {
    let pool = ResultBuffers()
    let size = ResultBuffers.largest * 3
    var first: ResultBuffer? = filled(pool, size, with: 1)
    let firstID = ObjectIdentifier(first!)
    let second = filled(pool, size, with: 2)
    #expect(ObjectIdentifier(second) != firstID)
    first = nil
    // The kept one is the latest, which a snapshot still holds.
    #expect(ObjectIdentifier(filled(pool, size, with: 3)) != ObjectIdentifier(second))
    var fourth: ResultBuffer? = filled(pool, size - 1000, with: 4)
    let fourthID = ObjectIdentifier(fourth!)
    fourth = nil
    let reused = filled(pool, size - 2000, with: 5)
    #expect(ObjectIdentifier(reused) == fourthID)
    #expect(reused.bytes.prefix(size - 2000).allSatisfy { $0 == 5 })
    #expect(second.bytes.prefix(size).allSatisfy { $0 == 2 })
  }

  @Test func aLargeBufferIsGivenBackAMomentAfterItsLastUse() throws {
    let pool = ResultBuffers()
    var buffer: ResultBuffer? = filled(pool, ResultBuffers.largest * 2, with: 1)
    weak let watched = buffer
    buffer = nil
    #expect(watched != nil)
    try waitUntil { watched == nil }
  }

  @Test func aLargeSpareArrayIsKeptOnlyWhenFilledAndOnlyForAMoment() throws {
    let pool = ResultBuffers()
    let count = ResultBuffers.largest / MemoryLayout<Int>.stride * 2
    var sparse: [Int] = []
    sparse.reserveCapacity(count)
    sparse.append(1)
    pool.keepSpare(sparse)
    #expect(pool.spareArray(of: Int.self).capacity == 0)
    pool.keepSpare([Int](repeating: 1, count: count))
    #expect(pool.spareArray(of: Int.self).capacity >= count)
    pool.keepSpare([Int](repeating: 1, count: count))
    #expect(pool.keepsSpare)
    try waitUntil { !pool.keepsSpare }
  }

  /// Polls `condition` for up to 20 s (the pool lets go of large memory after
  /// `ResultBuffers.largeKeptFor`; a loaded machine may run that late).
  private func waitUntil(_ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while !condition() {
      try #require(Date() < deadline, "still held after 20 s")
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
}
