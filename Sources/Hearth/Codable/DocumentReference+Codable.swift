import Foundation

/// Codable writes and reads of one document, in Firebase's shapes.
///
/// The writes are synchronous `throws` with an optional `completion:` — one method each,
/// as in Firebase, not a separate `async` overload — so `try ref.setData(from: user)`
/// means the same inside `async` code (an `async` overload would be preferred there and
/// demand `await`). With `completion` `nil`, every error is thrown; with a `completion`,
/// encoding errors are thrown (and `completion` is not called) and the write's outcome
/// goes to `completion` on the caller's actor (or `Settings.dispatchQueue` outside any
/// actor), as in Firebase.
extension DocumentReference {
  /// Writes `value`'s fields, encoded with `encoder`: replacing the document, or with
  /// `merge: true` merging into it.
  ///
  /// For example:
  ///
  /// ```swift
  /// try db.collection("users").document(uid).setData(from: user)
  /// ```
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded; `invalidArgument` for data
  ///   Firestore would refuse (a nested array, say); nothing is written then.
  public func setData<T: Encodable>(
    from value: T, merge: Bool = false, encoder: Database.Encoder = .init(),
    isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)? = nil
  ) throws {
    let data = try encoder.encode(value, documentPath: path)
    if let completion {
      setData(data, merge: merge, isolation: isolation, completion: completion)
    } else {
      try setData(data, merge: merge)
    }
  }

  /// Writes only the listed field paths (`String`s or `FieldPath`s) of `value`'s fields.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded; `invalidArgument` when a
  ///   listed field is missing from the encoded data (a `nil` optional is left out).
  public func setData<T: Encodable>(
    from value: T, mergeFields: [Any], encoder: Database.Encoder = .init(),
    isolation: isolated (any Actor)? = #isolation, completion: ((Error?) -> Void)? = nil
  ) throws {
    let data = try encoder.encode(value, documentPath: path)
    if let completion {
      setData(data, mergeFields: mergeFields, isolation: isolation, completion: completion)
    } else {
      try setData(data, mergeFields: mergeFields)
    }
  }

  /// Reads the document as `type`.
  ///
  /// For example:
  ///
  /// ```swift
  /// let user = try db.document("users/alice").getDocument(as: DatabaseUser.self)
  /// let maybe = try db.document("users/bob").getDocument(as: DatabaseUser?.self)  // nil if missing
  /// ```
  ///
  /// - Throws: `DecodingError.valueNotFound` ("Document users/bob does not exist") for a
  ///   missing document unless `type` is optional; `DecodingError` naming the document
  ///   and the field when the data does not fit `type`; as `getDocument()`,
  ///   `invalidArgument` for an invalid path, `failedPrecondition` when the database is
  ///   closed, `dataLoss` for damaged bytes.
  public func getDocument<T: Decodable>(as type: T.Type, decoder: Database.Decoder = .init()) throws -> T {
    try getDocument().data(as: type, decoder: decoder)
  }

  /// The `async` form: reads off the concurrency pool, decodes where it is called.
  ///
  /// - Throws: as `getDocument(as:decoder:)`: `DecodingError` for a missing document
  ///   (unless `type` is optional) or data that does not fit; `invalidArgument`,
  ///   `failedPrecondition` or `dataLoss` from the read.
  public func getDocument<T: Decodable>(as type: T.Type, decoder: Database.Decoder = .init()) async throws -> T {
    try await getDocument().data(as: type, decoder: decoder)
  }

  /// Firebase's completion form: reads now and calls `completion` on the caller's actor
  /// (or `Settings.dispatchQueue` outside any actor).
  public func getDocument<T: Decodable>(
    as type: T.Type, decoder: Database.Decoder = .init(), isolation: isolated (any Actor)? = #isolation,
    completion: @escaping (Result<T, Error>) -> Void
  ) {
    let result = Result { try getDocument(as: type, decoder: decoder) }
    let box = CallbackBox { completion(result) }
    firestore.callbacks(for: isolation).enqueue { box.run() }
  }
}
