import Foundation
import Testing

@testable import HearthCore

/// How a declared index's entry names its document: the names a collection-group entry
/// stores split back into the collection and the ID, and the zero-byte search that splits
/// them (eight bytes at a time, so the edges are where a zero falls in a word).
@Suite("CompositeIndex names")
struct CompositeIndexNamesTests {
  /// A collection-group index on `posts` (its entries name documents by their full paths).
  static let groupIndex = DeclaredIndex(
    number: 7,
    definition: IndexDefinition(
      collectionGroup: "posts", scope: .collectionGroup, fields: [.init(path: FieldPath(["likes"]), mode: .ascending)]))

  /// Every length up to three words, a zero at every place (or none), the other bytes
  /// those the word trick could mistake for a zero (0x01, 0x80, 0xFF) or plain ones.
  @Test("firstZero finds the first zero byte wherever it falls")
  func firstZeroAgreesWithAByteWalk() {
    let fillers: [UInt8] = [0x01, 0x80, 0xFF, 0x61, 0x7F]
    for length in 0...24 {
      for zeroAt in [nil] + Array(0..<length) {
        for filler in fillers {
          var bytes = [UInt8](repeating: filler, count: length)
          if let zeroAt {
            bytes[zeroAt] = 0
            // A second zero later must not be taken for the first.
            if zeroAt + 3 < length { bytes[zeroAt + 3] = 0 }
          }
          for start in 0...length {
            let expected = bytes[start...].firstIndex(of: 0)
            let found = bytes.withUnsafeBytes { CompositeIndex.firstZero($0, from: start) }
            #expect(found == expected, "length \(length), zero at \(String(describing: zeroAt)), start \(start)")
          }
        }
      }
    }
  }

  /// A group entry's names split into the collection's and the ID's bytes, and decoded
  /// whole, for paths whose segments fall across the eight-byte words in every way.
  @Test("a group entry names its document, segments of every length")
  func groupEntriesNameTheirDocuments() throws {
    let index = Self.groupIndex
    for userLength in 1...20 {
      for idLength in 1...20 {
        // Two-byte characters in some, so that lengths in bytes vary too.
        let user = String(repeating: "u", count: userLength - 1) + (userLength % 3 == 0 ? "é" : "x")
        let id = String((0..<idLength).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
        let key = try DocumentKey(parsing: "users/\(user)/posts/\(id)")
        let data = CompositeIndex.data(index, key)
        let split = try #require(
          data.withUnsafeBytes { CompositeIndex.groupNames($0) }.map { names in
            (collection: Array(names.collection), id: Array(names.id))
          })
        #expect(split.id == Array(id.utf8))
        #expect(data.starts(with: split.collection))
        let decoded = data.withUnsafeBytes { CompositeIndex.documentKey(index, names: $0, in: nil) }
        #expect(decoded == key)
      }
    }
  }

  /// Names with an escaped zero byte or a numeric ID are left to the whole decode, which
  /// still finds them.
  @Test("escaped zero bytes and numeric IDs decode whole")
  func escapedAndNumericNamesDecodeWhole() throws {
    let index = Self.groupIndex
    for path in ["users/a\u{0}b/posts/p1", "users/alice/posts/x\u{0}yz\u{0}", "users/alice/posts/__id42__"] {
      let key = try DocumentKey(parsing: path)
      let data = CompositeIndex.data(index, key)
      #expect(data.withUnsafeBytes { CompositeIndex.groupNames($0) } == nil, "\(path)")
      #expect(data.withUnsafeBytes { CompositeIndex.documentKey(index, names: $0, in: nil) } == key, "\(path)")
    }
  }
}
