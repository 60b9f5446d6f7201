import HearthStorage

/// Hearth's automatic single-field indexes: for every field of every document (nested
/// map fields by their path), an entry ordered by the field's value, and for every
/// element of an array field an `array-contains` entry — Firestore's automatic indexes
/// at collection scope. Their entries are kinds 1 and 2 of the `indexEntries` table, laid
/// out in `KeyLayout`: the kind, the collection number, the field's path, then the value
/// as `KeyCodec` bytes, naming the documents by ID.
///
/// A descending order walks the same entries backwards. A key longer than LMDB's 511
/// bytes is cut at 511: such a key may stand for several values sharing its first bytes,
/// so queries re-check and re-sort the documents under it. A field whose path alone is
/// too long to leave room for a value (`maxPathBytes`) is not indexed, and queries on it
/// scan.
package enum FieldIndex {
  package enum Kind: UInt8, Sendable {
    case value = 1
    case arrayElement = 2
  }

  /// LMDB's default (and Debian's) largest key.
  package static let maxKeyBytes = 511
  /// The longest escaped field path that is indexed.
  package static let maxPathBytes = 200

  /// The bytes every entry of one field's index starts with, or `nil` when the path is
  /// too long to index.
  static func prefix(_ kind: Kind, _ collection: CollectionNumber, _ path: FieldPath) -> [UInt8]? {
    var encodedPath: [UInt8] = []
    KeyCodec.append(path: ResourcePath(path.segments), to: &encodedPath)
    return prefix(kind, collection, encodedPath: encodedPath)
  }

  /// `prefix` from an already encoded path.
  static func prefix(_ kind: Kind, _ collection: CollectionNumber, encodedPath: [UInt8]) -> [UInt8]? {
    guard encodedPath.count <= maxPathBytes else { return nil }
    var bytes: [UInt8] = [kind.rawValue]
    bytes.reserveCapacity(9 + encodedPath.count + 16)
    collection.append(to: &bytes)
    bytes += encodedPath
    return bytes
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

  /// Every index key of a document with these fields in this collection, sorted, without
  /// repeats.
  static func keys(_ collection: CollectionNumber, _ fields: [String: Value], _ overrides: Overrides) -> [[UInt8]] {
    var keys: [[UInt8]] = []
    var names: [String] = []
    var encodedPath: [UInt8] = []
    collect(collection.bytes, fields, overrides, names: &names, encodedPath: &encodedPath, into: &keys)
    return KeyRange.sortedUnique(keys)
  }

  /// Walks the fields, keeping the path both as names (for overrides) and as its key
  /// encoding without the end marker (extended a segment at a time, not rebuilt), and
  /// builds each key in one buffer (`collection`: the collection number's bytes, made
  /// once for every key).
  private static func collect(
    _ collection: [UInt8], _ fields: [String: Value], _ overrides: Overrides, names: inout [String],
    encodedPath: inout [UInt8], into keys: inout [[UInt8]]
  ) {
    for (name, value) in fields {
      names.append(name)
      let mark = encodedPath.count
      KeyCodec.append(string: name, to: &encodedPath)
      defer {
        names.removeLast()
        encodedPath.removeLast(encodedPath.count - mark)
      }
      guard encodedPath.count + 2 <= maxPathBytes else { continue }
      let fieldPath = overrides.isEmpty ? nil : FieldPath(names)
      func key(_ kind: Kind, _ value: Value) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(11 + encodedPath.count + 24)
        key.append(kind.rawValue)
        key += collection
        key += encodedPath
        key.append(0x00)
        key.append(0x00)
        KeyCodec.append(value, to: &key)
        if key.count > maxKeyBytes { key.removeLast(key.count - maxKeyBytes) }
        return key
      }
      if fieldPath.map({ keeps(.value, $0, overrides) }) ?? true { keys.append(key(.value, value)) }
      switch value {
      case .array(let elements):
        if fieldPath.map({ keeps(.arrayElement, $0, overrides) }) ?? true {
          for element in elements { keys.append(key(.arrayElement, element)) }
        }
      case .map(let inner):
        collect(collection, inner, overrides, names: &names, encodedPath: &encodedPath, into: &keys)
      default:
        break
      }
    }
  }

  /// Replaces a document's entries `before` with `after` (both sorted, without repeats),
  /// writing only the difference.
  static func replace(
    _ before: [[UInt8]], with after: [[UInt8]], documentID: String, in txn: WriteTransaction, table: Table
  ) throws {
    guard before != after else { return }
    let id = KeyLayout.idBytes(documentID)
    var old = 0
    var new = 0
    while old < before.count || new < after.count {
      let order =
        old == before.count ? 1 : new == after.count ? -1 : KeyRange.compare(before[old], after[new])
      if order < 0 {
        try txn.delete(before[old], value: id, in: table)
        old += 1
      } else if order > 0 {
        try txn.put(after[new], id, in: table)
        new += 1
      } else {
        old += 1
        new += 1
      }
    }
  }
}
