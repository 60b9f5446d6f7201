import Foundation
import HearthCore

/// The fuzz targets (Tools/Fuzz/README.md). Each feeds one input, any bytes at all, to a
/// parser or codec and checks properties that must hold for every input: no crash, errors
/// only of the documented kind, round trips exact.
///
/// A target returns normally when its properties hold and throws `PropertyViolation` when
/// one fails. Bad input is never a violation: it must be refused with the documented
/// error, and the target checks that it is. The libFuzzer entry (`fuzz`) turns a
/// violation into a trap, which is what libFuzzer reports; the tests record it instead.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// `DocumentCodec`: decoding arbitrary stored bytes, with and without a valid checksum,
  /// and round trips of documents built from the input.
  case documentCodec = "document-codec"
  /// `KeyCodec`: byte order of the encodings of two values built from the input is their
  /// value order; equal values encode alike; encodings are prefix-free.
  case keyCodec = "key-codec"
  /// `JSONParser`, `JSONWriter`, `ExtendedJSONCodec` and `Hearth.ExtendedJSON`: parsing
  /// the input as JSON and as extended JSON, and writing back what parsed.
  case extendedJSON = "extended-json"
  /// The shell's tokenizer and query clause parser, and the queries they build, run on an
  /// empty database.
  case query = "query"
  /// `ExportFormat`: the input as an export header line and as a document line, and the
  /// round trip of what parsed.
  case importLine = "import-line"
  /// HearthServer's decoders of the Firestore requests: random and mutated message bytes
  /// decode or throw `ProtobufError`; what decodes round-trips exactly.
  case firestoreRequest = "firestore-request"

  /// The name of the executable that fuzzes this target: `fuzz-document-codec`.
  public var executableName: String { "fuzz-" + rawValue }

  /// Runs the target on one input.
  ///
  /// - Throws: `PropertyViolation` naming the property that failed.
  public func run(_ input: UnsafeRawBufferPointer) throws {
    switch self {
    case .documentCodec: try DocumentCodecTarget.run(input)
    case .keyCodec: try KeyCodecTarget.run(input)
    case .extendedJSON: try ExtendedJSONTarget.run(input)
    case .query: try QueryTarget.run(input)
    case .importLine: try ImportLineTarget.run(input)
    case .firestoreRequest: try FirestoreRequestTarget.run(input)
    }
  }

  /// Runs the target on one input.
  ///
  /// - Throws: `PropertyViolation` naming the property that failed.
  public func run(_ input: [UInt8]) throws {
    try input.withUnsafeBytes { try run($0) }
  }

  /// libFuzzer's `LLVMFuzzerTestOneInput`: runs the input and traps, with the property's
  /// message, when it fails.
  public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
      try run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    } catch {
      fatalError("\(executableName): property violated: \(error)")
    }
    return 0
  }
}

/// A property of a fuzz target that an input broke.
public struct PropertyViolation: Error, CustomStringConvertible, Sendable {
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// Throws `PropertyViolation(message)` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw PropertyViolation(message()) }
}

/// Checks that `error`, thrown by `what` for some input, is a `HearthError` with one of
/// `codes`: the documented way of refusing bad input.
func requireHearthError(_ error: any Error, _ codes: HearthError.Code..., from what: String) throws {
  guard let error = error as? HearthError else {
    throw PropertyViolation("\(what) threw \(type(of: error)), not a HearthError: \(error)")
  }
  try require(codes.contains(error.code), "\(what) threw \(error.code), expected one of \(codes): \(error.message)")
  try require(!error.message.isEmpty, "\(what) threw \(error.code) without a message")
}

/// -1, 0 or 1: `a` and `b` in unsigned byte order, then the shorter first (LMDB's order).
func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
  for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
  return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}

/// `bytes` in hexadecimal, abbreviated past 64 bytes, for messages.
func hex(_ bytes: [UInt8]) -> String {
  let shown = bytes.prefix(64).map {
    String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
  }
  return shown.joined() + (bytes.count > 64 ? "… (\(bytes.count) bytes)" : "")
}

extension FuzzTarget {
  /// The inputs in `paths`: files, and the files directly inside directories (sorted).
  public static func inputFiles(_ paths: [String]) -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        files += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
      } else {
        files.append(path)
      }
    }
    return files
  }

  /// What a fuzz executable does when built without libFuzzer: runs the target on every
  /// input file named in `arguments` (or inside a named directory), printing each
  /// violation, and returns the exit status: 0 when all hold, 1 when one fails, 2 for no
  /// input. A crash, as under libFuzzer, ends the process.
  public func replay(_ arguments: [String]) -> Int32 {
    let files = Self.inputFiles(arguments)
    guard !files.isEmpty else {
      print("usage: \(executableName) FILE|DIRECTORY...  (replays inputs; Tools/fuzz.sh fuzzes)")
      return 2
    }
    var failures = 0
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        print("\(file): cannot read")
        failures += 1
        continue
      }
      do {
        try run(Array(data))
      } catch {
        print("\(file): \(error)")
        failures += 1
      }
    }
    print("\(executableName): \(files.count - failures) passed, \(failures) failed")
    return failures == 0 ? 0 : 1
  }
}
