import HearthCore

/// Why bytes are not a valid message: the message and field being read and the problem,
/// with the fields that led there from the outermost message (`CommitRequest.writes` →
/// `Write.update` → …). A handler answers it with INVALID_ARGUMENT (`hearthError`).
package struct ProtobufError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The full name of the message being read: `google.firestore.v1.Value`.
  package var message: String
  /// The field being read, `name (number)`, or `nil` for a problem of the message itself.
  package var field: String?
  package var problem: String
  /// The enclosing fields, outermost first, each `Message.field`.
  package var path: [String] = []

  package init(message: String, field: String?, problem: String) {
    self.message = message
    self.field = field
    self.problem = problem
  }

  package var description: String {
    var text = "Invalid \(message)"
    if let field { text += " field \(field)" }
    text += ": \(problem)"
    if !path.isEmpty { text += " (in \(path.joined(separator: " > ")))" }
    return text
  }

  /// The error a handler returns: `invalidArgument` with this description.
  package var hearthError: HearthError { HearthError(.invalidArgument, description) }
}
