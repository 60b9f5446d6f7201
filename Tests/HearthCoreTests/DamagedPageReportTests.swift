import Foundation
import HearthStorage
import Testing

@testable import HearthCore

/// The bytes of a closed database's `data.mdb`, to damage a page of it (LMDB's layout:
/// 4096-byte pages, a 16-byte header with the page number, flags, `lower` and `upper`,
/// then the node offsets; a node is 8 bytes of header, its key, its data).
private struct DataFileBytes {
  let path: String
  var bytes: [UInt8]
  let pageSize = 4096

  init(directory: String) throws {
    path = directory + "/data.mdb"
    bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func save() throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

  func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

  mutating func put16(_ offset: Int, _ value: Int) {
    bytes[offset] = UInt8(value & 0xFF)
    bytes[offset + 1] = UInt8(value >> 8)
  }

  /// Pages whose header names them, with these flags (1 branch, 2 leaf).
  func pages(withFlags flags: Int) -> [Int] {
    (2..<bytes.count / pageSize).filter { page in
      u16(page * pageSize) == page & 0xFFFF && u16(page * pageSize + 10) == flags
    }
  }

  /// The offset in the file of each node of `page`, with its key.
  func nodes(of page: Int) -> [(offset: Int, key: [UInt8])] {
    (0..<(u16(page * pageSize + 12) - 16) / 2).map { index in
      let offset = page * pageSize + u16(page * pageSize + 16 + 2 * index)
      let keySize = u16(offset + 6)
      return (offset, Array(bytes[(offset + 8)..<(offset + 8 + keySize)]))
    }
  }

  /// The documents key's ID (after the 8-byte collection number) when `key` is one.
  static func documentID(_ key: [UInt8]) -> String? {
    guard key.count > 8, key.prefix(7).allSatisfy({ $0 == 0 }) else { return nil }
    return String(decoding: key[8...], as: UTF8.self)
  }
}

/// `check` names what damaged pages held: the documents on a damaged leaf of the
/// `documents` table, by their paths, or by the range its parent page gives it.
@Suite struct DamagedPageReportTests {
  /// A directory for a database, removed at the end of the test.
  final class Scratch {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-damage-\(UUID().uuidString)")
      .path
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// 300 documents `users/u000`…`users/u299` at `path`, written in one commit (so that
  /// every page with documents in the file is one the database uses), then closed.
  func writeStore(at path: String) throws {
    try withStore(at: path) { store in
      try store.commit(
        (0..<300).map { number in
          let id = "u" + String(number + 1000).dropFirst()
          let fields: [String: Value] = ["bio": .string(String(repeating: "b", count: 150))]
          return Write(key: try DocumentKey(parsing: "users/\(id)"), kind: .set(fields))
        })
    }
  }

  /// Changes the closed database's data file with `edit`.
  fileprivate func damage(_ path: String, _ edit: (inout DataFileBytes) throws -> Void) throws {
    var file = try DataFileBytes(directory: path)
    try edit(&file)
    try file.save()
  }

  /// The documents leaf pages, with the IDs of their documents.
  private func documentLeaves(_ file: DataFileBytes) -> [(page: Int, ids: [String])] {
    file.pages(withFlags: 2).compactMap { page in
      let ids = file.nodes(of: page).compactMap { DataFileBytes.documentID($0.key) }
      return ids.count > 5 ? (page, ids) : nil
    }
  }

  @Test func aDamagedLeafNamesTheDocumentsStillReadableOnIt() throws {
    let scratch = Scratch()
    let path = scratch.path
    try writeStore(at: path)
    var leaf = 0
    var named: [String] = []
    try damage(path) { file in
      let leaves = documentLeaves(file)
      try #require(leaves.count > 2)
      (leaf, named) = (leaves[1].page, Array(leaves[1].ids.prefix(3)))
      file.put16(file.nodes(of: leaf)[3].offset + 6, 4000)  // node 3's key size
    }
    #expect {
      try DocumentStore(path: path)
    } throws: { error in
      let message = (error as? HearthError)?.message ?? ""
      return (error as? HearthError)?.code == .dataLoss && message.contains("page \(leaf) (documents, leaf page)")
        && message.contains("restore a backup (hearth restore BACKUP, or Database.restore(from:to:))")
    }
    let report = try DocumentStore.check(path: path)
    #expect(!report.ok)
    let line = try #require(report.problems.first)
    #expect(line.hasPrefix("page \(leaf) (documents, leaf page): node 3's key (4000 bytes) runs past"), "\(line)")
    #expect(line.hasSuffix("it held documents " + named.map { "users/\($0)" }.joined(separator: ", ")), "\(line)")
  }

  @Test func aLeafWithADamagedHeaderIsNamedByTheRangeItsParentGivesIt() throws {
    let scratch = Scratch()
    let path = scratch.path
    try writeStore(at: path)
    var leaf = 0
    var range: (String, String) = ("", "")
    try damage(path) { file in
      let leaves = Set(documentLeaves(file).map(\.page))
      // The documents table's branch page: its nodes point to the documents leaves.
      let branch = try #require(
        file.pages(withFlags: 1).first { page in
          file.nodes(of: page).contains { leaves.contains(file.u16($0.offset)) }
        })
      let nodes = file.nodes(of: branch)
      try #require(nodes.count > 3)
      leaf = file.u16(nodes[2].offset)
      range = (DataFileBytes.documentID(nodes[2].key)!, DataFileBytes.documentID(nodes[3].key)!)
      file.put16(leaf * file.pageSize + 10, 0x01)  // a leaf's flags say branch
    }
    let report = try DocumentStore.check(path: path)
    let line = try #require(report.problems.first)
    #expect(line.hasPrefix("page \(leaf) (documents, leaf page): its flags are 0x1"), "\(line)")
    #expect(line.hasSuffix("it held the documents from users/\(range.0) up to users/\(range.1)"), "\(line)")
    #expect(report.problems.last?.contains("the documents and indexes were not checked") == true)
  }

  @Test func checkVerifiesThePagesOfAnOpenDatabase() throws {
    let scratch = Scratch()
    let path = scratch.path
    try writeStore(at: path)
    try withStore(at: path) { store in
      #expect(try store.check().ok)
      var file = try DataFileBytes(directory: path)
      let leaf = try #require(documentLeaves(file).first?.page)
      file.put16(leaf * file.pageSize + 12, 0xFFF1)
      try file.save()
      let report = try store.check()
      #expect(report.problems.first?.hasPrefix("page \(leaf) (documents, leaf page): its free-space bounds") == true)
    }
  }
}
