/// A view a front end keeps live: its first snapshot on a state of the store, then one
/// after each commit that changes what it shows. Views are values in HearthCore's own
/// terms (`Value`s and encoded documents); a front end drives them one commit at a time,
/// in commit order (as a `CommitObserver` is called), and turns their snapshots into its
/// own (the Swift API's `QuerySnapshot`, a wire protocol's messages).
package protocol LiveView: Sendable {
  associatedtype Snapshot: Sendable

  /// The commits that can change what the view shows.
  var scope: ObservationScope { get }

  /// The first snapshot, on `reader`'s state.
  mutating func start(_ reader: StoreReader) throws -> Snapshot

  /// The snapshot after a commit's `changes`, on the state it left (`reader`), or `nil`
  /// when nothing the view shows changed.
  mutating func update(by changes: CommitChanges, reader: StoreReader) throws -> Snapshot?
}
