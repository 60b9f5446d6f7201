/// The rules every stored document obeys (docs/semantics.md, "Values"), checked on the final
/// document of each write, after transforms, whoever wrote it (API, shell or import).
package enum DocumentValidation {
  /// Firestore's limit: 1 MiB by its size rules.
  package static let maxDocumentSize = 1_048_576
  /// Firestore's limit for one string or bytes value: 1 MiB − 89 bytes (Google's emulator:
  /// "The value of property … is longer than 1048487 bytes").
  package static let maxValueBytes = 1_048_487
  /// Maps and arrays nest at most this deep.
  package static let maxDepth = 20

  /// - Throws: `invalidArgument` naming the document, the field and the rule broken.
  package static func validate(_ fields: [String: Value], of key: DocumentKey) throws {
    var path: [String] = []
    try validateMap(fields, at: &path, depth: 0, key: key)
    let size = documentSize(key: key, fields: fields)
    if size > maxDocumentSize {
      throw HearthError.invalidArgument(
        "Document \(key) is too large: \(size) bytes by Firestore's size rules; the limit is "
          + "\(maxDocumentSize) bytes (1 MiB).")
    }
  }

  /// Checks a field name for writes through the Swift API, as the Firebase SDK does: not
  /// empty, and not beginning and ending with `__`, however short (`__` and `___` too).
  package static func problem(withFieldName name: String) -> String? {
    if name.isEmpty { return emptyName }
    if isUnderscored(name, shortest: 2) { return reservedName }
    return nil
  }

  /// Whether the backend reserves `name` (a field name or an ID), as Google's emulator
  /// does (`ResourcePath.shortestReserved`); the Swift API refuses shorter ones first, as
  /// the SDK does.
  package static func isReserved(_ name: String) -> Bool {
    isUnderscored(name, shortest: ResourcePath.shortestReserved)
  }

  private static func isUnderscored(_ name: String, shortest: Int) -> Bool {
    var name = name
    return name.withUTF8 { ResourcePath.isUnderscored($0, shortest: shortest) }
  }

  private static let emptyName = "Document fields must not be empty"
  private static let reservedName = "Document fields cannot begin and end with \"__\""

  private static func fail(_ key: DocumentKey, _ path: [String], _ rule: String) -> HearthError {
    HearthError.invalidArgument("Invalid data for document \(key), field \(FieldPath(path)): \(rule)")
  }

  /// `path` is a stack of names, pushed and popped on the way down, so that no field
  /// path is built unless there is an error to report; `pathBytes` is its length written
  /// with dots, for Firestore's limit (`FieldPath.maxBytes`), which counts a nested name
  /// by its whole path (arrays add nothing).
  private static func validateMap(
    _ fields: [String: Value], at path: inout [String], pathBytes: Int = 0, depth: Int, key: DocumentKey
  ) throws {
    for (name, value) in fields {
      path.append(name)
      defer { path.removeLast() }
      // The backend's rule: this runs for every writer (the Swift API checked its own).
      if name.isEmpty { throw fail(key, path, emptyName) }
      if isReserved(name) { throw fail(key, path, reservedName) }
      let bytes = pathBytes + (path.count > 1 ? 1 : 0) + name.utf8.count
      if bytes > FieldPath.maxBytes, let problem = FieldPath(path).lengthProblem {
        throw HearthError.invalidArgument("Invalid data for document \(key): \(problem)")
      }
      try validateValue(value, at: &path, pathBytes: bytes, depth: depth, insideArray: false, key: key)
    }
  }

  private static func validateValue(
    _ value: Value, at path: inout [String], pathBytes: Int, depth: Int, insideArray: Bool, key: DocumentKey
  ) throws {
    switch value {
    case .array(let elements):
      if insideArray { throw fail(key, path, "Nested arrays are not supported") }
      guard depth < maxDepth else { throw tooDeep(key, path) }
      for element in elements {
        try validateValue(element, at: &path, pathBytes: pathBytes, depth: depth + 1, insideArray: true, key: key)
      }
    case .map(let fields):
      guard depth < maxDepth else { throw tooDeep(key, path) }
      // Firestore's vector value, a map `{"__type__": "__vector__", "value": [numbers]}`
      // (what the clients' `Vector` writes): the one map whose field names may begin and
      // end with `__` (`validateVectors` checks those a write sends).
      if Value.vectorElements(fields) != nil { return }
      try validateMap(fields, at: &path, pathBytes: pathBytes, depth: depth + 1, key: key)
    case .timestamp(let timestamp):
      if !timestamp.isInFirestoreRange {
        throw fail(key, path, "Timestamp seconds out of range: \(timestamp.seconds) (valid years are 1 to 9999)")
      }
    case .geoPoint(let point):
      if let problem = point.rangeProblem { throw fail(key, path, problem) }
    case .string(let string):
      if string.utf8.count > maxValueBytes { throw tooLong(key, path, string.utf8.count) }
    case .bytes(let data):
      if data.count > maxValueBytes { throw tooLong(key, path, data.count) }
    case .reference(let reference):
      do { try reference.path.validate() } catch let error as HearthError {
        throw fail(key, path, "invalid reference: \(error.message)")
      }
    default:
      break
    }
  }

  /// Checks the vector values a write sends (its set or patched fields, not what
  /// transforms make of them) by the backend's rules, in its order, as Google's emulator
  /// applies them to a write's data but not to the document it leaves (an `arrayUnion`
  /// may put a vector in an array, and the document stays writable).
  ///
  /// - Throws: `invalidArgument` naming the document, the field and the rule broken.
  package static func validateVectors(_ fields: [String: Value], of key: DocumentKey) throws {
    if let (path, rule) = vectorProblem(in: fields) { throw fail(key, path, rule) }
  }

  /// The first vector in `fields` that breaks a rule: its path (built on the way out, so
  /// that a write with none builds nothing) and the rule. In the emulator's words: "Cannot
  /// convert a vector value in an array value.", "Cannot have a zero length vector.",
  /// "Vector cannot contain NaN values."
  private static func vectorProblem(in fields: [String: Value]) -> (path: [String], rule: String)? {
    for (name, value) in fields {
      if let (path, rule) = vectorProblem(value, insideArray: false) { return ([name] + path, rule) }
    }
    return nil
  }

  private static func vectorProblem(_ value: Value, insideArray: Bool) -> (path: [String], rule: String)? {
    switch value {
    case .array(let elements):
      for element in elements {
        if let problem = vectorProblem(element, insideArray: true) { return problem }
      }
      return nil
    case .map(let fields):
      // A vector in a map in an array is not in the array itself.
      guard let elements = Value.vectorElements(fields) else { return vectorProblem(in: fields) }
      if insideArray { return ([], "a vector value may not be inside an array") }
      if elements.isEmpty { return ([], "a vector value must have at least one element") }
      if elements.contains(where: \.isNaN) { return ([], "a vector value may not contain NaN") }
      return nil
    default:
      return nil
    }
  }

  private static func tooLong(_ key: DocumentKey, _ path: [String], _ bytes: Int) -> HearthError {
    fail(key, path, "the value is \(bytes) bytes long; one value may be at most \(maxValueBytes) bytes")
  }

  private static func tooDeep(_ key: DocumentKey, _ path: [String]) -> HearthError {
    fail(key, path, "maps and arrays are nested more than \(maxDepth) levels deep")
  }

  // MARK: - Size

  /// A document's size by Firestore's rules: the name (each segment's bytes + 1, + 16),
  /// each field name's bytes + 1 and value, + 32.
  package static func documentSize(key: DocumentKey, fields: [String: Value]) -> Int {
    nameSize(key) + mapSize(fields) + 32
  }

  static func nameSize(_ key: DocumentKey) -> Int {
    key.collectionPath.segments.reduce(17 + key.documentID.utf8.count) { $0 + $1.utf8.count + 1 }
  }

  static func mapSize(_ fields: [String: Value]) -> Int {
    fields.reduce(0) { $0 + $1.key.utf8.count + 1 + valueSize($1.value) }
  }

  /// A value's size by Firestore's rules (as `documentSize` counts it).
  package static func valueSize(_ value: Value) -> Int {
    switch value {
    case .null, .boolean: 1
    case .integer, .double, .timestamp: 8
    case .string(let s): s.utf8.count + 1
    case .bytes(let data): data.count
    case .reference(let key): nameSize(key)
    case .geoPoint: 16
    case .array(let elements): elements.reduce(0) { $0 + valueSize($1) }
    case .map(let fields): mapSize(fields)
    }
  }
}
