/// A call's request metadata (its HTTP/2 headers less the pseudo-headers): where clients
/// put what is not in the message, as Firestore's put `authorization` (the user's token),
/// `google-cloud-resource-prefix` (`projects/{p}/databases/{d}`) and `x-goog-request-params`.
///
/// Names are lowercase, as HTTP/2 sends them. Values are text; a binary (`-bin`) value,
/// which gRPC has already decoded from base64, is read as UTF-8 like the rest: Firestore's
/// clients send none that the server reads.
package struct GRPCMetadata: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package let name: String
    package let value: String

    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// In the order the client sent them; a name may repeat.
  package let entries: [Entry]

  package init(_ entries: [Entry]) { self.entries = entries }

  /// The first value sent under `name` (any case), if any.
  package subscript(name: String) -> String? {
    let wanted = name.lowercased()
    return entries.first { $0.name == wanted }?.value
  }
}
