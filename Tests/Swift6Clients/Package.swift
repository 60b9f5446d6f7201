// swift-tools-version:6.0
import PackageDescription

/// Swift 6 programs that use Hearth as an app would, each built and run as a process by
/// `Swift6ClientTests` (Tests/HearthShellTests): a callback written on the main actor must
/// run there, never trap Swift's isolation check. `MainActorHandlerOffMain` must not
/// compile: handing a main-actor function to Hearth from code outside any actor is a
/// compile-time error, not a run-time trap.
let package = Package(
  name: "Swift6Clients",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Hearth", path: "../..")],
  targets: [
    .executableTarget(name: "Reproduction", dependencies: [.product(name: "Hearth", package: "Hearth")]),
    .executableTarget(name: "ViewModel", dependencies: [.product(name: "Hearth", package: "Hearth")]),
    .executableTarget(name: "Completions", dependencies: [.product(name: "Hearth", package: "Hearth")]),
    .executableTarget(name: "Streams", dependencies: [.product(name: "Hearth", package: "Hearth")]),
    .executableTarget(name: "BlockedMain", dependencies: [.product(name: "Hearth", package: "Hearth")]),
    .executableTarget(name: "MainActorHandlerOffMain", dependencies: [.product(name: "Hearth", package: "Hearth")]),
  ],
  swiftLanguageModes: [.v6]
)
