/// A gRPC status code, named and numbered as gRPC names them (google/rpc/code.proto):
/// what a client's library turns into its own error (`grpc.StatusCode.NOT_FOUND`,
/// `FirestoreErrorCode.notFound`), so each must be the one Firestore itself answers.
package enum GRPCStatusCode: Int32, Sendable, CaseIterable {
  case ok = 0
  case cancelled = 1
  case unknown = 2
  case invalidArgument = 3
  case deadlineExceeded = 4
  case notFound = 5
  case alreadyExists = 6
  case permissionDenied = 7
  case resourceExhausted = 8
  case failedPrecondition = 9
  case aborted = 10
  case outOfRange = 11
  case unimplemented = 12
  case `internal` = 13
  case unavailable = 14
  case dataLoss = 15
  case unauthenticated = 16
}

/// How a call ended: a code and the message a client shows with it. A handler throws one
/// to end its call with that status; any other error it throws ends the call `unknown`.
package struct GRPCStatus: Error, Sendable, Equatable, CustomStringConvertible {
  package var code: GRPCStatusCode
  package var message: String

  package init(_ code: GRPCStatusCode, _ message: String = "") {
    self.code = code
    self.message = message
  }

  package static let ok = GRPCStatus(.ok)

  /// What a call's operations throw once the client has gone (cancelled, vanished,
  /// deadline passed) or the server has cancelled the call while shutting down.
  package static let callEnded = GRPCStatus(.cancelled, "the call has ended")

  package var description: String { message.isEmpty ? "\(code)" : "\(code): \(message)" }
}
