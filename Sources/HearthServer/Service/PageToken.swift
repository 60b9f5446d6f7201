import Foundation
import HearthCore

/// The pages of `ListDocuments` and `ListCollectionIds`, as Google's emulator gives them:
/// `page_size` items (0: all), and a `next_page_token` whenever a page is full, which
/// names the page's last ID so that the next page starts after it (a listing has no
/// snapshot across calls: what was written meanwhile shows up or not by its ID, as in
/// Firestore).
enum PageToken {
  private static let prefix = Array("hearth-page:".utf8)

  /// The token of the page after the one that ended with `id`.
  static func after(_ id: String) -> String { token(prefix, id) }

  /// The ID a page token starts after, or `nil` for the first page (an empty token).
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  static func start(_ token: String) throws -> String? {
    token.isEmpty ? nil : try text(of: token, prefix)
  }

  /// The token of the page after the one that ended with document `id` of collection
  /// `collectionID`, in a listing of every collection under a parent.
  static func after(collectionID: String, id: String) -> String { after(collectionID + "/" + id) }

  /// The collection ID and document ID a token from `after(collectionID:id:)` starts
  /// after, or `nil` for the first page.
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  static func startInCollections(_ token: String) throws -> (collectionID: String, id: String)? {
    guard let start = try start(token) else { return nil }
    let parts = start.split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { throw invalid }
    return (parts[0], parts[1])
  }

  /// The token of the page after the first `count` documents of a listing in a field's
  /// order (`order_by`), which has no ID to start after. Google's emulator fails such a
  /// listing's second page (UNKNOWN); Hearth's goes on from the same position.
  static func skipping(_ count: Int) -> String { token(skipPrefix, String(count)) }

  /// How many documents a token from `skipping` says to skip, 0 for the first page.
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  static func skipped(_ token: String) throws -> Int {
    guard !token.isEmpty else { return 0 }
    guard let count = Int(try text(of: token, skipPrefix)), count >= 0 else { throw invalid }
    return count
  }

  private static let skipPrefix = Array("hearth-skip:".utf8)
  private static let invalid = HearthError(.invalidArgument, "invalid page token")

  /// `text` behind `prefix`, in base64.
  private static func token(_ prefix: [UInt8], _ text: String) -> String {
    Data(prefix + Array(text.utf8)).base64EncodedString()
  }

  /// The text a token of `prefix` holds.
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  private static func text(of token: String, _ prefix: [UInt8]) throws -> String {
    guard let bytes = Data(base64Encoded: token), bytes.starts(with: prefix),
      let text = String(bytes: bytes.dropFirst(prefix.count), encoding: .utf8)
    else { throw invalid }
    return text
  }

  /// The page size asked for, `Int.max` for 0 (everything).
  ///
  /// - Throws: `invalidArgument` for a negative size.
  static func size(_ pageSize: Int32) throws -> Int {
    guard pageSize >= 0 else { throw HearthError(.invalidArgument, "Page size must be nonnegative.") }
    return pageSize == 0 ? .max : Int(pageSize)
  }

  /// The IDs of `ids` (in name order, `NumericID.compare`) after `start`.
  static func ids(_ ids: [String], after start: String?) -> ArraySlice<String> {
    guard let start else { return ids[...] }
    return ids[(ids.firstIndex { NumericID.compare($0, start) > 0 } ?? ids.endIndex)...]
  }
}
