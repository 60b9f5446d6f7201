import Foundation
import Synchronization

/// The field names of a map that documents repeat (every post of an app has the same
/// fields), with a dictionary from each name to its place among them.
///
/// A map whose names are a template's is decoded without hashing a name or making a key
/// string: its values are decoded in the order they are stored and `slots.mapValues`
/// puts them in place. `mapValues` keeps the template's hash table, seed and buckets, so
/// the new dictionary is built without hashing anything. Hashing and inserting `String`
/// keys was a third of a post's `data()`.
///
/// `@unchecked Sendable`: immutable; `nameBytes` is owned and freed by the template.
@usableFromInline
final class FieldTemplate: @unchecked Sendable {
  /// The names' UTF-8 bytes one after another, in the order the encoding stores them.
  @usableFromInline let nameBytes: UnsafeMutableRawBufferPointer
  /// Where each name ends in `nameBytes`.
  @usableFromInline let ends: [Int]
  /// Each name's place among the fields.
  @usableFromInline let slots: [String: Int]

  /// A template of `names`, which are distinct, in their stored order.
  init(names: [UnsafeRawBufferPointer]) {
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: names.reduce(0) { $0 + $1.count }, alignment: 1)
    var ends: [Int] = []
    ends.reserveCapacity(names.count)
    var slots = [String: Int](minimumCapacity: names.count)
    var end = 0
    for (slot, name) in names.enumerated() {
      if !name.isEmpty { UnsafeMutableRawBufferPointer(rebasing: bytes[end..<end + name.count]).copyMemory(from: name) }
      end += name.count
      ends.append(end)
      slots[UTF8Text.make(name.bindMemory(to: UInt8.self))] = slot
    }
    nameBytes = bytes
    self.ends = ends
    self.slots = slots
  }

  deinit { nameBytes.deallocate() }

  @inlinable var count: Int { ends.count }

  /// `body` of the bytes of the name at `slot`.
  func withName<T>(_ slot: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
    let start = slot == 0 ? 0 : ends[slot - 1]
    return body(UnsafeRawBufferPointer(rebasing: nameBytes[start..<ends[slot]]))
  }

  /// Whether the field at `slot` is named `name`.
  @inlinable func names(_ slot: Int, _ name: UnsafeRawBufferPointer) -> Bool {
    let start = slot == 0 ? 0 : ends[slot - 1]
    guard ends[slot] - start == name.count else { return false }
    return name.isEmpty || memcmp(nameBytes.baseAddress! + start, name.baseAddress!, name.count) == 0
  }

  /// Whether the first `count` names are `other`'s first `count`.
  @inlinable func sharesNames(_ count: Int, with other: FieldTemplate) -> Bool {
    let length = ends[count - 1]
    return other.ends[count - 1] == length && memcmp(nameBytes.baseAddress!, other.nameBytes.baseAddress!, length) == 0
  }
}

/// The templates decoding may use: a fixed table of small buckets, each holding the
/// templates whose field count and first name hash to it. Immutable: learning a template
/// publishes a new table, so a document's decode takes the table once, under a brief
/// lock, and reads it without one.
///
/// A shape is learnt the second time a map of it is decoded without a template (its
/// names' hash is remembered the first time), so maps whose names are data (user IDs as
/// keys) seldom cost a template; every table holds at most `bucketCount × bucketSize`.
@usableFromInline
final class FieldTemplateTable: Sendable {
  @usableFromInline static let bucketCount = 64
  static let bucketSize = 4

  @usableFromInline let buckets: [[FieldTemplate]]

  /// No templates, and none to learn: decoding with it builds every dictionary key by key
  /// (a query's look at a few fields).
  @usableFromInline static let none = FieldTemplateTable()

  /// A table of no templates yet.
  init() { buckets = Array(repeating: [], count: Self.bucketCount) }

  init(buckets: [[FieldTemplate]]) { self.buckets = buckets }

  /// The bucket of maps of `count` fields whose first name is `name`.
  @inlinable static func bucket(count: Int, first name: UnsafeRawBufferPointer) -> Int {
    var hash = NamesHash()
    hash.add(name)
    let mixed = hash.value ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
    return Int(truncatingIfNeeded: mixed ^ mixed >> 29) & (bucketCount - 1)
  }

  /// The templates learnt so far.
  @usableFromInline static var current: FieldTemplateTable { state.withLock { $0.table } }

  /// The shapes decoded once without a template, and the table.
  private struct State {
    var table = FieldTemplateTable()
    /// Hashes of names decoded without a template, each in the slot its low bits pick
    /// (a later hash there overwrites it).
    var sighted = [UInt64](repeating: 0, count: 256)
  }

  private static let state = Mutex(State())

  /// The most fields a template has: its values are decoded into a buffer on the stack
  /// (32 `Any`s are 1 KiB), and maps much larger than a document's usual fields are
  /// seldom repeated.
  @usableFromInline static let maxFields = 32

  /// Whether a map of `count` fields may have a template.
  @inlinable static func fits(_ count: Int) -> Bool { count > 0 && count <= maxFields }

  /// A hash of a map's names in order (FNV-1a), taken as they are read.
  @usableFromInline
  struct NamesHash {
    @usableFromInline var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable init() {}

    @inlinable mutating func add(_ name: UnsafeRawBufferPointer) {
      for byte in name { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      value = (value ^ 0xFF) &* 0x0000_0100_0000_01b3
    }
  }

  /// Notes that the map at `map` (its bytes from the field count on), whose names hash to
  /// `names`, was decoded key by key; learns its template when its names were seen before.
  @usableFromInline static func decodedWithoutTemplate(_ map: ByteReader, names hash: NamesHash) {
    let seen = state.withLock { state in
      let slot = Int(truncatingIfNeeded: hash.value) & (state.sighted.count - 1)
      defer { state.sighted[slot] = hash.value }
      return state.sighted[slot] == hash.value
    }
    var reader = map
    guard seen, let names = try? names(&reader), !names.isEmpty else { return }
    let template = FieldTemplate(names: names)
    state.withLock { $0.table = $0.table.adding(template) }
  }

  /// This table with `template` in its bucket, the bucket's oldest dropped when it is
  /// full; this table itself when it has a template of the same names (another thread may
  /// have learnt them meanwhile).
  func adding(_ template: FieldTemplate) -> FieldTemplateTable {
    let index = template.withName(0) { Self.bucket(count: template.count, first: $0) }
    var buckets = self.buckets
    guard
      !buckets[index].contains(where: { $0.count == template.count && $0.sharesNames(template.count, with: template) })
    else { return self }
    if buckets[index].count == Self.bucketSize { buckets[index].removeFirst() }
    buckets[index].append(template)
    return FieldTemplateTable(buckets: buckets)
  }

  /// The names of the map `reader` is at, its values stepped over.
  private static func names(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> [UnsafeRawBufferPointer] {
    let count = try reader.count()
    var names: [UnsafeRawBufferPointer] = []
    names.reserveCapacity(count)
    for _ in 0..<count {
      names.append(try reader.bytes(try reader.count()))
      try DocumentCodec.skipValue(&reader, depth: 0)
    }
    return names
  }
}
