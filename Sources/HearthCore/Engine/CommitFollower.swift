/// What follows a store's commits from above the engine: the listeners' observers attach
/// one on first use (`DocumentStore.follower(_:)`), and every commit of this process hands
/// it its changes. The engine knows no more of listeners than this.
package protocol CommitFollower: AnyObject, Sendable {
  /// Whether anything follows the commits now: a commit then keeps the documents it
  /// wrote (`CommitChanges.documents`), which costs nothing it has not already built.
  var isFollowing: Bool { get }

  /// Whether a commit of these documents reaches anything that follows: such a commit
  /// ends its commit group (`DocumentStore.commit`), so that what follows it reads the
  /// state exactly it left.
  func follows(_ keys: [DocumentKey]) -> Bool

  /// Called by every commit path of `store` right after its commit, before the next
  /// commit of this process can begin, so that it sees one commit at a time, in order,
  /// on the state the commit left. `logSequence` is the commit's change-log entry (0:
  /// none).
  func committed(_ changes: CommitChanges, logSequence: UInt64, store: DocumentStore)

  /// The store is closing: stop whatever runs on its behalf.
  func storeClosed()
}

extension DocumentStore {
  /// The store's follower of type `Follower`, attached by `make` when it has none yet.
  package func follower<Follower: CommitFollower>(_ make: () -> Follower) -> Follower {
    followerSlot.withLock { follower in
      if let attached = follower as? Follower { return attached }
      precondition(follower == nil, "A store has one commit follower")
      let made = make()
      follower = made
      return made
    }
  }

  /// Whether a follower wants this commit's documents kept.
  var isFollowed: Bool { followerSlot.withLock { $0?.isFollowing ?? false } }

  /// Whether a commit of these documents reaches the follower.
  func follows(_ keys: [DocumentKey]) -> Bool { followerSlot.withLock { $0 }?.follows(keys) ?? false }

  /// Hands a commit's changes to the follower, if any. Called by every commit path right
  /// after its commit, before the next commit can begin.
  func committed(_ changes: CommitChanges, logSequence: UInt64) {
    followerSlot.withLock { $0 }?.committed(changes, logSequence: logSequence, store: self)
  }
}
