import HearthCore

/// `KeyCodec`, the order-preserving index key encoding. The input builds two values
/// (`FuzzValues`), then two strings and two paths; the codec's contract (its doc comment)
/// must hold for them:
///
/// - Order: `Value.compare(a, b)` is the byte order of `encode(a)` and `encode(b)`, and
///   the reverse for the descending encoding, which is the ascending one complemented.
/// - Canonical: values that compare equal encode to identical bytes (and hash alike).
/// - Prefix-free: no encoding is a proper prefix of another, so two-part composite keys
///   order as the tuples of their values, each part ascending or descending.
///
/// `Value.compare` itself must be a consistent order: antisymmetric, and reflexive.
enum KeyCodecTarget {
  static func run(_ input: UnsafeRawBufferPointer) throws {
    var reader = FuzzReader(input)
    let a = FuzzValues.value(&reader)
    let b = FuzzValues.value(&reader)
    try requirePair(a, b)
    try require(Value.compare(a, a) == 0, "compare(a, a) is not 0 for \(a)")

    // Composite keys: (a, b) against (b, a), each part in a direction from the input.
    let directions = reader.byte()
    let first = directions & 1 != 0
    let second = directions & 2 != 0
    var x: [UInt8] = []
    KeyCodec.append(a, descending: first, to: &x)
    KeyCodec.append(b, descending: second, to: &x)
    var y: [UInt8] = []
    KeyCodec.append(b, descending: first, to: &y)
    KeyCodec.append(a, descending: second, to: &y)
    let byFirst = Value.compare(a, b) * (first ? -1 : 1)
    let tuple = byFirst != 0 ? byFirst : Value.compare(b, a) * (second ? -1 : 1)
    try require(
      compareBytes(x, y) == tuple,
      "composite keys of (\(a), \(b)) and (\(b), \(a)) order \(compareBytes(x, y)), values \(tuple)")

    // Strings and paths without labels: UTF-8 byte order; segment by segment, then length.
    let s = FuzzValues.string(&reader)
    let t = FuzzValues.string(&reader)
    var sKey: [UInt8] = []
    KeyCodec.append(string: s, to: &sKey)
    var tKey: [UInt8] = []
    KeyCodec.append(string: t, to: &tKey)
    try require(
      compareBytes(sKey, tKey) == Value.compareUTF8(s, t),
      "string keys of \(s.debugDescription) and \(t.debugDescription) misorder")
    let p = path(&reader)
    let q = path(&reader)
    var pKey: [UInt8] = []
    KeyCodec.append(path: p, descending: first, to: &pKey)
    var qKey: [UInt8] = []
    KeyCodec.append(path: q, descending: first, to: &qKey)
    try require(
      compareBytes(pKey, qKey) == p.compare(q) * (first ? -1 : 1), "path keys of \(p) and \(q) misorder")
    try require(p.compare(q) != 0 || pKey == qKey, "equal paths \(p) and \(q) encode differently")
  }

  static func requirePair(_ a: Value, _ b: Value) throws {
    let order = Value.compare(a, b)
    try require([-1, 0, 1].contains(order), "compare returned \(order)")
    try require(Value.compare(b, a) == -order, "compare is not antisymmetric for \(a) and \(b)")
    let ea = KeyCodec.encode(a)
    let eb = KeyCodec.encode(b)
    try require(
      compareBytes(ea, eb) == order,
      "encodings of \(a) and \(b) order \(compareBytes(ea, eb)), values \(order): \(hex(ea)) \(hex(eb))")
    let da = KeyCodec.encode(a, descending: true)
    let db = KeyCodec.encode(b, descending: true)
    try require(da == ea.map { ~$0 }, "descending encoding of \(a) is not the ascending one complemented")
    try require(compareBytes(da, db) == -order, "descending encodings of \(a) and \(b) do not reverse")
    if order == 0 {
      try require(ea == eb, "equal values \(a) and \(b) encode differently: \(hex(ea)) \(hex(eb))")
      try require(a.hashValue == b.hashValue, "equal values \(a) and \(b) hash differently")
    } else {
      let shorter = ea.count <= eb.count ? ea : eb
      let longer = ea.count <= eb.count ? eb : ea
      try require(!longer.starts(with: shorter), "encoding of \(a) or \(b) is a prefix of the other's")
    }
  }

  /// 0 to 3 segments (possibly empty ones: `append(path:)` takes any segments).
  static func path(_ reader: inout FuzzReader) -> ResourcePath {
    ResourcePath((0..<Int(reader.byte() % 4)).map { _ in FuzzValues.string(&reader) })
  }
}
