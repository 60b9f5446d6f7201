import Foundation

extension CollectionReference {
  /// Adds a document with a new random ID holding `value`'s fields.
  ///
  /// For example:
  ///
  /// ```swift
  /// let ref = try db.collection("users/alice/posts").addDocument(from: post)
  /// ```
  ///
  /// Synchronous `throws` with an optional `completion:`, as in Firebase (see
  /// `DocumentReference.setData(from:merge:encoder:completion:)` for why there is no
  /// `async` overload). With a `completion`, encoding errors are thrown and the write's
  /// outcome goes to `completion`.
  ///
  /// - Returns: the new document's reference.
  /// - Throws: `EncodingError` when `value` cannot be encoded; `invalidArgument` for data
  ///   Firestore would refuse.
  @discardableResult
  public func addDocument<T: Encodable>(
    from value: T, encoder: Database.Encoder = .init(), isolation: isolated (any Actor)? = #isolation,
    completion: ((Error?) -> Void)? = nil
  ) throws -> DocumentReference {
    let reference = document()
    let data = try encoder.encode(value, documentPath: reference.path)
    if let completion {
      reference.create(data, isolation: isolation, completion: completion)
    } else {
      try reference.create(data)
    }
    return reference
  }
}
