import Foundation
import Hearth
import Testing

// Shared fixtures for the document-API tests: settings, checking errors, and comparing
// `[String: Any]` values exactly (integers vs doubles, sign of zero, NaN). The database
// fixture itself, `withDatabase`, is HearthTestSupport's, which every test target shares.

/// Settings without an fsync per commit, for tests that commit many times (a new object
/// each time: `Settings` is a class, as Firebase's is, so a test that changes its copy
/// changes no other test's).
var relaxed: Settings {
  let settings = Settings()
  settings.durability = .relaxed
  return settings
}

/// `relaxed`, refusing as production Firestore does a query that needs an index not
/// declared: for tests that check which declared index serves a query.
var relaxedRequiringIndexes: Settings {
  let settings = relaxed
  settings.requireIndexes = true
  return settings
}

/// A fresh directory path under the system temporary directory (not created).
func makeTemporaryPath(_ label: String = "hearth-tests") -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("\(label)-\(UUID().uuidString)").path
}

// MARK: - Errors

/// Runs `body` and checks it throws a `HearthError` with `code` whose message contains
/// every fragment. Records an issue when nothing (or something else) is thrown.
@discardableResult
func expectHearthError(
  _ code: HearthError.Code,
  mentioning fragments: [String] = [],
  _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) -> HearthError? {
  do {
    try body()
    return thrown(nil, code, fragments, comment, sourceLocation)
  } catch {
    return thrown(error, code, fragments, comment, sourceLocation)
  }
}

/// The async variant of `expectHearthError`.
@discardableResult
func expectHearthError(
  _ code: HearthError.Code,
  mentioning fragments: [String] = [],
  _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Void
) async -> HearthError? {
  do {
    try await body()
    return thrown(nil, code, fragments, comment, sourceLocation)
  } catch {
    return thrown(error, code, fragments, comment, sourceLocation)
  }
}

/// The error a body threw or a handler delivered (`nil`: none), checked: the
/// `HearthError`, or `nil` after recording why it is not the one expected.
private func thrown(
  _ error: Error?, _ code: HearthError.Code, _ fragments: [String], _ comment: String?,
  _ sourceLocation: SourceLocation
) -> HearthError? {
  let suffix = comment.map { "— \($0)" } ?? ""
  guard let error else {
    Issue.record("expected a HearthError(\(code)) but there was no error \(suffix)", sourceLocation: sourceLocation)
    return nil
  }
  guard let hearthError = error as? HearthError else {
    Issue.record(
      "expected a HearthError(\(code)) but got \(type(of: error)): \(error) \(suffix)", sourceLocation: sourceLocation)
    return nil
  }
  checkHearthError(hearthError, code, fragments, comment, sourceLocation)
  return hearthError
}

/// Checks an error that was delivered rather than thrown (completion handlers).
func expectHearthError(
  _ error: Error?, _ code: HearthError.Code, mentioning fragments: [String] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  _ = thrown(error, code, fragments, nil, sourceLocation)
}

private func checkHearthError(
  _ error: HearthError, _ code: HearthError.Code, _ fragments: [String], _ comment: String?,
  _ sourceLocation: SourceLocation
) {
  let suffix = comment.map { "— \($0)" } ?? ""
  #expect(
    error.code == code, "expected code \(code), got \(error.code): \(error.message) \(suffix)",
    sourceLocation: sourceLocation)
  for fragment in fragments {
    #expect(
      error.message.contains(fragment), "the message should mention \"\(fragment)\": \(error.message) \(suffix)",
      sourceLocation: sourceLocation)
  }
}

// MARK: - Exact value comparison

/// A canonical, type-tagged rendering of a value as Hearth reads or writes it: every Swift
/// integer type renders as `int:`, doubles by their bit pattern (so `-0.0` differs from
/// `0.0`, and `1` from `1.0`), maps with sorted keys, strings by their UTF-8 bytes.
///
/// `NSNumber`s (what Hearth reads back for numbers) render by the C type they hold, not by
/// the casts they allow: an `NSNumber` 2.0 also casts to `Int` and an `NSNumber` 1 to
/// `Bool`, so the casts below would tell an integer from a double only by luck.
func canonical(_ value: Any?) -> String {
  guard let value else { return "nil" }
  if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
    switch String(cString: number.objCType) {
    case "c" where number.int64Value == 0 || number.int64Value == 1, "B": return "bool:\(number.boolValue)"
    case "f", "d": return canonical(number.doubleValue)
    case "Q", "L", "I": return "int:\(number.uint64Value)"
    default: return "int:\(number.int64Value)"
    }
  }
  switch value {
  case is NSNull: return "null"
  case let b as Bool: return "bool:\(b)"
  case let s as String: return "str:\(Array(s.utf8))"
  case let i as Int: return "int:\(i)"
  case let i as Int64: return "int:\(i)"
  case let i as Int32: return "int:\(i)"
  case let i as Int16: return "int:\(i)"
  case let i as Int8: return "int:\(i)"
  case let i as UInt8: return "int:\(i)"
  case let i as UInt16: return "int:\(i)"
  case let i as UInt32: return "int:\(i)"
  case let i as UInt64: return "int:\(i)"
  case let i as UInt: return "int:\(i)"
  case let d as Double: return d.isNaN ? "double:NaN" : "double:\(d)/\(String(d.bitPattern, radix: 16))"
  case let t as Timestamp: return "ts:\(t.seconds).\(t.nanoseconds)"
  case let d as Data: return "bytes:\(Array(d))"
  case let g as GeoPoint:
    return "geo:\(g.latitude.bitPattern),\(g.longitude.bitPattern)"
  case let r as DocumentReference: return "ref:\(r.path)"
  case let map as [String: Any]:
    let keys = map.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    return "{" + keys.map { "\(canonical($0 as String)):\(canonical(map[$0]))" }.joined(separator: ",") + "}"
  case let array as [Any]: return "[" + array.map { canonical($0) }.joined(separator: ",") + "]"
  default: return "unexpected(\(type(of: value)):\(value))"
  }
}

/// Checks that `actual` (read from Hearth) equals `expected` exactly, types included.
func expectSame(
  _ actual: Any?, _ expected: Any?, _ comment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let a = canonical(actual)
  let e = canonical(expected)
  let prefix = comment.map { "\($0): " } ?? ""
  #expect(a == e, "\(prefix)got \(a), expected \(e)", sourceLocation: sourceLocation)
}

// MARK: - Whole-database views

/// Every existing document of the database, path → canonical data, found by walking
/// `listCollections` and `listDocuments` from the root.
func databaseContents(_ db: Database) throws -> [String: String] {
  var result: [String: String] = [:]
  func walk(_ collection: CollectionReference) throws {
    for document in try collection.listDocuments() {
      let snapshot = try document.getDocument()
      if snapshot.exists { result[document.path] = canonical(snapshot.data()) }
      for sub in try document.listCollections() { try walk(sub) }
    }
  }
  for collection in try db.listCollections() { try walk(collection) }
  return result
}

/// Waits for a callback delivered on another queue (completion handlers).
final class Signal: @unchecked Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  func fire() { semaphore.signal() }
  /// `true` when fired within `seconds`. The default only ends a hang: a callback on the
  /// main queue waits for the main thread, which other tests can hold for a long while on a
  /// loaded two-core machine.
  func wait(seconds: Double = 60) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// A value set from a callback and read after `Signal.wait`.
final class Box<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: T
  init(_ value: T) { stored = value }
  var value: T {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      stored = newValue
    }
  }
  /// Changes the value atomically (`value += 1` from several threads would lose updates).
  func mutate(_ change: (inout T) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    change(&stored)
  }
}

/// The characters of Firestore's auto IDs.
let autoIDAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

func isAutoID(_ id: String) -> Bool { id.count == 20 && id.allSatisfy { autoIDAlphabet.contains($0) } }
