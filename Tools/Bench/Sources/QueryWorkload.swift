import Foundation
import Hearth
import HearthTestSupport

/// The query section's data and parameters: the social workload's posts
/// (`users/{uid}/posts/post{i}`, one owner per user collection, ~100 posts each), their
/// JSON text for SQLite, and for every query a list of random parameter choices that both
/// databases run in the same order.
struct QueryWorkload {
  /// One post as SQLite stores it: JSON text plus the columns an app keeps beside it.
  struct Row {
    let path: String
    /// The collection's path, `users/user7/posts`: collection-scope queries.
    let parent: String
    /// The collection ID, `posts`: collection-group queries.
    let collectionID: String
    let json: String
    let tags: [String]
    /// The queried fields' values (`createdAt` in microseconds, as in the JSON), from
    /// which the raw LMDB subject builds its index keys, as an app holding the post as a
    /// struct would.
    let ownerId: String
    let createdAt: Int64
    let likes: Int64
    let published: Bool
  }

  let social: SocialWorkload
  let rows: [Row]
  /// How many parameter choices each query cycles through.
  let choices: Int
  /// Random users, for `ownerId == X` and collection-scope queries.
  let owners: [String]
  /// Five distinct random users each, for `ownerId in [...]`.
  let ownerSets: [[String]]
  /// Half-open `likes` ranges `[a, b)` that hold ~4% of the posts each.
  let likeRanges: [(Int64, Int64)]
  /// Random `likes` floors, for range counts (half the posts each, on average).
  let likeFloors: [Int64]
  /// Random post numbers, whose creation times are the floors of `createdAt` counts.
  let createdFloors: [Int64]
  /// Random tags, for `array-contains`.
  let tags: [String]
  /// Random paths, for point gets.
  let paths: [String]

  /// The random values of the workload are drawn with a fixed seed, so two runs ask the
  /// same questions (the `likes` values themselves are random per run).
  init(_ social: SocialWorkload, choices: Int = 1000, seed: UInt64 = 0x4865_6172_7468) {
    self.social = social
    self.choices = choices
    rows = social.documents.map(Self.row)
    var random = SplitMix64(seed: seed)
    let users = social.users
    owners = (0..<choices).map { _ in users.randomElement(using: &random)! }
    ownerSets = (0..<choices).map { _ in
      var set: [String] = []
      while set.count < min(5, users.count) {
        let user = users.randomElement(using: &random)!
        if !set.contains(user) { set.append(user) }
      }
      return set
    }
    likeRanges = (0..<choices).map { _ in
      let low = Int64.random(in: 0...4800, using: &random)
      return (low, low + 200)
    }
    likeFloors = (0..<choices).map { _ in Int64.random(in: 0...5000, using: &random) }
    let posts = Int64(max(social.documents.count, 1))
    createdFloors = (0..<choices).map { _ in Int64.random(in: 0..<posts, using: &random) }
    let allTags = Array(Set(social.documents.flatMap { $0.fields["tags"] as! [String] })).sorted()
    tags = (0..<choices).map { _ in allTags.randomElement(using: &random)! }
    paths = (0..<choices).map { _ in social.documents.randomElement(using: &random)!.path }
  }

  /// The creation time of post `createdFloors[choice]` (`SocialWorkload`'s times), whole
  /// seconds.
  func createdFloor(_ choice: Int) -> Timestamp {
    Timestamp(seconds: 1_780_000_000 + createdFloors[choice], nanoseconds: 0)
  }

  /// `createdFloor` in microseconds, as the JSON has it.
  func createdFloorMicros(_ choice: Int) -> Int64 { (1_780_000_000 + createdFloors[choice]) * 1_000_000 }

  /// The post as JSON text. `createdAt` is an integer of microseconds since the epoch, so
  /// that SQLite compares and orders it as a number, exactly as Hearth orders timestamps
  /// (every post's time is a whole number of microseconds); `published` is a JSON boolean,
  /// which `json_extract` returns as 1 or 0.
  private static func row(_ document: SocialWorkload.Document) -> Row {
    let fields = document.fields
    let created = fields["createdAt"] as! Timestamp
    let micros = created.seconds * 1_000_000 + Int64(created.nanoseconds / 1000)
    let tags = fields["tags"] as! [String]
    let owner = fields["ownerId"] as! String
    let likes = fields["likes"] as! Int64
    let published = fields["published"] as! Bool
    let ratings = (fields["ratings"] as! [String: String]).sorted { $0.key < $1.key }
    var json = "{\"ownerId\":\(quoted(owner))"
    json += ",\"title\":\(quoted(fields["title"] as! String))"
    json += ",\"body\":\(quoted(fields["body"] as! String))"
    json += ",\"createdAt\":\(micros)"
    json += ",\"likes\":\(likes)"
    json += ",\"tags\":[\(tags.map(quoted).joined(separator: ","))]"
    json += ",\"ratings\":{\(ratings.map { "\(quoted($0.key)):\(quoted($0.value))" }.joined(separator: ","))}"
    json += ",\"published\":\(published)}"
    let segments = document.path.split(separator: "/")
    return Row(
      path: document.path, parent: segments.dropLast().joined(separator: "/"),
      collectionID: String(segments[segments.count - 2]), json: json, tags: tags, ownerId: owner, createdAt: micros,
      likes: likes, published: published)
  }

  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The seconds Foundation's `JSONSerialization` takes to turn every post into JSON
  /// text (timed on the first 5,000 and scaled): what an app using SQLite would pay on top
  /// of the bulk-load figure, which gives SQLite its JSON ready-made (Hearth's figure
  /// includes encoding from `[String: Any]`).
  func serializationSeconds() -> Double {
    let sample = social.documents.prefix(5000)
    let clock = ContinuousClock()
    var bytes = 0
    let elapsed = clock.measure {
      for document in sample {
        var fields = document.fields
        let created = fields["createdAt"] as! Timestamp
        fields["createdAt"] = created.seconds * 1_000_000 + Int64(created.nanoseconds / 1000)
        bytes += (try? JSONSerialization.data(withJSONObject: fields))?.count ?? 0
      }
    }
    precondition(bytes > 0)
    return seconds(elapsed) * Double(social.documents.count) / Double(max(sample.count, 1))
  }

  /// The indexes the query workload needs, in Firestore's `firestore.indexes.json` format
  /// (the file a Firebase project deploys), and the same set SQLite gets as expression
  /// indexes:
  /// - composite `ownerId ASC, createdAt DESC` at collection scope (one user's posts) and
  ///   at collection-group scope (`ownerId == X` and `ownerId in [...]`, newest first);
  /// - field overrides adding collection-group single-field indexes on `likes` (range),
  ///   `published` (count) and `tags` (array-contains), keeping their collection-scope ones;
  /// - `title`, `body` and `ratings` exempted from automatic indexing, as Firestore's docs
  ///   advise for large fields that are never queried (SQLite does not index them either).
  static let indexesJSON = """
    {
      "indexes": [
        {
          "collectionGroup": "posts", "queryScope": "COLLECTION",
          "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, {"fieldPath": "createdAt", "order": "DESCENDING"}]
        },
        {
          "collectionGroup": "posts", "queryScope": "COLLECTION_GROUP",
          "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"}, {"fieldPath": "createdAt", "order": "DESCENDING"}]
        }
      ],
      "fieldOverrides": [
        {
          "collectionGroup": "posts", "fieldPath": "likes",
          "indexes": [
            {"order": "ASCENDING", "queryScope": "COLLECTION"},
            {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}
          ]
        },
        {
          "collectionGroup": "posts", "fieldPath": "published",
          "indexes": [
            {"order": "ASCENDING", "queryScope": "COLLECTION"},
            {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}
          ]
        },
        {
          "collectionGroup": "posts", "fieldPath": "tags",
          "indexes": [
            {"arrayConfig": "CONTAINS", "queryScope": "COLLECTION"},
            {"arrayConfig": "CONTAINS", "queryScope": "COLLECTION_GROUP"}
          ]
        },
        {"collectionGroup": "posts", "fieldPath": "title", "indexes": []},
        {"collectionGroup": "posts", "fieldPath": "body", "indexes": []},
        {"collectionGroup": "posts", "fieldPath": "ratings", "indexes": []}
      ]
    }
    """
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
