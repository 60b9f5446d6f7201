import Foundation
import HearthCore

/// A type that `@DocumentID` can hold: `String` (the document's ID) or
/// `DocumentReference` (the whole reference).
public protocol DocumentIDWrappable {
  /// The value for the document at `documentReference`.
  ///
  /// - Throws: whatever a conforming type cannot make of the reference; `String` and
  ///   `DocumentReference` never throw.
  static func wrap(_ documentReference: DocumentReference) throws -> Self
}

extension String: DocumentIDWrappable {
  /// The document's ID.
  ///
  /// - Throws: never.
  public static func wrap(_ documentReference: DocumentReference) throws -> String { documentReference.documentID }
}

extension DocumentReference: DocumentIDWrappable {
  /// The document's reference itself.
  ///
  /// - Throws: never.
  public static func wrap(_ documentReference: DocumentReference) throws -> DocumentReference { documentReference }
}

/// Marks a property that holds the document's ID (or reference), filled when the
/// document is read and never written as a field, as in Firebase.
///
/// For example:
///
/// ```swift
/// struct Post: Codable {
///   @DocumentID var id: String?
///   var title: String
/// }
/// let post = try db.document("posts/p1").getDocument(as: Post.self)   // post.id == "p1"
/// ```
///
/// Choices, and why:
/// - Writing skips the property whatever its value — even a value set by hand — because
///   the ID is the document's name, not a field; Firebase does the same (and logs a
///   warning, which Hearth does not). Skipping also works with other encoders (such as
///   `JSONEncoder`), through the `KeyedEncodingContainer.encode(_:forKey:)` overload
///   below that synthesized `encode(to:)` calls.
/// - Reading ignores any field of the same name and takes the reference that the
///   decoder was given (`DocumentSnapshot.data(as:)` and `getDocument(as:)` always give
///   it). `Database.Decoder` called without `in:` throws, as Firebase's decoder does;
///   another decoder (`JSONDecoder`, say) leaves the property `nil`, so a model can be
///   decoded from a cache.
@propertyWrapper
public struct DocumentID<Value: DocumentIDWrappable> {
  /// The document's ID (or reference), filled when the document is read; writing
  /// ignores it.
  public var wrappedValue: Value?

  /// A property holding `value`, which writing ignores.
  public init(wrappedValue value: Value?) {
    self.wrappedValue = value
  }
}

extension DocumentID: Equatable where Value: Equatable {}
extension DocumentID: Hashable where Value: Hashable {}
extension DocumentID: Sendable where Value: Sendable {}

/// What the encoder and decoder recognise `@DocumentID` by, whatever its `Value`.
protocol DocumentIDProtocol {
  init(reference: DocumentReference?) throws
}

extension DocumentID: DocumentIDProtocol {
  init(reference: DocumentReference?) throws {
    self.init(wrappedValue: try reference.map(Value.wrap))
  }

  /// From a request's answer: Hearth's decoder must have the reference.
  @usableFromInline
  init(_ request: DocumentReferenceRequest) throws {
    if request.isRequired, request.reference == nil { throw DocumentReferenceRequest.missing }
    self.init(wrappedValue: try request.reference.map(Value.wrap))
  }
}

/// Hearth's decoder fills a `@DocumentID` from its reference, whatever the data holds
/// under its key.
extension DocumentID: DirectlyDecodable {
  static func decoded(
    from value: HearthCore.Value, in context: DecodingContext, at path: @autoclosure () -> CodingPathNode
  ) throws -> Self {
    try Self(reference: context.requiredDocumentIDReference())
  }
}

extension DocumentID: Codable {
  /// Takes the document's reference from Hearth's decoder (which must have one) or from
  /// another decoder's `userInfo` (`nil` without one).
  ///
  /// `@inlinable`, as the `KeyedDecodingContainer.decode(_:forKey:)` overload below, so
  /// that the model's module specializes both for its `Value`: unspecialized, their
  /// generic metadata lookups cost more than the rest of a `@DocumentID`.
  ///
  /// - Throws: `DecodingError.valueNotFound` from Hearth's decoder when it was given no
  ///   reference (`Database.Decoder.decode(_:from:in:)` without `in:`).
  @inlinable
  public init(from decoder: any Decoder) throws {
    try self.init(DocumentReferenceRequest(from: decoder))
  }

  /// Reached only when a `@DocumentID` value is encoded on its own (in an array, say),
  /// not as a property: there it has no meaning, so it throws.
  ///
  /// - Throws: `EncodingError.invalidValue`, always.
  public func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      self,
      EncodingError.Context(
        codingPath: encoder.codingPath,
        debugDescription: "@DocumentID values are never written: they can only be properties of a Codable type, "
          + "where encoding skips them."))
  }
}

extension KeyedEncodingContainer {
  /// Skips `@DocumentID` properties: the document's ID is its name, never a field.
  /// Synthesized `encode(to:)` calls this overload with any encoder.
  ///
  /// - Throws: never.
  public mutating func encode<Value>(_ value: DocumentID<Value>, forKey key: Key) throws {}
}

/// The reference of the document that `decoder` reads, as `DocumentID.init(from:)`
/// takes it: Hearth's decoder has it at hand (building its `userInfo` to look it up
/// would cost more than the rest of the document); another decoder may have it in
/// `userInfo`.
@usableFromInline
func documentReference(decodedBy decoder: any Decoder) -> DocumentReference? {
  if let decoder = hearthDecoder(decoder) { return decoder.context.documentIDReference }
  return decoder.userInfo[.hearthDocumentReference] as? DocumentReference
}

/// `decoder` when it is Hearth's: an exact type comparison (`DecoderImpl` is final)
/// where `as? DecoderImpl` is a runtime cast costing more than the rest of a
/// `@DocumentID`.
func hearthDecoder<D: Decoder>(_ decoder: D) -> DecoderImpl? {
  D.self == DecoderImpl.self ? exactly(decoder, as: DecoderImpl.self) : nil
}

extension KeyedDecodingContainer {
  /// Fills a `@DocumentID` property from the document's reference, whether or not the
  /// data has a field of that name (synthesized `init(from:)` would otherwise throw
  /// `keyNotFound` when it has none).
  ///
  /// Asks first for a `DocumentReferenceRequest`, which Hearth's container answers from
  /// its context without looking the key up or making a decoder; another decoder gives
  /// one only when the key holds a value (taking the reference from its `userInfo`, as
  /// `DocumentID.init(from:)` would), and otherwise the super-decoder is used as before.
  ///
  /// - Throws: `DecodingError.valueNotFound` from Hearth's decoder when it was given no
  ///   reference.
  @inlinable
  public func decode<Value>(_ type: DocumentID<Value>.Type, forKey key: Key) throws -> DocumentID<Value> {
    if let request = try? decodeIfPresent(DocumentReferenceRequest.self, forKey: key) {
      return try DocumentID(request)
    }
    guard let decoder = try? superDecoder(forKey: key) else { return DocumentID(wrappedValue: nil) }
    return try DocumentID(from: decoder)
  }
}

/// The reference of the document being decoded, as a value the `@DocumentID` overload
/// above can ask any keyed container for.
///
/// Through a super-decoder, Hearth paid for a key lookup, a decoder and a coding-path
/// node, and their release, for every `@DocumentID`: more than the rest of a small
/// document. `KeyedDecoder.decodeIfPresent` recognises this type and returns the
/// reference straight away.
@usableFromInline
struct DocumentReferenceRequest: Decodable {
  @usableFromInline let reference: DocumentReference?
  /// Asked of Hearth's decoder, which refuses (as Firebase's does) to decode a
  /// `@DocumentID` without the document's reference.
  @usableFromInline let isRequired: Bool

  init(reference: DocumentReference?, isRequired: Bool) {
    self.reference = reference
    self.isRequired = isRequired
  }

  /// From another decoder (or Hearth's, reached some other way): the reference as
  /// `DocumentID.init(from:)` finds it.
  @usableFromInline
  init(from decoder: any Decoder) throws {
    reference = documentReference(decodedBy: decoder)
    isRequired = hearthDecoder(decoder) != nil
  }

  /// The error of a `@DocumentID` decoded by Hearth's decoder without a reference.
  @usableFromInline
  static var missing: DecodingError {
    DecodingError.valueNotFound(
      DocumentReference.self,
      DecodingError.Context(
        codingPath: [],
        debugDescription: "A @DocumentID property needs the document's reference: decode with "
          + "DocumentSnapshot.data(as:) or pass the reference to Database.Decoder.decode(_:from:in:)."))
  }
}
