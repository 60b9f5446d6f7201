import Foundation

/// Checks JSON documents against the schemas of `Schemas/` with a standard JSON Schema
/// validator: Python's `jsonschema`, which Tools/setup.sh installs into `.build/python`.
///
/// Every schema below `Schemas/` is loaded (so `$ref`s between them resolve by `$id`) and
/// checked against the metaschema. As in Hearth's extended JSON (and unlike JSON Schema,
/// which counts 2.0 as an integer), only a number written without fraction or exponent is
/// an integer.
///
/// A validator that cannot run is an error, never a pass: a test that asks whether the
/// schema rejects something must not pass because nothing could say yes.
public enum JSONSchemaValidator {
  /// The validator could not run: Python or its `jsonschema` is missing.
  public struct Unavailable: Error, CustomStringConvertible {
    public let description: String
  }

  /// The validator ran and failed (a schema that is not valid, a crash).
  public struct Failed: Error, CustomStringConvertible {
    public let description: String
  }

  /// The Python that has `jsonschema`: `HEARTH_PYTHON` when set, else the virtual
  /// environment Tools/setup.sh makes in `.build/python`, else `python3` on the `PATH`.
  public static var python: [String] {
    if let explicit = ProcessInfo.processInfo.environment["HEARTH_PYTHON"], !explicit.isEmpty { return [explicit] }
    let environment = repositoryRoot.appendingPathComponent(".build/python/bin/python3").path
    if FileManager.default.isExecutableFile(atPath: environment) { return [environment] }
    return ["/usr/bin/env", "python3"]
  }

  /// The script's exit status when `jsonschema` cannot be imported.
  private static let missingModule: Int32 = 3

  private static let script = """
    import json, pathlib, sys
    try:
        from jsonschema import Draft202012Validator, validators
        from referencing import Registry, Resource
    except ImportError as error:
        print(f"{sys.executable}: {error}", file=sys.stderr)
        sys.exit(3)
    root = pathlib.Path(sys.argv[1])
    schemas = {p.relative_to(root).as_posix(): json.loads(p.read_text()) for p in root.rglob("*.schema.json")}
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    registry = Registry().with_resources(
        [(schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()])
    integers = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda checker, value: type(value) is int)
    Validator = validators.extend(Draft202012Validator, type_checker=integers)
    checkers = {name: Validator(schema, registry=registry) for name, schema in schemas.items()}
    for text in sys.stdin.read().split("\\n")[:-1]:
        name, instance = json.loads(text)
        instance = json.loads(instance)
        if name not in checkers:
            print(json.dumps(f"there is no schema {name}"))
            continue
        errors = sorted(checkers[name].iter_errors(instance), key=lambda e: list(e.absolute_path))
        print(json.dumps("; ".join(f"{list(e.absolute_path)}: {e.message}" for e in errors) or None))
    """

  /// Checks each `(schema, instance)`: the schema named by its path under `Schemas/`
  /// (`"export-line.schema.json"`, `"demo/users.schema.json"`), the instance given as JSON
  /// text. Returns a verdict per pair: `nil` when valid, the validator's
  /// complaint otherwise.
  ///
  /// - Throws: `Unavailable` when Python or `jsonschema` is missing (run Tools/setup.sh);
  ///   `Failed` when the validator ran and failed.
  public static func verdicts(_ checks: [(schema: String, instance: String)]) throws -> [String?] {
    let input = checks.map { "[\(quoted($0.schema)),\(quoted($0.instance))]\n" }.joined()
    let schemas = repositoryRoot.appendingPathComponent("Schemas").path
    let command = python
    let outcome: ProcessOutcome
    do {
      outcome = try runProcess(
        URL(fileURLWithPath: command[0]), Array(command.dropFirst()) + ["-c", script, schemas], stdin: input)
    } catch {
      throw Unavailable(description: "\(command.joined(separator: " ")) cannot run (\(error)): run Tools/setup.sh")
    }
    let complaint = outcome.stderr
    let printed = outcome.stdout
    switch outcome.status {
    case 0: break
    case missingModule, 127:
      throw Unavailable(
        description: "Python's jsonschema is missing (\(complaint.trimmingCharacters(in: .whitespacesAndNewlines))): "
          + "run Tools/setup.sh, or point HEARTH_PYTHON at a Python that has it")
    default:
      throw Failed(description: "the schema check exited with \(outcome.status): \(complaint)")
    }
    let verdicts = printed.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)) as? String
    }
    guard verdicts.count == checks.count else {
      throw Failed(description: "\(checks.count) checks but \(verdicts.count) verdicts: \(printed)")
    }
    return verdicts
  }

  /// The verdict on one instance.
  public static func verdict(_ instance: String, schema: String) throws -> String? {
    try verdicts([(schema, instance)])[0]
  }

  /// `text` as a JSON string.
  private static func quoted(_ text: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [text])
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }
}
