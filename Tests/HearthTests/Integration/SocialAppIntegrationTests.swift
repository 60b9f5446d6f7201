import Foundation
import Hearth
import HearthTestSupport
import Testing

// The data layer of a small social app, written as a Firestore app writes it (Codable
// models, managers over collection references), run against Hearth end to end.
//
//   users/{uid}                     DatabaseUser
//   users/{uid}/posts/{postId}      Post
//   users/{uid}/following/{other}   written together with users/{other}/followers/{uid}

private struct DatabaseUser: Codable, Equatable {
  let userId: String
  let username: String
  let dateCreated: Date
  let email: String?
  let profileImage: String?
  let isPremium: Bool
}

private struct Post: Codable, Equatable {
  let postId: String
  let ownerId: String
  let title: String
  let createdAt: Date
  let likes: Int
  let tags: [String]
  let ratings: [String: String]
}

/// The app's data layer.
private struct SocialStore {
  let db: Database

  private var users: CollectionReference { db.collection("users") }
  private func userDocument(_ uid: String) -> DocumentReference { users.document(uid) }
  private func posts(of uid: String) -> CollectionReference { userDocument(uid).collection("posts") }

  func createNewUser(_ user: DatabaseUser) throws {
    try userDocument(user.userId).setData(from: user, merge: false)
  }

  func getUser(_ uid: String) throws -> DatabaseUser {
    try userDocument(uid).getDocument(as: DatabaseUser.self)
  }

  func updateProfileImage(of uid: String, url: String) throws {
    try userDocument(uid).updateData(["profileImage": url])
  }

  func buyPremium(for uid: String) throws {
    try userDocument(uid).updateData(["isPremium": true])
  }

  @discardableResult
  func createPost(by uid: String, title: String, tags: [String], at date: Date) throws -> Post {
    let document = posts(of: uid).document()
    let post = Post(
      postId: document.documentID, ownerId: uid, title: title, createdAt: date, likes: 0, tags: tags, ratings: [:])
    try document.setData(from: post)
    return post
  }

  func rate(post postId: String, of owner: String, by rater: String, stars: String) throws {
    try posts(of: owner).document(postId).updateData([
      FieldPath(["ratings", rater]): stars, "likes": FieldValue.increment(1),
    ])
  }

  func follow(_ me: String, _ them: String) throws {
    let batch = db.batch()
    let since = Timestamp()
    batch.setData(["since": since], forDocument: userDocument(me).collection("following").document(them))
    batch.setData(["since": since], forDocument: userDocument(them).collection("followers").document(me))
    try batch.commit()
  }

  func unfollow(_ me: String, _ them: String) throws {
    let batch = db.batch()
    batch.deleteDocument(userDocument(me).collection("following").document(them))
    batch.deleteDocument(userDocument(them).collection("followers").document(me))
    try batch.commit()
  }

  func following(_ uid: String) throws -> [String] {
    try userDocument(uid).collection("following").getDocuments().documents.map(\.documentID)
  }

  func followers(_ uid: String) throws -> [String] {
    try userDocument(uid).collection("followers").getDocuments().documents.map(\.documentID)
  }

  /// The home feed: my following list, then each followed user's posts, newest first.
  func homeFeed(for uid: String) throws -> [Post] {
    var feed: [Post] = []
    for followed in try following(uid) {
      for document in try posts(of: followed).getDocuments().documents {
        feed.append(try document.data(as: Post.self))
      }
    }
    return feed.sorted { $0.createdAt > $1.createdAt }
  }
}

@Suite struct SocialAppIntegrationTests {
  private static let start = Date(timeIntervalSince1970: 1_780_000_000)

  private static func user(_ uid: String, email: String? = nil, premium: Bool = false, offset: Double = 0)
    -> DatabaseUser
  {
    DatabaseUser(
      userId: uid, username: uid.capitalized, dateCreated: start.addingTimeInterval(offset), email: email,
      profileImage: nil, isPremium: premium)
  }

  @Test func signUpStoresTheUserAndReadsItBack() throws {
    try withDatabase { db in
      let store = SocialStore(db: db)
      let alice = Self.user("alice", email: "alice@example.com", offset: 0.5)
      try store.createNewUser(alice)
      #expect(try store.getUser("alice") == alice)

      // As stored: a timestamp for the date, the optional that is nil left out.
      let raw = try #require(try db.document("users/alice").getDocument().data())
      #expect(raw["dateCreated"] is Timestamp)
      #expect(raw["email"] as? String == "alice@example.com")
      #expect(raw["profileImage"] == nil)
      #expect(raw["isPremium"] as? Bool == false)
      #expect(raw["userId"] as? String == "alice")

      let bob = Self.user("bob")
      try store.createNewUser(bob)
      #expect(try store.getUser("bob") == bob)
      #expect(try db.collection("users").getDocuments().documents.map(\.documentID) == ["alice", "bob"])
    }
  }

  @Test func profilePictureAndPremium() throws {
    try withDatabase { db in
      let store = SocialStore(db: db)
      try store.createNewUser(Self.user("alice", email: "a@example.com"))
      let created = try db.document("users/alice").getDocument()

      try store.updateProfileImage(of: "alice", url: "https://example.com/alice.png")
      var alice = try store.getUser("alice")
      #expect(alice.profileImage == "https://example.com/alice.png")
      #expect(alice.email == "a@example.com", "other fields are kept")
      #expect(!alice.isPremium)

      try store.buyPremium(for: "alice")
      alice = try store.getUser("alice")
      #expect(alice.isPremium)
      #expect(alice.profileImage == "https://example.com/alice.png")
      #expect(alice.dateCreated == Self.start)

      let updated = try db.document("users/alice").getDocument()
      #expect(updated.createTime == created.createTime)
      let newTime = try #require(updated.updateTime)
      let oldTime = try #require(created.updateTime)
      #expect(newTime > oldTime)

      // Updating a user who never signed up fails and creates nothing.
      expectHearthError(.notFound) { try store.buyPremium(for: "ghost") }
      #expect(try db.collection("users").listDocuments().map(\.documentID) == ["alice"])
    }
  }

  @Test func postsLiveUnderTheirAuthor() throws {
    try withDatabase { db in
      let store = SocialStore(db: db)
      try store.createNewUser(Self.user("alice"))
      let first = try store.createPost(by: "alice", title: "Hello", tags: ["swift"], at: Self.start)
      let second = try store.createPost(
        by: "alice", title: "Again", tags: ["linux", "lmdb"], at: Self.start.addingTimeInterval(60))
      #expect(isAutoID(first.postId) && isAutoID(second.postId))

      let read = try db.document("users/alice/posts/\(first.postId)").getDocument(as: Post.self)
      #expect(read == first)
      try store.rate(post: first.postId, of: "alice", by: "bob", stars: "5")
      try store.rate(post: first.postId, of: "alice", by: "carol.smith", stars: "3")  // a dot in a map key
      let rated = try db.document("users/alice/posts/\(first.postId)").getDocument(as: Post.self)
      #expect(rated.ratings == ["bob": "5", "carol.smith": "3"])
      #expect(rated.likes == 2)
      #expect(rated.title == "Hello")

      #expect(try db.collectionGroup("posts").getDocuments().count == 2)
      #expect(try db.collection("users").getDocuments().count == 1, "posts are not users")
    }
  }

  @Test func followAndUnfollowWriteBothSidesTogether() throws {
    try withDatabase { db in
      let store = SocialStore(db: db)
      for uid in ["alice", "bob", "carol"] { try store.createNewUser(Self.user(uid)) }
      try store.follow("alice", "bob")
      try store.follow("alice", "carol")
      try store.follow("carol", "bob")
      #expect(try store.following("alice") == ["bob", "carol"])
      #expect(try store.followers("bob") == ["alice", "carol"])
      #expect(try store.followers("carol") == ["alice"])
      let outgoing = try db.document("users/alice/following/bob").getDocument()
      let incoming = try db.document("users/bob/followers/alice").getDocument()
      #expect(outgoing.get("since") as? Timestamp == incoming.get("since") as? Timestamp)
      #expect(outgoing.updateTime == incoming.updateTime, "one commit")

      try store.unfollow("alice", "bob")
      #expect(try store.following("alice") == ["carol"])
      #expect(try store.followers("bob") == ["carol"])
      #expect(try !db.document("users/alice/following/bob").getDocument().exists)
      #expect(try !db.document("users/bob/followers/alice").getDocument().exists)
      // Unfollowing again is harmless.
      try store.unfollow("alice", "bob")
      #expect(try store.following("alice") == ["carol"])
      #expect(try db.document("users/alice").listCollections().map(\.collectionID) == ["following"])
    }
  }

  @Test func homeFeedShowsPostsOfFollowedUsersNewestFirst() throws {
    try withDatabase { db in
      let store = SocialStore(db: db)
      for uid in ["alice", "bob", "carol", "dave"] { try store.createNewUser(Self.user(uid)) }
      let bob1 = try store.createPost(by: "bob", title: "bob 1", tags: [], at: Self.start.addingTimeInterval(10))
      let carol1 = try store.createPost(
        by: "carol", title: "carol 1", tags: ["x"], at: Self.start.addingTimeInterval(30))
      let bob2 = try store.createPost(by: "bob", title: "bob 2", tags: [], at: Self.start.addingTimeInterval(50))
      try store.createPost(by: "dave", title: "dave 1", tags: [], at: Self.start.addingTimeInterval(40))
      try store.createPost(by: "alice", title: "mine", tags: [], at: Self.start.addingTimeInterval(60))

      #expect(try store.homeFeed(for: "alice").isEmpty)
      try store.follow("alice", "bob")
      try store.follow("alice", "carol")
      #expect(try store.homeFeed(for: "alice").map(\.title) == ["bob 2", "carol 1", "bob 1"])
      #expect(try store.homeFeed(for: "alice") == [bob2, carol1, bob1])

      try store.unfollow("alice", "bob")
      #expect(try store.homeFeed(for: "alice").map(\.title) == ["carol 1"])
      // A followed user who deleted their account (and posts) simply shows nothing.
      try store.follow("alice", "dave")
      try db.recursiveDelete(db.document("users/dave"))
      #expect(try store.homeFeed(for: "alice").map(\.title) == ["carol 1"])
      #expect(try store.following("alice") == ["carol", "dave"])
    }
  }

  @Test func theWholeAppSurvivesAReopen() throws {
    let path = makeTemporaryPath("hearth-social")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var posted: Post?
    try withDatabase(at: path) { db in
      let store = SocialStore(db: db)
      try store.createNewUser(Self.user("alice", email: "a@example.com"))
      try store.createNewUser(Self.user("bob"))
      posted = try store.createPost(by: "bob", title: "persisted", tags: ["t"], at: Self.start)
      try store.follow("alice", "bob")
      try store.buyPremium(for: "alice")
    }
    try withDatabase(at: path) { db in
      let store = SocialStore(db: db)
      #expect(try store.getUser("alice").isPremium)
      let expectedPost = try #require(posted)
      #expect(try store.homeFeed(for: "alice") == [expectedPost])
    }
  }
}
