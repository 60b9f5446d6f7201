// Must not compile: outside any actor, a main-actor handler cannot be handed to Hearth,
// which would call it outside the main actor.
import Hearth

@MainActor func show(_ snapshot: QuerySnapshot?, _ error: Error?) {}

nonisolated func listen(_ db: Database) -> ListenerRegistration {
  let handler: @MainActor (QuerySnapshot?, Error?) -> Void = show
  return db.collection("posts").addSnapshotListener(handler)
}
