// swift-tools-version:6.0
import PackageDescription

/// Layers, top to bottom (each only calls those below it): hearth → HearthShell →
/// HearthEmulator → Hearth → HearthServer → HearthCore → HearthStorage → CLMDB
/// (docs/architecture.md).
let package = Package(
  name: "Hearth",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Hearth", targets: ["Hearth"]),
    // `Database.serve`: the Firestore emulator's wire protocol for a database a program has open.
    .library(name: "HearthEmulator", targets: ["HearthEmulator"]),
    .executable(name: "hearth", targets: ["hearth"]),
  ],
  targets: [
    .systemLibrary(
      name: "CLMDB",
      pkgConfig: "lmdb",
      providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
    ),
    // libdeflate's CRC-32 (zlib's checksum, computed with carry-less multiplication where the
    // processor has it: ~6× zlib's own) checksums every stored document.
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
    // libedit: the interactive shell's line editor (history, completion).
    .systemLibrary(
      name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
    .target(name: "HearthStorage", dependencies: ["CLMDB", "CDeflate"]),
    .target(name: "HearthCore", dependencies: ["HearthStorage", "CDeflate"]),
    .target(name: "Hearth", dependencies: ["HearthCore"]),
    .target(name: "HearthShell", dependencies: ["Hearth", "HearthServer", "CEditLine"]),
    .executableTarget(name: "hearth", dependencies: ["HearthShell"]),
    // gRPC's C core (libgrpc-dev); linked by name, as its pkg-config flags overflow the command line.
    .systemLibrary(name: "CGRPC", providers: [.apt(["libgrpc-dev"]), .brew(["grpc"])]),
    // `hearth serve`: the Firestore emulator's wire protocol, on gRPC's C core.
    .target(name: "HearthServer", dependencies: ["HearthCore", "CGRPC"]),
    .target(name: "HearthEmulator", dependencies: ["Hearth", "HearthServer"]),

    // Developer tools: the benchmark, the demo-data writer and the torture worker.
    .systemLibrary(
      name: "CSQLite",
      path: "Tools/Bench/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .executableTarget(
      name: "hearth-bench",
      dependencies: ["Hearth", "HearthCore", "CLMDB", "CSQLite", "HearthTestSupport"],
      path: "Tools/Bench/Sources"
    ),
    .executableTarget(name: "hearth-demo", dependencies: ["Hearth"], path: "Tools/Demo"),
    // The crash and many-process harnesses' worker (Tools/crash-test.sh, CrashHarnessTests).
    .executableTarget(
      name: "hearth-torture", dependencies: ["Hearth", "HearthStorage", "HearthTestSupport"], path: "Tools/Torture"),
    // The README's example, built and run by the tests so that it stays true.
    .executableTarget(name: "quickstart", dependencies: ["Hearth"], path: "Examples/Quickstart"),

    // Fuzzing (Tools/Fuzz/README.md): one function per target in HearthFuzzing, replayed
    // by HearthFuzzingTests; each fuzz-* executable is libFuzzer's entry point when built
    // by Tools/fuzz.sh (-DFUZZING, -sanitize=fuzzer) and a replayer of input files when
    // built plainly.
    .target(
      name: "HearthFuzzing", dependencies: ["HearthShell", "Hearth", "HearthCore", "HearthServer"],
      path: "Tools/Fuzz/Targets"),
    .executableTarget(
      name: "fuzz-document-codec", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/DocumentCodec"),
    .executableTarget(name: "fuzz-key-codec", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/KeyCodec"),
    .executableTarget(
      name: "fuzz-extended-json", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/ExtendedJSON"),
    .executableTarget(name: "fuzz-query", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/Query"),
    .executableTarget(name: "fuzz-import-line", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/ImportLine"),
    .executableTarget(
      name: "fuzz-firestore-request", dependencies: ["HearthFuzzing"], path: "Tools/Fuzz/Entry/FirestoreRequest"),

    // What the test targets share (they cannot share files): the database fixture, the
    // seeded generator (the benchmark and the torture worker use it too), the JSON Schema
    // validator, running a process, damaging a data file and the repository's root.
    .target(name: "HearthTestSupport", dependencies: ["Hearth"], path: "Tests/HearthTestSupport"),
    .testTarget(name: "HearthStorageTests", dependencies: ["HearthStorage", "HearthTestSupport"]),
    .testTarget(name: "HearthCoreTests", dependencies: ["HearthCore", "HearthTestSupport"]),
    .testTarget(name: "HearthTests", dependencies: ["Hearth", "HearthTestSupport"]),
    .testTarget(name: "HearthFuzzingTests", dependencies: ["HearthFuzzing"]),
    // Python/ holds the script that builds messages with Google's Python client.
    .testTarget(
      name: "HearthServerTests", dependencies: ["HearthServer", "HearthEmulator", "HearthCore", "HearthTestSupport"],
      exclude: ["Python"]),
    .testTarget(
      name: "HearthShellTests",
      dependencies: ["HearthShell", "Hearth", "HearthCore", "HearthStorage", "HearthTestSupport", "CTestTerminal"]),
    // Pseudo-terminal calls for the interactive shell's terminal tests.
    .target(name: "CTestTerminal", path: "Tests/CTestTerminal"),
  ],
  swiftLanguageModes: [.v6]
)
