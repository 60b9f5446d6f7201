import HearthStorage

/// Hearth's automatic single-field indexes: for every field of every document (nested
/// map fields by their path), an entry ordered by the field's value, and for every
/// element of an array field an `array-contains` entry — Firestore's automatic indexes
/// at collection scope. They live in the `indexEntries` table (see `KeyLayout`):
///
/// ```
/// key   := kind(1) collection(8) escaped(field path) value
/// data  := document ID (UTF-8)          (dupsort: the documents with that value, by ID)
/// kind  := 1 the field's value | 2 one element of the array field
/// ```
///
/// Values are `KeyCodec` bytes (ascending); a descending order walks the same entries
/// backwards. A key longer than LMDB's 511 bytes is cut at 511: such a key may stand for
/// several values sharing its first bytes, so queries re-check and re-sort the documents
/// under it. A field whose path alone is too long to leave room for a value
/// (`maxPathBytes`) is not indexed, and queries on it scan.
public enum FieldIndex {
  public enum Kind: UInt8, Sendable {
    case value = 1
    case arrayElement = 2
  }

  /// LMDB's default (and Debian's) largest key.
  public static let maxKeyBytes = 511
  /// The longest escaped field path that is indexed.
  public static let maxPathBytes = 200

  /// The bytes every entry of one field's index starts with, or `nil` when the path is
  /// too long to index.
  static func prefix(_ kind: Kind, _ collection: CollectionNumber, _ path: FieldPath) -> [UInt8]? {
    var bytes: [UInt8] = [kind.rawValue]
    bytes.reserveCapacity(64)
    bytes += collection.bytes
    let start = bytes.count
    KeyCodec.append(string: path.canonical, to: &bytes)
    return bytes.count - start <= maxPathBytes ? bytes : nil
  }

  /// Whether queries can use an index on `path` (its path is short enough).
  public static func isIndexed(_ path: FieldPath) -> Bool {
    prefix(.value, .root, path) != nil
  }

  /// `prefix` followed by the value, cut at `maxKeyBytes`.
  static func key(_ prefix: [UInt8], _ value: Value) -> [UInt8] {
    var bytes = prefix
    KeyCodec.append(value, to: &bytes)
    if bytes.count > maxKeyBytes { bytes.removeLast(bytes.count - maxKeyBytes) }
    return bytes
  }

  /// Whether a key may have been cut (and so may stand for several values).
  static func mayBeTruncated(_ key: UnsafeRawBufferPointer) -> Bool { key.count >= maxKeyBytes }

  /// Which automatic indexes fields of one collection group keep: fields without an
  /// override keep both; an override keeps the value index for an order and the array
  /// index for `CONTAINS` (none: the field is exempt).
  typealias Overrides = [FieldPath: Set<IndexDefinition.Mode>]

  static func keeps(_ kind: Kind, _ path: FieldPath, _ overrides: Overrides) -> Bool {
    guard let modes = overrides[path] else { return true }
    return kind == .arrayElement ? modes.contains(.contains) : !modes.subtracting([.contains]).isEmpty
  }

  /// Every index key of a document with these fields in this collection.
  static func keys(_ collection: CollectionNumber, _ fields: [String: Value], _ overrides: Overrides) -> Set<[UInt8]> {
    var keys = Set<[UInt8]>()
    var path: [String] = []
    collect(collection, fields, overrides, path: &path, into: &keys)
    return keys
  }

  private static func collect(
    _ collection: CollectionNumber, _ fields: [String: Value], _ overrides: Overrides, path: inout [String],
    into keys: inout Set<[UInt8]>
  ) {
    for (name, value) in fields {
      path.append(name)
      defer { path.removeLast() }
      let fieldPath = FieldPath(path)
      if keeps(.value, fieldPath, overrides), let prefix = prefix(.value, collection, fieldPath) {
        keys.insert(key(prefix, value))
      }
      switch value {
      case .array(let elements):
        if keeps(.arrayElement, fieldPath, overrides), let prefix = prefix(.arrayElement, collection, fieldPath) {
          for element in elements { keys.insert(key(prefix, element)) }
        }
      case .map(let inner):
        collect(collection, inner, overrides, path: &path, into: &keys)
      default:
        break
      }
    }
  }

  /// Replaces a document's entries `before` with `after`, writing only the difference.
  static func replace(
    _ before: Set<[UInt8]>, with after: Set<[UInt8]>, documentID: String, in txn: WriteTransaction, table: Table
  ) throws {
    guard before != after else { return }
    let id = Array(documentID.utf8)
    for key in before.subtracting(after) { try txn.delete(key, value: id, in: table) }
    for key in after.subtracting(before) { try txn.put(key, id, in: table) }
  }
}
