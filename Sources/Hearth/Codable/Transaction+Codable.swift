import Foundation

extension Transaction {
  /// Writes `value`'s fields when the transaction commits: replacing the document, or
  /// with `merge: true` merging into it.
  ///
  /// Throws an `EncodingError` here, where encoding happens (the write is not added);
  /// an uncaught throw ends `runTransaction` with nothing written. Invalid data that
  /// encodes fine makes `runTransaction` throw, as with the other writes.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false,
    encoder: Database.Encoder = .init()
  ) throws -> Transaction {
    setData(try encoder.encode(value, documentPath: document.path), forDocument: document, merge: merge)
  }

  /// Writes only the listed field paths of `value`'s fields when the transaction
  /// commits.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded (the write is not added).
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, mergeFields: [Any],
    encoder: Database.Encoder = .init()
  ) throws -> Transaction {
    setData(try encoder.encode(value, documentPath: document.path), forDocument: document, mergeFields: mergeFields)
  }
}
