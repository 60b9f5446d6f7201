import Foundation
import Hearth
import HearthTestSupport
import Testing

/// A commit reaches only the views of the collection, group or document it touched.
@Suite struct ListenerFanOutTests {
  @Test func aWriteToOneUsersPostsEvaluatesOneViewOutOfTenThousand() throws {
    let settings = Settings()
    settings.durability = .relaxed
    try withDatabase(settings: settings) { db in
      let users = 10_000
      let registrations = (0..<users).map { user in
        db.collection("users/u\(user)/posts").order(by: "createdAt", descending: true).limit(to: 20)
          .addSnapshotListener { _, _ in }
      }
      defer { for registration in registrations { registration.remove() } }
      #expect(db.listenerStatistics.listeners == users)
      let before = db.listenerStatistics.viewEvaluations
      try db.document("users/u4321/posts/p1").setData(["createdAt": Timestamp(), "title": "hello"])
      #expect(db.listenerStatistics.viewEvaluations == before + 1)
      // A batch over three users' posts reaches their three views; another collection, none.
      let batch = db.batch()
      for user in [1, 2, 3] {
        batch.setData(["createdAt": Timestamp()], forDocument: db.document("users/u\(user)/posts/p"))
      }
      try batch.commit()
      #expect(db.listenerStatistics.viewEvaluations == before + 4)
      try db.document("rooms/r1").setData(["name": "lobby"])
      #expect(db.listenerStatistics.viewEvaluations == before + 4)

      for registration in registrations { registration.remove() }
      #expect(db.listenerStatistics.listeners == 0)
    }
  }
}
