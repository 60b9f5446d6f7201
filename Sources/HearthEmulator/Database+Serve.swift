import Foundation
import Hearth
import HearthServer

/// A `Database` served over the Firestore emulator's wire protocol (gRPC,
/// `google.firestore.v1`), as `hearth serve` serves its databases: Google's own clients in
/// any language reach it with `FIRESTORE_EMULATOR_HOST` set to `address`.
///
/// ```swift
/// let db = try Database(path: "app.hearth")
/// let server = try db.serve(port: 0)
/// print("export FIRESTORE_EMULATOR_HOST=\(server.address)")
/// // … a Python test suite drives the app's data; the app's own listeners see its writes …
/// await server.stop()
/// ```
///
/// Every project and database ID a client names reaches this one database. The server
/// runs on threads of its own until `stop()`; the database stays open after it.
public final class EmulatorServer: Sendable {
  /// The address it listens on.
  public let host: String
  /// The port it listens on (the system's choice when asked for port 0).
  public let port: Int
  private let server: FirestoreServer

  /// `host:port` (an IPv6 host in brackets): the value of `FIRESTORE_EMULATOR_HOST`.
  public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  init(server: FirestoreServer, host: String) {
    self.server = server
    self.host = host
    self.port = server.port
  }

  /// Stops taking calls and lets those in flight finish (cancelling what is left after
  /// five seconds). The database stays open.
  public func stop() async {
    await server.shutdown()
  }
}

extension Database {
  /// Serves this database to Google's Firestore clients, as the Firestore emulator:
  /// gets, queries, writes, transactions and listeners, with Firestore's semantics and
  /// errors, under every project and database name (see `EmulatorServer`).
  ///
  /// From then on the database keeps the versions its writes replace, for 7 days, so
  /// that clients can read at a past `read_time`. `Settings.requireIndexes` applies to
  /// the clients' queries too.
  ///
  /// - Parameters:
  ///   - host: the address to listen on; loopback unless told otherwise.
  ///   - port: the port; 0 picks a free one (read it from `EmulatorServer.port`).
  /// - Throws: `unavailable` when the address cannot be bound (a port in use);
  ///   `failedPrecondition` for a closed database; what opening the database threw.
  public func serve(host: String = "127.0.0.1", port: Int = 8080) throws -> EmulatorServer {
    let store = try engine()
    do {
      let server = try FirestoreServer(serving: store, host: host, port: port, requireIndexes: requireIndexes)
      return EmulatorServer(server: server, host: host)
    } catch let error as HearthError {
      throw error
    } catch {
      throw HearthError(.unavailable, "Cannot serve on \(host):\(port): \(error) (is another server using the port?)")
    }
  }
}
