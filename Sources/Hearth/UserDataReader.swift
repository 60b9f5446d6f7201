import Foundation
import HearthCore

/// Turns the `[String: Any]` data of a write into engine writes: converts Swift values to
/// Firestore values, takes `FieldValue` sentinels out as transforms or deletes, and
/// enforces Firestore's rules on where each may appear. Errors are `invalidArgument`
/// with Firestore's wording, the document path and the field.
struct UserDataReader {
  let database: Database
  /// What is read: a document's data, or a query's values. Messages name it (`data for
  /// document users/alice`, `query users/alice/posts`), written only when one is thrown:
  /// a reader is made for every write and every filter.
  private let subject: Subject

  private enum Subject {
    case document(DocumentKey)
    case query(QueryModel.Target)
  }

  init(database: Database, key: DocumentKey) {
    self.database = database
    subject = .document(key)
  }

  /// A reader for the operands of query filters and cursors (`argument`).
  init(database: Database, query target: QueryModel.Target) {
    self.database = database
    subject = .query(target)
  }

  /// The document written (a query's reader writes nothing).
  var key: DocumentKey {
    guard case .document(let key) = subject else { preconditionFailure("a query's values are not a write") }
    return key
  }

  /// Where a value is being read, which decides what sentinels may do.
  enum Context {
    /// `setData(_:)`: plain values and transforms; no delete.
    case set
    /// `setData(_:merge:)` and `mergeFields:`: every leaf path is merged; delete allowed.
    case merge
    /// `updateData`: keys are field paths; delete only as a key's own value.
    case update
    /// An operand of `arrayUnion`/`arrayRemove` (or a query value): no sentinels.
    case argument
  }

  /// What reading the data collected besides the values.
  private struct Accumulator {
    var leafPaths: [FieldPath] = []
    var transforms: [FieldTransform] = []
  }

  // MARK: - Writes

  /// `setData(data)`: replace the document.
  func set(_ data: [String: Any]) throws -> Write {
    var accumulator = Accumulator()
    var path = PathStack(names: [])
    let fields = try readMap(data, at: &path, context: .set, depth: 0, belowArray: false, into: &accumulator)
    return Write(key: key, kind: .set(fields), transforms: accumulator.transforms)
  }

  /// `create(data)`: like `set`, but the document must not exist.
  func create(_ data: [String: Any]) throws -> Write {
    var write = try set(data)
    write.precondition = .exists(false)
    return write
  }

  /// `setData(data, merge: true)`, or with `mergeFields`, only those paths.
  func merge(_ data: [String: Any], fields requested: [Any]? = nil) throws -> Write {
    var accumulator = Accumulator()
    var path = PathStack(names: [])
    let fields = try readMap(data, at: &path, context: .merge, depth: 0, belowArray: false, into: &accumulator)
    guard let requested else {
      return Write(
        key: key, kind: .patch(fields: fields, mask: accumulator.leafPaths), transforms: accumulator.transforms)
    }
    var mask: [FieldPath] = []
    var covering: [FieldPath] = []
    for element in requested {
      let path: FieldPath
      switch element {
      case let string as String: path = try parseDotted(string)
      case let fieldPath as FieldPath: path = try validated(fieldPath)
      default:
        throw invalid("All elements in mergeFields: must be Strings or FieldPaths, but found \(typeName(element)).")
      }
      let present =
        accumulator.leafPaths.contains { path.isPrefix(of: $0) }
        || accumulator.transforms.contains { path.isPrefix(of: $0.path) }
      guard present else {
        throw invalid("Field '\(path)' is specified in your field mask but missing from your input data.")
      }
      covering.append(path)
      // A listed path that is itself a transform stays out of the patch, so the transform
      // reads the stored value (as with `merge: true`); a listed map is replaced, even when
      // only transforms are below it. These are Firestore's cross-SDK conformance rules.
      if !accumulator.transforms.contains(where: { $0.path == path }) { mask.append(path) }
    }
    let transforms = accumulator.transforms.filter { transform in covering.contains { $0.isPrefix(of: transform.path) }
    }
    return Write(key: key, kind: .patch(fields: fields, mask: mask), transforms: transforms)
  }

  /// `updateData(fields)`: keys are field paths; the document must exist.
  func update(_ updates: [AnyHashable: Any]) throws -> Write {
    var accumulator = Accumulator()
    var fields: [String: Value] = [:]
    var mask: [FieldPath] = []
    var written: [FieldPath] = []  // every key, transforms included, to find conflicts
    for (rawKey, rawValue) in updates {
      let path: FieldPath
      switch rawKey.base {
      case let string as String: path = try parseDotted(string)
      case let fieldPath as FieldPath: path = try validated(fieldPath)
      default:
        throw invalid(
          "Dictionary keys in updateData: must be Strings or FieldPaths, but found \(typeName(rawKey.base)).")
      }
      for name in path.segments {
        if let problem = DocumentValidation.problem(withFieldName: name) {
          throw invalid("Invalid data. \(problem)", field: path)
        }
      }
      written.append(path)
      var stack = PathStack(names: path.segments)
      if let sentinel = rawValue as? FieldValue, case .delete = sentinel.kind {
        mask.append(path)
      } else if let value = try readValue(
        rawValue, at: &stack, context: .update, depth: 0, inArray: false, belowArray: false, into: &accumulator)
      {
        FieldOperations.set(value, at: path, in: &fields)
        mask.append(path)
      }
    }
    let sorted = written.sorted { $0.segments.lexicographicallyPrecedes($1.segments) }
    for (shorter, longer) in zip(sorted, sorted.dropFirst()) where shorter.isPrefix(of: longer) {
      throw invalid(
        shorter == longer
          ? "Field '\(shorter)' was specified multiple times."
          : "Fields '\(shorter)' and '\(longer)' conflict: a field may be written only once in one update.")
    }
    return Write(
      key: key, kind: .patch(fields: fields, mask: mask), transforms: accumulator.transforms,
      precondition: .exists(true))
  }

  /// An operand of an array transform (or a query value): no sentinels, and no array
  /// directly inside an array.
  func argument(_ value: Any, insideArray: Bool, field: FieldPath) throws -> Value {
    var accumulator = Accumulator()
    var path = PathStack(names: field.segments)
    guard
      let result = try readValue(
        value, at: &path, context: .argument, depth: 0, inArray: insideArray, belowArray: insideArray,
        into: &accumulator)
    else {
      throw invalid("A value is missing", field: field)
    }
    return result
  }

  // MARK: - Values

  /// The path being read, as a stack of names pushed and popped while walking the data,
  /// so that a `FieldPath` is made only where one is kept (merge masks, transforms,
  /// errors) rather than for every field.
  struct PathStack {
    var names: [String]
    var fieldPath: FieldPath { FieldPath(names) }
    /// The path's length written with dots, which Firestore limits (`FieldPath.maxBytes`).
    var dottedByteCount: Int { names.reduce(max(names.count - 1, 0)) { $0 + $1.utf8.count } }
  }

  private func readMap(
    _ map: [String: Any], at path: inout PathStack, context: Context, depth: Int, belowArray: Bool,
    into accumulator: inout Accumulator
  ) throws -> [String: Value] {
    var fields = [String: Value](minimumCapacity: map.count)
    for (name, raw) in map {
      path.names.append(name)
      defer { path.names.removeLast() }
      if context != .argument {
        if let problem = DocumentValidation.problem(withFieldName: name) {
          throw invalid("Invalid data. \(problem)", field: path.fieldPath)
        }
        if path.dottedByteCount > FieldPath.maxBytes, let problem = path.fieldPath.lengthProblem {
          throw invalid("Invalid data. \(problem)")
        }
      }
      if let value = try readValue(
        raw, at: &path, context: context, depth: depth, inArray: false, belowArray: belowArray, into: &accumulator)
      {
        fields[name] = value
      }
    }
    return fields
  }

  /// Reads one value; returns `nil` for a sentinel, which becomes a transform or a
  /// deleted path instead. `inArray`: the direct parent is an array (so an array here
  /// would be nested); `belowArray`: some ancestor is (so no sentinel may appear).
  private func readValue(
    _ raw: Any, at path: inout PathStack, context: Context, depth: Int, inArray: Bool, belowArray: Bool,
    into accumulator: inout Accumulator
  ) throws -> Value? {
    switch Shape(raw) {
    case .sentinel(let sentinel):
      try readSentinel(sentinel, at: path.fieldPath, context: context, belowArray: belowArray, into: &accumulator)
      return nil
    case .map(let map):
      guard depth < DocumentValidation.maxDepth else { throw tooDeep(path.fieldPath) }
      if map.isEmpty, context == .merge, !path.names.isEmpty, !belowArray {
        accumulator.leafPaths.append(path.fieldPath)
      }
      return .map(
        try readMap(map, at: &path, context: context, depth: depth + 1, belowArray: belowArray, into: &accumulator))
    case .array(let array):
      if inArray { throw invalid("Nested arrays are not supported", field: path.fieldPath) }
      guard depth < DocumentValidation.maxDepth else { throw tooDeep(path.fieldPath) }
      var elements: [Value] = []
      elements.reserveCapacity(array.count)
      for element in array {
        if let value = try readValue(
          element, at: &path, context: context, depth: depth + 1, inArray: true, belowArray: true, into: &accumulator)
        {
          elements.append(value)
        }
      }
      if context == .merge, !belowArray { accumulator.leafPaths.append(path.fieldPath) }
      return .array(elements)
    case .string(let string):
      if context == .merge, !belowArray { accumulator.leafPaths.append(path.fieldPath) }
      return .string(string)
    case .other:
      let value = try scalar(raw, at: path)
      if context == .merge, !belowArray { accumulator.leafPaths.append(path.fieldPath) }
      return value
    }
  }

  /// What a value is. The common types are recognised by their exact dynamic type, which
  /// is much cheaper than a chain of casts (several of which would bridge the value to
  /// Foundation first); only other types are cast.
  private enum Shape {
    case sentinel(FieldValue)
    case map([String: Any])
    case array([Any])
    /// The commonest value, known at once: through `scalar(_:at:)` a string cost two
    /// table look-ups and a closure (~1,200 instructions for an `in` operand's element).
    case string(String)
    /// A scalar or a reference: `scalar(_:at:)` converts it.
    case other

    init(_ raw: Any) {
      if Swift.type(of: raw) == String.self {
        self = .string(raw as! String)
        return
      }
      let type = ObjectIdentifier(Swift.type(of: raw))
      if type == Self.stringMap {
        self = .map(raw as! [String: Any])
      } else if type == Self.anyArray {
        self = .array(raw as! [Any])
      } else if type == Self.fieldValue {
        self = .sentinel(raw as! FieldValue)
      } else if ScalarValue.byType[type] != nil || type == Self.reference || Swift.type(of: raw) is NSNumber.Type {
        self = .other  // numbers read back from Hearth are `NSNumber`s
      } else if let elements = Self.typedElements(raw, type) {
        self = .array(elements)
      } else if let values = Self.typedValues(raw, type) {
        self = .map(values)
      } else if let map = raw as? [String: Any] {
        self = .map(map)
      } else if let array = raw as? [Any] {
        self = .array(array)
      } else {
        self = .other
      }
    }

    /// The elements of an array of the commonest typed ones (`"tags": ["a", "b"]` in a
    /// `[String: Any]` literal is a `[String]`), known by its exact type as the scalars
    /// are: the runtime's cast of `[String]` to `[Any]` casts each element dynamically
    /// (~5,000 instructions for three strings; this, a few hundred).
    private static func typedElements(_ raw: Any, _ type: ObjectIdentifier) -> [Any]? {
      switch type {
      case strings: (raw as! [String]).map { $0 }
      case maps: (raw as! [[String: Any]]).map { $0 }
      case integers: (raw as! [Int]).map { $0 }
      case doubles: (raw as! [Double]).map { $0 }
      case booleans: (raw as! [Bool]).map { $0 }
      default: nil
      }
    }

    /// The values of a map of the commonest typed ones (`[String: String]`,
    /// `[String: Int]`, …), as `typedElements` (`mapValues` keeps the table: no key is
    /// hashed again).
    private static func typedValues(_ raw: Any, _ type: ObjectIdentifier) -> [String: Any]? {
      switch type {
      case stringValues: (raw as! [String: String]).mapValues { $0 }
      case integerValues: (raw as! [String: Int]).mapValues { $0 }
      case doubleValues: (raw as! [String: Double]).mapValues { $0 }
      case booleanValues: (raw as! [String: Bool]).mapValues { $0 }
      default: nil
      }
    }

    private static let strings = ObjectIdentifier([String].self)
    private static let maps = ObjectIdentifier([[String: Any]].self)
    private static let integers = ObjectIdentifier([Int].self)
    private static let doubles = ObjectIdentifier([Double].self)
    private static let booleans = ObjectIdentifier([Bool].self)
    private static let stringValues = ObjectIdentifier([String: String].self)
    private static let integerValues = ObjectIdentifier([String: Int].self)
    private static let doubleValues = ObjectIdentifier([String: Double].self)
    private static let booleanValues = ObjectIdentifier([String: Bool].self)
    private static let stringMap = ObjectIdentifier([String: Any].self)
    private static let anyArray = ObjectIdentifier([Any].self)
    private static let fieldValue = ObjectIdentifier(FieldValue.self)
    static let reference = ObjectIdentifier(DocumentReference.self)
  }

  private func readSentinel(
    _ sentinel: FieldValue, at path: FieldPath, context: Context, belowArray: Bool, into accumulator: inout Accumulator
  ) throws {
    if belowArray {
      throw invalid("\(sentinel.methodName) is not currently supported inside arrays", field: path)
    }
    if context == .argument {
      throw invalid("\(sentinel.methodName) can only be used with updateData() and setData()", field: path)
    }
    let operation: TransformOperation
    switch sentinel.kind {
    case .delete:
      switch context {
      case .merge: accumulator.leafPaths.append(path)
      case .update:
        throw invalid("FieldValue.delete() can only appear at the top level of your update data", field: path)
      default:
        throw invalid(
          "FieldValue.delete() can only be used with updateData() and setData() with merge:true", field: path)
      }
      return
    case .serverTimestamp: operation = .serverTimestamp
    case .increment(let n): operation = .increment(n)
    case .minimum(let n): operation = .minimum(n)
    case .maximum(let n): operation = .maximum(n)
    case .arrayUnion(let elements):
      operation = .arrayUnion(try elements.map { try argument($0, insideArray: true, field: path) })
    case .arrayRemove(let elements):
      operation = .arrayRemove(try elements.map { try argument($0, insideArray: true, field: path) })
    }
    accumulator.transforms.append(FieldTransform(path: path, operation: operation))
  }

  /// Every type that is not a map, an array or a sentinel.
  private func scalar(_ raw: Any, at path: PathStack) throws -> Value {
    // Compared by type, not cast: casting a value to a class bridges it to Foundation first.
    if ObjectIdentifier(Swift.type(of: raw)) == Shape.reference, let reference = raw as? DocumentReference {
      return .reference(try referenceKey(reference, at: path.fieldPath))
    }
    switch ScalarValue(raw) {
    case .value(let value): return value
    case .tooLarge(let value):
      throw invalid(
        "Integer \(value) is too large: integers must fit in a signed 64-bit integer", field: path.fieldPath)
    case .unsupported:
      throw invalid("Unsupported type: \(typeName(raw))", field: path.fieldPath)
    }
  }

  private func referenceKey(_ reference: DocumentReference, at path: FieldPath) throws -> DocumentKey {
    let referenceKey = try reference.validKey()
    guard reference.firestore === database || reference.firestore.path == database.path else {
      throw invalid(
        "Document reference \(referenceKey) is for database \(reference.firestore.path) but should be for database "
          + "\(database.path)", field: path)
    }
    return referenceKey
  }

  // MARK: - Paths and errors

  private func parseDotted(_ string: String) throws -> FieldPath {
    do { return try FieldPath.parse(dotted: string) } catch let error as HearthError { throw invalid(error.message) }
  }

  private func validated(_ path: FieldPath) throws -> FieldPath {
    do { try path.validate() } catch let error as HearthError { throw invalid(error.message) }
    return path
  }

  private func tooDeep(_ path: FieldPath) -> HearthError {
    invalid("Maps and arrays are nested more than \(DocumentValidation.maxDepth) levels deep", field: path)
  }

  func invalid(_ message: String, field: FieldPath? = nil) -> HearthError {
    let what =
      switch subject {
      case .document(let key): "data for document \(key)"
      case .query(.collection(let path)): "query \(path)"
      case .query(.group(let collectionID)): "query group \(collectionID)"
      }
    var text = "Invalid \(what): \(message)"
    if let field, !field.isEmpty { text += " (found in field \(field))" }
    return HearthError(.invalidArgument, text)
  }

  private func typeName(_ value: Any) -> String { String(describing: type(of: value)) }
}
