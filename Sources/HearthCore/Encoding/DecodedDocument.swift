/// A document's key, fields (as some builder made them) and create and update times.
///
/// `StoredDocument` (with `Value` fields) is `Sendable`.
public struct DecodedDocument<Element> {
  public var key: DocumentKey
  public var fields: [String: Element]
  public var createTime: Timestamp
  public var updateTime: Timestamp

  @inlinable
  public init(key: DocumentKey, fields: [String: Element], createTime: Timestamp, updateTime: Timestamp) {
    self.key = key
    self.fields = fields
    self.createTime = createTime
    self.updateTime = updateTime
  }
}

extension DecodedDocument: Sendable where Element: Sendable {}

/// A document as stored, with its fields as `Value`s.
public typealias StoredDocument = DecodedDocument<Value>
