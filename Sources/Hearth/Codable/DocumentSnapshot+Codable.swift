import Foundation

extension DocumentSnapshot {
  /// The document's fields decoded as `type`, with `@DocumentID` filled from
  /// `reference`.
  ///
  /// For example:
  ///
  /// ```swift
  /// let posts = try query.getDocuments().documents.map { try $0.data(as: Post.self) }
  /// ```
  ///
  /// A missing document decodes as `nil` when `type` is optional (`Post?.self`), as in
  /// Firebase; otherwise it throws rather than producing a value from nothing.
  ///
  /// - Throws: `DecodingError.valueNotFound` ("Document users/bob does not exist") for a
  ///   missing document; `DecodingError` naming the document and the field when the data
  ///   does not fit `type`.
  public func data<T: Decodable>(as type: T.Type, decoder: Database.Decoder = .init()) throws -> T {
    guard let fields = storedFields else {
      if let optional = type as? any ExpressibleByNilLiteral.Type {
        return optional.init(nilLiteral: ()) as! T
      }
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: [],
          debugDescription: "Document \(reference.path) does not exist (decode \(type)?.self to get nil instead)"))
    }
    return try decoder.decode(type, fromStored: fields, in: reference)
  }
}
