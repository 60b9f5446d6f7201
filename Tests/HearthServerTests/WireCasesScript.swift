import Foundation
import HearthTestSupport
import Testing

/// Runs Tests/HearthServerTests/Python/wire_cases.py with the Python that has Google's
/// client (`.build/python`, which Tools/setup.sh fills). A missing Python or package
/// fails the test that needs it: nothing here skips.
enum WireCasesScript {
  static let script = repositoryRoot.appendingPathComponent("Tests/HearthServerTests/Python/wire_cases.py").path

  struct Failed: Error, CustomStringConvertible {
    let description: String
  }

  /// The script's standard output for `arguments`, as JSON objects, one a line.
  static func run(_ arguments: [String], stdin: String = "") throws -> [[String: Any]] {
    let python = JSONSchemaValidator.python
    let outcome = try runProcess(
      URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + [script] + arguments, stdin: stdin)
    if outcome.status == 3 {
      throw Failed(
        description: "google-cloud-firestore is missing from \(python[0]); run Tools/setup.sh: \(outcome.stderr)")
    }
    guard outcome.status == 0 else {
      throw Failed(description: "wire_cases.py \(arguments) exited \(outcome.status): \(outcome.stderr)")
    }
    return try outcome.stdout.split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw Failed(description: "not a JSON object: \(line)")
      }
      return object
    }
  }

  /// Every case the script builds: its type, Python's bytes, and the bytes without
  /// unknown fields (the same bytes when it has none).
  static func cases() throws -> [(name: String, type: String, bytes: [UInt8], canonical: [UInt8])] {
    try run(["cases"]).map { object in
      let bytes = try hexBytes(object["hex"] as? String ?? "")
      let canonical = try (object["canonical"] as? String).map(hexBytes) ?? bytes
      return (object["name"] as? String ?? "", object["type"] as? String ?? "", bytes, canonical)
    }
  }

  static func hexBytes(_ text: String) throws -> [UInt8] {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { throw Failed(description: "odd hex length") }
    return try stride(from: 0, to: digits.count, by: 2).map { index in
      guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
        throw Failed(description: "not hex: \(text)")
      }
      return byte
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
  }
}
