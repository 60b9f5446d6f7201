import Hearth

struct User: Codable {
  @DocumentID var id: String?
  var name: String
  var joined: Date
}

let db = try Database(path: "quickstart.hearth")
let users = db.collection("users")
try users.document("alice").setData(from: User(name: "Alice", joined: Date()))
let alice = try users.document("alice").getDocument(as: User.self)
print(alice.id!, alice.name)  // alice Alice

try users.document("alice").collection("posts").addDocument(data: ["title": "Hello", "likes": 0])

let batch = db.batch()
batch.setData(["since": FieldValue.serverTimestamp()], forDocument: db.document("users/alice/following/bob"))
batch.setData(["since": FieldValue.serverTimestamp()], forDocument: db.document("users/bob/followers/alice"))
try batch.commit()
print(try db.document("users/bob").listCollections().map(\.collectionID))  // ["followers"]

let popular = db.collectionGroup("posts").whereField("likes", isLessThan: 10).order(by: "likes", descending: true)
print(try popular.limit(to: 10).getDocuments().documents.compactMap { $0["title"] as? String })  // ["Hello"]
