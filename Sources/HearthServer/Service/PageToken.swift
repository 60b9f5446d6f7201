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
  static func after(_ id: String) -> String { Data(prefix + Array(id.utf8)).base64EncodedString() }

  /// The ID a page token starts after, or `nil` for the first page (an empty token).
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  static func start(_ token: String) throws -> String? {
    guard !token.isEmpty else { return nil }
    guard let bytes = Data(base64Encoded: token), bytes.starts(with: prefix),
      let id = String(bytes: bytes.dropFirst(prefix.count), encoding: .utf8)
    else { throw HearthError(.invalidArgument, "invalid page token") }
    return id
  }

  /// The token of the page after the first `count` documents of a listing in a field's
  /// order (`order_by`), which has no ID to start after. Google's emulator fails such a
  /// listing's second page (UNKNOWN); Hearth's goes on from the same position.
  static func skipping(_ count: Int) -> String { Data(skipPrefix + Array(String(count).utf8)).base64EncodedString() }

  /// How many documents a token from `skipping` says to skip, 0 for the first page.
  ///
  /// - Throws: `invalidArgument` for a token this server did not give.
  static func skipped(_ token: String) throws -> Int {
    guard !token.isEmpty else { return 0 }
    guard let bytes = Data(base64Encoded: token), bytes.starts(with: skipPrefix),
      let count = Int(String(decoding: bytes.dropFirst(skipPrefix.count), as: UTF8.self)), count >= 0
    else { throw HearthError(.invalidArgument, "invalid page token") }
    return count
  }

  private static let skipPrefix = Array("hearth-skip:".utf8)

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
