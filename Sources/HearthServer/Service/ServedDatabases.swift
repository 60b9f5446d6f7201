import Foundation
import HearthCore
import Synchronization

/// The Hearth databases a server serves, one per Firestore database name: any project and
/// database ID works, and each is its own Hearth database under the server's directory
/// (`DIR/{project_id}/{database_id}`), created on first use, as Google's emulator creates a
/// database the first time a client names it. Or one store, open in the program that
/// serves it (`init(serving:)`), which every name reaches.
package final class ServedDatabases: Sendable {
  /// How long each database keeps the versions writes replace unless told otherwise
  /// (`--version-retention`), for reads at a past `read_time`: 7 days, as far back as
  /// Google's emulator reads (and Firestore with point-in-time recovery); an older
  /// `read_time` is FAILED_PRECONDITION, as there.
  package static let defaultVersionRetention = Duration.seconds(7 * 24 * 3600)

  /// How long each database keeps old versions.
  package let versionRetention: Duration

  /// The directory that holds every served database.
  package let directory: String
  private let options: DocumentStore.Options
  /// Declared in every database at its opening (`--indexes`), as production's
  /// `firestore deploy` declares a project's indexes.
  private let indexes: IndexFile?
  private let stores = Mutex<[DatabaseName: DocumentStore]>([:])
  /// The one store every name reaches, which its owner closes.
  private let served: DocumentStore?

  package init(
    directory: String, options: DocumentStore.Options = DocumentStore.Options(), indexes: IndexFile? = nil,
    versionRetention: Duration = defaultVersionRetention
  ) {
    self.versionRetention = versionRetention
    self.directory = directory
    self.options = options
    self.indexes = indexes
    self.served = nil
  }

  /// Serves `store` under every project and database name; `close()` leaves it open.
  /// It keeps versions from now on, for reads at a past `read_time`.
  ///
  /// - Throws: what `keepVersions(for:)` throws.
  package init(serving store: DocumentStore, versionRetention: Duration = defaultVersionRetention) throws {
    if !store.options.readOnly { try store.keepVersions(for: versionRetention) }
    self.versionRetention = versionRetention
    directory = store.path
    options = store.options
    indexes = nil
    served = store
  }

  /// The store of `database`, opened (or created) on first use.
  ///
  /// - Throws: what opening the store throws (`dataLoss` for a damaged file,
  ///   `permissionDenied`, `resourceExhausted`).
  package func store(_ database: DatabaseName) throws -> DocumentStore {
    if let served { return served }
    return try stores.withLock { stores in
      if let store = stores[database] { return store }
      let path = self.path(of: database)
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      let store = try DocumentStore(path: path, options: options)
      do {
        if !options.readOnly { try store.keepVersions(for: versionRetention) }
        if let indexes { try store.declareIndexes(indexes) }
      } catch {
        store.close()
        throw error
      }
      stores[database] = store
      return store
    }
  }

  /// Where `database` lives: `DIR/{project}/{database}`, each ID percent-encoded beyond
  /// letters, digits and `-_()`, so that no name can leave the directory (`..`) or clash.
  package func path(of database: DatabaseName) -> String {
    directory + "/" + Self.fileName(database.projectID) + "/" + Self.fileName(database.databaseID)
  }

  /// Closes every store it opened; the server calls it once, when it has stopped.
  package func close() {
    stores.withLock { stores in
      for store in stores.values { store.close() }
      stores.removeAll()
    }
  }

  static func fileName(_ id: String) -> String {
    var name = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "("),
        UInt8(ascii: ")"):
        name.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return name
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
