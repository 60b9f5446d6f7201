import Foundation
import HearthCore

/// Hearth as the Firestore emulator: Google's clients in any language reach the Hearth
/// databases under `directory` with `FIRESTORE_EMULATOR_HOST=host:port`, over plaintext
/// gRPC, and Google's emulator's HTTP endpoints on the same port work too
/// (`DELETE /emulator/v1/projects/{p}/databases/{d}/documents` empties a database, which
/// test harnesses call between tests).
///
/// Every project and database ID a client names is its own Hearth database under
/// `directory`, created on first use and kept between runs.
package final class FirestoreServer: Sendable {
  /// The port it listens on (the system's choice when asked for port 0).
  package let port: Int
  package let databases: ServedDatabases
  private let grpc: GRPCServer
  private let work: WorkerThreads

  /// Starts serving.
  ///
  /// - Parameter durable: sync every commit to disk (`false` for throw-away data, as
  ///   `--ephemeral` serves).
  /// - Parameter requireIndexes: refuse queries that need an index not declared, as
  ///   production does (`--require-indexes`).
  /// - Parameter indexes: declared in every database when it opens (`--indexes`).
  /// - Parameter versionRetention: how long each database keeps old versions, for reads
  ///   at a past `read_time` (`--version-retention`).
  /// - Parameter log: one line per call (`--verbose`).
  /// - Throws: `GRPCServer.StartError` when the address cannot be bound.
  package convenience init(
    directory: String, host: String = "127.0.0.1", port: Int = 8080, durable: Bool = true,
    requireIndexes: Bool = false, indexes: IndexFile? = nil,
    versionRetention: Duration = ServedDatabases.defaultVersionRetention, log: (@Sendable (String) -> Void)? = nil
  ) throws {
    var options = DocumentStore.Options()
    options.durable = durable
    let databases = ServedDatabases(
      directory: directory, options: options, indexes: indexes, versionRetention: versionRetention)
    try self.init(
      databases: databases, host: host, port: port,
      requireIndexes: requireIndexes, log: log)
  }

  /// Serves `store`, open in this program, under every project and database name; its
  /// owner closes it after `shutdown()`.
  ///
  /// - Throws: `GRPCServer.StartError` when the address cannot be bound; what turning on
  ///   the store's versions throws.
  package convenience init(
    serving store: DocumentStore, host: String = "127.0.0.1", port: Int = 8080, requireIndexes: Bool = false,
    log: (@Sendable (String) -> Void)? = nil
  ) throws {
    try self.init(
      databases: ServedDatabases(serving: store), host: host, port: port, requireIndexes: requireIndexes, log: log)
  }

  private init(
    databases: ServedDatabases, host: String, port: Int, requireIndexes: Bool, log: (@Sendable (String) -> Void)?
  ) throws {
    let service = FirestoreService(databases: databases, requireIndexes: requireIndexes)
    // Enough threads that writes waiting for a transaction's locks never hold up the
    // call that ends it.
    let work = WorkerThreads(count: 64)
    do {
      grpc = try GRPCServer(
        host: host, port: port, handlers: FirestoreRoutes.handlers(service, work: work, log: log),
        http: { request in
          Self.answer(request, service: service)
        })
    } catch {
      work.stop()
      throw error
    }
    self.port = grpc.port
    self.databases = databases
    self.work = work
  }

  /// Stops taking calls, lets those in flight finish (cancelling what is left after
  /// `grace`), then closes every database.
  package func shutdown(grace: Duration = .seconds(5)) async {
    await grpc.shutdown(grace: grace)
    work.stop()
    databases.close()
  }

  /// Google's emulator's HTTP endpoints: `GET /` answers "Ok" (tools poll it to learn
  /// that the emulator is up); `DELETE …/documents` empties that database.
  static func answer(_ request: HTTPRequest, service: FirestoreService) -> HTTPResponse {
    if request.path == "/", request.method == "GET" {
      return HTTPResponse(status: 200, contentType: "text/plain", body: Array("Ok\n".utf8))
    }
    let segments = request.path.split(separator: "/").map(String.init)
    guard segments.count == 7, segments[0] == "emulator", segments[1] == "v1", segments[2] == "projects",
      segments[4] == "databases", segments[6] == "documents"
    else { return .notFound }
    guard request.method == "DELETE" else {
      return HTTPResponse(status: 405, contentType: "text/plain", body: Array("Method Not Allowed\n".utf8))
    }
    let database = DatabaseName(
      projectID: segments[3].removingPercentEncoding ?? segments[3],
      databaseID: segments[5].removingPercentEncoding ?? segments[5])
    do {
      try service.reset(database)
      return HTTPResponse(status: 200, body: Array("{}\n".utf8))
    } catch {
      let failure = FirestoreService.hearthError(error)
      return HTTPResponse(status: 500, contentType: "text/plain", body: Array("\(failure.message)\n".utf8))
    }
  }
}

extension FirestoreService {
  /// Deletes every document of `database`, as Google's emulator's reset endpoint does.
  ///
  /// - Throws: what the deletes throw.
  package func reset(_ database: DatabaseName) throws {
    let store = try databases.store(database)
    for id in try store.read({ try $0.collectionIDs(under: nil) }) {
      try store.deleteRecursively(collection: ResourcePath([id]))
    }
  }
}
