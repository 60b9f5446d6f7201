import Foundation
import Hearth
import Testing

/// The memory map grows by itself: a database opened with a tiny map takes 500 MB of
/// documents without the caller seeing an error.
@Suite struct MapGrowthTests {
  @Test func aTinyInitialMapTakes500MegabytesOfDocuments() throws {
    let settings = Settings()
    settings.initialMapSize = 64 << 10
    settings.durability = .relaxed
    let db = try Database.temporary(settings: settings)
    defer { db.close() }
    let payload = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let documentCount = 500
    for first in stride(from: 0, to: documentCount, by: 25) {
      let batch = db.batch()
      for index in first..<first + 25 {
        batch.setData(["index": index, "payload": payload], forDocument: db.collection("blobs").document("b\(index)"))
      }
      try batch.commit()
    }
    let snapshot = try db.collection("blobs").getDocuments()
    #expect(snapshot.count == documentCount)
    let last = try db.document("blobs/b499").getDocument()
    #expect(last.get("payload") as? Data == payload)
    #expect(last.get("index") as? Int64 == 499)
    let onDisk = try FileManager.default.attributesOfItem(atPath: db.path + "/data.mdb")[.size] as? Int ?? 0
    #expect(onDisk >= 500_000_000)
  }
}
