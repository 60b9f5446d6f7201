import Foundation

extension WriteBatch {
  /// Adds a write of `value`'s fields: replacing the document, or with `merge: true`
  /// merging into it.
  ///
  /// Unlike the batch's other writes, this throws, because encoding happens here: an
  /// `EncodingError` leaves the batch as it was (the write is not added), as in
  /// Firebase. Invalid data that encodes fine is still reported by `commit()`.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false,
    encoder: Database.Encoder = .init()
  ) throws -> WriteBatch {
    setData(try encoder.encode(value, documentPath: document.path), forDocument: document, merge: merge)
  }

  /// Adds a write of only the listed field paths of `value`'s fields.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded (the write is not added).
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, mergeFields: [Any],
    encoder: Database.Encoder = .init()
  ) throws -> WriteBatch {
    setData(try encoder.encode(value, documentPath: document.path), forDocument: document, mergeFields: mergeFields)
  }
}
