import HearthCore

/// The rule Firestore's backend holds a commit's writes to, beyond each write's own: a
/// document written twice in one request may be created the second time only right after
/// its delete, and may not be updated right after its delete. Google's emulator refuses those with INVALID_ARGUMENT before
/// it reads anything (a precondition that would fail too is not reported), in these
/// words; HearthCore applies such writes in turn, as the Swift API's batches do.
enum BackendWriteRules {
  /// - Throws: `invalidArgument` naming the two writes, for the first pair that breaks it.
  static func check(_ writes: [Write]) throws {
    var last: [DocumentKey: Verb] = [:]
    for write in writes {
      let verb = Verb(write)
      if let previous = last[write.key], previous == .delete ? verb == .update : verb == .insert {
        throw HearthError(.invalidArgument, "Cannot \(previous) then \(verb) an entity in the same request.")
      }
      last[write.key] = verb
    }
  }

  /// A write as the backend names it: a create inserts, a set or merge upserts, an
  /// update (or any write that requires the document) updates.
  private enum Verb: String, CustomStringConvertible {
    case insert, upsert, update, delete

    init(_ write: Write) {
      switch (write.kind, write.precondition) {
      case (.delete, _): self = .delete
      case (_, .exists(false)): self = .insert
      case (_, .exists(true)), (_, .updateTime): self = .update
      case (_, .none): self = .upsert
      }
    }

    var description: String { rawValue }
  }
}
