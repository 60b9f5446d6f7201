import CLMDB
import Foundation
import Testing

@testable import HearthStorage

/// A small database with every kind of page (branch and leaf pages, overflow chains,
/// duplicate values in sub-pages and in a sub-tree, a free list), whose `data.mdb` the
/// tests damage byte by byte.
private final class DamageFixture {
  let directory = TemporaryDirectory()
  var path: String { directory.path }
  var file: String { path + "/data.mdb" }
  let pageSize = 4096

  init() throws {
    try withEnvironment(at: directory.path) { environment in
      let plain = try environment.table("plain")
      let big = try environment.table("big")
      let duplicates = try environment.table("dups", duplicateSort: true)
      try environment.write { txn in
        for number in 0..<400 {
          try txn.put(Array(String(format: "key%04d", number).utf8), [UInt8](repeating: 7, count: 100), in: plain)
        }
        for number in 0..<3 { try txn.put([UInt8(number)], [UInt8](repeating: 9, count: 20_000), in: big) }
        for number in 0..<600 {
          try txn.put(Array("many".utf8), Array(String(format: "v%05d", number).utf8), in: duplicates)
        }
        for number in 0..<3 { try txn.put(Array("few".utf8), [UInt8(number)], in: duplicates) }
      }
      // A second commit frees pages, so that the free list has a record.
      try environment.write { txn in
        for number in 0..<50 { try txn.delete(Array(String(format: "key%04d", number).utf8), in: plain) }
      }
    }
    // A data file with no checkpoint beside it (a restored backup, say): one with a
    // checkpoint has its damaged meta pages written back from it (JournalTests).
    Environment.removeJournal(in: path)
  }

  var bytes: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: file))) } }

  func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: file)) }

  /// Changes the file with `edit`, which gets its bytes.
  func damage(_ edit: (inout [UInt8]) -> Void) throws {
    var bytes = try self.bytes
    edit(&bytes)
    try write(bytes)
  }

  /// The root page of table `name` in the newest commit (the table catalog's root is a
  /// leaf, with this few tables).
  func root(of name: String) throws -> Int {
    let bytes = try self.bytes
    let catalog = Int(u64(bytes, newestMeta(in: bytes) + 72 + 40))
    for index in 0..<(Int(u16(bytes, catalog * pageSize + 12)) - 16) / 2 {
      let node = self.node(index, of: catalog, in: bytes)
      let keySize = Int(u16(bytes, node + 6))
      if bytes[(node + 8)..<(node + 8 + keySize)].elementsEqual(name.utf8) {
        return Int(u64(bytes, node + 8 + keySize + 40))
      }
    }
    throw CocoaError(.fileReadCorruptFile)
  }

  /// The page that node `index` of branch page `page` points to.
  func child(_ index: Int, of page: Int) throws -> Int {
    let bytes = try self.bytes
    let node = self.node(index, of: page, in: bytes)
    return Int(u16(bytes, node)) | Int(u16(bytes, node + 2)) << 16
  }

  /// The first overflow page of leaf node `index` of `page`.
  func overflow(_ index: Int, of page: Int) throws -> Int {
    let bytes = try self.bytes
    let node = self.node(index, of: page, in: bytes)
    return Int(u64(bytes, node + 8 + Int(u16(bytes, node + 6))))
  }

  /// The offset in the file of node `index` of `page`.
  func node(_ index: Int, of page: Int, in bytes: [UInt8]) -> Int {
    page * pageSize + Int(u16(bytes, page * pageSize + 16 + 2 * index))
  }

  /// The newest meta page's offset in the file (after its page header).
  func newestMeta(in bytes: [UInt8]) -> Int {
    let ids = [0, 1].map { u64(bytes, $0 * pageSize + 16 + 128) }
    return (ids[0] < ids[1] ? pageSize : 0) + 16
  }

  /// Opens the database, expecting it refused for damage; returns the damage.
  func refusal(
    _ options: Environment.Options = Environment.Options(), sourceLocation: SourceLocation = #_sourceLocation
  )
    -> StorageDamage?
  {
    do {
      let environment = try Environment.open(path: path, options: options)
      environment.close()
      Issue.record("the damaged database opened", sourceLocation: sourceLocation)
      return nil
    } catch let damage as StorageDamage {
      return damage
    } catch {
      Issue.record("opening threw \(error), not StorageDamage", sourceLocation: sourceLocation)
      return nil
    }
  }
}

private func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
private func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
  (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
}
private func put16(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
  bytes[offset] = UInt8(value & 0xFF)
  bytes[offset + 1] = UInt8(value >> 8)
}
private func put64(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt64) {
  for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
}

/// The page verifier (`PageWalk`, `MetaPages`) finds damage with plain reads before LMDB
/// dereferences it: each test damages one thing and expects opening refused with a
/// description that names the page and the fault.
@Suite struct PageVerificationTests {
  @Test func anIntactFileVerifiesEveryPage() throws {
    let fixture = try DamageFixture()
    let unopened = try Environment.verifyUnopenedDataFile(in: fixture.path)
    #expect(unopened.isIntact, "\(unopened.damage)")
    #expect(unopened.coversEveryPage)
    try withEnvironment(at: fixture.path) { environment in
      #expect(environment.verifiedEveryPageAtOpen)
      let verification = try environment.read { try $0.verifyPages() }
      #expect(verification.isIntact)
      // The pages in use were read: the meta pages, the trees, 3 × 5 overflow pages.
      #expect(verification.pagesVerified > 2 + 15 + 10)
      #expect(verification.pagesVerified <= verification.lastPage + 1)
    }
  }

  @Test func aTruncatedFileIsRefusedByEveryKindOfOpen() throws {
    let fixture = try DamageFixture()
    let size = try fixture.bytes.count
    try fixture.damage { $0.removeLast($0.count / 2) }
    var readOnly = Environment.Options()
    readOnly.createIfMissing = false
    var inspect = Environment.Options()
    inspect.inspectOnly = true
    for options in [Environment.Options(), readOnly, inspect] {
      let damage = try #require(fixture.refusal(options))
      #expect("\(damage)".contains("data.mdb is \(size - size / 2) bytes"), "\(damage)")
      #expect("\(damage)".contains("(\(size) bytes): the file was cut short"), "\(damage)")
    }
    // Walked without LMDB, the file tells which pages are gone.
    let walked = try Environment.verifyUnopenedDataFile(in: fixture.path)
    #expect(walked.damage.count > 1)
    #expect(walked.damage.dropFirst().allSatisfy { $0.problem.contains("past the end of data.mdb") })
  }

  @Test func aBranchNodePointingOutsideTheFileIsFound() throws {
    let fixture = try DamageFixture()
    let branch = try fixture.root(of: "plain")
    try fixture.damage { bytes in
      let node = fixture.node(1, of: branch, in: bytes)
      put16(&bytes, node, 0xFFFF)
      put16(&bytes, node + 2, 0x7FFF)
    }
    let damage = try #require(fixture.refusal())
    #expect(damage.verification.damage.map(\.page) == [branch])
    #expect("\(damage)".contains("node 1 points to page \(0x7FFF_FFFF), which is not a page of the file"), "\(damage)")
  }

  @Test func impossibleFreeSpaceBoundsAreFound() throws {
    let fixture = try DamageFixture()
    let leaf = try fixture.child(2, of: fixture.root(of: "plain"))
    try fixture.damage { put16(&$0, leaf * fixture.pageSize + 12, 0xFFF1) }
    let damage = try #require(fixture.refusal())
    #expect(damage.verification.damage.first?.page == leaf)
    #expect("\(damage)".contains("its free-space bounds (lower 65521"), "\(damage)")
  }

  @Test func aKeyTooLongForItsPageIsFound() throws {
    let fixture = try DamageFixture()
    let leaf = try fixture.root(of: "big")
    try fixture.damage { bytes in put16(&bytes, fixture.node(0, of: leaf, in: bytes) + 6, 4000) }
    let damage = try #require(fixture.refusal())
    #expect(damage.verification.damage.first?.page == leaf)
    #expect("\(damage)".contains("node 0's key (4000 bytes) runs past the end of the page"), "\(damage)")
  }

  @Test func keysOutOfOrderAreFound() throws {
    let fixture = try DamageFixture()
    let leaf = try fixture.child(1, of: fixture.root(of: "plain"))
    try fixture.damage { bytes in
      let first = u16(bytes, leaf * fixture.pageSize + 16)
      put16(&bytes, leaf * fixture.pageSize + 16, u16(bytes, leaf * fixture.pageSize + 18))
      put16(&bytes, leaf * fixture.pageSize + 18, first)
    }
    let damage = try #require(fixture.refusal())
    #expect(damage.verification.damage.first?.page == leaf)
    #expect("\(damage)".contains("out of order"), "\(damage)")
    #expect(damage.verification.damage.first?.keys.count ?? 0 > 1, "the page's keys are still named")
  }

  @Test func aBrokenOverflowChainIsFound() throws {
    let fixture = try DamageFixture()
    let overflow = try fixture.overflow(1, of: fixture.root(of: "big"))
    try fixture.damage { put16(&$0, overflow * fixture.pageSize + 10, 0x02) }
    let damage = try #require(fixture.refusal())
    #expect("\(damage)".contains("overflow page \(overflow) is not the start of"), "\(damage)")
  }

  @Test func aFreePageThatIsInUseIsFound() throws {
    let fixture = try DamageFixture()
    try fixture.damage { bytes in
      let meta = fixture.newestMeta(in: bytes)
      let freeRoot = Int(u64(bytes, meta + 24 + 40))
      let mainRoot = u64(bytes, meta + 72 + 40)
      // The free list's first record: a count, then the page numbers it frees.
      let record = fixture.node(0, of: freeRoot, in: bytes) + 8 + 8
      put64(&bytes, record + 8, mainRoot)
    }
    let damage = try #require(fixture.refusal())
    #expect("\(damage)".contains("as free, but that page is in use"), "\(damage)")
  }

  @Test func damagedMetaPagesAreFound() throws {
    let fixture = try DamageFixture()
    let original = try fixture.bytes
    try fixture.damage { bytes in bytes[16] ^= 0x01 }
    #expect("\(try #require(fixture.refusal()))".contains("meta page 0): it is not an LMDB meta page"))
    try fixture.write(original)
    try fixture.damage { bytes in
      let meta = fixture.newestMeta(in: bytes)
      bytes[meta + 128 + 5] ^= 0x10
    }
    #expect("\(try #require(fixture.refusal()))".contains("are not consecutive"))
    try fixture.write(original)
    try fixture.damage { bytes in
      let meta = fixture.newestMeta(in: bytes)
      put64(&bytes, meta + 120, u64(bytes, meta + 120) + 10)
    }
    #expect("\(try #require(fixture.refusal()))".contains("the file was cut short"))
  }

  @Test func aLargeFileVerifiesItsCatalogAtOpenAndEveryPageOnDemand() throws {
    let fixture = try DamageFixture()
    let leaf = try fixture.child(0, of: fixture.root(of: "plain"))
    try fixture.damage { put16(&$0, leaf * fixture.pageSize + 12, 0xFFF1) }
    var options = Environment.Options()
    options.wholeFileVerificationLimit = 0
    try withEnvironment(at: fixture.path, options: options) { environment in
      #expect(!environment.verifiedEveryPageAtOpen)
      let verification = try environment.read { try $0.verifyPages() }
      #expect(verification.damage.map(\.page) == [leaf])
    }
  }

  @Test func anEmptyDataFileIsDamageAndIsNotRecreated() throws {
    let fixture = try DamageFixture()
    try fixture.write([])
    var inspect = Environment.Options()
    inspect.inspectOnly = true
    for options in [Environment.Options(), inspect] {
      let damage = try #require(fixture.refusal(options))
      #expect("\(damage)".contains("data.mdb is empty (0 bytes)"), "\(damage)")
    }
    #expect(try fixture.bytes.isEmpty, "the empty file stays as it was")
  }

  @Test func aDataFileThatIsNotAFileIsDamage() throws {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.path + "/data.mdb", withIntermediateDirectories: true)
    let damage = try #require(DamageFixture.refusal(at: directory.path))
    #expect("\(damage)".contains("data.mdb is not a regular file"), "\(damage)")
  }
}

extension DamageFixture {
  static func refusal(at path: String) -> StorageDamage? {
    do {
      try Environment.open(path: path).close()
      return nil
    } catch {
      return error as? StorageDamage
    }
  }
}
