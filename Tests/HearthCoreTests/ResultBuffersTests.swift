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
}
