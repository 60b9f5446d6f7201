import Foundation
import HearthTestSupport
import Synchronization
import Testing

@testable import Hearth

/// `Settings` as Firebase's `FirestoreSettings`: a class assigned to `db.settings` before
/// first use, with its cache settings accepted, and refused after first use.
@Suite struct SettingsTests {
  /// Firebase's documented set-up compiles unchanged and is kept.
  @Test func firebasesSettingsCodeCompilesAndIsKept() throws {
    try withDatabase { db in
      let settings = FirestoreSettings()
      settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings())
      settings.cacheSettings = PersistentCacheSettings(sizeBytes: 100 * 1024 * 1024 as NSNumber)
      settings.host = "localhost:8080"
      settings.isSSLEnabled = false
      settings.isPersistenceEnabled = true
      settings.cacheSizeBytes = FirestoreCacheSizeUnlimited
      db.settings = settings

      let kept = db.settings
      #expect((kept.cacheSettings as? PersistentCacheSettings)?.sizeBytes == 100 << 20)
      #expect(kept.host == "localhost:8080")
      #expect(kept.isSSLEnabled == false)
      #expect(kept.cacheSizeBytes == -1)
      #expect(MemoryCacheSettings().garbageCollectorSettings is MemoryEagerGCSettings)
      #expect(MemoryLRUGCSettings(sizeBytes: NSNumber(value: 1 << 20)).sizeBytes == 1 << 20)
      try db.document("c/d").setData(["works": true])
    }
  }

  @Test func settingsAssignedBeforeFirstUseTakeEffect() throws {
    let path = makeTemporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Database(path: path).close()  // create it

    try withDatabase(at: path) { db in
      let settings = db.settings
      settings.readOnly = true
      settings.requireIndexes = true
      db.settings = settings  // opens the database again, read-only
      #expect(db.settings.readOnly)
      expectHearthError(.failedPrecondition, mentioning: ["read-only"]) { try db.document("c/d").setData(["a": 1]) }
      expectHearthError(.failedPrecondition, mentioning: ["index"]) {
        _ = try db.collection("c").whereField("a", isEqualTo: 1).order(by: "b").getDocuments()
      }
    }
  }

  @Test func settingsAssignedAfterFirstUseAreRefusedWithFirebasesMessage() throws {
    try withDatabase(settings: relaxed) { db in
      try db.document("c/d").setData(["a": 1])
      let warnings = Mutex<[String]>([])
      let settings = db.settings
      settings.requireIndexes = true
      Diagnostics.observing({ message in warnings.withLock { $0.append(message) } }, { db.settings = settings })
      #expect(db.settings.requireIndexes == false)
      _ = try db.collection("c").whereField("a", isEqualTo: 1).order(by: "b").getDocuments()
      let said = warnings.withLock { $0 }.filter { $0.contains(db.path) }
      #expect(said.count == 1)
      #expect(said.first?.hasPrefix("Firestore instance has already been started") == true, "\(said)")
    }
  }

  /// A database keeps a copy: neither the object it was given nor the one `settings`
  /// returned changes it.
  @Test func aDatabaseKeepsItsOwnCopy() throws {
    let given = relaxed
    try withDatabase(settings: given) { db in
      given.requireIndexes = true
      let returned = db.settings
      returned.requireIndexes = true
      #expect(db.settings.requireIndexes == false)
      #expect(db.settings.durability == .relaxed)
      _ = try db.collection("c").whereField("a", isEqualTo: 1).order(by: "b").getDocuments()
    }
  }
}
