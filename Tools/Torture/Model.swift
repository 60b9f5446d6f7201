// The writer's commits and the model of what they leave in the database.
//
// Commit `n` of a run is a function of the run's seed, `n` and the state the commits before
// it left, so replaying the log's commits on an empty model gives exactly the state the
// database must hold. Every commit changes that state (each write sets `lastSeq` to the
// commit's number, and a delete only deletes a document that exists), so the states before
// and after any commit differ, and the verifier can tell whether the one commit that was
// not acknowledged before a kill made it to disk.

/// A field value as the model expects to read it back.
indirect enum Expected: Equatable {
  case int(Int64)
  case string(String)
  case array([Expected])
  case map([String: Expected])
  /// The value of `serverTimestamp()` in commit `n`: that commit's time, to the millisecond.
  case commitTime(Int)
}

extension Expected: CustomStringConvertible {
  var description: String {
    switch self {
    case .int(let value): "\(value)"
    case .string(let value): value.count > 40 ? "\"\(value.prefix(37))...\"" : "\"\(value)\""
    case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
    case .map(let fields):
      "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    case .commitTime(let sequence): "the time of commit \(sequence) to the millisecond"
    }
  }
}

/// A value in a write, as the writer hands it to Hearth and the model applies it.
indirect enum Input: Equatable {
  case value(Expected)
  /// A map whose leaves merge one by one in a merge write.
  case map([String: Input])
  case increment(Int64)
  case arrayUnion([Expected])
  case serverTimestamp
}

/// One document write of a commit.
struct DocumentWrite: Equatable {
  enum Kind: Equatable {
    case set
    case merge
    /// `setData(_:mergeFields:)` with these (dotted) field paths.
    case mergeFields([String])
    /// `updateData`: the data's keys are dotted field paths.
    case update
    case delete
  }

  var path: String
  var kind: Kind
  var data: [String: Input] = [:]
}

/// One commit of the writer, by the public API it goes through.
enum Commit {
  /// One write through `DocumentReference` (`setData`, `updateData`, `delete`).
  case single(DocumentWrite)
  /// A `WriteBatch`, whose last write records the commit in the ledger.
  case batch([DocumentWrite])
  /// `runTransaction` reading these two documents and writing what `transactionWrites`
  /// derives from them.
  case transaction(String, String)

  var kind: String {
    switch self {
    case .single(let write):
      switch write.kind {
      case .set: "set"
      case .merge: "merge"
      case .mergeFields: "mergeFields"
      case .update: "update"
      case .delete: "delete"
      }
    case .batch: "batch"
    case .transaction: "transaction"
    }
  }
}

/// A document as the model expects it: its fields, and the commits that created it and
/// last wrote it (whose times must be its create and update times).
struct ExpectedDocument: Equatable {
  var fields: [String: Expected]
  var created: Int
  var updated: Int
}

/// The documents the writer's commits leave, by path.
struct Model: Equatable {
  var documents: [String: ExpectedDocument] = [:]

  /// The documents the writer writes: 20 in `torture` and 12 in subcollections.
  static let paths: [String] =
    (0..<20).map { "torture/d\($0)" } + (0..<4).flatMap { parent in (0..<3).map { "torture/d\(parent)/notes/n\($0)" } }

  /// The ledger document that batches and transactions of commit `n` add `n` to.
  static func ledgerPath(_ sequence: Int) -> String { "ledger/l\(sequence / 250)" }

  // MARK: - Generating commits

  /// Commit `n` of the run seeded `seed`, made on this state.
  func commit(_ n: Int, seed: UInt64) -> Commit {
    var random = Generator(seed: seed, sequence: n)
    let existing = Model.paths.filter { documents[$0] != nil }
    let roll = random.next(upTo: 100)
    switch roll {
    case ..<22: return .single(set(n, random.pick(Model.paths), &random))
    case ..<32: return .single(merge(n, random.pick(Model.paths), &random))
    case ..<37: return .single(mergeFields(n, random.pick(Model.paths)))
    case ..<60 where !existing.isEmpty: return .single(update(n, random.pick(existing), &random))
    case 60..<70 where !existing.isEmpty: return .single(DocumentWrite(path: random.pick(existing), kind: .delete))
    case 70..<85:
      var writes: [DocumentWrite] = []
      for path in random.pick(2 + random.next(upTo: 4), of: Model.paths) {
        let exists = documents[path] != nil
        switch random.next(upTo: exists ? 4 : 2) {
        case 0: writes.append(set(n, path, &random))
        case 1: writes.append(merge(n, path, &random))
        case 2: writes.append(update(n, path, &random))
        default: writes.append(DocumentWrite(path: path, kind: .delete))
        }
      }
      writes.append(Model.ledgerWrite(n))
      return .batch(writes)
    case 85...:
      let pair = random.pick(2, of: Model.paths)
      return .transaction(pair[0], pair[1])
    default:
      return .single(set(n, random.pick(Model.paths), &random))
    }
  }

  private func set(_ n: Int, _ path: String, _ random: inout Generator) -> DocumentWrite {
    var data: [String: Input] = [
      "lastSeq": .value(.int(Int64(n))),
      "v": .value(.int(Int64(random.next(upTo: 1000)))),
      "name": .value(.string("set-\(n)")),
      "payload": .value(.string(Model.payload(n, length: random.next(upTo: 3000)))),
      "tags": .value(.array([.string("t\(random.next(upTo: 8))")])),
    ]
    if random.chance(percent: 50) {
      data["nested"] = .value(.map(["a": .int(0), "b": .string("b-\(n)")]))
    }
    if random.chance(percent: 40) { data["touchedAt"] = .serverTimestamp }
    return DocumentWrite(path: path, kind: .set, data: data)
  }

  private func merge(_ n: Int, _ path: String, _ random: inout Generator) -> DocumentWrite {
    var data: [String: Input] = [
      "lastSeq": .value(.int(Int64(n))),
      "nested": .map(["a": .value(.int(Int64(n)))]),
    ]
    if random.chance(percent: 50) { data["v"] = .increment(Int64(1 + random.next(upTo: 9))) }
    if random.chance(percent: 30) {
      data["payload"] = .value(.string(Model.payload(n, length: random.next(upTo: 2000))))
    }
    return DocumentWrite(path: path, kind: .merge, data: data)
  }

  /// Writes only `lastSeq` and `nested.a`; the data's other values must be ignored.
  private func mergeFields(_ n: Int, _ path: String) -> DocumentWrite {
    DocumentWrite(
      path: path, kind: .mergeFields(["lastSeq", "nested.a"]),
      data: [
        "lastSeq": .value(.int(Int64(n))),
        "nested": .value(.map(["a": .int(Int64(-n)), "ignored": .string("not written")])),
        "ignored": .value(.string("not written")),
      ])
  }

  private func update(_ n: Int, _ path: String, _ random: inout Generator) -> DocumentWrite {
    var data: [String: Input] = [
      "lastSeq": .value(.int(Int64(n))),
      "v": .increment(Int64(1 + random.next(upTo: 9))),
      "tags": .arrayUnion([.string("t\(random.next(upTo: 8))"), .string("t\(random.next(upTo: 8))")]),
    ]
    if random.chance(percent: 50) { data["touchedAt"] = .serverTimestamp }
    if random.chance(percent: 50) { data["nested.b"] = .value(.string("u-\(n)")) }
    return DocumentWrite(path: path, kind: .update, data: data)
  }

  static func ledgerWrite(_ n: Int) -> DocumentWrite {
    DocumentWrite(path: ledgerPath(n), kind: .merge, data: ["seqs": .arrayUnion([.int(Int64(n))])])
  }

  /// A string of `length` characters that differs from commit to commit (a slice of a
  /// fixed text, so that replaying a long log stays fast).
  static func payload(_ n: Int, length: Int) -> String {
    let start = n % 36
    return String(decoding: payloadText[start..<start + min(length, payloadText.count - start)], as: UTF8.self)
  }

  private static let payloadText: [UInt8] = Array(
    String(repeating: "abcdefghijklmnopqrstuvwxyz0123456789", count: 400).utf8)

  /// The writes of transaction `n`, from what it read: `a` gets `v` = a.v + b.v + 1 (mod
  /// a prime), `b` a merge, and the ledger the commit's number.
  static func transactionWrites(
    _ n: Int, _ a: String, _ b: String, aExists: Bool, aValue: Int64?, bValue: Int64?
  ) -> [DocumentWrite] {
    let v = Expected.int(((aValue ?? 0) + (bValue ?? 0)) % 1_000_003 + 1)
    let first =
      aExists
      ? DocumentWrite(
        path: a, kind: .update,
        data: ["v": .value(v), "lastSeq": .value(.int(Int64(n))), "touchedAt": .serverTimestamp])
      : DocumentWrite(
        path: a, kind: .set,
        data: ["v": .value(v), "lastSeq": .value(.int(Int64(n))), "name": .value(.string("tx-\(n)"))])
    let second = DocumentWrite(
      path: b, kind: .merge, data: ["lastSeq": .value(.int(Int64(n))), "nested": .map(["a": .value(v)])])
    return [first, second, ledgerWrite(n)]
  }

  /// The integer field `v` of a document of the model, as a transaction would read it.
  func value(_ path: String) -> Int64? {
    if case .int(let v)? = documents[path]?.fields["v"] { return v }
    return nil
  }

  // MARK: - Applying commits

  /// The writes that commit `n` makes on this state.
  func writes(of commit: Commit, _ n: Int) -> [DocumentWrite] {
    switch commit {
    case .single(let write): [write]
    case .batch(let writes): writes
    case .transaction(let a, let b):
      Model.transactionWrites(
        n, a, b, aExists: documents[a] != nil, aValue: value(a), bValue: value(b))
    }
  }

  /// Applies commit `n` of the run seeded `seed`.
  mutating func apply(_ n: Int, seed: UInt64) {
    for write in writes(of: commit(n, seed: seed), n) { apply(write, n) }
  }

  mutating func apply(_ write: DocumentWrite, _ n: Int) {
    // Taken out, so that its fields change in place.
    let existing = documents.removeValue(forKey: write.path)
    var fields: [String: Expected]
    switch write.kind {
    case .delete:
      return
    case .set:
      fields = [:]
      Model.merge(write.data, into: &fields, n, replacingMaps: true)
    case .merge:
      fields = existing?.fields ?? [:]
      Model.merge(write.data, into: &fields, n, replacingMaps: false)
    case .mergeFields(let paths):
      fields = existing?.fields ?? [:]
      for path in paths {
        let segments = path.split(separator: ".").map(String.init)
        if let input = Model.input(at: segments, in: write.data) {
          Model.set(input, at: segments, in: &fields, n)
        }
      }
    case .update:
      fields = existing?.fields ?? [:]
      for (path, input) in write.data {
        Model.set(input, at: path.split(separator: ".").map(String.init), in: &fields, n)
      }
    }
    documents[write.path] = ExpectedDocument(fields: fields, created: existing?.created ?? n, updated: n)
  }

  /// Writes `data` into `fields`: a `.map` input merges leaf by leaf (unless
  /// `replacingMaps`, as a plain set does).
  private static func merge(
    _ data: [String: Input], into fields: inout [String: Expected], _ n: Int, replacingMaps: Bool
  ) {
    for (key, input) in data {
      var inner: [String: Input]?
      switch input {
      case .map(let map): inner = map
      case .value(.map(let map)): inner = map.mapValues { .value($0) }
      default: inner = nil
      }
      if let inner, !replacingMaps, !inner.isEmpty {
        var map: [String: Expected] = [:]
        if case .map(let current)? = fields[key] { map = current }
        merge(inner, into: &map, n, replacingMaps: false)
        fields[key] = .map(map)
      } else {
        fields[key] = resolve(input, previous: fields[key], n)
      }
    }
  }

  /// Sets the value at a field path, turning missing or non-map parents into maps.
  private static func set(_ input: Input, at path: [String], in fields: inout [String: Expected], _ n: Int) {
    guard let first = path.first else { return }
    if path.count == 1 {
      fields[first] = resolve(input, previous: fields[first], n)
      return
    }
    var map: [String: Expected] = [:]
    if case .map(let current)? = fields[first] { map = current }
    set(input, at: Array(path.dropFirst()), in: &map, n)
    fields[first] = .map(map)
  }

  private static func input(at path: [String], in data: [String: Input]) -> Input? {
    guard let first = path.first, let input = data[first] else { return nil }
    if path.count == 1 { return input }
    switch input {
    case .map(let inner): return Self.input(at: Array(path.dropFirst()), in: inner)
    case .value(.map(let inner)):
      return Self.input(at: Array(path.dropFirst()), in: inner.mapValues { .value($0) })
    default: return nil
    }
  }

  /// What a value or transform leaves, given the value it replaces.
  private static func resolve(_ input: Input, previous: Expected?, _ n: Int) -> Expected {
    switch input {
    case .value(let value): return value
    case .map(let inner):
      var map: [String: Expected] = [:]
      merge(inner, into: &map, n, replacingMaps: true)
      return .map(map)
    case .increment(let amount):
      if case .int(let current)? = previous { return .int(current &+ amount) }
      return .int(amount)
    case .arrayUnion(let elements):
      var result: [Expected] = []
      if case .array(let current)? = previous { result = current }
      for element in elements where !result.contains(element) { result.append(element) }
      return .array(result)
    case .serverTimestamp:
      return .commitTime(n)
    }
  }
}
