import Foundation
import Hearth
import HearthCore

/// The benchmark's data: posts of the social app, `users/{uid}/posts/{postId}`, each as
/// the dictionary the API writes, the Codable struct it reads, and the exact bytes
/// Hearth stores (for the raw baselines).
struct SocialWorkload {
  struct Document {
    let path: String
    let fields: [String: Any]
    let encoded: [UInt8]
  }

  let documents: [Document]
  let users: [String]

  var averageEncodedSize: Int { documents.reduce(0) { $0 + $1.encoded.count } / max(documents.count, 1) }

  init(documents count: Int) {
    var generator = SystemRandomNumberGenerator()
    let userCount = max(count / 100, 1)
    users = (0..<userCount).map { "user\($0)" }
    let words = ["swift", "lmdb", "firestore", "coffee", "linux", "server", "cli", "tests", "data", "sync"]
    var documents: [Document] = []
    documents.reserveCapacity(count)
    for index in 0..<count {
      let owner = users[index % userCount]
      let created = Timestamp(seconds: 1_780_000_000 + Int64(index), nanoseconds: Int32(index % 1000) * 1000)
      let values: [String: Value] = [
        "ownerId": .string(owner),
        "title": .string("Post number \(index) about \(words[index % words.count])"),
        "body": .string(String(repeating: "Lorem ipsum dolor sit amet. ", count: 6)),
        "createdAt": .timestamp(created),
        "likes": .integer(Int64.random(in: 0...5000, using: &generator)),
        "tags": .array((0..<3).map { .string(words[(index + $0) % words.count]) }),
        "ratings": .map(["user1": .string("5"), "user2": .string("4"), "user3": .string("3")]),
        "published": .boolean(index % 7 != 0),
      ]
      let fields: [String: Any] = [
        "ownerId": owner, "title": "Post number \(index) about \(words[index % words.count])",
        "body": String(repeating: "Lorem ipsum dolor sit amet. ", count: 6), "createdAt": created,
        "likes": values["likes"].map { if case .integer(let n) = $0 { n } else { 0 } }!,
        "tags": (0..<3).map { words[(index + $0) % words.count] },
        "ratings": ["user1": "5", "user2": "4", "user3": "3"], "published": index % 7 != 0,
      ]
      let path = "users/\(owner)/posts/post\(index)"
      let key = try! DocumentKey(parsing: path)
      let encoded = DocumentCodec.encode(
        StoredDocument(key: key, fields: values, createTime: created, updateTime: created))
      documents.append(Document(path: path, fields: fields, encoded: encoded))
    }
    self.documents = documents
  }

  /// Every document index once, shuffled, for random reads.
  func randomOrder() -> [Int] { Array(documents.indices).shuffled() }
}

/// The Codable shape of a post, as an app declares it.
struct Post: Codable {
  @DocumentID var id: String?
  var ownerId: String
  var title: String
  var body: String
  var createdAt: Date
  var likes: Int
  var tags: [String]
  var ratings: [String: String]
  var published: Bool
}
