import Foundation

// `Timestamp`, `GeoPoint`, `VectorValue`, `DocumentReference`, `Data`, `Date` and `FieldValue` are
// values that Hearth stores as they are: `Database.Encoder` and `Database.Decoder` take
// them before their `encode(to:)` or `init(from:)` would run. Their conformances below
// exist so that models holding them can be `Codable`; with another encoder or decoder,
// a reference or a sentinel cannot be represented, so they throw, as in Firebase.
// (`Timestamp` and `GeoPoint` keep their own synthesized coding for other coders.)

extension DocumentReference: Codable {
  /// Only Hearth's decoder can make a reference, since a reference belongs to a database.
  ///
  /// - Throws: `DecodingError.typeMismatch` from another decoder; `DecodingError` for a
  ///   field that holds no reference.
  public convenience init(from decoder: any Decoder) throws {
    if let decoder = decoder as? DecoderImpl {
      let reference = try decoder.context.documentReference(decoder.value, at: decoder.node)
      self.init(database: reference.firestore, parsing: reference.path)
    } else {
      throw DecodingError.typeMismatch(
        DocumentReference.self,
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "DocumentReference values can only be decoded with Firestore.Decoder"))
    }
  }

  /// Only Hearth's encoder can write a reference, which it stores as one.
  ///
  /// - Throws: `EncodingError.invalidValue` from another encoder.
  public func encode(to encoder: any Encoder) throws {
    guard let encoder = encoder as? EncoderImpl else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: "DocumentReference values can only be encoded with Firestore.Encoder"))
    }
    encoder.slot.node = .value(self)
  }
}

extension FieldValue: Encodable {
  /// Only Hearth's encoder can write a sentinel: it is an instruction to the database,
  /// not a value.
  ///
  /// - Throws: `EncodingError.invalidValue` from another encoder.
  public func encode(to encoder: any Encoder) throws {
    guard let encoder = encoder as? EncoderImpl else {
      throw EncodingError.invalidValue(
        methodName,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: "FieldValue values can only be encoded with Firestore.Encoder"))
    }
    encoder.slot.node = .value(self)
  }
}

extension VectorValue: Codable {
  /// Hearth's decoder reads a stored vector; another decoder the `array` key that
  /// `encode(to:)` writes for other encoders.
  ///
  /// - Throws: `DecodingError.typeMismatch` for a field that holds no vector.
  public init(from decoder: any Decoder) throws {
    guard let decoder = decoder as? DecoderImpl else {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(try container.decode([Double].self, forKey: .array))
      return
    }
    guard case .map(let fields) = decoder.value, let vector = VectorValue(stored: fields) else {
      throw decoder.context.mismatch(VectorValue.self, decoder.value, decoder.codingPath, shape: "a vector")
    }
    self = vector
  }

  /// Hearth's encoder stores the vector as a vector value; another encoder writes its
  /// elements under `array`.
  ///
  /// - Throws: what another encoder's container throws.
  public func encode(to encoder: any Encoder) throws {
    if let encoder = encoder as? EncoderImpl {
      encoder.slot.node = .value(self)
    } else {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(array, forKey: .array)
    }
  }

  private enum CodingKeys: String, CodingKey { case array }
}
