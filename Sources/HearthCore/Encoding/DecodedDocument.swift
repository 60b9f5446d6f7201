/// A document's key, fields (as some builder made them) and create and update times.
///
/// `StoredDocument` (with `Value` fields) is `Sendable`.
package struct DecodedDocument<Element> {
  package var key: DocumentKey
  package var fields: [String: Element]
  package var createTime: Timestamp
  package var updateTime: Timestamp

  @inlinable
  package init(key: DocumentKey, fields: [String: Element], createTime: Timestamp, updateTime: Timestamp) {
    self.key = key
    self.fields = fields
    self.createTime = createTime
    self.updateTime = updateTime
  }
}

extension DecodedDocument: Sendable where Element: Sendable {}

/// A document as stored, with its fields as `Value`s.
package typealias StoredDocument = DecodedDocument<Value>
