import Foundation
import HearthCore

extension AggregateQuery {
  /// A live aggregation, beyond Firestore: calls `listener` with the values now, then
  /// whenever a commit changes them, in commit order, in the isolation it was written in
  /// (as `Query.addSnapshotListener(_:)`).
  @discardableResult
  public func addSnapshotListener(
    isolation: isolated (any Actor)? = #isolation, _ listener: @escaping (AggregateQuerySnapshot?, Error?) -> Void
  ) -> ListenerRegistration {
    let database = query.firestore
    return database.listen(database.callbacks(for: isolation), listener) {
      let (model, functions) = try runnable()
      let view = AggregateView(model: model, functions: functions, requireIndexes: database.requireIndexes)
      return (view, { [self] in snapshot($0.values) })
    }
  }
}
