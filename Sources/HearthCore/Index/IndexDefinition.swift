/// A declared index, in the terms of Firestore's `firestore.indexes.json`: a composite
/// index over several fields, or (from `fieldOverrides`) a single-field index with
/// collection-group scope.
package struct IndexDefinition: Sendable, Hashable, CustomStringConvertible {
  package enum Scope: String, Sendable, Hashable {
    /// Each collection with the ID `collectionGroup`, separately (queries on one collection).
    case collection = "COLLECTION"
    /// Every collection with that ID together (collection-group queries).
    case collectionGroup = "COLLECTION_GROUP"
  }

  /// How one field is indexed: ordered, or by array element (`arrayConfig: CONTAINS`).
  package enum Mode: Sendable, Hashable {
    case ascending, descending, contains
  }

  package struct Field: Sendable, Hashable {
    package var path: FieldPath
    package var mode: Mode

    package init(path: FieldPath, mode: Mode) {
      self.path = path
      self.mode = mode
    }
  }

  package var collectionGroup: String
  package var scope: Scope
  package var fields: [Field]

  package init(collectionGroup: String, scope: Scope, fields: [Field]) {
    self.collectionGroup = collectionGroup
    self.scope = scope
    self.fields = fields
  }

  /// The document ID's direction: that of the last ordered field.
  var namesDescending: Bool { fields.last(where: { $0.mode != .contains })?.mode == .descending }

  package var description: String { IndexFile.json(for: self).serialized() }
}

/// A single-field setting from `fieldOverrides`: which automatic indexes a field of one
/// collection group has (none, to exempt it from indexing).
package struct FieldOverride: Sendable, Hashable {
  package var collectionGroup: String
  package var path: FieldPath
  /// The collection-scope indexes kept: `.ascending`/`.descending` keep the value index
  /// (one serves both directions), `.contains` the array index.
  package var collectionModes: Set<IndexDefinition.Mode>

  package init(collectionGroup: String, path: FieldPath, collectionModes: Set<IndexDefinition.Mode>) {
    self.collectionGroup = collectionGroup
    self.path = path
    self.collectionModes = collectionModes
  }
}

/// Firestore's `firestore.indexes.json` format, read and written.
///
/// ```json
/// {"indexes": [{"collectionGroup": "posts", "queryScope": "COLLECTION",
///               "fields": [{"fieldPath": "ownerId", "order": "ASCENDING"},
///                          {"fieldPath": "createdAt", "order": "DESCENDING"}]}],
///  "fieldOverrides": [{"collectionGroup": "posts", "fieldPath": "ownerId",
///                      "indexes": [{"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}]}]}
/// ```
///
/// A `fieldOverrides` entry's `COLLECTION_GROUP` indexes become single-field definitions
/// with group scope; its `COLLECTION` indexes say which automatic indexes the field keeps.
package struct IndexFile: Sendable, Hashable {
  package var indexes: [IndexDefinition] = []
  package var fieldOverrides: [FieldOverride] = []

  package init(indexes: [IndexDefinition] = [], fieldOverrides: [FieldOverride] = []) {
    self.indexes = indexes
    self.fieldOverrides = fieldOverrides
  }

  /// Parses the file's text.
  ///
  /// - Throws: `invalidArgument` naming the entry and what is wrong with it.
  package static func parse(_ text: String) throws -> IndexFile {
    let root: JSONValue
    do { root = try JSONParser.parse(text) } catch {
      throw HearthError.invalidArgument("Invalid index file: \(error)")
    }
    guard case .object(let members) = root else {
      throw HearthError.invalidArgument("Invalid index file: expected an object, found \(root.typeName)")
    }
    for member in members where member.key != "indexes" && member.key != "fieldOverrides" {
      throw HearthError.invalidArgument("Invalid index file: unknown member '\(member.key)'")
    }
    var file = IndexFile()
    for (position, entry) in try array(root["indexes"], "indexes").enumerated() {
      file.indexes.append(try index(entry, at: "indexes[\(position)]"))
    }
    for (position, entry) in try array(root["fieldOverrides"], "fieldOverrides").enumerated() {
      let (override, groupIndexes) = try fieldOverride(entry, at: "fieldOverrides[\(position)]")
      file.fieldOverrides.append(override)
      file.indexes += groupIndexes
    }
    return file
  }

  private static func index(_ entry: JSONValue, at where: String) throws -> IndexDefinition {
    let group = try string(entry["collectionGroup"], "\(`where`).collectionGroup")
    try checkCollectionID(group, at: `where`)
    let scopeText = try entry["queryScope"].map { try string($0, "\(`where`).queryScope") } ?? "COLLECTION"
    guard let scope = IndexDefinition.Scope(rawValue: scopeText) else {
      throw HearthError.invalidArgument(
        "Invalid index file: \(`where`).queryScope must be COLLECTION or COLLECTION_GROUP, not \(scopeText)")
    }
    let fields = try array(entry["fields"], "\(`where`).fields").enumerated().map { position, field in
      let place = "\(`where`).fields[\(position)]"
      return IndexDefinition.Field(
        path: try fieldPath(field["fieldPath"], "\(place).fieldPath"), mode: try mode(field, at: place))
    }
    guard !fields.isEmpty else { throw HearthError.invalidArgument("Invalid index file: \(`where`).fields is empty") }
    if fields.filter({ $0.mode == .contains }).count > 1 {
      throw HearthError.invalidArgument("Invalid index file: \(`where`) has more than one arrayConfig field")
    }
    return IndexDefinition(collectionGroup: group, scope: scope, fields: fields)
  }

  private static func fieldOverride(_ entry: JSONValue, at where: String) throws -> (FieldOverride, [IndexDefinition]) {
    let group = try string(entry["collectionGroup"], "\(`where`).collectionGroup")
    try checkCollectionID(group, at: `where`)
    let path = try fieldPath(entry["fieldPath"], "\(`where`).fieldPath")
    var modes = Set<IndexDefinition.Mode>()
    var groupIndexes: [IndexDefinition] = []
    guard entry["indexes"] != nil else {
      throw HearthError.invalidArgument(
        "Invalid index file: \(`where`).indexes is missing (use [] to exempt the field)")
    }
    for (position, index) in try array(entry["indexes"], "\(`where`).indexes").enumerated() {
      let place = "\(`where`).indexes[\(position)]"
      let mode = try self.mode(index, at: place)
      let scopeText = try index["queryScope"].map { try string($0, "\(place).queryScope") } ?? "COLLECTION"
      switch scopeText {
      case "COLLECTION": modes.insert(mode)
      case "COLLECTION_GROUP":
        groupIndexes.append(
          IndexDefinition(collectionGroup: group, scope: .collectionGroup, fields: [.init(path: path, mode: mode)]))
      default:
        throw HearthError.invalidArgument(
          "Invalid index file: \(place).queryScope must be COLLECTION or COLLECTION_GROUP, not \(scopeText)")
      }
    }
    return (FieldOverride(collectionGroup: group, path: path, collectionModes: modes), groupIndexes)
  }

  private static func mode(_ entry: JSONValue, at where: String) throws -> IndexDefinition.Mode {
    switch (entry["order"], entry["arrayConfig"]) {
    case (.string("ASCENDING")?, nil): return .ascending
    case (.string("DESCENDING")?, nil): return .descending
    case (nil, .string("CONTAINS")?): return .contains
    default:
      throw HearthError.invalidArgument(
        "Invalid index file: \(`where`) needs \"order\": \"ASCENDING\" or \"DESCENDING\", or "
          + "\"arrayConfig\": \"CONTAINS\"")
    }
  }

  private static func array(_ value: JSONValue?, _ where: String) throws -> [JSONValue] {
    switch value {
    case nil: return []
    case .array(let elements)?: return elements
    case let other?:
      throw HearthError.invalidArgument("Invalid index file: \(`where`) must be an array, not \(other.typeName)")
    }
  }

  private static func string(_ value: JSONValue?, _ where: String) throws -> String {
    guard case .string(let text)? = value else {
      throw HearthError.invalidArgument("Invalid index file: \(`where`) must be a string")
    }
    return text
  }

  private static func fieldPath(_ value: JSONValue?, _ where: String) throws -> FieldPath {
    let text = try string(value, `where`)
    if text == "__name__" { return .documentID() }
    do { return try FieldPath.parse(canonical: text) } catch let error as HearthError {
      throw HearthError.invalidArgument("Invalid index file: \(`where`): \(error.message)")
    }
  }

  private static func checkCollectionID(_ id: String, at where: String) throws {
    if let problem = ResourcePath.problem(withID: id) {
      throw HearthError.invalidArgument("Invalid index file: \(`where`).collectionGroup: \(problem)")
    }
  }

  // MARK: - Writing

  /// The `fieldOverrides` entries, with the collection-group indexes of their fields.
  var overridesJSON: [JSONValue] {
    fieldOverrides.map { override -> JSONValue in
      let collection = override.collectionModes.sorted { "\($0)" < "\($1)" }.map { mode in
        JSONValue.object(Self.modeMembers(mode) + [("queryScope", .string("COLLECTION"))])
      }
      let group = indexes.filter {
        $0.scope == .collectionGroup && $0.collectionGroup == override.collectionGroup && $0.fields.count == 1
          && $0.fields[0].path == override.path
      }.map { JSONValue.object(Self.modeMembers($0.fields[0].mode) + [("queryScope", .string("COLLECTION_GROUP"))]) }
      return .object([
        ("collectionGroup", .string(override.collectionGroup)), ("fieldPath", .string(override.path.canonical)),
        ("indexes", .array(collection + group)),
      ])
    }
  }

  /// The file's text, as Firestore's CLI writes it.
  package func serialized(pretty: Bool = true) -> String {
    let overrides = overridesJSON
    let composite = indexes.filter { index in
      !(index.scope == .collectionGroup && index.fields.count == 1
        && fieldOverrides.contains { $0.collectionGroup == index.collectionGroup && $0.path == index.fields[0].path })
    }
    let root = JSONValue.object([
      ("indexes", .array(composite.map(Self.json))), ("fieldOverrides", .array(overrides)),
    ])
    return root.serialized(pretty: pretty)
  }

  /// One index entry as JSON.
  package static func json(for index: IndexDefinition) -> JSONValue {
    .object([
      ("collectionGroup", .string(index.collectionGroup)), ("queryScope", .string(index.scope.rawValue)),
      (
        "fields",
        .array(
          index.fields.map { field in .object([("fieldPath", .string(field.path.canonical))] + modeMembers(field.mode))
          })
      ),
    ])
  }

  private static func modeMembers(_ mode: IndexDefinition.Mode) -> [(key: String, value: JSONValue)] {
    switch mode {
    case .ascending: [("order", .string("ASCENDING"))]
    case .descending: [("order", .string("DESCENDING"))]
    case .contains: [("arrayConfig", .string("CONTAINS"))]
    }
  }
}
