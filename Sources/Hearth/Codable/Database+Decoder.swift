import Foundation
import HearthCore

extension Database {
  /// Turns a document's `[String: Any]` data into a `Decodable` value, as Firebase's
  /// `Firestore.Decoder` does.
  ///
  /// For example:
  ///
  /// ```swift
  /// let user = try Firestore.Decoder().decode(DatabaseUser.self, from: snapshot.data() ?? [:],
  ///                                           in: snapshot.reference)
  /// ```
  ///
  /// Firebase's strategies are here with its names and defaults for Firestore:
  /// `dateDecodingStrategy` (`.timestamp`), `dataDecodingStrategy` (`.blob`),
  /// `nonConformingFloatDecodingStrategy` (`.throw`) and `keyDecodingStrategy`
  /// (`.useDefaultKeys`).
  ///
  /// Choices, and why:
  /// - Numbers convert between `Int64`, `Double` and every Swift integer and floating
  ///   type, as Firebase's decoder lets them, because a field written as `3` by one
  ///   client may be read as a `Double` by another. An integer type takes only a whole
  ///   number that fits: `3.5` or `300` for an `Int8` throws `dataCorrupted` rather than
  ///   silently truncating. `Double` and `Float` take integers at the nearest value.
  /// - `Bool` comes only from a boolean: `0` and `1` are numbers in Firestore.
  /// - `Date` and `Timestamp` come from a timestamp (`Date` as `dateDecodingStrategy`
  ///   says); `URL` from a string; `Data` from bytes (as `dataDecodingStrategy` says);
  ///   `Decimal` from a number.
  /// - Unknown fields are ignored; null or a missing key is `nil` for an optional.
  /// - `@DocumentID` is filled from `reference`, never from the data; without a
  ///   reference it is `nil` (Firebase throws there), so models can be decoded from
  ///   plain dictionaries in tests and caches.
  /// - `@ServerTimestamp` and `@ExplicitNull` decode a missing key as `nil` (Firebase
  ///   throws `keyNotFound`, its issue #14883).
  /// - Every error's `debugDescription` starts with the document path (when
  ///   `reference` is given) and the field, and names the Swift type and what was found:
  ///   `Document users/alice, field 'age': expected Int but found a string`. Errors
  ///   thrown by a type's own `init(from:)` get the same prefix. Swift's
  ///   `localizedDescription` for a `DecodingError` ("The data couldn't be read because
  ///   it is missing.") says none of that, so print the error itself.
  /// - Arrays, string-keyed dictionaries and `@DocumentID` are built by the decoder
  ///   itself rather than through their `init(from:)` (see `DirectlyDecodable`), and
  ///   coding paths only when something reads them (see `CodingPathNode`): through the
  ///   generic `Decoder` machinery, they cost more than the rest of a decode.
  /// - It reads Hearth's own values: `DocumentSnapshot.data(as:)` hands it the stored
  ///   fields without building `[String: Any]` first, and `decode(_:from:in:)` converts
  ///   its dictionary into them (see `DictionaryInput`, which keeps references and the
  ///   few values that have no exact stored form as they came).
  public struct Decoder: Sendable {
    /// How a `Date` is read: from a timestamp by default, as in Firebase.
    public var dateDecodingStrategy: DateDecodingStrategy {
      get { strategies.date }
      set { strategies.date = newValue }
    }

    /// How `Data` is read: from bytes (or a Base64 string) by default, as in Firebase.
    public var dataDecodingStrategy: DataDecodingStrategy {
      get { strategies.data }
      set { strategies.data = newValue }
    }

    /// Whether strings stand for NaN and ±infinity: not by default, as in Firebase.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
      get { strategies.nonConformingFloat }
      set { strategies.nonConformingFloat = newValue }
    }

    /// How field names match coding keys: as they are by default.
    public var keyDecodingStrategy: KeyDecodingStrategy {
      get { strategies.key }
      set { strategies.key = newValue }
    }

    /// Passed to the values' `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    private var strategies = Strategies()

    /// A decoder with Firebase's defaults for Firestore.
    public init() {}

    /// Decodes a document's fields as `type`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the fields, as `DocumentSnapshot.data()` returns them.
    ///   - reference: the document the data came from: it fills `@DocumentID`
    ///     properties and is named in error messages.
    /// - Throws: `DecodingError` (`keyNotFound`, `typeMismatch`, `valueNotFound`,
    ///   `dataCorrupted`) naming the document and the field.
    public func decode<T: Decodable>(
      _ type: T.Type, from data: [String: Any], in reference: DocumentReference? = nil
    ) throws -> T {
      var input = DictionaryInput()
      let fields = input.fields(data)
      return try decode(type, from: .map(fields), in: reference, keptValues: input.kept)
    }

    /// Decodes a stored document's fields, as `DocumentSnapshot.data(as:)` reads them:
    /// its references belong to `reference`'s database.
    func decode<T: Decodable>(_ type: T.Type, fromStored fields: [String: Value], in reference: DocumentReference)
      throws -> T
    {
      try decode(type, from: .map(fields), in: reference, keptValues: [])
    }

    private func decode<T: Decodable>(
      _ type: T.Type, from value: Value, in reference: DocumentReference?, keptValues: [Any]
    ) throws -> T {
      let context = DecodingContext(
        reference: reference, rootType: type, userInfo: userInfo, strategies: strategies, keptValues: keptValues)
      do {
        return try context.unbox(value, as: type, at: .root)
      } catch let error as DecodingError {
        throw context.located(error)
      }
    }
  }
}

extension CodingUserInfoKey {
  /// Where Hearth's decoder puts the document's reference, for `@DocumentID`.
  static let hearthDocumentReference = CodingUserInfoKey(rawValue: "HearthDocumentReference")!
}
