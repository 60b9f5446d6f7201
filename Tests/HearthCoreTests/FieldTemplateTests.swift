import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HearthCore

/// Maps decoded through a template of their names (see `FieldTemplate`) come out exactly
/// as decoded key by key, whichever templates a table holds.
@Suite struct FieldTemplateTests {
  let key = DocumentKey(ResourcePath(["posts", "p1"]))

  /// A template of `names`, in the order the encoding stores them.
  static func template(_ names: [String]) -> FieldTemplate {
    let sorted = names.sorted { Value.compareUTF8($0, $1) < 0 }.map { Array($0.utf8) }
    var buffers: [UnsafeRawBufferPointer] = []
    defer { for buffer in buffers { buffer.deallocate() } }
    for name in sorted {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: name.count, alignment: 1)
      buffer.copyBytes(from: name)
      buffers.append(UnsafeRawBufferPointer(buffer))
    }
    return FieldTemplate(names: buffers)
  }

  static func table(_ shapes: [[String]]) -> FieldTemplateTable {
    shapes.reduce(FieldTemplateTable()) { $0.adding(template($1)) }
  }

  func encoded(_ fields: [String: Value]) -> [UInt8] {
    DocumentCodec.encode(StoredDocument(key: key, fields: fields, createTime: Timestamp(), updateTime: Timestamp()))
  }

  func decoded(_ bytes: [UInt8], _ templates: FieldTemplateTable) throws -> [String: Value] {
    try bytes.withUnsafeBytes {
      try DocumentCodec.decodeVerified($0, key: key, using: ValueBuilder(), templates: templates).fields
    }
  }

  /// A post, a nested map and an array of maps: every map has a template.
  @Test func mapsWithTemplatesDecodeAsKeyByKey() throws {
    let fields: [String: Value] = [
      "title": .string("A post with a title longer than fifteen bytes"), "likes": .integer(-7),
      "ratings": .map(["alice": .integer(5), "bob": .double(.nan), "": .null]),
      "tags": .array([.map(["name": .string("swift")]), .map(["name": .string("lmdb")])]),
      "published": .boolean(true), "créé": .timestamp(Timestamp(seconds: 9, nanoseconds: 1000)),
    ]
    let table = Self.table([
      ["title", "likes", "ratings", "tags", "published", "créé"], ["alice", "bob", ""], ["name"],
    ])
    let bytes = encoded(fields)
    #expect(Value.identicalFields(try decoded(bytes, table), fields))
    #expect(Value.identicalFields(try decoded(bytes, .none), fields))
  }

  /// Shapes of one field count and first name share a bucket: a decode that starts on one
  /// template moves to another that shares its names so far, and decodes key by key when
  /// none has the next name.
  @Test func shapesThatDivergeAfterTheirFirstNamesDecodeExactly() throws {
    let table = Self.table([["a", "b", "c"], ["a", "bb", "d"], ["a", "b", "d"], ["a", "bb", "c"]])
    let shapes = [
      ["a", "b", "c"], ["a", "b", "d"], ["a", "bb", "c"], ["a", "bb", "d"], ["a", "x", "c"], ["a", "b", "e"],
      ["a", "b"],
    ]
    for names in shapes {
      var fields: [String: Value] = [:]
      for (index, name) in names.enumerated() {
        fields[name] = index == 1 ? .map(["deep": .array([.integer(Int64(index))])]) : .string(name)
      }
      #expect(Value.identicalFields(try decoded(encoded(fields), table), fields), "\(names)")
    }
  }

  /// A map decoded key by key twice (its names remembered the first time) has a template
  /// from then on.
  @Test func aShapeIsLearntTheSecondTimeItIsDecoded() throws {
    let unique = "f\(UInt64.random(in: 0...UInt64.max))"
    let names = [unique, unique + "b", unique + "c"]
    let fields = Dictionary(uniqueKeysWithValues: names.map { ($0, Value.string($0)) })
    func learnt() -> Bool {
      let template = Self.template(names)
      let bucket = template.withName(0) { FieldTemplateTable.bucket(count: 3, first: $0) }
      return FieldTemplateTable.current.buckets[bucket].contains { $0.count == 3 && $0.sharesNames(3, with: template) }
    }
    let bytes = encoded(fields)
    #expect(Value.identicalFields(try DocumentCodec.decode(bytes, key: key).fields, fields))
    #expect(!learnt())
    #expect(Value.identicalFields(try DocumentCodec.decode(bytes, key: key).fields, fields))
    #expect(learnt())
    #expect(Value.identicalFields(try DocumentCodec.decode(bytes, key: key).fields, fields))
  }

  /// A map with more fields than a template may hold is never learnt.
  @Test func largeMapsAreDecodedKeyByKey() throws {
    let fields = Dictionary(uniqueKeysWithValues: (0..<40).map { ("large\($0)", Value.integer(Int64($0))) })
    let bytes = encoded(fields)
    for _ in 0..<3 { #expect(Value.identicalFields(try DocumentCodec.decode(bytes, key: key).fields, fields)) }
    let template = Self.template(Array(fields.keys))
    let bucket = template.withName(0) { FieldTemplateTable.bucket(count: 40, first: $0) }
    #expect(FieldTemplateTable.current.buckets[bucket].allSatisfy { $0.count != 40 })
  }

  /// Threads that learn and use templates of many shapes at once each decode exactly,
  /// as do shapes with more names than a bucket holds templates.
  @Test func concurrentDecodesOfManyShapesAreExact() throws {
    let shapes: [[String: Value]] = (0..<40).map { shape in
      Dictionary(
        uniqueKeysWithValues: (0...(shape % 5)).map { field in
          ("s\(shape % 3)f\(field)\(shape)", Value.map(["n": .integer(Int64(shape * 10 + field))]))
        })
    }
    let documents = shapes.map(encoded)
    let failures = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<200 {
        let index = (round * 7 + worker) % documents.count
        let fields = (try? DocumentCodec.decode(documents[index], key: key))?.fields ?? [:]
        if !Value.identicalFields(fields, shapes[index]) { failures.withLock { $0 += 1 } }
      }
    }
    #expect(failures.withLock { $0 } == 0)
  }
}
