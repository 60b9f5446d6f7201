import Foundation
import HearthCore
import Testing

@testable import HearthServer

/// `ListDocuments` beyond a collection's names in pages: `order_by`, an empty collection
/// ID, and the times of missing documents, each as Google's emulator answered the same
/// requests.
extension ServiceTests {
  /// Every page of a listing, each page's document names relative to the root.
  func listed(
    _ service: FirestoreService, parent: ResourcePath = .root, _ collectionID: String, orderBy: String = "",
    pageSize: Int32 = 0, showMissing: Bool = false
  ) throws -> [[String]] {
    var pages: [[String]] = []
    var token = ""
    repeat {
      let page = try service.listDocuments(
        FirestoreV1.ListDocumentsRequest(
          database: Self.database, parent: parent, collectionID: collectionID, pageSize: pageSize, pageToken: token,
          orderBy: orderBy, showMissing: showMissing))
      pages.append(page.documents.map(\.key.path.canonical))
      token = page.nextPageToken
    } while !token.isEmpty && pages.count < 20
    return pages
  }

  func writeListingFixture(_ service: FirestoreService) throws {
    let values: [(String, Value?)] = [
      ("d1", .integer(5)), ("d2", .integer(3)), ("d3", .integer(5)), ("d4", nil), ("d5", .string("x")),
      ("d6", .double(1.5)),
    ]
    var writes = try values.enumerated().map { index, entry in
      var fields: [String: Value] = ["w": .integer(Int64((index + 1) % 2))]
      if let value = entry.1 { fields["v"] = value }
      return Write(key: try key("c/\(entry.0)"), kind: .set(fields))
    }
    writes += try ["b/b1", "b/a9", "c/d1/sub/s1", "c/m/sub/s2"].map { Write(key: try key($0), kind: .set([:])) }
    _ = try commit(service, writes)
  }

  @Test func aListingInAFieldsOrderListsAsAQueryInThatOrder() throws {
    try withService { service in
      try writeListingFixture(service)
      func ids(_ orderBy: String, pageSize: Int32 = 0) throws -> [[String]] {
        try listed(service, "c", orderBy: orderBy, pageSize: pageSize).map { $0.map { String($0.dropFirst(2)) } }
      }
      // Google's emulator's answers: documents without the field are left out, ties go by
      // name in the last order's direction, and numbers come before strings.
      #expect(try ids("v") == [["d6", "d2", "d1", "d3", "d5"]])
      #expect(try ids("v desc") == [["d5", "d3", "d1", "d2", "d6"]])
      #expect(try ids("v DESC") == [["d5", "d3", "d1", "d2", "d6"]])
      #expect(try ids("`v` asc") == [["d6", "d2", "d1", "d3", "d5"]])
      #expect(try ids("v desc, __name__") == [["d5", "d1", "d3", "d2", "d6"]])
      #expect(try ids("v, __name__ desc") == [["d6", "d2", "d3", "d1", "d5"]])
      #expect(try ids("w,__name__") == [["d2", "d4", "d6", "d1", "d3", "d5"]])
      #expect(try ids("w desc, v desc") == [["d5", "d3", "d1", "d2", "d6"]])
      #expect(try ids("__name__") == [["d1", "d2", "d3", "d4", "d5", "d6"]])
      #expect(try ids("V") == [[]])
      #expect(try ids("v", pageSize: 2) == [["d6", "d2"], ["d1", "d3"], ["d5"]])
      for clause in ["  v  ", "v up", "v desc desc", ",", "v,"] {
        let refused = try #require(throws: HearthError.self) { try ids(clause) }
        #expect(refused.code == .invalidArgument && refused.message == "Invalid order by clause \"\(clause)\".")
      }
      let afterKey = try #require(throws: HearthError.self) { try ids("__name__, v") }
      #expect(afterKey.code == .invalidArgument && afterKey.message.contains("more fields after the key"))
      let backwards = try #require(throws: HearthError.self) { try ids("__name__ desc") }
      #expect(backwards.code == .failedPrecondition)
      let missing = try #require(throws: HearthError.self) { try listed(service, "c", orderBy: "v", showMissing: true) }
      #expect(missing.message == "cannot specify an order when show_missing is true")
    }
  }

  @Test func aListingWithoutACollectionIDListsEveryCollectionUnderTheParent() throws {
    try withService { service in
      try writeListingFixture(service)
      let all = ["b/a9", "b/b1", "c/d1", "c/d2", "c/d3", "c/d4", "c/d5", "c/d6"]
      #expect(try listed(service, "") == [all])
      #expect(try listed(service, "", pageSize: 3) == [Array(all[0..<3]), Array(all[3..<6]), Array(all[6...])])
      #expect(try listed(service, parent: ResourcePath(["c", "d1"]), "") == [["c/d1/sub/s1"]])
      let ordered = try #require(throws: HearthError.self) { try listed(service, "", orderBy: "v") }
      #expect(ordered.message == "kind is required for all orders except __key__ ascending")
      let missing = try #require(throws: HearthError.self) { try listed(service, "", showMissing: true) }
      #expect(missing.message == "collection id must be set when show_missing is true")
    }
  }

  /// A missing document listed with `show_missing` has the time of the delete that
  /// removed it as its update time, and no create time; one that never existed has
  /// neither, as on Google's emulator.
  @Test func aMissingDocumentListedKeepsTheTimeOfItsDelete() throws {
    try withService { service in
      _ = try commit(service, [Write(key: try key("c/gone"), kind: .set(["n": .integer(1)]))])
      let deleted = try commit(service, [Write(key: try key("c/gone"), kind: .delete)]).commitTime
      _ = try commit(service, [Write(key: try key("c/gone"), kind: .delete)])
      _ = try commit(
        service,
        try ["c/gone/sub/x", "c/never/sub/x", "c/here"].map { Write(key: try key($0), kind: .set([:])) })
      let listing = try service.listDocuments(
        FirestoreV1.ListDocumentsRequest(database: Self.database, parent: .root, collectionID: "c", showMissing: true))
      let byID = Dictionary(uniqueKeysWithValues: listing.documents.map { ($0.key.documentID, $0) })
      #expect(byID.keys.sorted() == ["gone", "here", "never"])
      #expect(deleted != nil && byID["gone"]?.updateTime == deleted && byID["gone"]?.createTime == nil)
      #expect(byID["never"]?.updateTime == nil && byID["never"]?.createTime == nil)
      #expect(byID["here"]?.createTime != nil)
    }
  }
}
