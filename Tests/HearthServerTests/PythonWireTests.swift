import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Testing

/// The codec against Google's Python client: every message of WireCases, built by the
/// client's own `_pb` classes, decodes, re-encodes byte for byte (Python's deterministic
/// serialization sorts map entries by key, as the encoder does), and encodes from
/// HearthCore's values to bytes Python parses back to its own message.
@Suite struct PythonWireTests {
  @Test func everyCaseHasAnExpectation() throws {
    let names = Set(try WireCasesScript.cases().map(\.name))
    #expect(names.count > 90)
    #expect(
      names == Set(WireCases.all.keys),
      "cases only in Python: \(names.subtracting(WireCases.all.keys).sorted()); only in Swift: \(Set(WireCases.all.keys).subtracting(names).sorted())"
    )
  }

  @Test func pythonBytesDecodeAndReencodeExactly() throws {
    for item in try WireCasesScript.cases() {
      guard let decode = WireCases.decoders[item.type] else {
        Issue.record("\(item.name): no decoder for \(item.type)")
        continue
      }
      let decoded: any WireMessage
      do {
        decoded = try decode(item.bytes)
      } catch {
        Issue.record("\(item.name): \(error)")
        continue
      }
      #expect(WireCases.typeName(decoded) == item.type, "\(item.name)")
      let again = decoded.protobuf(database: WireCases.database)
      #expect(
        again == item.canonical,
        "\(item.name): re-encoded \(WireCasesScript.hex(again)), Python wrote \(WireCasesScript.hex(item.canonical))")
      // What decodes equals what Swift builds from HearthCore's values: both encode alike.
      if let expected = WireCases.all[item.name] {
        let built = expected.protobuf(database: WireCases.database)
        #expect(
          built == item.canonical,
          "\(item.name): Swift's value encodes to \(WireCasesScript.hex(built)), Python wrote \(WireCasesScript.hex(item.canonical))"
        )
      }
    }
  }

  @Test func pythonParsesWhatSwiftEncodes() throws {
    let lines = try WireCases.all.sorted { $0.key < $1.key }.map { name, message in
      let object: [String: String] = [
        "name": name, "type": WireCases.typeName(message),
        "hex": WireCasesScript.hex(message.protobuf(database: WireCases.database)),
      ]
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    let answers = try WireCasesScript.run(["check"], stdin: lines.joined(separator: "\n") + "\n")
    #expect(answers.count == WireCases.all.count)
    for answer in answers {
      #expect(answer["equal"] as? Bool == true, "\(answer["name"] ?? "?"): \(answer["error"] ?? "")")
    }
  }

  /// Every request of the recording of Google's Python client talking to Google's
  /// emulator (Python/emulator-exchanges.jsonl, a copy of the recording the project was
  /// given, or HEARTH_WIRE_RECORDING) decodes, and re-encodes to bytes that decode to the
  /// same request.
  @Test func recordedClientRequestsDecode() throws {
    let recording =
      ProcessInfo.processInfo.environment["HEARTH_WIRE_RECORDING"]
      ?? repositoryRoot.appendingPathComponent("Tests/HearthServerTests/Python/emulator-exchanges.jsonl").path
    #expect(FileManager.default.fileExists(atPath: recording), "the recording \(recording) is missing")
    let requests = try WireCasesScript.run(["exchanges", recording])
    #expect(requests.count >= 50)
    var methods: Set<String> = []
    for request in requests {
      let type = request["type"] as? String ?? ""
      let bytes = try WireCasesScript.hexBytes(request["hex"] as? String ?? "")
      methods.insert(type)
      guard let decode = WireCases.decoders[type] else {
        Issue.record("no decoder for \(type)")
        continue
      }
      do {
        let decoded = try decode(bytes)
        let again = decoded.protobuf(database: (decoded as? any FirestoreRequest)?.database ?? WireCases.database)
        let twice = try decode(again).protobuf(
          database: (decoded as? any FirestoreRequest)?.database ?? WireCases.database)
        #expect(again == twice, "\(type) #\(request["index"] ?? "?"): re-encoding is not stable")
      } catch {
        Issue.record("\(type) #\(request["index"] ?? "?"): \(error)")
      }
    }
    #expect(methods.count >= 10, "methods: \(methods.sorted())")
  }
}
