// hearth-demo: writes a demo database of a social app through Hearth's public API.
//
//   hearth-demo PATH [--users N]
//
// --users N writes the first N of the 300 users (and fewer chat rooms), for a small
// database: the corruption sweep (CorruptionSweepTests) damages copies of one.
//
// users/{uid}                     profiles (DatabaseUser)
// users/{uid}/posts/{postId}      posts with timestamps, likes, tags and ratings
// users/{uid}/following/{other}   and users/{other}/followers/{uid}, written in one batch
// rooms/{roomId}                  chat rooms
// rooms/{roomId}/messages/{id}    messages ordered by sentAt
//
// Schemas/demo/ holds the JSON Schema of each collection's documents (named by the
// collection ID), and DemoSchemaTests checks what this writes against them: a new
// collection, or a changed field, needs its schema written or changed too.
import Foundation
import Hearth

struct DatabaseUser: Codable {
  var dateCreated: Date
  var userId: String
  var username: String
  var email: String?
  var profileImage: String?
  var isPremium: Bool
}

struct Post: Codable {
  var ownerId: String
  var title: String
  var createdAt: Date
  var likes: Int
  var tags: [String]
  var ratings: [String: String]
}

let arguments = Array(CommandLine.arguments.dropFirst())
let userLimit: Int? = arguments.count == 3 && arguments[1] == "--users" ? Int(arguments[2]) : nil
guard arguments.count == 1 || (userLimit.map { (1...300).contains($0) } ?? false) else {
  FileHandle.standardError.write(Data("usage: hearth-demo PATH [--users N (1…300)]\n".utf8))
  exit(64)
}

var random = Generator(seed: 2026)
let settings = {
  let s = Settings()
  s.durability = .relaxed
  return s
}()
let db = try Database(path: arguments[0], settings: settings)
defer { db.close() }

let names = [
  "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj",
  "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "zoe",
]
let userIDs = Array((names + (0..<280).map { String(format: "user%03d", $0) }).prefix(userLimit ?? 300))
let tags = ["swift", "linux", "coffee", "lmdb", "firestore", "travel", "music", "cats", "running", "books"]
let start = Date(timeIntervalSince1970: 1_780_000_000)

for (index, uid) in userIDs.enumerated() {
  let batch = db.batch()
  let user = DatabaseUser(
    dateCreated: start.addingTimeInterval(Double(index) * 3600), userId: uid, username: uid.capitalized,
    email: index % 3 == 2 ? nil : "\(uid)@example.com",
    profileImage: index % 4 == 0 ? "https://example.com/avatars/\(uid).png" : nil, isPremium: index % 5 == 0)
  try batch.setData(from: user, forDocument: db.collection("users").document(uid))
  for number in 0..<random.next(upTo: 6) {
    let post = Post(
      ownerId: uid, title: "\(uid.capitalized)'s post #\(number + 1)",
      createdAt: start.addingTimeInterval(Double(index * 97 + number * 3_600 + random.next(upTo: 3_000))),
      likes: random.next(upTo: 500),
      tags: (0..<1 + random.next(upTo: 3)).map { _ in tags[random.next(upTo: tags.count)] },
      ratings: Dictionary(
        (0..<random.next(upTo: 4)).map { _ in
          (userIDs[random.next(upTo: userIDs.count)], String(1 + random.next(upTo: 5)))
        }, uniquingKeysWith: { first, _ in first }))
    try batch.setData(from: post, forDocument: db.collection("users/\(uid)/posts").document())
  }
  try batch.commit()
}

// Following someone writes both sides in one batch, as the app does.
for (index, uid) in userIDs.enumerated() {
  for _ in 0..<random.next(upTo: 8) {
    let other = userIDs[random.next(upTo: userIDs.count)]
    guard other != uid else { continue }
    let since = Timestamp(date: start.addingTimeInterval(Double(index * 600)))
    let batch = db.batch()
    batch.setData(["since": since], forDocument: db.document("users/\(uid)/following/\(other)"))
    batch.setData(["since": since], forDocument: db.document("users/\(other)/followers/\(uid)"))
    try batch.commit()
  }
}

let rooms = Array(
  ["general", "swift", "random", "help", "announcements", "offtopic", "jobs", "events"].prefix(
    max(1, (userIDs.count * 8) / 300)))
for (index, room) in rooms.enumerated() {
  let members = (0..<5).map { _ in userIDs[random.next(upTo: min(names.count, userIDs.count))] }
  try db.collection("rooms").document(room).setData([
    "name": "#\(room)", "members": Array(Set(members)).sorted(), "createdAt": Timestamp(date: start), "messageCount": 0,
  ])
  let batch = db.batch()
  for number in 0..<(10 + index * 3) {
    batch.setData(
      [
        "from": members[number % members.count], "text": "Message \(number + 1) in #\(room)",
        "sentAt": Timestamp(date: start.addingTimeInterval(Double(number * 45 + index))),
      ], forDocument: db.collection("rooms/\(room)/messages").document())
    batch.updateData(
      ["messageCount": FieldValue.increment(1), "lastMessageAt": FieldValue.serverTimestamp()],
      forDocument: db.document("rooms/\(room)"))
  }
  try batch.commit()
}

print(
  "Wrote the demo database to \(db.path): \(userIDs.count) users with posts and followers, "
    + (rooms.count == 1 ? "1 chat room." : "\(rooms.count) chat rooms."))

/// A small deterministic generator, so the demo data is the same on every run.
struct Generator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(upTo bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
}
