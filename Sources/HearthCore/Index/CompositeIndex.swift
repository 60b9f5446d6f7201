import Foundation
import HearthStorage

/// Entries of declared indexes (composite, and collection-group single-field ones), kind
/// 3 of the `indexEntries` table beside the automatic ones, laid out in `KeyLayout`: the
/// index's number (and, at collection scope, the collection's), then one `KeyCodec`
/// value a field in the index's order and direction, naming the document by ID or, at
/// collection-group scope, by path.
///
/// A document is in an index only when it has every indexed field (and an array where
/// the index has `arrayConfig`), as in Firestore.
enum CompositeIndex {
  static let kind: UInt8 = 3

  /// The bytes every entry of `index` starts with (in `collection`, for collection scope).
  static func prefix(_ index: DeclaredIndex, _ collection: CollectionNumber?) -> [UInt8] {
    var bytes: [UInt8] = []
    // Room for the values a plan appends, so that they do not grow it again.
    bytes.reserveCapacity(64)
    bytes.append(kind)
    withUnsafeBytes(of: index.number.bigEndian) { bytes += $0 }
    if index.definition.scope == .collection, let collection { collection.append(to: &bytes) }
    return bytes
  }

  /// One field's value as it stands in a key.
  static func append(_ value: Value, _ mode: IndexDefinition.Mode, to bytes: inout [UInt8]) {
    KeyCodec.append(value, descending: mode == .descending, to: &bytes)
  }

  /// The entry data that names a document.
  static func data(_ index: DeclaredIndex, _ key: DocumentKey) -> [UInt8] {
    var bytes: [UInt8] = []
    let descending = index.definition.namesDescending
    if index.definition.scope == .collection {
      KeyCodec.append(id: key.documentID, descending: descending, to: &bytes)
    } else {
      KeyCodec.append(documentKey: key, descending: descending, to: &bytes)
    }
    return bytes
  }

  /// The document an entry names: an ID in `collectionPath` (collection scope) or a full
  /// path (group scope); `nil` when the bytes are not an entry's. `descending` is the
  /// index's `namesDescending`, which a walk asks once, not for every entry.
  static func documentKey(
    _ index: DeclaredIndex, _ data: UnsafeRawBufferPointer, in collectionPath: ResourcePath?, descending: Bool
  ) -> DocumentKey? {
    if index.definition.scope == .collection, let collectionPath, let id = plainID(data, descending: descending) {
      return DocumentKey(collection: collectionPath, id: id)
    }
    return withAscendingNames(data, descending: descending) { documentKey(index, names: $0, in: collectionPath) }
  }

  /// `body` over an entry's names as ascending bytes (complemented back when the index
  /// names documents in descending order). Inlined: as a call, its specialisation copied
  /// the caller's captured index in and out for every entry.
  @inline(__always)
  static func withAscendingNames<T>(
    _ data: UnsafeRawBufferPointer, descending: Bool, _ body: (UnsafeRawBufferPointer) throws -> T
  ) rethrows -> T {
    guard descending else { return try body(data) }
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: data.count) { buffer in
      let flipped = UnsafeMutableRawBufferPointer(buffer)
      // Eight bytes at a time (a byte at a time cost a group query ~250 instructions a result).
      var position = 0
      while position + 8 <= data.count {
        flipped.storeBytes(
          of: ~data.loadUnaligned(fromByteOffset: position, as: UInt64.self), toByteOffset: position, as: UInt64.self)
        position += 8
      }
      while position < data.count {
        flipped[position] = ~data[position]
        position += 1
      }
      return try body(UnsafeRawBufferPointer(flipped))
    }
  }

  /// The offset of the first zero byte at or after `start`, eight bytes at a time: a
  /// path's segments are short, and a call of `memchr` for each cost a group range
  /// query's result ~85 instructions more. (One search a result, for a document's ID,
  /// is cheaper through `memchr`.)
  @inline(__always)
  static func firstZero(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var index = start
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      // The lowest byte flagged is the first zero (a borrow only flags bytes after one).
      let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < bytes.count {
      if bytes[index] == 0 { return index }
      index += 1
    }
    return nil
  }

  /// A collection-group entry's names (ascending bytes) split before the document's ID:
  /// the escaped segments of its collection's path, each with its end marker, and the
  /// ID's bytes. `nil` when a segment holds an escaped zero byte or is a numeric ID
  /// (`documentKey` decodes those) or the bytes do not name a document.
  static func groupNames(_ bytes: UnsafeRawBufferPointer) -> (
    collection: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer
  )? {
    guard bytes.baseAddress != nil else { return nil }
    var segments = 0
    var segmentStart = 0
    var last = 0..<0
    while segmentStart + 1 < bytes.count, let position = firstZero(bytes, from: segmentStart) {
      guard position + 1 < bytes.count else { return nil }
      switch bytes[position + 1] {
      case 0x01:
        segments += 1
        last = segmentStart..<position
        segmentStart = position + 2
      case 0x00 where position == segmentStart:
        guard segments >= 2, segments % 2 == 0 else { return nil }
        return (
          UnsafeRawBufferPointer(rebasing: bytes[..<last.lowerBound]), UnsafeRawBufferPointer(rebasing: bytes[last])
        )
      default: return nil
      }
    }
    return nil
  }

  /// The ID of a collection-group entry that names a document of the collection an
  /// earlier entry of its index named: `data` (the entry's names as stored) starts with
  /// `collection` (that entry's names before its ID, as stored), and `names` (the same
  /// bytes ascending) go on with an ID without a zero byte to unescape, its end marker and
  /// the path's. `nil` otherwise (`groupNames` then splits the names whole).
  static func plainID(
    _ data: UnsafeRawBufferPointer, names: UnsafeRawBufferPointer, collection: UnsafeRawBufferPointer
  ) -> String? {
    guard let base = names.baseAddress, let stored = data.baseAddress, let known = collection.baseAddress,
      data.count > collection.count, memcmp(stored, known, collection.count) == 0,
      let zero = memchr(base + collection.count, 0, names.count - collection.count)
    else { return nil }
    let end = base.distance(to: UnsafeRawPointer(zero))
    guard end + 3 < names.count, names[end + 1] == 0x01, names[end + 2] == 0x00, names[end + 3] == 0x00 else {
      return nil
    }
    return UTF8Text.string(UnsafeRawBufferPointer(rebasing: names[collection.count..<end]))
  }

  /// A collection-scope entry's ID when it has no zero byte to unescape (nearly every
  /// ID): the bytes before the two-byte end marker, complemented back when descending.
  private static func plainID(_ data: UnsafeRawBufferPointer, descending: Bool) -> String? {
    let flip: UInt8 = descending ? 0xFF : 0
    let length = data.count - 2
    guard length >= 0, data[length] ^ flip == 0, data[length + 1] ^ flip == 1 else { return nil }
    let body = UnsafeRawBufferPointer(rebasing: data[..<length])
    guard descending else { return body.contains(0) ? nil : UTF8Text.string(body) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer -> String? in
      let flipped = UnsafeMutableRawBufferPointer(buffer)
      // Eight bytes at a time: complemented, and checked for a zero byte (an escape, which
      // `documentKey` decodes) by the usual bit trick.
      var position = 0
      while position + 8 <= length {
        let word = ~body.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        guard (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 == 0 else { return nil }
        flipped.storeBytes(of: word, toByteOffset: position, as: UInt64.self)
        position += 8
      }
      while position < length {
        flipped[position] = ~body[position]
        if flipped[position] == 0 { return nil }
        position += 1
      }
      return UTF8Text.string(UnsafeRawBufferPointer(buffer))
    }
  }

  /// `documentKey` over ascending bytes: each segment is taken straight from the entry
  /// unless it holds an escaped zero byte or is a numeric ID (`NumericID`).
  static func documentKey(
    _ index: DeclaredIndex, names bytes: UnsafeRawBufferPointer, in collectionPath: ResourcePath?
  )
    -> DocumentKey?
  {
    guard bytes.baseAddress != nil else { return nil }
    let isGroup = index.definition.scope == .collectionGroup
    var segments: [String] = []
    segments.reserveCapacity(8)
    var unescaped: [UInt8] = []
    var segmentStart = 0
    var position = 0
    while position + 1 < bytes.count {
      // The next zero byte: a segment's end, an escaped zero or the path's end.
      guard let zero = firstZero(bytes, from: position) else { break }
      position = zero
      guard position + 1 < bytes.count else { break }
      let pending = UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<position])
      if pending.isEmpty, unescaped.isEmpty, bytes.count - position >= NumericID.encodedCount + 2,
        let number = NumericID.decode(
          UnsafeRawBufferPointer(rebasing: bytes[position..<position + NumericID.encodedCount]))
      {
        // A numeric ID: its marker and number, then the terminator.
        position += NumericID.encodedCount
        guard bytes[position] == 0x00, bytes[position + 1] == 0x01 else { return nil }
        segments.append(NumericID.id(number))
        position += 2
        segmentStart = position
        continue
      }
      switch bytes[position + 1] {
      case 0xFF:
        unescaped += pending
        unescaped.append(0)
      case 0x01:
        let segment =
          unescaped.isEmpty
          ? UTF8Text.string(pending) : (unescaped + pending).withUnsafeBytes { UTF8Text.string($0) }
        guard let segment else { return nil }
        segments.append(segment)
        unescaped.removeAll()
      case 0x00 where isGroup && unescaped.isEmpty && pending.isEmpty:
        guard segments.count >= 2, segments.count % 2 == 0 else { return nil }
        let id = segments.removeLast()
        return DocumentKey(collection: ResourcePath(segments), id: id)
      default: return nil
      }
      position += 2
      segmentStart = position
    }
    guard index.definition.scope == .collection, segments.count == 1, let collectionPath else { return nil }
    return DocumentKey(collection: collectionPath, id: segments[0])
  }

  /// Every key of a document in `index` (none when it lacks an indexed field).
  static func keys(_ index: DeclaredIndex, _ collection: CollectionNumber, _ fields: [String: Value]) -> [[UInt8]] {
    var keys = [prefix(index, collection)]
    for field in index.definition.fields {
      guard let value = FieldOperations.value(at: field.path, in: fields) else { return [] }
      if field.mode == .contains {
        guard case .array(let elements) = value else { return [] }
        var unique: [Value] = []
        for element in elements where !unique.contains(where: { $0.isIdentical(to: element) || $0 == element }) {
          unique.append(element)
        }
        keys = keys.flatMap { key in
          unique.map { element in
            var extended = key
            append(element, .ascending, to: &extended)
            return extended
          }
        }
      } else {
        for position in keys.indices { append(value, field.mode, to: &keys[position]) }
      }
    }
    return keys.map { $0.count > FieldIndex.maxKeyBytes ? Array($0.prefix(FieldIndex.maxKeyBytes)) : $0 }
  }

  /// Brings a document's entries in every index of its collection group from `old` to
  /// `new` fields, writing only the difference.
  static func update(
    _ indexes: [DeclaredIndex], _ key: DocumentKey, _ collection: CollectionNumber, old: [String: Value]?,
    new: [String: Value]?, in txn: WriteTransaction, table: Table
  ) throws {
    for index in indexes where index.definition.collectionGroup == key.collectionGroup {
      let before = Set(old.map { keys(index, collection, $0) } ?? [])
      let after = Set(new.map { keys(index, collection, $0) } ?? [])
      guard before != after else { continue }
      let data = self.data(index, key)
      for entry in before.subtracting(after) { try txn.delete(entry, value: data, in: table) }
      for entry in after.subtracting(before) { try txn.put(entry, data, in: table) }
    }
  }
}
