/// A document's stored bytes, copied out of the database with their checksum verified,
/// decoded only when asked: reading a document costs a copy and a checksum; its fields
/// are built once, straight into what the caller wants (`Value`s, or the API's `Any`s).
package struct EncodedDocument: Sendable, Equatable {
  package let key: DocumentKey
  /// The encoded document: its own array, or a slice of a buffer that holds every result
  /// of one query (one allocation a query instead of one a result; the buffer lives as
  /// long as any of its documents).
  package let bytes: ArraySlice<UInt8>

  /// - Throws: `dataLoss` naming `key` when the bytes are damaged.
  package init(key: DocumentKey, verifying bytes: UnsafeRawBufferPointer) throws {
    try DocumentCodec.verify(bytes, key: key)
    self.key = key
    self.bytes = Array(bytes)[...]
  }

  /// A document this process has just encoded (nothing to verify).
  init(key: DocumentKey, encoded bytes: [UInt8]) {
    self.key = key
    self.bytes = bytes[...]
  }

  /// A document whose bytes were verified when they were read.
  package init(key: DocumentKey, verified bytes: ArraySlice<UInt8>) {
    self.key = key
    self.bytes = bytes
  }

  package var createTime: Timestamp { times.createTime }
  package var updateTime: Timestamp { times.updateTime }

  private var times: (createTime: Timestamp, updateTime: Timestamp) {
    bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw)
      return (try? DocumentCodec.header(&reader)) ?? (Timestamp(microseconds: 0), Timestamp(microseconds: 0))
    }
  }

  /// The document with its fields built by `builder`.
  ///
  /// The checksum was verified when the bytes were read, so decoding cannot meet damage;
  /// should a damaged document ever share its checksum (a 1 in 2^32 chance), its fields
  /// come back empty rather than wrong.
  @inlinable
  package func decode<Builder: FieldBuilder>(using builder: Builder) -> DecodedDocument<Builder.Element> {
    let decoded = try? bytes.withUnsafeBytes { try DocumentCodec.decodeVerified($0, key: key, using: builder) }
    return decoded ?? DecodedDocument(key: key, fields: [:], createTime: createTime, updateTime: updateTime)
  }

  /// The document with `Value` fields.
  package var stored: StoredDocument { decode(using: ValueBuilder()) }
}
