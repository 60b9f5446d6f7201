import Foundation
import Hearth
import HearthTestSupport
import Testing

@Test func smoke() throws {
  try withDatabase { db in
    let alice = db.collection("users").document("alice")
    try alice.setData(["name": "Alice", "age": 30, "tags": ["a", "b"], "address": ["city": "Madrid"]])
    let snapshot = try alice.getDocument()
    #expect(snapshot.exists)
    #expect(snapshot.get("name") as? String == "Alice")
    #expect(snapshot.get("age") as? Int64 == 30)
    #expect(snapshot.get("address.city") as? String == "Madrid")
    try alice.updateData(["address.zip": "28001", "age": FieldValue.increment(1)])
    let updated = try alice.getDocument()
    #expect(updated.get("age") as? Int64 == 31)
    #expect(updated.get("address.city") as? String == "Madrid")
    try alice.collection("posts").document("p1").setData(["title": "Hi"])
    #expect(try db.listCollections().map(\.collectionID) == ["users"])
    #expect(try alice.listCollections().map(\.collectionID) == ["posts"])
    #expect(try db.collection("users").getDocuments().count == 1)
    #expect(try db.collectionGroup("posts").getDocuments().documents.map(\.reference.path) == ["users/alice/posts/p1"])
    try db.recursiveDelete(alice)
    #expect(try db.listCollections().isEmpty)
  }
}
